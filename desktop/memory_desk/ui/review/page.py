"""The "Since you last looked" page: what the agents changed, newest first, and what to do.

Above, the list of changes (``reviewList``); below, the selected change's old and new
versions side by side (``reviewDiff``) and the history's settings. The actions (mark
reviewed, edit, pin, forget, roll back) and the writes behind them are
:class:`~.actions.ReviewActions`; a write from this page that waits for the agent's lock
shows its wait and Cancel here (``reviewWriteWaitBanner``).

The page reads nothing itself: the :class:`~.desk.ReviewDesk`'s runner scans and lists off
the main thread and hands over a :class:`~.runner.ReviewSnapshot` (``show_snapshot``).

Signals:
    status_changed(str): "3 changes to review", for the status bar
    error_raised(str), info_raised(str): messages for the person
    edit_requested(object): open this Change's observation or entry in its page
    persona_written(str): the page wrote this persona file (its echo is not the agent's)
    limits_changed(object): the person changed the history's limits (JournalLimits)
    clear_requested(): the person confirmed clearing the history
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, Signal
from PySide6.QtGui import QActionGroup, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.journal import Change, JournalLimits
from memory_desk.ui import dates, i18n, theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.review.actions import ReviewActions, StoreResolver
from memory_desk.ui.review.diff_view import ReviewDiff
from memory_desk.ui.review.history import HistorySettings
from memory_desk.ui.review.model import AGENT, CHAT, STORE, TITLE, WHAT, WHEN, ReviewListModel
from memory_desk.ui.review.runner import JournalRunner, ReviewSnapshot


class ReviewPage(QWidget):
    """What the agents changed since the person last looked (module docstring).

    Signals:
        status_changed(str), error_raised(str), info_raised(str): for the window
        edit_requested(object): open this change's target in its own page
        persona_written(str): a persona file this page wrote
        limits_changed(object): new JournalLimits
        clear_requested(): clear the history
    """

    status_changed = Signal(str)
    error_raised = Signal(str)
    info_raised = Signal(str)
    edit_requested = Signal(object)
    persona_written = Signal(str)
    limits_changed = Signal(object)
    clear_requested = Signal()

    def __init__(
        self,
        undo_stack: QUndoStack,
        runner: JournalRunner,
        observations_page,
        resolve_store: StoreResolver,
        store_label: Callable[[Change], str],
        limits: JournalLimits,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("reviewPage")
        self.undo_stack = undo_stack
        self._runner = runner
        self._snapshot: ReviewSnapshot | None = None
        self.model = ReviewListModel(store_label, self)
        self.list = self._build_list()
        self.setFocusProxy(self.list)  # the page in front takes the keys at its list
        self.diff = ReviewDiff(self)
        self.history = HistorySettings(limits, self)
        self.show_reviewed = QCheckBox(translate("ReviewPage", "Show &reviewed"), self)
        self.show_reviewed.setObjectName("reviewShowReviewed")
        self.show_reviewed.setToolTip(
            translate("ReviewPage", "List the changes already marked reviewed too")
        )
        self.empty = QLabel(translate("ReviewPage", "Nothing changed since you last looked"), self)
        self.empty.setObjectName("reviewEmpty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom)
        self.empty_state = self._build_empty_state()
        self.problem = QLabel(self)
        self.problem.setObjectName("reviewProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        theme.set_tone(self.problem, "error")
        self.problem.hide()
        self.notice = QLabel(self)  # the history had to start again (the journal's `restarted`)
        self.notice.setObjectName("reviewNotice")
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        theme.set_tone(self.notice, "warning")
        self.notice.hide()
        self.actions = ReviewActions(self, undo_stack, runner, observations_page, resolve_store)
        self._build_layout()
        self.list.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.list.selectionModel().currentRowChanged.connect(self._on_selection_changed)
        self.show_reviewed.toggled.connect(self._on_show_reviewed)
        self.history.limits_changed.connect(self.limits_changed)
        self.history.clear_requested.connect(self.clear_requested)
        self.list.installEventFilter(self)
        for view in (self.diff.old_view, self.diff.new_view):
            view.installEventFilter(self)
        self._show_empty_state()
        self.actions.update()

    # -- building -------------------------------------------------------------------------------

    def _build_list(self) -> QTableView:
        view = QTableView(self)
        view.setObjectName("reviewList")
        view.setModel(self.model)
        view.setAccessibleName(translate("ReviewPage", "Changes since you last looked"))
        view.setAccessibleDescription(
            translate(
                "ReviewPage",
                "One change per row, newest first. Space marks reviewed, Return reads the change, F2 opens it in its page.",
            )
        )
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setTabKeyNavigation(False)
        view.setShowGrid(False)
        view.setWordWrap(False)
        view.setAlternatingRowColors(True)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        view.verticalHeader().hide()
        header = view.horizontalHeader()
        header.setHighlightSections(False)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(TITLE, QHeaderView.ResizeMode.Stretch)
        metrics = view.fontMetrics()
        header_metrics = header.fontMetrics()
        for column, chars in ((WHEN, 12), (WHAT, 14), (STORE, 22), (CHAT, 32), (AGENT, 22)):
            # never narrower than its heading (a translation may be longer than the cells)
            title = str(self.model.headerData(column, Qt.Orientation.Horizontal))
            heading = header_metrics.horizontalAdvance(title) + 3 * metrics.averageCharWidth()
            view.setColumnWidth(column, max(metrics.averageCharWidth() * chars, heading))
        # "When" holds the longest relative wording of this language whole ("hace 28 días").
        day = 86_400_000
        now = 40 * day
        longest = max(
            metrics.horizontalAdvance(dates.relative(now - ago, now))
            for ago in (0, 59 * 60_000, 23 * 3_600_000, day, 28 * day, now)
        )
        view.setColumnWidth(
            WHEN, max(view.columnWidth(WHEN), longest + 3 * metrics.averageCharWidth())
        )
        return view

    def _build_empty_state(self) -> QLabel:
        """What the page is for and when it last looked, while no change waits."""
        label = QLabel(self)
        label.setObjectName("reviewEmptyState")
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        theme.set_text_tone(label, "subdued")
        return label

    def _build_layout(self) -> None:
        buttons = QHBoxLayout()
        for action, name in self.actions.buttons():
            button = QToolButton(self)
            button.setObjectName(name)
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.show_reviewed)
        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.list, 1)
        top_layout.addWidget(self.empty, 1)
        top_layout.addWidget(self.empty_state, 1)
        bottom = QWidget(self)
        bottom_layout = QHBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.diff, 1)
        bottom_layout.addWidget(self.history, 0, Qt.AlignmentFlag.AlignTop)
        # A few rows of the list and of the diff, whatever the window's height.
        top.setMinimumHeight(self.fontMetrics().height() * 8)
        bottom.setMinimumHeight(self.fontMetrics().height() * 8)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setObjectName("reviewSplitter")
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(top)
        splitter.addWidget(bottom)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.problem)
        layout.addWidget(self.notice)
        layout.addWidget(self.actions.banner)
        layout.addLayout(buttons)
        layout.addWidget(splitter, 1)

    # -- the page contract ----------------------------------------------------------------------

    def set_current(self, current: bool) -> None:
        """Only the page in front acts on its keys."""
        self.actions.group.setEnabled(current)
        if current:
            self.actions.update()

    @property
    def page_actions(self) -> QActionGroup:
        """The page's actions, on only while it is in front."""
        return self.actions.group

    def menu_actions(self) -> list:
        """The review's actions live on its buttons and keys: no menu of their own."""
        return []

    def may_close(self) -> bool:
        """Marks and restores are written as they are made: nothing waits to be saved."""
        return True

    def shutdown(self) -> None:
        self.actions.stop()
        self.diff.stop()

    def abandon_writes(self) -> None:
        """A database is about to close: a write from this page waiting for it gives up."""
        self.actions.abandon()

    def key_help(self) -> list[tuple[str, str]]:
        """Keys the list and the diff handle themselves, for Help ▸ Keyboard shortcuts."""
        return [
            (
                translate("ReviewPage", "Up, Down"),
                translate("ReviewPage", "Go to the previous or next change"),
            ),
            (
                translate("ReviewPage", "Return"),
                translate("ReviewPage", "Read the change's versions"),
            ),
            ("Esc", translate("ReviewPage", "Go back to the list (from the versions)")),
        ]

    def show_snapshot(self, snapshot: ReviewSnapshot) -> None:
        """Show the journal's list as just read; the current and selected rows stay."""
        self._snapshot = snapshot
        self.problem.hide()
        if snapshot.include_reviewed != self.show_reviewed.isChecked():
            return  # an answer to the other question: the next one is on its way
        self._show_changes(snapshot.changes, snapshot.chat_prompts)
        self.history.show_size(snapshot.size_bytes)
        count = snapshot.pending_total
        self.status_changed.emit(
            i18n.plural(
                count,
                translate("ReviewPage", "{n} change to review"),
                translate("ReviewPage", "{n} changes to review"),
            )
        )

    def show_problem(self, message: str) -> None:
        """The journal could not be read: say so above the list; the window stays usable."""
        self.problem.setText(
            translate(
                "ReviewPage",
                "The history of changes could not be read: {problem} Clear history (below) starts a new one.",
            ).format(problem=message)
        )
        self.problem.show()

    def hide_problem(self) -> None:
        self.problem.hide()

    def show_notice(self, message: str) -> None:
        """Something the person should know of the history (it had to start again)."""
        self.notice.setText(message)
        self.notice.show()

    def set_limits(self, limits: JournalLimits) -> None:
        self.history.set_limits(limits)

    # -- the list -------------------------------------------------------------------------------

    def _show_changes(
        self, changes: list[Change], chat_prompts: dict[tuple[str, str], str] | None = None
    ) -> None:
        current = self.current_change()
        selected = {c.id for c in self.selected_changes()}
        row = self.list.currentIndex().row()
        self.model.set_changes(changes, chat_prompts)
        self._reselect(selected, current.id if current else None, row)
        self._show_empty_state()
        self._on_selection_changed()

    def _reselect(self, ids: set[int], current: int | None, fallback_row: int) -> None:
        """Select ``ids`` again; when the current row went (reviewed, pruned), the row that
        took its place becomes current, as in a mail client."""
        selection = self.list.selectionModel()
        rows = [r for r in range(self.model.rowCount()) if self.model.change_at(r).id in ids]
        current_row = self.model.row_of(current) if current is not None else -1
        if current_row < 0 and fallback_row >= 0 and self.model.rowCount():
            current_row = min(fallback_row, self.model.rowCount() - 1)
            rows = [current_row]
        if current_row < 0:
            return
        flags = QItemSelectionModel.SelectionFlag.Rows
        selection.setCurrentIndex(
            self.model.index(current_row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect | flags,
        )
        for row in rows:
            selection.select(
                self.model.index(row, 0), QItemSelectionModel.SelectionFlag.Select | flags
            )

    def _show_empty_state(self) -> None:
        empty = self.model.rowCount() == 0
        self.empty.setVisible(empty)
        self.list.setVisible(not empty)
        waiting = self._snapshot is not None and self._snapshot.pending_total > 0
        self.empty_state.setVisible(empty and not waiting)
        if empty and not waiting:
            self.empty_state.setText(self._explanation())
        if empty and self.show_reviewed.isChecked():
            self.empty.setText(translate("ReviewPage", "No change is recorded yet"))
        elif empty:
            self.empty.setText(translate("ReviewPage", "Nothing changed since you last looked"))

    def _explanation(self) -> str:
        """What this page lists, and when the history last looked at the stores."""
        what = translate(
            "ReviewPage",
            "This page lists the changes the agents make to their observations and persona entries since you last looked: you can keep each one (mark it reviewed) or roll it back.",
        )
        looked = self._snapshot.looked_ms if self._snapshot is not None else None
        if looked is None:
            when = translate("ReviewPage", "Memory Desk has not looked at the stores yet.")
        else:
            when = translate(
                "ReviewPage", "Memory Desk last looked at the stores on {when}."
            ).format(when=dates.exact(looked))
        return f"{what}\n\n{when}"

    def selected_changes(self) -> list[Change]:
        rows = sorted({index.row() for index in self.list.selectionModel().selectedRows()})
        return [c for c in (self.model.change_at(r) for r in rows) if c is not None]

    def current_change(self) -> Change | None:
        index = self.list.currentIndex()
        return self.model.change_at(index.row()) if index.isValid() else None

    def _on_selection_changed(self, *_args: object) -> None:
        current = self.current_change()
        if current is None:
            selected = self.selected_changes()
            current = selected[0] if selected else None
        if current is not self.diff.change:
            self.diff.show_change(current)
        self.actions.update()

    def _on_show_reviewed(self, shown: bool) -> None:
        self._runner.include_reviewed = shown
        self._runner.refresh_list()

    # -- keys -----------------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """Return in the list reads the change; Esc in a version goes back to the list."""
        if event.type() == QEvent.Type.KeyPress:
            key = event.key()
            if watched is self.list and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if self.current_change() is not None:
                    view = (
                        self.diff.new_view if self.diff.new_view.isVisible() else self.diff.old_view
                    )
                    view.setFocus()
                return True
            if watched in (self.diff.old_view, self.diff.new_view) and key == Qt.Key.Key_Escape:
                self.list.setFocus()
                return True
        return super().eventFilter(watched, event)

    def show_marked(self, ids: set[int]) -> None:
        """Show the marks at once (the journal's own answer follows)."""
        if self.show_reviewed.isChecked():
            kept = [
                dataclasses.replace(c, reviewed=True) if c.id in ids else c
                for c in self.model.changes()
            ]
        else:
            kept = [c for c in self.model.changes() if c.id not in ids]
        self._show_changes(kept)
