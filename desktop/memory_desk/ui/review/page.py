"""The "Since you last looked" page: what the agents changed, newest first, and what to do.

Above, the list of changes (``reviewList``); below, the selected change's old and new
versions side by side (``reviewDiff``). The actions act on the selected rows: mark reviewed
(Space, several at once) or all, edit (opens the observation or entry in its own page), pin
and forget (observations, through the observations page's own undoable commands), and roll
back: the previous text goes back through the same safe writes as an edit, undoable with
Ctrl+Z on this page. A rollback is the person's write, so it is never listed as a change;
it marks the change reviewed. Every action says in the message bar what it did, or why not.

The page reads nothing itself: the window's :class:`~.runner.JournalRunner` scans and lists
off the main thread and hands over a :class:`~.runner.ReviewSnapshot` (``show_snapshot``).
Marking reviewed is one small write to the journal, done at once.

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
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoStack
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

from memory_desk.core import StoreError
from memory_desk.core.journal import Change, ChangeKind, JournalLimits
from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import PersonaFolder
from memory_desk.ui import i18n, theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.commands import (
    EditCommand,
    ForgetCommand,
    PinCommand,
    RestoreCommand,
)
from memory_desk.ui.review.diff_view import ReviewDiff
from memory_desk.ui.review.history import HistorySettings
from memory_desk.ui.review.model import AGENT, CHAT, STORE, TITLE, WHAT, WHEN, ReviewListModel
from memory_desk.ui.review.runner import JournalRunner, ReviewSnapshot
from memory_desk.ui.review.writes import (
    PersonaRollbackCommand,
    ReviewWriteHost,
    changed_again,
    observation_matches,
)

StoreResolver = Callable[[Change], object | None]  # the open store a change belongs to
_GONE = (ChangeKind.DELETED, ChangeKind.REMOVED)
_ROLLBACK = (ChangeKind.REVISED, ChangeKind.FORGOTTEN, ChangeKind.CHANGED, ChangeKind.REMOVED)


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
        store_label: Callable[[str], str],
        limits: JournalLimits,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("reviewPage")
        self.undo_stack = undo_stack
        self._runner = runner
        self._resolve = resolve_store
        self._snapshot: ReviewSnapshot | None = None
        self._problem: str | None = None
        self._host = ReviewWriteHost(
            observations_page, undo_stack, self._say, self._runner.refresh_list
        )
        self.model = ReviewListModel(store_label, self)
        self.list = self._build_list()
        self.diff = ReviewDiff(self)
        self.history = HistorySettings(limits, self)
        self.show_reviewed = QCheckBox(translate("ReviewPage", "Show &reviewed"), self)
        self.show_reviewed.setObjectName("reviewShowReviewed")
        self.show_reviewed.setToolTip(
            translate("ReviewPage", "List the changes already marked reviewed too")
        )
        self.empty = QLabel(translate("ReviewPage", "Nothing changed since you last looked"), self)
        self.empty.setObjectName("reviewEmpty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.problem = QLabel(self)
        self.problem.setObjectName("reviewProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        theme.set_tone(self.problem, "error")
        self.problem.hide()
        self._build_actions()
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
        self._update_actions()

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
        for column, chars in ((WHEN, 12), (WHAT, 14), (STORE, 18), (CHAT, 14), (AGENT, 22)):
            view.setColumnWidth(column, metrics.averageCharWidth() * chars)
        return view

    def _build_actions(self) -> None:
        """The page's actions: they work only while the page is in front (``set_current``)."""
        self.page_actions = QActionGroup(self)
        self.page_actions.setExclusionPolicy(QActionGroup.ExclusionPolicy.None_)
        self.mark_action = self._action(
            "reviewMarkReviewedAction",
            translate("ReviewPage", "Mark reviewed"),
            "Space",
            translate("ReviewPage", "Mark the selected changes reviewed"),
            self.on_mark_reviewed,
            on_list=True,
        )
        self.mark_all_action = self._action(
            "reviewMarkAllReviewedAction",
            translate("ReviewPage", "Mark all reviewed"),
            "Ctrl+Shift+M",
            translate("ReviewPage", "Mark every listed change reviewed"),
            self.on_mark_all_reviewed,
        )
        self.edit_action = self._action(
            "reviewEditAction",
            translate("ReviewPage", "Edit"),
            "F2",
            translate("ReviewPage", "Open the observation or entry in its own page to edit it"),
            self.on_edit,
        )
        self.pin_action = self._action(
            "reviewPinAction",
            translate("ReviewPage", "Pin"),
            "Ctrl+P",
            translate("ReviewPage", "Pin or unpin the selected observations"),
            self.on_pin,
        )
        self.forget_action = self._action(
            "reviewForgetAction",
            translate("ReviewPage", "Forget"),
            QKeySequence.StandardKey.Delete,
            translate("ReviewPage", "Forget the selected observations (undo brings them back)"),
            self.on_forget,
        )
        self.rollback_action = self._action(
            "reviewRollbackAction",
            translate("ReviewPage", "Roll back"),
            "Ctrl+Shift+B",
            translate("ReviewPage", "Put the previous version back (Ctrl+Z puts the agent's back)"),
            self.on_rollback,
        )

    def _action(
        self, name: str, text: str, keys, tip: str, slot, *, on_list: bool = False
    ) -> QAction:
        action = QAction(text, self)
        action.setObjectName(name)
        sequence = QKeySequence(keys)
        action.setShortcut(sequence)
        # Space belongs to the list (a checkbox or a spin box keeps its own); the others work
        # anywhere on the page.
        action.setShortcutContext(
            Qt.ShortcutContext.WidgetShortcut
            if on_list
            else Qt.ShortcutContext.WidgetWithChildrenShortcut
        )
        native = sequence.toString(QKeySequence.SequenceFormat.NativeText)
        action.setToolTip(f"{tip} ({native})")
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        self.list.addAction(action)
        if not on_list:
            self.addAction(action)
        self.page_actions.addAction(action)
        return action

    def _build_layout(self) -> None:
        buttons = QHBoxLayout()
        for action, name in (
            (self.mark_action, "reviewMarkReviewedButton"),
            (self.mark_all_action, "reviewMarkAllReviewedButton"),
            (self.edit_action, "reviewEditButton"),
            (self.pin_action, "reviewPinButton"),
            (self.forget_action, "reviewForgetButton"),
            (self.rollback_action, "reviewRollbackButton"),
        ):
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
        bottom = QWidget(self)
        bottom_layout = QHBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.diff, 1)
        bottom_layout.addWidget(self.history, 0, Qt.AlignmentFlag.AlignTop)
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
        layout.addLayout(buttons)
        layout.addWidget(splitter, 1)

    # -- the page contract ----------------------------------------------------------------------

    def set_current(self, current: bool) -> None:
        """Only the page in front acts on its keys."""
        self.page_actions.setEnabled(current)
        if current:
            self._update_actions()

    def shutdown(self) -> None:
        self.diff.stop()

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
        self._problem = None
        self.problem.hide()
        if snapshot.include_reviewed != self.show_reviewed.isChecked():
            return  # an answer to the other question: the next one is on its way
        self._show_changes(snapshot.changes)
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
        self._problem = message
        self.problem.setText(
            translate(
                "ReviewPage",
                "The history of changes could not be read: {problem} Clear history (below) starts a new one.",
            ).format(problem=message)
        )
        self.problem.show()

    def set_limits(self, limits: JournalLimits) -> None:
        self.history.set_limits(limits)

    # -- the list -------------------------------------------------------------------------------

    def _show_changes(self, changes: list[Change]) -> None:
        current = self._current_change()
        selected = {c.id for c in self.selected_changes()}
        row = self.list.currentIndex().row()
        self.model.set_changes(changes)
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
        if empty and self.show_reviewed.isChecked():
            self.empty.setText(translate("ReviewPage", "No change is recorded yet"))
        elif empty:
            self.empty.setText(translate("ReviewPage", "Nothing changed since you last looked"))

    def selected_changes(self) -> list[Change]:
        rows = sorted({index.row() for index in self.list.selectionModel().selectedRows()})
        return [c for c in (self.model.change_at(r) for r in rows) if c is not None]

    def _current_change(self) -> Change | None:
        index = self.list.currentIndex()
        return self.model.change_at(index.row()) if index.isValid() else None

    def select_change(self, change_id: int) -> bool:
        """Make this change current and selected (False: it is not listed)."""
        row = self.model.row_of(change_id)
        if row < 0:
            return False
        self.list.selectionModel().setCurrentIndex(
            self.model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        return True

    def _on_selection_changed(self, *_args: object) -> None:
        current = self._current_change()
        if current is None:
            selected = self.selected_changes()
            current = selected[0] if selected else None
        if current is not self.diff.change:
            self.diff.show_change(current)
        self._update_actions()

    def _on_show_reviewed(self, shown: bool) -> None:
        self._runner.include_reviewed = shown
        self._runner.refresh_list()

    def _update_actions(self) -> None:
        selected = self.selected_changes()
        current = self._current_change()
        observations = [
            c for c in selected if c.store_kind == "observations" and c.kind not in _GONE
        ]
        self.mark_action.setEnabled(any(not c.reviewed for c in selected))
        self.mark_all_action.setEnabled(any(not c.reviewed for c in self.model.changes()))
        self.edit_action.setEnabled(current is not None and current.kind not in _GONE)
        self.pin_action.setEnabled(bool(observations))
        self.forget_action.setEnabled(any(c.kind != ChangeKind.FORGOTTEN for c in observations))
        self.rollback_action.setEnabled(
            current is not None and current.kind in _ROLLBACK and current.old is not None
        )

    # -- keys -----------------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """Return in the list reads the change; Esc in a version goes back to the list."""
        if event.type() == QEvent.Type.KeyPress:
            key = event.key()
            if watched is self.list and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if self._current_change() is not None:
                    view = (
                        self.diff.new_view if self.diff.new_view.isVisible() else self.diff.old_view
                    )
                    view.setFocus()
                return True
            if watched in (self.diff.old_view, self.diff.new_view) and key == Qt.Key.Key_Escape:
                self.list.setFocus()
                return True
        return super().eventFilter(watched, event)

    # -- actions --------------------------------------------------------------------------------

    def _say(self, kind: str, text: str) -> None:
        (self.error_raised if kind == "error" else self.info_raised).emit(text)

    def _mark(self, changes: list[Change]) -> bool:
        journal = self._runner.journal
        if journal is None:
            self.error_raised.emit(self._no_journal())
            return False
        try:
            journal.mark_reviewed([c.id for c in changes])
        except StoreError as exc:
            self.error_raised.emit(i18n.shown(exc))
            return False
        self._show_marked({c.id for c in changes})
        self._runner.refresh_list()
        return True

    def _show_marked(self, ids: set[int]) -> None:
        """Show the marks at once (the journal's own answer follows)."""
        if self.show_reviewed.isChecked():
            kept = [
                dataclasses.replace(c, reviewed=True) if c.id in ids else c
                for c in self.model.changes()
            ]
        else:
            kept = [c for c in self.model.changes() if c.id not in ids]
        self._show_changes(kept)

    def _no_journal(self) -> str:
        return self._problem or translate(
            "ReviewPage",
            "The history of changes is not open; Clear history (below) starts a new one.",
        )

    def on_mark_reviewed(self) -> None:
        waiting = [c for c in self.selected_changes() if not c.reviewed]
        if not waiting:
            self.info_raised.emit(translate("ReviewPage", "Select the changes to mark reviewed"))
            return
        if self._mark(waiting):
            self.info_raised.emit(
                i18n.plural(
                    len(waiting),
                    translate("ReviewPage", "Marked {n} change reviewed"),
                    translate("ReviewPage", "Marked {n} changes reviewed"),
                )
            )

    def on_mark_all_reviewed(self) -> None:
        journal = self._runner.journal
        if journal is None:
            self.error_raised.emit(self._no_journal())
            return
        waiting = [c for c in self.model.changes() if not c.reviewed]
        try:
            journal.mark_all_reviewed()
        except StoreError as exc:
            self.error_raised.emit(i18n.shown(exc))
            return
        self._show_marked({c.id for c in waiting})
        self._runner.refresh_list()
        self.info_raised.emit(translate("ReviewPage", "Every change is marked reviewed"))

    def on_edit(self) -> None:
        change = self._current_change()
        if change is None:
            return
        if change.kind in _GONE:
            self.info_raised.emit(
                translate(
                    "ReviewPage",
                    "It was deleted: there is nothing to open. Roll back writes it again.",
                )
            )
            return
        self.edit_requested.emit(change)

    def _observation_targets(self) -> tuple[ObservationStore | None, list[int]]:
        """The selected observations' store and ids (one store at a time), with a message
        when there are none."""
        changes = [
            c
            for c in self.selected_changes()
            if c.store_kind == "observations" and c.kind not in _GONE
        ]
        if not changes:
            self.info_raised.emit(
                translate("ReviewPage", "Select observations that are still there")
            )
            return None, []
        store = self._resolve(changes[0])
        if not isinstance(store, ObservationStore):
            self.error_raised.emit(self._store_closed(changes[0]))
            return None, []
        ids = [int(c.target) for c in changes if c.store == changes[0].store]
        return store, list(dict.fromkeys(ids))

    @staticmethod
    def _store_closed(change: Change) -> str:
        return translate(
            "ReviewPage", "{store} is not open any more; open it to act on this change."
        ).format(store=change.store)

    def on_pin(self) -> None:
        store, ids = self._observation_targets()
        if store is None or self._still_writing():
            return
        try:
            rows = store.get_many(ids)
        except StoreError as exc:
            self.error_raised.emit(i18n.shown(exc))
            return
        if not rows:
            self.info_raised.emit(
                translate("ReviewPage", "These observations are no longer in the database")
            )
            return
        pinned = not all(o.pinned for o in rows.values())
        PinCommand(self._host, store, list(rows), pinned).start()

    def on_forget(self) -> None:
        store, ids = self._observation_targets()
        if store is None or self._still_writing():
            return
        try:
            rows = store.get_many(ids)
        except StoreError as exc:
            self.error_raised.emit(i18n.shown(exc))
            return
        live = [oid for oid, o in rows.items() if not o.forgotten]
        if not live:
            self.info_raised.emit(
                translate("ReviewPage", "The selected observations are already forgotten")
            )
            return
        ForgetCommand(self._host, store, live).start()

    def _still_writing(self) -> bool:
        page = self._host._page
        if page.is_writing():
            self.info_raised.emit(
                translate(
                    "ReviewPage", "An earlier change is still being written; try again in a moment"
                )
            )
            return True
        return False

    def on_rollback(self) -> None:
        change = self._current_change()
        if change is None:
            return
        if change.kind not in _ROLLBACK or change.old is None:
            self.info_raised.emit(self._why_no_rollback(change))
            return
        store = self._resolve(change)
        if isinstance(store, PersonaFolder):
            self._roll_back_entry(store, change)
        elif isinstance(store, ObservationStore):
            self._roll_back_observation(store, change)
        else:
            self.error_raised.emit(self._store_closed(change))

    @staticmethod
    def _why_no_rollback(change: Change) -> str:
        if change.kind == ChangeKind.NEW:
            return translate(
                "ReviewPage",
                "It is new: there is no earlier version to go back to (Forget removes it).",
            )
        if change.kind == ChangeKind.DELETED:
            return translate(
                "ReviewPage",
                "Memory Desk cannot write a deleted observation back; its last text is shown on the left to copy.",
            )
        return translate(
            "ReviewPage", "Memory Desk did not keep the earlier version, so it cannot put it back."
        )

    def _roll_back_observation(self, store: ObservationStore, change: Change) -> None:
        if self._still_writing():
            return
        oid = int(change.target)
        try:
            current = store.get(oid)
        except StoreError as exc:
            self.error_raised.emit(i18n.shown(exc))
            return
        if current is None:
            self.error_raised.emit(
                translate("ReviewPage", "Observation #{id} is no longer in the database").format(
                    id=oid
                )
            )
            return
        if change.kind == ChangeKind.FORGOTTEN:
            if not current.forgotten:
                self.info_raised.emit(
                    translate("ReviewPage", "Observation #{id} is not forgotten any more").format(
                        id=oid
                    )
                )
                return
            command = RestoreCommand(self._host, store, [oid])
        else:
            if not observation_matches(current, change.new):
                self.error_raised.emit(changed_again(f"#{oid}"))
                return
            old = change.old
            command = EditCommand(
                self._host, store, current, {"title": old.title, "content": old.body}
            )
        command.start(then=lambda: self._after_rollback(change, command.written))

    def _roll_back_entry(self, folder: PersonaFolder, change: Change) -> None:
        command = PersonaRollbackCommand(
            folder, change, self._on_entry_written, self.error_raised.emit
        )
        self.undo_stack.push(command)
        self._after_rollback(change, command.ok)

    def _on_entry_written(self, folder: PersonaFolder, name: str) -> None:
        self.persona_written.emit(str(folder.path / f"{name}.md"))
        self._runner.refresh_list()

    def _after_rollback(self, change: Change, written: bool) -> None:
        if not written:
            return
        self._mark([change])
        what = f"#{change.target}" if change.store_kind == "observations" else change.target
        self.info_raised.emit(
            translate(
                "ReviewPage",
                "Rolled back {what} to its previous version; {keys} puts the agent's back",
            ).format(what=what, keys=self._undo_keys())
        )

    @staticmethod
    def _undo_keys() -> str:
        return QKeySequence(QKeySequence.StandardKey.Undo).toString(
            QKeySequence.SequenceFormat.NativeText
        )
