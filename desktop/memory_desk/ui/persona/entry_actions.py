"""The persona page's actions on an entry: New, Save, Revert, Rename, Forget (and Ctrl+Z
bringing it back), the fixes the editor and the folder banner offer, and the folder's export.

Every write goes through the core's ``PersonaFolder``; after each one the page updates the
entries it touched (``FolderReads.apply_change``) and says the path through ``file_written``,
so that live reload does not take its echo for the agent's. Nothing writes while the folder's
listing is being read: the buttons are off and the editor is read-only.

Each button has an action of the window's Entry menu holding its keys and pressing it, so
both follow the button's enabled state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Qt, SignalInstance
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton

from memory_desk.core import ConflictError, StoreError
from memory_desk.core.persona import (
    NAME_RE,
    FolderProblem,
    PersonaEntry,
    PersonaFolder,
    suggest_name,
    validate_name,
)
from memory_desk.ui.export import start_persona_export
from memory_desk.ui.i18n import shown, translate
from memory_desk.ui.pages import make_action
from memory_desk.ui.persona.commands import FolderFixCommand, ForgetCommand, RenameCommand
from memory_desk.ui.persona.conflict import DELETED
from memory_desk.ui.persona.editor import EntryEditor
from memory_desk.ui.persona.entry_list import EntryListView
from memory_desk.ui.persona.folder_reads import FolderReads
from memory_desk.ui.persona.model import PersonaListModel
from memory_desk.ui.persona.open_entry import OpenEntry
from memory_desk.ui.persona.rename import ask_new_name

_KEYS = QKeySequence.SequenceFormat.PortableText  # key names, never translated


class ActionPageParts(Protocol):
    """What the actions use of the persona page (a QWidget, their parent): its filter, list,
    editor and button row, and its signals."""

    filter: QLineEdit
    list: EntryListView
    model: PersonaListModel
    editor: EntryEditor
    button_row: QHBoxLayout
    error_raised: SignalInstance
    info_raised: SignalInstance
    file_written: SignalInstance


class EntryActions(QObject):
    """The entry's buttons and the Entry menu's actions, and the writes behind them (module
    docstring). ``buttons`` and ``actions`` are keyed by object name (``personaSave``...)."""

    def __init__(
        self,
        page: ActionPageParts,
        entry: OpenEntry,
        reads: FolderReads,
        undo_stack: QUndoStack,
    ) -> None:
        super().__init__(page)
        self._page = page
        self._entry = entry
        self._reads = reads
        self._undo_stack = undo_stack
        self.buttons: dict[str, QPushButton] = {}
        self.actions: dict[str, QAction] = {}
        self.group = QActionGroup(page)
        self.group.setExclusionPolicy(QActionGroup.ExclusionPolicy.None_)
        self._build()
        entry.state_changed.connect(self.update)
        page.editor.dirty_changed.connect(self.update)
        page.editor.problems.fix_requested.connect(self._on_fix_requested)

    def _writable(self) -> PersonaFolder | None:
        """The folder, when the page may write it (it is shown and its listing is in)."""
        return None if self._reads.is_listing() else self._reads.folder

    # -- building ---------------------------------------------------------------------------------

    def _build(self) -> None:
        """The entry's buttons, each with a shortcut that presses it (so a disabled button's
        shortcut does nothing) and a tooltip naming the shortcut.

        Each tooltip is one whole sentence to translate, the keys a field in it (key names are
        not translated: Ctrl+S reads the same in both languages)."""
        page = self._page
        spec = (
            ("personaNew", translate("PersonaPage", "New"), QKeySequence.StandardKey.New,
             translate("PersonaPage", "New entry"),
             translate("PersonaPage", "New entry ({keys})"), self._on_new),
            ("personaSave", translate("PersonaPage", "Save"), QKeySequence.StandardKey.Save,
             translate("PersonaPage", "Save the entry"),
             translate("PersonaPage", "Save the entry ({keys})"), self.save),
            ("personaRevert", translate("PersonaPage", "Revert"), "Ctrl+R",
             translate("PersonaPage", "Drop unsaved edits"),
             translate("PersonaPage", "Drop unsaved edits ({keys})"), self._entry.revert),
            ("personaRename", translate("PersonaPage", "Rename…"), "F2",
             translate("PersonaPage", "Rename the entry's file"),
             translate("PersonaPage", "Rename the entry's file ({keys})"), self._on_rename),
        )  # fmt: skip
        for name, text, keys, what, tip, slot in spec:
            button = self._button(name, text, slot)
            # The action holds the keys (Qt shows them in the Entry menu) and presses the
            # button, so both follow the button's enabled state.
            action = self._entry_action(name, button, keys, what)
            button.setToolTip(tip.format(keys=action.shortcut().toString(_KEYS)))
        forget = self._button("personaForget", translate("PersonaPage", "Forget"), self._forget)
        forget.setToolTip(
            translate("PersonaPage", "Forget the entry; Ctrl+Z undoes it (Delete in the list)")
        )
        self._entry_action("personaForget", forget, None, forget.toolTip())
        export = QAction(translate("PersonaPage", "E&xport folder…"), page)
        export.setObjectName("exportPersonaAction")
        export.setStatusTip(
            translate(
                "PersonaPage", "Save every entry file of the folder, as it is on disk, in a zip"
            )
        )
        export.triggered.connect(self._on_export)
        self.group.addAction(export)
        self.actions["exportPersona"] = export
        page.button_row.addStretch(1)
        forget_key = QShortcut(QKeySequence.StandardKey.Delete, page.list)
        forget_key.setContext(Qt.ShortcutContext.WidgetShortcut)
        forget_key.activated.connect(self.buttons["personaForget"].click)
        forget_key.setWhatsThis(translate("PersonaPage", "Forget the entry (in the list)"))
        find = QShortcut(QKeySequence.StandardKey.Find, page)
        find.activated.connect(page.filter.setFocus)
        find.setWhatsThis(translate("PersonaPage", "Filter entries"))
        focus_list = QShortcut(QKeySequence("Ctrl+L"), page)
        focus_list.activated.connect(page.list.setFocus)
        focus_list.setWhatsThis(translate("PersonaPage", "Go to the entry list"))

    def _button(self, name: str, text: str, slot) -> QPushButton:
        button = QPushButton(text, self._page)
        button.setObjectName(name)
        button.clicked.connect(lambda _checked=False: slot())
        self._page.button_row.addWidget(button)
        self.buttons[name] = button
        return button

    def _entry_action(self, name: str, button: QPushButton, keys, what: str) -> QAction:
        """The button as an action of the Entry menu, holding its keys (None: none; the list's
        Delete is a key of the list alone). Through ``group`` (the page's ``page_actions``) it
        is off while another page is current."""
        action = make_action(
            self._page, f"{name}Action", button.text(), keys, lambda _=False: button.click(), what
        )
        action.setWhatsThis(what)  # Help ▸ Keyboard shortcuts lists it
        self.group.addAction(action)
        self.actions[name] = action
        return action

    def update(self, *_args: object) -> None:
        """Enable what can act now; nothing that writes while the listing is being read."""
        editor, entry_state = self._page.editor, self._entry
        listing = self._reads.is_listing()
        has_folder = self._reads.folder is not None and not listing
        if editor.is_held() != listing:
            editor.hold(listing)
        entry = editor.entry
        dirty = editor.is_dirty()
        self.buttons["personaNew"].setEnabled(has_folder)
        self.buttons["personaSave"].setEnabled(
            has_folder
            and entry_state.has_unsaved()
            and (editor.is_new or bool(entry and entry.editable))
        )
        self.buttons["personaRevert"].setEnabled(dirty or editor.is_new)
        conflict = entry_state.conflict
        on_disk = entry is not None and not (conflict and conflict.kind == DELETED)
        # a link is renamed where its file is (the core refuses; the button says so first)
        self.buttons["personaRename"].setEnabled(
            has_folder and on_disk and entry.link_target is None
        )
        self.buttons["personaForget"].setEnabled(has_folder and on_disk)
        for name, action in self.actions.items():
            action.setEnabled(
                self.buttons[name].isEnabled() if name in self.buttons else has_folder
            )
        entry_state.sync_unsaved()

    # -- writing ----------------------------------------------------------------------------------

    def save(self) -> bool:
        """Save the open entry, or create the new one (``PersonaPage.save``)."""
        folder, editor, open_entry = self._writable(), self._page.editor, self._entry
        if folder is None:
            return False
        if editor.is_new:
            return self._create(folder)
        entry = editor.entry
        if entry is None or not entry.editable or not open_entry.has_unsaved():
            return entry is not None and entry.editable
        conflict = open_entry.conflict
        force = (
            conflict is not None
            and conflict.kept
            and open_entry.disk_sha(entry.name) == conflict.theirs
        )
        try:
            saved = folder.save(editor.edited_entry(), force=force)
        except ConflictError as exc:
            open_entry.show_conflict(
                translate("PersonaPage", "{problem} Decide what to keep.").format(
                    problem=shown(exc)
                )
            )
            return False
        except StoreError as exc:
            self._page.error_raised.emit(shown(exc))
            return False
        self._after_write(saved, translate("PersonaPage", "Saved {name}").format(name=saved.name))
        return True

    def _create(self, folder: PersonaFolder) -> bool:
        editor = self._page.editor
        problem = editor.name_problem()
        if problem:
            self._page.error_raised.emit(problem)
            editor.name.setFocus()
            return False
        values = editor.values()
        try:
            created = folder.create(
                name=values["name"],
                type=values["type"],
                description=values["description"],
                body=values["body"],
            )
        except StoreError as exc:
            self._page.error_raised.emit(shown(exc))
            return False
        self._after_write(
            created, translate("PersonaPage", "Created {name}").format(name=created.name)
        )
        return True

    def _after_write(self, entry: PersonaEntry, notice: str) -> None:
        """Tell the watcher, show ``entry`` as written, put it in the list (the folder is not
        read again: only this entry changed), and select it."""
        self._page.file_written.emit(str(entry.link_target or entry.path))
        self._entry.written(entry)
        self._reads.apply_change(written=(entry,))
        self._entry.select(entry.name, reveal=True)
        self._page.info_raised.emit(notice)

    def _on_new(self) -> None:
        if self._writable() is None or not self._entry.settle_unsaved():
            return
        self._entry.start_new()

    def _on_export(self) -> None:
        """Zip the folder's entry files as they are on disk (unsaved edits are not in it)."""
        folder = self._writable()
        if folder is not None:
            start_persona_export(self._page, folder)

    def _on_fix_requested(self, fix_id: str) -> None:
        entry, folder = self._page.editor.entry, self._writable()
        if folder is None or entry is None or not self._entry.settle_unsaved():
            return
        if fix_id == "rename" or (fix_id == "set-name" and not NAME_RE.fullmatch(entry.name)):
            # a name the agent does not read never goes into a header: rename (undoable) to a
            # kebab-case name, which also writes the name: line
            self._rename(entry.name, suggest_name(entry.name, folder.names()))
            return
        try:
            fixed = folder.fix(entry, fix_id)
        except StoreError as exc:
            self._page.error_raised.emit(shown(exc))
            return
        self._after_write(fixed, translate("PersonaPage", "Fixed {name}").format(name=fixed.name))

    # -- undoable: rename, forget, the folder's fixes ---------------------------------------------

    def _on_rename(self) -> None:
        entry = self._page.editor.entry
        if self._writable() is None or entry is None or not self._entry.settle_unsaved():
            return
        suggestion = entry.name if validate_name(entry.name) is None else suggest_name(entry.name)
        new_name = ask_new_name(entry.name, suggestion, self._page)
        if new_name:
            self._rename(entry.name, new_name)

    def _rename(self, old_name: str, new_name: str) -> None:
        command = RenameCommand(
            self._reads.folder, old_name, new_name, self._on_renamed, self._fail
        )
        self._undo_stack.push(command)

    def _on_renamed(self, folder: PersonaFolder, before: str, after: str) -> None:
        """Keep the renamed entry open under its new name (edits included), then re-read."""
        page, open_entry = self._page, self._entry
        for name in (before, after):
            page.file_written.emit(str(folder.path / f"{name}.md"))
        if folder is not self._reads.folder:
            return
        open_entry.renamed(folder, before, after)
        self._reads.apply_change(names=(before, after))
        open_entry.select(open_entry.current, reveal=True)
        page.info_raised.emit(
            translate("PersonaPage", "Renamed {old} to {new}").format(old=before, new=after)
        )

    def _forget(self) -> None:
        name, folder, open_entry = self._entry.current, self._writable(), self._entry
        if folder is None or name is None or self._page.editor.is_new:
            return
        if not open_entry.settle_unsaved():
            return
        model = self._page.model
        row = model.row_of(name)
        open_entry.open(None)  # the file goes on purpose: no "deleted on disk" banner
        self._undo_stack.push(ForgetCommand(folder, name, self._on_undoable_change, self._fail))
        if model.entry(name) is not None:  # the forget failed (and said why): keep it open
            open_entry.open(name)
            open_entry.select(name)
            return
        open_entry.open_neighbour(row)
        self._page.info_raised.emit(
            translate("PersonaPage", "Forgot {name}. Undo (Ctrl+Z) brings it back.").format(
                name=name
            )
        )

    def _on_undoable_change(self, folder: PersonaFolder, name: str) -> None:
        """A forget or its undo moved entry ``name`` out of or back into ``folder``. An entry
        brought back is chosen and open again, as before its forget (unless the form holds
        edits of another entry: they stay)."""
        self._page.file_written.emit(str(folder.path / f"{name}.md"))
        if folder is not self._reads.folder:
            return
        self._reads.apply_change(names=(name,))
        if self._page.model.entry(name) is not None and not self._entry.has_unsaved():
            self._entry.open(name)
            self._entry.select(name, reveal=True)

    def on_folder_fix_requested(self, problem: FolderProblem) -> None:
        """Rename what stops the agent reading its folder; Ctrl+Z gives it its name back."""
        folder = self._writable()
        if folder is None:
            return
        command = FolderFixCommand(folder, problem, self._on_folder_fixed, self._fail)
        self._undo_stack.push(command)

    def _on_folder_fixed(self, folder: PersonaFolder, paths: tuple[str, ...]) -> None:
        for path in paths:
            self._page.file_written.emit(path)
        if folder is self._reads.folder:
            self._reads.apply_change(file_names=[Path(path).name for path in paths])
            self._page.info_raised.emit(
                translate(
                    "PersonaPage", "The agent still cannot read its folder: see above the list"
                )
                if self._reads.problems
                else translate("PersonaPage", "The agent can read its folder again")
            )

    def _fail(self, message: str) -> None:
        self._page.error_raised.emit(message)
