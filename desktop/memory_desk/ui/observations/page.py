"""The Observations page: search, filter, sort, read and prune one Alisio memory database.

Data flows one way: the filter bar and the sortable header describe a query, run on a worker
thread, whose answer the table model shows, loading visible rows lazily (:mod:`.page_query`).
Writes are undo commands run one at a time in the background (:mod:`.page_writes`); they,
and the live reload when another program commits, call :meth:`ObservationsPage.refresh`,
which applies only the difference, so the selection, the scroll position and the detail
pane stay where the person left them (:mod:`.page_table`, :mod:`.page_reading`).

The page composes those rooms, its actions (:mod:`.page_actions`), the index check
(:mod:`.index_health`) and "Search as the agent…" (:mod:`.agent_search`): the Page contract.

Signals:
    status_changed(str): counts for the status bar ("Showing 120 · 3,401 live · …")
    error_raised(str): a store error, for the window's message bar
    info_raised(str): a passing notice ("Pinned 3 observations")
    refreshed(): a query's answer was applied to the table
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QSplitter, QTableView, QVBoxLayout, QWidget

from memory_desk.core import TopicConflict
from memory_desk.core.observations import ObservationStore, Totals
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.columns import TableColumns
from memory_desk.ui.observations.detail import ObservationDetail
from memory_desk.ui.observations.filters import FilterBar
from memory_desk.ui.observations.index_health import IndexHealth, IndexHealthBanner
from memory_desk.ui.observations.model import ObservationTableModel
from memory_desk.ui.observations.page_actions import ActionTable
from memory_desk.ui.observations.page_query import QueryFlow
from memory_desk.ui.observations.page_reading import Reading, key_help
from memory_desk.ui.observations.page_table import RowSelection, build_table
from memory_desk.ui.observations.page_writes import (  # noqa: F401 (importable from here)
    PageWrites,
    confirm_delete,
    delete_confirmation,
)
from memory_desk.ui.pages import MenuItem
from memory_desk.ui.widgets.topic import TopicAction
from memory_desk.ui.widgets.write_banner import WriteWaitBanner
from memory_desk.ui.workers.write_runner import Outcome

if TYPE_CHECKING:
    from memory_desk.ui.observations.agent_search import AgentSearchDialog

_CLOCK_MS = 60_000


class ObservationsPage(QWidget):
    """Browse and prune one observation database (see the module docstring).

    Its parts: ``selection`` (rows by id), ``reading`` (the detail pane and the keys),
    ``queries`` (the question and its answers), ``writes`` (the write actions and their
    undo), ``action_table`` (the actions, menus and buttons).

    Signals:
        status_changed(str): counts for the status bar
        error_raised(str): a store error, for the window's message bar
        info_raised(str): a passing notice
        refreshed(): a query's answer was applied to the table
        unsaved_changed(bool): the edit form holds unsaved edits (the title bar's mark)
        open_chat_requested(str): show this chat (session id) on the Chats page
        timeline_requested(int): show this observation's neighbours in its chat
    """

    status_changed = Signal(str)
    error_raised = Signal(str)
    info_raised = Signal(str)
    refreshed = Signal()
    unsaved_changed = Signal(bool)
    open_chat_requested = Signal(str)
    timeline_requested = Signal(int)

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("observationsPage")
        self.undo_stack = undo_stack  # this page's own history (the window's Undo acts on it)
        self._store: ObservationStore | None = None
        self.totals: Totals | None = None  # with the last answer: the window's counts reuse it
        self.agent_search: AgentSearchDialog | None = None  # built when first asked for

        self.index_banner = IndexHealthBanner(self)
        self.write_banner = WriteWaitBanner(self)
        self.writes = PageWrites(self, undo_stack)
        self.writes.runner.waiting.connect(self.write_banner.show_waiting)
        self.writes.runner.finished.connect(self.write_banner.clear)
        self.write_banner.cancel_requested.connect(self.cancel_write)
        self._index_health = IndexHealth(self)
        self._index_health.checked.connect(self._on_index_checked)
        self._index_health.announced.connect(self.info_raised)
        self.filters = FilterBar(self)
        self.model = ObservationTableModel(self)
        self.table = build_table(self, self.model)
        self.setFocusProxy(self.table)  # the page in front takes the keys at the table
        self.columns = TableColumns(self.table)  # widths that fit, and the header's column menu
        self.detail = ObservationDetail(self)
        self.selection = RowSelection(self.table, self.model)
        self.reading = Reading(self)
        self._take_actions(ActionTable(self))
        self._build_layout()

        self.queries = QueryFlow(self, self._index_health)
        self.table.painted.connect(self.queries.follow_up.on_painted)
        self._clock = QTimer(self)
        self._clock.setInterval(_CLOCK_MS)
        self._clock.timeout.connect(self.model.reformat_times)
        self._clock.start()

        self.filters.search_changed.connect(self.queries.on_query_changed)
        self.filters.filters_changed.connect(self.queries.on_query_changed)
        self.filters.search.returnPressed.connect(self.open_detail)
        self.filters.navigate_requested.connect(self.reading.navigate_table)
        self.table.installEventFilter(self.reading)
        self.detail.content_view.installEventFilter(self.reading)
        self.model.fetch_failed.connect(self.error_raised, Qt.ConnectionType.QueuedConnection)
        self.table.horizontalHeader().sortIndicatorChanged.connect(self.queries.on_sort_changed)
        self.table.selectionModel().currentRowChanged.connect(self.reading.on_current_changed)
        self.table.selectionModel().selectionChanged.connect(self.action_table.update)
        self.detail.save_requested.connect(self.writes.on_save_requested)
        self.detail.unsaved_changed.connect(self.unsaved_changed)
        self.detail.unsaved_changed.connect(
            lambda unsaved: self.model.set_unsaved(self.detail.editing_id if unsaved else None)
        )
        self.detail.recreate_requested.connect(self.writes.on_recreate_requested)
        self.detail.edit_started.connect(self.action_table.update)
        self.detail.edit_finished.connect(self.reading.on_edit_finished)
        self._set_enabled_for_store()
        self.action_table.update()

    # -- composition ----------------------------------------------------------------------------

    def _take_actions(self, table: ActionTable) -> None:
        """The actions under the names the window and the tests know them by."""
        self.action_table = table
        self.page_actions = table.group
        self.pin_action, self.forget_action = table.pin, table.forget
        self.restore_action, self.edit_action = table.restore, table.edit
        self.delete_action, self.agent_search_action = table.delete, table.agent_search
        self.open_chat_action, self.timeline_action = table.open_chat, table.timeline
        self.export_actions = table.exports

    def _build_layout(self) -> None:
        buttons, row = self.action_table.button_row()
        self._set_tab_order(row)

        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setObjectName("observationsSplitter")
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.table)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([440, 300])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.index_banner)
        layout.addWidget(self.write_banner)
        layout.addWidget(self.filters)
        layout.addLayout(buttons)
        layout.addWidget(splitter, 1)

    def _set_tab_order(self, buttons: list[QWidget]) -> None:
        """Tab follows the page as it reads: search and filters, the buttons below them, the
        table, then the detail (the buttons were built last, so Qt would put them last)."""
        f = self.filters
        chain = [f.search, f.type_button, f.project, f.scope, f.date_filter]
        chain += [f.pinned_only, f.show_forgotten, *buttons, self.table, self.detail.content_view]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    def _set_enabled_for_store(self) -> None:
        has_store = self._store is not None
        self.filters.setEnabled(has_store)
        self.table.setEnabled(has_store)
        self.agent_search_action.setEnabled(has_store)

    # -- the page contract ----------------------------------------------------------------------

    def set_current(self, current: bool) -> None:
        """The page came to the front (True) or left it: its actions work only while it is
        current; each keeps its own enabled state, which comes back with the page."""
        self.page_actions.setEnabled(current)

    def menu_actions(self) -> list[MenuItem]:
        """The window's Observation menu: the row actions, then the exports."""
        return self.action_table.menu_items()

    def may_close(self) -> bool:
        """The edit form saves or drops its edits itself: the window may always close."""
        return True

    def set_store(self, store: ObservationStore | None) -> None:
        """Show this database (None: nothing). Filters and sort carry over; the project does not."""
        if store is self._store:
            self.refresh()
            return
        self.detail.cancel_edit()
        if self.writes.runner.is_busy():
            self.writes.runner.abandon()  # its store may be closed next: never write it half-way
        self._store = store
        self.queries.opened(store)
        self.model.set_store(store)
        self.detail.show_observation(None)
        self.filters.reset_project()
        self._set_enabled_for_store()
        self.index_banner.clear()
        self._index_health.check(None)
        if self.agent_search is not None:
            self.agent_search.set_store(store, [], None)
        if store is None:
            self.queries.showing = 0
            self.status_changed.emit(translate("ObservationsPage", "No database open"))
            self.action_table.update()
            return
        self.queries.run(reset=True)

    def refresh(self) -> None:
        """Re-run the current query; its answer is applied as a difference (no reset)."""
        if self._store is not None:
            self.queries.run(reset=False)

    def shutdown(self) -> None:
        """Stop timers and the query thread; called when the window closes."""
        self._clock.stop()
        self.reading.stop()
        self.queries.follow_up.cancel()
        self.model.clear_marks()
        self.filters.stop()
        self.queries.stop()
        self.writes.runner.stop()
        self._index_health.stop()
        if self.agent_search is not None:
            self.agent_search.stop()
            self.agent_search.close()

    @property
    def store(self) -> ObservationStore | None:
        return self._store

    def has_unsaved_edits(self) -> bool:
        return self.detail.has_unsaved_edits()

    def is_busy(self) -> bool:
        """True while a search is pending (typing not settled, or the answer not back yet)."""
        return self.filters.has_pending_search() or self.queries.is_busy()

    def is_writing(self) -> bool:
        """True while a write runs in the background (perhaps waiting for the agent)."""
        return self.writes.runner.is_busy()

    def cancel_write(self) -> None:
        """Cancel the write waiting for the agent: nothing of it is written, and the person
        is told when its outcome comes back. Too late once part of it is written."""
        runner = self.writes.runner
        if runner.is_busy() and not runner.cancel():
            self.write_banner.show_too_late()

    def is_checking_index(self) -> bool:
        """True while the database's search index is checked (or waits for the first rows)."""
        return self.queries.waits_to_check_index() or self._index_health.is_busy()

    def _on_index_checked(self, store: ObservationStore, message: str | None) -> None:
        """A damaged database gets a banner and read-only actions (the store refuses writes);
        a healthy one lifts both; a stale answer changes nothing."""
        if store is not self._store:
            return
        if message:
            self.index_banner.show_problem(message)
        else:
            self.index_banner.clear()
        self.action_table.update()

    def show_store_problem(self, message: str) -> None:
        """Say why no database is shown (the file at its path went away or is not one)."""
        self.index_banner.show_problem(message)

    def rows_view(self) -> QTableView:
        """The table whose first painted rows end the start (see ui/startup.py)."""
        return self.table

    def check_database(self) -> None:
        """Check the shown database again (Tools ▸ Check database), e.g. after a repair."""
        if self._store is not None:
            self._index_health.check(self._store, asked=True)

    # -- rows and reading -----------------------------------------------------------------------

    def selected_ids(self, limit: int | None = None) -> list[int]:
        """Ids of the selected rows, in display order (the first ``limit`` of them)."""
        return self.selection.ids(limit)

    def open_detail(self) -> None:
        """Return, in the search box or the table: read the current row in the detail pane."""
        self.reading.open_detail()

    def highlighted_words(self) -> list[str]:
        """The words marked in the table's titles and the detail: those the answer matched."""
        return list(self.table.title_marks.words)

    def key_help(self) -> list[tuple[str, str]]:
        """Keys this page handles in its own widgets, for Help ▸ Keyboard shortcuts."""
        return key_help()

    def show_saved_on(self, day: date) -> None:
        """Show only the observations saved (created) on ``day``, in local time, forgotten
        ones too and no other filter: exactly the Overview chart's bar for that day."""
        if self._store is None:
            return
        self.filters.clear()
        self.filters.show_forgotten.blockSignals(True)  # one query for both changes, below
        self.filters.show_forgotten.setChecked(True)
        self.filters.show_forgotten.blockSignals(False)
        self.filters.set_saved_on(day)

    def show_observation_id(self, observation_id: int) -> None:
        """Select this row in the table; when the search or filters hide it, clear them first
        (the agent's answer never holds a forgotten row, so the default view shows it)."""
        if self._store is None:
            return
        if self.model.row_of(observation_id) >= 0:
            self.selection.show(observation_id)
            return
        self.selection.want(observation_id)
        self.filters.clear()
        self.queries.run(reset=True)
        self.info_raised.emit(
            translate("ObservationsPage", "Cleared the search and filters to show #{id}").format(
                id=observation_id
            )
        )

    # -- actions --------------------------------------------------------------------------------

    def on_pin(self) -> None:
        """Pin the selection, or unpin it when every selected row is already pinned."""
        self.writes.pin()

    def on_forget(self) -> None:
        self.writes.forget()

    def on_restore(self) -> None:
        self.writes.restore()

    def on_delete(self) -> None:
        """Delete for good after a confirmation; not undoable, and the question says so."""
        self.writes.delete()

    def on_edit(self) -> None:
        if self.detail.start_edit():
            self.action_table.update()

    def on_agent_search(self) -> None:
        """Show what the agent would find for the search box's text, from the chat's project."""
        if self._store is None:
            return
        if self.agent_search is None:
            from memory_desk.ui.observations.agent_search import AgentSearchDialog  # when asked

            self.agent_search = AgentSearchDialog(self)
            self.agent_search.observation_activated.connect(self.show_observation_id)
        self.agent_search.set_store(
            self._store,
            self.queries.projects,
            self.reading.chat_project(),
            text=self.filters.text(),
        )
        self.agent_search.show()
        self.agent_search.raise_()
        self.agent_search.activateWindow()

    def on_open_chat(self) -> None:
        """Ask the window for the Chats page, on the current observation's chat."""
        shown = self.detail.shown
        if shown is not None and shown.session_id:
            self.open_chat_requested.emit(shown.session_id)

    def on_timeline(self) -> None:
        """Ask the window for the current observation's neighbours in its chat."""
        shown = self.detail.shown
        if shown is not None:
            self.timeline_requested.emit(shown.id)

    def on_export(self, which: str, fmt: str) -> None:
        """Export the selected observations (``which`` "selected") or every one ("all",
        forgotten included) as ``fmt`` ("json" or "markdown"); it asks where."""
        if self._store is None:
            return
        ids = self.selected_ids() if which == "selected" else None
        if ids is not None and not ids:
            return
        from memory_desk.ui import export  # only when the person exports

        export.start_observations_export(self, self._store, ids, fmt)

    # -- what commands call (WriteHost): the page's writes answer -------------------------------

    def run_write(
        self, what: str, step: Callable[[], object], done: Callable[[Outcome], None]
    ) -> bool:
        return self.writes.run_write(what, step, done)

    def push(self, command: QUndoCommand) -> None:
        self.writes.push(command)

    def drop_from_stack(self, command: QUndoCommand, *, undone: bool) -> None:
        self.writes.drop_from_stack(command, undone=undone)

    def after_write(self, store: ObservationStore, ids: Sequence[int], message: str) -> None:
        """Show a write at once in the cached rows, then re-run the query for the rest."""
        self.writes.after_write(store, ids, message)

    def undo_keys(self) -> str:
        return self.writes.undo_keys()

    def report_error(self, message: str) -> None:
        self.writes.report_error(message)

    def report_conflict(self, observation_id: int, message: str) -> None:
        self.writes.report_conflict(observation_id, message)

    def report_cancelled(self, message: str) -> None:
        self.writes.report_cancelled(message)

    def choose_topic(
        self, store: ObservationStore, conflict: TopicConflict, action: TopicAction
    ) -> str | None:
        return self.writes.choose_topic(store, conflict, action)

    def restore_stack_position(self, command: QUndoCommand, *, undone: bool) -> None:
        self.writes.restore_stack_position(command, undone=undone)

    def take_first_focus(self) -> None:
        """At start the search box has the keys: typing searches, and the page's keys work."""
        self.reading.focus_search()

    def select_id(self, observation_id: int) -> None:
        """The Page contract's selection by id (:meth:`show_observation_id`)."""
        self.show_observation_id(observation_id)
