"""Forgetting the chosen persona duplicates in one step, and putting them all back in one.

Each entry goes to Memory Desk's trash as the persona page's own Forget does
(:meth:`PersonaFolder.forget`); the command keeps what the trash returned, so undo puts every
file back byte for byte. All or nothing: when one entry cannot be forgotten, those already
taken out are put back and the command leaves the stack. Texts are in the person's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QUndoCommand

from memory_desk.core import StoreError
from memory_desk.core.persona import PersonaFolder, TrashedEntry
from memory_desk.ui import i18n
from memory_desk.ui.i18n import shown, translate


class ForgetEntriesCommand(QUndoCommand):
    """Forget several entries of one folder; undo restores them all.

    ``changed(message)`` runs after every step (the page reads the folder again and says what
    happened); ``failed(message)`` reports a StoreError, and the command then drops off.
    """

    def __init__(
        self,
        folder: PersonaFolder,
        names: Sequence[str],
        changed: Callable[[str], None],
        failed: Callable[[str], None],
    ) -> None:
        self._count = len(names)
        super().__init__(
            i18n.plural(
                self._count,
                translate("PruningCommands", "Forget {n} repeated entry"),
                translate("PruningCommands", "Forget {n} repeated entries"),
            )
        )
        self._folder = folder
        self._names = list(names)
        self._changed = changed
        self._failed = failed
        self._trashed: list[TrashedEntry] = []

    def redo(self) -> None:
        try:
            for name in self._names:
                self._trashed.append(self._folder.forget(name))
        except StoreError as exc:
            self._put_back_quietly()
            self.setObsolete(True)
            self._failed(shown(exc))
            return
        self._changed(
            i18n.plural(
                self._count,
                translate("PruningCommands", "Forgot {n} repeated entry (undo brings it back)"),
                translate("PruningCommands", "Forgot {n} repeated entries (undo brings them back)"),
            )
        )

    def undo(self) -> None:
        try:
            while self._trashed:
                self._folder.unforget(self._trashed[-1])
                self._trashed.pop()
        except StoreError as exc:
            self.setObsolete(True)
            self._failed(shown(exc))
            return
        self._changed(
            i18n.plural(
                self._count,
                translate("PruningCommands", "Put back {n} entry"),
                translate("PruningCommands", "Put back {n} entries"),
            )
        )

    def _put_back_quietly(self) -> None:
        """A forget failed half-way: the entries already in the trash go back."""
        while self._trashed:
            try:
                self._folder.unforget(self._trashed.pop())
            except StoreError:
                continue  # it stays in the trash, where the person can still find it
