"""The journal's side of the window: one object that owns it and wires it, so the window only
creates it and listens to two signals.

:class:`ReviewDesk` opens the journal (a damaged or unreadable one leaves the review page up
with the reason, and Clear history starts a new one), tells the core whose journal hears the
person's own writes (it attaches the journal to the registry's witness, which every store
the registry opens was given), decides when each store is looked at (the first look waits
for the observations page's first rows; then every store opened, written by an agent,
replaced, or caught up with when live reload resumes), and shows what the journal lists: the
review page, the count per store in the sidebar, the marks on the persona entries still to
review, and the count for the window's title. It applies the person's limits, clears the
history, and opens a change's observation or entry in its own page.

Everything that reads or writes the journal runs on the :class:`~.runner.JournalRunner`'s
threads; the desk only routes answers on the main thread.

Signals:
    pending_changed(int): how many changes wait for review (the window's title says it)
    error_raised(str), info_raised(str): messages for the window's message bar
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer, Signal, SignalInstance
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from memory_desk.core import StoreError
from memory_desk.core.journal import Change, Journal, JournalLimits
from memory_desk.core.kinds import SourceKind, StoreKind
from memory_desk.core.locate import folder_label, store_label
from memory_desk.ui import i18n
from memory_desk.ui import settings as settings_module
from memory_desk.ui.i18n import translate
from memory_desk.ui.review.page import ReviewPage
from memory_desk.ui.review.runner import JournalRunner, ReviewSnapshot, StoreToScan

if TYPE_CHECKING:
    from memory_desk.ui.sources.registry import Source, SourceRegistry
    from memory_desk.ui.sources.sidebar import SourceSidebar

JOURNAL_START_MS = 1500  # the journal's first look, if no rows are awaited before
# A scan of the database the observations page is re-reading waits for the page's answer,
# then this long (its status and counts are painted first) ...
SCAN_AFTER_REFRESH_MS = 50
# ... but never longer than this after it was asked for (an agent saving without a pause
# keeps the page busy; the inbox must still follow).
SCAN_WAIT_AT_MOST_MS = 2000
# A look at the folder the persona page is listing waits for the listing to end, at most this
# long: both read every file, and on two workers each would take about twice as long.
PERSONA_WAIT_AT_MOST_MS = 15_000


class RowMarker(Protocol):
    """The observations table's model, as far as the desk marks rows in it."""

    def set_waiting(self, ids: frozenset[int]) -> None: ...


class ObservationsPageParts(Protocol):
    """What the desk uses of the observations page: its store, whether it is reading, its
    ``refreshed`` signal, and its table's model, which marks the rows waiting for review
    (a page never imports another page)."""

    store: object | None
    refreshed: SignalInstance
    model: RowMarker

    def is_busy(self) -> bool: ...


class PersonaPageParts(Protocol):
    """What the desk uses of the persona page: its folder, its listing, the marks of the
    entries waiting for review, and showing one."""

    listed: SignalInstance

    def folder(self) -> object | None: ...

    def mark_waiting(self, names: set[str]) -> None: ...

    def select_id(self, name: str) -> bool: ...

    def is_listing(self) -> bool: ...

    def reload(self) -> None: ...


class ReviewDesk(QObject):
    """Owns the journal, its runner and the review page (module docstring).

    Signals:
        pending_changed(int): changes waiting for review, in every store
        error_raised(str), info_raised(str): for the window's message bar
    """

    pending_changed = Signal(int)
    error_raised = Signal(str)
    info_raised = Signal(str)

    def __init__(
        self,
        registry: SourceRegistry,
        sidebar: SourceSidebar,
        observations_page: ObservationsPageParts,
        persona_page: PersonaPageParts,
        undo_stack: QUndoStack,
        show_page: Callable[[str], None],
        show_observation: Callable[[int], None],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("reviewDesk")
        self._registry = registry
        self._sidebar = sidebar
        self._observations = observations_page
        self._persona = persona_page
        self._show_page = show_page
        self._show_observation = show_observation
        self._problem: str | None = None
        self._journal_path = Journal.default_path()
        self._journal: Journal | None = self._open_journal(settings_module.journal_limits())
        self.runner = JournalRunner(self._journal, self)
        self.started = False  # the first look was asked for
        self._stopped = False
        self._was_live = registry.is_live()
        self._snapshot: ReviewSnapshot | None = None
        # Scans put off while the observations page re-reads the same database (path: since).
        self._waiting: dict[str, tuple[Source, float]] = {}
        self._waiting_timer = QTimer(self)
        self._waiting_timer.setSingleShot(True)
        self._waiting_timer.timeout.connect(self._scan_waiting)
        self.page = ReviewPage(
            undo_stack,
            self.runner,
            observations_page,
            self._store_of_change,
            self._store_label,
            settings_module.journal_limits(),
            parent,
        )
        if self._problem is not None:
            self.page.show_problem(self._problem)
        if self._journal is not None and self._journal.restarted is not None:
            self.page.show_notice(self._journal.restarted)

    # -- the journal file ---------------------------------------------------------------------

    def _open_journal(self, limits: JournalLimits) -> Journal | None:
        """The journal at its usual place; a damaged one says why (``problem``), and one
        that cannot be opened at all is None until Clear history starts a new one."""
        try:
            journal = Journal(self._journal_path, limits)
        except StoreError as exc:
            self._problem = i18n.shown(exc)
            return None
        self._problem = journal.problem  # damaged: every call says so until cleared
        self._registry.witness.attach(journal)
        return journal

    def use_journal_at(self, path: Path) -> bool:
        """Keep the journal at ``path`` instead of the person's, before the first look: the
        demo's sits in the demo's folder and goes with it, so trying the demo leaves nothing
        in the person's history. False (the usual journal kept) once the first look ran or
        when that file cannot serve as a journal."""
        if self.started or self._stopped:
            return False
        limits = settings_module.journal_limits()
        journal = Journal(path, limits)
        if journal.problem is not None:
            journal.close()
            return False
        previous = self.runner.journal
        self.runner.set_journal(journal)
        self._registry.witness.attach(journal)
        self._journal_path = path
        if previous is not None:
            previous.close()
        self._problem = None
        self.page.hide_problem()
        return True

    def _start_afresh(self) -> Journal:
        """No journal could be opened: remove its files and start a new one (on the runner's
        thread, while clearing)."""
        path = self._journal_path
        Journal.remove_files(path)
        journal = Journal(path, settings_module.journal_limits())
        self._registry.witness.attach(journal)
        return journal

    # -- wiring -------------------------------------------------------------------------------

    def connect_window(self) -> None:
        """Follow the sources and the page. Called once the window has wired its own slots,
        so the desk's run after them (the persona page holds the new folder by then)."""
        page = self.page
        page.edit_requested.connect(self.show_change_target)
        page.persona_written.connect(self._on_entry_written)
        page.limits_changed.connect(self.set_limits)
        page.clear_requested.connect(self.clear)
        self.runner.listed.connect(self._on_snapshot)
        self.runner.failed.connect(page.show_problem)
        self.runner.cleared.connect(self._on_cleared)
        self.runner.turned_on.connect(self.scan_all)  # a new baseline: while off is unknown
        registry = self._registry
        registry.added.connect(self.scan)
        registry.changed.connect(self.scan)
        registry.replaced.connect(lambda source, _message, _problem: self.scan(source))
        registry.live_changed.connect(self._on_live_changed)
        registry.replacing.connect(lambda _source: page.abandon_writes())
        self._sidebar.current_changed.connect(lambda _source, _previous: self._mark_entries())
        # The first look waits for the first rows: start speed matters more than the inbox.
        self._observations.refreshed.connect(self.start)
        self._observations.refreshed.connect(self._after_refresh)
        self._persona.listed.connect(self._after_refresh)
        QTimer.singleShot(JOURNAL_START_MS, self, self.start)

    def start(self) -> None:
        """Look at every open store once, after the first rows are shown."""
        if self.started or self._stopped:
            return
        if self._observations.store is not None and self._observations.is_busy():
            return  # its first answer (``refreshed``) calls again
        self.started = True
        self.scan_all()
        self.runner.refresh_list()

    def scan(self, source: Source) -> None:
        """The journal looks at this store on its own thread (one scan running, one queued)."""
        if not self.started or self._stopped or source.store is None:
            return
        if source.kind == SourceKind.DB and source.file_id is None:
            return  # nothing at its path now
        if self._put_off(source):
            return
        self.runner.scan(StoreToScan(source.kind, source.path, folder_label(source.path)))

    def _put_off(self, source: Source) -> bool:
        """A scan of a store a page is reading waits for the page's answer.

        The database the observations page is re-reading: an agent's commit reaches both at
        once. The scan is a Python loop on a worker: it holds the GIL a switch interval at a
        time while the page plans, applies and paints the new row, which stalls the refresh. The folder the persona page is listing: both would read every
        file at once. The inbox can come later; the rows cannot. True when the scan was put
        off (it runs after the page's ``refreshed`` or ``listed``, or after
        SCAN_WAIT_AT_MOST_MS or PERSONA_WAIT_AT_MOST_MS at most)."""
        if source.kind == SourceKind.DB:
            if source.store is not self._observations.store:
                return False
            busy, limit = self._observations.is_busy(), SCAN_WAIT_AT_MOST_MS
        else:
            persona = self._persona
            busy = persona.is_listing() and persona.folder() is source.store
            limit = PERSONA_WAIT_AT_MOST_MS
        key = str(source.path)
        since = self._waiting.get(key, (source, time.monotonic()))[1]
        waited_ms = (time.monotonic() - since) * 1000
        if not busy or waited_ms >= limit:
            self._waiting.pop(key, None)
            return False
        self._waiting[key] = (source, since)
        remaining = max(1, int(limit - waited_ms))
        if not self._waiting_timer.isActive() or self._waiting_timer.remainingTime() > remaining:
            self._waiting_timer.start(remaining)
        return True

    def _after_refresh(self) -> None:
        """The page's answer is in: the scans it held back run once its paint is done."""
        if self._waiting:
            self._waiting_timer.start(SCAN_AFTER_REFRESH_MS)

    def _scan_waiting(self) -> None:
        waiting = [source for source, _since in self._waiting.values()]
        for source in waiting:
            self.scan(source)

    def scan_all(self) -> None:
        for source in self._registry.sources():
            self.scan(source)

    def _on_live_changed(self) -> None:
        """Live reload resumed: catch up with what the agents did meanwhile."""
        live = self._registry.is_live()
        if live and not self._was_live:
            self.scan_all()
        self._was_live = live

    # -- what the journal lists ---------------------------------------------------------------

    def _on_snapshot(self, snapshot: ReviewSnapshot) -> None:
        """The journal's list and counts: the page, the title, the sidebar, the marks."""
        self._snapshot = snapshot
        self.page.show_snapshot(snapshot)
        for source in self._registry.sources():
            self._sidebar.show_waiting(source, snapshot.pending.get(str(source.path), 0))
        self._mark_entries()
        self.pending_changed.emit(snapshot.pending_total)

    def _mark_entries(self) -> None:
        """Persona entries and observations the agent changed, not yet reviewed, are marked
        in their lists: from the journal's list, so a restart shows the same marks."""
        snapshot = self._snapshot
        folder = getattr(self._persona.folder(), "path", None)
        db = getattr(self._observations.store, "path", None)
        names = snapshot.waiting_entries.get(str(folder)) if snapshot and folder else None
        rows = snapshot.waiting_rows.get(str(db)) if snapshot and db else None
        self._persona.mark_waiting(names or set())
        self._observations.model.set_waiting(rows or frozenset())

    def _store_of_change(self, change: Change) -> object | None:
        """The open store a change was found in (None when it is not open any more)."""
        source = self._source_of(change)
        return None if source is None else source.store

    def _source_of(self, change: Change) -> Source | None:
        return self._registry.find(StoreKind(change.store_kind).source_kind, Path(change.store))

    def _store_label(self, change: Change) -> str:
        """The sidebar's name of the store a change was seen in; a store not open now is
        named as the sidebar would name it (a persona folder by its agent, never "memory")."""
        source = self._source_of(change)
        if source is not None:
            return source.label
        return store_label(StoreKind(change.store_kind), change.store)

    # -- the person's settings ----------------------------------------------------------------

    def set_limits(self, limits: JournalLimits) -> None:
        """Keep the history's limits and apply them (turned back on: look again)."""
        settings_module.save_journal_limits(limits)
        self.page.set_limits(limits)
        if self.runner.journal is None:
            return
        # Turned back on, the runner says so once the journal holds the limits (a scan before
        # that would find it still off, and the agent's next change would become the baseline).
        self.runner.apply_limits(limits)

    def clear(self) -> None:
        """Forget every recorded change (off the main thread); ``_on_cleared`` follows."""
        self.runner.clear(self._start_afresh)

    def _on_cleared(self) -> None:
        self._problem = None
        self.page.hide_problem()
        self.page.notice.hide()
        self.info_raised.emit(translate("MainWindow", "The history of changes is cleared"))
        self.scan_all()
        self.runner.refresh_list()

    # -- a change's target --------------------------------------------------------------------

    def show_change_target(self, change: Change) -> None:
        """Open a change's observation or persona entry in its own page."""
        source = self._source_of(change)
        if source is None:
            self.error_raised.emit(
                translate("MainWindow", "{store} is not open any more").format(store=change.store)
            )
            return
        self._sidebar.select(source)
        if source.kind == SourceKind.DB:
            self._show_observation(int(change.target))
            return
        self._show_page("persona")
        if not self._persona.select_id(change.target):
            self.info_raised.emit(
                translate(
                    "MainWindow", "{name} is not in the list: clear the filter to see it"
                ).format(name=change.target)
            )

    def _on_entry_written(self, path: str) -> None:
        """A rollback wrote a persona file: its echo is not the agent's, and the persona page
        (now or when it comes back) shows what is on disk."""
        self._registry.expect_own_write(path)
        source = self._registry.find(SourceKind.PERSONA, Path(path).parent)
        if source is None:
            return
        if self._persona.folder() is source.store:
            self._persona.reload()
        else:
            source.stale = True
        self._sidebar.recount(source)

    # -- closing ------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop the journal's threads, then close it (the window closes, after its pages)."""
        if self._stopped:
            return
        self._stopped = True
        self._waiting_timer.stop()
        self._waiting.clear()
        journal = self.runner.journal
        if journal is not None:
            journal.looks.close()  # else the runner waits for a big store's whole first look
        self.runner.stop()
        if journal is not None:
            self._registry.witness.attach(None)
            with contextlib.suppress(StoreError):
                journal.close()
