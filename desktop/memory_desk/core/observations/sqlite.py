"""The store's side of SQLite: a connection per thread, short write transactions, and errors
a person can act on.

The agent keeps ``memory.sqlite`` open and writes it while Memory Desk runs, so every
connection here is a polite second client (FORMATS.md, part A): opened with a
``mode=rw`` URI (a missing path is never created), it never changes journal_mode,
never VACUUMs or checkpoints, and creates nothing beside the file. Writes are short
``BEGIN IMMEDIATE`` transactions, retried while the agent holds the write lock.

The store is called from a worker thread (searches) and the main thread (writes):
each thread gets its own connection, so a long search never blocks a pin.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeVar

from memory_desk.core.errors import StoreError
from memory_desk.core.observations.schema import broken_index_message

_T = TypeVar("_T")

# Writes wait at most this long per attempt for the agent's write lock, and try again.
BUSY_TIMEOUT_MS = 1000
WRITE_ATTEMPTS = 4

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_READONLY = 8
_SQLITE_IOERR = 10
_SQLITE_CORRUPT = 11
_SQLITE_FULL = 13
_SQLITE_CANTOPEN = 14
_SQLITE_NOTADB = 26
_SQLITE_CORRUPT_VTAB = _SQLITE_CORRUPT | (1 << 8)


class Connections:
    """The connections one store holds on one file: one per calling thread, plus one that
    only ever reads ``PRAGMA data_version``. Thread-safe; :meth:`close` closes them all and
    makes every later use raise StoreError."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.label = path.name
        self._uri = path.as_uri() + "?mode=rw"
        self._lock = threading.Lock()
        # Each thread's connection, with the thread object: a thread Python started is known
        # to have ended when it is no longer alive; a foreign thread (Qt's pool) never is.
        self._connections: dict[int, tuple[threading.Thread, sqlite3.Connection]] = {}
        self._version_connection: sqlite3.Connection | None = None
        self._closed = False

    def current(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use."""
        ident = threading.get_ident()
        with self._lock:
            self._ensure_open()
            known = self._connections.get(ident)
            if known is not None and known[0].is_alive():
                return known[1]
            self._forget_finished_threads()
            conn = self._open()
            # current_thread() also names a thread Python did not start (a Qt worker): such
            # a thread counts as alive for good, so its connection is never closed under it.
            self._connections[ident] = (threading.current_thread(), conn)
            return conn

    def private(self) -> sqlite3.Connection:
        """A new connection of the caller's own, which the caller closes."""
        with self._lock:
            self._ensure_open()
        return self._open()

    def data_version(self) -> int:
        """``PRAGMA data_version`` on a connection that never writes, so that it changes
        with every commit to the file, this store's own included."""
        with self._lock:
            self._ensure_open()
            if self._version_connection is None:
                self._version_connection = self._open()
            return int(self._version_connection.execute("PRAGMA data_version").fetchall()[0][0])

    def write(self, action: str, change: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``change`` in one short BEGIN IMMEDIATE transaction, retried while busy."""
        with self.translate(action):
            conn = self.current()
            _begin_immediate(conn)
            try:
                result = change(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return result

    @contextmanager
    def translate(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into StoreError with something a person can do about it."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(self._error_message(action, exc)) from exc
        except UnicodeEncodeError as exc:
            raise StoreError(
                f"Could not {action}: the text contains a character that cannot be stored"
                f" ({exc.reason}: {exc.object[exc.start : exc.end]!r}); remove it"
            ) from exc
        except OverflowError as exc:
            raise StoreError(f"Could not {action}: a number is too large for SQLite") from exc

    def close(self) -> None:
        """Close every connection; later calls raise StoreError. Safe to call twice."""
        with self._lock:
            self._closed = True
            connections = [conn for _, conn in self._connections.values()]
            if self._version_connection is not None:
                connections.append(self._version_connection)
            self._connections.clear()
            self._version_connection = None
        for conn in connections:
            # Closing is best effort: the file is the agent's either way.
            with suppress(sqlite3.Error):
                conn.close()

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self._uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # Our commits never checkpoint: that is the agent's business.
            conn.execute("PRAGMA wal_autocheckpoint = 0")
        except BaseException:
            conn.close()
            raise
        return conn

    def _forget_finished_threads(self) -> None:
        """Close the connections of the threads Python started that have ended.

        Only a thread known to have ended is forgotten: closing the connection of a thread
        still in a query (a Qt pool thread Python never listed) crashes SQLite.
        """
        for ident in [i for i, (thread, _) in self._connections.items() if not thread.is_alive()]:
            with suppress(sqlite3.Error):
                self._connections.pop(ident)[1].close()

    def _ensure_open(self) -> None:
        if self._closed:
            raise StoreError(f"{self.label} was closed; open it again")

    def _error_message(self, action: str, exc: sqlite3.Error) -> str:
        code = _primary_code(exc)
        where = str(self.path)
        if isinstance(exc, sqlite3.ProgrammingError) and "closed" in str(exc):
            return f"{self.label} was closed; open it again"
        if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return f"Could not {action}: the agent is busy writing {where}; try again in a moment"
        if code == _SQLITE_READONLY:
            return f"Could not {action}: {where} is read-only (check its permissions)"
        if code == _SQLITE_FULL:
            return f"Could not {action}: the disk holding {where} is full"
        if code == _SQLITE_NOTADB:
            return f"{where} is not an SQLite database; choose Alisio's memory.sqlite"
        if getattr(exc, "sqlite_errorcode", 0) == _SQLITE_CORRUPT_VTAB:
            return broken_index_message(self.path, str(exc))
        if code == _SQLITE_CORRUPT:
            return (
                f"{where} is damaged ({exc}); it may be truncated or half-copied."
                " Restore a backup of memory.sqlite"
            )
        if code == _SQLITE_CANTOPEN:
            return f"Could not open {where}: check that it exists and that you may read it"
        if code == _SQLITE_IOERR:
            return f"Could not {action}: reading or writing {where} failed ({exc})"
        return f"Could not {action} in {where}: {exc}"


def _begin_immediate(conn: sqlite3.Connection) -> None:
    for attempt in range(WRITE_ATTEMPTS):
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if _primary_code(exc) not in (_SQLITE_BUSY, _SQLITE_LOCKED):
                raise
            if attempt == WRITE_ATTEMPTS - 1:
                raise
            time.sleep(0.01 * (attempt + 1))


def _primary_code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF
