"""The plugin's search index beside ``observations``: are its triggers there, does it agree?

Health is judged by what exists and what it does, never by object names: a trigger
counts when it is on ``observations`` and writes ``observations_fts``, whatever it is
called, and the index agrees with the rows when FTS5's own ``integrity-check`` says so.

The integrity check is an INSERT into the FTS table: on the agent's file it would hold the
write lock for seconds and make the agent's saves wait or fail.
So it runs on a snapshot: the sqlite3 backup API copies the database from a read
transaction (which, in WAL mode, never blocks the agent's commits) into memory, or into
a temporary file in Memory Desk's own cache folder when the database is big, and the
check runs there. Nothing is ever written beside the agent's file. Pure Python, no Qt.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

# The columns the plugin indexes, in the FTS table's order.
FTS_COLUMNS: tuple[str, ...] = ("title", "content", "tool_name", "type", "project", "topic_key")
TRIGGER_EVENTS: tuple[str, ...] = ("INSERT", "DELETE", "UPDATE")

# Databases up to this size are copied into memory for the check; bigger ones into a
# temporary file in the cache folder, so the check never needs the database's size in RAM.
SNAPSHOT_IN_MEMORY_MAX = 64 * 1024 * 1024

_NAME = r"""(?:"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|'(?:[^']|'')*'|[^\s.("`'\[]+)"""
_TRIGGER_HEAD_RE = re.compile(
    rf"""^\s*CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?
    (?:{_NAME}\s*\.\s*)?{_NAME}\s+
    (?:BEFORE\s+|AFTER\s+|INSTEAD\s+OF\s+)?
    (?P<event>DELETE|INSERT|UPDATE)\b
    (?:\s+OF\s+(?P<columns>.*?))?\s+ON\s""",
    re.IGNORECASE | re.VERBOSE | re.DOTALL,
)
_WRITES_FTS_RE = re.compile(r"""\bINSERT\s+INTO\s+["`\[]?observations_fts["`\]]?\s*\(""", re.I)

_SQLITE_ERROR = 1
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26


def missing_triggers(conn: sqlite3.Connection) -> list[str]:
    """What keeps the index in step and is missing, in words ("after insert", ...).

    Empty on a healthy database. An update trigger that fires only for some of the
    indexed columns is reported for the columns it misses.
    """
    covered: set[str] = set()
    update_columns: set[str] = set()
    rows = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND lower(tbl_name) = 'observations'"
    ).fetchall()
    for (sql,) in rows:
        event, columns = _trigger_event(str(sql or ""))
        if event is None:
            continue
        covered.add(event)
        if event == "UPDATE":
            update_columns |= set(FTS_COLUMNS) if columns is None else columns
    missing = [f"after {event.lower()}" for event in TRIGGER_EVENTS if event not in covered]
    unwatched = [name for name in FTS_COLUMNS if name not in update_columns]
    if "UPDATE" in covered and unwatched:
        missing.append("after update of " + ", ".join(unwatched))
    return missing


def _trigger_event(sql: str) -> tuple[str | None, set[str] | None]:
    """The event of a trigger that writes the FTS table, and its ``UPDATE OF`` columns."""
    head = _TRIGGER_HEAD_RE.match(sql)
    if head is None or not _WRITES_FTS_RE.search(sql, head.end()):
        return None, None
    columns = head.group("columns")
    if columns is None:
        return head.group("event").upper(), None
    names = {name.strip().strip("\"`[]'").lower() for name in columns.split(",")}
    return head.group("event").upper(), names


def snapshot_problems(source: sqlite3.Connection, cache: Path) -> tuple[str | None, str | None]:
    """``(database, index)``: what SQLite's ``quick_check`` and FTS5's ``integrity-check``
    found on one snapshot of ``source`` (None: nothing).

    Both run on the copy, so neither holds a read transaction on the agent's file for
    seconds nor takes its write lock. The backup copies pages as they are, so damaged pages
    stay damaged in the copy; a file too damaged to copy is reported as the database's
    problem. The index is checked only when the database itself is sound: on a damaged
    file its complaint would say nothing more. Errors that say nothing about the file (the
    cache's disk full, memory) propagate as sqlite3 errors.
    """
    try:
        size = _database_size(source)
    except sqlite3.DatabaseError as exc:
        if _code(exc) not in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            raise
        return str(exc), None
    with _snapshot_target(size, cache) as target:
        try:
            source.backup(target)
            damage = _quick_check(target)
        except sqlite3.DatabaseError as exc:
            if _code(exc) not in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
                raise
            return str(exc), None
        if damage is not None:
            return damage, None
        try:
            target.execute(
                "INSERT INTO observations_fts(observations_fts, rank) VALUES('integrity-check', 1)"
            )
        except sqlite3.DatabaseError as exc:
            if _code(exc) in (_SQLITE_CORRUPT, _SQLITE_ERROR):
                return None, str(exc)
            raise
    return None, None


def _quick_check(conn: sqlite3.Connection) -> str | None:
    """SQLite's ``quick_check`` (b-trees, records, NOT NULL; not index contents): its first
    complaints joined, or None when it says ok."""
    lines = [str(row[0]) for row in conn.execute("PRAGMA quick_check(5)").fetchall()]
    if lines == ["ok"]:
        return None
    return "; ".join(lines)


def _code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


def _database_size(conn: sqlite3.Connection) -> int:
    pages = conn.execute("PRAGMA page_count").fetchall()[0][0]
    size = conn.execute("PRAGMA page_size").fetchall()[0][0]
    return int(pages) * int(size)


@contextlib.contextmanager
def _snapshot_target(size: int, cache: Path) -> Iterator[sqlite3.Connection]:
    """An empty database to copy into: in memory, or a private temporary file in ``cache``."""
    if size <= SNAPSHOT_IN_MEMORY_MAX:
        target = sqlite3.connect(":memory:")
        try:
            yield target
        finally:
            target.close()
        return
    cache.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix="index-check-", suffix=".sqlite", dir=cache)
    os.close(fd)
    target = sqlite3.connect(name)
    try:
        # A throwaway copy: no journal, no syncing to disk.
        target.execute("PRAGMA journal_mode=OFF")
        target.execute("PRAGMA synchronous=OFF")
        yield target
    finally:
        target.close()
        for leftover in (name, name + "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(leftover)
