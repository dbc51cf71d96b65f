"""The words a search matched, marked where the person reads: the table's titles and the detail.

The words are the ones the search required (:func:`~memory_desk.core.observations.search.
search_words` of the answered query's text), found case-insensitively as the search found
them (:func:`~memory_desk.core.observations.search.match_spans`). The marks take the theme's
match colours (``theme.colors().match``: a background and the text drawn over it, 4.5:1 in
both themes), read when painted, so a theme change repaints them right.

- In the table, :class:`TitleMarks` draws over a title cell already painted (by the view's
  own painting or by the delegate and the style, which lay the text out the same way): each
  match's box is filled, then the same laid-out text is drawn again, clipped to the box, in
  the match's ink. Only the shown (elided) text is searched, at most :data:`CELL_HITS` boxes.
- In the detail, :class:`DetailMarks` writes the title as escaped rich text with the matches
  in spans (plain text when nothing matches, as before), and marks the rendered content with
  ``QTextDocument.find`` and a background, at most :data:`DETAIL_HITS` marks in all: the
  reader renders only the start of a long content (:mod:`.long_text`), and the cap keeps a
  content full of matches from costing the window a stall.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QRegularExpression, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QStaticText,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import QLabel

from memory_desk.core.observations.search import match_spans
from memory_desk.ui import theme

CELL_HITS = 16  # boxes drawn in one title cell, at most
DETAIL_HITS = 200  # marks in the detail (title and content), at most
_BOX_MARGIN_Y = 2


def match_colours() -> tuple[QColor, QColor]:
    """(background, text) of a match in the theme in effect."""
    fill, ink = theme.colors().match
    return QColor(fill), QColor(ink)


class Marks:
    """The words marked, changed only when they differ."""

    def __init__(self) -> None:
        self.words: tuple[str, ...] = ()

    def set_words(self, words: Sequence[str]) -> bool:
        """Mark these words from now on; True when they changed (what shows them repaints)."""
        words = tuple(words)
        changed = words != self.words
        self.words = words
        return changed


class TitleMarks(Marks):
    """The matched words in the table's title cells (see the module docstring)."""

    def paint(
        self,
        painter: QPainter,
        static: QStaticText,
        at: QPointF,
        font: QFont,
        cell: QRectF,
    ) -> int:
        """Mark the matches in a title laid out as ``static`` and drawn at ``at`` in ``cell``
        (already painted); returns how many boxes were drawn."""
        if not self.words:
            return 0
        shown = static.text()
        spans = match_spans(shown, self.words, CELL_HITS)
        if not spans:
            return 0
        fill, ink = match_colours()
        metrics = QFontMetricsF(font)
        top = cell.top() + _BOX_MARGIN_Y
        height = cell.height() - 2 * _BOX_MARGIN_Y
        painter.save()
        painter.setFont(font)
        painter.setPen(ink)
        for start, end in spans:
            left = at.x() + metrics.horizontalAdvance(shown[:start])
            right = at.x() + metrics.horizontalAdvance(shown[:end])
            box = QRectF(left, top, right - left, height).intersected(cell)
            if box.isEmpty():
                continue
            painter.setClipRect(box)
            painter.fillRect(box, fill)
            painter.drawStaticText(at, static)
        painter.restore()
        return len(spans)


class DetailMarks(Marks):
    """The matched words in the detail's title and rendered content (see the module
    docstring). ``count`` is how many marks the shown observation got."""

    def __init__(self, title: QLabel) -> None:
        super().__init__()
        self.count = 0
        self._title = title

    def show_title(self, text: str) -> int:
        """Show ``text`` in the title label, its matches marked; returns how many."""
        spans = match_spans(text, self.words, DETAIL_HITS)
        if not spans:
            self._title.setTextFormat(Qt.TextFormat.PlainText)
            self._title.setText(text)
            return 0
        fill, ink = theme.colors().match
        parts: list[str] = []
        done = 0
        for start, end in spans:
            parts.append(_escaped(text[done:start]))
            parts.append(
                f'<span style="background-color:{fill}; color:{ink};">'
                f"{_escaped(text[start:end])}</span>"
            )
            done = end
        parts.append(_escaped(text[done:]))
        self._title.setTextFormat(Qt.TextFormat.RichText)
        self._title.setText(f'<span style="white-space:pre-wrap;">{"".join(parts)}</span>')
        return len(spans)

    def mark_content(self, document: QTextDocument, limit: int) -> int:
        """Give every match in ``document`` the match's colours (at most ``limit``); returns
        how many were marked."""
        if not self.words or limit <= 0:
            return 0
        ordered = sorted(dict.fromkeys(self.words), key=len, reverse=True)
        pattern = QRegularExpression(
            "|".join(QRegularExpression.escape(word) for word in ordered),
            QRegularExpression.PatternOption.CaseInsensitiveOption
            | QRegularExpression.PatternOption.UseUnicodePropertiesOption,
        )
        fill, ink = match_colours()
        mark = QTextCharFormat()
        mark.setBackground(fill)
        mark.setForeground(ink)
        found = 0
        edit = QTextCursor(document)
        edit.beginEditBlock()  # the document is laid out again once, not once per mark
        try:
            cursor = document.find(pattern, 0)
            while not cursor.isNull() and found < limit:
                if cursor.hasSelection():
                    edit.setPosition(cursor.selectionStart())
                    edit.setPosition(cursor.selectionEnd(), QTextCursor.MoveMode.KeepAnchor)
                    edit.mergeCharFormat(mark)
                    found += 1
                else:  # an empty match cannot happen with words, but never loop on one
                    cursor.movePosition(QTextCursor.MoveOperation.NextCharacter)
                cursor = document.find(pattern, cursor)
        finally:
            edit.endEditBlock()
        return found

    def show(self, title: str, document: QTextDocument) -> None:
        """Mark a freshly shown observation: its title (shown here) and its content."""
        self.count = self.show_title(title)
        self.count += self.mark_content(document, DETAIL_HITS - self.count)


def _escaped(text: str) -> str:
    """Plain text as rich text that reads the same: escaped, its line breaks kept."""
    return html.escape(text, quote=False).replace("\n", "<br>")
