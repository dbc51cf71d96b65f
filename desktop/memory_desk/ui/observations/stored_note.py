"""What the plugin will store, shown under the edit form before the person saves.

The plugin trims, redacts ``<private>…</private>`` and caps titles at 200 and content at 50,000
characters counted as JavaScript counts them (UTF-16 code units: an emoji counts 2), the cap
ending with ``... [truncated]``. A person who types 210 characters, pastes a secret inside
``<private>`` tags or leaves blank lines at the end deserves to know before saving, not after.
The rules live in the core (:func:`~memory_desk.core.alisio.preview_title`,
:func:`~memory_desk.core.alisio.preview_content`); this module only says what they will do.

The title is previewed on every keystroke (it is short). The content can be 50,000 characters:
previewing it costs more than a keystroke should (measured in the tests), so a long content is
previewed once typing pauses (``CONTENT_DELAY_MS``), a short one at once.

One more note concerns the row rather than the typing: when the row's stored
``normalized_hash`` is not the one Memory Desk computes for its content (the agent's runtime
may know letters newer than Python's Unicode tables), the form says so while the content is
unchanged, and that saving other fields keeps the stored hash (:func:`hash_note`).

Each note is one whole sentence in the person's language, one line per thing that will
happen; a counter over its cap and the note take the theme's error and warning colours (the
note's words say it too: colour is never the only signal).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QWidget

from memory_desk.core.alisio import (
    CONTENT_CAP,
    TRUNCATED_SUFFIX,
    StoredPreview,
    preview_content,
    preview_title,
    reproduces_hash,
)
from memory_desk.ui import i18n, theme
from memory_desk.ui.i18n import translate

# Above this many characters the content preview waits for typing to pause.
IMMEDIATE_CHARS = 5_000
CONTENT_DELAY_MS = 120

# Above this many characters the content's note comes from its length alone: scanning
# megabytes for <private> tags and blank space at every pause of typing would freeze the
# window (the save still stores the text exactly as the plugin would).
COUNTED_ONLY_ABOVE = 256 * 1024

TITLE = "title"
CONTENT = "content"


def counted_only(units: int, *, whole: bool) -> StoredPreview:
    """What the note says of a content of ``units`` UTF-16 units, from its length alone."""
    over = units > CONTENT_CAP
    return StoredPreview(
        stored="",
        units=units if whole else min(units, CONTENT_CAP),
        cap=CONTENT_CAP,
        typed_units=units,
        cut=over and not whole,
        redacted=False,
        trimmed=False,
        kept_whole=over and whole,
    )


def counter_text(preview: StoredPreview) -> str:
    """``186 / 200``: the stored length in the plugin's units against its cap."""
    return translate("StoredPreviewPanel", "{length} / {cap}").format(
        length=i18n.number(preview.units), cap=i18n.number(preview.cap)
    )


def field_note(field: str, preview: StoredPreview) -> str:
    """What will happen to the title's or the content's text (``TITLE``, ``CONTENT``), one
    sentence a line; an empty string when it is stored as typed."""
    lines = []
    if preview.cut:
        lines.append(_cut_note(field, preview))
    if preview.kept_whole:
        lines.append(
            translate(
                "StoredPreviewPanel",
                "Content: longer than the plugin's {cap} characters, like the stored row;"
                " Memory Desk keeps it whole.",
            ).format(cap=i18n.number(preview.cap))
        )
    if preview.redacted:
        lines.append(
            translate(
                "StoredPreviewPanel", "Title: <private>…</private> will be stored as [REDACTED]."
            )
            if field == TITLE
            else translate(
                "StoredPreviewPanel", "Content: <private>…</private> will be stored as [REDACTED]."
            )
        )
    if preview.trimmed:
        lines.append(
            translate(
                "StoredPreviewPanel", "Title: blank space at its start and end will be dropped."
            )
            if field == TITLE
            else translate(
                "StoredPreviewPanel", "Content: blank space at its start and end will be dropped."
            )
        )
    return "\n".join(lines)


def hash_note() -> str:
    """For a row whose stored hash Memory Desk cannot reproduce, while its content is kept."""
    return translate(
        "StoredPreviewPanel",
        "Content: its stored fingerprint (normalized_hash) is not the one Memory Desk computes"
        " for it; the agent may know letters newer than Memory Desk's Unicode tables. It is"
        " kept as stored while the content stays as it is, and computed afresh if you change"
        " the content.",
    )


def _cut_note(field: str, preview: StoredPreview) -> str:
    if field == TITLE:
        template = translate(
            "StoredPreviewPanel",
            "Title: will be cut to {cap} characters, ending with “{suffix}” (it has {typed}).",
        )
    else:
        template = translate(
            "StoredPreviewPanel",
            "Content: will be cut to {cap} characters, ending with “{suffix}” (it has {typed}).",
        )
    return template.format(
        cap=i18n.number(preview.cap),
        suffix=TRUNCATED_SUFFIX,
        typed=i18n.number(preview.typed_units),
    )


class StoredPreviewPanel(QObject):
    """Counters for the title and content and a note, kept current as the person types.

    The widgets belong to the form's layout (``title_counter``, ``content_counter``,
    ``note``); this object owns the debounce timer and fills them.
    """

    def __init__(self, title: QLineEdit, content: QPlainTextEdit, parent: QWidget) -> None:
        super().__init__(parent)
        self._title = title
        self._content = content
        self.title_counter = self._counter(
            "titleCounter",
            translate("StoredPreviewPanel", "Title length"),
            translate("StoredPreviewPanel", "Title length as the plugin counts it"),
        )
        self.content_counter = self._counter(
            "contentCounter",
            translate("StoredPreviewPanel", "Content length"),
            translate(
                "StoredPreviewPanel", "Content length as the plugin counts it (an emoji counts 2)"
            ),
        )
        self.note = QLabel(parent)
        self.note.setObjectName("storedNote")
        self.note.setWordWrap(True)
        self.note.setTextFormat(self.note.textFormat().PlainText)
        self.note.setAccessibleDescription(
            translate("StoredPreviewPanel", "What the plugin will store differently")
        )
        theme.set_text_tone(self.note, "warning")
        self.note.hide()
        self._title_note = self._content_note = ""
        self._base_content: str | None = None  # set when the row's hash is not reproduced
        # The row held more than the content's cap already (another writer's): the store
        # keeps an edit of it whole, and the note says so instead of announcing a cut.
        self.whole = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(CONTENT_DELAY_MS)
        self._timer.timeout.connect(self.update_content)
        title.textChanged.connect(self.update_title)
        content.textChanged.connect(self._on_content_edited)

    def _counter(self, name: str, description: str, tip: str) -> QLabel:
        label = QLabel(self.parent())
        label.setObjectName(name)
        label.setToolTip(tip)
        label.setAccessibleDescription(description)  # its text (the count) stays its name
        return label

    def set_base(self, content: str | None, stored_hash: str) -> None:
        """The edited row's content and stored hash: while the form keeps that content, a
        hash Memory Desk cannot reproduce is flagged (:func:`hash_note`). Not for a content
        whose note comes from its length alone (:data:`COUNTED_ONLY_ABOVE`): the note could
        not tell it unchanged, and hashing megabytes would hold the window's thread."""
        differs = (
            content is not None
            and len(content) <= COUNTED_ONLY_ABOVE
            and not reproduces_hash(content, stored_hash)
        )
        self._base_content = content if differs else None

    def refresh(self, content: str | None = None, stored_hash: str = "") -> None:
        """Preview both fields now (the form was just filled from a row with this content
        and stored hash: see :meth:`set_base`)."""
        self.set_base(content, stored_hash)
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
        self._title_note = field_note(TITLE, preview)
        self._show_note()

    def update_content(self) -> None:
        self._timer.stop()
        units = self._content.document().characterCount() - 1  # (UTF-16 units, as the plugin)
        if units > COUNTED_ONLY_ABOVE:
            preview = counted_only(units, whole=self.whole)
        else:
            preview = preview_content(self._content.toPlainText(), whole=self.whole)
        self._show_counter(self.content_counter, preview)
        self._content_note = field_note(CONTENT, preview)
        if self._base_content is not None and preview.stored == self._base_content:
            self._content_note = "\n".join(filter(None, (self._content_note, hash_note())))
        self._show_note()

    def _on_content_edited(self) -> None:
        if self._content.document().characterCount() <= IMMEDIATE_CHARS:
            self.update_content()
        else:
            self._timer.start()

    @staticmethod
    def _show_counter(label: QLabel, preview: StoredPreview) -> None:
        label.setText(counter_text(preview))
        theme.set_text_tone(label, "error" if preview.cut else None)

    def _show_note(self) -> None:
        text = "\n".join(note for note in (self._title_note, self._content_note) if note)
        self.note.setText(text)
        self.note.setVisible(bool(text))
