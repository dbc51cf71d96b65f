"""Hidden characters on screen: placeholders in colour where text is painted, a note beside
the editors.

What is hidden and how it is written is the core's one rule (:mod:`memory_desk.core.hidden_text`):
lists, tables and titles show ``⟨U+202E⟩`` in place of a right-to-left override. An editor
cannot: a placeholder in its text would be saved. So the text in an editor stays exactly as
stored, and a :class:`HiddenCharactersNote` under it names each hidden character and where it
is ("U+202E right-to-left override, character 5"), in the warning colour, for as long as the
text holds one. The person can then delete them, or leave them, knowingly.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QWidget

from memory_desk.core.hidden_text import PLACEHOLDER_RE, character_name, hidden_characters, reveal
from memory_desk.ui import theme
from memory_desk.ui.i18n import translate

NOTE_LISTS_AT_MOST = 5


def marked_html(text: str) -> str:
    """``text`` escaped for rich text, each hidden character a placeholder in the warning
    colour."""
    return marked_placeholders_html(reveal(text))


def marked_placeholders_html(shown: str) -> str:
    """Rich text for a text already revealed: escaped, its placeholders coloured."""
    colour = theme.colors().warning_text
    parts, start = [], 0
    for found in PLACEHOLDER_RE.finditer(shown):
        parts.append(html.escape(shown[start : found.start()], quote=False))
        parts.append(f'<span style="color:{colour};">{found.group()}</span>')
        start = found.end()
    parts.append(html.escape(shown[start:], quote=False))
    return "".join(parts)


def hidden_note_text(text: str, field: str) -> str:
    """What the note under an editor says about ``text`` (empty when nothing is hidden)."""
    found = hidden_characters(text)
    if not found:
        return ""
    places = []
    for index, ch in found[:NOTE_LISTS_AT_MOST]:
        line = text.count("\n", 0, index) + 1
        column = index - (text.rfind("\n", 0, index) + 1) + 1
        where = (
            translate("HiddenCharacters", "line {line}, character {column}").format(
                line=line, column=column
            )
            if "\n" in text
            else translate("HiddenCharacters", "character {column}").format(column=column)
        )
        places.append(f"U+{ord(ch):04X} {character_name(ch)} ({where})")
    more = len(found) - len(places)
    listed = "; ".join(places)
    if more:
        listed = translate("HiddenCharacters", "{listed}; and {count} more").format(
            listed=listed, count=more
        )
    return translate(
        "HiddenCharacters",
        "Hidden characters in the {field}, invisible here: {listed}. They are kept as they are"
        " unless you delete them; elsewhere they show as ⟨U+…⟩.",
    ).format(field=field, listed=listed)


class HiddenCharactersNote(QLabel):
    """A note under a form naming the hidden characters of its editors' texts, shown only
    while there are some. ``fields`` pairs each editor with how the note names it ("title",
    "description"). The texts are looked at a moment after the last change (a timer of the
    note's own), not on every keystroke."""

    DELAY_MS = 150

    def __init__(
        self, fields: Sequence[tuple[QLineEdit | QPlainTextEdit, str]], parent: QWidget
    ) -> None:
        super().__init__(parent)
        self._fields = list(fields)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        theme.set_text_tone(self, "warning")
        self.hide()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        for editor, _field in self._fields:
            editor.textChanged.connect(self._timer.start)
        self.refresh()

    def refresh(self) -> None:
        """Look at the texts now."""
        self._timer.stop()
        notes = []
        for editor, field in self._fields:
            text = editor.text() if isinstance(editor, QLineEdit) else editor.toPlainText()
            note = hidden_note_text(text, field)
            if note:
                notes.append(note)
        self.setText("\n".join(notes))
        self.setVisible(bool(notes))
