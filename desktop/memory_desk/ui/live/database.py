"""Noticing other processes' commits to a memory.sqlite, as a Qt signal.

``PRAGMA data_version`` on a connection of our own changes exactly when another
connection committed, and costs next to nothing: it is checked on a short timer.
Watching the database's folder only makes it faster: the agent's commit appends to the
``-wal`` file, the folder watcher reports that, and the check runs at once instead of at
the next tick. The watcher alone is never trusted (it can drop events,
and the commit becomes visible in the shared-memory index a moment after the ``-wal``
write), the timer alone is just slower.

At every check the watcher also confirms that the path still holds the file it opened
(device and inode: one ``stat``). When it does not (the file was deleted, moved away or
replaced by a rename-over), it closes its connection and emits ``replaced``: the owner
then closes its store on the old file before anything opens the new one (the old file's
``-wal`` and ``-shm`` are still at the path's names until then), and opens what is there.

The connection (the core's :class:`DataVersionReader`) is read-only (``mode=ro``: it works
in WAL mode, SQLite maps or creates the ``-shm`` index as for any reader) and autocommit
with a zero busy timeout: it never holds a read transaction between checks, never blocks
the UI, never changes the journal mode and never checkpoints. Its errors are the core's
types: ``StoreBusy`` means look again at the next check.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from memory_desk.core.errors import StoreBusy, StoreError
from memory_desk.core.observations.data_version import DataVersionReader
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.live.folders import FolderWatcher

_WAKE_DELAY_MS = 5  # after a -wal event: let the writer publish the commit
_FOLLOW_UP_MS = 40  # ... and look again if it was not visible yet
_FOLLOW_UPS = 2
_REOPEN_EVERY_S = 2.0  # retry a database that cannot be opened no faster than this


class DatabaseWatcher(QObject):
    """Emits ``changed`` in the main thread when another process commits to the database.

    Signals:
        changed(): the database has new commits by another connection (this includes
            the app's own writes through its store's connection). Emitted once per batch:
            after a change, further commits within ``coalesce_ms`` are reported together.
        paused_changed(bool): :meth:`pause` / :meth:`resume` took effect.
        error(str): the database cannot be read for change detection (gone, unreadable);
            the watcher keeps retrying and reports ``changed`` once it can read again.
        replaced(str): the path no longer holds the file that was open (deleted, moved or
            replaced), in words; the watcher has closed its connection and reports nothing
            more until the owner stops it or it opens the path again at the next check.
    """

    changed = Signal()
    replaced = Signal(str)
    paused_changed = Signal(bool)
    error = Signal(str)

    def __init__(
        self,
        path: str | os.PathLike[str],
        parent: QObject | None = None,
        *,
        folder_watcher: FolderWatcher | None = None,
        poll_interval_ms: int = 250,
        coalesce_ms: int = 100,
    ) -> None:
        super().__init__(parent)
        self._path = Path(os.path.realpath(path))
        self._names = {self._path.name + suffix for suffix in ("", "-wal", "-journal")}
        self._owns_folder_watcher = folder_watcher is None
        self._folder_watcher = folder_watcher or FolderWatcher(self)
        self._folder: str | None = None
        self._coalesce_s = coalesce_ms / 1000
        self._conn: DataVersionReader | None = None
        self._identity: tuple[int, int] | None = None
        self._version: int | None = None
        self._running = False
        self._paused = False
        self._last_change: float | None = None
        self._quiet_until = 0.0
        self._follow_ups = 0
        self._next_open = 0.0
        self._last_error = ""

        self._poll = QTimer(self)
        self._poll.setInterval(poll_interval_ms)
        self._poll.timeout.connect(self._on_poll)
        self._wake = QTimer(self)
        self._wake.setSingleShot(True)
        self._wake.timeout.connect(self._on_wake)

    # -- public API ------------------------------------------------------------------

    @property
    def path(self) -> Path:
        return self._path

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def last_change(self) -> float | None:
        """Wall-clock time (``time.time()``) of the last ``changed``, None before any."""
        return self._last_change

    def start(self) -> None:
        """Open the connection, remember the current version, start the timer and the watch."""
        if self._running:
            return
        self._running = True
        self._open()
        self._folder_watcher.activity.connect(self._on_activity)
        self._folder = self._folder_watcher.watch(self._path.parent, debounce=False)
        if not self._paused:
            self._poll.start()

    def stop(self) -> None:
        """Stop the timers and the folder watch (joining its thread if it is ours), close."""
        if not self._running:
            return
        self._running = False
        self._poll.stop()
        self._wake.stop()
        self._folder_watcher.activity.disconnect(self._on_activity)
        if self._owns_folder_watcher:
            self._folder_watcher.stop()
        elif self._folder is not None:
            self._folder_watcher.unwatch(self._folder)
        self._folder = None
        self._close()

    def pause(self) -> None:
        """Stop reporting; commits made meanwhile are reported once on :meth:`resume`."""
        if self._paused:
            return
        self._paused = True
        self._poll.stop()
        self._wake.stop()
        self.paused_changed.emit(True)

    def resume(self) -> None:
        if not self._paused:
            return
        self._paused = False
        if self._running:
            self._poll.start()
        self.paused_changed.emit(False)
        self.check_now()

    @Slot()
    def check_now(self) -> bool:
        """Look for new commits now; True when ``changed`` was emitted."""
        if not self._running or self._paused:
            return False
        now = time.monotonic()
        if now < self._quiet_until:
            self._wake_in(int((self._quiet_until - now) * 1000) + 1)
            return False
        if self._conn is None:
            if not self._open():
                return False
            self._announce()  # it appeared, or is back after an error: the pages are stale
            return True
        if self._file_identity() != self._identity:
            return self._report_replaced()
        version = self._read_version()
        if version is None or version == self._version:
            return False
        self._version = version
        self._announce()
        return True

    # -- timers and events -------------------------------------------------------------

    @Slot()
    def _on_poll(self) -> None:
        self.check_now()

    @Slot()
    def _on_wake(self) -> None:
        if not self.check_now() and self._follow_ups > 0:
            self._follow_ups -= 1
            self._wake_in(_FOLLOW_UP_MS)

    @Slot(str, str)
    def _on_activity(self, folder: str, path: str) -> None:
        """A file of the database changed: check soon rather than at the next tick."""
        if folder != self._folder or self._paused or os.path.basename(path) not in self._names:
            return
        if os.path.basename(path) == self._path.name:
            self._next_open = 0.0  # created, deleted or replaced: look at once
        self._follow_ups = _FOLLOW_UPS
        self._wake_in(_WAKE_DELAY_MS)

    def _wake_in(self, delay_ms: int) -> None:
        if not self._wake.isActive() or self._wake.remainingTime() > delay_ms:
            self._wake.start(delay_ms)

    def _announce(self) -> None:
        self._last_change = time.time()
        self._quiet_until = time.monotonic() + self._coalesce_s
        self.changed.emit()

    # -- the connection ------------------------------------------------------------------

    def _open(self) -> bool:
        """Open read-only; on failure say so once and retry no faster than every
        :data:`_REOPEN_EVERY_S`."""
        now = time.monotonic()
        if now < self._next_open:
            return False
        self._next_open = now + _REOPEN_EVERY_S
        identity = self._file_identity()
        if identity is None:
            self._report(
                translate(
                    "DatabaseWatcher", "The database {path} is not there; waiting for it to appear."
                ).format(path=self._path)
            )
            return False
        try:
            conn = DataVersionReader(self._path)
        except StoreError as exc:
            self._report(i18n.shown(exc))
            return False
        self._conn, self._identity, self._version = conn, identity, conn.first
        self._last_error = ""
        return True

    def _read_version(self) -> int | None:
        """The connection's data_version; None when it cannot be read this time."""
        assert self._conn is not None
        try:
            return self._conn.read()
        except StoreBusy:
            return None  # a writer is recovering the WAL: next tick
        except StoreError as exc:
            self._report(i18n.shown(exc))
        self._close()
        return None

    def _report_replaced(self) -> bool:
        """The file was deleted, moved or replaced: close, say so, and let the owner act.

        The next check opens whatever is at the path then (reporting ``changed``), in case
        the owner keeps this watcher.
        """
        old = self._path
        self._close()
        self._next_open = 0.0
        if self._file_identity() is None:
            message = translate(
                "DatabaseWatcher",
                "{path} is no longer there: it was deleted, or moved elsewhere, while Memory Desk had it open",
            ).format(path=old)
        else:
            message = translate(
                "DatabaseWatcher",
                "{path} was replaced by another file while Memory Desk had it open (another program moved or copied a database over it)",
            ).format(path=old)
        self.replaced.emit(message)
        return True

    def _file_identity(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self._path)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def _report(self, message: str) -> None:
        if message != self._last_error:
            self._last_error = message
            self.error.emit(message)

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
