"""What the review page's actions do: mark reviewed, edit, pin, forget, and roll back.

The actions act on the page's selected rows and work only while the page is in front (the
window enables the current page's actions). Marks go to the journal through the runner, off
the main thread, and show at once. Pin, forget and an observation's rollback are the
observations page's own undoable commands (:mod:`.writes`), run on this page's own write
thread: while the agent holds the database's write lock, the wait and its Cancel show here,
on the page the person acted from (``reviewWriteWaitBanner``), and a topic question is asked
over this page. A rollback is the person's write, so it is never listed as a change; it marks
the change reviewed. Every action says in the message bar what it did, or why not.

Rolling back by kind: a revised observation gets its previous title, content, type and
topic key as a new revision; a forgotten one is restored; a hard-deleted one is written again as a new row from
its last version, with its chat, project and scope (the observations page's recreate path,
which asks which row keeps the topic when a live row holds it); a changed persona entry gets
its previous file, a removed one is written again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, Qt, SignalInstance
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoStack
from PySide6.QtWidgets import QAbstractItemView

from memory_desk.core import StoreError
from memory_desk.core.journal import Change, ChangeKind, Version
from memory_desk.core.kinds import StoreKind
from memory_desk.core.observations import Observation, ObservationStore
from memory_desk.core.persona import PersonaFolder
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.pages import make_action
from memory_desk.ui.review.model import ReviewListModel
from memory_desk.ui.review.runner import JournalRunner
from memory_desk.ui.review.writes import (
    PersonaRollbackCommand,
    ReviewWriteHost,
    changed_again,
    deleted_row,
    observation_matches,
)
from memory_desk.ui.widgets.write_banner import WriteWaitBanner
from memory_desk.ui.workers.commands import (
    EditCommand,
    ForgetCommand,
    PinCommand,
    RecreateCommand,
    RestoreCommand,
)
from memory_desk.ui.workers.write_runner import WriteRunner

StoreResolver = Callable[[Change], object | None]  # the open store a change belongs to
GONE = (ChangeKind.DELETED, ChangeKind.REMOVED)
_ROLLBACK = (
    ChangeKind.REVISED,
    ChangeKind.FORGOTTEN,
    ChangeKind.CHANGED,
    ChangeKind.REMOVED,
    ChangeKind.DELETED,
)


def can_roll_back(change: Change | None) -> bool:
    """True when Memory Desk kept what a rollback of ``change`` writes back."""
    if change is None or change.kind not in _ROLLBACK or change.old is None:
        return False
    return change.kind != ChangeKind.DELETED or deleted_row(change) is not None


class ReviewPageParts(Protocol):
    """What the actions use of the review page (a QWidget, their parent): its list and
    model, its selection, its marks and its signals. The page has them; the actions need
    nothing else of it, and so never import it."""

    model: ReviewListModel
    list: QAbstractItemView
    error_raised: SignalInstance
    info_raised: SignalInstance
    edit_requested: SignalInstance
    persona_written: SignalInstance

    def selected_changes(self) -> list[Change]: ...

    def current_change(self) -> Change | None: ...

    def show_marked(self, ids: set[int]) -> None: ...

    def addAction(self, action: QAction) -> None: ...


class ReviewActions(QObject):
    """The page's actions and the writes behind them (module docstring). The QActions are
    the page's children, so the window and tests find them by object name."""

    def __init__(
        self,
        page: ReviewPageParts,
        undo_stack: QUndoStack,
        runner: JournalRunner,
        observations_page,
        resolve_store: StoreResolver,
    ) -> None:
        super().__init__(page)
        self._page = page
        self._stack = undo_stack
        self._runner = runner
        self._resolve = resolve_store
        self.writes = WriteRunner(self)
        self.banner = _wait_banner(page)
        self.writes.waiting.connect(self.banner.show_waiting)
        self.writes.finished.connect(self.banner.clear)
        self.banner.cancel_requested.connect(self.cancel_write)
        self._host = ReviewWriteHost(
            observations_page, undo_stack, self.writes, page, self._say, runner.refresh_list
        )
        self.group = QActionGroup(self)
        self.group.setExclusionPolicy(QActionGroup.ExclusionPolicy.None_)
        self._build()

    # -- building -------------------------------------------------------------------------------

    def _build(self) -> None:
        self.mark = self._action(
            "reviewMarkReviewedAction",
            translate("ReviewPage", "Mark reviewed"),
            "Space",
            translate("ReviewPage", "Mark the selected changes reviewed"),
            self.on_mark_reviewed,
            on_list=True,
        )
        self.mark_all = self._action(
            "reviewMarkAllReviewedAction",
            translate("ReviewPage", "Mark all reviewed"),
            "Ctrl+Shift+M",
            translate("ReviewPage", "Mark every listed change reviewed"),
            self.on_mark_all_reviewed,
        )
        self.edit = self._action(
            "reviewEditAction",
            translate("ReviewPage", "Edit"),
            "F2",
            translate("ReviewPage", "Open the observation or entry in its own page to edit it"),
            self.on_edit,
        )
        self.pin = self._action(
            "reviewPinAction",
            translate("ReviewPage", "Pin"),
            "Ctrl+P",
            translate("ReviewPage", "Pin or unpin the selected observations"),
            self.on_pin,
        )
        self.forget = self._action(
            "reviewForgetAction",
            translate("ReviewPage", "Forget"),
            QKeySequence.StandardKey.Delete,
            translate("ReviewPage", "Forget the selected observations (undo brings them back)"),
            self.on_forget,
        )
        self.rollback = self._action(
            "reviewRollbackAction",
            translate("ReviewPage", "Roll back"),
            "Ctrl+Shift+B",
            translate("ReviewPage", "Put the previous version back (Ctrl+Z puts the agent's back)"),
            self.on_rollback,
        )

    def _action(
        self, name: str, text: str, keys, tip: str, slot, *, on_list: bool = False
    ) -> QAction:
        page = self._page
        action = make_action(page, name, text, keys, slot, tip)
        # Space belongs to the list (a checkbox or a spin box keeps its own); the others work
        # anywhere on the page.
        action.setShortcutContext(
            Qt.ShortcutContext.WidgetShortcut
            if on_list
            else Qt.ShortcutContext.WidgetWithChildrenShortcut
        )
        page.list.addAction(action)
        if on_list:
            page.removeAction(action)
        self.group.addAction(action)
        return action

    def buttons(self) -> list[tuple[QAction, str]]:
        """Each action with its button's object name, in the order the page shows them."""
        return [
            (self.mark, "reviewMarkReviewedButton"),
            (self.mark_all, "reviewMarkAllReviewedButton"),
            (self.edit, "reviewEditButton"),
            (self.pin, "reviewPinButton"),
            (self.forget, "reviewForgetButton"),
            (self.rollback, "reviewRollbackButton"),
        ]

    # -- state ----------------------------------------------------------------------------------

    def update(self) -> None:
        """Enable what applies to the selection."""
        page = self._page
        selected = page.selected_changes()
        current = page.current_change()
        observations = [
            c for c in selected if c.store_kind == StoreKind.OBSERVATIONS and c.kind not in GONE
        ]
        self.mark.setEnabled(any(not c.reviewed for c in selected))
        self.mark_all.setEnabled(any(not c.reviewed for c in page.model.changes()))
        self.edit.setEnabled(current is not None and current.kind not in GONE)
        self.pin.setEnabled(bool(observations))
        self.forget.setEnabled(any(c.kind != ChangeKind.FORGOTTEN for c in observations))
        self.rollback.setEnabled(can_roll_back(current))

    def is_writing(self) -> bool:
        """True while a write from this page runs (perhaps waiting for the agent)."""
        return self.writes.is_busy()

    def cancel_write(self) -> None:
        """Cancel the write waiting for the agent (nothing of it is written); too late once
        part of it is written."""
        if self.writes.is_busy() and not self.writes.cancel():
            self.banner.show_too_late()

    def abandon(self) -> None:
        """A database is about to close: never write it half-way."""
        if self.writes.is_busy():
            self.writes.abandon()

    def stop(self) -> None:
        self.writes.stop()

    def _say(self, kind: str, text: str) -> None:
        page = self._page
        (page.error_raised if kind == "error" else page.info_raised).emit(text)

    def _still_writing(self) -> bool:
        if self.writes.is_busy():
            self._say(
                "info",
                translate(
                    "ReviewPage", "An earlier change is still being written; try again in a moment"
                ),
            )
            return True
        return False

    # -- marks ----------------------------------------------------------------------------------

    def on_mark_reviewed(self) -> None:
        waiting = [c for c in self._page.selected_changes() if not c.reviewed]
        if not waiting:
            self._say("info", translate("ReviewPage", "Select the changes to mark reviewed"))
            return
        self._mark(waiting)
        self._say(
            "info",
            i18n.plural(
                len(waiting),
                translate("ReviewPage", "Marked {n} change reviewed"),
                translate("ReviewPage", "Marked {n} changes reviewed"),
            ),
        )

    def on_mark_all_reviewed(self) -> None:
        waiting = [c for c in self._page.model.changes() if not c.reviewed]
        self._runner.mark_all_reviewed()
        self._page.show_marked({c.id for c in waiting})
        self._say("info", translate("ReviewPage", "Every change is marked reviewed"))

    def _mark(self, changes: list[Change]) -> None:
        """Shown at once; written off the main thread (a failure says so above the list, and
        the list read after it shows the marks as they are)."""
        self._runner.mark_reviewed([c.id for c in changes])
        self._page.show_marked({c.id for c in changes})

    # -- edit, pin, forget ----------------------------------------------------------------------

    def on_edit(self) -> None:
        change = self._page.current_change()
        if change is None:
            return
        if change.kind in GONE:
            self._say(
                "info",
                translate(
                    "ReviewPage",
                    "It was deleted: there is nothing to open. Roll back writes it again.",
                ),
            )
            return
        self._page.edit_requested.emit(change)

    def _observation_targets(self) -> tuple[ObservationStore | None, list[int]]:
        """The selected observations' store and ids (one store at a time), with a message
        when there are none."""
        changes = [
            c
            for c in self._page.selected_changes()
            if c.store_kind == StoreKind.OBSERVATIONS and c.kind not in GONE
        ]
        if not changes:
            self._say("info", translate("ReviewPage", "Select observations that are still there"))
            return None, []
        store = self._resolve(changes[0])
        if not isinstance(store, ObservationStore):
            self._say("error", _store_closed(changes[0]))
            return None, []
        ids = [int(c.target) for c in changes if c.store == changes[0].store]
        return store, list(dict.fromkeys(ids))

    def _rows(self, store: ObservationStore, ids: list[int]) -> dict:
        try:
            rows = store.get_many(ids)
        except StoreError as exc:
            self._say("error", i18n.shown(exc))
            return {}
        if not rows:
            self._say(
                "info", translate("ReviewPage", "These observations are no longer in the database")
            )
        return rows

    def on_pin(self) -> None:
        store, ids = self._observation_targets()
        if store is None or self._still_writing():
            return
        rows = self._rows(store, ids)
        if rows:
            pinned = not all(o.pinned for o in rows.values())
            PinCommand(self._host, store, list(rows), pinned).start()

    def on_forget(self) -> None:
        store, ids = self._observation_targets()
        if store is None or self._still_writing():
            return
        rows = self._rows(store, ids)
        if not rows:
            return
        live = [oid for oid, o in rows.items() if not o.forgotten]
        if not live:
            self._say(
                "info", translate("ReviewPage", "The selected observations are already forgotten")
            )
            return
        ForgetCommand(self._host, store, live).start()

    # -- roll back ------------------------------------------------------------------------------

    def on_rollback(self) -> None:
        change = self._page.current_change()
        if change is None:
            return
        if not can_roll_back(change):
            self._say("info", _why_no_rollback(change))
            return
        store = self._resolve(change)
        if isinstance(store, PersonaFolder):
            self._roll_back_entry(store, change)
        elif isinstance(store, ObservationStore) and change.kind == ChangeKind.DELETED:
            self._write_again(store, change)
        elif isinstance(store, ObservationStore):
            self._roll_back_observation(store, change)
        else:
            self._say("error", _store_closed(change))

    def _current_row(self, store: ObservationStore, oid: int):
        """The row as it is now (None: gone, or unreadable and said so)."""
        try:
            return store.get(oid)
        except StoreError as exc:
            self._say("error", i18n.shown(exc))
            return None

    def _roll_back_observation(self, store: ObservationStore, change: Change) -> None:
        if self._still_writing():
            return
        oid = int(change.target)
        current = self._current_row(store, oid)
        if current is None:
            self._say(
                "error",
                translate("ReviewPage", "Observation #{id} is no longer in the database").format(
                    id=oid
                ),
            )
            return
        if change.kind == ChangeKind.FORGOTTEN:
            if not current.forgotten:
                self._say(
                    "info",
                    translate("ReviewPage", "Observation #{id} is not forgotten any more").format(
                        id=oid
                    ),
                )
                return
            command = RestoreCommand(self._host, store, [oid])
        else:
            if not observation_matches(current, change.new):
                self._say("error", changed_again(f"#{oid}"))
                return
            assert change.old is not None
            command = EditCommand(self._host, store, current, rolled_back(current, change.old))
        command.start(then=lambda: self._after_rollback(change, command.written))

    def _write_again(self, store: ObservationStore, change: Change) -> None:
        """A hard-deleted row, written again from its last version as a new row (its old id
        cannot be reused); undo forgets the new row."""
        deleted = deleted_row(change)
        old = change.old
        if self._still_writing() or deleted is None or old is None:
            return
        try:
            back = store.get(deleted.id)
        except StoreError as exc:
            self._say("error", i18n.shown(exc))
            return
        if back is not None:
            self._say(
                "info",
                translate(
                    "ReviewPage", "Observation #{id} is in the database again; nothing was written"
                ).format(id=deleted.id),
            )
            return
        values = {
            "title": old.title,
            "content": old.body,
            "type": old.type,
            "topic_key": old.description,
        }
        command = RecreateCommand(self._host, store, deleted, values)
        command.start(then=lambda: self._after_write_again(change, command))

    def _after_write_again(self, change: Change, command: RecreateCommand) -> None:
        if not command.written:
            return
        self._mark([change])
        self._say(
            "info",
            translate(
                "ReviewPage",
                "Wrote #{old} back as new observation #{new}; {keys} forgets it again",
            ).format(old=change.target, new=command.created_id, keys=_undo_keys()),
        )

    def _roll_back_entry(self, folder: PersonaFolder, change: Change) -> None:
        command = PersonaRollbackCommand(
            folder, change, self._on_entry_written, lambda text: self._say("error", text)
        )
        self._stack.push(command)
        self._after_rollback(change, command.ok)

    def _on_entry_written(self, folder: PersonaFolder, name: str) -> None:
        self._page.persona_written.emit(str(folder.path / f"{name}.md"))
        self._runner.refresh_list()

    def _after_rollback(self, change: Change, written: bool) -> None:
        if not written:
            return
        self._mark([change])
        what = f"#{change.target}" if change.store_kind == StoreKind.OBSERVATIONS else change.target
        self._say(
            "info",
            translate(
                "ReviewPage",
                "Rolled back {what} to its previous version; {keys} puts the agent's back",
            ).format(what=what, keys=_undo_keys()),
        )


def rolled_back(current: Observation, old: Version) -> dict[str, str]:
    """What an edit writes to put ``old`` back over the row ``current``: every field the
    agent's revision may have changed (the ones it did not change are left as they are)."""
    values = {"title": old.title, "content": old.body}
    if old.type and old.type != current.type:
        values["type"] = old.type
    if old.description != (current.topic_key or ""):
        values["topic_key"] = old.description
    return values


def _wait_banner(page) -> WriteWaitBanner:
    """The observations page's "waiting for the agent" strip, named for this page (object
    names are unique in the window)."""
    banner = WriteWaitBanner(page)
    banner.setObjectName("reviewWriteWaitBanner")
    banner.label.setObjectName("reviewWriteWaitText")
    banner.cancel_button.setObjectName("reviewCancelWriteButton")
    return banner


def _store_closed(change: Change) -> str:
    return translate(
        "ReviewPage", "{store} is not open any more; open it to act on this change."
    ).format(store=change.store)


def _why_no_rollback(change: Change) -> str:
    if change.kind == ChangeKind.NEW:
        return translate(
            "ReviewPage",
            "It is new: there is no earlier version to go back to (Forget removes it).",
        )
    if change.kind == ChangeKind.DELETED:
        return translate(
            "ReviewPage",
            "Memory Desk did not keep this observation's project and chat, so it cannot write it back; its last text is shown on the left to copy.",
        )
    return translate(
        "ReviewPage", "Memory Desk did not keep the earlier version, so it cannot put it back."
    )


def _undo_keys() -> str:
    return QKeySequence(QKeySequence.StandardKey.Undo).toString(
        QKeySequence.SequenceFormat.NativeText
    )
