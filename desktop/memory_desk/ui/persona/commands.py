"""Undoable persona actions, pushed on the persona page's undo stack.

Their texts (shown in Edit ▸ Undo/Redo) and the failures they report are in the person's
language.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from memory_desk.core import StoreError
from memory_desk.core.persona import FolderFix, FolderProblem, PersonaFolder
from memory_desk.ui.i18n import shown, translate


class ForgetCommand(QUndoCommand):
    """Forget an entry (its file goes to Memory Desk's trash); undo brings the file back.

    The command keeps its own folder: undoing after the person switched folders still restores
    the entry where it was. ``changed(folder, name)`` runs after every move so the page can
    re-read (and tell the watcher the file came or went); ``failed(message)`` reports a
    StoreError, and the command then drops off the stack.
    """

    def __init__(
        self,
        folder: PersonaFolder,
        name: str,
        changed: Callable[[PersonaFolder, str], None],
        failed: Callable[[str], None],
    ) -> None:
        super().__init__(translate("PersonaCommands", "Forget {name}").format(name=name))
        self._folder = folder
        self._name = name
        self._changed = changed
        self._failed = failed
        self._trashed = None

    def redo(self) -> None:
        try:
            self._trashed = self._folder.forget(self._name)
        except StoreError as exc:
            self.setObsolete(True)
            self._failed(shown(exc))
            return
        self._changed(self._folder, self._name)

    def undo(self) -> None:
        try:
            self._folder.unforget(self._trashed)
        except StoreError as exc:
            self.setObsolete(True)
            self._failed(shown(exc))
            return
        self._changed(self._folder, self._name)


class RenameCommand(QUndoCommand):
    """Rename an entry's file; undo puts the file back under its old name, byte for byte.

    ``changed(folder, before, after)`` runs after every move with the entry's previous and
    current names, so the page can keep the entry open; ``failed(message)`` reports a
    StoreError.
    """

    def __init__(
        self,
        folder: PersonaFolder,
        old_name: str,
        new_name: str,
        changed: Callable[[PersonaFolder, str, str], None],
        failed: Callable[[str], None],
    ) -> None:
        super().__init__(
            translate("PersonaCommands", "Rename {old} to {new}").format(old=old_name, new=new_name)
        )
        self._folder = folder
        self._old = old_name
        self._new = new_name
        self._changed = changed
        self._failed = failed

    def redo(self) -> None:
        try:
            self._folder.rename(self._folder.read(self._old), self._new)
        except StoreError as exc:
            self.setObsolete(True)
            self._failed(shown(exc))
            return
        self._changed(self._folder, self._old, self._new)

    def undo(self) -> None:
        try:
            self._folder.undo_rename(self._folder.read(self._new), self._old)
        except StoreError as exc:
            self.setObsolete(True)
            self._failed(shown(exc))
            return
        self._changed(self._folder, self._new, self._old)


class FolderFixCommand(QUndoCommand):
    """Fix a problem of the folder itself (rename what stops the agent reading its memory);
    undo gives it its old name back.

    ``changed(folder, paths)`` runs after every move with the two paths involved, so the page
    can re-read (and tell the watcher); ``failed(message)`` reports a StoreError, and the
    command then drops off the stack.
    """

    def __init__(
        self,
        folder: PersonaFolder,
        problem: FolderProblem,
        changed: Callable[[PersonaFolder, tuple[str, ...]], None],
        failed: Callable[[str], None],
    ) -> None:
        super().__init__(
            shown(problem.fix_label)
            if problem.fix_label
            else translate("PersonaCommands", "Fix {name}").format(name=problem.path.name)
        )
        self._folder = folder
        self._problem = problem
        self._changed = changed
        self._failed = failed
        self._done: FolderFix | None = None

    def redo(self) -> None:
        try:
            self._done = self._folder.fix_folder_problem(self._problem)
        except StoreError as exc:
            self.setObsolete(True)
            self._failed(shown(exc))
            return
        self._changed(self._folder, (str(self._done.path), str(self._done.moved_to)))

    def undo(self) -> None:
        if self._done is None:
            return
        try:
            self._folder.undo_folder_fix(self._done)
        except StoreError as exc:
            self.setObsolete(True)
            self._failed(shown(exc))
            return
        self._changed(self._folder, (str(self._done.path), str(self._done.moved_to)))
