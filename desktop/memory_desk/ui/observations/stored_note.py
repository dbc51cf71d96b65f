"""What the plugin will store, shown under the edit form before the person saves.

The plugin trims, redacts ``<private>…</private>`` and caps titles at 200 and content at 50,000
characters counted as JavaScript counts them (UTF-16 code units: an emoji counts 2), the cap
ending with ``... [truncated]``. A person who types 210 characters, pastes a secret inside
``<private>`` tags or leaves blank lines at the end deserves to know before saving, not after.
The rules live in the core (:func:`~memory_desk.core.alisio.preview_title`,
:func:`~memory_desk.core.alisio.preview_content`); this module only says what they will do.

The title is previewed on every keystroke (it is short). The content can be 50,000 characters:
previewing it costs a few milliseconds there (measured in the tests), so a long content is
previewed once typing pauses (``CONTENT_DELAY_MS``), a short one at once.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QWidget

from memory_desk.core.alisio import TRUNCATED_SUFFIX, StoredPreview, preview_content, preview_title

# Above this many characters the content preview waits for typing to pause.
IMMEDIATE_CHARS = 5_000
CONTENT_DELAY_MS = 120

_OVER_CAP_STYLE = "color: #b42318;"


def counter_text(preview: StoredPreview) -> str:
    """``186 / 200``: the stored length in the plugin's units against its cap."""
    return f"{preview.units:,} / {preview.cap:,}"


def field_note(name: str, preview: StoredPreview) -> str:
    """What will happen to one field's text, or an empty string when it is stored as typed."""
    parts = []
    if preview.cut:
        parts.append(
            f"will be cut to {preview.cap:,} characters, ending with “{TRUNCATED_SUFFIX}”"
            f" (it has {preview.typed_units:,})"
        )
    if preview.redacted:
        parts.append("<private>…</private> will be stored as [REDACTED]")
    if preview.trimmed:
        parts.append("blank space at its start and end will be dropped")
    if not parts:
        return ""
    return f"{name}: " + "; ".join(parts) + "."


class StoredPreviewPanel(QObject):
    """Counters for the title and content and a note, kept current as the person types.

    The widgets belong to the form's layout (``title_counter``, ``content_counter``,
    ``note``); this object owns the debounce timer and fills them.
    """

    def __init__(self, title: QLineEdit, content: QPlainTextEdit, parent: QWidget) -> None:
        super().__init__(parent)
        self._title = title
        self._content = content
        self.title_counter = self._counter("titleCounter", "Title length as the plugin counts it")
        self.content_counter = self._counter(
            "contentCounter", "Content length as the plugin counts it (an emoji counts 2)"
        )
        self.note = QLabel(parent)
        self.note.setObjectName("storedNote")
        self.note.setWordWrap(True)
        self.note.setTextFormat(self.note.textFormat().PlainText)
        self.note.setStyleSheet("color: #7a2e0e;")
        self.note.hide()
        self._title_note = self._content_note = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(CONTENT_DELAY_MS)
        self._timer.timeout.connect(self.update_content)
        title.textChanged.connect(self.update_title)
        content.textChanged.connect(self._on_content_edited)

    def _counter(self, name: str, tip: str) -> QLabel:
        label = QLabel(self.parent())
        label.setObjectName(name)
        label.setToolTip(tip)
        return label

    def refresh(self) -> None:
        """Preview both fields now (the form was just filled)."""
        self._timer.stop()
        self.update_title()
        self.update_content()

    def stop(self) -> None:
        self._timer.stop()

    def is_pending(self) -> bool:
        """True while the content's preview waits for typing to pause."""
        return self._timer.isActive()

    def update_title(self) -> None:
        preview = preview_title(self._title.text())
        self._show_counter(self.title_counter, preview)
        self._title_note = field_note("Title", preview)
        self._show_note()

    def update_content(self) -> None:
        self._timer.stop()
        preview = preview_content(self._content.toPlainText())
        self._show_counter(self.content_counter, preview)
        self._content_note = field_note("Content", preview)
        self._show_note()

    def _on_content_edited(self) -> None:
        if self._content.document().characterCount() <= IMMEDIATE_CHARS:
            self.update_content()
        else:
            self._timer.start()

    @staticmethod
    def _show_counter(label: QLabel, preview: StoredPreview) -> None:
        label.setText(counter_text(preview))
        label.setStyleSheet(_OVER_CAP_STYLE if preview.cut else "")

    def _show_note(self) -> None:
        text = "\n".join(note for note in (self._title_note, self._content_note) if note)
        self.note.setText(text)
        self.note.setVisible(bool(text))
