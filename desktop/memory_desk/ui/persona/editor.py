"""The entry editor: name, type, description and markdown body of one entry, or of a new one.

The editor knows what it loaded and what the person typed; it says whether they differ (dirty)
and hands the page only the fields that changed, so saving never rewrites a header line the
person did not touch. It never talks to the folder itself: the page does.

A large text never freezes the window: a body longer than ``SLICED_ABOVE`` characters goes into
the editor one slice per turn of the event loop (the highlighter colours each slice as it
lands), and whether it was edited is the document's own modified flag, not a comparison of
megabytes at every keystroke. An entry that holds only the start of a large file (the folder's
listing reads no more) is shown read-only, with its size and an "Open anyway" button.

Layout never jumps while the person types: hints wrap, and the description's counter keeps the
width of its widest text, so the editor never asks the splitter for more room (the entry list
beside it keeps its width). Colours are the theme's tones, never written here.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.line_endings import as_in_editor
from memory_desk.core.persona import (
    ENTRY_TYPES,
    START_BYTES,
    PersonaEntry,
    agent_description,
    is_start_only,
    validate_name,
)
from memory_desk.ui import theme
from memory_desk.ui.hidden import HiddenCharactersNote
from memory_desk.ui.i18n import mark_data, number, shown, translate
from memory_desk.ui.persona.conflict import disk_conflict_banner
from memory_desk.ui.persona.highlighter import MarkdownHighlighter
from memory_desk.ui.persona.problems import ProblemsPanel
from memory_desk.ui.plain import held_text

# A prompt line longer than this crowds the agent's list; the counter turns red past it.
DESCRIPTION_SOFT_LIMIT = 150

# How long a note such as "miyagi changed likes-tea; reloaded" stays above the fields.
NOTE_MS = 5000

# A body longer than this (characters) goes into the editor SLICE_CHARS at a time, one slice per
# turn of the event loop: the window stays responsive between slices, whatever the body's size.
SLICE_CHARS = 64 * 1024
SLICED_ABOVE = 4 * SLICE_CHARS


def needs_description() -> str:
    """Why an empty description will be refused, in the person's language."""
    return translate(
        "EntryEditor",
        "The entry needs a description: the agent lists it by this line and cannot update it "
        "without one.",
    )


def editor_text(body: str) -> str:
    """The body as the editor holds it: QPlainTextEdit knows only ``\\n`` line breaks (the
    folder gives a saved body the file's own breaks back, line by line). An entry's body has
    ``\\n`` breaks already, so a CR left in it is a lone one, even just before a ``\\n``."""
    return as_in_editor(body.replace("\r", "\n"))


class EntryEditor(QWidget):
    """Edits one entry. Modes: empty (nothing open), existing entry, read-only entry, new entry.

    Signals:
        dirty_changed(bool): the editor started or stopped differing from what it loaded
        body_changed(): the body text changed (the preview follows it)
    """

    dirty_changed = Signal(bool)
    body_changed = Signal()
    open_whole_requested = Signal()
    loading_finished = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personaEditor")
        self._entry: PersonaEntry | None = None
        self._new = False
        self._dirty = False
        self._loading = False
        self._editable = False
        self._wanted_editable = False  # what the entry allows; _editable: and not held
        self._held = False
        self._large = False  # the body loaded was long: dirty is the document's modified flag
        self._slices: list[str] = []  # what is still to go into the body, last slice first
        self._keep_view: tuple[int, int] | None = None  # cursor and scroll to restore
        self._slice_timer = QTimer(self)
        self._slice_timer.setInterval(0)
        self._slice_timer.timeout.connect(self._put_next_slice)
        self._build()
        self.load(None)

    # -- building ---------------------------------------------------------------------------------

    def _build(self) -> None:
        self.banner = disk_conflict_banner(self)
        self.note = QLabel(self)
        self.note.setObjectName("personaDiskNote")
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        theme.set_tone(self.note, "info")
        self.note.hide()
        self._note_timer = QTimer(self)
        self._note_timer.setSingleShot(True)
        self._note_timer.setInterval(NOTE_MS)
        self._note_timer.timeout.connect(self.note.hide)
        self.reason = QLabel(self)
        self.reason.setObjectName("personaReadOnlyReason")
        self.reason.setTextFormat(Qt.TextFormat.PlainText)
        self.reason.setWordWrap(True)
        theme.set_tone(self.reason, "error")
        self.name = QLineEdit(self)
        self.name.setObjectName("personaName")
        self.name.setPlaceholderText(translate("EntryEditor", "kebab-case-name (the file name)"))
        self.name.setAccessibleName(translate("EntryEditor", "Name"))
        self.name.setAccessibleDescription(
            translate("EntryEditor", "The entry's file name: lowercase words joined by dashes")
        )
        self.name_hint = QLabel(self)
        self.name_hint.setObjectName("personaNameHint")
        self.name_hint.setTextFormat(Qt.TextFormat.PlainText)
        self.name_hint.setWordWrap(True)  # a long reason must not widen the editor
        theme.set_text_tone(self.name_hint, "error")
        self.type = QComboBox(self)
        self.type.setObjectName("personaType")
        self.type.addItems(list(ENTRY_TYPES))  # the agent's own keywords, written in the file
        mark_data(self.type)
        self.type.setToolTip(
            translate(
                "EntryEditor", "user: who the person is · feedback: how they want things done"
            )
        )
        self.type.setAccessibleName(translate("EntryEditor", "Type"))
        self.type.setAccessibleDescription(
            translate(
                "EntryEditor", "user: who the person is · feedback: how they want things done"
            )
        )
        self.description = QLineEdit(self)
        self.description.setObjectName("personaDescription")
        self.description.setPlaceholderText(
            translate("EntryEditor", "One line: what the agent sees in its prompt")
        )
        self.description.setAccessibleName(translate("EntryEditor", "Description"))
        self.description.setAccessibleDescription(
            translate("EntryEditor", "One line: what the agent sees in its prompt")
        )
        self.counter = QLabel(self)
        self.counter.setObjectName("personaDescriptionCounter")
        self.counter.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.counter.setToolTip(
            translate(
                "EntryEditor",
                "Characters in the description; the agent reads it as one line of its prompt",
            )
        )
        self.description_hint = QLabel(needs_description(), self)
        self.description_hint.setObjectName("personaDescriptionHint")
        self.description_hint.setWordWrap(True)
        theme.set_text_tone(self.description_hint, "error")
        self.description_hint.hide()
        self.body = QPlainTextEdit(self)
        self.body.setObjectName("personaBody")
        self.body.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.body.setPlaceholderText(translate("EntryEditor", "The entry itself, in markdown"))
        self.body.setAccessibleName(translate("EntryEditor", "Body"))
        self.body.setAccessibleDescription(
            translate("EntryEditor", "The entry itself, in markdown, as the agent reads it")
        )
        self.highlighter = MarkdownHighlighter(self.body.document())
        self.problems = ProblemsPanel(self)
        self.large_bar = self._build_large_bar()

        description_line = QHBoxLayout()
        description_line.addWidget(self.description, 1)
        description_line.addWidget(self.counter)
        description_row = QVBoxLayout()
        description_row.setSpacing(0)
        description_row.addLayout(description_line)
        description_row.addWidget(self.description_hint)
        name_column = QVBoxLayout()
        name_column.setSpacing(0)
        name_column.addWidget(self.name)
        name_column.addWidget(self.name_hint)
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        for text, buddy, field in (
            (translate("EntryEditor", "&Name"), self.name, name_column),
            (translate("EntryEditor", "T&ype"), self.type, self.type),
            (translate("EntryEditor", "&Description"), self.description, description_row),
        ):
            label = QLabel(text, self)
            label.setBuddy(buddy)
            form.addRow(label, field)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(self.note)
        layout.addWidget(self.reason)
        layout.addWidget(self.large_bar)
        layout.addLayout(form)
        layout.addWidget(self.body, 1)
        self.hidden_note = HiddenCharactersNote(
            [
                (self.name, translate("EntryEditor", "name")),
                (self.description, translate("EntryEditor", "description")),
                (self.body, translate("EntryEditor", "body")),
            ],
            self,
        )
        self.hidden_note.setObjectName("personaHiddenCharacters")
        layout.addWidget(self.hidden_note)
        layout.addWidget(self.problems)

        self.name.textChanged.connect(self._on_name_changed)
        self.type.currentTextChanged.connect(self._on_field_changed)
        self.description.textChanged.connect(self._on_description_changed)
        self.body.textChanged.connect(self._on_body_changed)

    def _build_large_bar(self) -> QWidget:
        """The line over a large entry: its size and how much is shown, and "Open anyway"."""
        bar = QWidget(self)
        bar.setObjectName("personaLargeBar")
        self.large_note = QLabel(bar)
        self.large_note.setObjectName("personaLargeNote")
        self.large_note.setTextFormat(Qt.TextFormat.PlainText)
        self.large_note.setWordWrap(True)
        self.open_large = QPushButton(translate("EntryEditor", "Open anyway"), bar)
        self.open_large.setObjectName("personaOpenLargeButton")
        self.open_large.setToolTip(
            translate(
                "EntryEditor",
                "Read the whole file into the editor (in the background; the window stays usable)",
            )
        )
        self.open_large.clicked.connect(self.open_whole_requested)
        row = QHBoxLayout(bar)
        row.setContentsMargins(6, 4, 6, 4)
        row.addWidget(self.large_note, 1)
        row.addWidget(self.open_large)
        theme.set_tone(bar, "warning")
        bar.hide()
        return bar

    # -- what is open -----------------------------------------------------------------------------

    @property
    def entry(self) -> PersonaEntry | None:
        """The entry as last read or saved (None when empty or creating a new one)."""
        return self._entry

    @property
    def is_new(self) -> bool:
        return self._new

    def is_dirty(self) -> bool:
        return self._dirty

    def is_loading(self) -> bool:
        """True while a long body is still going into the editor, slice by slice."""
        return bool(self._slices)

    def load(self, entry: PersonaEntry | None, *, keep_view: tuple[int, int] | None = None) -> None:
        """Show ``entry`` (or nothing); any edits are dropped, the banner and note are hidden.

        ``keep_view`` (cursor position, scroll value) is put back once the body is all in.
        """
        self._stop_slices()
        self._entry = entry
        self._new = False
        self._keep_view = keep_view
        self.banner.hide()
        self.hide_note()
        editable = entry is not None and entry.editable
        self._fill(
            name=entry.name if entry else "",
            type_=entry.type if entry else ENTRY_TYPES[0],
            description=(entry.description or "") if entry else "",
            body=editor_text(entry.body) if entry else "",
        )
        self.name.setReadOnly(True)
        self.name.setToolTip(translate("EntryEditor", "The file name; change it with Rename (F2)"))
        self.name_hint.hide()
        self._set_editable(editable)
        errors = (
            [shown(p.message) for p in entry.problems if p.severity == "error"] if entry else []
        )
        self.reason.setText(
            translate("EntryEditor", "Read-only: {reasons}").format(reasons=" ".join(errors))
            if errors
            else translate("EntryEditor", "Read-only.")
        )
        start_only = entry is not None and is_start_only(entry)
        self.reason.setVisible(entry is not None and not entry.editable and not start_only)
        self._show_large_bar(entry)
        self.problems.set_problems(entry.problems if entry else ())
        self.problems.setVisible(bool(entry and entry.problems))
        self._set_dirty(False)

    def show_reading(self, text: str) -> None:
        """Say over a start-only entry that its whole file is being read (the button waits)."""
        self.large_note.setText(text)
        self.open_large.setEnabled(False)
        self.large_bar.show()

    def _show_large_bar(self, entry: PersonaEntry | None) -> None:
        """Over a start-only entry: its size, and "Open anyway"; over a long body still going
        in: how far it got; otherwise nothing."""
        if entry is not None and is_start_only(entry):
            self.large_note.setText(
                translate(
                    "EntryEditor",
                    "The file is {size} MB: only the first {kb} KB are shown, read-only, so the "
                    "window stays quick. Open anyway reads the whole file (you can go on working "
                    "meanwhile).",
                ).format(size=_megabytes(entry.fingerprint.size), kb=number(START_BYTES // 1024))
            )
            self.open_large.setEnabled(True)
            self.open_large.show()
            self.large_bar.show()
        elif self._slices:
            self.open_large.hide()
            self.large_bar.show()
            self._say_slicing()
        else:
            self.large_bar.hide()

    def _say_slicing(self) -> None:
        done = self.body.document().characterCount()
        left = sum(len(piece) for piece in self._slices)
        self.large_note.setText(
            translate("EntryEditor", "Loading the text into the editor: {percent}%…").format(
                percent=number(100 * done // max(done + left, 1))
            )
        )

    def show_note(self, text: str) -> None:
        """A passing line above the fields (the entry was reloaded from disk): it says why the
        text just changed under the person's eyes, and goes away by itself."""
        self.note.setText(text)
        self.note.show()
        self._note_timer.start()

    def hide_note(self) -> None:
        self._note_timer.stop()
        self.note.hide()

    def start_new(self) -> None:
        """Empty fields for a new entry; the name becomes editable and is checked as typed."""
        self.load(None)
        self._new = True
        self._set_editable(True)
        self.name.setReadOnly(False)
        self.name.setToolTip(
            translate("EntryEditor", "The new entry's file name: lowercase words joined by dashes")
        )
        self.name_hint.show()
        self._on_name_changed(self.name.text())
        self.name.setFocus()

    def adopt(self, entry: PersonaEntry) -> None:
        """Take ``entry`` as what is on disk while keeping the person's edits (after a rename,
        or a re-read that found the same bytes with other problems, e.g. past the prompt's cut)."""
        self._entry = entry
        self._new = False
        self.problems.set_problems(entry.problems, fixes_enabled=not self._dirty)
        self.problems.setVisible(bool(entry.problems))
        self._set_dirty(self._differs_now())

    # -- what the person typed --------------------------------------------------------------------

    def values(self) -> dict[str, str]:
        return {
            "name": self.name.text().strip(),
            "type": self.type.currentText(),
            "description": self.description.text(),
            "body": held_text(self.body),
        }

    def edited_entry(self) -> PersonaEntry:
        """The loaded entry with only the fields the person changed replaced."""
        assert self._entry is not None
        return dataclasses.replace(self._entry, **self._changes(self.values()))

    def name_problem(self) -> str | None:
        """Why the typed name cannot be used for a new entry, or None."""
        name = self.name.text().strip()
        if not name:
            return translate("EntryEditor", "Type a name.")
        problem = validate_name(name)
        return shown(problem) if problem else None

    def _changes(self, values: dict[str, str]) -> dict[str, Any]:
        entry = self._entry
        if entry is None:
            return {}
        changes: dict[str, Any] = {}
        if values["type"] != entry.type:
            changes["type"] = values["type"]
        if values["description"] != (entry.description or ""):
            changes["description"] = values["description"]
        if values["body"] != editor_text(entry.body):
            changes["body"] = values["body"]
        return changes

    def _differs(self, values: dict[str, str]) -> bool:
        if self._new:
            return any(values[key] for key in ("name", "description", "body"))
        return bool(self._changes(values))

    # -- reacting to typing -----------------------------------------------------------------------

    def _fill(self, *, name: str, type_: str, description: str, body: str) -> None:
        self._loading = True
        try:
            self.name.setText(name)
            self.type.setCurrentText(type_)
            self.description.setText(description)
            self.description.setCursorPosition(0)
            self._large = len(body) > SLICED_ABOVE
            if self._large:
                self._start_slices(body)
            else:
                self.body.setPlainText(body)
                self._restore_view()
            self._update_counter()
        finally:
            self._loading = False
        if not self._slices:
            self.body_changed.emit()

    # -- a long body, one slice at a time ---------------------------------------------------------

    def _start_slices(self, body: str) -> None:
        """Empty the body, then put ``body`` in one slice per turn of the event loop (read-only
        and without undo meanwhile: the person cannot type into half a text)."""
        self.body.setUndoRedoEnabled(False)
        self.body.setReadOnly(True)
        self.body.setPlainText("")
        self._slices = [body[at : at + SLICE_CHARS] for at in range(0, len(body), SLICE_CHARS)][
            ::-1
        ]
        self._slice_timer.start()

    def _put_next_slice(self) -> None:
        if not self._slices:
            self._slice_timer.stop()
            return
        cursor = QTextCursor(self.body.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        self._loading = True
        try:
            cursor.insertText(self._slices.pop())
        finally:
            self._loading = False
        if self._slices:
            self._say_slicing()
            return
        self._slice_timer.stop()
        self.body.document().setModified(False)
        self.body.setUndoRedoEnabled(True)
        self.body.setReadOnly(not self._editable)
        self._show_large_bar(self._entry)
        self._restore_view()
        self.body_changed.emit()
        self.loading_finished.emit()

    def _stop_slices(self) -> None:
        """Drop what was still to go in (another entry is being shown)."""
        if self._slices:
            self._slices = []
            self._slice_timer.stop()
            self.body.setUndoRedoEnabled(True)
            self.loading_finished.emit()

    def _restore_view(self) -> None:
        if self._keep_view is None:
            return
        position, scroll = self._keep_view
        self._keep_view = None
        cursor = self.body.textCursor()
        cursor.setPosition(min(position, self.body.document().characterCount() - 1))
        self.body.setTextCursor(cursor)
        self.body.verticalScrollBar().setValue(scroll)

    def body_start(self, limit: int) -> str:
        """At most the first ``limit`` characters of the body, without copying all of it."""
        document = self.body.document()
        end = min(limit, document.characterCount() - 1)
        if end == document.characterCount() - 1:
            return self.body.toPlainText()
        cursor = QTextCursor(document)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        return cursor.selection().toPlainText()

    def hold(self, held: bool) -> None:
        """Keep every field read-only while ``held``: the page is still listing its folder, so
        the entry shown may not be the one on disk yet, and nothing typed may be lost."""
        self._held = held
        self._set_editable(self._wanted_editable)

    def is_held(self) -> bool:
        return self._held

    def _set_editable(self, editable: bool) -> None:
        self._wanted_editable = editable
        editable = editable and not self._held
        self._editable = editable
        self._update_description_hint()
        self.type.setEnabled(editable)
        self.description.setReadOnly(not editable)
        self.body.setReadOnly(not editable or bool(self._slices))

    def _set_dirty(self, dirty: bool) -> None:
        if dirty != self._dirty:
            self._dirty = dirty
            self.problems.set_fixes_enabled(not dirty)
            self.dirty_changed.emit(dirty)

    def _on_field_changed(self, *_args: object) -> None:
        if not self._loading and not self._slices:
            self._set_dirty(self._differs_now())

    def _differs_now(self) -> bool:
        """Whether the fields differ from what was loaded; a long body by the document's
        modified flag (comparing megabytes at each keystroke would freeze the typing)."""
        entry = self._entry
        if not self._large or self._new or entry is None:
            return self._differs(self.values())
        return (
            self.body.document().isModified()
            or self.type.currentText() != entry.type
            or self.description.text() != (entry.description or "")
        )

    def _on_name_changed(self, _text: str) -> None:
        if self._new:
            self.name_hint.setText(self.name_problem() or "")
        self._on_field_changed()

    def _on_description_changed(self, _text: str) -> None:
        self._update_counter()
        self._update_description_hint()
        self._on_field_changed()

    def _update_description_hint(self) -> None:
        """Say before saving that an empty description will be refused (the agent's rule:
        spaces and line breaks alone count as empty)."""
        empty = not agent_description(self.description.text())
        self.description_hint.setVisible(self._editable and empty)

    def _on_body_changed(self) -> None:
        if self._loading or self._slices:
            return
        self.body_changed.emit()
        self._on_field_changed()

    def _update_counter(self) -> None:
        """``12/150``; past the soft limit in the error tone, and said in words to a screen
        reader. The label keeps the width of its widest text, so typing never moves the field."""
        length = len(self.description.text())
        limit = DESCRIPTION_SOFT_LIMIT
        self.counter.setText(f"{number(length)}/{number(limit)}")
        metrics = self.counter.fontMetrics()
        widest = metrics.horizontalAdvance(f"{number(max(length, 9999))}/{number(limit)}")
        self.counter.setMinimumWidth(max(self.counter.minimumWidth(), widest + 4))
        too_long = length > limit
        theme.set_text_tone(self.counter, "error" if too_long else None)
        if too_long:
            said = translate(
                "EntryEditor",
                "{count} characters: longer than the {limit} the agent's list reads well",
            )
        else:
            said = translate("EntryEditor", "{count} of {limit} characters")
        self.counter.setAccessibleName(said.format(count=number(length), limit=number(limit)))


def _megabytes(size: int) -> str:
    """A file's size in megabytes as the person's locale writes it: ``30.0``."""
    return QLocale().toString(size / (1024 * 1024), "f", 1)
