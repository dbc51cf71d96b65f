"""The Observations page: search, filter, sort, read and prune one Alisio memory database.

Data flows one way. The filter bar and the sortable header describe a query; the query runs
on a worker thread (:mod:`.query`) and its ids come back to the table model, which loads the
visible rows lazily. Writes go through undo commands (:mod:`.commands`) that call the store
on a thread of their own (:mod:`.write_runner`: one write at a time; while the agent holds
the write lock a banner says so and offers Cancel) and then
:meth:`ObservationsPage.refresh`, which re-runs the same query and applies only the
difference, so the selection, the current row, the scroll position and the detail pane stay
where the person left them. Live reload calls the same ``refresh`` when another program
commits: rows that arrived since the previous answer are marked for a few seconds (a new
query marks nothing), a detail pane in read mode follows its row quietly, and an edit form
whose row changed underneath keeps the person's text behind a conflict banner (:mod:`.detail`).

When a store's first answer arrives and nothing is selected, the first row is selected so the
detail pane is not empty; a refresh never moves the person's selection.

Keyboard triage, as in a mail client: the current row is always selected, so Del, Ctrl+P or
F2 can be pressed again at once. When the current row leaves the view (forgotten, deleted,
unpinned under "Pinned only", or removed by the agent), the row below it becomes current
and selected once the answer that follows is in. The row actions work wherever the focus is
on the page (a text field keeps the keys it edits with); from the search box, Up/Down move
in the table, Return (there or in the table) moves to the detail to read it, and Esc in the
detail goes back to the table.

Opening a database also checks its search index in the background (:mod:`.index_health`): a
damaged index shows a warning banner on the page. "Search as the agent…" (:mod:`.agent_search`)
shows what the agent's own ``memory_search`` would return beside the table.

The columns fit the window as it first opens, the sort arrow in view (:mod:`.columns`).

Every visible text goes through Qt's translation (context "ObservationsPage"); counts use
``i18n.plural`` and numbers ``i18n.number``; a store's message is shown with ``i18n.shown``.

Signals:
    status_changed(str): counts for the status bar ("Showing 120 · 3,401 live · …")
    error_raised(str): a store error, for the window's message bar
    info_raised(str): a passing notice ("Pinned 3 observations")
    refreshed(): a query's answer was applied to the table
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import (
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QKeyEvent,
    QKeySequence,
    QUndoCommand,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core import StoreError, TopicConflict
from memory_desk.core.lazy_numpy import np
from memory_desk.core.observations import Observation, ObservationStore, Totals, WriteCancelled
from memory_desk.core.observations.listing import Summary
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations import row_diff
from memory_desk.ui.observations.busy import Later, report_unless_busy, rows_now
from memory_desk.ui.observations.columns import TableColumns
from memory_desk.ui.observations.delegates import install_delegates
from memory_desk.ui.observations.detail import RELOADED, ObservationDetail, text_changed
from memory_desk.ui.observations.filters import FilterBar
from memory_desk.ui.observations.index_health import (
    IndexHealth,
    IndexHealthBanner,
    checks_on_open,
)
from memory_desk.ui.observations.model import (
    SORT_KEY_BY_COLUMN,
    Column,
    ObservationTableModel,
)
from memory_desk.ui.observations.query import Query, QueryResult, QueryRunner
from memory_desk.ui.observations.row_diff import IdIndex
from memory_desk.ui.observations.table_view import ObservationsTableView
from memory_desk.ui.pages import MenuItem, make_action
from memory_desk.ui.undo_focus import has_own_undo
from memory_desk.ui.widgets.topic import TopicAction, ask_topic_choice
from memory_desk.ui.widgets.write_banner import WriteWaitBanner
from memory_desk.ui.workers.background import BackgroundCall
from memory_desk.ui.workers.commands import (
    EditCommand,
    ForgetCommand,
    PinCommand,
    RecreateCommand,
    RestoreCommand,
    step_back_later,
)
from memory_desk.ui.workers.write_runner import Outcome, WriteRunner

if TYPE_CHECKING:
    from memory_desk.ui.observations.agent_search import AgentSearchDialog

# A live refresh's follow-up (counts, detail pane, actions) runs this long after the table
# painted the new rows (a timer: the event loop turns in between), or at most this long after
# the rows were applied when nothing was painted.
LIVE_FINISH_AFTER_PAINT_MS = 1
LIVE_FINISH_AT_MOST_MS = 40
# Above this many selected rows, the action states are guessed from the cached rows only.
_SUMMARY_LIMIT = 2000
# After a new query, restore at most this many selected ids (beyond, only the current row).
_RESELECT_LIMIT = 5000
_CLOCK_MS = 60_000


def delete_confirmation(parent: QWidget | None, count: int) -> QMessageBox:
    """The question asked before deleting ``count`` observations for good.

    Its button says what it does ("Delete 3 observations"), never a bare Yes, and Cancel is
    the default, so Return alone never deletes anything.
    """
    box = QMessageBox(parent)
    box.setObjectName("deleteConfirmation")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("ObservationsPage", "Delete permanently"))
    box.setText(
        i18n.plural(
            count,
            translate("ObservationsPage", "Delete {n} observation permanently?"),
            translate("ObservationsPage", "Delete {n} observations permanently?"),
        )
    )
    box.setInformativeText(
        i18n.plural(
            count,
            translate(
                "ObservationsPage",
                "This cannot be undone. To hide it from the agent but keep it, use Forget.",
            ),
            translate(
                "ObservationsPage",
                "This cannot be undone. To hide them from the agent but keep them, use Forget.",
            ),
        )
    )
    delete = box.addButton(
        i18n.plural(
            count,
            translate("ObservationsPage", "Delete {n} observation"),
            translate("ObservationsPage", "Delete {n} observations"),
        ),
        QMessageBox.ButtonRole.DestructiveRole,
    )
    delete.setObjectName("confirmDeleteButton")
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    cancel.setObjectName("cancelDeleteButton")
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    return box


def confirm_delete(parent: QWidget | None, count: int) -> bool:
    """Ask :func:`delete_confirmation`; True only when the person pressed its Delete button."""
    box = delete_confirmation(parent, count)
    try:
        box.exec()
        return box.clickedButton() is box.findChild(QPushButton, "confirmDeleteButton")
    finally:
        box.deleteLater()


class ObservationsPage(QWidget):
    """Browse and prune one observation database (see the module docstring).

    Signals:
        status_changed(str): counts for the status bar
        error_raised(str): a store error, for the window's message bar
        info_raised(str): a passing notice
        refreshed(): a query's answer was applied to the table
    """

    status_changed = Signal(str)
    error_raised = Signal(str)
    info_raised = Signal(str)
    refreshed = Signal()
    unsaved_changed = Signal(bool)  # the edit form holds unsaved edits (the title bar's mark)
    open_chat_requested = Signal(str)  # show this chat (session id) on the Chats page
    timeline_requested = Signal(int)  # show this observation's neighbours in its chat

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("observationsPage")
        self._undo_stack = undo_stack
        self.undo_stack = undo_stack  # this page's own history (the window's Undo acts on it)
        self._store: ObservationStore | None = None
        self._query = Query()
        self._pending_reset = False
        self._last_error: str | None = None
        self._save_conflict: str | None = None
        self._cancelled: str | None = None  # the person cancelled a topic question
        self._retrying_save = False
        self._pending_select: int | None = None  # a row this page just created: show it
        self._triage_next: int | None = None  # after a forget or delete: the row to go on to
        self.totals: Totals | None = None  # with the last answer: the window's counts reuse it
        self._select_first = False  # the store's first answer selects its first row
        self._showing = 0
        self._asked_at: float | None = None  # when the query being answered was asked
        self._projects: list[str] = []  # with the last answer: the agent search offers them
        self.agent_search: AgentSearchDialog | None = None  # built when first asked for

        self.index_banner = IndexHealthBanner(self)
        self.write_banner = WriteWaitBanner(self)
        self._writes = WriteRunner(self)
        self._show_again = Later(self._show_current, self)  # the agent's lock refused a read
        self._writes.waiting.connect(self.write_banner.show_waiting)
        self._writes.finished.connect(self.write_banner.clear)
        self.write_banner.cancel_requested.connect(self.cancel_write)
        self._index_health = IndexHealth(self)
        self._index_health.checked.connect(self._on_index_checked)
        self._index_health.announced.connect(self.info_raised)
        self._check_after_first_answer = False  # the opened store's check waits for its rows
        self.filters = FilterBar(self)
        self.model = ObservationTableModel(self)
        self.table = self._build_table()
        self.detail = ObservationDetail(self)
        self._build_actions()
        self._build_layout()

        # A live refresh's follow-up, run once its rows are painted (see _on_results).
        self._finish: Callable[[], None] | None = None
        self._finish_timer = QTimer(self)
        self._finish_timer.setSingleShot(True)
        self._finish_timer.timeout.connect(self._finish_now)
        self.table.painted.connect(self._on_table_painted)
        self._runner = QueryRunner(self)
        self._runner.finished.connect(self._on_results)
        self._runner.first.connect(self._on_first_rows)
        self._summary = BackgroundCall(self)  # the counts and projects, after the rows
        self._summary.finished.connect(self._on_summary)
        self._summary.failed.connect(self._on_summary_failed)
        self._runner.failed.connect(self._on_query_failed)
        self._clock = QTimer(self)
        self._clock.setInterval(_CLOCK_MS)
        self._clock.timeout.connect(self.model.reformat_times)
        self._clock.start()

        self.filters.search_changed.connect(self._on_query_changed)
        self.filters.filters_changed.connect(self._on_query_changed)
        self.filters.search.returnPressed.connect(self.open_detail)
        self.filters.navigate_requested.connect(self._navigate_table)
        self.table.installEventFilter(self)
        self.detail.content_view.installEventFilter(self)
        self.model.fetch_failed.connect(self.error_raised, Qt.ConnectionType.QueuedConnection)
        self.table.horizontalHeader().sortIndicatorChanged.connect(self._on_sort_changed)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.table.selectionModel().selectionChanged.connect(self._update_actions)
        self.detail.save_requested.connect(self._on_save_requested)
        self.detail.unsaved_changed.connect(self.unsaved_changed)
        self.detail.unsaved_changed.connect(
            lambda unsaved: self.model.set_unsaved(self.detail.editing_id if unsaved else None)
        )
        self.detail.recreate_requested.connect(self._on_recreate_requested)
        self.detail.edit_started.connect(self._update_actions)
        self.detail.edit_finished.connect(self._on_edit_finished)
        self._set_enabled_for_store()
        self._update_actions()

    # -- building -------------------------------------------------------------------------------

    def _build_table(self) -> QTableView:
        table = ObservationsTableView(self)  # paints its rows itself (see table_view)
        table.setObjectName("observationsTable")
        table.setAccessibleName(translate("ObservationsPage", "Observations"))
        table.setAccessibleDescription(
            translate(
                "ObservationsPage",
                "The observations of this database, one per row. Return reads the current one,"
                " Del forgets, Ctrl+P pins, F2 edits; the header's menu shows or hides columns",
            )
        )
        table.setModel(self.model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        table.setAlternatingRowColors(True)
        table.setShowGrid(False)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        table.setTabKeyNavigation(False)  # rows are the unit here: Tab leaves the table
        install_delegates(table)  # each cell painted from one look-up of its row
        # The header would scan every row to draw its "column selected" state (a million
        # flags() calls after Ctrl+A on 100,000 rows); its own, always empty, selection
        # model spares that. Sections are for sorting here, never for selecting.
        table.horizontalHeader().setSelectionModel(QItemSelectionModel(self.model, table))
        rows = table.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(table.fontMetrics().height() + 8)
        header = table.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicatorClearable(True)  # a third click goes back to rank / newest first
        header.setSortIndicator(-1, Qt.SortOrder.DescendingOrder)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        self.columns = TableColumns(table)  # widths that fit, and the header's column menu
        return table

    def _build_actions(self) -> None:
        """Row actions: their shortcuts work wherever the focus is on this page (the page is
        hidden when another one is current, and so are its shortcuts). They sit in one group
        that ``set_current`` switches off while another page is current, so the window's
        Observation menu cannot act on rows the person does not see."""
        self.page_actions = QActionGroup(self)
        self.page_actions.setExclusionPolicy(QActionGroup.ExclusionPolicy.None_)
        self.pin_action = self._table_action(
            translate("ObservationsPage", "Pin"),
            "Ctrl+P",
            translate("ObservationsPage", "Pin or unpin the selected observations"),
            self.on_pin,
        )
        self.forget_action = self._table_action(
            translate("ObservationsPage", "Forget"),
            QKeySequence.StandardKey.Delete,
            translate(
                "ObservationsPage", "Forget the selected observations (undo brings them back)"
            ),
            self.on_forget,
        )
        self.restore_action = self._table_action(
            translate("ObservationsPage", "Restore"),
            "Ctrl+R",
            translate("ObservationsPage", "Bring the selected forgotten observations back"),
            self.on_restore,
        )
        self.edit_action = self._table_action(
            translate("ObservationsPage", "Edit"),
            "F2",
            translate("ObservationsPage", "Edit the current observation"),
            self.on_edit,
        )
        self.delete_action = self._table_action(
            translate("ObservationsPage", "Delete permanently…"),
            "Shift+Del",
            translate(
                "ObservationsPage", "Delete the selected observations for good (cannot be undone)"
            ),
            self.on_delete,
        )
        find = make_action(
            self,
            "findAction",
            translate("ObservationsPage", "Find"),
            QKeySequence.StandardKey.Find,
            self._focus_search,
            translate("ObservationsPage", "Go to the search box"),
        )
        find.setWhatsThis(find.statusTip())
        find.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.agent_search_action = make_action(
            self,
            "agentSearchAction",
            translate("ObservationsPage", "Search as the agent…"),
            "Ctrl+Shift+F",
            self.on_agent_search,
            translate(
                "ObservationsPage",
                "See what the agent's memory_search would return for the search text",
            ),
        )
        self.agent_search_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.page_actions.addAction(self.agent_search_action)
        self.open_chat_action = self._table_action(
            translate("ObservationsPage", "Open its chat"),
            "Ctrl+Shift+C",
            translate(
                "ObservationsPage",
                "Show the chat that saved the current observation: its summary, prompts and"
                " loaded context",
            ),
            self.on_open_chat,
        )
        self.open_chat_action.setObjectName("openChatAction")
        self.timeline_action = self._table_action(
            translate("ObservationsPage", "Timeline"),
            "Ctrl+T",
            translate(
                "ObservationsPage",
                "Show what was saved just before and after the current observation in its chat",
            ),
            self.on_timeline,
        )
        self.timeline_action.setObjectName("timelineAction")
        self.export_actions: dict[tuple[str, str], QAction] = {}
        for which, fmt, name, text in (
            (
                "selected",
                "json",
                "exportSelectedJsonAction",
                translate("ObservationsPage", "Export selected to &JSON…"),
            ),
            (
                "selected",
                "markdown",
                "exportSelectedMarkdownAction",
                translate("ObservationsPage", "Export selected to &Markdown…"),
            ),
            (
                "all",
                "json",
                "exportAllJsonAction",
                translate("ObservationsPage", "Export all to J&SON…"),
            ),
            (
                "all",
                "markdown",
                "exportAllMarkdownAction",
                translate("ObservationsPage", "Export all to Mar&kdown…"),
            ),
        ):
            action = QAction(text, self)
            action.setObjectName(name)
            action.triggered.connect(lambda _=False, w=which, f=fmt: self.on_export(w, f))
            self.page_actions.addAction(action)
            self.export_actions[(which, fmt)] = action

    def _table_action(self, text: str, shortcut, tip: str, slot) -> QAction:
        action = make_action(self, "", text, shortcut, slot, tip)  # its shortcut, page-wide
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.table.addAction(action)  # its context menu
        self.page_actions.addAction(action)
        return action

    def set_current(self, current: bool) -> None:
        """The window calls this when the page comes to the front (True) or leaves it: the
        page's actions work only while it is current; each keeps its own enabled state, which
        comes back with the page."""
        self.page_actions.setEnabled(current)

    def menu_actions(self) -> list[MenuItem]:
        """The window's Observation menu: the row actions, then the exports."""
        export_menu = QMenu(translate("ObservationsPage", "E&xport"), self)
        export_menu.setObjectName("exportObservationsMenu")
        export_menu.addActions(list(self.export_actions.values()))
        return [
            self.pin_action,
            self.forget_action,
            self.restore_action,
            self.edit_action,
            None,
            self.delete_action,
            None,
            self.open_chat_action,
            self.timeline_action,
            self.agent_search_action,
            None,
            export_menu,
        ]

    def may_close(self) -> bool:
        """The edit form saves or drops its edits itself: the window may always close."""
        return True

    def _build_layout(self) -> None:
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        row: list[QWidget] = []
        for action, name in (
            (self.pin_action, "pinButton"),
            (self.forget_action, "forgetButton"),
            (self.restore_action, "restoreButton"),
            (self.edit_action, "editButton"),
        ):
            row.append(self._button(action, name))
            buttons.addWidget(row[-1])
        buttons.addStretch(1)
        for action, name in (
            (self.agent_search_action, "agentSearchButton"),
            (self.delete_action, "deleteButton"),
        ):
            row.append(self._button(action, name))
            buttons.addWidget(row[-1])
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
        chain = [f.search, f.type_button, f.project, f.scope, f.pinned_only, f.show_forgotten]
        chain += [*buttons, self.table, self.detail.content_view]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    def _button(self, action: QAction, name: str) -> QToolButton:
        button = QToolButton(self)
        button.setObjectName(name)
        button.setDefaultAction(action)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.setAutoRaise(False)
        return button

    # -- the page contract ----------------------------------------------------------------------

    def set_store(self, store: ObservationStore | None) -> None:
        """Show this database (None: nothing). Filters and sort carry over; the project does not."""
        if store is self._store:
            self.refresh()
            return
        self.detail.cancel_edit()
        if self._writes.is_busy():
            self._writes.abandon()  # its store may be closed next: never write it half-way
        self._store = store
        self._finish_timer.stop()
        self._finish = None  # the last store's follow-up
        self._summary.cancel()  # the last store's counts (or its failure) are nobody's news now
        self._projects = []
        self.model.set_store(store)
        self.detail.show_observation(None)
        self.filters.reset_project()
        self._select_first = store is not None
        self._set_enabled_for_store()
        self.index_banner.clear()
        # The full check reads the whole file (seconds on a big one): it starts once the
        # first rows are shown, so it never competes with them for the disk and the cores;
        # a file of gigabytes is checked only when the person asks.
        self._check_after_first_answer = store is not None and checks_on_open(store)
        self._index_health.check(None)
        if self.agent_search is not None:
            self.agent_search.set_store(store, [], None)
        if store is None:
            self._showing = 0
            self.status_changed.emit(translate("ObservationsPage", "No database open"))
            self._update_actions()
            return
        self._run_query(reset=True)

    def refresh(self) -> None:
        """Re-run the current query; its answer is applied as a difference (no reset)."""
        if self._store is not None:
            self._run_query(reset=False)

    def shutdown(self) -> None:
        """Stop timers and the query thread; called when the window closes."""
        self._clock.stop()
        self._show_again.stop()
        self._finish_timer.stop()
        self._finish = None
        self.model.clear_marks()
        self.filters.stop()
        self._runner.stop()
        self._summary.stop()
        self._writes.stop()
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
        return (
            self.filters.has_pending_search()
            or self._runner.is_busy()
            or self._finish is not None
            or self._summary.is_busy()
        )

    def is_writing(self) -> bool:
        """True while a write runs in the background (perhaps waiting for the agent)."""
        return self._writes.is_busy()

    def cancel_write(self) -> None:
        """Cancel the write waiting for the agent: nothing of it is written, and the person
        is told when its outcome comes back. Too late once part of it is written."""
        if self._writes.is_busy() and not self._writes.cancel():
            self.write_banner.show_too_late()

    def is_checking_index(self) -> bool:
        """True while the opened database's search index is being checked in the background
        (or waits for the first rows to be shown to start)."""
        return self._check_after_first_answer or self._index_health.is_busy()

    def _on_index_checked(self, store: ObservationStore, message: str | None) -> None:
        """A damaged database gets a banner and read-only actions (the store refuses writes);
        a healthy one lifts both; a stale answer changes nothing."""
        if store is not self._store:
            return
        if message:
            self.index_banner.show_problem(message)
        else:
            self.index_banner.clear()
        self._update_actions()

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

    # -- querying -------------------------------------------------------------------------------

    def _current_query(self) -> Query:
        header = self.table.horizontalHeader()
        section = header.sortIndicatorSection()
        sort = SORT_KEY_BY_COLUMN.get(Column(section)) if 0 <= section < len(Column) else None
        return Query(
            text=self.filters.text(),
            types=self.filters.types(),
            project=self.filters.project_name(),
            scope=self.filters.scope_name(),
            include_forgotten=self.filters.show_forgotten.isChecked(),
            pinned_only=self.filters.pinned_only.isChecked(),
            created_between=self.filters.saved_on_span(),
            sort=sort,
            # Without a sort column the store ranks (with text) or shows newest first.
            descending=sort is None or header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder,
        )

    def _on_query_changed(self) -> None:
        query = self._current_query()
        if query != self._query and self._store is not None:
            self._run_query(reset=True)

    def _on_sort_changed(self, _section: int, _order: Qt.SortOrder) -> None:
        self._on_query_changed()

    def _run_query(self, *, reset: bool) -> None:
        # A refresh that overtakes an unanswered new query must still reset when it lands.
        self._pending_reset = self._pending_reset or reset
        if reset:
            self._query = self._current_query()
        assert self._store is not None
        # A re-run gets the table's ids, so the worker plans the row changes from them.
        previous = None if self._pending_reset else self.model.snapshot()
        self._asked_at = time.perf_counter()
        self._runner.submit(self._store, self._query, previous=previous)

    def _note_answer_time(self) -> None:
        """Tell the search box how soon rows come back: its pause after a keystroke follows
        the database's speed (a pause alone must never exceed what the answer costs)."""
        if self._asked_at is not None:
            self.filters.note_answer_time((time.perf_counter() - self._asked_at) * 1000)
            self._asked_at = None

    def _on_first_rows(self, result: QueryResult) -> None:
        """The newest matches of a new question, shown while every match is read in order
        (the whole answer then takes their place, keeping the current and selected rows)."""
        if self._store is None or not self._pending_reset:
            return
        self._note_answer_time()
        self._show_new_query(result.ids, result.index)
        self.status_changed.emit(
            translate(
                "ObservationsPage", "Showing the {shown} newest matches · reading the rest…"
            ).format(shown=i18n.number(len(result.ids)))
        )
        self._show_current()
        self._update_actions()

    def _on_results(self, result: QueryResult) -> None:
        if self._store is None:
            return
        self._finish_now()  # the last answer's follow-up, if its paint has not come yet
        new_query = self._pending_reset
        if new_query:
            self._note_answer_time()  # how soon a new question shows rows
        self._asked_at = None
        arrived: list[int] = []
        if new_query:
            self._pending_reset = False
            self._show_new_query(result.ids, result.index)
            if self._select_first:
                self._select_first = False
                self._select_first_row()
        else:
            arrived = self._apply_difference(result)
        in_view = self._ids_in_view()
        self.model.retain(in_view)
        self.model.reload(mark_revised=not new_query)
        self.model.ensure(in_view)  # rows that came into view: one small query, not a block
        if arrived:
            self.model.mark(arrived)
        if self._pending_select is not None and self.model.row_of(self._pending_select) >= 0:
            self._select_ids([self._pending_select], self._pending_select)
            self._scroll_to_id(self._pending_select)
            self._pending_select = None
        self._go_on_after_triage()
        self._showing = len(result.ids)
        # A write of ours in flight may commit before its outcome is back: its own change is
        # neither "changed by another program" nor a conflict with the form it saves.
        writing = self._writes.is_busy()
        if new_query:
            self._finish_results(new_query=True, writing=writing)
            return
        # A live refresh: the rows first. What is not the rows (the counts' query, the
        # detail pane, the actions) waits for the table's next paint, in a turn of its own,
        # so no turn of the event loop holds both (LIVE_FINISH_AT_MOST_MS if no paint comes).
        self._finish = lambda: self._finish_results(new_query=False, writing=writing)
        self._finish_timer.start(LIVE_FINISH_AT_MOST_MS)

    def _finish_results(self, *, new_query: bool, writing: bool) -> None:
        """After an answer's rows: the index check, the counts (on their own thread), the
        detail pane and the actions."""
        if self._store is None:
            return
        if self._check_after_first_answer:
            self._check_after_first_answer = False
            self._index_health.check(self._store)
        # The counts and projects come after the rows, from their own thread: read again only
        # when the file changed, they cost a scan of the table (a second on a million rows).
        store = self._store
        self._summary.submit(lambda: (store, store.summary()))
        self._show_current(announce=not new_query and not writing)
        if not writing:
            self._follow_edited_row()
        self._update_actions()

    def _on_table_painted(self) -> None:
        """The table painted: a live refresh's follow-up runs at the loop's next turn."""
        if self._finish is not None:
            self._finish_timer.start(LIVE_FINISH_AFTER_PAINT_MS)

    def _finish_now(self) -> None:
        """Run the follow-up of the last live refresh now (if it is still waiting)."""
        self._finish_timer.stop()
        finish, self._finish = self._finish, None
        if finish is not None:
            finish()

    def _on_summary(self, _generation: int, answer: tuple[ObservationStore, Summary]) -> None:
        """The counts and projects beside the rows just shown: the answer is complete."""
        store, summary = answer
        if store is not self._store:
            return
        totals = self.totals = summary.totals
        # One template (not one phrase per count): a language whose adjectives agree with the
        # number words it as "live: 3" instead.
        self.status_changed.emit(
            translate(
                "ObservationsPage",
                "Showing {shown} · {live} live · {forgotten} forgotten · {pinned} pinned",
            ).format(
                shown=i18n.number(self._showing),
                live=i18n.number(totals.live),
                forgotten=i18n.number(totals.forgotten),
                pinned=i18n.number(totals.pinned),
            )
        )
        self._projects = list(summary.projects)
        self.filters.set_projects(self._projects)
        if self.agent_search is not None:
            self.agent_search.set_projects(self._projects)
        self.refreshed.emit()

    def _on_summary_failed(self, _generation: int, message: str) -> None:
        self.error_raised.emit(message)
        self.refreshed.emit()

    def _on_query_failed(self, _generation: int, message: str) -> None:
        self._pending_reset = False
        if self._check_after_first_answer and self._store is not None:
            self._check_after_first_answer = False
            self._index_health.check(self._store)  # a failing read may be the damage itself
        self.error_raised.emit(message)
        self.refreshed.emit()

    def _show_new_query(
        self, ids: Sequence[int] | np.ndarray, index: IdIndex | None = None
    ) -> None:
        """Reset to the new ids (``index``: their row look-up, built on the worker), keeping
        the current and selected rows that are still there."""
        current, selected = self._current_id(), self.selected_ids(limit=_RESELECT_LIMIT)
        self.model.reset_ids(ids, index)
        self._select_ids(selected, current)
        if current is None:
            self.table.scrollToTop()
        else:
            self._scroll_to_id(current)

    def _apply_difference(self, result: QueryResult) -> list[int]:
        """Apply a re-run's answer row by row (the worker planned the operations); the view
        keeps its top row where it was.

        Returns the ids that were not shown before (rows that just arrived).
        """
        anchor = self._top_id()
        offset = 0 if anchor is None else self.table.rowViewportPosition(self.model.row_of(anchor))
        current = self._current_id()
        before = self.model.snapshot()[1] if current is not None else None
        plan = result.plan
        if plan is not None and self.model.apply_plan(plan, result.based_on):
            arrived = [int(oid) for oid in plan.arrived]
        else:
            # Planned against other ids (rare), or too scattered: plan here, or reset.
            ids = row_diff.as_ids(result.ids)
            arrived = [int(oid) for oid in ids[~self.model.contains_many(ids)]]
            if not self.model.apply_ids(ids):
                self._show_new_query(ids)
        if anchor is not None and self.model.row_of(anchor) >= 0:
            self._keep_on_screen(anchor, offset)
        if current is not None and before is not None and self.model.row_of(current) < 0:
            self._go_on_from(current, before)
        return arrived

    def _go_on_from(self, gone: int, before: np.ndarray) -> None:
        """The current row left the view: the first row below it that is still shown becomes
        current and selected (else the nearest above), as a mail client goes on to the next
        message. Qt alone would move to the row above and leave nothing selected."""
        found = np.flatnonzero(before == gone)
        if not len(found):
            return
        row = int(found[0])
        below = np.flatnonzero(self.model.contains_many(before[row + 1 :]))
        if len(below):
            oid = int(before[row + 1 + int(below[0])])
        else:
            above = np.flatnonzero(self.model.contains_many(before[:row]))
            if not len(above):
                return
            oid = int(before[int(above[-1])])
        self._select_ids([oid], oid)

    def _keep_on_screen(self, anchor: int, offset: int) -> None:
        """Scroll so that ``anchor`` is again ``offset`` pixels from the top of the viewport."""
        row = self.model.row_of(anchor)
        if row < 0:
            return
        self.table.updateGeometries()  # the scroll range must know about the new rows first
        bar = self.table.verticalScrollBar()
        bar.setValue(bar.value() + self.table.rowViewportPosition(row) - offset)

    def _ids_in_view(self) -> list[int]:
        """The rows worth keeping fresh after a refresh: on screen, current, a few selected."""
        first = max(0, self.table.rowAt(0))
        last = self.table.rowAt(self.table.viewport().height() - 1)
        last = self.model.rowCount() - 1 if last < 0 else last
        ids = self.model.ids_slice(first, last)
        current = self._current_id()
        if current is not None:
            ids.append(current)
        return ids + self.selected_ids(limit=_SUMMARY_LIMIT // 10)

    def _top_id(self) -> int | None:
        """The id of the first visible row, unless the view is at the very top (then new rows
        arriving there should show)."""
        row = self.table.rowAt(0)
        return self.model.id_at(row) if row > 0 else None

    # -- selection ------------------------------------------------------------------------------

    def selected_ids(self, limit: int | None = None) -> list[int]:
        """Ids of the selected rows, in display order, read from the selection's ranges
        (the first ``limit`` of them: a check of the selection never copies all of it)."""
        ids: list[int] = []
        ranges = sorted(self.table.selectionModel().selection(), key=lambda r: r.top())
        for selection_range in ranges:
            ids.extend(self.model.ids_slice(selection_range.top(), selection_range.bottom()))
            if limit is not None and len(ids) >= limit:
                break
        unique = list(dict.fromkeys(ids))
        return unique if limit is None else unique[:limit]

    def _current_id(self) -> int | None:
        index = self.table.currentIndex()
        return self.model.id_at(index.row()) if index.isValid() else None

    def _select_ids(self, ids: Sequence[int], current: int | None) -> None:
        rows = sorted(int(row) for row in self.model.rows_of(ids) if row >= 0) if ids else []
        selection = QItemSelection()
        last_column = len(Column) - 1
        start = previous = None
        for row in [*rows, None]:
            if start is not None and (row is None or row != previous + 1):
                selection.select(
                    self.model.index(start, 0), self.model.index(previous, last_column)
                )
                start = None
            if row is not None and start is None:
                start = row
            previous = row
        selection_model = self.table.selectionModel()
        current_row = self.model.row_of(current) if current is not None else -1
        if current_row >= 0:
            selection_model.setCurrentIndex(
                self.model.index(current_row, 0), QItemSelectionModel.SelectionFlag.NoUpdate
            )
        selection_model.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def _scroll_to_id(self, observation_id: int) -> None:
        row = self.model.row_of(observation_id)
        if row >= 0:
            self.table.scrollTo(
                self.model.index(row, 0), QAbstractItemView.ScrollHint.PositionAtCenter
            )
        else:
            self.table.scrollToTop()

    def _on_current_changed(self, _current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_current()
        self._update_actions()

    def _show_current(self, *, announce: bool = False) -> None:
        """Show the current row in full; the detail pane ignores an unchanged observation.

        With ``announce`` (live reload), a row whose text another program rewrote while the
        person was reading it says so in a passing notice.
        """
        current = self._current_id()
        if current is None or self._store is None:
            self.detail.show_observation(None)
            return
        try:
            observation = self._store.get(current)
        except StoreError as exc:
            report_unless_busy(self.error_raised.emit, exc, self._show_again)
            return
        before = self.detail.shown
        self.detail.show_observation(observation)
        rewritten = (
            announce
            and observation is not None
            and before is not None
            and before.id == observation.id
            and text_changed(before, observation)
        )
        if rewritten and not self.detail.is_editing:
            self.info_raised.emit(
                translate(
                    "ObservationsPage",
                    "Observation #{id} was changed by another program; showing the new version",
                ).format(id=current)
            )

    def _select_first_row(self) -> None:
        """A person opening a database sees a filled detail pane: the first row is current."""
        if self.model.rowCount() == 0 or self.table.selectionModel().hasSelection():
            return
        self.table.selectionModel().setCurrentIndex(
            self.model.index(0, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )

    def _follow_edited_row(self) -> None:
        """Give the edit form its row as the database has it now (it may have changed)."""
        edited = self.detail.editing_id
        if edited is None or self._store is None:
            return
        try:
            fresh = self._store.get(edited)
        except StoreError as exc:
            report_unless_busy(self.error_raised.emit, exc)
            return
        if self.detail.follow_edited(fresh) == RELOADED:
            self.info_raised.emit(
                translate(
                    "ObservationsPage",
                    "Observation #{id} was changed by another program; the form shows the new"
                    " version",
                ).format(id=edited)
            )

    def _focus_search(self) -> None:
        self.filters.search.setFocus()
        self.filters.search.selectAll()

    def _make_a_row_current(self) -> None:
        if not self.table.currentIndex().isValid() and self.model.rowCount() > 0:
            self.table.selectRow(0)

    def open_detail(self) -> None:
        """Return, in the search box or the table: read the current row in the detail pane
        (its text takes the focus, so the arrows scroll it; Esc goes back to the table)."""
        self._make_a_row_current()
        if self.detail.is_editing:
            self.detail.start_edit()  # the form is open: Return goes on with it
        elif self.detail.shown is not None:
            self.detail.content_view.setFocus()

    def key_help(self) -> list[tuple[str, str]]:
        """Keys this page handles in its own widgets (not actions), for Help ▸ Keyboard
        shortcuts; kept beside the code that handles them."""
        return [
            (
                translate("ObservationsPage", "Up, Down, Page Up, Page Down"),
                translate("ObservationsPage", "Move in the table from the search box"),
            ),
            (
                translate("ObservationsPage", "Return"),
                translate(
                    "ObservationsPage",
                    "Read the current observation (from the search box or the table)",
                ),
            ),
            ("Esc", translate("ObservationsPage", "Clear the search (in the search box)")),
            (
                "Esc",
                translate("ObservationsPage", "Go back to the table (in the observation's text)"),
            ),
        ]

    def _navigate_table(self, key: int, modifiers: Qt.KeyboardModifier) -> None:
        """Up/Down (and pages) typed in the search box move the table's current row, as if
        pressed in the table: the focus stays in the search box."""
        if self.model.rowCount() == 0:
            return
        event = QKeyEvent(QEvent.Type.KeyPress, key, modifiers)
        QApplication.sendEvent(self.table, event)
        self._make_a_row_current()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """Return in the table reads the row; Esc in the detail's text goes back to the table."""
        if event.type() == QEvent.Type.KeyPress:
            key = event.key()
            no_modifier = event.modifiers() in (
                Qt.KeyboardModifier.NoModifier,
                Qt.KeyboardModifier.KeypadModifier,
            )
            if (
                watched is self.table
                and no_modifier
                and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            ):
                self.open_detail()
                return True
            if watched is self.detail.content_view and key == Qt.Key.Key_Escape:
                self.table.setFocus()
                return True
        return super().eventFilter(watched, event)

    # -- action states --------------------------------------------------------------------------

    def _set_enabled_for_store(self) -> None:
        has_store = self._store is not None
        self.filters.setEnabled(has_store)
        self.table.setEnabled(has_store)
        self.agent_search_action.setEnabled(has_store)

    def _update_actions(self) -> None:
        ids = self.selected_ids(limit=_SUMMARY_LIMIT + 1)
        known = [self.model.cached(i) for i in ids[:_SUMMARY_LIMIT]]
        missing = [oid for oid, o in zip(ids, known, strict=False) if o is None]
        if missing and len(ids) <= _SUMMARY_LIMIT and self._store is not None:
            # Rows a live refresh dropped from the cache: ask the database rather than
            # guess, so Forget/Restore never offer what cannot apply.
            try:
                fetched = self._store.get_many(missing)
            except StoreError:
                fetched = {}
            known = [
                o if o is not None else fetched.get(oid) for oid, o in zip(ids, known, strict=False)
            ]
        unknown = len(ids) > _SUMMARY_LIMIT or any(o is None for o in known)
        rows = [o for o in known if o is not None]
        all_pinned = bool(ids) and not unknown and all(o.pinned for o in rows)
        any_live = unknown or any(not o.forgotten for o in rows)
        any_forgotten = any(o.forgotten for o in rows) or (
            unknown and self.filters.show_forgotten.isChecked()
        )
        editing = self.detail.is_editing
        if all_pinned:
            self.pin_action.setText(translate("ObservationsPage", "Unpin"))
        else:
            self.pin_action.setText(translate("ObservationsPage", "Pin"))
        self.pin_action.setEnabled(bool(ids))
        self.forget_action.setEnabled(bool(ids) and any_live)
        self.restore_action.setEnabled(bool(ids) and any_forgotten)
        self.delete_action.setEnabled(bool(ids) and not editing)
        self.edit_action.setEnabled(self.detail.shown_id is not None and not editing)
        shown = self.detail.shown
        self.open_chat_action.setEnabled(shown is not None and bool(shown.session_id))
        self.timeline_action.setEnabled(shown is not None)
        for (which, _fmt), action in self.export_actions.items():
            action.setEnabled(self._store is not None and (which == "all" or bool(ids)))
        if self._store is not None and self._store.damage is not None:
            # A damaged database is read-only: the banner says why.
            for action in (self.pin_action, self.forget_action, self.restore_action):
                action.setEnabled(False)
            self.delete_action.setEnabled(False)
            self.edit_action.setEnabled(False)

    # -- actions --------------------------------------------------------------------------------

    def on_pin(self) -> None:
        """Pin the selection, or unpin it when every selected row is already pinned."""
        if self._still_writing():
            return
        rows = self._selected_observations()
        if not rows:
            return
        pinned = not all(o.pinned for o in rows.values())
        leaving = not pinned and self.filters.pinned_only.isChecked()
        after = self._row_after(list(rows)) if leaving else None
        command = PinCommand(self, self._store, list(rows), pinned)
        command.start(then=lambda: self._after_triage(command.written, after))

    def on_forget(self) -> None:
        if self._still_writing():
            return
        rows = self._selected_observations()
        live = [oid for oid, o in rows.items() if not o.forgotten]
        if rows and not live:
            self.info_raised.emit(
                translate("ObservationsPage", "The selected observations are already forgotten")
            )
        if live:
            # The row to go on to is known now: a live refresh may drop these rows from
            # view before the write's outcome is back.
            after = None if self.filters.show_forgotten.isChecked() else self._row_after(live)
            command = ForgetCommand(self, self._store, live)
            command.start(then=lambda: self._after_triage(command.written, after))

    def on_restore(self) -> None:
        if self._still_writing():
            return
        rows = self._selected_observations()
        forgotten = [oid for oid, o in rows.items() if o.forgotten]
        if rows and not forgotten:
            self.info_raised.emit(
                translate("ObservationsPage", "None of the selected observations is forgotten")
            )
        if forgotten:
            RestoreCommand(self, self._store, forgotten).start()

    def _after_triage(self, written: bool, after: int | None) -> None:
        """Rows that leave the view (forgotten while forgotten rows are hidden, unpinned
        under "Pinned only", or deleted):
        once the write is done, ``after``, the row below them when it was asked for, becomes
        current and selected (with the query's next answer, which the write triggered), so
        that a person triaging with the keyboard goes on with the next press."""
        if written:
            self._triage_next = after

    def _row_after(self, ids: Sequence[int]) -> int | None:
        """The first row below the last of ``ids`` that is not one of them, else the nearest
        above the first (None when no row is left)."""
        leaving = set(ids)
        rows = [row for row in (self.model.row_of(oid) for oid in ids) if row >= 0]
        if not rows:
            return None
        count = self.model.rowCount()
        for row in [*range(max(rows) + 1, count), *range(min(rows) - 1, -1, -1)]:
            oid = self.model.id_at(row)
            if oid is not None and oid not in leaving:
                return oid
        return None

    def _go_on_after_triage(self) -> None:
        """Apply :meth:`_after_triage` with the answer that follows the write (once)."""
        target, self._triage_next = self._triage_next, None
        if target is not None and self.model.row_of(target) >= 0:
            self._select_ids([target], target)
            self._scroll_to_id(target)

    def _still_writing(self) -> bool:
        """One write at a time: while one runs, say so instead of starting another."""
        if not self._writes.is_busy():
            return False
        self.info_raised.emit(self._busy_message())
        return True

    def _busy_message(self) -> str:
        running = self._writes.running or translate("ObservationsPage", "The previous change")
        if self._writes.is_waiting():
            return translate(
                "ObservationsPage",
                "“{what}” is still waiting for the agent to finish writing; wait for it, or"
                " Cancel it in the banner above, then try again",
            ).format(what=running)
        return translate(
            "ObservationsPage", "“{what}” is still being written; try again in a moment"
        ).format(what=running)

    def _not_saved_yet(self) -> str:
        return translate("ObservationsPage", "Not saved yet: {reason}").format(
            reason=self._busy_message()
        )

    def on_edit(self) -> None:
        if self.detail.start_edit():
            self._update_actions()

    def on_agent_search(self) -> None:
        """Show what the agent would find for the search box's text, from the chat's project."""
        if self._store is None:
            return
        if self.agent_search is None:
            from memory_desk.ui.observations.agent_search import AgentSearchDialog  # when asked

            self.agent_search = AgentSearchDialog(self)
            self.agent_search.observation_activated.connect(self.show_observation_id)
        self.agent_search.set_store(
            self._store, self._projects, self._chat_project(), text=self.filters.text()
        )
        self.agent_search.show()
        self.agent_search.raise_()
        self.agent_search.activateWindow()

    def _chat_project(self) -> str | None:
        """The project a chat would search from: the filtered one, else the current row's."""
        chosen = self.filters.project_name()
        if chosen is not None:
            return chosen
        shown = self.detail.shown
        return shown.project if shown is not None else None

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

    def show_saved_on(self, day: date) -> None:
        """Show only the observations saved (created) on ``day``, a ``datetime.date`` in
        local time, as the Overview's chart counts them; forgotten ones too (the chart counts
        every save), and no other filter, so the table holds exactly the day's bar."""
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
            self._select_ids([observation_id], observation_id)
            self._scroll_to_id(observation_id)
            return
        self._pending_select = observation_id
        self.filters.clear()
        self._run_query(reset=True)
        self.info_raised.emit(
            translate("ObservationsPage", "Cleared the search and filters to show #{id}").format(
                id=observation_id
            )
        )

    def on_delete(self) -> None:
        """Delete for good after a confirmation; not undoable, and the question says so."""
        ids = self.selected_ids()
        if not ids or self._store is None:
            return
        if not confirm_delete(self, len(ids)) or self._still_writing():
            return
        store, after = self._store, self._row_after(ids)
        what = i18n.plural(
            len(ids),
            translate("ObservationsPage", "Delete {n} observation permanently"),
            translate("ObservationsPage", "Delete {n} observations permanently"),
        )
        self.run_write(
            what,
            lambda: store.delete(ids),
            lambda outcome: self._after_delete(store, ids, after, outcome),
        )

    def _after_delete(
        self, store: ObservationStore, ids: list[int], after: int | None, outcome: Outcome
    ) -> None:
        if outcome.ok:
            self._after_triage(store is self._store, after)
            deleted = i18n.plural(
                int(outcome.value),
                translate("ObservationsPage", "Deleted {n} observation permanently"),
                translate("ObservationsPage", "Deleted {n} observations permanently"),
            )
            self.after_write(store, ids, deleted)
        elif isinstance(outcome.error, WriteCancelled):
            self.after_write(
                store,
                ids,
                translate("ObservationsPage", "You cancelled the delete: nothing was deleted"),
            )
        elif isinstance(outcome.error, StoreError):
            self.report_error(i18n.shown(outcome.error))
            self.after_write(store, ids, "")
        elif outcome.error is not None:
            raise outcome.error

    def _selected_observations(self) -> dict[int, Observation]:
        """The selected rows as they are in the database now (one query, no content)."""
        ids = self.selected_ids()
        if not ids or self._store is None:
            return {}
        found = rows_now(self._store, ids, self.model.cached, self.report_error)
        return {oid: found[oid] for oid in ids if oid in found}

    def _on_save_requested(self, seen: Observation, changes: dict[str, str], restore: bool) -> None:
        """Save the form in the background; the form stays open until the write is done."""
        if self._store is None:
            return
        if self._writes.is_busy():
            self.detail.show_edit_error(self._not_saved_yet())
            return
        self._last_error = self._save_conflict = self._cancelled = None
        command = EditCommand(self, self._store, seen, changes, restore=restore)
        command.start(then=lambda: self._after_save(seen.id))

    def _after_save(self, observation_id: int) -> None:
        """The save's outcome, back on the main thread: close the form, or say what stopped it
        (on the form when it is still open on that row, else in the message bar)."""
        retried, self._retrying_save = self._retrying_save, False
        problem = self._last_error or self._cancelled
        if self.detail.editing_id != observation_id:
            if self._save_conflict is not None:
                self.error_raised.emit(self._save_conflict)
            return
        if self._save_conflict is not None:
            self._on_save_conflict(self._save_conflict, retried=retried)
        elif problem is not None:
            self.detail.show_edit_error(problem)
        else:
            self.detail.finish_edit()

    def _on_recreate_requested(self, deleted: Observation, values: dict[str, str]) -> None:
        """The agent deleted the row being edited and the person kept their text: save it as
        a new observation (undoable), and show that one."""
        if self._store is None:
            return
        if self._writes.is_busy():
            self.detail.show_edit_error(self._not_saved_yet())
            return
        self._last_error = self._cancelled = None
        command = RecreateCommand(self, self._store, deleted, values)
        command.start(then=lambda: self._after_recreate(deleted.id, command))

    def _after_recreate(self, deleted_id: int, command: RecreateCommand) -> None:
        problem = self._last_error or self._cancelled
        if problem is not None:
            if self.detail.editing_id == deleted_id:
                self.detail.show_edit_error(problem)
            return
        if self.detail.editing_id == deleted_id:
            self.detail.finish_edit()
        self._pending_select = command.created_id
        self.refresh()

    def _on_save_conflict(self, message: str, *, retried: bool) -> None:
        """The store refused the save because the row changed since the form's base: show
        the banner. When only a pin, a read or a duplicate changed it, the edit still
        applies to the new base: save once more (once: the banner takes over after that)."""
        self._follow_edited_row()
        if self.detail.conflict is not None or not self.detail.is_editing:
            return
        if retried:
            self.detail.show_edit_error(message)
            return
        self._retrying_save = True
        self.detail.on_save_clicked()
        if not self._writes.is_busy():
            self._retrying_save = False  # nothing was left to save

    def _on_edit_finished(self) -> None:
        """The form closed: when it had the focus (now on a hidden widget, or none), the
        table takes it back, where F2 opened the form."""
        focus = QApplication.focusWidget()
        lost = focus is None or not focus.isVisible() or self.detail.isAncestorOf(focus)
        self._show_current()
        self._update_actions()
        if lost and self.isVisible():
            self.table.setFocus()

    # -- what commands call (WriteHost) ---------------------------------------------------------

    def run_write(
        self, what: str, step: Callable[[], object], done: Callable[[Outcome], None]
    ) -> bool:
        """Run ``step`` (store writes) in the background, one at a time; ``done(outcome)``
        follows on this thread. False when another write is still running."""
        return self._writes.run(what, step, done)

    def push(self, command: QUndoCommand) -> None:
        """A command whose first write is done goes on the undo stack (redo() skips)."""
        self._undo_stack.push(command)

    def drop_from_stack(self, command: QUndoCommand, *, undone: bool) -> None:
        """An undo (``undone``) or redo of ``command`` failed: the stack, which has already
        moved past it, forgets it, as it does a command made obsolete during a step."""
        if not shiboken6.isValid(command):
            return  # the stack has already let it go (a newer command cleared the redo side)
        stack = self._undo_stack
        index = stack.index()
        command.setObsolete(True)
        if undone and index < stack.count() and stack.command(index) is command:
            stack.redo()  # an obsolete command is removed without being run
        elif not undone and index > 0 and stack.command(index - 1) is command:
            stack.undo()

    def after_write(self, store: ObservationStore, ids: Sequence[int], message: str) -> None:
        """Show a write at once in the cached rows, then re-run the query for the rest."""
        if store is self._store:
            self.model.reload(ids)
            self._rebase_edited_row(ids)
            self._show_current()
            self._update_actions()
            self.refresh()
        if message:
            self.info_raised.emit(message)

    def _rebase_edited_row(self, ids: Sequence[int]) -> None:
        """The app itself pinned, forgot or restored the row being edited: not a conflict."""
        edited = self.detail.editing_id
        if edited is None or edited not in ids or self._store is None:
            return
        try:
            fresh = self._store.get(edited)
        except StoreError:
            return  # the refresh that follows reports it
        if fresh is not None:
            self.detail.rebase(fresh)

    def undo_keys(self) -> str:
        """How the person undoes from where they are now, for messages that say so: Ctrl+Z
        reaches the undo stack unless the focused field has its own text to undo."""
        if has_own_undo(QApplication.focusWidget()):
            return translate("ObservationsPage", "Edit ▸ Undo")
        return QKeySequence(QKeySequence.StandardKey.Undo).toString(
            QKeySequence.SequenceFormat.NativeText
        )

    def report_error(self, message: str) -> None:
        self._last_error = message
        self.error_raised.emit(message)

    def report_conflict(self, observation_id: int, message: str) -> None:
        """An edit was refused because another program changed the row: the banner says so."""
        self._save_conflict = message

    def report_cancelled(self, message: str) -> None:
        """The person cancelled a topic question; the command has already said so."""
        self._cancelled = message

    def choose_topic(
        self, store: ObservationStore, conflict: TopicConflict, action: TopicAction
    ) -> str | None:
        """Ask which row keeps the topic (a modal question naming the rows by their titles).

        Called by a write on the worker thread: the question is asked on this one, and the
        write waits for the answer (None, "cancel", when the page closes meanwhile)."""
        return self._writes.ask(lambda: ask_topic_choice(store, conflict, action, self))

    def restore_stack_position(self, command: QUndoCommand, *, undone: bool) -> None:
        """An undo (``undone``) or redo of ``command`` was cancelled and wrote nothing, but the
        stack already moved past it: step it back once the stack is done, so Ctrl+Z (or redo)
        offers the same step again. The command skips that step."""
        step_back_later(self._undo_stack, command, undone=undone, context=self)

    def select_id(self, observation_id: int) -> None:
        """The Page contract's selection by id (:meth:`show_observation_id`)."""
        self.show_observation_id(observation_id)
