"""Writes that wait for the agent's write lock as long as the person lets them.

A write made on a worker thread may wait as long as the agent holds the lock (the window
stays free meanwhile), provided the person can give up. A
:class:`WriteWait` entered on the worker thread (``with wait: store.pin(...)``) changes how
the store's writes on *that thread* take the lock: they try in short slices, report once
that they wait (``on_wait``, to show "waiting for the agent"), and raise
:class:`WriteCancelled` once :meth:`WriteWait.cancel` was called, with nothing written.
Writes on other threads keep the store's usual, bounded retries.

One WriteWait covers one undoable step, which may take several transactions (an edit, then
the restore that goes with it). Cancel applies until the first of them commits: after that,
the rest of the step must be written for the step to be whole, so :meth:`~WriteWait.cancel`
answers False and the step goes on when the agent lets it. :meth:`~WriteWait.give_up` (the
window closing) stops waiting even then: a later busy lock raises the store's usual "the
agent is busy" error.

Reads on the window's thread wait only :data:`WINDOW_READ_TIMEOUT_MS` for a lock
(:func:`read_timeout_ms`): in WAL mode (the plugin's) a read never waits, but a database in
rollback-journal mode locks readers out while the agent commits or holds ``EXCLUSIVE``, and
the window must not freeze for the store's whole wait at every read. A write transaction, on
any thread, waits as usual (:func:`writing`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from memory_desk.core.errors import StoreError
from memory_desk.core.messages import msg

# How long one try for the lock blocks: also how soon a cancel is seen.
WAIT_SLICE_MS = 50
# A read on the window's thread waits at most this long for the lock (a rollback-journal
# database locks readers out while the agent writes): past it, StoreBusy, and the window
# reads again at the agent's next commit instead of freezing.
WINDOW_READ_TIMEOUT_MS = 20

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_current = threading.local()


class WriteCancelled(StoreError):
    """The person cancelled a write that was waiting for the agent: nothing was written."""


def _cancelled() -> WriteCancelled:
    return WriteCancelled(
        msg("Observations", "Nothing was written: you cancelled while the agent wrote")
    )


class WriteWait:
    """How the writes of one step wait for the agent's write lock (see the module docstring).

    Enter it on the thread that writes; :meth:`cancel` and :meth:`give_up` may be called from
    any thread. ``on_wait`` is called once, on the writing thread, the first time the lock
    is found taken.
    """

    def __init__(self, on_wait: Callable[[], None] | None = None) -> None:
        self._on_wait = on_wait
        self._lock = threading.Lock()
        self._cancelled = False
        self._given_up = False
        self._in_transaction = False
        self._written = False
        self.waited = False  # the lock was found taken at least once

    # -- any thread -------------------------------------------------------------------------

    def cancel(self) -> bool:
        """Ask the step to give up; False when too late (a transaction holds the lock or one
        has committed: the step will be written whole)."""
        with self._lock:
            if self._written or self._in_transaction:
                return False
            self._cancelled = True
            return True

    def give_up(self) -> None:
        """Stop waiting for good: cancel if still possible, else fail at the next busy lock."""
        self.cancel()
        with self._lock:
            self._given_up = True

    @property
    def cancelled(self) -> bool:
        """True once a cancel was accepted (the step writes nothing)."""
        with self._lock:
            return self._cancelled

    # -- the writing thread -----------------------------------------------------------------

    def __enter__(self) -> WriteWait:
        if getattr(_current, "wait", None) is not None:
            raise ValueError("a WriteWait is already active on this thread")
        _current.wait = self
        return self

    def __exit__(self, *exc_info: object) -> None:
        _current.wait = None

    def begin(self, conn: sqlite3.Connection) -> None:
        """``BEGIN IMMEDIATE`` on ``conn``, waiting for the lock in slices until it is free
        or the step is cancelled (WriteCancelled, nothing written)."""
        with self._lock:
            self._in_transaction = False  # the step's previous transaction is over
        previous = int(conn.execute("PRAGMA busy_timeout").fetchall()[0][0])
        conn.execute(f"PRAGMA busy_timeout = {WAIT_SLICE_MS}")
        try:
            while True:
                self._raise_if_cancelled()
                try:
                    conn.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    if not _is_busy(exc) or self._given_up:
                        raise
                    self._note_wait()
                    continue
                self._hold(conn)
                return
        finally:
            conn.execute(f"PRAGMA busy_timeout = {previous}")

    def committed(self) -> None:
        """The transaction committed: from now on the step is written whole."""
        with self._lock:
            self._in_transaction = False
            self._written = True

    def _raise_if_cancelled(self) -> None:
        with self._lock:
            if self._cancelled:
                raise _cancelled()

    def _hold(self, conn: sqlite3.Connection) -> None:
        """The lock is ours: keep it, unless a cancel came in meanwhile."""
        with self._lock:
            if self._cancelled:
                conn.execute("ROLLBACK")
                raise _cancelled()
            self._in_transaction = True

    def _note_wait(self) -> None:
        if not self.waited:
            self.waited = True
            if self._on_wait is not None:
                self._on_wait()


def read_timeout_ms(busy_ms: int) -> int:
    """How long this thread's reads wait for a lock: briefly on the window's thread, else
    ``busy_ms`` (the store's wait)."""
    if threading.current_thread() is threading.main_thread():
        return WINDOW_READ_TIMEOUT_MS
    return busy_ms


@contextmanager
def writing(conn: sqlite3.Connection, busy_ms: int) -> Iterator[sqlite3.Connection]:
    """A write transaction waits ``busy_ms`` as writes always did, on any thread (its COMMIT
    waits for readers in rollback-journal mode); the connection's read wait comes back after."""
    reads = read_timeout_ms(busy_ms)
    if reads != busy_ms:
        conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
    try:
        yield conn
    finally:
        if reads != busy_ms:
            with suppress(sqlite3.Error):
                conn.execute(f"PRAGMA busy_timeout = {reads}")


def current() -> WriteWait | None:
    """The WriteWait entered on this thread, if any."""
    return getattr(_current, "wait", None)


def _is_busy(exc: sqlite3.Error) -> bool:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
