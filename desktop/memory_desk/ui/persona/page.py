"""The persona page: review, correct, create, rename and forget an agent's memory of the person.

Left, the entries in the agent's order (with where its prompt stops listing them); right, the
editor above the rendered entry and exactly what the agent's prompt will say (stacked, so the
list keeps the width its descriptions need; on a page wide enough for all three, beside it).

The page composes its parts and answers the window's Page contract; each part owns its state:

- ``FolderReads`` (``folder_reads``): the folder shown and every read of it: the first
  listing, the reloads the window asks for when the agent wrote the folder, the page's own
  changes applied entry by entry, and the reads held back because they caught a file
  half-written.
- ``OpenEntry`` (``open_entry``): the entry in the editor, the list's selection, the conflict
  banner, and the protection of unsaved edits.
- ``EntryActions`` (``entry_actions``): the buttons and the Entry menu, and the writes behind
  them (New, Save, Rename, Forget and their undo, fixes, export).

The page itself shows what the reads bring: the list, the counts of the status, the folder's
problems and the agent's view, patched for the entries a change touched, never made again for
the whole folder. Until a big folder's listing is in, nothing writes and the page says why
above the list.
"""

from __future__ import annotations

import time
from operator import is_

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QShowEvent, QUndoStack
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.persona import PROMPT_LIMIT, PersonaEntry, PersonaFolder
from memory_desk.ui.i18n import plural, translate
from memory_desk.ui.persona.agent_view import AgentView
from memory_desk.ui.persona.counts import Counts, status_for
from memory_desk.ui.persona.editor import EntryEditor
from memory_desk.ui.persona.entry_actions import EntryActions
from memory_desk.ui.persona.entry_list import EntryListView
from memory_desk.ui.persona.folder_banner import FolderProblemsBanner
from memory_desk.ui.persona.folder_reads import FolderReads
from memory_desk.ui.persona.listing import (
    FirstScreen,
    looks_half_written,  # noqa: F401 (tests import it from here)
)
from memory_desk.ui.persona.model import PersonaListModel
from memory_desk.ui.persona.open_entry import (
    OpenEntry,
    same_version,  # noqa: F401 (tests import it from here)
    writer_name,  # noqa: F401 (tests import it from here)
)
from memory_desk.ui.persona.preview import PREVIEW_CHARS, SafePreview
from memory_desk.ui.widgets.turning_splitter import SIDE_BY_SIDE, STACKED, TurningSplitter

PREVIEW_DELAY_MS = 150
LIST_BESIDE = 480  # the list's width when the preview sits beside the editor, at least
PREVIEW_BESIDE = 320  # the preview's, there
MAX_FILTER_DELAY_MS = 100  # the filter's wait for a pause in typing: what it costs, at most this
FRAME_MS = 16  # a filter that takes less follows every key at once (the keys already queued)


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
        self._in_front = False  # the page the person sees (see set_current)
        self._counts = Counts()
        self._prompt_head: list[object] = []  # what the agent's view was built from
        self._status = ""
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self._on_preview_due)
        self._filter_cost_ms = 0.0  # what the last filter took: the next one waits as long
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.timeout.connect(self._on_filter_due)
        self._build()
        self._actions.update()

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
        self.setFocusProxy(self.list)  # the page in front takes the keys at its list
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
        self._reads = FolderReads(self, self.model, lambda: self._counts.entries)
        self._entry = OpenEntry(self, self._reads.apply_change)
        self._actions = EntryActions(self, self._entry, self._reads, self._undo_stack)
        self.buttons = self._actions.buttons
        self.entry_actions = self._actions.actions
        self.page_actions = self._actions.group
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
        # The preview below the editor; beside it when the page is wide enough for the list,
        # the editor and the preview in a row.
        self.right_splitter = TurningSplitter(self._preview_fits_beside, ((3, 2), (3, 2)), self)
        self.right_splitter.setOrientation(STACKED)
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

        self.right_splitter.turned.connect(self._on_editor_turned)
        self.filter.textChanged.connect(self._on_filter_changed)
        self.editor.body_changed.connect(self._preview_timer.start)
        self.preview.anchorClicked.connect(self._on_link_clicked)
        self.folder_banner.fix_requested.connect(self._actions.on_folder_fix_requested)
        reads = self._reads
        reads.started.connect(self._on_listing_started)
        reads.first_screen.connect(self._on_first_screen)
        reads.all_read.connect(self._on_all_read)
        reads.listing_failed.connect(self._on_listing_failed)
        reads.changed.connect(self._patch)
        reads.listed.connect(self.listed)
        reads.error_raised.connect(self.error_raised)

    def _preview_fits_beside(self) -> bool:
        """Whether the page holds the list, the editor and the preview side by side."""
        editing = self.right_splitter.widget(0).minimumSizeHint().width()
        return self.width() >= LIST_BESIDE + editing + PREVIEW_BESIDE

    def _on_editor_turned(self, orientation: Qt.Orientation) -> None:
        """The list gives the preview room when it comes beside the editor, and takes its
        width back when the preview goes below."""
        first, second = (2, 3) if orientation == SIDE_BY_SIDE else (7, 6)
        room = sum(self.splitter.sizes())
        self.splitter.setSizes(
            [room * first // (first + second), room * second // (first + second)]
        )

    def _set_tab_order(self) -> None:
        """Tab follows the page as it reads: the filter, the list, the entry's buttons above
        the editor, then its fields (the buttons were built after the editor, so Qt would put
        them after the body, which keeps Tab for itself)."""
        chain = [self.filter, self.list, *self.buttons.values(), self.editor.name]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    # -- the page contract ------------------------------------------------------------------------

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
        return self._reads.is_listing()

    def _hold_undo(self, hold: bool) -> None:
        if hold and self._undo_stack.isActive():
            self._undo_stack.setActive(False)
        elif not hold and self._in_front and not self._undo_stack.isActive():
            self._undo_stack.setActive(True)

    def folder(self) -> PersonaFolder | None:
        """The folder shown (None when none is)."""
        return self._reads.folder

    def current_name(self) -> str | None:
        """The name of the entry open in the editor (None when empty or creating one)."""
        return self._entry.current

    def set_folder(self, folder: PersonaFolder | None) -> bool:
        """Show ``folder``; False (nothing changed) if the person cancelled leaving their edits."""
        if folder is self._reads.folder:
            return True
        if not self._entry.settle_unsaved():
            return False
        self._entry.close()
        self.preview.set_folder(folder.path if folder else None)
        self._reads.start(folder)  # (a small folder is listed and shown at once)
        if folder is None:
            self._show([])
        self._actions.update()
        return True

    def is_listing(self) -> bool:
        """True while the folder's listing is still being read (nothing can be edited)."""
        return self._reads.is_listing()

    def is_reading(self) -> bool:
        """True while the folder is being listed, or looked at again for a reload."""
        return self._reads.is_reading()

    def reload(self) -> None:
        """Re-read the folder; the open entry, the selection and any unsaved text stay.

        An open entry without edits follows the disk (and says so); one with edits that changed
        on disk, or whose file was deleted, gets the conflict banner. A read that caught a file
        half-written is not shown: the folder is read again shortly.
        """
        self._reads.reload()

    def maybe_close(self) -> bool:
        """True if the page may go away: no unsaved edits, or the person saved or dropped them."""
        return self._entry.settle_unsaved()

    def shutdown(self) -> None:
        self._preview_timer.stop()
        self._filter_timer.stop()
        self._reads.stop()
        self._entry.stop()

    def has_unsaved_edits(self) -> bool:
        """True while the page holds edits that leaving would lose (what ``unsaved_changed``
        last said)."""
        return self._entry.has_unsaved()

    def is_loading_large(self) -> bool:
        """True while "Open anyway" is reading a file or the editor is still taking it in."""
        return self._entry.is_loading_large()

    def entries(self) -> list[PersonaEntry] | None:
        """The folder's entries as the page last read them; None while the listing is still
        being read (the entries shown are not all of them)."""
        return None if self._reads.is_listing() else self.model.entries()

    def counts(self) -> tuple[int, int] | None:
        """(entries, entries with a problem) as the page last read them, kept change by
        change (the sidebar shows them: no pass over every entry at each save); None while
        the listing is still being read."""
        if self._reads.is_listing():
            return None
        return (self._counts.entries, self._counts.problems)

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
        self._entry.show_conflict(message, save_pending=save_pending)

    def save(self) -> bool:
        """Save the open entry (or create the new one); True if it is on disk as shown.

        After the person chose Keep / Keep mine on the banner, the save overwrites (or writes
        back) the file, but only if the disk still holds the version they saw.
        """
        return self._actions.save()

    # -- showing what the reads bring -------------------------------------------------------------

    def _on_listing_started(self) -> None:
        """A big folder is being listed on a worker: nothing is shown, nothing can be edited."""
        self._hold_undo(True)
        self._set_reading(None)
        self._show([])

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

    def _on_first_screen(self, screen: FirstScreen) -> None:
        """The newest entries, read first: shown (read-only) while the others are read."""
        self._set_reading(screen)
        with self._entry.quiet():
            self.model.set_entries(screen.entries)
        if self._entry.current is None and self.model.rowCount():
            self._entry.open_row(0)

    def _on_all_read(self, entries: list[PersonaEntry], held: frozenset[str]) -> None:
        """Every entry is in (but those ``held`` back as half-written): show them all, and
        let the person edit."""
        self._hold_undo(False)
        self.reading.hide()
        self._show(entries)
        current = self._entry.current
        if current is None and self.model.rowCount():
            self._entry.open_row(0)
        elif current is not None and current not in held:
            self._entry.open(current)  # from the final listing, editable now
            self._entry.select(current)

    def _on_listing_failed(self, message: str) -> None:
        self._hold_undo(False)
        self.reading.hide()
        self.error_raised.emit(message)
        self._show([])

    def _patch(
        self, listing: list[PersonaEntry], names: tuple[str, ...], written: tuple[PersonaEntry, ...]
    ) -> None:
        """Show the folder's new ``listing``, which differs from the one shown only in these
        entries: their rows, the counts and (when its part changed) the agent's view."""
        self.folder_banner.set_problems(self._reads.problems)
        with self._entry.quiet():
            pairs = self.model.patch(listing, names, written)
        if pairs is None:
            self._counts = Counts.of(listing)
        else:
            for before, after in pairs:
                self._counts = self._counts.changed(before, after)
        self._after_rows_changed(listing)

    def _show(self, entries: list[PersonaEntry]) -> None:
        """Show these entries (the folder's whole listing) and what depends on them."""
        self.folder_banner.set_problems(self._reads.problems)
        with self._entry.quiet():
            self.model.set_entries(entries)
        self._counts = Counts.of(entries)
        self._prompt_head = []
        self._after_rows_changed(entries)

    def _after_rows_changed(self, listing: list[PersonaEntry]) -> None:
        self._entry.follow_disk()
        self._entry.select(self._entry.current)
        self._show_agent_view(listing)
        self._emit_status()
        self._actions.update()

    def _show_agent_view(self, listing: list[PersonaEntry]) -> None:
        """Build the agent's view again only when what it shows changed: the entries its
        prompt lists, how many it sees, or the folder's problems."""
        if self._reads.folder is None:
            self.agent_panel.clear()
            self._prompt_head = []
            return
        problems = self._reads.problems
        head = [*listing[: PROMPT_LIMIT + 1], self._counts.visible, *problems]
        if len(head) == len(self._prompt_head) and all(map(is_, head, self._prompt_head)):
            return
        self._prompt_head = head
        self.agent_panel.show_section(listing, problems, listed=True, visible=self._counts.visible)

    def _emit_status(self) -> None:
        self._set_status("" if self._reads.folder is None else self._status_for(self._counts))

    def _set_status(self, text: str) -> None:
        if text != self._status:
            self._status = text
            self.status_changed.emit(text)

    def _status_for(self, counts: Counts) -> str:
        return status_for(counts, bool(self._reads.problems))

    # -- the filter and the preview ---------------------------------------------------------------

    def _on_filter_changed(self, _text: str) -> None:
        """Filter once the typing pauses for about as long as a filter takes (never longer
        than ``MAX_FILTER_DELAY_MS``); a filter that fits in a frame follows every key at once
        (keys already queued are taken together): a cheap filter never waits for a pause."""
        cost = self._filter_cost_ms
        self._filter_timer.start(0 if cost < FRAME_MS else min(MAX_FILTER_DELAY_MS, int(cost)))

    def _on_filter_due(self) -> None:
        text = self.filter.text()
        started = time.perf_counter()
        with self._entry.quiet():
            self.model.set_filter(text)
        self._entry.select(self._entry.current, reveal=True)
        self._filter_cost_ms = (time.perf_counter() - started) * 1000
        self.filter_applied.emit(text)

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

    def mark_waiting(self, names: set[str]) -> None:
        """Mark these entries in the list as changed by the agent and not yet reviewed."""
        self.model.set_waiting(names)
