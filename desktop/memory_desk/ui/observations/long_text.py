"""Long contents in the detail pane: the reader renders their start, the form takes them whole.

The plugin caps content at 50,000 characters, but the database can hold anything (another
writer, an older plugin, a hand edit). Rendering markdown costs the window's thread time in
proportion to the text, and ``QPlainTextEdit.setPlainText`` lays out a whole text at once:
a content of megabytes would freeze the window when it is selected, and again when its form
opens. So:

- the reader renders only the first :data:`DETAIL_CHARS` characters (a quarter of the persona
  preview's cap: the reader shares its turn with the table's selection), cut at a line's end,
  and :class:`CutNote` says how much of how much it shows, with a button that opens the
  whole text in the edit form;
- the form takes a content longer than :data:`SLICED_ABOVE` in slices, one per turn of the
  event loop (:class:`SlicedFill`), read-only until the last slice is in, so the person
  never types into half a text and a save always has the whole of it.

Signals:
    CutNote.open_whole_requested(): the person asked for the whole text
    SlicedFill.finished(): the whole text is in the editor
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QWidget

from memory_desk.core.alisio import preview_content
from memory_desk.ui import i18n, theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.plain import kept_text

DETAIL_CHARS = 8 * 1024  # rendered as markdown in the reader, at most
SLICED_ABOVE = 256 * 1024  # a longer content goes into the form in slices
SLICE_CHARS = 64 * 1024


def shown_start(content: str) -> str:
    """The part of ``content`` the reader renders: all of it when short, else its first
    :data:`DETAIL_CHARS` characters, back to the end of a line when one is near."""
    if len(content) <= DETAIL_CHARS:
        return content
    start = content[:DETAIL_CHARS]
    line_end = start.rfind("\n", DETAIL_CHARS // 2)
    return start[:line_end] if line_end > 0 else start


class CutNote(QWidget):
    """The line under a content the reader shows only in part: how much of how much, and a
    button that opens the whole text in the edit form.

    Signals:
        open_whole_requested(): the button was pressed
    """

    open_whole_requested = Signal()

    def __init__(
        self, parent: QWidget | None = None, *, on_open_whole: Callable[[], object] | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("observationContentCut")
        self.label = QLabel(self)
        self.label.setObjectName("observationContentCutNote")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        theme.set_text_tone(self.label, "warning")
        self.button = QPushButton(translate("ObservationDetail", "Open the whole text"), self)
        self.button.setObjectName("observationOpenWholeButton")
        self.button.setToolTip(
            translate(
                "ObservationDetail",
                "Read and edit the whole content in the edit form (it loads without freezing"
                " the window)",
            )
        )
        self.button.clicked.connect(self.open_whole_requested)
        if on_open_whole is not None:
            self.open_whole_requested.connect(on_open_whole)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 2, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.button)
        self.hide()

    def start_of(self, content: str) -> str:
        """What the reader renders of ``content`` (:func:`shown_start`); the note says so."""
        shown = shown_start(content)
        self.show_for(len(shown), len(content))
        return shown

    def show_for(self, shown: int, total: int) -> None:
        """Say that ``shown`` characters of ``total`` are rendered (hidden when all are)."""
        if shown >= total:
            self.hide()
            return
        self.label.setText(
            translate(
                "ObservationDetail",
                "Shown: the first {shown} characters of {total}, as markdown. The whole text"
                " is stored; open it to read or edit all of it.",
            ).format(shown=i18n.number(shown), total=i18n.number(total))
        )
        self.show()


class SlicedFill(QObject):
    """Puts a long text into a :class:`QPlainTextEdit` one slice per turn of the event loop.

    The editor is read-only and keeps no undo steps meanwhile; when the last slice is in,
    its document is marked unmodified and ``finished`` is emitted.

    Signals:
        finished(): the whole text is in the editor (not emitted when :meth:`stop` ran first)
    """

    finished = Signal()

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self._editor = editor
        self._slices: list[str] = []
        self._read_only = False
        self._putting = False  # the text changing is this object's doing
        self._touched = False  # the text changed otherwise since the fill
        self._changes = 0  # changes of the text so far (any)
        self._stored: tuple[tuple[int, bool], str] | None = None  # see stored_text
        editor.document().contentsChanged.connect(self._on_changed)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._put_next)

    def is_filling(self) -> bool:
        return self._timer.isActive()

    def typed_in(self) -> bool:
        """Did the person change the text since it was filled in? (False while filling.)"""
        return self._touched and not self._timer.isActive()

    def typed_in_long(self) -> bool:
        """Typed in, and long: a keystroke takes that as an unsaved edit without comparing
        megabytes (a save still writes only what differs)."""
        return self.typed_in() and self._editor.document().characterCount() > SLICED_ABOVE

    def stored_text(self, *, whole: bool, original: str = "") -> str:
        """The editor's text as the plugin would store it (:func:`preview_content`), with the
        line breaks of ``original`` (the text it was loaded with) where its lines are kept;
        worked out once per change of the text: a save asks for it several times, and for
        megabytes each time costs the window a noticeable moment."""
        key = (self._changes, whole, original)
        if self._stored is None or self._stored[0] != key:
            text = kept_text(self._editor, original)
            self._stored = (key, preview_content(text, whole=whole).stored)
        return self._stored[1]

    def _on_changed(self) -> None:
        self._changes += 1
        if not self._putting:
            self._touched = True

    def fill(self, text: str) -> None:
        """Replace the editor's text by ``text``: at once when short, else in slices."""
        self.stop()
        self._touched = False
        if len(text) <= SLICED_ABOVE:
            self._put(self._editor.setPlainText, text)
            self.finished.emit()
            return
        self._read_only = self._editor.isReadOnly()
        self._editor.setUndoRedoEnabled(False)
        self._editor.setReadOnly(True)
        self._put(self._editor.setPlainText, "")
        self._slices = [text[at : at + SLICE_CHARS] for at in range(0, len(text), SLICE_CHARS)]
        self._slices.reverse()
        self._timer.start()

    def stop(self) -> None:
        """Drop what was still to go in (the form closed or took another row)."""
        if not self._timer.isActive():
            return
        self._timer.stop()
        self._slices = []
        self._done()

    def _put_next(self) -> None:
        cursor = QTextCursor(self._editor.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        self._put(cursor.insertText, self._slices.pop())
        if self._slices:
            return
        self._timer.stop()
        self._done()
        self._editor.moveCursor(QTextCursor.MoveOperation.Start)
        self._editor.document().setModified(False)
        self.finished.emit()

    def _put(self, put: Callable[[str], None], text: str) -> None:
        self._putting = True
        try:
            put(text)
        finally:
            self._putting = False

    def _done(self) -> None:
        self._editor.setUndoRedoEnabled(True)
        self._editor.setReadOnly(self._read_only)
