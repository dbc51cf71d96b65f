"""The topic key as the plugin will store it, shown under the edit form's key as it is typed.

The plugin normalises every topic key it saves (:func:`~memory_desk.core.alisio.
stored_topic_key`): ``Area/Sub/Leaf`` is stored as ``area/sub-leaf``, and a key of
punctuation alone is no key at all. A person's key is stored the same way (or the agent's next
save of that subject would make a second row), so the form says what will be stored before
the person saves, instead of refusing what they typed.

A key left exactly as the row holds it is not a change: it is kept as stored, even when the
plugin would store that text otherwise (a key written by an older writer stays untouched
until the person changes it).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QWidget

from memory_desk.core.alisio import stored_topic_key
from memory_desk.ui import theme
from memory_desk.ui.i18n import translate


def form_topic_key(typed: str, current: str | None) -> str:
    """The key a save stores for ``typed`` ("" for none), ``current`` being the row's."""
    if typed == (current or ""):
        return current or ""
    return stored_topic_key(typed) or ""


class StoredTopicLabel(QLabel):
    """ "stored as area/sub-leaf", following the key field as it is typed; hidden while the
    field is empty (the row then has no topic key, as the placeholder says)."""

    def __init__(self, field: QLineEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editTopicKeyStored")
        self.setTextFormat(Qt.TextFormat.PlainText)  # the key is data
        self.setWordWrap(True)
        theme.set_text_tone(self, "subdued")
        self._field = field
        self._current: str | None = None
        field.textChanged.connect(self.on_typed)
        self.on_typed(field.text())

    def follow(self, current: str | None) -> None:
        """The row's own key, which the field holds unchanged until the person types."""
        self._current = current
        self.on_typed(self._field.text())

    def stored(self) -> str:
        """The key a save stores ("" for none)."""
        return form_topic_key(self._field.text(), self._current)

    def on_typed(self, typed: str) -> None:
        stored = self.stored()
        if stored:
            self.setText(translate("ObservationDetail", "stored as {key}").format(key=stored))
        else:
            self.setText(translate("ObservationDetail", "stored without a topic key"))
        self.setVisible(bool(typed))
