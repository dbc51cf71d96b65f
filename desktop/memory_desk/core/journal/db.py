"""The journal's own SQLite file: schema, one connection per thread, errors a person can act on.

The file is Memory Desk's, never an agent's: WAL (a scan on a worker never blocks the
window's reads of the change list), ``auto_vacuum=INCREMENTAL`` so that pruning gives the
space back, 0600 in a 0700 folder (it holds copies of the person's memory).

Tables:
- ``stores``: one row per scanned store (path, kind, the stat stamp of the last scan, the
  newest ``updated_at`` seen, and for observations the ids and forgotten ids seen, as int64
  blobs: one read instead of 100,000 rows, and beside the ids each row's signature, the
  numbers that move when the row is written: see :mod:`.observations`).
- ``targets``: the baseline, one row per observation or entry: its state hash, forgotten
  flag, stat stamp (persona) and the version holding its current text.
- ``versions``: texts (zlib of JSON), referenced by targets and changes.
- ``changes``: what was found, with the review mark.
- ``pending``: the person's own writes not yet seen by a scan (a copy of what the journal
  holds in memory, written by the scans and by ``close``, so a quit right after a write
  still attributes it to the person), each with the row's state just before it (``before``).

Store paths are kept as BLOBs (the path's bytes): a folder whose name is not UTF-8 is a
store like any other.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

from memory_desk.core import appdirs
from memory_desk.core.errors import StoreError
from memory_desk.core.journal.model import Version
from memory_desk.core.messages import msg
from memory_desk.core.persona_format import agent_reading, normalize_body, parse_text

BUSY_TIMEOUT_MS = 5000
SCHEMA_VERSION = "3"
# An older layout brought up to date in place (what it recorded is kept): version: statements.
MIGRATIONS = {
    "2": (
        "ALTER TABLE pending ADD COLUMN before BLOB",
        "ALTER TABLE stores ADD COLUMN signature BLOB",
    ),
}
OLD_TABLES = ("stores", "versions", "targets", "changes", "expected", "pending")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stores(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
    identity TEXT, stamp TEXT, max_updated INTEGER NOT NULL DEFAULT 0,
    ids BLOB, forgotten BLOB, signature BLOB);
CREATE TABLE IF NOT EXISTS versions(
    id INTEGER PRIMARY KEY, store_id INTEGER NOT NULL, target TEXT NOT NULL,
    seen_ms INTEGER NOT NULL, topic INTEGER NOT NULL DEFAULT 0, data BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS versions_seen ON versions(seen_ms);
CREATE TABLE IF NOT EXISTS targets(
    store_id INTEGER NOT NULL, target TEXT NOT NULL, hash TEXT NOT NULL,
    forgotten INTEGER NOT NULL DEFAULT 0, stamp TEXT, version_id INTEGER,
    PRIMARY KEY(store_id, target)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS targets_version ON targets(version_id);
CREATE TABLE IF NOT EXISTS changes(
    id INTEGER PRIMARY KEY AUTOINCREMENT, store_id INTEGER NOT NULL, target TEXT NOT NULL,
    kind TEXT NOT NULL, at_ms INTEGER NOT NULL, seen_ms INTEGER NOT NULL, agent TEXT NOT NULL,
    chat TEXT, old_version INTEGER, new_version INTEGER, reviewed INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS changes_order ON changes(at_ms DESC, id DESC);
CREATE INDEX IF NOT EXISTS changes_target ON changes(store_id, target);
CREATE INDEX IF NOT EXISTS changes_old ON changes(old_version);
CREATE INDEX IF NOT EXISTS changes_new ON changes(new_version);
CREATE TABLE IF NOT EXISTS pending(
    store_id INTEGER NOT NULL, target TEXT NOT NULL, seq INTEGER NOT NULL, hash TEXT,
    forgotten INTEGER NOT NULL DEFAULT 0, data BLOB, at_ms INTEGER NOT NULL, before BLOB,
    PRIMARY KEY(store_id, target, seq)) WITHOUT ROWID;
"""
# A persona version is kept as its file text only (its fields are parsed when it is shown:
# a first look parses no entry).
PERSONA_MARK = "persona"
WINDOW_BITS = 12


def pack_version(version: Version, level: int = 6) -> bytes:
    """A version as stored: zlib of a JSON list (small, and readable without pickle)."""
    if version.raw is not None and version.revision is None:
        fields: list = [version.title, PERSONA_MARK, version.raw]
    else:
        fields = [version.title, version.description, version.type, version.body, version.raw]
        fields += [version.revision, version.project, version.scope, version.session_id]
        fields += [version.tool_name]
    return pack_json(json.dumps(fields, ensure_ascii=False, separators=(",", ":")), level)


def pack_json(text: str, level: int = 6) -> bytes:
    """A version's JSON list as stored (the scans' first look builds it in SQLite). A 4 KiB
    window: a version is small, and a full-size compressor's setup costs more than its
    work."""
    packer = zlib.compressobj(level, zlib.DEFLATED, WINDOW_BITS)
    return packer.compress(text.encode("utf-8", "surrogatepass")) + packer.flush()


def unpack_version(data: bytes) -> Version:
    """The inverse of :func:`pack_version`."""
    fields = json.loads(zlib.decompress(data).decode("utf-8", "surrogatepass"))
    if len(fields) == 3 and fields[1] == PERSONA_MARK:
        return persona_version(fields[0], fields[2])
    return Version(*fields)


def persona_version(name: str, text: str) -> Version:
    """An entry's version as the agent reads its file."""
    reading = agent_reading(parse_text(text))
    return Version(
        title=name,
        description=reading.description,
        type=reading.type,
        body=normalize_body(reading.body),
        raw=text,
    )


def path_key(path: str) -> bytes:
    """A store's path as the journal keeps it: its bytes (any name the system allows)."""
    return os.fsencode(path)


def path_text(value: bytes | str) -> str:
    """The inverse of :func:`path_key`."""
    return os.fsdecode(value) if isinstance(value, bytes) else value


def safe_text(text: str) -> str:
    """Text SQLite can hold: a lone surrogate (a name that is not UTF-8) becomes U+FFFD."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate no file name decodes to
        return text.encode("utf-8", "replace").decode("utf-8")


def damaged_message(path: Path, detail: str) -> str:
    return msg(
        "Journal",
        "Memory Desk's journal {path} cannot be read ({detail}). Clear the journal in the"
        " settings to start a new one; the agents' memories are not affected",
        path=str(path),
        detail=detail,
    )


class JournalDB:
    """The journal file's connections: one per thread, opened on first use (thread-safe)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._connections: dict[int, tuple[threading.Thread, sqlite3.Connection]] = {}
        self._closed = False

    def current(self) -> sqlite3.Connection:
        """This thread's connection (the first one creates the file and its schema)."""
        ident = threading.get_ident()
        with self._lock:
            if self._closed:
                raise StoreError(msg("Journal", "The journal was closed; open it again"))
            known = self._connections.get(ident)
            if known is not None and known[0].is_alive():
                return known[1]
            for other in [i for i, (t, _) in self._connections.items() if not t.is_alive()]:
                with contextlib.suppress(sqlite3.Error):
                    self._connections.pop(other)[1].close()
            conn = self._open()
            self._connections[ident] = (threading.current_thread(), conn)
            return conn

    @contextlib.contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A read of the journal, its SQLite errors turned into StoreError."""
        with self.translate():
            yield self.current()

    @contextlib.contextmanager
    def write(self, busy_ms: int = BUSY_TIMEOUT_MS) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT, rolled back on any error);
        ``busy_ms``: how long to wait for another writer (a StoreError after that)."""
        with self.translate():
            conn = self.current()
            if busy_ms != BUSY_TIMEOUT_MS:
                conn.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
            try:
                conn.execute("BEGIN IMMEDIATE")
            finally:
                if busy_ms != BUSY_TIMEOUT_MS:
                    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def translate(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(damaged_message(self.path, str(exc))) from exc
        except OSError as exc:
            raise StoreError(damaged_message(self.path, exc.strerror or str(exc))) from exc

    def size_bytes(self) -> int:
        """The file's real size: the database and its WAL."""
        total = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                total += os.stat(f"{self.path}{suffix}").st_size
        return total

    def close(self) -> None:
        """Close every connection (safe twice); later calls raise StoreError."""
        with self._lock:
            self._closed = True
            connections = [conn for _, conn in self._connections.values()]
            self._connections.clear()
        for conn in connections:
            with contextlib.suppress(sqlite3.Error):
                conn.close()

    def remove_files(self) -> None:
        """Close everything and delete the file (and its WAL and shm): clear() on a journal
        that may be too damaged to empty."""
        self.close()
        remove_files(self.path)
        with self._lock:
            self._closed = False

    def _open(self) -> sqlite3.Connection:
        appdirs.private_dir(self.path.parent)
        try:
            appdirs.private_file(self.path)
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(
                msg(
                    "Journal",
                    "Could not open Memory Desk's journal {path} ({detail}); check that its"
                    " folder can be written",
                    path=str(self.path),
                    detail=str(exc),
                )
            ) from exc
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            if conn.execute("PRAGMA auto_vacuum").fetchall()[0][0] != 2:
                conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
                if not conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall():
                    conn.execute("VACUUM")  # an empty file takes the mode at once
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            _ensure_schema(conn)
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.chmod(f"{self.path}{suffix}", appdirs.PRIVATE_FILE_MODE)
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(damaged_message(self.path, str(exc))) from exc
        return conn


def _ensure_schema(conn: sqlite3.Connection) -> None:
    """Create the tables; a journal from an older layout is started afresh (what it had
    seen is taken again by the next scans, silently). A current file is only read: a
    thread's first connection never waits for another's write."""
    with contextlib.suppress(sqlite3.OperationalError):
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is not None and row[0] == SCHEMA_VERSION:
            return
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        while row is not None and row[0] in MIGRATIONS:
            for statement in MIGRATIONS[row[0]]:
                conn.execute(statement)
            row = (str(int(row[0]) + 1),)
            conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", row)
        if row is None or row[0] != SCHEMA_VERSION:
            for table in OLD_TABLES:
                conn.execute(f"DROP TABLE IF EXISTS {table}")
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,)
            )
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def found_empty(path: Path) -> bool:
    """True when the journal's file is there but empty, with no WAL holding its pages: what
    a crash or a full disk leaves. SQLite would silently take it as a new database."""
    try:
        if os.stat(path).st_size != 0:
            return False
    except OSError:
        return False  # no file: a first start, or the person cleared it
    try:
        return os.stat(f"{path}-wal").st_size == 0
    except OSError:
        return True


def remove_files(path: Path) -> None:
    """Delete a journal file with its WAL and shm (whatever state it is in)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
