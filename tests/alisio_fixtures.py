"""Build Alisio memory databases for tests and benchmarks, the way the plugin fills them.

Every database starts from :func:`memory_desk.core.alisio.create_database` (the
plugin's own migrations, FTS triggers included). Rows go in with plain INSERT and
UPDATE statements inside one transaction, so the real triggers index them; that is
fast enough for 100,000 rows and keeps the FTS index exactly as the plugin's would be.

The generated text is deterministic for a seed and uses a small vocabulary, so tests
and benchmarks can search for words they know are there (short ones such as ``db``
included).
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from memory_desk.core import alisio
from memory_desk.core.observations import Observation

DAY_MS = 24 * 3600 * 1000
BASE_NOW = 1_790_000_000_000  # a fixed "now" (2026-09) so fixtures are reproducible
PROJECTS = ("alpha-1a2b3c4d", "beta-5e6f7a8b", "gamma-9c0d1e2f")
WORDS = [
    "token",
    "refresh",
    "sqlite",
    "cache",
    "index",
    "query",
    "parser",
    "widget",
    "layout",
    "thread",
    "worker",
    "signal",
    "config",
    "plugin",
    "session",
    "memory",
    "search",
    "ranking",
    "trigram",
    "schema",
    "migration",
    "upsert",
    "rollback",
    "commit",
    "journal",
    "network",
    "retry",
    "timeout",
    "backoff",
    "socket",
    "render",
    "scroll",
    "keyboard",
    "shortcut",
    "window",
    "dialog",
    "theme",
    "font",
    "colour",
    "encoding",
    "unicode",
    "locale",
    "deploy",
    "docker",
    "build",
    "release",
    "version",
    "package",
    "import",
    "module",
    "test",
    "fixture",
    "mock",
]
SHORT_WORDS = ("db", "ui", "id", "io", "qt", "os")
TOPIC_FAMILIES = ("auth", "build", "ui", "db", "search", "release")


@dataclass(frozen=True)
class Populated:
    """What :func:`populate` wrote, so a test can assert against it."""

    ids: list[int]
    pinned: set[int]
    forgotten: set[int]
    revised: set[int]


@contextmanager
def plugin_connection(path: str | os.PathLike[str]) -> Iterator[sqlite3.Connection]:
    """A connection opened as the plugin opens it, closed afterwards."""
    conn = alisio.connect_like_plugin(path)
    try:
        yield conn
    finally:
        conn.close()


def build_database(
    path: str | os.PathLike[str],
    count: int = 0,
    *,
    seed: int = 0,
    versions: tuple[int, ...] = (100, 101),
    **options: float,
) -> Path:
    """Create a memory database as the plugin does and fill it with ``count`` rows."""
    path = Path(path)
    alisio.create_database(path, versions=versions)
    if count:
        populate(path, count, seed=seed, **options)
    return path


def copy_database(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Path:
    """Copy a closed fixture database (mode included): faster than building it per test."""
    return Path(shutil.copy(source, target))


def populate(
    path: str | os.PathLike[str],
    count: int,
    *,
    seed: int = 0,
    now: int = BASE_NOW,
    pinned_ratio: float = 0.05,
    forgotten_ratio: float = 0.1,
    topic_ratio: float = 0.2,
    revised_ratio: float = 0.3,
    personal_ratio: float = 0.1,
    content_words: int = 60,
) -> Populated:
    """Insert ``count`` observations across projects, scopes and types in one transaction.

    A share of them are pinned, forgotten, or carry a topic_key; of those with a topic,
    ``revised_ratio`` are then rewritten by an UPDATE exactly like the plugin's topic
    upsert (so the update trigger runs and ``revision_count`` grows).
    """
    rng = random.Random(seed)
    rows = [
        _random_row(rng, i, now, content_words, topic_ratio, personal_ratio) for i in range(count)
    ]
    with plugin_connection(path) as conn:
        conn.execute("BEGIN IMMEDIATE")
        first = conn.execute("SELECT coalesce(max(id), 0) FROM observations").fetchone()[0] + 1
        conn.executemany(
            "INSERT INTO observations (session_id, type, title, content, tool_name, project,"
            " scope, topic_key, normalized_hash, last_seen_at, pinned, created_at, updated_at,"
            " deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (_with_flags(rng, row, pinned_ratio, forgotten_ratio) for row in rows),
        )
        ids = list(range(first, first + count))
        revised = _revise_topics(conn, rng, ids, rows, revised_ratio, now)
        conn.execute("COMMIT")
        pinned = {r[0] for r in conn.execute("SELECT id FROM observations WHERE pinned != 0")}
        forgotten = {
            r[0] for r in conn.execute("SELECT id FROM observations WHERE deleted_at IS NOT NULL")
        }
    return Populated(ids, pinned & set(ids), forgotten & set(ids), revised)


def add_observation(
    path: str | os.PathLike[str],
    *,
    title: str,
    content: str = "**What** a note",
    type: str = "decision",
    project: str = PROJECTS[0],
    scope: str = "project",
    topic_key: str | None = None,
    pinned: bool = False,
    deleted_at: int | None = None,
    access_count: int = 0,
    last_accessed_at: int | None = None,
    created_at: int = BASE_NOW,
    updated_at: int | None = None,
    session_id: str | None = "session-1",
) -> int:
    """Insert one row with exactly these values (the plugin's INSERT plus the extra columns)."""
    updated = created_at if updated_at is None else updated_at
    with plugin_connection(path) as conn:
        cursor = conn.execute(
            "INSERT INTO observations (session_id, type, title, content, tool_name, project,"
            " scope, topic_key, normalized_hash, last_seen_at, pinned, access_count,"
            " last_accessed_at, created_at, updated_at, deleted_at)"
            " VALUES (?, ?, ?, ?, 'memory_save', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                session_id,
                type,
                title,
                content,
                project,
                scope,
                topic_key,
                alisio.normalized_hash(content),
                updated,
                int(pinned),
                access_count,
                last_accessed_at,
                created_at,
                updated,
                deleted_at,
            ),
        )
        return int(cursor.lastrowid)


def fts_integrity_problem(path: str | os.PathLike[str]) -> str | None:
    """None if the FTS index matches the observations table, else SQLite's complaint.

    Runs the FTS5 ``integrity-check`` with rank 1, which compares the index against the
    external content table (what the triggers must keep in step).
    """
    with plugin_connection(path) as conn:
        try:
            conn.execute(
                "INSERT INTO observations_fts(observations_fts, rank) VALUES('integrity-check', 1)"
            )
        except sqlite3.DatabaseError as exc:
            return str(exc)
    return None


def read_all(path: str | os.PathLike[str]) -> list[Observation]:
    """Every row as an Observation, read independently of the store (the tests' oracle)."""
    with plugin_connection(path) as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute("SELECT * FROM observations").fetchall()
    names = [name for name in Observation.__slots__ if name != "problems"]
    return [
        Observation(**{k: (bool(row[k]) if k == "pinned" else row[k]) for k in names})
        for row in rows
    ]


def text_matches(row: Observation, text: str) -> bool:
    """The issue's rule: every word occurs, case-insensitively, in title, content or topic_key.

    Words of three characters or more fold case as the trigram index does (Unicode);
    shorter ones as ``LIKE`` does (ASCII letters only), as in the plugin.
    """
    haystacks = (row.title, row.content or "", row.topic_key or "")
    for word in text.replace("\x00", " ").split():
        fold = str.lower if len(word) >= 3 else _ascii_lower
        if not any(fold(word) in fold(haystack) for haystack in haystacks):
            return False
    return True


def _ascii_lower(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)


def agent_columns(path: str | os.PathLike[str]) -> dict[int, tuple[object, ...]]:
    """Every row's counters and timestamps: what browsing must never change."""
    with plugin_connection(path) as conn:
        rows = conn.execute(
            "SELECT id, access_count, last_accessed_at, last_seen_at, updated_at,"
            " revision_count, duplicate_count, deleted_at, pinned FROM observations"
        ).fetchall()
    return {row[0]: row[1:] for row in rows}


def _random_text(rng: random.Random, words: int) -> str:
    return " ".join(
        rng.choice(WORDS) if rng.random() > 0.05 else rng.choice(SHORT_WORDS) for _ in range(words)
    )


def _random_row(
    rng: random.Random,
    index: int,
    now: int,
    content_words: int,
    topic_ratio: float,
    personal_ratio: float,
) -> list[object]:
    created = now - rng.randrange(90 * DAY_MS)
    updated = min(now, created + rng.randrange(3 * DAY_MS))
    title = f"{rng.choice(WORDS).capitalize()} {_random_text(rng, 5)} #{index}"
    content = (
        f"**What** {_random_text(rng, content_words // 3)}\n\n"
        f"**Why** {_random_text(rng, content_words // 3)}\n\n"
        f"**Where** src/{rng.choice(WORDS)}.py\n\n"
        f"**Learned** {_random_text(rng, content_words // 3)}"
    )
    scope = "personal" if rng.random() < personal_ratio else "project"
    topic = None
    if rng.random() < topic_ratio:
        topic = f"{rng.choice(TOPIC_FAMILIES)}/{rng.choice(WORDS)}-{index}"
    return [
        f"session-{index % 50}",
        alisio.OBSERVATION_TYPES[index % len(alisio.OBSERVATION_TYPES)],
        title,
        content,
        rng.choice(("memory_save", "memory_save", "compaction", "session_summary")),
        rng.choice(PROJECTS),
        scope,
        topic,
        alisio.normalized_hash(content),
        updated,
        created,
        updated,
    ]


def _with_flags(
    rng: random.Random, row: list[object], pinned_ratio: float, forgotten_ratio: float
) -> tuple[object, ...]:
    session, type_, title, content, tool, project, scope, topic, digest, seen, created, updated = (
        row
    )
    pinned = int(rng.random() < pinned_ratio)
    deleted = updated + 1000 if rng.random() < forgotten_ratio else None
    return (
        session,
        type_,
        title,
        content,
        tool,
        project,
        scope,
        topic,
        digest,
        seen,
        pinned,
        created,
        updated,
        deleted,
    )


def _revise_topics(
    conn: sqlite3.Connection,
    rng: random.Random,
    ids: list[int],
    rows: list[list[object]],
    revised_ratio: float,
    now: int,
) -> set[int]:
    revised: set[int] = set()
    for row_id, row in zip(ids, rows, strict=True):
        if row[7] is None or rng.random() >= revised_ratio:
            continue
        content = f"{row[3]}\n\n**Learned** revised: {_random_text(rng, 8)}"
        when = min(now, int(row[11]) + DAY_MS)
        conn.execute(
            "UPDATE observations SET title = ?, type = ?, content = ?, normalized_hash = ?,"
            " session_id = ?, tool_name = ?, revision_count = revision_count + 1,"
            " last_seen_at = ?, updated_at = ? WHERE id = ?",
            (
                row[2],
                row[1],
                content,
                alisio.normalized_hash(content),
                row[0],
                "memory_save",
                when,
                when,
                row_id,
            ),
        )
        revised.add(row_id)
    return revised
