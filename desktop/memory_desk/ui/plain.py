"""Text from the agents' files and databases is shown as text, never as HTML.

Qt renders a string as rich text wherever it *looks* like HTML (``Qt::mightBeRichText``: a
known tag, or ``&lt;``, before the first line break) in labels, tooltips and message boxes
alike. A title ``<img src="http://tracker/x.png">`` would then load an image, a description
with ``<a href=...>`` would show a link. Labels that show such text are set to
``Qt.PlainText``; where a widget has no such switch (tooltips, item tooltips, ``QMessageBox``'s
static questions), :func:`as_shown` turns the text into rich text that shows exactly its
characters. Text views that render markdown refuse what it names with :func:`refused_resource`.
"""

from __future__ import annotations

import html

from PySide6.QtGui import QImage, QTextDocument

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
