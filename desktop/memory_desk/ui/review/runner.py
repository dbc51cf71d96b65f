"""The journal's work off the main thread: scans of each store, and the short list of changes.

A scan reads a whole store's state (at 100,000 observations, an id list and the rows saved
since the last look), so it never runs on the window's thread. Each store gets its own
:class:`BackgroundCall` (one thread, one SQLite connection of the journal's): while a scan
runs, the next one waits, and any further request only replaces the waiting one, so at most
one scan runs per store and one is queued. After every scan the list the page shows (the
newest changes, each store's waiting count, the entries and rows still to review, the space
used) is read on a thread of its own, and reaches the widgets through ``listed``.

The person's marks (reviewed, all reviewed) and clearing the history are small writes to the
journal's file, but a scan may hold it for a moment: they run on the lister's thread too,
never on the window's. They are queued, not replaced: each read drains every write queued
before it, so a mark is never lost to a newer read, and the list that follows shows it.

Signals:
    listed(ReviewSnapshot): the changes and counts as the journal has them now
    failed(str): the journal could not be read or written (corrupt, unreadable, full disk)
    cleared(): the history was cleared (or started afresh); every store needs a new look
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from memory_desk.core import StoreError
from memory_desk.core.journal import Change, Journal, JournalLimits
from memory_desk.core.journal.chats import first_prompts
from memory_desk.core.kinds import SourceKind, StoreKind
from memory_desk.ui.i18n import translate
from memory_desk.ui.workers.background import BackgroundCall

LIST_LIMIT = 1000

# A write queued for the lister's thread: it gets the journal (None: none could be opened)
# and returns the journal to use from then on (a clear may start a new one).
JournalWrite = Callable[[Journal | None], Journal | None]


@dataclass(frozen=True)
class StoreToScan:
    """One open store: its kind, its path, and the agent's name for a
    persona folder (``locate.folder_label``: ``miyagi``, whatever its sidebar label)."""

    kind: SourceKind
    path: Path
    agent: str = ""


@dataclass(frozen=True)
class ReviewSnapshot:
    """What the page and the window show, read in one go off the main thread."""

    changes: list[Change]
    pending: dict[str, int] = field(default_factory=dict)  # per store path: waiting changes
    pending_total: int = 0
    waiting_entries: dict[str, set[str]] = field(default_factory=dict)  # persona folder: names
    waiting_rows: dict[str, frozenset[int]] = field(default_factory=dict)  # database: ids
    size_bytes: int = 0
    include_reviewed: bool = False
    chat_prompts: dict[tuple[str, str], str] = field(default_factory=dict)  # (db, chat): prompt
    looked_ms: int | None = None  # when a look at a store last ended (None: never)


class JournalRunner(QObject):
    """Runs the journal's scans and reads off the main thread (module docstring).

    Signals:
        listed(ReviewSnapshot): the changes and counts after a scan or a mark
        failed(str): a scan, a read or a write failed; the message says what to do
        cleared(): the history is cleared; the stores need a new look
        turned_on(): the history was turned back on; the stores need a new look (a new
            baseline), asked only once the journal holds the new limits
    """

    listed = Signal(object)
    failed = Signal(str)
    cleared = Signal()
    turned_on = Signal()

    def __init__(self, journal: Journal | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._journal = journal
        self._scans: dict[str, BackgroundCall] = {}
        self._lister = BackgroundCall(self)
        self._lister.finished.connect(self._on_listed)
        self._lister.failed.connect(self._on_list_failed)
        self._stores: dict[str, StoreToScan] = {}
        self.include_reviewed = False
        self._stopped = False
        self._lock = threading.Lock()  # the queued writes, the journal, the cleared flag
        self._writes: list[JournalWrite] = []
        self._cleared = False  # set on the lister's thread, told on the main one
        self._turned_on = False  # likewise
        # (db, chat) -> its first prompt: once written it never changes, so each is read
        # once (on the lister's thread, the only one that touches this)
        self._prompts: dict[tuple[str, str], str] = {}

    @property
    def journal(self) -> Journal | None:
        with self._lock:
            return self._journal

    def set_journal(self, journal: Journal | None) -> None:
        """Use another journal object (after the file was started afresh)."""
        with self._lock:
            self._journal = journal

    def stores(self) -> list[StoreToScan]:
        """The stores looked at so far (tests ask for a new look at each)."""
        return list(self._stores.values())

    def scan(self, store: StoreToScan) -> None:
        """Compare ``store`` with what the journal last saw, in the background; the list is
        read again afterwards."""
        journal = self.journal
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
        """Read the list and the counts again (signal ``listed``), after the queued writes."""
        if self._stopped:
            return
        stores = {key: store.kind for key, store in self._stores.items()}
        include_reviewed = self.include_reviewed
        self._lister.submit(lambda: self._write_and_list(stores, include_reviewed))

    def mark_reviewed(self, change_ids: Iterable[int]) -> None:
        """Mark these changes reviewed, off the main thread; the list follows."""
        ids = [int(i) for i in change_ids]

        def mark(journal: Journal | None) -> Journal | None:
            _open(journal).mark_reviewed(ids)
            return journal

        self._queue(mark)

    def mark_all_reviewed(self) -> None:
        """Mark every change reviewed, off the main thread; the list follows."""

        def mark_all(journal: Journal | None) -> Journal | None:
            _open(journal).mark_all_reviewed()
            return journal

        self._queue(mark_all)

    def clear(self, start_afresh: Callable[[], Journal]) -> None:
        """Forget every recorded change, off the main thread (``start_afresh`` makes a new
        journal where none could be opened); then ``cleared`` and the list."""

        def clear(journal: Journal | None) -> Journal | None:
            if journal is None:
                journal = start_afresh()
            else:
                journal.clear()
            with self._lock:
                self._cleared = True
            return journal

        self._queue(clear)

    def apply_limits(self, limits: JournalLimits) -> None:
        """Give the journal new limits on the lister's thread (pruning a big journal takes
        a moment), then read the list again."""

        def apply(journal: Journal | None) -> Journal | None:
            if journal is not None:
                was_on = journal.limits.enabled
                journal.set_limits(limits)
                if limits.enabled and not was_on:
                    with self._lock:
                        self._turned_on = True
            return journal

        self._queue(apply)

    def _queue(self, write: JournalWrite) -> None:
        if self._stopped:
            return
        with self._lock:
            self._writes.append(write)
        self.refresh_list()

    def _write_and_list(
        self, stores: dict[str, SourceKind], include_reviewed: bool
    ) -> ReviewSnapshot | None:
        """On the lister's thread: every write queued so far, in order, then the list."""
        with self._lock:
            writes, self._writes = self._writes, []
            journal = self._journal
        for write in writes:
            journal = write(journal)
            with self._lock:
                self._journal = journal
        if journal is None:
            return None
        return _snapshot(journal, stores, include_reviewed, self._prompts)

    def _on_listed(self, _generation: int, snapshot: ReviewSnapshot | None) -> None:
        self._tell_cleared()
        if snapshot is not None:
            self.listed.emit(snapshot)

    def _on_list_failed(self, _generation: int, message: str) -> None:
        self._tell_cleared()
        self.failed.emit(message)

    def _tell_cleared(self) -> None:
        with self._lock:
            cleared, self._cleared = self._cleared, False
            turned_on, self._turned_on = self._turned_on, False
        if cleared:
            self.cleared.emit()
        if turned_on:
            self.turned_on.emit()

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


def _open(journal: Journal | None) -> Journal:
    """The journal a mark writes to; none could be opened: say what mends it."""
    if journal is None:
        raise StoreError(
            translate(
                "ReviewPage",
                "The history of changes is not open; Clear history (below) starts a new one.",
            )
        )
    return journal


def _scan_call(journal: Journal, store: StoreToScan) -> Callable[[], int]:
    if store.kind == SourceKind.DB:
        return lambda: journal.scan_observations(store.path)
    return lambda: journal.scan_persona(store.path, store.agent)


def _snapshot(
    journal: Journal,
    stores: dict[str, SourceKind],
    include_reviewed: bool,
    prompts: dict[tuple[str, str], str],
) -> ReviewSnapshot:
    """Everything the page shows, read on the lister's thread."""
    changes = journal.changes(include_reviewed=include_reviewed, limit=LIST_LIMIT)
    pending = {store: journal.pending_count(store) for store in stores}
    waiting = {store: journal.pending_targets(store) for store in stores if pending[store]}
    rows = {  # as ids here, off the main thread, which only compares them with the marks
        store: frozenset(int(target) for target in targets if target.isdigit())
        for store, targets in waiting.items()
        if stores[store] == SourceKind.DB
    }
    return ReviewSnapshot(
        changes=changes,
        pending=pending,
        pending_total=journal.pending_count(),
        waiting_entries={s: t for s, t in waiting.items() if stores[s] == SourceKind.PERSONA},
        waiting_rows=rows,
        size_bytes=journal.size_bytes(),
        include_reviewed=include_reviewed,
        chat_prompts=_chat_prompts(changes, prompts),
        looked_ms=journal.looked_ms,
    )


def _chat_prompts(
    changes: list[Change], known: dict[tuple[str, str], str]
) -> dict[tuple[str, str], str]:
    """The first prompt of each listed observation's chat: from ``known``, or read from its
    database and kept in ``known`` once found (a chat without one yet is asked again)."""
    missing: dict[str, set[str]] = {}
    listed = set()
    for change in changes:
        if change.store_kind == StoreKind.OBSERVATIONS and change.chat:
            key = (change.store, change.chat)
            listed.add(key)
            if key not in known:
                missing.setdefault(change.store, set()).add(change.chat)
    for db, ids in missing.items():
        known.update({(db, chat): prompt for chat, prompt in first_prompts(Path(db), ids).items()})
    return {key: known[key] for key in listed if key in known}
