"""Undoable writes: pin, forget, restore, edit and re-create as commands on the undo stack.

Each command keeps what the store returned about the previous state, so undo puts back
exactly that (a forgotten row gets its old ``deleted_at`` again, not a new one). The first
run happens in ``redo()``, called by ``QUndoStack.push``. A command whose write fails
reports the store's message and marks itself obsolete, so the stack drops it instead of
offering to undo something that never happened. An edit refused because another program
changed the row is reported as a conflict, so the page can show its banner instead.

One live row per topic: a write that would give a topic a second live row (a restore, the
undo of a forget, an edit of the topic key, a re-creation, the undo of an edit) is refused by
the store with TopicConflict. The command asks the page (:meth:`WriteHost.choose_topic`,
a modal question) and runs the write again with the person's choice; whatever the choice
changed on other rows comes back in the store's result, so the next undo puts those rows back
too. Cancel writes nothing: on the first run the command never reaches the stack; on an undo
or redo the stack is stepped back where it was (:meth:`WriteHost.restore_stack_position`), so
Ctrl+Z still offers the same step.

Every write runs off the main thread (:meth:`WriteHost.run_write`, the page's
:class:`~.write_runner.WriteRunner`), so the window keeps painting while the agent holds the
write lock. The first run is :meth:`StoreCommand.start`: the command is pushed on the undo
stack only once its write is done (pushing calls ``redo()``, which then skips). An undo or
redo asked by the stack starts its write and the stack moves at once; when that write is
cancelled (the topic question, or Cancel while waiting for the agent) the stack is stepped
back, and when it fails the command is dropped from the stack. The steps (``_do``/``_undo``)
run on the worker: they only call the store and :meth:`WriteHost.choose_topic`, which asks
on the main thread and waits for the answer.

Every text a command shows (its Edit ▸ Undo text, its messages) is a whole translated sentence
(context "ObservationCommands"), with the count through ``i18n.plural``; the store's own
messages are shown with ``i18n.shown``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol, TypeVar

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QUndoCommand, QUndoStack

from memory_desk.core import ConflictError, StoreError, TopicConflict, alisio
from memory_desk.core.observations import (
    EditResult,
    Observation,
    ObservationStore,
    PreviousDeletedAt,
    WriteCancelled,
    WrittenObservation,
)
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.widgets.topic import (
    EDIT,
    PUT_BACK,
    RECREATE,
    RESTORE,
    RESTORE_EDIT,
    UNDO_EDIT,
    UNDO_FORGET,
    TopicAction,
)
from memory_desk.ui.workers.write_runner import Outcome

_T = TypeVar("_T")


class WriteHost(Protocol):
    """What a command needs from the page: run writes in the background, show results and
    errors, ask about topics, put commands on the undo stack."""

    def run_write(
        self, what: str, step: Callable[[], str], done: Callable[[Outcome], None]
    ) -> bool: ...

    def push(self, command: QUndoCommand) -> None: ...

    def drop_from_stack(self, command: QUndoCommand, *, undone: bool) -> None: ...

    def after_write(self, store: ObservationStore, ids: Sequence[int], message: str) -> None: ...

    def report_error(self, message: str) -> None: ...

    def report_conflict(self, observation_id: int, message: str) -> None: ...

    def report_cancelled(self, message: str) -> None: ...

    def choose_topic(
        self, store: ObservationStore, conflict: TopicConflict, action: TopicAction
    ) -> str | None: ...

    def restore_stack_position(self, command: QUndoCommand, *, undone: bool) -> None: ...

    def undo_keys(self) -> str: ...


class Cancelled(Exception):
    """The person cancelled a topic question: nothing was written."""


class StoreCommand(QUndoCommand):
    """Runs a write against one store in the background and reports through the page."""

    def __init__(
        self, host: WriteHost, store: ObservationStore, ids: Sequence[int], text: str
    ) -> None:
        super().__init__(text)
        self._host = host
        self._store = store
        self._ids = list(ids)
        self._label = text  # the text, kept in Python: the stack may delete the C++ side
        self._done = False  # the first run went through: the command is on the stack
        self._skip_next = False  # the stack is catching up after a cancelled step
        self._then: Callable[[], None] | None = None

    def setText(self, text: str) -> None:  # noqa: N802 (Qt override)
        self._label = text
        super().setText(text)

    @property
    def written(self) -> bool:
        """True once the first run's write is done (the command is on the undo stack)."""
        return self._done

    def start(self, then: Callable[[], None] | None = None) -> bool:
        """The first run, in the background: the command is pushed on the undo stack once
        written. ``then`` runs on the main thread after the outcome was reported. False
        (nothing started) while another write is still running."""
        self._then = then
        return self._host.run_write(self._label, self._do, self._first_run_done)

    def redo(self) -> None:
        if self._skip_next:
            self._skip_next = False
            return
        self._step(self._do, undoing=False)

    def undo(self) -> None:
        if self._skip_next:
            self._skip_next = False
            return
        self._step(self._undo, undoing=True)

    def _step(self, step: Callable[[], str], *, undoing: bool) -> None:
        """An undo or redo the stack asked for (it has already moved): write it in the
        background; when another write still runs, write nothing and step the stack back."""
        if undoing:
            what = translate("ObservationCommands", "Undo “{what}”").format(what=self._label)
        else:
            what = translate("ObservationCommands", "Redo “{what}”").format(what=self._label)
        if self._host.run_write(what, step, partial(self._step_done, undoing=undoing)):
            return
        self._skip_next = True
        self._host.restore_stack_position(self, undone=undoing)
        if undoing:
            message = translate(
                "ObservationCommands",
                "Nothing was undone: an earlier change is still being written; try again once"
                " it is",
            )
        else:
            message = translate(
                "ObservationCommands",
                "Nothing was redone: an earlier change is still being written; try again once"
                " it is",
            )
        self._host.after_write(self._store, [], message)

    def _first_run_done(self, outcome: Outcome) -> None:
        try:
            if outcome.ok:
                self._done = True
                self._skip_next = True  # pushing calls redo(): the write is already made
                self._host.push(self)
                self._host.after_write(self._store, self._ids, self._announce(outcome.value))
            else:
                self._failed(outcome.error, undoing=False)
        finally:
            then, self._then = self._then, None
            if then is not None:
                then()

    def _step_done(self, outcome: Outcome, *, undoing: bool) -> None:
        if outcome.ok:
            if undoing:
                message = translate("ObservationCommands", "Undone: {what}").format(
                    what=outcome.value
                )
            else:
                message = self._announce(outcome.value)
            self._host.after_write(self._store, self._ids, message)
        else:
            self._failed(outcome.error, undoing=undoing)

    def _failed(self, error: BaseException | None, *, undoing: bool) -> None:
        """Cancelled: nothing written, the stack as it was. A store error: reported, and an
        undo or redo that failed leaves the stack. Anything else is a bug: raised."""
        if isinstance(error, Cancelled):
            self._cancelled(i18n.shown(error), undoing=undoing)
        elif isinstance(error, WriteCancelled):
            self._cancelled(
                translate(
                    "ObservationCommands",
                    "You cancelled “{what}” while the agent was writing: nothing was written",
                ).format(what=self._label),
                undoing=undoing,
            )
        elif isinstance(error, StoreError):
            self._report(error)
            if self._done:
                self._host.drop_from_stack(self, undone=undoing)
            self._host.after_write(self._store, self._ids, "")
        elif error is not None:
            raise error

    def _cancelled(self, first_run_message: str, *, undoing: bool) -> None:
        """Nothing was written: say so, and leave the stack as it was before this step."""
        if not self._done:
            message = first_run_message  # never pushed: nothing to put back
        elif undoing:
            message = translate(
                "ObservationCommands",
                "Nothing was undone (you cancelled); {keys} still offers “{what}”",
            ).format(keys=self._host.undo_keys(), what=self._label)
        else:
            message = translate(
                "ObservationCommands",
                "Nothing was redone (you cancelled); redo still offers “{what}”",
            ).format(what=self._label)
        if self._done:
            self._skip_next = True
            self._host.restore_stack_position(self, undone=undoing)
        self._host.report_cancelled(message)
        self._host.after_write(self._store, self._ids, message)

    def _with_topic_choice(self, action: TopicAction, write: Callable[[str | None], _T]) -> _T:
        """Run ``write(None)``; on TopicConflict ask the person and run ``write(choice)``."""
        try:
            return write(None)
        except TopicConflict as conflict:
            choice = self._host.choose_topic(self._store, conflict, action)
            if choice is None:
                raise Cancelled(action.nothing) from None
            return write(choice)

    def _put_back(self, previous: PreviousDeletedAt, action: TopicAction) -> PreviousDeletedAt:
        """Give rows their previous ``deleted_at`` (and other rows their topic state) back;
        the result, passed here again, reverses it."""
        return self._with_topic_choice(
            action,
            lambda choice: self._store.put_back_deleted_at(previous, on_topic_conflict=choice),
        )

    def _announce(self, value: object) -> str:
        """The message for a write just done (or redone), on the main thread: a command whose
        message tells how to undo it asks the page which keys do that from where the focus is."""
        return str(value)

    def _report(self, exc: StoreError) -> None:
        self._host.report_error(i18n.shown(exc))

    def _do(self) -> str:
        raise NotImplementedError

    def _undo(self) -> str:
        raise NotImplementedError


class PinCommand(StoreCommand):
    """Pin or unpin; undo gives every row its own previous state back."""

    def __init__(
        self, host: WriteHost, store: ObservationStore, ids: Sequence[int], pinned: bool
    ) -> None:
        n = len(ids)
        if pinned:
            text = i18n.plural(
                n,
                translate("ObservationCommands", "Pin {n} observation"),
                translate("ObservationCommands", "Pin {n} observations"),
            )
        else:
            text = i18n.plural(
                n,
                translate("ObservationCommands", "Unpin {n} observation"),
                translate("ObservationCommands", "Unpin {n} observations"),
            )
        super().__init__(host, store, ids, text)
        self._pinned = pinned
        self._previous: dict[int, bool] = {}

    def _do(self) -> str:
        self._previous = self._store.pin(self._ids, pinned=self._pinned)
        return ""  # the message is made on the main thread (_announce)

    def _announce(self, value: object) -> str:
        n = len(self._ids)
        if self._pinned:
            return i18n.plural(
                n,
                translate("ObservationCommands", "Pinned {n} observation"),
                translate("ObservationCommands", "Pinned {n} observations"),
            )
        return i18n.plural(
            n,
            translate("ObservationCommands", "Unpinned {n} observation"),
            translate("ObservationCommands", "Unpinned {n} observations"),
        )

    def _undo(self) -> str:
        changed = [oid for oid, was in self._previous.items() if bool(was) != self._pinned]
        if changed:
            self._store.pin(changed, pinned=not self._pinned)
        return self._label


class ForgetCommand(StoreCommand):
    """Forget (soft delete); undo brings back the rows that were live, asking about their
    topics if the agent gave one a new live row meanwhile. With ``keep_pinned`` (the pruning
    assistant's proposals) a row pinned, forgotten or deleted since it was proposed stays
    as it is, and the message says how many did."""

    def __init__(
        self,
        host: WriteHost,
        store: ObservationStore,
        ids: Sequence[int],
        *,
        keep_pinned: bool = False,
    ) -> None:
        text = i18n.plural(
            len(ids),
            translate("ObservationCommands", "Forget {n} observation"),
            translate("ObservationCommands", "Forget {n} observations"),
        )
        super().__init__(host, store, ids, text)
        self._previous = PreviousDeletedAt()
        self._keep_pinned = keep_pinned
        self._kept = 0  # rows the first run left as they were (keep_pinned), to say so once

    def _do(self) -> str:
        if self._done:
            self._previous = self._put_back(self._previous, PUT_BACK)
        else:
            self._previous = self._store.forget(self._ids, keep_pinned=self._keep_pinned)
            if self._keep_pinned:
                self._kept = len(self._ids) - len(self._previous)
        return ""  # the message is made on the main thread (_announce)

    def _announce(self, value: object) -> str:
        """Says how to undo from where the person is now (Ctrl+Z, or Edit ▸ Undo)."""
        kept, self._kept = self._kept, 0
        forgot = len(self._ids) - kept
        said = []
        if forgot:
            said.append(
                i18n.plural(
                    forgot,
                    translate(
                        "ObservationCommands", "Forgot {n} observation ({keys} brings it back)"
                    ),
                    translate(
                        "ObservationCommands", "Forgot {n} observations ({keys} brings them back)"
                    ),
                    keys=self._host.undo_keys(),
                )
            )
        if kept:
            said.append(
                i18n.plural(
                    kept,
                    translate(
                        "ObservationCommands",
                        "{n} checked observation changed since the search (pinned, forgotten or"
                        " deleted) and stays as it is",
                    ),
                    translate(
                        "ObservationCommands",
                        "{n} checked observations changed since the search (pinned, forgotten"
                        " or deleted) and stay as they are",
                    ),
                )
            )
        return ". ".join(said)

    def _undo(self) -> str:
        self._previous = self._put_back(self._previous, UNDO_FORGET)
        return self._label


class RestoreCommand(StoreCommand):
    """Restore forgotten rows (asking once for all of them about topics that would clash);
    undo forgets them again with their original ``deleted_at`` and puts back the other rows
    the person's topic choice changed."""

    def __init__(self, host: WriteHost, store: ObservationStore, ids: Sequence[int]) -> None:
        text = i18n.plural(
            len(ids),
            translate("ObservationCommands", "Restore {n} observation"),
            translate("ObservationCommands", "Restore {n} observations"),
        )
        super().__init__(host, store, ids, text)
        self._previous = PreviousDeletedAt()

    def _do(self) -> str:
        if self._done:
            self._previous = self._put_back(self._previous, RESTORE)
        else:
            self._previous = self._with_topic_choice(
                RESTORE,
                lambda choice: self._store.restore(self._ids, on_topic_conflict=choice),
            )
        return ""  # the message is made on the main thread (_announce)

    def _announce(self, value: object) -> str:
        restored = i18n.plural(
            len(self._previous),
            translate("ObservationCommands", "Restored {n} observation"),
            translate("ObservationCommands", "Restored {n} observations"),
        )
        return _with_topic_note(restored, self._previous)

    def _undo(self) -> str:
        self._previous = self._put_back(self._previous, PUT_BACK)
        return self._label


class EditCommand(StoreCommand):
    """A hand edit, written like the plugin's own revision; undo refuses if the agent changed
    the row since (the store raises ConflictError and the command leaves the stack).

    With ``restore``, the row (forgotten by the agent while the person edited it, who chose
    to keep it) is restored too, in the same undo step. A topic question cancelled at the
    restore puts the edit back, so Cancel leaves nothing written.
    """

    def __init__(
        self,
        host: WriteHost,
        store: ObservationStore,
        seen: Observation,
        changes: dict[str, str],
        *,
        restore: bool = False,
    ) -> None:
        if restore:
            text = translate("ObservationCommands", "Restore and edit #{id}").format(id=seen.id)
        else:
            text = translate("ObservationCommands", "Edit #{id}").format(id=seen.id)
        super().__init__(host, store, [seen.id], text)
        self._seen: Observation | None = seen
        self._changes = dict(changes)
        self._restore = restore
        self._result: EditResult | None = None
        self._restored = PreviousDeletedAt()
        self._undone: WrittenObservation | None = None  # what the last undo changed elsewhere

    def _do(self) -> str:
        # The first run refuses if the agent revised the row while the person typed; a redo
        # after undo applies the same change again to whatever the row is then.
        oid = self._ids[0]
        result = self._with_topic_choice(
            EDIT,
            lambda choice: self._store.edit(
                oid, **self._changes, expected=self._seen, on_topic_conflict=choice
            ),
        )
        if self._restore:
            try:
                self._restored = self._with_topic_choice(
                    RESTORE_EDIT,
                    lambda choice: self._store.restore([oid], on_topic_conflict=choice),
                )
            except Cancelled:
                self._store.undo_edit(result)  # nothing stays written
                raise
        self._result = result
        self._seen = None
        self._put_back_what_the_undo_changed()
        return ""  # the message is made on the main thread (_announce)

    def _announce(self, value: object) -> str:
        oid = self._ids[0]
        changes = self._result.topic_changes if self._result is not None else None
        more = () if changes is None else (changes,)
        if self._restore:
            saved = translate("ObservationCommands", "Restored and saved #{id}").format(id=oid)
            return _with_topic_note(saved, self._restored, *more)
        saved = translate("ObservationCommands", "Saved #{id}").format(id=oid)
        return _with_topic_note(saved, PreviousDeletedAt(), *more)

    def _put_back_what_the_undo_changed(self) -> None:
        """A redo after an undo that asked about topics: the rows that undo changed go back."""
        undone, self._undone = self._undone, None
        if undone is not None and undone.topic_changes:
            self._store.put_back_topic_changes(undone.topic_changes)

    def _undo(self) -> str:
        if self._restored:
            self._restored = self._put_back(self._restored, PUT_BACK)
        if self._result is not None:
            result = self._result
            try:
                self._undone = self._with_topic_choice(
                    UNDO_EDIT,
                    lambda choice: self._store.undo_edit(result, on_topic_conflict=choice),
                )
            except Cancelled:
                if self._restored:  # the row was forgotten again just above: bring it back
                    self._restored = self._store.put_back_deleted_at(self._restored)
                raise
        return self._label

    def _report(self, exc: StoreError) -> None:
        if isinstance(exc, ConflictError) and self._seen is not None:
            self._host.report_conflict(self._ids[0], i18n.shown(exc))
        else:
            super()._report(exc)


class RecreateCommand(StoreCommand):
    """The person's text for a row the agent deleted, saved as a new row.

    Undo forgets the new row (the person's text stays under "Show forgotten") and puts back
    the other rows the topic choice changed, in one transaction; redo brings it back.
    """

    def __init__(
        self,
        host: WriteHost,
        store: ObservationStore,
        deleted: Observation,
        values: dict[str, str],
    ) -> None:
        text = translate("ObservationCommands", "Save #{id} again as a new observation").format(
            id=deleted.id
        )
        super().__init__(host, store, [], text)
        self._deleted = deleted
        self._values = dict(values)
        self._previous = PreviousDeletedAt()
        self.created_id: int | None = None

    def _do(self) -> str:
        if self._done:
            self._previous = self._put_back(self._previous, PUT_BACK)
            return translate("ObservationCommands", "Brought back #{id}").format(id=self.created_id)
        created = self._with_topic_choice(
            RECREATE,
            lambda choice: self._store.recreate(
                self._deleted, **self._values, on_topic_conflict=choice
            ),
        )
        self.created_id = created.id
        self._ids = [created.id]
        # Undoing is forgetting the new row and putting the other rows back.
        self._previous = PreviousDeletedAt(
            {created.id: alisio.now_ms()}, topic_changes=created.topic_changes
        )
        saved = translate(
            "ObservationCommands", "Saved as new observation #{id} (the agent had deleted #{old})"
        ).format(id=created.id, old=self._deleted.id)
        return _with_topic_note(saved, PreviousDeletedAt(), created.topic_changes)

    def _first_run_done(self, outcome: Outcome) -> None:
        if outcome.ok and self.created_id is not None:  # on the main thread: the stack's text
            self.setText(
                translate("ObservationCommands", "Save #{id} again as #{new}").format(
                    id=self._deleted.id, new=self.created_id
                )
            )
        super()._first_run_done(outcome)

    def _undo(self) -> str:
        self._previous = self._put_back(self._previous, PUT_BACK)
        return translate(
            "ObservationCommands", "{what} (#{id} is forgotten; Show forgotten lists it)"
        ).format(what=self._label, id=self.created_id)


def step_back_later(
    stack: QUndoStack, command: QUndoCommand, *, undone: bool, context: QObject
) -> None:
    """Once the stack has finished moving past ``command`` (whose step was cancelled and wrote
    nothing), move it back, so undo (``undone``) or redo offers the same step again."""

    def step_back() -> None:
        index = stack.index()
        if undone and index < stack.count() and stack.command(index) is command:
            stack.redo()
        elif not undone and index > 0 and stack.command(index - 1) is command:
            stack.undo()

    QTimer.singleShot(0, context, step_back)


def _with_topic_note(message: str, previous: PreviousDeletedAt, *more) -> str:
    """``message · the topic choice also changed #40 (…)`` when a choice touched other rows,
    else ``message``: two sentences, each translated whole."""
    ids: list[int] = []
    for changes in (previous.topic_changes, *more):
        ids.extend(changes.deleted_at)
        ids.extend(changes.topic_keys)
    others = [oid for oid in dict.fromkeys(ids) if oid not in previous]
    if not others:
        return message
    names = ", ".join(f"#{oid}" for oid in others)
    note = translate(
        "ObservationCommands", "the topic choice also changed {rows} (Ctrl+Z puts it back)"
    ).format(rows=names)
    return f"{message} · {note}"
