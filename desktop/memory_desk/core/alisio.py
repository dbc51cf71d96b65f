"""Alisio's memory plugin, as Memory Desk understands it (FORMATS.md, part A).

This module is the one place that knows the plugin's schema and its write rules:
the exact DDL of its migrations (object names included), the normalised hash,
``<private>`` redaction, trimming and the title/content caps (all with JavaScript's
string semantics, from :mod:`memory_desk.core.jstext`), what a valid type and topic_key
are, and how a save upserts by topic_key or counts a duplicate.

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

from memory_desk.core import jstext
from memory_desk.core.errors import StoreError

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

TOPIC_KEY_CAP = 80  # a key of two parts or more is cut here (UTF-16 units; it is ASCII)
_TOPIC_KEY_OTHERS_RE = re.compile(r"[^a-z0-9]+")
REDACTED = "[REDACTED]"
# The plugin's regex is case-insensitive without JavaScript's ``u`` flag: its Canonicalize
# upper-cases one code unit but never maps a non-ASCII character to an ASCII one, so only
# ASCII case differences match (``<PRİVATE>`` and ``<prıvate>`` are not tags). Python's
# IGNORECASE alone would take İ and ı for i: ASCII keeps it to the plugin's set.
_PRIVATE_RE = re.compile(r"<private>.*?</private>", re.IGNORECASE | re.DOTALL | re.ASCII)

# The plugin's migration (``src/store.ts``), statement for statement and name for name:
# a test fixture or demo built from anything else tests our idea of the plugin, not the
# plugin. It runs the preamble, then each version in its own transaction.
SCHEMA_PREAMBLE = """
PRAGMA journal_mode=WAL;
PRAGMA busy_timeout=5000;
CREATE TABLE IF NOT EXISTS schema_migrations(version INTEGER PRIMARY KEY);
"""

SCHEMA_100 = """
CREATE TABLE IF NOT EXISTS observations (
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
CREATE INDEX IF NOT EXISTS observations_recent
    ON observations(project, deleted_at, updated_at DESC);
CREATE INDEX IF NOT EXISTS observations_topic
    ON observations(scope, topic_key, project) WHERE topic_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS observations_hash ON observations(normalized_hash, project);
CREATE INDEX IF NOT EXISTS observations_session ON observations(session_id, created_at);
CREATE VIRTUAL TABLE IF NOT EXISTS observations_fts USING fts5(
    title, content, tool_name, type, project, topic_key,
    content='observations', content_rowid='id', tokenize='trigram'
);
CREATE TRIGGER IF NOT EXISTS observations_ai AFTER INSERT ON observations BEGIN
    INSERT INTO observations_fts(rowid, title, content, tool_name, type, project, topic_key)
    VALUES (new.id, new.title, new.content, new.tool_name, new.type, new.project, new.topic_key);
END;
CREATE TRIGGER IF NOT EXISTS observations_ad AFTER DELETE ON observations BEGIN
    INSERT INTO observations_fts(observations_fts, rowid, title, content, tool_name, type,
                                 project, topic_key)
    VALUES ('delete', old.id, old.title, old.content, old.tool_name, old.type, old.project,
            old.topic_key);
END;
CREATE TRIGGER IF NOT EXISTS observations_au
AFTER UPDATE OF title, content, tool_name, type, project, topic_key ON observations BEGIN
    INSERT INTO observations_fts(observations_fts, rowid, title, content, tool_name, type,
                                 project, topic_key)
    VALUES ('delete', old.id, old.title, old.content, old.tool_name, old.type, old.project,
            old.topic_key);
    INSERT INTO observations_fts(rowid, title, content, tool_name, type, project, topic_key)
    VALUES (new.id, new.title, new.content, new.tool_name, new.type, new.project, new.topic_key);
END;
CREATE TABLE IF NOT EXISTS memory_sessions (
    id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    directory TEXT,
    started_at INTEGER,
    ended_at INTEGER,
    summary TEXT
);
CREATE INDEX IF NOT EXISTS memory_sessions_recent ON memory_sessions(project, ended_at DESC);
CREATE TABLE IF NOT EXISTS user_prompts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT,
    content TEXT NOT NULL,
    project TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS user_prompts_recent ON user_prompts(project, created_at DESC);
INSERT OR IGNORE INTO schema_migrations VALUES(100);
"""

SCHEMA_101 = """
CREATE TABLE IF NOT EXISTS injected_context (
    session_id TEXT PRIMARY KEY,
    project TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
INSERT OR IGNORE INTO schema_migrations VALUES(101);
"""


def now_ms() -> int:
    """Milliseconds since the Unix epoch, the plugin's timestamp unit."""
    return time.time_ns() // 1_000_000


# ------------------------------------------------------------ the plugin's text rules


@dataclass(frozen=True)
class StoredPreview:
    """What the plugin would store for a title or content as typed, and why it differs.

    The editor shows it before saving: a counter in the plugin's units and a note when
    the text will be cut, redacted or trimmed.
    """

    stored: str  # what the plugin would store for this text
    units: int  # jstext.utf16_len(stored)
    cap: int  # 200 for titles, 50_000 for content
    typed_units: int  # utf16_len of the raw text as typed
    cut: bool  # the cap cut it (stored ends with "... [truncated]" added by the cap)
    redacted: bool  # at least one <private>…</private> span became [REDACTED]
    trimmed: bool  # leading/trailing whitespace will be dropped
    kept_whole: bool = False  # over the cap, and stored whole (see preview_content)


def redact(text: str) -> str:
    """Replace every ``<private>…</private>`` span by ``[REDACTED]``, as the plugin stores it."""
    return _PRIVATE_RE.sub(REDACTED, text)


def js_cap(text: str, cap: int) -> str:
    """The plugin's ``cap(text, max)``, counted in UTF-16 code units as JavaScript counts.

    ``text.length > max ? text.slice(0, max - suffix.length) + suffix : text``: the suffix
    is inside the cap, and a cut through an emoji leaves half of it, which reaches the
    file as U+FFFD (:func:`memory_desk.core.jstext.utf16_slice`).
    """
    if jstext.utf16_len(text) <= cap:
        return text
    return jstext.utf16_slice(text, cap - len(TRUNCATED_SUFFIX)) + TRUNCATED_SUFFIX


def cap_title(title: str) -> str:
    """The plugin's title cap (200 UTF-16 units, ``... [truncated]`` included)."""
    return js_cap(title, TITLE_CAP)


def cap_content(content: str) -> str:
    """The plugin's content cap (50,000 UTF-16 units, ``... [truncated]`` included)."""
    return js_cap(content, CONTENT_CAP)


def preview_title(raw: str) -> StoredPreview:
    """What ``memory_save`` would store as the title for ``raw``: redacted, trimmed, capped."""
    return _preview(raw, TITLE_CAP)


def preview_content(raw: str, *, whole: bool = False) -> StoredPreview:
    """What ``memory_save`` would store as the content for ``raw``: redacted, trimmed, capped.

    With ``whole``, the cap does not cut it: Memory Desk's own edit of a row that already
    holds more than the cap (another writer's) keeps what the person saves whole, since
    cutting it would drop text the person never removed.
    """
    return _preview(raw, CONTENT_CAP, whole=whole)


def prepare_title(raw: str) -> str:
    """``cap(redactPrivate(title).trim(), 200)``: the title exactly as the plugin stores it."""
    return _preview(raw, TITLE_CAP).stored


def over_content_cap(content: str | None) -> bool:
    """Does this stored content hold more than the plugin's cap (another writer's)?"""
    return content is not None and jstext.utf16_len(content) > CONTENT_CAP


def prepare_content(raw: str, *, whole: bool = False) -> str:
    """``cap(redactPrivate(content).trim(), 50000)``: the content as the plugin stores it
    (``whole``: not cut, see :func:`preview_content`)."""
    return _preview(raw, CONTENT_CAP, whole=whole).stored


def _preview(raw: str, cap: int, *, whole: bool = False) -> StoredPreview:
    redacted, spans = _PRIVATE_RE.subn(REDACTED, raw)
    trimmed = jstext.js_trim(redacted)
    units = jstext.utf16_len(trimmed)
    stored = trimmed
    cut = units > cap and not whole
    if cut:
        stored = jstext.utf16_slice(trimmed, cap - len(TRUNCATED_SUFFIX)) + TRUNCATED_SUFFIX
    return StoredPreview(
        stored=as_written(stored),
        units=units if whole else min(units, cap),
        cap=cap,
        typed_units=jstext.utf16_len(raw),
        cut=cut,
        redacted=spans > 0,
        trimmed=len(trimmed) != len(redacted),
        kept_whole=whole and units > cap,
    )


def as_written(text: str) -> str:
    """``text`` as it reaches the file from JavaScript: a lone surrogate half becomes U+FFFD.

    JavaScript strings may hold lone halves (a cut through an emoji, or bad input); Node
    encodes them to UTF-8 as U+FFFD. Two halves that form a pair become the character.
    """
    try:
        text.encode("utf-8")  # (only a surrogate half fails; far faster than a search)
    except UnicodeEncodeError:
        return jstext.utf16_slice(text, jstext.utf16_len(text))
    return text


def normalized_hash(content: str) -> str:
    """The plugin's ``sha256(content.toLowerCase().replace(/\\s+/g, " ").trim())``, in hex.

    Whitespace and trimming are JavaScript's (:mod:`memory_desk.core.jstext`): they take
    U+FEFF but not U+0085 nor U+001C..U+001F, unlike Python's ``\\s`` and ``split()``.

    Lower-casing: Python's ``str.lower()`` and JavaScript's ``toLowerCase()`` both apply
    Unicode's full default mapping, SpecialCasing included (``İ`` becomes ``i̇``, two code
    points, in both) and the Final_Sigma rule (``Σ`` at the end of a word becomes ``ς``
    in both; checked on 20,000 random strings of Greek letters, case-ignorable marks and
    spaces against Node 20). They differ only where their Unicode versions differ: every
    code point was compared with Node 20.20 (ICU 78, Unicode 17) and the only differences
    are the 55 capital letters added in Unicode 16 and 17 (U+1C89, U+A7CB..U+A7DC,
    Garay U+10D50..U+10D65, Beria Erfe U+16EA0..U+16EB8), which Python 3.11 (Unicode 14)
    leaves as they are. A text using them hashes differently here than in a newer Node;
    that costs at most a duplicate count, and an older Node would agree with Python, so
    no table is patched in. Memory Desk therefore never rewrites a stored hash for content
    it did not change (an edit of the title, type or topic key keeps it), and says so when
    it cannot reproduce a row's stored hash (:func:`reproduces_hash`) instead of "fixing" it.
    """
    # Surrogate halves side by side are one character to JavaScript (and may have a lower
    # case); a lone half is left alone by every step and reaches UTF-8 as U+FFFD.
    lowered = as_written(content).lower()
    normal = jstext.js_collapse_spaces(lowered)
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


def reproduces_hash(content: str, stored_hash: str) -> bool:
    """Whether :func:`normalized_hash` of ``content`` is the hash stored with it. False for
    a row the agent hashed with newer Unicode tables than Python's (or any other writer's
    hash): a fact to show the person, not something to rewrite."""
    return normalized_hash(content) == stored_hash


def is_valid_type(value: str) -> bool:
    """One of the plugin's eight observation types."""
    return value in OBSERVATION_TYPES


def normalize_topic_key(key: str | None) -> str | None:
    """The topic_key as the plugin stores it (``normalizeTopicKey``, FORMATS.md A); None
    when nothing is left, i.e. no topic key.

    Split on ``/``; each part lower-cased (JavaScript's ``toLowerCase``, which Python's
    ``str.lower`` matches: ``İ`` becomes ``i`` + U+0307), every run of characters outside
    ``a-z0-9`` made one ``-``, ``-`` dropped at both ends, empty parts dropped. One part is
    the key alone (a family-only key such as ``deployment``, never cut); more parts are
    ``family/`` + the rest joined by ``-``, the whole key then cut at 80 characters with a
    plain slice: a ``-`` the cut leaves at the end stays, as FORMATS.md asks no trim after it.
    """
    if key is None:
        return None
    parts = []
    for part in as_written(key).split("/"):
        part = _TOPIC_KEY_OTHERS_RE.sub("-", part.lower()).strip("-")
        if part:
            parts.append(part)
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return f"{parts[0]}/{'-'.join(parts[1:])}"[:TOPIC_KEY_CAP]


def is_valid_topic_key(value: str) -> bool:
    """True when ``value`` is a key the plugin stores: one it keeps as it is, or one it cut
    at 80 characters (which may end with the dash or slash the cut left, and which
    :func:`normalize_topic_key` would not give back unchanged)."""
    if not value:
        return False
    if normalize_topic_key(value) == value:
        return True
    return len(value) == TOPIC_KEY_CAP and normalize_topic_key(value + "a") == value


def stored_topic_key(key: str | None) -> str | None:
    """The topic_key a person's ``key`` is stored as: a key the plugin stores stays as it is
    (:func:`is_valid_topic_key`: normalising a cut key again would drop the dash the cut left,
    and the agent's next save would miss it), anything else is normalised."""
    if key is not None and is_valid_topic_key(key):
        return key
    return normalize_topic_key(key)


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
    """Create a memory database as the plugin's migrations do, file mode 0600.

    The preamble (WAL, busy_timeout, ``schema_migrations``), then each version in its own
    transaction; ``versions=(100,)`` builds what an older plugin left.
    """
    path = Path(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    conn = connect_like_plugin(path)
    try:
        conn.executescript(SCHEMA_PREAMBLE)
        if 100 in versions:
            conn.executescript("BEGIN;" + SCHEMA_100 + "COMMIT;")
        if 101 in versions:
            conn.executescript("BEGIN;" + SCHEMA_101 + "COMMIT;")
    finally:
        conn.close()


@dataclass(frozen=True)
class SaveResult:
    """Which row a save landed on, and how."""

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

    This is the tests' and the demo's stand-in for the agent, so it follows the plugin's
    rules to the letter: title and content redacted, JavaScript-trimmed and capped in
    UTF-16 units (:func:`prepare_title`, :func:`prepare_content`), refused when empty; a
    topic_key rewrites the row the plugin's own query picks (``ORDER BY updated_at DESC
    LIMIT 1`` among live rows with that scope and key, and project unless personal).

    ``conn`` must be in autocommit mode (``isolation_level=None``); the save is one
    ``BEGIN IMMEDIATE`` transaction.
    """
    now = now_ms() if now is None else now
    # JavaScript strings may hold lone surrogate halves; they reach the file as U+FFFD.
    title = prepare_title(as_written(title))
    content = prepare_content(as_written(content))
    if not title or not content:
        raise StoreError("Memory title and content are required")
    digest = normalized_hash(content)
    topic_key = normalize_topic_key(topic_key)  # the plugin normalises every key it saves
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
            " ORDER BY updated_at DESC LIMIT 1",
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
