"""The persona page: review, correct, create, rename and forget an agent's memory of the person.

Left, the entries in the agent's order (with where its prompt stops listing them); right, the
editor above the rendered entry and exactly what the agent's prompt will say (stacked, so the
list keeps the width its descriptions need). Every write goes through the core's
``PersonaFolder``; after each one the page updates the entries it touched.

Unsaved edits are never lost by accident: anything that would leave the open entry (another
entry, New, Forget, another folder, closing) first asks Save / Discard / Cancel, and a save that
meets a newer file shows the conflict banner instead of writing. They are also in sight: the
entry's row is marked in the list, and ``unsaved_changed`` tells the window (its title bar).

Live reload: the window calls :meth:`PersonaPage.reload` when another program (the agent) wrote
the folder, and hears about the page's own writes through ``file_written`` so that their echo
is not taken for the agent's. A reload reads only the files that changed (the folder keeps its
listing); the page's own writes update only the entries they touched, without listing the
folder again. The open entry follows the disk quietly while it holds no edits;
with edits, or when its file is deleted, the conflict banner asks. The agent rewrites files in
place, so a read can catch one half-written: such a read is not shown, the folder is read again
a moment later.

Large folders (``ui.persona.listing``): a folder of more than ``SMALL_FOLDER`` entry files is
listed on a worker; the newest entries are shown as soon as they are read, then all of them.
Until every entry is in, nothing writes (the entry's actions are off, the editor read-only, and
the page says why above the list), so no edit is made against a partial listing. A reload
looks at the files' stat keys on a worker and reads again only the files that changed; each
change of the page's own (a save, a rename, a forget...) patches the rows, counts and agent's
view of the entries it touched, never the whole list.

Large entries: the folder's listing holds only the start of a file over ``LARGE_ENTRY_BYTES``;
the editor shows that start read-only with "Open anyway", which reads the whole file on a
background thread (only the latest answer, for the entry still open, is shown) and puts it in
the editor slice by slice. Nothing on the window's thread grows with the size of one entry.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter, indexOf, is_
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QKeySequence,
    QShortcut,
    QShowEvent,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core import ConflictError, StoreError
from memory_desk.core.persona import (
    NAME_RE,
    PROMPT_LIMIT,
    FolderProblem,
    PersonaEntry,
    PersonaFolder,
    is_start_only,
    suggest_name,
    validate_name,
)
from memory_desk.ui.export import start_persona_export
from memory_desk.ui.i18n import number, plural, shown, translate
from memory_desk.ui.pages import make_action
from memory_desk.ui.persona.agent_view import AgentView
from memory_desk.ui.persona.commands import FolderFixCommand, ForgetCommand, RenameCommand
from memory_desk.ui.persona.conflict import CHANGED, DELETED, DiskConflict, compare_dialog
from memory_desk.ui.persona.editor import EntryEditor, editor_text
from memory_desk.ui.persona.entry_list import EntryListView
from memory_desk.ui.persona.folder_banner import FolderProblemsBanner
from memory_desk.ui.persona.listing import (
    SMALL_FOLDER,
    FirstScreen,
    Listed,
    StatKeys,
    half_written,
    held_as_shown,
    is_small,
    list_folder,
    looks_half_written,  # noqa: F401 (tests import it from here)
    scan_changes,
)
from memory_desk.ui.persona.model import ENTRY_ROLE, PersonaListModel, made_haystacks
from memory_desk.ui.persona.preview import PREVIEW_CHARS, SafePreview
from memory_desk.ui.persona.rename import ask_new_name
from memory_desk.ui.plain import as_shown
from memory_desk.ui.widgets.conflict import CompareDialog
from memory_desk.ui.workers.background import BackgroundCall

PREVIEW_DELAY_MS = 150
MAX_FILTER_DELAY_MS = 100  # the filter's wait for a pause in typing: what it costs, at most this
FRAME_MS = 16  # a filter that takes less follows every key at once (the keys already queued)
# A read that caught a file half-written (listing.half_written) is held back and the folder read
# again this much later, at most this many times in a row (a writer that never stops must not
# freeze the page).
RECHECK_MS = 250
MAX_RECHECKS = 6
# A big listing's filter texts are made on a worker this long after it is shown (at 20,000
# entries they take 30 ms of the interpreter's lock, which the window needs to show the list).
HAYSTACKS_AFTER_MS = 250

_entry_name = attrgetter("name")
_agent_visible = attrgetter("agent_visible")
_problems = attrgetter("problems")
Answer = QMessageBox.StandardButton
_KEYS = QKeySequence.SequenceFormat.PortableText  # key names, never translated


class PersonaPage(QWidget):
    """The page for one agent memory folder at a time.

    Signals:
        status_changed(str): "24 entries · 50 in the prompt · 3 with problems"
        error_raised(str): a message for the person (a failed write, a conflict...)
        info_raised(str): a passing notice ("Saved no-fish-puns")
        file_written(str): the page just wrote or removed this path (so live reload can
            tell its own writes from the agent's)
        unsaved_changed(bool): the page started or stopped holding edits that leaving would
            lose (the window marks its title bar)
        filter_applied(str): the list now shows the entries matching this filter text (the
            filter waits for a pause in the typing)
        listed(): the folder's listing is done (every entry in, or it failed)
    """

    status_changed = Signal(str)
    error_raised = Signal(str)
    info_raised = Signal(str)
    file_written = Signal(str)
    unsaved_changed = Signal(bool)
    filter_applied = Signal(str)
    listed = Signal()

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personaPage")
        self._undo_stack = undo_stack
        self.undo_stack = undo_stack  # this page's own history (the window's Undo acts on it)
        self._folder: PersonaFolder | None = None
        self._listing = False  # the folder's first listing is still being read on a worker
        self._in_front = False  # the page the person sees (see set_current)
        # the folder's files as last scanned (or what makes them: a listing's LazyKeys)
        self._keys: StatKeys | Callable[[], StatKeys] | None = None
        self._reload_pending = False  # the agent wrote while the listing was read
        self._pending_names: set[str] = set()  # changed by undo while the listing was read
        self._unshown: set[str] = set()  # re-read by the folder, held back (half-written)
        self._counts = Counts()
        self._prompt_head: list[PersonaEntry] = []  # the entries the agent's view was built from
        self._folder_problems: list[FolderProblem] = []
        self._current: str | None = None
        self._syncing = False
        self._status = ""
        self._compare: CompareDialog | None = None
        self._conflict: DiskConflict | None = None
        self._rechecks = 0
        self._unsaved = False  # as last told through unsaved_changed
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self._on_preview_due)
        self._recheck_timer = QTimer(self)
        self._recheck_timer.setSingleShot(True)
        self._recheck_timer.setInterval(RECHECK_MS)
        self._recheck_timer.timeout.connect(self._on_recheck_due)
        self._filter_cost_ms = 0.0  # what the last filter took: the next one waits as long
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.timeout.connect(self._on_filter_due)
        self._whole_reader = BackgroundCall(self)  # "Open anyway": the whole file, off the thread
        self._lister = BackgroundCall(self)  # the folder's listing, off the thread
        self._lister.interim.connect(self._on_first_screen)
        self._lister.finished.connect(self._on_listed)
        self._lister.failed.connect(self._on_listing_failed)
        # The filter's texts of a big listing, made on a worker once the listing is shown.
        self._hay_maker = BackgroundCall(self)
        self._hay_maker.finished.connect(self._on_haystacks)
        self._hay_timer = QTimer(self, singleShot=True, interval=HAYSTACKS_AFTER_MS)
        self._hay_timer.timeout.connect(self._make_haystacks)
        self._hays_for: list[PersonaEntry] | None = None
        self._scanner = BackgroundCall(self)  # the folder's stat keys, for a reload
        self._scanner.finished.connect(self._on_scanned)
        self._scanner.failed.connect(self._on_scan_failed)
        self._whole_reader.finished.connect(self._on_whole_read)
        self._whole_reader.failed.connect(self._on_whole_failed)
        self._build()
        self._update_actions()

    # -- building ---------------------------------------------------------------------------------

    def _build(self) -> None:
        self.model = PersonaListModel(self)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("personaFilter")
        self.filter.setPlaceholderText(translate("PersonaPage", "Filter entries (Ctrl+F)"))
        self.filter.setClearButtonEnabled(True)
        self.filter.setToolTip(
            translate(
                "PersonaPage", "Show only entries whose name, type, description or body match"
            )
        )
        self.filter.setAccessibleName(translate("PersonaPage", "Filter entries"))
        self.filter.setAccessibleDescription(
            translate(
                "PersonaPage", "Show only entries whose name, type, description or body match"
            )
        )
        self.list = EntryListView(self)
        self.list.setModel(self.model)
        self.editor = EntryEditor(self)
        self.preview = SafePreview(self)
        self.agent_panel = AgentView(self)
        self.agent_view = self.agent_panel.text
        self.folder_banner = FolderProblemsBanner(self)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("personaTabs")
        self.tabs.addTab(self.preview, translate("PersonaPage", "&Preview"))
        self.tabs.addTab(self.agent_panel, translate("PersonaPage", "What the &agent sees"))
        self.tabs.tabBar().setAccessibleName(translate("PersonaPage", "Preview or agent's view"))

        self.button_row = QHBoxLayout()
        self._build_actions()
        self._set_tab_order()

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.filter)
        self.reading = QLabel(self)
        self.reading.setObjectName("personaReading")
        self.reading.setWordWrap(True)
        self.reading.hide()
        left_layout.addWidget(self.reading)
        left_layout.addWidget(self.list, 1)
        editing = QWidget(self)
        editing_layout = QVBoxLayout(editing)
        editing_layout.setContentsMargins(0, 0, 0, 0)
        editing_layout.addLayout(self.button_row)
        editing_layout.addWidget(self.editor, 1)
        self.right_splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.right_splitter.setObjectName("personaEditorSplitter")
        self.right_splitter.addWidget(editing)
        self.right_splitter.addWidget(self.tabs)
        self.right_splitter.setStretchFactor(0, 3)
        self.right_splitter.setStretchFactor(1, 2)
        self.right_splitter.setSizes([480, 260])
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("personaSplitter")
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.right_splitter)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([560, 480])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.folder_banner)
        layout.addWidget(self.splitter, 1)

        self.filter.textChanged.connect(self._on_filter_changed)
        self.list.selectionModel().currentChanged.connect(self._on_current_changed)
        self.editor.dirty_changed.connect(self._update_actions)
        self.editor.body_changed.connect(self._preview_timer.start)
        self.editor.problems.fix_requested.connect(self._on_fix_requested)
        self.editor.banner.compare_requested.connect(self._on_compare)
        self.editor.banner.keep_mine_requested.connect(self._on_keep_mine)
        self.editor.banner.reload_requested.connect(self._on_reload_theirs)
        self.editor.banner.keep_requested.connect(self._on_keep_mine)
        self.editor.banner.close_requested.connect(self._on_close_deleted)
        self.editor.open_whole_requested.connect(self._on_open_whole)
        self.preview.anchorClicked.connect(self._on_link_clicked)
        self.folder_banner.fix_requested.connect(self._on_folder_fix_requested)

    def _build_actions(self) -> None:
        """The entry's buttons, each with a shortcut that presses it (so a disabled button's
        shortcut does nothing) and a tooltip naming the shortcut.

        Each tooltip is one whole sentence to translate, the keys a field in it (key names are
        not translated: Ctrl+S reads the same in both languages)."""
        spec = (
            ("personaNew", translate("PersonaPage", "New"), QKeySequence.StandardKey.New,
             translate("PersonaPage", "New entry"),
             translate("PersonaPage", "New entry ({keys})"), self._on_new),
            ("personaSave", translate("PersonaPage", "Save"), QKeySequence.StandardKey.Save,
             translate("PersonaPage", "Save the entry"),
             translate("PersonaPage", "Save the entry ({keys})"), self.save),
            ("personaRevert", translate("PersonaPage", "Revert"), "Ctrl+R",
             translate("PersonaPage", "Drop unsaved edits"),
             translate("PersonaPage", "Drop unsaved edits ({keys})"), self._on_revert),
            ("personaRename", translate("PersonaPage", "Rename…"), "F2",
             translate("PersonaPage", "Rename the entry's file"),
             translate("PersonaPage", "Rename the entry's file ({keys})"), self._on_rename),
        )  # fmt: skip
        self.buttons: dict[str, QPushButton] = {}
        self.entry_actions: dict[str, QAction] = {}
        self.page_actions = QActionGroup(self)
        self.page_actions.setExclusionPolicy(QActionGroup.ExclusionPolicy.None_)
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
        export = QAction(translate("PersonaPage", "E&xport folder…"), self)
        export.setObjectName("exportPersonaAction")
        export.setStatusTip(
            translate(
                "PersonaPage", "Save every entry file of the folder, as it is on disk, in a zip"
            )
        )
        export.triggered.connect(self._on_export)
        self.page_actions.addAction(export)
        self.entry_actions["exportPersona"] = export
        self.button_row.addStretch(1)
        forget_key = QShortcut(QKeySequence.StandardKey.Delete, self.list)
        forget_key.setContext(Qt.ShortcutContext.WidgetShortcut)
        forget_key.activated.connect(self.buttons["personaForget"].click)
        forget_key.setWhatsThis(translate("PersonaPage", "Forget the entry (in the list)"))
        find = QShortcut(QKeySequence.StandardKey.Find, self)
        find.activated.connect(self.filter.setFocus)
        find.setWhatsThis(translate("PersonaPage", "Filter entries"))
        focus_list = QShortcut(QKeySequence("Ctrl+L"), self)
        focus_list.activated.connect(self.list.setFocus)
        focus_list.setWhatsThis(translate("PersonaPage", "Go to the entry list"))

    def _button(self, name: str, text: str, slot) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.clicked.connect(lambda _checked=False: slot())
        self.button_row.addWidget(button)
        self.buttons[name] = button
        return button

    def _entry_action(self, name: str, button: QPushButton, keys, what: str) -> QAction:
        """The button as an action of the Entry menu, holding its keys (None: none; the list's
        Delete is a key of the list alone). Through ``page_actions`` it is off while another
        page is current."""
        action = make_action(
            self, f"{name}Action", button.text(), keys, lambda _=False: button.click(), what
        )
        action.setWhatsThis(what)  # Help ▸ Keyboard shortcuts lists it
        self.page_actions.addAction(action)
        self.entry_actions[name] = action
        return action

    def set_current(self, current: bool) -> None:
        """The window calls this when the page comes to the front (True) or leaves it: the
        Entry menu acts only on the page the person sees."""
        self.page_actions.setEnabled(current)
        self._in_front = current

    def menu_actions(self) -> list[QAction | None]:
        """The window's Entry menu: the entry's actions, then the folder's export."""
        return list(self.entry_actions.values())

    def may_close(self) -> bool:
        """Unsaved edits ask first (see :meth:`maybe_close`)."""
        return self.maybe_close()

    def holds_undo(self) -> bool:
        """True while Undo and Redo must wait: the folder's listing is being read on a
        worker with the folder object the page's commands write through. The window leaves
        the page's undo stack inactive meanwhile; the page makes it active once all are in."""
        return self._listing

    def _hold_undo(self, hold: bool) -> None:
        if hold and self._undo_stack.isActive():
            self._undo_stack.setActive(False)
        elif not hold and self._in_front and not self._undo_stack.isActive():
            self._undo_stack.setActive(True)

    def _set_tab_order(self) -> None:
        """Tab follows the page as it reads: the filter, the list, the entry's buttons above
        the editor, then its fields (the buttons were built after the editor, so Qt would put
        them after the body, which keeps Tab for itself)."""
        chain = [self.filter, self.list, *self.buttons.values(), self.editor.name]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    # -- the page contract ------------------------------------------------------------------------

    def folder(self) -> PersonaFolder | None:
        """The folder shown (None when none is)."""
        return self._folder

    def current_name(self) -> str | None:
        """The name of the entry open in the editor (None when empty or creating one)."""
        return self._current

    def set_folder(self, folder: PersonaFolder | None) -> bool:
        """Show ``folder``; False (nothing changed) if the person cancelled leaving their edits."""
        if folder is self._folder:
            return True
        if not self._settle_unsaved():
            return False
        self._folder = folder
        self._current = None
        self._conflict = None
        self._recheck_timer.stop()
        self.editor.load(None)
        self.preview.set_folder(folder.path if folder else None)
        self._start_listing()
        self._update_actions()
        return True

    def is_listing(self) -> bool:
        """True while the folder's listing is still being read (nothing can be edited)."""
        return self._listing

    def is_reading(self) -> bool:
        """True while the folder is being listed, or looked at again for a reload."""
        return self._listing or self._scanner.is_busy() or self._recheck_timer.isActive()

    def reload(self) -> None:
        """Re-read the folder; the open entry, the selection and any unsaved text stay.

        An open entry without edits follows the disk (and says so); one with edits that changed
        on disk, or whose file was deleted, gets the conflict banner. A read that caught a file
        half-written is not shown: the folder is read again shortly.
        """
        if self._folder is None:
            return
        if self._listing:
            self._reload_pending = True  # (once the listing is in)
            return
        if not self._recheck_timer.isActive():
            self._rechecks = 0  # (a writer still busy keeps counting against the cap)
        self._scan()

    def maybe_close(self) -> bool:
        """True if the page may go away: no unsaved edits, or the person saved or dropped them."""
        return self._settle_unsaved()

    def shutdown(self) -> None:
        self._preview_timer.stop()
        self._filter_timer.stop()
        self._recheck_timer.stop()
        self._hay_timer.stop()
        self._whole_reader.stop()
        self._lister.stop()
        self._scanner.stop()
        self._hay_maker.stop()
        self.editor.hide_note()
        if self._compare is not None:
            self._compare.close()

    def has_unsaved_edits(self) -> bool:
        """True while the page holds edits that leaving would lose (what ``unsaved_changed``
        last said)."""
        return self._has_unsaved()

    def is_loading_large(self) -> bool:
        """True while "Open anyway" is reading a file or the editor is still taking it in."""
        return self._whole_reader.is_busy() or self.editor.is_loading()

    def entries(self) -> list[PersonaEntry] | None:
        """The folder's entries as the page last read them; None while the listing is still
        being read (the entries shown are not all of them)."""
        return None if self._listing else self.model.entries()

    def counts(self) -> tuple[int, int] | None:
        """(entries, entries with a problem) as the page last read them, kept change by
        change (the sidebar shows them: no pass over 20,000 entries at each save); None while
        the listing is still being read."""
        return None if self._listing else (self._counts.entries, self._counts.problems)

    def status_text(self) -> str:
        """The counts last sent through ``status_changed``."""
        return self._status

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        """Say the counts again when the page comes to the front: the window shows only the
        status of the page in front, and the counts may have been sent while it was behind."""
        super().showEvent(event)
        self.status_changed.emit(self._status)

    def show_conflict(self, message: str, *, save_pending: bool = True) -> None:
        """Show the conflict banner for the open entry as the disk is now: Compare / Keep mine /
        Reload theirs when the file differs, Keep / Close when it is gone.

        With ``save_pending`` (the banner answers a save) Keep mine saves at once; otherwise it
        only lets the next save overwrite the file as it is now.
        """
        name = self._current
        if self._folder is None or name is None:
            return
        theirs = self._disk_sha(name)
        kind = DELETED if theirs is None else CHANGED
        self._conflict = DiskConflict(kind, theirs, save_pending=save_pending)
        if kind == DELETED:
            self.editor.banner.show_gone(message)
        else:
            self.editor.banner.show_changed(message)
        self._update_actions()

    # -- reading the folder -----------------------------------------------------------------------

    def _sync_unsaved(self) -> None:
        """Mark the open entry's row while it holds unsaved edits, and tell the window when
        that state changes."""
        unsaved = self._has_unsaved()
        self.model.set_unsaved(self._current if unsaved and not self.editor.is_new else None)
        if unsaved != self._unsaved:
            self._unsaved = unsaved
            self.unsaved_changed.emit(unsaved)

    def _start_listing(self) -> None:
        """List the folder: at once when it is small, else on a worker, showing the newest
        entries first; until every entry is in, nothing can be edited (and the page says so)."""
        self._lister.cancel()
        self._scanner.cancel()
        self._recheck_timer.stop()
        self._hay_timer.stop()
        self._hay_maker.cancel()
        self._hays_for = None
        self._keys = None
        self._reload_pending = False
        self._pending_names.clear()
        self._unshown.clear()
        folder = self._folder
        if folder is None:
            self._listing = False
            self._folder_problems = []
            self._show([])
            return
        if is_small(folder.path):
            try:
                listed = list_folder(folder, None)
            except StoreError as exc:
                self.error_raised.emit(shown(exc))
                listed = Listed([], [], dict)
            self._listing = True
            self._on_listed(self._lister.generation, listed)
            return
        self._listing = True
        self._hold_undo(True)
        self._set_reading(None)
        self._folder_problems = []
        self._show([])
        self._lister.submit(lambda report: list_folder(folder, report), interim=True)

    def _set_reading(self, screen: FirstScreen | None) -> None:
        """Say above the list (and in the status bar) that the folder is still being read."""
        if screen is None:
            text = translate(
                "PersonaPage", "Reading the folder's entries… Editing starts once all are read."
            )
        else:
            text = plural(
                screen.total,
                translate(
                    "PersonaPage",
                    "Reading {n} entry… The newest are shown; editing starts once all are read.",
                ),
                translate(
                    "PersonaPage",
                    "Reading {n} entries… The newest are shown; editing starts once all are read.",
                ),
            )
        self.reading.setText(text)
        self.reading.show()
        self._set_status(text)

    def _on_first_screen(self, _generation: int, screen: object) -> None:
        """The newest entries, read first: shown (read-only) while the others are read."""
        if not self._listing or not isinstance(screen, FirstScreen):
            return
        self._set_reading(screen)
        self._syncing = True
        try:
            self.model.set_entries(screen.entries)
        finally:
            self._syncing = False
        if self._current is None and self.model.rowCount():
            self._open_row(0)

    def _on_listed(self, _generation: int, listed: object) -> None:
        """Every entry is in: show them all, and let the person edit. An entry read
        half-written is held back, as a reload holds it (:meth:`_on_scanned`): it comes in once
        read whole."""
        if not self._listing or not isinstance(listed, Listed):
            return
        self._listing = False
        self._hold_undo(False)
        self.reading.hide()
        self._keys = listed.stat_keys
        self._folder_problems = listed.problems
        held, entries = listed.held, listed.entries
        if held:
            entries = [e for e in entries if e.name not in held]
            self._unshown.update(held)  # (the folder holds them; the list does not yet)
            self._rechecks = 1
            self._recheck_timer.start()
        self._show(entries)
        if len(entries) > SMALL_FOLDER:  # (a small one's are made when first needed)
            self._hays_for = entries
            self._hay_timer.start()
        if self._current is None and self.model.rowCount():
            self._open_row(0)
        elif self._current is not None and self._current not in held:
            self._open(self._current)  # from the final listing, editable now
            self._select(self._current)
        if self._pending_names:
            names, self._pending_names = tuple(self._pending_names), set()
            self._apply_change(names=names)
        if self._reload_pending or listed.unsure:
            self._reload_pending = False
            self.reload()
        self.listed.emit()

    def _make_haystacks(self) -> None:
        entries, self._hays_for = self._hays_for, None
        if entries is not None:
            self._hay_maker.submit(lambda: (entries, made_haystacks(entries)))

    def _on_haystacks(self, _generation: int, made: object) -> None:
        """The filter's texts of the listing shown: the model takes them if it still shows
        that listing as it was (else it makes its own when the filter first needs them)."""
        entries, hays = made  # type: ignore[misc]
        self.model.offer_haystacks(entries, hays)

    def _on_listing_failed(self, _generation: int, message: str) -> None:
        self._listing = False
        self._hold_undo(False)
        self.reading.hide()
        self.error_raised.emit(message)
        self._show([])
        self.listed.emit()

    def _apply_change(
        self,
        *,
        names: tuple[str, ...] = (),
        written: tuple[PersonaEntry, ...] = (),
        file_names: list[str] | None = None,
    ) -> None:
        """Bring the page up to date after a change to these entries only: the folder is not
        listed again, and only their files are looked at (``names`` read again, ``written``
        taken as written; ``file_names`` for the folder's problems, by default the entries'
        files). The list, the counts and the agent's view are patched, not made again. The
        entries held back as half-written are read again, and stay held back if still so."""
        if self._folder is None:
            return
        if self._listing:  # (an undo of this folder's change, while it is listed)
            self._pending_names.update(names, (e.name for e in written))
            return
        unshown = self._unshown - {*names, *(e.name for e in written)}
        touched = (*names, *unshown)
        self._unshown.clear()
        try:
            listing = self._folder.refresh(touched, written)
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return
        held = half_written(_listed_entry(listing, name) for name in unshown)
        if held:
            self._unshown.update(held)
            touched = tuple(name for name in touched if name not in held)
            listing = held_as_shown(listing, held, self.model.entry)
            self._recheck_timer.start()
        if file_names is None:
            file_names = [f"{name}.md" for name in (*touched, *(e.name for e in written))]
        self._update_folder_problems(file_names)
        self._patch(listing, touched, written)

    def _update_folder_problems(self, file_names: list[str]) -> None:
        """The folder's problems, with those of ``file_names`` looked at again."""
        try:
            fresh = self._folder.problems(file_names)
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return
        touched = set(file_names)
        kept = [p for p in self._folder_problems if p.path.name not in touched]
        self._folder_problems = sorted([*kept, *fresh], key=lambda p: p.path.name)

    def _patch(
        self, listing: list[PersonaEntry], names: tuple[str, ...], written: tuple[PersonaEntry, ...]
    ) -> None:
        """Show the folder's new ``listing``, which differs from the one shown only in these
        entries: their rows, the counts and (when its part changed) the agent's view."""
        self.folder_banner.set_problems(self._folder_problems)
        self._syncing = True
        try:
            pairs = self.model.patch(listing, names, written)
        finally:
            self._syncing = False
        if pairs is None:
            self._counts = Counts.of(listing)
        else:
            for before, after in pairs:
                self._counts = self._counts.changed(before, after)
        self._after_rows_changed(listing)

    def _show(self, entries: list[PersonaEntry]) -> None:
        """Show these entries (the folder's whole listing) and what depends on them."""
        self.folder_banner.set_problems(self._folder_problems)
        self._syncing = True
        try:
            self.model.set_entries(entries)
        finally:
            self._syncing = False
        self._counts = Counts.of(entries)
        self._prompt_head = []
        self._after_rows_changed(entries)

    def _after_rows_changed(self, listing: list[PersonaEntry]) -> None:
        self._follow_disk()
        self._select(self._current)
        self._show_agent_view(listing)
        self._emit_status()
        self._update_actions()

    def _scan(self) -> None:
        """Look at the folder's files' stat keys (a reload reads what changed): on a worker,
        unless the folder is small."""
        path, before = self._folder.path, self._keys or {}
        if self._counts.entries > SMALL_FOLDER:
            self._scanner.submit(lambda: scan_changes(path, before))
            return
        self._scanner.cancel()  # (an answer still to come would be older than this one)
        try:
            scanned = scan_changes(path, before)  # a small folder: a few stat calls, at once
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return
        self._on_scanned(self._scanner.generation, scanned)

    def _on_scanned(self, _generation: int, scanned: object) -> None:
        """Read again only the files that changed since the last scan, and show them, unless
        one looks caught in the middle of a write.

        A read of a file that looks half-written (:func:`half_written`: the files held back
        before are read again too) holds the page as it was; the folder is scanned again after
        ``RECHECK_MS`` (and the file read again). Once the file is complete, or has held still
        long enough (a person may leave a file that way), the read is shown; after
        ``MAX_RECHECKS`` in a row, whatever it holds.
        """
        if self._folder is None or self._listing or not isinstance(scanned, tuple):
            return
        keys, changed = scanned
        names = tuple(n[:-3] for n in changed)
        if not changed and not self._unshown:
            self._recheck_timer.stop()
            return
        reread = (*names, *self._unshown)
        try:
            listing = self._folder.refresh(reread)
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return
        torn = half_written(_listed_entry(listing, name) for name in reread)
        if torn and self._rechecks < MAX_RECHECKS:
            self._rechecks += 1
            self._unshown.update(names)  # (the folder holds them; the list does not yet)
            self._recheck_timer.start()
            return
        self._recheck_timer.stop()
        self._keys = keys
        touched = (*names, *self._unshown)
        self._unshown.clear()
        self._update_folder_problems(list(changed))
        self._patch(listing, touched, ())

    def _on_scan_failed(self, _generation: int, message: str) -> None:
        self.error_raised.emit(message)

    def _on_recheck_due(self) -> None:
        if self._folder is not None and not self._listing:
            self._scan()

    def _follow_disk(self) -> None:
        """Bring the open entry up to date with what was just read, never dropping edits."""
        name, editor = self._current, self.editor
        if name is None or editor.entry is None:
            return
        fresh = self.model.entry(name)
        if fresh is None:
            self._on_open_entry_deleted(name)
        elif same_version(fresh, editor.entry):
            self._settle_conflict()
            # (a whole entry the person opened stays, not the listing's start of it)
            if fresh != editor.entry and is_start_only(fresh) == is_start_only(editor.entry):
                editor.adopt(fresh)
        elif editor.is_dirty():
            self._on_open_entry_changed(fresh)
        else:
            self._reload_quietly(fresh)

    def _on_open_entry_deleted(self, name: str) -> None:
        if self._conflict is not None and self._conflict.kind == DELETED:
            return  # already said (or the person chose to keep it)
        self._conflict = DiskConflict(DELETED, None)
        self.editor.banner.show_gone(
            translate(
                "PersonaPage",
                "{writer} deleted {name}. Keep it open (Save writes it back) or close it.",
            ).format(writer=self._writer(), name=name)
        )

    def _on_open_entry_changed(self, fresh: PersonaEntry) -> None:
        theirs = fresh.fingerprint.sha256
        conflict = self._conflict
        if conflict is not None and conflict.kind == CHANGED and conflict.theirs == theirs:
            return  # this version was already shown, or answered with Keep mine
        self._conflict = DiskConflict(CHANGED, theirs)
        self.editor.banner.show_changed(
            translate(
                "PersonaPage",
                "{writer} changed {name} on disk. Your edits are still here: compare, keep "
                "yours, or reload theirs.",
            ).format(writer=self._writer(), name=fresh.name)
        )

    def _reload_quietly(self, fresh: PersonaEntry) -> None:
        """The open entry holds no edits: show the new version and say why the text moved."""
        self._conflict = None
        self._load_keeping_cursor(fresh)
        notice = translate("PersonaPage", "{writer} changed {name}; reloaded").format(
            writer=self._writer(), name=fresh.name
        )
        self.editor.show_note(notice)
        self.info_raised.emit(notice)

    def _settle_conflict(self) -> None:
        """The disk holds again what the editor was loaded from: nothing to decide any more."""
        if self._conflict is not None:
            self._conflict = None
            self.editor.banner.hide()

    def _writer(self) -> str:
        return writer_name(self._folder.path) if self._folder is not None else _another_program()

    def _disk_sha(self, name: str) -> str | None:
        """The hash of entry ``name`` on disk now; None when it is gone (or unreadable)."""
        try:
            return self._folder.read(name).fingerprint.sha256
        except StoreError:
            return None

    def _show_agent_view(self, listing: list[PersonaEntry]) -> None:
        """Build the agent's view again only when what it shows changed: the entries its
        prompt lists, how many it sees, or the folder's problems."""
        if self._folder is None:
            self.agent_panel.clear()
            self._prompt_head = []
            return
        head = [*listing[: PROMPT_LIMIT + 1], self._counts.visible, *self._folder_problems]
        if len(head) == len(self._prompt_head) and all(map(is_, head, self._prompt_head)):
            return
        self._prompt_head = head
        self.agent_panel.show_section(
            listing, self._folder_problems, listed=True, visible=self._counts.visible
        )

    def _emit_status(self) -> None:
        self._set_status("" if self._folder is None else self._status_for(self._counts))

    def _set_status(self, text: str) -> None:
        if text != self._status:
            self._status = text
            self.status_changed.emit(text)

    def _status_for(self, counts: Counts) -> str:
        """``24 entries · 24 in the prompt · 3 with problems``: three counts, each a whole
        phrase in the person's language."""
        count = plural(
            counts.entries,
            translate("PersonaPage", "{n} entry"),
            translate("PersonaPage", "{n} entries"),
        )
        if self._folder_problems:
            listed = translate(
                "PersonaPage", "none in the prompt (the agent cannot read this folder)"
            )
        else:  # (one form for every count, in English and in Spanish)
            listed = translate("PersonaPage", "{n} in the prompt").format(
                n=number(min(counts.visible, PROMPT_LIMIT))
            )
        troubled = translate("PersonaPage", "{n} with problems").format(n=number(counts.problems))
        return translate("PersonaPage", "{entries} · {listed} · {problems}").format(
            entries=count, listed=listed, problems=troubled
        )

    # -- choosing an entry ------------------------------------------------------------------------

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing:
            return
        name = _name_at(current)
        if name is None or name == self._current:
            return
        if not self._settle_unsaved():
            self._select(self._current)
            return
        self._open(name)
        self._select(name)  # a save on the way may have moved the rows

    def _open_row(self, row: int) -> None:
        self.list.setCurrentIndex(self.model.index(row, 0))

    def _open(self, name: str | None) -> None:
        self._current = name
        self._conflict = None
        self._whole_reader.cancel()
        self.editor.load(self.model.entry(name) if name else None)
        self._update_actions()

    # -- a large entry, opened anyway -------------------------------------------------------------

    def _on_open_whole(self) -> None:
        """Read the whole file of the start-only entry shown, off the window's thread."""
        entry, folder = self.editor.entry, self._folder
        if folder is None or entry is None or not is_start_only(entry):
            return
        self.editor.show_reading(
            translate("PersonaPage", "Reading the whole of {name}…").format(name=entry.name)
        )
        self._whole_reader.submit(lambda: folder.read(entry.name))

    def _on_whole_read(self, _generation: int, whole: object) -> None:
        """Show the whole entry, if the start of the same version is still what is open."""
        shown = self.editor.entry
        if not isinstance(whole, PersonaEntry) or shown is None or not is_start_only(shown):
            return
        if whole.name != self._current or shown.name != whole.name:
            return
        if not same_version(whole, shown):  # it changed meanwhile: show its new start
            self.reload()
            return
        self.editor.load(whole)
        self._update_actions()

    def _on_whole_failed(self, _generation: int, message: str) -> None:
        self.editor.load(self.editor.entry)
        self.error_raised.emit(message)

    def _select(self, name: str | None, *, reveal: bool = False) -> None:
        """Point the list at ``name`` without asking anything (the editor already shows it)."""
        row = self.model.row_of(name) if name else -1
        selection = self.list.selectionModel()
        self._syncing = True
        try:
            if row < 0:
                selection.clear()
                return
            index = self.model.index(row, 0)
            flags = (
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows
            )
            selection.setCurrentIndex(index, flags)
            if reveal:
                self.list.scrollTo(index)
        finally:
            self._syncing = False

    def _on_filter_changed(self, _text: str) -> None:
        """Filter once the typing pauses for about as long as a filter takes (never longer
        than ``MAX_FILTER_DELAY_MS``); a filter that fits in a frame follows every key at once
        (keys already queued are taken together). Waiting as long as any filter took made a
        5 ms filter at 20,000 entries wait 5 ms more for every key."""
        cost = self._filter_cost_ms
        self._filter_timer.start(0 if cost < FRAME_MS else min(MAX_FILTER_DELAY_MS, int(cost)))

    def _on_filter_due(self) -> None:
        text = self.filter.text()
        started = time.perf_counter()
        self._syncing = True
        try:
            self.model.set_filter(text)
        finally:
            self._syncing = False
        self._select(self._current, reveal=True)
        self._filter_cost_ms = (time.perf_counter() - started) * 1000
        self.filter_applied.emit(text)

    # -- unsaved edits ----------------------------------------------------------------------------

    def _has_unsaved(self) -> bool:
        """Edits, or a deleted entry the person chose to keep: both are lost by leaving."""
        kept_deleted = self._conflict is not None and self._conflict.kind == DELETED
        return self.editor.is_dirty() or (kept_deleted and self._conflict.kept)

    def _settle_unsaved(self) -> bool:
        """Ask Save / Discard / Cancel if the editor holds edits; True if the way is clear."""
        if not self._has_unsaved():
            return True
        if self.editor.is_new:
            question = translate(
                "PersonaPage", "You have unsaved edits to the new entry. Save them?"
            )
        else:
            question = translate(
                "PersonaPage", "You have unsaved edits to {name}. Save them?"
            ).format(name=self._current)
        answer = QMessageBox.question(
            self,
            translate("PersonaPage", "Unsaved edits"),
            as_shown(question),
            Answer.Save | Answer.Discard | Answer.Cancel,
            Answer.Save,
        )
        if answer == Answer.Save:
            return self.save()
        if answer == Answer.Discard:
            self._conflict = None
            self.editor.load(self.editor.entry)
            return True
        return False

    # -- writing ----------------------------------------------------------------------------------

    def save(self) -> bool:
        """Save the open entry (or create the new one); True if it is on disk as shown.

        After the person chose Keep / Keep mine on the banner, the save overwrites (or writes
        back) the file, but only if the disk still holds the version they saw.
        """
        if self._folder is None or self._listing:
            return False
        if self.editor.is_new:
            return self._create()
        entry = self.editor.entry
        if entry is None or not entry.editable or not self._has_unsaved():
            return entry is not None and entry.editable
        conflict = self._conflict
        force = (
            conflict is not None and conflict.kept and self._disk_sha(entry.name) == conflict.theirs
        )
        try:
            saved = self._folder.save(self.editor.edited_entry(), force=force)
        except ConflictError as exc:
            self.show_conflict(
                translate("PersonaPage", "{problem} Decide what to keep.").format(
                    problem=shown(exc)
                )
            )
            return False
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return False
        self._after_write(saved, translate("PersonaPage", "Saved {name}").format(name=saved.name))
        return True

    def _create(self) -> bool:
        problem = self.editor.name_problem()
        if problem:
            self.error_raised.emit(problem)
            self.editor.name.setFocus()
            return False
        values = self.editor.values()
        try:
            created = self._folder.create(
                name=values["name"],
                type=values["type"],
                description=values["description"],
                body=values["body"],
            )
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return False
        self._after_write(
            created, translate("PersonaPage", "Created {name}").format(name=created.name)
        )
        return True

    def _after_write(self, entry: PersonaEntry, notice: str) -> None:
        """Tell the watcher, show ``entry`` as written, put it in the list (the folder is not
        read again: only this entry changed), and select it."""
        self.file_written.emit(str(entry.link_target or entry.path))
        self._current = entry.name
        self._conflict = None
        self._load_keeping_cursor(entry)
        self._apply_change(written=(entry,))
        self._select(entry.name, reveal=True)
        self.info_raised.emit(notice)

    def _load_keeping_cursor(self, entry: PersonaEntry) -> None:
        body = self.editor.body
        view = (body.textCursor().position(), body.verticalScrollBar().value())
        self.editor.load(entry, keep_view=view)

    def _on_new(self) -> None:
        if self._folder is None or self._listing or not self._settle_unsaved():
            return
        self._current = None
        self._conflict = None
        self._select(None)
        self.editor.start_new()
        self._update_actions()

    def _on_revert(self) -> None:
        """Drop the edits; the entry then follows the disk as any entry without edits does."""
        if self.editor.is_new:
            self._open(None)
        else:
            self._conflict = None
            self.editor.load(self.editor.entry)
            self._follow_disk()
        self._update_actions()

    def _on_rename(self) -> None:
        entry = self.editor.entry
        if self._folder is None or self._listing or entry is None or not self._settle_unsaved():
            return
        suggestion = entry.name if validate_name(entry.name) is None else suggest_name(entry.name)
        new_name = ask_new_name(entry.name, suggestion, self)
        if new_name:
            self._rename(entry.name, new_name)

    def _on_export(self) -> None:
        """Zip the folder's entry files as they are on disk (unsaved edits are not in it)."""
        if self._folder is not None and not self._listing:
            start_persona_export(self, self._folder)

    def _rename(self, old_name: str, new_name: str) -> None:
        command = RenameCommand(self._folder, old_name, new_name, self._on_renamed, self._fail)
        self._undo_stack.push(command)

    def _on_renamed(self, folder: PersonaFolder, before: str, after: str) -> None:
        """Keep the renamed entry open under its new name (edits included), then re-read."""
        for name in (before, after):
            self.file_written.emit(str(folder.path / f"{name}.md"))
        if folder is not self._folder:
            return
        if self._current == before:
            self._current = after
            try:
                fresh = folder.read(after)
            except StoreError as exc:
                self.error_raised.emit(shown(exc))
            else:
                if self.editor.is_dirty():
                    self.editor.adopt(fresh)
                else:
                    self._load_keeping_cursor(fresh)
        self._apply_change(names=(before, after))
        self._select(self._current, reveal=True)
        self.info_raised.emit(
            translate("PersonaPage", "Renamed {old} to {new}").format(old=before, new=after)
        )

    def _on_fix_requested(self, fix_id: str) -> None:
        entry = self.editor.entry
        if self._folder is None or self._listing or entry is None or not self._settle_unsaved():
            return
        if fix_id == "rename" or (fix_id == "set-name" and not NAME_RE.fullmatch(entry.name)):
            # a name the agent does not read never goes into a header: rename (undoable) to a
            # kebab-case name, which also writes the name: line
            self._rename(entry.name, suggest_name(entry.name, self._folder.names()))
            return
        try:
            fixed = self._folder.fix(entry, fix_id)
        except StoreError as exc:
            self.error_raised.emit(shown(exc))
            return
        self._after_write(fixed, translate("PersonaPage", "Fixed {name}").format(name=fixed.name))

    def _on_folder_fix_requested(self, problem: FolderProblem) -> None:
        """Rename what stops the agent reading its folder; Ctrl+Z gives it its name back."""
        if self._folder is None or self._listing:
            return
        command = FolderFixCommand(self._folder, problem, self._on_folder_fixed, self._fail)
        self._undo_stack.push(command)

    def _on_folder_fixed(self, folder: PersonaFolder, paths: tuple[str, ...]) -> None:
        for path in paths:
            self.file_written.emit(path)
        if folder is self._folder:
            self._apply_change(file_names=[Path(path).name for path in paths])
            self.info_raised.emit(
                translate(
                    "PersonaPage", "The agent still cannot read its folder: see above the list"
                )
                if self._folder_problems
                else translate("PersonaPage", "The agent can read its folder again")
            )

    def _forget(self) -> None:
        name = self._current
        if self._folder is None or self._listing or name is None or self.editor.is_new:
            return
        if not self._settle_unsaved():
            return
        row = self.model.row_of(name)
        self._open(None)  # the file goes on purpose: no "deleted on disk" banner
        self._undo_stack.push(
            ForgetCommand(self._folder, name, self._on_undoable_change, self._fail)
        )
        if self.model.entry(name) is not None:  # the forget failed (and said why): keep it open
            self._open(name)
            self._select(name)
            return
        self._open_neighbour(row)
        self.info_raised.emit(
            translate("PersonaPage", "Forgot {name}. Undo (Ctrl+Z) brings it back.").format(
                name=name
            )
        )

    def _open_neighbour(self, row: int) -> None:
        """After the open entry went away, open the entry that took its row (keyboard flow)."""
        self._current = None
        self.editor.load(None)
        for candidate in range(min(row, self.model.rowCount() - 1), -1, -1):
            name = _name_at(self.model.index(candidate, 0))
            if name is not None:
                self._open(name)
                self._select(name, reveal=True)
                break
        self._update_actions()

    def _on_undoable_change(self, folder: PersonaFolder, name: str) -> None:
        """A forget or its undo moved entry ``name`` out of or back into ``folder``."""
        self.file_written.emit(str(folder.path / f"{name}.md"))
        if folder is self._folder:
            self._apply_change(names=(name,))

    def _fail(self, message: str) -> None:
        self.error_raised.emit(message)

    # -- conflicts --------------------------------------------------------------------------------

    def _on_compare(self) -> None:
        if self._folder is None or self._current is None:
            return
        try:
            theirs = _entry_text(self._folder.read(self._current))
        except StoreError:
            theirs = ""
        values = self.editor.values()
        mine = _compare_text(values["type"], values["description"], values["body"])
        if self._compare is not None:
            self._compare.close()
            self._compare.deleteLater()  # (it follows the banner: the old one must go)
        self._compare = compare_dialog(theirs, mine, self._current, self)
        self._compare.follow(self.editor.banner)  # its Keep mine / Take theirs act as the banner's
        self._compare.show()

    def _on_keep_mine(self) -> None:
        """Keep / Keep mine: the editor's version stands; the next save writes it over the file
        (or back into the folder). If the banner answered a save, that save happens now."""
        conflict = self._conflict
        if self._folder is None or self.editor.entry is None or conflict is None:
            return
        conflict.kept = True
        self.editor.banner.hide()
        self._update_actions()
        if conflict.save_pending:
            self.save()
        elif conflict.kind == DELETED:
            self.info_raised.emit(
                translate("PersonaPage", "Kept {name}: Save writes it back to the folder").format(
                    name=self._current
                )
            )
        else:
            self.info_raised.emit(
                translate("PersonaPage", "Kept your version of {name}: Save writes it").format(
                    name=self._current
                )
            )

    def _on_reload_theirs(self) -> None:
        name = self._current
        if self._folder is None or name is None:
            return
        try:
            theirs = self._folder.read(name)
        except StoreError:
            theirs = None
        self._conflict = None
        self._current = theirs.name if theirs else None
        self.editor.load(theirs)
        self._apply_change(names=(name,))
        self.info_raised.emit(
            translate("PersonaPage", "Reloaded from disk")
            if theirs
            else translate("PersonaPage", "{name} is no longer there").format(name=name)
        )

    def _on_close_deleted(self) -> None:
        """Close: the entry stays deleted, the editor lets it go (edits included)."""
        name = self._current
        self._open(None)
        self._select(None)
        if name:
            self.info_raised.emit(
                translate("PersonaPage", "Closed {name}; it stays deleted").format(name=name)
            )

    # -- small reactions --------------------------------------------------------------------------

    def _update_actions(self, *_args: object) -> None:
        """Enable what can act now; nothing that writes while the listing is being read."""
        editor, has_folder = self.editor, self._folder is not None and not self._listing
        if editor.is_held() != self._listing:
            editor.hold(self._listing)
        entry = editor.entry
        dirty = editor.is_dirty()
        self.buttons["personaNew"].setEnabled(has_folder)
        self.buttons["personaSave"].setEnabled(
            has_folder and self._has_unsaved() and (editor.is_new or bool(entry and entry.editable))
        )
        self.buttons["personaRevert"].setEnabled(dirty or editor.is_new)
        on_disk = entry is not None and not (self._conflict and self._conflict.kind == DELETED)
        # a link is renamed where its file is (the core refuses; the button says so first)
        self.buttons["personaRename"].setEnabled(
            has_folder and on_disk and entry.link_target is None
        )
        self.buttons["personaForget"].setEnabled(has_folder and on_disk)
        for name, action in self.entry_actions.items():
            action.setEnabled(
                self.buttons[name].isEnabled() if name in self.buttons else has_folder
            )
        self._sync_unsaved()

    def _on_preview_due(self) -> None:
        # (one character more than the preview shows, so that it knows to say it is cut)
        self.preview.show_markdown(self.editor.body_start(PREVIEW_CHARS + 1))

    def _on_link_clicked(self, url: QUrl) -> None:
        self.info_raised.emit(
            translate("PersonaPage", "Links do not open from the preview: {url}").format(
                url=url.toString()
            )
        )

    def select_id(self, name: str) -> bool:
        """Select and focus the entry ``name`` (the Page contract's selection by id); False
        when the list does not show it."""
        row = self.model.row_of(name)
        if row >= 0:
            self.list.setCurrentIndex(self.model.index(row, 0))
            self.list.setFocus()
        return row >= 0


def _name_at(index: QModelIndex) -> str | None:
    """The name of the entry at ``index`` (None on a divider), taken from the entry itself: a
    name passed through Qt as text loses what is not valid UTF-8 in a file name (a Python str
    holds it as a lone surrogate), and would then name no entry."""
    entry = index.data(ENTRY_ROLE)
    return entry.name if isinstance(entry, PersonaEntry) else None


def same_version(fresh: PersonaEntry, shown: PersonaEntry) -> bool:
    """Whether two readings of an entry are of the same version of its file: the same bytes,
    or, when one holds only the start of a large file (no hash), the same size and time."""
    if is_start_only(fresh) or is_start_only(shown):
        a, b = fresh.fingerprint, shown.fingerprint
        return (a.size, a.mtime_ns) == (b.size, b.mtime_ns)
    return fresh.fingerprint.sha256 == shown.fingerprint.sha256


def writer_name(folder: Path) -> str:
    """Who else writes ``folder``, for notices: ``miyagi`` for ~/.miyagi/memory (and its
    per-account subfolders), else "Another program"."""
    parts = folder.parts
    if "memory" in parts:
        at = len(parts) - 1 - parts[::-1].index("memory")
        if at > 0 and parts[at - 1].startswith(".") and len(parts[at - 1]) > 1:
            return parts[at - 1][1:]
    return _another_program()


def _another_program() -> str:
    """Who wrote the folder when its path does not say (the subject of a sentence)."""
    return translate("PersonaPage", "Another program")


def _entry_text(entry: PersonaEntry) -> str:
    return _compare_text(entry.type, entry.description or "", editor_text(entry.body))


def _compare_text(type_: str, description: str, body: str) -> str:
    """The fields the editor shows, as text to compare (the same shape for both sides)."""
    return f"type: {type_}\ndescription: {description}\n\n{body}\n"


def _listed_entry(listing: list[PersonaEntry], name: str) -> PersonaEntry | None:
    """Entry ``name`` in ``listing`` (a pass in C, no Python loop), or None."""
    try:
        return listing[indexOf(map(_entry_name, listing), name)]
    except ValueError:
        return None


@dataclass(frozen=True)
class Counts:
    """What the status says, kept up to date change by change (no pass over every entry)."""

    entries: int = 0
    visible: int = 0
    problems: int = 0

    @classmethod
    def of(cls, entries: list[PersonaEntry]) -> Counts:
        return cls(
            len(entries),
            sum(map(_agent_visible, entries)),
            sum(map(bool, map(_problems, entries))),
        )

    def changed(self, before: PersonaEntry | None, after: PersonaEntry | None) -> Counts:
        """The counts once ``before`` (None: nothing) became ``after`` (None: gone)."""
        entries, visible, problems = self.entries, self.visible, self.problems
        for entry, sign in ((before, -1), (after, 1)):
            if entry is not None:
                entries += sign
                visible += sign * entry.agent_visible
                problems += sign * bool(entry.problems)
        return Counts(entries, visible, problems)
