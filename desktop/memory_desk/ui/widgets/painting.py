"""What painting a cell the style's way takes, for a view that paints its rows itself
(:mod:`memory_desk.ui.widgets.row_view`) and for the delegates.

A cell's text laid out and elided as ``QCommonStyle`` lays it out, kept between paints so a
repaint lays out nothing it laid out before; a way to tell the texts the style lays out
differently (line breaks, controls, right-to-left), which still go through the style; the
palette's colours in the colour groups the style picks; a row's backgrounds in few fills.
"""

from __future__ import annotations

import re
import unicodedata

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QFontMetricsF,
    QPainter,
    QPalette,
    QStaticText,
)
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QWidget

from memory_desk.core.hidden_text import OPEN
from memory_desk.ui.hidden import marked_placeholders_html

OPEN_PLACEHOLDER = f"{OPEN}U+"
SLOW = object()  # a text the style lays out differently (line breaks, controls): its path
TEXTS_KEPT = 4096  # laid-out texts kept: more than ten screens

_ACTIVE = QStyle.StateFlag.State_Active
_ENABLED = QStyle.StateFlag.State_Enabled
_FOCUS_MARGIN = QStyle.PixelMetric.PM_FocusFrameHMargin
_RIGHT = Qt.AlignmentFlag.AlignRight.value
_HCENTER = Qt.AlignmentFlag.AlignHCenter.value
_CONTROLS = re.compile("[\x00-\x1f\u2028\u2029]")  # one search in C, not a loop per character
_NOT_LEFT_TO_RIGHT = frozenset({"R", "AL", "AN", "RLE", "RLO", "LRE", "LRO", "RLI", "LRI", "FSI"})


def needs_the_style(text: str) -> bool:
    """Text that ``QStaticText`` would not lay out as the style's ``QTextLayout`` does: line
    breaks and other controls, and right-to-left or bidi-controlled text (its direction)."""
    if _CONTROLS.search(text) is not None:
        return True
    return not text.isascii() and any(
        unicodedata.bidirectional(char) in _NOT_LEFT_TO_RIGHT for char in text
    )


def laid_out(text: str, font: QFont) -> QStaticText:
    """One line of plain text laid out in ``font``, to draw again and again; the placeholders
    of hidden characters (``⟨U+202E⟩``, :mod:`memory_desk.ui.hidden`) in their own colour."""
    if OPEN_PLACEHOLDER in text:
        static = QStaticText(
            f'<span style="white-space:pre">{marked_placeholders_html(text)}</span>'
        )
        static.setTextFormat(Qt.TextFormat.RichText)
    else:
        static = QStaticText(text)
        static.setTextFormat(Qt.TextFormat.PlainText)
    static.prepare(font=font)
    return static


def lay_out_text(
    text: str, width: int, height: int, font: QFont, align: int, style: QStyle, view: QWidget
) -> tuple[QStaticText, float, float]:
    """What ``QCommonStyle`` does to a cell's text: a margin of the focus frame's plus one on
    each side, elided to the rest when wider, centred vertically on the line's height.
    Returns the laid-out text and its (x, y) in a text area of ``width`` × ``height``."""
    margin = style.pixelMetric(_FOCUS_MARGIN, None, view) + 1
    room = width - 2 * margin
    exact = QFontMetricsF(font)
    if exact.horizontalAdvance(text) > room:
        text = QFontMetrics(font).elidedText(text, view.textElideMode(), max(room, 0))
    static = laid_out(text, font)
    shown = static.size().width()
    if align & _RIGHT:
        x = margin + room - shown
    elif align & _HCENTER:
        x = margin + (room - shown) / 2
    else:
        x = margin
    y = (height - (exact.ascent() + exact.descent())) / 2
    return static, x, y


class TextCache:
    """Cell texts laid out once per (text, width, height, font, alignment) and kept.

    A full screen's texts stay laid out between paints, so scrolling back, a selection change
    or a row moving to the top lays out nothing again. It keeps two generations of half of
    ``TEXTS_KEPT`` each and drops the older when the newer is full: emptied all at once, the
    next paint laid out every text on screen again (the observations table found it: 29 of
    its 40 slowest scroll frames)."""

    def __init__(self) -> None:
        self.texts: dict[tuple, object] = {}
        self.older: dict[tuple, object] = {}
        self.layouts = 0  # texts laid out (the tests read it)

    def get(
        self,
        text: str,
        width: int,
        height: int,
        font: QFont,
        font_key: str,
        align: int,
        style: QStyle,
        view: QWidget,
    ) -> object:
        """``(QStaticText, x, y)`` of ``text`` in a text area of this size, or ``SLOW``."""
        key = (text, width, height, font_key, align)
        known = self.texts.get(key)
        if known is not None:
            return known
        known = self.older.get(key)
        if known is None:
            self.layouts += 1
            if needs_the_style(text):
                known = SLOW
            else:
                known = lay_out_text(text, width, height, font, align, style, view)
        if len(self.texts) >= TEXTS_KEPT // 2:
            self.older, self.texts = self.texts, {}
        self.texts[key] = known
        return known

    def clear(self) -> None:
        self.texts.clear()
        self.older.clear()


class CellColours:
    """The palette's colours for one paint, in the colour groups the style uses."""

    def __init__(self, option: QStyleOptionViewItem, enabled: bool) -> None:
        palette = option.palette
        group = QPalette.ColorGroup
        active = bool(option.state & _ACTIVE)
        panel = group.Normal if enabled else group.Disabled
        if panel == group.Normal and not active:
            panel = group.Inactive
        text = group.Normal if option.state & _ENABLED else group.Disabled
        if text == group.Normal and not active:
            text = group.Inactive
        self.highlight = palette.brush(panel, QPalette.ColorRole.Highlight)
        self.alternate = palette.brush(panel, QPalette.ColorRole.AlternateBase)
        self.text = palette.color(text, QPalette.ColorRole.Text)
        self.highlighted_text = palette.color(text, QPalette.ColorRole.HighlightedText)
        # The Normal group's, which delegates that paint an enabled cell read
        # (``QTableView::drawCell`` sets an enabled cell's palette to Normal).
        normal = group.Normal
        self.normal_text = palette.color(normal, QPalette.ColorRole.Text)
        self.normal_highlighted_text = palette.color(normal, QPalette.ColorRole.HighlightedText)
        self._backgrounds: dict[tuple, tuple[QBrush, ...]] = {}

    def background(
        self, selected: bool, alternate: bool, mark: QBrush | None = None
    ) -> tuple[QBrush, ...]:
        """The brushes the style fills a cell with, in order (none: the viewport's base
        shows): the selection; else the alternate row's, then a mark's translucent one. The
        same answer is the same tuple, so :func:`fill_row` tells runs apart with ``is``."""
        key = (selected, alternate, None if selected else id(mark) if mark is not None else 0)
        known = self._backgrounds.get(key)
        if known is None:
            if selected:
                known = (self.highlight,)
            else:
                known = ((self.alternate,) if alternate else ()) + (
                    (mark,) if mark is not None else ()
                )
            self._backgrounds[key] = known
        return known

    def ink(self, selected: bool) -> QColor:
        return self.highlighted_text if selected else self.text


def fill_row(
    painter: QPainter,
    columns: list[tuple[int, int, int]],
    top: int,
    height: int,
    colours: CellColours,
    chosen_columns: frozenset[int] | tuple,
    alternate: bool,
    mark: QBrush | None = None,
) -> None:
    """A row's backgrounds: one fill per run of cells with the same brushes (most rows: one
    or none), over ``columns``: (column, x, width) left to right."""
    run_start = run_end = 0
    run: tuple[QBrush, ...] = ()
    for column, x, width in columns:
        brushes = colours.background(column in chosen_columns, alternate, mark)
        if brushes is run and x == run_end:
            run_end = x + width
            continue
        for brush in run:
            painter.fillRect(QRect(run_start, top, run_end - run_start, height), brush)
        run_start, run_end, run = x, x + width, brushes
    for brush in run:
        painter.fillRect(QRect(run_start, top, run_end - run_start, height), brush)
