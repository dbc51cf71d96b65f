"""Undoable writes: pin, forget, restore and edit as commands on the window's undo stack.

Each command keeps what the store returned about the previous state, so undo puts back
exactly that (a forgotten row gets its old ``deleted_at`` again, not a new one). The first
run happens in ``redo()``, called by ``QUndoStack.push``. A command whose write fails
reports the store's message and marks itself obsolete, so the stack drops it instead of
offering to undo something that never happened. An edit refused because another program
changed the row is reported as a conflict, so the page can show its banner instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtGui import QUndoCommand

from memory_desk.core import ConflictError, StoreError
from memory_desk.core.observations import EditResult, Observation, ObservationStore
from memory_desk.ui.observations.display import count_noun


class WriteHost(Protocol):
    """What a command needs from the page: a way to show results and errors."""

    def after_write(self, store: ObservationStore, ids: Sequence[int], message: str) -> None: ...

    def report_error(self, message: str) -> None: ...

    def report_conflict(self, observation_id: int, message: str) -> None: ...


class StoreCommand(QUndoCommand):
    """Runs a write against one store and reports through the page, success or failure."""

    def __init__(
        self, host: WriteHost, store: ObservationStore, ids: Sequence[int], text: str
    ) -> None:
        super().__init__(text)
        self._host = host
        self._store = store
        self._ids = list(ids)

    def redo(self) -> None:
        self._run(self._do)

    def undo(self) -> None:
        self._run(self._undo, prefix="Undone: ")

    def _run(self, step, prefix: str = "") -> None:
        try:
            message = step()
        except StoreError as exc:
            self.setObsolete(True)
            self._report(exc)
            self._host.after_write(self._store, self._ids, "")
            return
        self._host.after_write(self._store, self._ids, prefix + message if prefix else message)

    def _report(self, exc: StoreError) -> None:
        self._host.report_error(str(exc))

    def _do(self) -> str:
        raise NotImplementedError

    def _undo(self) -> str:
        raise NotImplementedError


class PinCommand(StoreCommand):
    """Pin or unpin; undo gives every row its own previous state back."""

    def __init__(
        self, host: WriteHost, store: ObservationStore, ids: Sequence[int], pinned: bool
    ) -> None:
        verb = "Pin" if pinned else "Unpin"
        super().__init__(host, store, ids, f"{verb} {count_noun(len(ids))}")
        self._pinned = pinned
        self._previous: dict[int, bool] = {}

    def _do(self) -> str:
        self._previous = self._store.pin(self._ids, pinned=self._pinned)
        return f"{'Pinned' if self._pinned else 'Unpinned'} {count_noun(len(self._ids))}"

    def _undo(self) -> str:
        changed = [oid for oid, was in self._previous.items() if bool(was) != self._pinned]
        if changed:
            self._store.pin(changed, pinned=not self._pinned)
        return self.text()


class ForgetCommand(StoreCommand):
    """Forget (soft delete); undo restores the rows that were live and re-dates the others."""

    def __init__(self, host: WriteHost, store: ObservationStore, ids: Sequence[int]) -> None:
        super().__init__(host, store, ids, f"Forget {count_noun(len(ids))}")
        self._previous: dict[int, int | None] = {}

    def _do(self) -> str:
        self._previous = self._store.forget(self._ids)
        return f"Forgot {count_noun(len(self._ids))} (Ctrl+Z brings them back)"

    def _undo(self) -> str:
        self._store.put_back_deleted_at(self._previous)
        return self.text()


class RestoreCommand(StoreCommand):
    """Restore forgotten rows; undo forgets them again with their original ``deleted_at``."""

    def __init__(self, host: WriteHost, store: ObservationStore, ids: Sequence[int]) -> None:
        super().__init__(host, store, ids, f"Restore {count_noun(len(ids))}")
        self._previous: dict[int, int | None] = {}

    def _do(self) -> str:
        self._previous = self._store.restore(self._ids)
        return f"Restored {count_noun(len(self._ids))}"

    def _undo(self) -> str:
        self._store.put_back_deleted_at(self._previous)
        return self.text()


class EditCommand(StoreCommand):
    """A hand edit, written like the plugin's own revision; undo refuses if the agent changed
    the row since (the store raises ConflictError and the command leaves the stack).

    With ``restore``, the row (forgotten by the agent while the person edited it, who chose
    to keep it) is restored too, in the same undo step.
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
        text = f"Restore and edit #{seen.id}" if restore else f"Edit #{seen.id}"
        super().__init__(host, store, [seen.id], text)
        self._seen: Observation | None = seen
        self._changes = dict(changes)
        self._restore = restore
        self._result: EditResult | None = None
        self._restored: dict[int, int | None] = {}

    def _do(self) -> str:
        # The first run refuses if the agent revised the row while the person typed; a redo
        # after undo applies the same change again to whatever the row is then.
        self._result = self._store.edit(self._ids[0], **self._changes, expected=self._seen)
        self._seen = None
        if self._restore:
            self._restored = self._store.restore(self._ids)
            return f"Restored and saved #{self._ids[0]}"
        return f"Saved #{self._ids[0]}"

    def _undo(self) -> str:
        if self._restored:
            self._store.put_back_deleted_at(self._restored)
        if self._result is not None:
            self._store.undo_edit(self._result)
        return self.text()

    def _report(self, exc: StoreError) -> None:
        if isinstance(exc, ConflictError) and self._seen is not None:
            self._host.report_conflict(self._ids[0], str(exc))
        else:
            super()._report(exc)
