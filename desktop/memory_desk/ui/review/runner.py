"""The journal's work off the main thread: scans of each store, and the short list of changes.

A scan reads a whole store's state (at 100,000 observations, an id list and the rows saved
since the last look), so it never runs on the window's thread. Each store gets its own
:class:`BackgroundCall` (one thread, one SQLite connection of the journal's): while a scan
runs, the next one waits, and any further request only replaces the waiting one, so at most
one scan runs per store and one is queued. After every scan the list the page shows (the
newest changes, each store's waiting count, the persona entries still to review, the space
used) is read on a thread of its own, and reaches the widgets through ``listed``.

Signals:
    listed(ReviewSnapshot): the changes and counts as the journal has them now
    failed(str): the journal could not be read or written (corrupt, unreadable, full disk)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from memory_desk.core.journal import Change, Journal, JournalLimits
from memory_desk.ui.observations.background import BackgroundCall

LIST_LIMIT = 1000


@dataclass(frozen=True)
class StoreToScan:
    """One open store: its kind ("db" or "persona"), its path, and the agent's name for a
    persona folder (as the sidebar shows it)."""

    kind: str
    path: Path
    agent: str = ""


@dataclass(frozen=True)
class ReviewSnapshot:
    """What the page and the window show, read in one go off the main thread."""

    changes: list[Change]
    pending: dict[str, int] = field(default_factory=dict)  # per store path: waiting changes
    pending_total: int = 0
    waiting_entries: dict[str, set[str]] = field(default_factory=dict)  # persona folder: names
    size_bytes: int = 0
    include_reviewed: bool = False


class JournalRunner(QObject):
    """Runs the journal's scans and reads off the main thread (module docstring).

    Signals:
        listed(ReviewSnapshot): the changes and counts after a scan or a mark
        failed(str): a scan or a read failed; the message says what to do
    """

    listed = Signal(object)
    failed = Signal(str)

    def __init__(self, journal: Journal | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._journal = journal
        self._scans: dict[str, BackgroundCall] = {}
        self._lister = BackgroundCall(self)
        self._lister.finished.connect(lambda _g, snapshot: self.listed.emit(snapshot))
        self._lister.failed.connect(lambda _g, message: self.failed.emit(message))
        self._stores: dict[str, StoreToScan] = {}
        self.include_reviewed = False
        self._stopped = False

    @property
    def journal(self) -> Journal | None:
        return self._journal

    def set_journal(self, journal: Journal | None) -> None:
        """Use another journal object (after the file was started afresh)."""
        self._journal = journal

    def scan(self, store: StoreToScan) -> None:
        """Compare ``store`` with what the journal last saw, in the background; the list is
        read again afterwards."""
        journal = self._journal
        if journal is None or self._stopped:
            return
        key = str(store.path)
        self._stores[key] = store
        call = self._scans.get(key)
        if call is None:
            call = BackgroundCall(self)
            call.finished.connect(lambda _g, _n: self.refresh_list())
            call.failed.connect(lambda _g, message: self.failed.emit(message))
            self._scans[key] = call
        call.submit(_scan_call(journal, store))

    def scan_all(self, stores: Iterable[StoreToScan]) -> None:
        for store in stores:
            self.scan(store)

    def refresh_list(self) -> None:
        """Read the list and the counts again (signal ``listed``)."""
        journal = self._journal
        if journal is None or self._stopped:
            return
        persona = [key for key, s in self._stores.items() if s.kind == "persona"]
        stores = list(self._stores)
        include_reviewed = self.include_reviewed
        self._lister.submit(lambda: _snapshot(journal, stores, persona, include_reviewed))

    def apply_limits(self, limits: JournalLimits) -> None:
        """Give the journal new limits on the lister's thread (pruning a big journal takes
        a moment), then read the list again."""
        journal = self._journal
        if journal is None or self._stopped:
            return
        persona = [key for key, s in self._stores.items() if s.kind == "persona"]
        stores = list(self._stores)
        include_reviewed = self.include_reviewed

        def apply() -> ReviewSnapshot:
            journal.set_limits(limits)
            return _snapshot(journal, stores, persona, include_reviewed)

        self._lister.submit(apply)

    def is_busy(self) -> bool:
        """True while a scan or a read is queued or running (tests wait on it)."""
        return self._lister.is_busy() or any(call.is_busy() for call in self._scans.values())

    def wait(self) -> None:
        """Block until every queued scan and read is done (their answers still come)."""
        for call in list(self._scans.values()):
            call.wait()
        self._lister.wait()

    def stop(self) -> None:
        """Skip what is queued, wait for what runs, accept no more (the window closes)."""
        self._stopped = True
        for call in self._scans.values():
            call.stop()
        self._lister.stop()


def _scan_call(journal: Journal, store: StoreToScan) -> Callable[[], int]:
    if store.kind == "db":
        return lambda: journal.scan_observations(store.path)
    return lambda: journal.scan_persona(store.path, store.agent)


def _snapshot(
    journal: Journal, stores: list[str], persona: list[str], include_reviewed: bool
) -> ReviewSnapshot:
    """Everything the page shows, read on the lister's thread."""
    changes = journal.changes(include_reviewed=include_reviewed, limit=LIST_LIMIT)
    pending = {store: journal.pending_count(store) for store in stores}
    waiting = {folder: journal.pending_targets(folder) for folder in persona}
    return ReviewSnapshot(
        changes=changes,
        pending=pending,
        pending_total=journal.pending_count(),
        waiting_entries=waiting,
        size_bytes=journal.size_bytes(),
        include_reviewed=include_reviewed,
    )
