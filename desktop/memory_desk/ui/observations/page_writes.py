"""The observations page's writes: pin, forget, restore, delete and the edit form's save,
with their undo.

Writes go through undo commands (:mod:`memory_desk.ui.workers.commands`) that call the store
on a thread of their own (:mod:`memory_desk.ui.workers.write_runner`: one write at a time;
while the agent holds the write lock a banner says so and offers Cancel), then re-run the
page's query, which applies only the difference. :class:`PageWrites` is the commands' host
(their ``WriteHost``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import shiboken6
from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QWidget

from memory_desk.core import StoreError, TopicConflict
from memory_desk.core.observations import Observation, ObservationStore, WriteCancelled
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.busy import rows_now
from memory_desk.ui.undo_focus import has_own_undo
from memory_desk.ui.widgets.topic import TopicAction, ask_topic_choice
from memory_desk.ui.workers.commands import (
    EditCommand,
    ForgetCommand,
    PinCommand,
    RecreateCommand,
    RestoreCommand,
    step_back_later,
)
from memory_desk.ui.workers.write_runner import Outcome, WriteRunner


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


# After a triage forget, how often (and how many times) the selection is looked at again.
MOVE_ON_CHECK_MS = 50
MOVE_ON_CHECKS = 40


@dataclass
class Reports:
    """What the commands reported while the form's save (or re-creation) was written: its
    outcome reads them; each save starts with none."""

    error: str | None = None
    conflict: str | None = None  # the row changed since the form's base
    cancelled: str | None = None  # the person cancelled a topic question

    def problem(self) -> str | None:
        return self.error or self.cancelled


class PageWrites(QObject):
    """The page's write actions and the host of their commands (one write at a time)."""

    def __init__(self, page, undo_stack: QUndoStack) -> None:  # page: its ObservationsPage
        super().__init__(page)
        self._page = page
        self._undo_stack = undo_stack
        self.runner = WriteRunner(page)
        self._reports = Reports()
        self._retrying_save = False  # the save running is the form's automatic second try
        # Delete pressed again while a forget that moves on to the next row is written: each
        # press forgets the row the selection comes to, in turn (a person triaging).
        self._forgets_queued = 0
        self._moving_on: set[int] = set()  # the rows a triage forget takes, till the next is on
        self._move_on_checks = 0
        page.refreshed.connect(self._on_refreshed)

    # -- the row actions ------------------------------------------------------------------------

    def pin(self) -> None:
        """Pin the selection, or unpin it when every selected row is already pinned."""
        if self._still_writing():
            return
        rows = self._selected_observations()
        if not rows:
            return
        page = self._page
        pinned = not all(o.pinned for o in rows.values())
        leaving = not pinned and page.filters.pinned_only.isChecked()
        after = page.selection.row_after(list(rows)) if leaving else None
        command = PinCommand(self, page.store, list(rows), pinned)
        command.start(then=lambda: self._after_triage(command.written, after))

    def forget(self) -> None:
        self._check_moved_on()
        if self._moving_on:  # (the next press is for the row the selection comes to)
            self._forgets_queued += 1
            return
        if self._still_writing():
            return
        page = self._page
        rows = self._selected_observations()
        live = [oid for oid, o in rows.items() if not o.forgotten]
        if rows and not live:
            page.info_raised.emit(
                translate("ObservationsPage", "The selected observations are already forgotten")
            )
        if live:
            # The row to go on to is known now: a live refresh may drop these rows from
            # view before the write's outcome is back.
            hidden = not page.filters.show_forgotten.isChecked()
            after = page.selection.row_after(live) if hidden else None
            command = ForgetCommand(self, page.store, live)
            started = command.start(then=lambda: self._after_triage(command.written, after))
            self._moving_on = set(live) if started and after is not None else set()

    def restore(self) -> None:
        if self._still_writing():
            return
        rows = self._selected_observations()
        forgotten = [oid for oid, o in rows.items() if o.forgotten]
        if rows and not forgotten:
            self._page.info_raised.emit(
                translate("ObservationsPage", "None of the selected observations is forgotten")
            )
        if forgotten:
            RestoreCommand(self, self._page.store, forgotten).start()

    def delete(self) -> None:
        """Delete for good after a confirmation; not undoable, and the question says so."""
        page = self._page
        ids = page.selection.ids()
        if not ids or page.store is None:
            return
        if not confirm_delete(page, len(ids)) or self._still_writing():
            return
        store, after = page.store, page.selection.row_after(ids)
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
            self._after_triage(store is self._page.store, after)
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

    def _after_triage(self, written: bool, after: int | None) -> None:
        """Rows that leave the view (forgotten while forgotten rows are hidden, unpinned
        under "Pinned only", or deleted): once the write is done, ``after``, the row below
        them when it was asked for, becomes current with the query's next answer, so that a
        person triaging with the keyboard goes on with the next press."""
        if written:
            self._page.selection.go_on_after_write(after)
        elif self._moving_on:
            self._moving_on, self._forgets_queued = set(), 0  # (nothing written: said why)

    def _check_moved_on(self) -> bool:
        """Whether the selection has left the rows of the last triage forget (which then
        no longer holds the next press back)."""
        if not self._moving_on or self.runner.is_busy():
            return False
        if self._moving_on & set(self._page.selection.ids()):
            return False
        self._moving_on = set()
        return True

    def _on_refreshed(self) -> None:
        """The rows are shown again after a triage forget: once the selection is on the next
        row, a Delete pressed meanwhile acts there (looked at again shortly if the answer
        came before the selection moved)."""
        if self._moving_on and not self.runner.is_busy() and not self._check_moved_on():
            self._move_on_checks += 1
            if self._move_on_checks <= MOVE_ON_CHECKS:
                QTimer.singleShot(MOVE_ON_CHECK_MS, self, self._on_refreshed)
            else:  # (the selection stayed: the presses waiting have nowhere to go)
                self._moving_on, self._forgets_queued = set(), 0
            return
        self._move_on_checks = 0
        if self._forgets_queued and not self._moving_on and not self.runner.is_busy():
            self._forgets_queued -= 1
            queued, self._forgets_queued = self._forgets_queued, 0
            self.forget()
            self._forgets_queued += queued

    def _selected_observations(self) -> dict[int, Observation]:
        """The selected rows as they are in the database now (one query, no content)."""
        page = self._page
        ids = page.selection.ids()
        if not ids or page.store is None:
            return {}
        found = rows_now(page.store, ids, page.model.cached, self.report_error)
        return {oid: found[oid] for oid in ids if oid in found}

    def _still_writing(self) -> bool:
        """One write at a time: while one runs, say so instead of starting another."""
        if not self.runner.is_busy():
            return False
        self._page.info_raised.emit(self._busy_message())
        return True

    def _busy_message(self) -> str:
        running = self.runner.running or translate("ObservationsPage", "The previous change")
        if self.runner.is_waiting():
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

    # -- the edit form --------------------------------------------------------------------------

    def on_save_requested(self, seen: Observation, changes: dict[str, str], restore: bool) -> None:
        """Save the form in the background; the form stays open until the write is done."""
        page = self._page
        if page.store is None:
            return
        if self.runner.is_busy():
            page.detail.show_edit_error(self._not_saved_yet())
            return
        self._reports = Reports()
        command = EditCommand(self, page.store, seen, changes, restore=restore)
        command.start(then=lambda: self._after_save(seen.id))

    def _after_save(self, observation_id: int) -> None:
        """The save's outcome, back on the main thread: close the form, or say what stopped it
        (on the form when it is still open on that row, else in the message bar)."""
        retried, self._retrying_save = self._retrying_save, False
        detail, reports = self._page.detail, self._reports
        if detail.editing_id != observation_id:
            if reports.conflict is not None:
                self._page.error_raised.emit(reports.conflict)
            return
        if reports.conflict is not None:
            self._on_save_conflict(reports.conflict, retried=retried)
        elif reports.problem() is not None:
            detail.show_edit_error(reports.problem())
        else:
            detail.finish_edit()

    def on_recreate_requested(self, deleted: Observation, values: dict[str, str]) -> None:
        """The agent deleted the row being edited and the person kept their text: save it as
        a new observation (undoable), and show that one."""
        page = self._page
        if page.store is None:
            return
        if self.runner.is_busy():
            page.detail.show_edit_error(self._not_saved_yet())
            return
        self._reports = Reports()
        command = RecreateCommand(self, page.store, deleted, values)
        command.start(then=lambda: self._after_recreate(deleted.id, command))

    def _after_recreate(self, deleted_id: int, command: RecreateCommand) -> None:
        detail, problem = self._page.detail, self._reports.problem()
        if problem is not None:
            if detail.editing_id == deleted_id:
                detail.show_edit_error(problem)
            return
        if detail.editing_id == deleted_id:
            detail.finish_edit()
        self._page.selection.want(command.created_id)
        self._page.refresh()

    def _on_save_conflict(self, message: str, *, retried: bool) -> None:
        """The store refused the save because the row changed since the form's base: show
        the banner. When only a pin, a read or a duplicate changed it, the edit still
        applies to the new base: save once more (once: the banner takes over after that)."""
        detail = self._page.detail
        self._page.reading.follow_edited_row()
        if detail.conflict is not None or not detail.is_editing:
            return
        if retried:
            detail.show_edit_error(message)
            return
        self._retrying_save = True
        detail.on_save_clicked()
        if not self.runner.is_busy():
            self._retrying_save = False  # nothing was left to save

    # -- what commands call (WriteHost) ---------------------------------------------------------

    def run_write(
        self, what: str, step: Callable[[], object], done: Callable[[Outcome], None]
    ) -> bool:
        """Run ``step`` (store writes) in the background, one at a time; ``done(outcome)``
        follows on this thread. False when another write is still running."""
        return self.runner.run(what, step, done)

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
        page = self._page
        if store is page.store:
            page.model.reload(ids)
            self._rebase_edited_row(ids)
            page.reading.show_current()
            page.action_table.update()
            page.refresh()
        if message:
            page.info_raised.emit(message)

    def _rebase_edited_row(self, ids: Sequence[int]) -> None:
        """The app itself pinned, forgot or restored the row being edited: not a conflict."""
        page = self._page
        edited = page.detail.editing_id
        if edited is None or edited not in ids or page.store is None:
            return
        try:
            fresh = page.store.get(edited)
        except StoreError:
            return  # the refresh that follows reports it
        if fresh is not None:
            page.detail.rebase(fresh)

    def undo_keys(self) -> str:
        """How the person undoes from where they are now, for messages that say so: Ctrl+Z
        reaches the undo stack unless the focused field has its own text to undo."""
        if has_own_undo(QApplication.focusWidget()):
            return translate("ObservationsPage", "Edit ▸ Undo")
        return QKeySequence(QKeySequence.StandardKey.Undo).toString(
            QKeySequence.SequenceFormat.NativeText
        )

    def report_error(self, message: str) -> None:
        self._reports.error = message
        self._page.error_raised.emit(message)

    def report_conflict(self, observation_id: int, message: str) -> None:
        """An edit was refused because another program changed the row: the banner says so."""
        self._reports.conflict = message

    def report_cancelled(self, message: str) -> None:
        """The person cancelled a topic question; the command has already said so."""
        self._reports.cancelled = message

    def choose_topic(
        self, store: ObservationStore, conflict: TopicConflict, action: TopicAction
    ) -> str | None:
        """Ask which row keeps the topic (a modal question naming the rows by their titles).

        Called by a write on the worker thread: the question is asked on this one, and the
        write waits for the answer (None, "cancel", when the page closes meanwhile)."""
        return self.runner.ask(lambda: ask_topic_choice(store, conflict, action, self._page))

    def restore_stack_position(self, command: QUndoCommand, *, undone: bool) -> None:
        """An undo (``undone``) or redo of ``command`` was cancelled and wrote nothing, but the
        stack already moved past it: step it back once the stack is done, so Ctrl+Z (or redo)
        offers the same step again. The command skips that step."""
        step_back_later(self._undo_stack, command, undone=undone, context=self._page)
