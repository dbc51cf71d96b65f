"""The entry open in the persona page's editor: which one, how the list points at it, and the
protection of its unsaved edits.

Unsaved edits are never lost by accident: anything that would leave the open entry (another
entry, New, Forget, another folder, closing) first asks Save / Discard / Cancel, and a save that
meets a newer file shows the conflict banner instead of writing. They are also in sight: the
entry's row is marked in the list, and the page's ``unsaved_changed`` tells the window.

The open entry follows the disk quietly while it holds no edits; with edits, or when its file
is deleted, the conflict banner asks (Compare / Keep mine / Reload theirs, or Keep / Close).

Large entries: the folder's listing holds only the start of a file over ``LARGE_ENTRY_BYTES``;
the editor shows that start read-only with "Open anyway", which reads the whole file on a
background thread (only the latest answer, for the entry still open, is shown).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Signal, SignalInstance
from PySide6.QtWidgets import QMessageBox

from memory_desk.core import StoreError
from memory_desk.core.persona import PersonaEntry, PersonaFolder, is_start_only
from memory_desk.ui.i18n import shown, translate
from memory_desk.ui.persona.conflict import CHANGED, DELETED, DiskConflict, compare_dialog
from memory_desk.ui.persona.editor import EntryEditor, editor_text
from memory_desk.ui.persona.entry_list import EntryListView
from memory_desk.ui.persona.model import ENTRY_ROLE, PersonaListModel
from memory_desk.ui.plain import as_shown
from memory_desk.ui.widgets.conflict import CompareDialog
from memory_desk.ui.workers.background import BackgroundCall

Answer = QMessageBox.StandardButton


class EntryPageParts(Protocol):
    """What the open entry uses of the persona page (a QWidget, its parent): the list, the
    editor and the page's signals; its folder, its save and its reload."""

    editor: EntryEditor
    list: EntryListView
    model: PersonaListModel
    error_raised: SignalInstance
    info_raised: SignalInstance
    unsaved_changed: SignalInstance

    def folder(self) -> PersonaFolder | None: ...

    def save(self) -> bool: ...

    def reload(self) -> None: ...


class OpenEntry(QObject):
    """The entry open in the editor (module docstring); ``current`` is its name (None when
    the editor is empty or holds a new entry), ``conflict`` what the banner asks about it.

    Signals:
        state_changed(): the open entry, its conflict or its edits changed (the page's
            actions follow)
    """

    state_changed = Signal()

    def __init__(self, page: EntryPageParts, apply_change: Callable[..., None]) -> None:
        super().__init__(page)
        self._page = page
        self._apply_change = apply_change  # FolderReads.apply_change
        self.current: str | None = None
        self.conflict: DiskConflict | None = None
        self._quiet = False  # the page itself moves the list: not the person choosing
        self._unsaved = False  # as last told through unsaved_changed
        self._compare: CompareDialog | None = None
        self._whole_reader = BackgroundCall(self)  # "Open anyway": the whole file, off the thread
        self._whole_reader.finished.connect(self._on_whole_read)
        self._whole_reader.failed.connect(self._on_whole_failed)
        page.list.selectionModel().currentChanged.connect(self._on_current_changed)
        editor = page.editor
        editor.banner.compare_requested.connect(self._on_compare)
        editor.banner.keep_mine_requested.connect(self._on_keep_mine)
        editor.banner.reload_requested.connect(self._on_reload_theirs)
        editor.banner.keep_requested.connect(self._on_keep_mine)
        editor.banner.close_requested.connect(self._on_close_deleted)
        editor.open_whole_requested.connect(self._on_open_whole)

    @contextmanager
    def quiet(self) -> Iterator[None]:
        """The page changes the list's rows or selection itself: the list's current row may
        move, and that is not the person opening another entry."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    def stop(self) -> None:
        self._whole_reader.stop()
        self._page.editor.hide_note()
        if self._compare is not None:
            self._compare.close()

    def is_loading_large(self) -> bool:
        return self._whole_reader.is_busy() or self._page.editor.is_loading()

    # -- choosing an entry ------------------------------------------------------------------------

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._quiet:
            return
        name = name_at(current)
        if name is None or name == self.current:
            return
        if not self.settle_unsaved():
            self.select(self.current)
            return
        self.open(name)
        self.select(name)  # a save on the way may have moved the rows

    def open_row(self, row: int) -> None:
        page = self._page
        page.list.setCurrentIndex(page.model.index(row, 0))

    def open(self, name: str | None) -> None:
        self.current = name
        self.conflict = None
        self._whole_reader.cancel()
        self._page.editor.load(self._page.model.entry(name) if name else None)
        self.state_changed.emit()

    def close(self) -> None:
        """Let the open entry go, without a word (another folder is being shown)."""
        self.current = None
        self.conflict = None
        self._page.editor.load(None)

    def open_neighbour(self, row: int) -> None:
        """After the open entry went away, open the entry that took its row (keyboard flow)."""
        model = self._page.model
        self.current = None
        self._page.editor.load(None)
        for candidate in range(min(row, model.rowCount() - 1), -1, -1):
            name = name_at(model.index(candidate, 0))
            if name is not None:
                self.open(name)
                self.select(name, reveal=True)
                break
        self.state_changed.emit()

    def start_new(self) -> None:
        self.current = None
        self.conflict = None
        self.select(None)
        self._page.editor.start_new()
        self.state_changed.emit()

    def select(self, name: str | None, *, reveal: bool = False) -> None:
        """Point the list at ``name`` without asking anything (the editor already shows it)."""
        page = self._page
        row = page.model.row_of(name) if name else -1
        selection = page.list.selectionModel()
        with self.quiet():
            if row < 0:
                selection.clear()
                return
            index = page.model.index(row, 0)
            flags = (
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows
            )
            selection.setCurrentIndex(index, flags)
            if reveal:
                page.list.scrollTo(index)

    def load_keeping_cursor(self, entry: PersonaEntry) -> None:
        body = self._page.editor.body
        view = (body.textCursor().position(), body.verticalScrollBar().value())
        self._page.editor.load(entry, keep_view=view)

    def written(self, entry: PersonaEntry) -> None:
        """The page just wrote ``entry``: it is the open entry, as written."""
        self.current = entry.name
        self.conflict = None
        self.load_keeping_cursor(entry)

    def renamed(self, folder: PersonaFolder, before: str, after: str) -> None:
        """Entry ``before`` of ``folder`` is now ``after``: if it is the open one, it stays
        open under its new name, edits included."""
        if self.current != before:
            return
        self.current = after
        try:
            fresh = folder.read(after)
        except StoreError as exc:
            self._page.error_raised.emit(shown(exc))
            return
        if self._page.editor.is_dirty():
            self._page.editor.adopt(fresh)
        else:
            self.load_keeping_cursor(fresh)

    def revert(self) -> None:
        """Drop the edits; the entry then follows the disk as any entry without edits does."""
        editor = self._page.editor
        if editor.is_new:
            self.open(None)
        else:
            self.conflict = None
            editor.load(editor.entry)
            self.follow_disk()
        self.state_changed.emit()

    # -- a large entry, opened anyway -------------------------------------------------------------

    def _on_open_whole(self) -> None:
        """Read the whole file of the start-only entry shown, off the window's thread."""
        entry, folder = self._page.editor.entry, self._page.folder()
        if folder is None or entry is None or not is_start_only(entry):
            return
        self._page.editor.show_reading(
            translate("PersonaPage", "Reading the whole of {name}…").format(name=entry.name)
        )
        self._whole_reader.submit(lambda: folder.read(entry.name))

    def _on_whole_read(self, _generation: int, whole: object) -> None:
        """Show the whole entry, if the start of the same version is still what is open."""
        shown = self._page.editor.entry
        if not isinstance(whole, PersonaEntry) or shown is None or not is_start_only(shown):
            return
        if whole.name != self.current or shown.name != whole.name:
            return
        if not same_version(whole, shown):  # it changed meanwhile: show its new start
            self._page.reload()
            return
        self._page.editor.load(whole)
        self.state_changed.emit()

    def _on_whole_failed(self, _generation: int, message: str) -> None:
        self._page.editor.load(self._page.editor.entry)
        self._page.error_raised.emit(message)

    # -- unsaved edits ----------------------------------------------------------------------------

    def has_unsaved(self) -> bool:
        """Edits, or a deleted entry the person chose to keep: both are lost by leaving."""
        kept_deleted = self.conflict is not None and self.conflict.kind == DELETED
        return self._page.editor.is_dirty() or (kept_deleted and self.conflict.kept)

    def settle_unsaved(self) -> bool:
        """Ask Save / Discard / Cancel if the editor holds edits; True if the way is clear."""
        if not self.has_unsaved():
            return True
        page, editor = self._page, self._page.editor
        if editor.is_new:
            question = translate(
                "PersonaPage", "You have unsaved edits to the new entry. Save them?"
            )
        else:
            question = translate(
                "PersonaPage", "You have unsaved edits to {name}. Save them?"
            ).format(name=self.current)
        answer = QMessageBox.question(
            page,
            translate("PersonaPage", "Unsaved edits"),
            as_shown(question),
            Answer.Save | Answer.Discard | Answer.Cancel,
            Answer.Save,
        )
        if answer == Answer.Save:
            return page.save()
        if answer == Answer.Discard:
            self.conflict = None
            editor.load(editor.entry)
            return True
        return False

    def sync_unsaved(self) -> None:
        """Mark the open entry's row while it holds unsaved edits, and tell the window when
        that state changes."""
        unsaved = self.has_unsaved()
        page = self._page
        page.model.set_unsaved(self.current if unsaved and not page.editor.is_new else None)
        if unsaved != self._unsaved:
            self._unsaved = unsaved
            page.unsaved_changed.emit(unsaved)

    # -- following the disk -----------------------------------------------------------------------

    def follow_disk(self) -> None:
        """Bring the open entry up to date with what was just read, never dropping edits."""
        name, editor = self.current, self._page.editor
        if name is None or editor.entry is None:
            return
        fresh = self._page.model.entry(name)
        if fresh is None:
            self._on_deleted(name)
        elif same_version(fresh, editor.entry):
            self._settle_conflict()
            # (a whole entry the person opened stays, not the listing's start of it)
            if fresh != editor.entry and is_start_only(fresh) == is_start_only(editor.entry):
                editor.adopt(fresh)
        elif editor.is_dirty():
            self._on_changed(fresh)
        else:
            self._reload_quietly(fresh)

    def _on_deleted(self, name: str) -> None:
        if self.conflict is not None and self.conflict.kind == DELETED:
            return  # already said (or the person chose to keep it)
        self.conflict = DiskConflict(DELETED, None)
        self._page.editor.banner.show_gone(
            translate(
                "PersonaPage",
                "{writer} deleted {name}. Keep it open (Save writes it back) or close it.",
            ).format(writer=self._writer(), name=name)
        )

    def _on_changed(self, fresh: PersonaEntry) -> None:
        theirs = fresh.fingerprint.sha256
        conflict = self.conflict
        if conflict is not None and conflict.kind == CHANGED and conflict.theirs == theirs:
            return  # this version was already shown, or answered with Keep mine
        self.conflict = DiskConflict(CHANGED, theirs)
        self._page.editor.banner.show_changed(
            translate(
                "PersonaPage",
                "{writer} changed {name} on disk. Your edits are still here: compare, keep "
                "yours, or reload theirs.",
            ).format(writer=self._writer(), name=fresh.name)
        )

    def _reload_quietly(self, fresh: PersonaEntry) -> None:
        """The open entry holds no edits: show the new version and say why the text moved."""
        self.conflict = None
        self.load_keeping_cursor(fresh)
        notice = translate("PersonaPage", "{writer} changed {name}; reloaded").format(
            writer=self._writer(), name=fresh.name
        )
        self._page.editor.show_note(notice)
        self._page.info_raised.emit(notice)

    def _settle_conflict(self) -> None:
        """The disk holds again what the editor was loaded from: nothing to decide any more."""
        if self.conflict is not None:
            self.conflict = None
            self._page.editor.banner.hide()

    def _writer(self) -> str:
        folder = self._page.folder()
        return writer_name(folder.path) if folder is not None else _another_program()

    def disk_sha(self, name: str) -> str | None:
        """The hash of entry ``name`` on disk now; None when it is gone (or unreadable)."""
        try:
            return self._page.folder().read(name).fingerprint.sha256
        except StoreError:
            return None

    # -- conflicts --------------------------------------------------------------------------------

    def show_conflict(self, message: str, *, save_pending: bool = True) -> None:
        """The conflict banner for the open entry as the disk is now (``PersonaPage``)."""
        name = self.current
        if self._page.folder() is None or name is None:
            return
        theirs = self.disk_sha(name)
        kind = DELETED if theirs is None else CHANGED
        self.conflict = DiskConflict(kind, theirs, save_pending=save_pending)
        if kind == DELETED:
            self._page.editor.banner.show_gone(message)
        else:
            self._page.editor.banner.show_changed(message)
        self.state_changed.emit()

    def _on_compare(self) -> None:
        folder, name = self._page.folder(), self.current
        if folder is None or name is None:
            return
        try:
            theirs = _entry_text(folder.read(name))
        except StoreError:
            theirs = ""
        values = self._page.editor.values()
        mine = _compare_text(values["type"], values["description"], values["body"])
        if self._compare is not None:
            self._compare.close()
            self._compare.deleteLater()  # (it follows the banner: the old one must go)
        self._compare = compare_dialog(theirs, mine, name, self._page)
        self._compare.follow(self._page.editor.banner)  # its buttons act as the banner's
        self._compare.show()

    def _on_keep_mine(self) -> None:
        """Keep / Keep mine: the editor's version stands; the next save writes it over the file
        (or back into the folder). If the banner answered a save, that save happens now."""
        conflict, page = self.conflict, self._page
        if page.folder() is None or page.editor.entry is None or conflict is None:
            return
        conflict.kept = True
        page.editor.banner.hide()
        self.state_changed.emit()
        if conflict.save_pending:
            page.save()
        elif conflict.kind == DELETED:
            page.info_raised.emit(
                translate("PersonaPage", "Kept {name}: Save writes it back to the folder").format(
                    name=self.current
                )
            )
        else:
            page.info_raised.emit(
                translate("PersonaPage", "Kept your version of {name}: Save writes it").format(
                    name=self.current
                )
            )

    def _on_reload_theirs(self) -> None:
        name, folder = self.current, self._page.folder()
        if folder is None or name is None:
            return
        try:
            theirs = folder.read(name)
        except StoreError:
            theirs = None
        self.conflict = None
        self.current = theirs.name if theirs else None
        self._page.editor.load(theirs)
        self._apply_change(names=(name,))
        self._page.info_raised.emit(
            translate("PersonaPage", "Reloaded from disk")
            if theirs
            else translate("PersonaPage", "{name} is no longer there").format(name=name)
        )

    def _on_close_deleted(self) -> None:
        """Close: the entry stays deleted, the editor lets it go (edits included)."""
        name = self.current
        self.open(None)
        self.select(None)
        if name:
            self._page.info_raised.emit(
                translate("PersonaPage", "Closed {name}; it stays deleted").format(name=name)
            )


def name_at(index: QModelIndex) -> str | None:
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
