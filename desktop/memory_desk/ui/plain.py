"""Text from the agents' files and databases is shown as text, never as HTML.

Qt renders a string as rich text wherever it *looks* like HTML (``Qt::mightBeRichText``: a
known tag, or ``&lt;``, before the first line break) in labels, tooltips and message boxes
alike. A title ``<img src="http://tracker/x.png">`` would then load an image, a description
with ``<a href=...>`` would show a link. Labels that show such text are set to
``Qt.PlainText``; where a widget has no such switch (tooltips, item tooltips, ``QMessageBox``'s
static questions), :func:`as_shown` turns the text into rich text that shows exactly its
characters. Text views that render markdown refuse what it names with :func:`refused_resource`.

Text typed into a plain-text editor is read back character for character (:func:`held_text`:
``toPlainText`` turns U+2028 into a line break and a no-break space into a space), and with
the line breaks of the text it was loaded with (:func:`kept_text`).
"""

from __future__ import annotations

import html

from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit

from memory_desk.core.line_endings import keep_line_endings

_IMAGE = QTextDocument.ResourceType.ImageResource.value


def as_shown(text: str | None) -> str | None:
    """``text`` as it must reach a widget that guesses its format, to show literally.

    Text without ``<`` or ``&`` reads the same either way and is returned as it is (so
    existing strings do not change); anything else becomes escaped rich text that keeps its
    spaces and line breaks.
    """
    if not text or ("<" not in text and "&" not in text):
        return text
    return f"<p style='white-space:pre-wrap'>{html.escape(text, quote=False)}</p>"


def from_shown(shown: str) -> str:
    """The text :func:`as_shown` was given (to reuse a tooltip's text in a plain label)."""
    head, tail = "<p style='white-space:pre-wrap'>", "</p>"
    if shown.startswith(head) and shown.endswith(tail):
        return html.unescape(shown[len(head) : -len(tail)])
    return shown


def refused_resource(kind: int) -> object:
    """What a text view's ``loadResource`` returns to load nothing: an empty image or text.

    Never None: on None, ``QTextDocument`` reads a local file (or a ``data:`` URL) itself, so an
    ``<img src="/home/…">`` in a memory would show a file from anywhere on the disk.
    """
    return QImage() if kind == _IMAGE else ""


def held_text(editor: QPlainTextEdit) -> str:
    """What ``editor`` holds, character for character, its lines joined by ``\\n``."""
    return editor.document().toRawText().replace("\u2029", "\n")


def kept_text(editor: QPlainTextEdit, original: str) -> str:
    """What ``editor`` holds, with the line breaks of ``original``, the text it was loaded
    with (:func:`~memory_desk.core.line_endings.keep_line_endings`): opened and left as it
    was, it is ``original`` itself."""
    return keep_line_endings(original, held_text(editor))
