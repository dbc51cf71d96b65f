"""The store's side of SQLite: a connection per thread, short write transactions, and errors
a person can act on.

The agent writes ``memory.sqlite`` while Memory Desk runs, so every connection is a polite
second client (FORMATS.md, part A): a ``mode=rw`` URI (a missing path is never created), no
journal_mode change, VACUUM or checkpoint, nothing created beside the file. Writes are short
``BEGIN IMMEDIATE`` transactions, retried while the agent holds the write lock; each thread
has its own connection, so a long search never blocks a pin.

Two guards make sure no write is reported that did not happen where the person thinks:

- **Identity**: the file's device and inode are recorded when the first connection opens
  it. Every write checks, once it holds the write lock and again just before COMMIT, that
  the path still holds that file (not deleted, moved away, or replaced by a rename-over);
  a later connection (a new thread) checks it before use. Otherwise StoreReplaced, and
  nothing is written.
- **Damage**: once the database is known damaged (a check found it, or SQLite reported
  corruption while reading), every write raises StoreDamaged until a check finds it
  healthy again (:meth:`Connections.set_damage`).

Text is decoded leniently (:func:`rows.decode_text`): one value that is not valid UTF-8
shows as such on its row instead of making every query that reads it fail.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeVar

from memory_desk.core.errors import (
    InvalidInput,
    QueryInterrupted,
    StoreBusy,
    StoreDamaged,
    StoreError,
    StoreReplaced,
    message_of,
)
from memory_desk.core.journal.witness import Witness
from memory_desk.core.messages import msg
from memory_desk.core.observations import write_wait
from memory_desk.core.observations.rows import decode_text
from memory_desk.core.observations.schema import broken_index_message, read_only_mount_message

_T = TypeVar("_T")

# Writes wait at most this long per attempt for the agent's write lock, and try again.
BUSY_TIMEOUT_MS = 1000
WRITE_ATTEMPTS = 4

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_READONLY = 8
_SQLITE_INTERRUPT = 9
_SQLITE_IOERR = 10
_SQLITE_CORRUPT = 11
_SQLITE_FULL = 13
_SQLITE_CANTOPEN = 14
_SQLITE_NOTADB = 26
_SQLITE_CORRUPT_VTAB = _SQLITE_CORRUPT | (1 << 8)


class Connections:
    """The connections one store holds on one file: one per calling thread, plus one that
    only ever reads ``PRAGMA data_version``. Thread-safe; :meth:`close` closes them all and
    makes every later use raise StoreError. ``witness`` hears every write (the journal's)."""

    def __init__(self, path: Path, witness: Witness | None = None) -> None:
        self.path, self.witness = path, witness or Witness()
        self.label = path.name
        self._uri = path.as_uri() + "?mode=rw"
        self._lock = threading.Lock()
        # Each thread's connection, with the thread object: a thread Python started is known
        # to have ended when it is no longer alive; a foreign thread (Qt's pool) never is.
        self._connections: dict[int, tuple[threading.Thread, sqlite3.Connection]] = {}
        self._version_connection: sqlite3.Connection | None = None
        self._closed = False
        # (st_dev, st_ino) of the file the first connection opened; None before that.
        self.identity: tuple[int, int] | None = None
        self._damage: StoreDamaged | None = None

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

    def interrupt(self, thread_ident: int) -> None:
        """Cut short what the thread ``thread_ident`` is reading on its connection (it gets
        :class:`QueryInterrupted`). Safe from any thread; a thread with no connection, or
        one between statements, is left alone (SQLite's interrupt only reaches statements
        that are running or start before they all finish)."""
        with self._lock:
            known = self._connections.get(thread_ident)
        if known is not None:
            with suppress(sqlite3.Error):
                known[1].interrupt()

    def write(self, action: str, change: Callable[..., _T], *args: object) -> _T:
        """Run ``change(conn, *args)`` in one short BEGIN IMMEDIATE transaction, retried while
        busy. ``action`` says what it does, for an error's message ("pin", "forget"...).

        Refused (nothing written) on a database known damaged, and when the path no longer
        holds the open file: checked once the write lock is held, and again before COMMIT.
        """
        self.refuse_if_damaged(action)
        with self.translate(action), write_wait.writing(self.current(), BUSY_TIMEOUT_MS) as conn:
            _begin_immediate(conn)
            watch = self.witness.watch_observations(self.path, conn)  # the person's own writes
            try:
                self.check_identity(action)
                result = change(conn, *args)
                self.check_identity(action)
                watch.before_commit()
                conn.execute("COMMIT")
                _committed()
            except BaseException:
                watch.failed()
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return result

    # -- identity and damage -----------------------------------------------------------

    def replaced(self, action: str | None = None) -> str | None:
        """What happened to the open file, in a sentence, or None when the path still holds
        it. With ``action``, the sentence says that action was refused."""
        if self.identity is None:
            return None
        now = file_identity(self.path)
        if now == self.identity:
            return None
        path = str(self.path)
        if now is None and action:
            return msg(
                "Database",
                "Could not {action}: {path} is no longer there: it was deleted, or moved"
                " elsewhere, since Memory Desk opened it; nothing was written to it. If it"
                " was moved, open it from its new place",
                action=action,
                path=path,
            )
        if now is None:
            return msg(
                "Database",
                "{path} is no longer there: it was deleted, or moved elsewhere, since Memory"
                " Desk opened it; nothing was written to it. If it was moved, open it from its"
                " new place",
                path=path,
            )
        if action:
            return msg(
                "Database",
                "Could not {action}: {path} was replaced by another file since Memory Desk"
                " opened it (another program moved or copied a database over it); nothing was"
                " written to either file. Open the path again to work on the file that is"
                " there now",
                action=action,
                path=path,
            )
        return msg(
            "Database",
            "{path} was replaced by another file since Memory Desk opened it (another program"
            " moved or copied a database over it); nothing was written to either file. Open"
            " the path again to work on the file that is there now",
            path=path,
        )

    def check_identity(self, action: str) -> None:
        """Raise StoreReplaced unless the path still holds the file that is open."""
        message = self.replaced(action)
        if message is not None:
            raise StoreReplaced(message)

    @property
    def damage(self) -> StoreDamaged | None:
        """Why the database is read-only (known damaged), or None."""
        return self._damage

    def set_damage(self, damage: StoreDamaged | None) -> None:
        """Record what a check found: a StoreDamaged makes writes refused, None lifts it."""
        self._damage = damage

    def refuse_if_damaged(self, action: str) -> None:
        damage = self._damage
        if damage is not None:
            raise StoreDamaged(
                msg(
                    "Database",
                    "Could not {action}: Memory Desk does not write to a damaged database."
                    " {damage}",
                    action=action,
                    damage=message_of(damage),
                ),
                index_only=damage.index_only,
            )

    @contextmanager
    def translate(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into StoreError with something a person can do about it.

        Corruption met on the way marks the database damaged (writes refused from then on)
        and raises StoreDamaged.
        """
        try:
            yield
        except sqlite3.Error as exc:
            if _primary_code(exc) == _SQLITE_INTERRUPT:
                raise QueryInterrupted(
                    msg(
                        "Database",
                        "Stopped reading {path}: a newer search replaced this one",
                        path=str(self.path),
                    )
                ) from exc
            message = self._error_message(action, exc)
            if _primary_code(exc) in (_SQLITE_BUSY, _SQLITE_LOCKED):
                raise StoreBusy(message) from exc
            if _is_damage(exc):
                damage = StoreDamaged(message, index_only=_is_index_damage(exc))
                if self._damage is None or not damage.index_only:
                    self._damage = damage
                raise damage from exc
            if _primary_code(exc) in (_SQLITE_BUSY, _SQLITE_LOCKED):
                raise StoreBusy(message) from exc
            raise StoreError(message) from exc
        except UnicodeEncodeError as exc:
            raise InvalidInput(
                msg(
                    "Database",
                    "Could not {action}: the text contains a character that cannot be stored"
                    " ({reason}: {character}); remove it",
                    action=action,
                    reason=exc.reason,
                    character=repr(exc.object[exc.start : exc.end]),
                )
            ) from exc
        except OverflowError as exc:
            raise InvalidInput(
                msg(
                    "Database",
                    "Could not {action}: a number is too large for SQLite",
                    action=action,
                )
            ) from exc

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
        """A new connection on the file that is open (the first one records which file)."""
        if self.identity is not None:
            self.check_identity(msg("DatabaseAction", "read it"))
        before = file_identity(self.path)
        conn = sqlite3.connect(self._uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            conn.text_factory = decode_text
            conn.execute(f"PRAGMA busy_timeout = {write_wait.read_timeout_ms(BUSY_TIMEOUT_MS)}")
            # Our commits never checkpoint: that is the agent's business.
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            # SQLite opened the path between the two looks: the same file both times means
            # the connection holds that file.
            if before is None or file_identity(self.path) != before:
                raise StoreReplaced(
                    msg(
                        "Database",
                        "{path} changed while Memory Desk was opening it (another program"
                        " replaced or removed it); open it again",
                        path=str(self.path),
                    )
                )
            if self.identity is None:
                self.identity = before
            elif before != self.identity:
                self.check_identity(msg("DatabaseAction", "read it"))
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
            raise StoreError(_closed(self.label))

    def _error_message(self, action: str, exc: sqlite3.Error) -> str:
        """SQLite's error in words a person can act on; SQLite's own text (``detail``) is
        quoted as it is, never translated."""
        code = _primary_code(exc)
        where, detail = str(self.path), str(exc)
        if isinstance(exc, sqlite3.ProgrammingError) and "closed" in detail:
            return _closed(self.label)
        if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return msg(
                "Database",
                "Could not {action}: the agent is busy writing {path}; try again in a moment",
                action=action,
                path=where,
            )
        if code == _SQLITE_READONLY:
            return read_only_mount_message(action, self.path, opening=False) or msg(
                "Database",
                "Could not {action}: {path} is read-only (check its permissions)",
                action=action,
                path=where,
            )
        if code == _SQLITE_FULL:
            return msg(
                "Database",
                "Could not {action}: the disk holding {path} is full",
                action=action,
                path=where,
            )
        if code == _SQLITE_NOTADB:
            return msg(
                "Database",
                "{path} is not an SQLite database; choose Alisio's memory.sqlite",
                path=where,
            )
        if getattr(exc, "sqlite_errorcode", 0) == _SQLITE_CORRUPT_VTAB:
            return broken_index_message(self.path, detail)
        if code == _SQLITE_CORRUPT:
            return msg(
                "Database",
                "{path} is damaged ({detail}); it may be truncated or half-copied."
                " Restore a backup of memory.sqlite",
                path=where,
                detail=detail,
            )
        if code == _SQLITE_CANTOPEN:
            return read_only_mount_message(action, self.path, opening=True) or msg(
                "Database",
                "Could not open {path}: check that it exists and that you may read it",
                path=where,
            )
        if code == _SQLITE_IOERR:
            return msg(
                "Database",
                "Could not {action}: reading or writing {path} failed ({detail})",
                action=action,
                path=where,
                detail=detail,
            )
        return msg(
            "Database",
            "Could not {action} in {path}: {detail}",
            action=action,
            path=where,
            detail=detail,
        )


def _closed(label: str) -> str:
    return msg("Database", "{name} was closed; open it again", name=label)


def file_identity(path: Path) -> tuple[int, int] | None:
    """Which file is at ``path`` (device, inode); None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _is_damage(exc: sqlite3.Error) -> bool:
    return _primary_code(exc) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def _is_index_damage(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorcode", 0) == _SQLITE_CORRUPT_VTAB


def _begin_immediate(conn: sqlite3.Connection) -> None:
    wait = write_wait.current()
    if wait is not None:  # a worker thread's write: wait as long as the person lets it
        wait.begin(conn)
        return
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


def _committed() -> None:
    wait = write_wait.current()
    if wait is not None:
        wait.committed()


def _primary_code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF
