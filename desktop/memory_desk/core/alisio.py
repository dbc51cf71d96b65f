"""Alisio's memory plugin, as Memory Desk understands it (FORMATS.md, part A).

This module is the one place that knows the plugin's schema and its write rules:
the normalised hash, ``<private>`` redaction, the title/content caps, what a valid
type and topic_key are, and how a save upserts by topic_key or counts a duplicate.

The store uses the rules so a hand edit looks exactly like the plugin's own revision;
the demo and the tests use :func:`create_database` and :func:`save_observation` to
build databases the way the agent builds them, and to play the agent in a second
process. Pure Python, no Qt.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

OBSERVATION_TYPES: tuple[str, ...] = (
    "decision",
    "bugfix",
    "discovery",
    "pattern",
    "architecture",
    "config",
    "preference",
    "learning",
)
SCOPES: tuple[str, ...] = ("project", "personal")
KNOWN_SCHEMA_VERSIONS: frozenset[int] = frozenset({100, 101})

TITLE_CAP = 200
CONTENT_CAP = 50_000
TRUNCATED_SUFFIX = "... [truncated]"
DUPLICATE_WINDOW_MS = 15 * 60 * 1000

_KEBAB = r"[a-z0-9]+(?:-[a-z0-9]+)*"
TOPIC_KEY_RE = re.compile(rf"^{_KEBAB}(?:/{_KEBAB})+$")
_PRIVATE_RE = re.compile(r"<private>.*?</private>", re.IGNORECASE | re.DOTALL)
_WHITESPACE_RE = re.compile(r"\s+")

SCHEMA_100 = """
CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY);
CREATE TABLE observations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT,
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    tool_name TEXT,
    project TEXT NOT NULL,
    scope TEXT NOT NULL DEFAULT 'project',
    topic_key TEXT,
    normalized_hash TEXT NOT NULL,
    revision_count INTEGER NOT NULL DEFAULT 1,
    duplicate_count INTEGER NOT NULL DEFAULT 1,
    last_seen_at INTEGER,
    pinned INTEGER NOT NULL DEFAULT 0,
    access_count INTEGER NOT NULL DEFAULT 0,
    last_accessed_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    deleted_at INTEGER
);
CREATE INDEX idx_observations_project ON observations(project, deleted_at, updated_at DESC);
CREATE INDEX idx_observations_topic ON observations(scope, topic_key, project)
    WHERE topic_key IS NOT NULL;
CREATE INDEX idx_observations_hash ON observations(normalized_hash, project);
CREATE INDEX idx_observations_session ON observations(session_id, created_at);
CREATE VIRTUAL TABLE observations_fts USING fts5(
    title, content, tool_name, type, project, topic_key,
    content='observations', content_rowid='id', tokenize='trigram'
);
CREATE TRIGGER observations_fts_insert AFTER INSERT ON observations BEGIN
    INSERT INTO observations_fts(rowid, title, content, tool_name, type, project, topic_key)
    VALUES (new.id, new.title, new.content, new.tool_name, new.type, new.project, new.topic_key);
END;
CREATE TRIGGER observations_fts_delete AFTER DELETE ON observations BEGIN
    INSERT INTO observations_fts(observations_fts, rowid, title, content, tool_name, type,
                                 project, topic_key)
    VALUES ('delete', old.id, old.title, old.content, old.tool_name, old.type, old.project,
            old.topic_key);
END;
CREATE TRIGGER observations_fts_update
AFTER UPDATE OF title, content, tool_name, type, project, topic_key ON observations BEGIN
    INSERT INTO observations_fts(observations_fts, rowid, title, content, tool_name, type,
                                 project, topic_key)
    VALUES ('delete', old.id, old.title, old.content, old.tool_name, old.type, old.project,
            old.topic_key);
    INSERT INTO observations_fts(rowid, title, content, tool_name, type, project, topic_key)
    VALUES (new.id, new.title, new.content, new.tool_name, new.type, new.project, new.topic_key);
END;
CREATE TABLE memory_sessions (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    directory TEXT,
    started_at INTEGER,
    ended_at INTEGER,
    summary TEXT
);
CREATE INDEX idx_memory_sessions_project ON memory_sessions(project, ended_at DESC);
CREATE TABLE user_prompts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT,
    content TEXT NOT NULL,
    project TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
INSERT INTO schema_migrations(version) VALUES (100);
"""

SCHEMA_101 = """
CREATE TABLE injected_context (
    session_id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
INSERT INTO schema_migrations(version) VALUES (101);
"""


def now_ms() -> int:
    """Milliseconds since the Unix epoch, the plugin's timestamp unit."""
    return time.time_ns() // 1_000_000


def normalized_hash(content: str) -> str:
    """sha256 of the content lower-cased, whitespace runs collapsed, trimmed."""
    normal = _WHITESPACE_RE.sub(" ", content.lower()).strip()
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


def redact(text: str) -> str:
    """Replace every ``<private>…</private>`` span by ``[REDACTED]``, as the plugin stores it."""
    return _PRIVATE_RE.sub("[REDACTED]", text)


def cap_title(title: str) -> str:
    return title[:TITLE_CAP]


def cap_content(content: str) -> str:
    if len(content) <= CONTENT_CAP:
        return content
    return content[: CONTENT_CAP - len(TRUNCATED_SUFFIX)] + TRUNCATED_SUFFIX


def is_valid_type(value: str) -> bool:
    return value in OBSERVATION_TYPES


def is_valid_topic_key(value: str) -> bool:
    return bool(TOPIC_KEY_RE.match(value))


def project_id(directory: str | os.PathLike[str]) -> str:
    """``<basename>-<first 8 hex of sha256(realpath)>``, the plugin's project name."""
    real = os.path.realpath(directory)
    digest = hashlib.sha256(real.encode("utf-8")).hexdigest()[:8]
    return f"{os.path.basename(real) or 'root'}-{digest}"


def connect_like_plugin(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """Open the database as the plugin does: WAL, busy_timeout 5000, autocommit."""
    conn = sqlite3.connect(os.fspath(path), isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def create_database(
    path: str | os.PathLike[str], *, versions: tuple[int, ...] = (100, 101)
) -> None:
    """Create a memory database as the plugin's migrations do, file mode 0600."""
    path = Path(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    conn = connect_like_plugin(path)
    try:
        if 100 in versions:
            conn.executescript("BEGIN;" + SCHEMA_100 + "COMMIT;")
        if 101 in versions:
            conn.executescript("BEGIN;" + SCHEMA_101 + "COMMIT;")
    finally:
        conn.close()


@dataclass(frozen=True)
class SaveResult:
    id: int
    action: str  # "created", "revised" or "duplicate"


def save_observation(
    conn: sqlite3.Connection,
    *,
    title: str,
    content: str,
    type: str,
    project: str,
    scope: str = "project",
    topic_key: str | None = None,
    session_id: str | None = None,
    tool_name: str = "memory_save",
    now: int | None = None,
) -> SaveResult:
    """Save as the plugin's ``memory_save`` does: topic upsert, duplicate count, or insert.

    ``conn`` must be in autocommit mode (``isolation_level=None``); the save is one
    ``BEGIN IMMEDIATE`` transaction.
    """
    now = now_ms() if now is None else now
    title = cap_title(title)
    content = cap_content(redact(content))
    digest = normalized_hash(content)
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = _save_in_transaction(
            conn,
            title,
            content,
            digest,
            type,
            project,
            scope,
            topic_key,
            session_id,
            tool_name,
            now,
        )
        conn.execute("COMMIT")
        return result
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _save_in_transaction(
    conn: sqlite3.Connection,
    title: str,
    content: str,
    digest: str,
    type: str,
    project: str,
    scope: str,
    topic_key: str | None,
    session_id: str | None,
    tool_name: str,
    now: int,
) -> SaveResult:
    if topic_key:
        row = conn.execute(
            "SELECT id, title, normalized_hash FROM observations"
            " WHERE topic_key = ? AND scope = ? AND deleted_at IS NULL"
            " AND (scope = 'personal' OR project = ?)"
            " ORDER BY updated_at DESC, id DESC LIMIT 1",
            (topic_key, scope, project),
        ).fetchone()
        if row is not None:
            if row[1] == title and row[2] == digest:
                _count_duplicate(conn, row[0], now)
                return SaveResult(row[0], "duplicate")
            conn.execute(
                "UPDATE observations SET title = ?, type = ?, content = ?, normalized_hash = ?,"
                " session_id = ?, tool_name = ?, revision_count = revision_count + 1,"
                " last_seen_at = ?, updated_at = ? WHERE id = ?",
                (title, type, content, digest, session_id, tool_name, now, now, row[0]),
            )
            return SaveResult(row[0], "revised")
    row = conn.execute(
        "SELECT id FROM observations WHERE normalized_hash = ? AND project = ? AND scope = ?"
        " AND type = ? AND title = ? AND deleted_at IS NULL AND updated_at >= ?"
        " ORDER BY updated_at DESC, id DESC LIMIT 1",
        (digest, project, scope, type, title, now - DUPLICATE_WINDOW_MS),
    ).fetchone()
    if row is not None:
        _count_duplicate(conn, row[0], now)
        return SaveResult(row[0], "duplicate")
    cursor = conn.execute(
        "INSERT INTO observations (session_id, type, title, content, tool_name, project, scope,"
        " topic_key, normalized_hash, last_seen_at, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            session_id,
            type,
            title,
            content,
            tool_name,
            project,
            scope,
            topic_key,
            digest,
            now,
            now,
            now,
        ),
    )
    return SaveResult(int(cursor.lastrowid), "created")


def _count_duplicate(conn: sqlite3.Connection, row_id: int, now: int) -> None:
    conn.execute(
        "UPDATE observations SET duplicate_count = duplicate_count + 1, last_seen_at = ?,"
        " updated_at = ? WHERE id = ?",
        (now, now, row_id),
    )
