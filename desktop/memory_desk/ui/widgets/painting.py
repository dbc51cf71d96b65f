"""What a view needs to paint its cells itself with the style's exact pixels.

Why: a ``QTableView`` paints each cell through its delegate and the style; from Python that is
a trip into the delegate and two into the style per cell, which adds up over a full
repaint. A view that paints its rows in one Python call needs the same few things the style
does: a cell's text laid out and elided as ``QCommonStyle`` lays it out (kept, so a repaint
lays out nothing it laid out before), the palette's colours in the colour groups the style
picks, and a way to tell the texts the style lays out differently (line breaks, controls,
right-to-left), which still go through the style.

The entry list (``ui/persona/entry_list.py``) paints with all of it; the observations table
(``ui/observations/table_view.py``) with its text layout and checks, and a two-generation
text cache of its own, inlined in its paint loop (the hottest loop of the table). Both fill
their rows' backgrounds (:func:`fill_row`) and paint the cells they leave to the style
(:func:`paint_cell_by_style`) with the same two functions.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QFontMetricsF,
    QImage,
    QPainter,
    QPalette,
    QStaticText,
)
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QTableView, QWidget

from memory_desk.core.hidden_text import OPEN
from memory_desk.ui.hidden import marked_placeholders_html

OPEN_PLACEHOLDER = f"{OPEN}U+"
SLOW = object()  # a text the style lays out differently (line breaks, controls): its path
TEXTS_KEPT = 4096  # laid-out texts kept: more than ten screens

_ACTIVE = QStyle.StateFlag.State_Active
_SELECTED = QStyle.StateFlag.State_Selected
_FOCUSED = QStyle.StateFlag.State_HasFocus
_ALTERNATE = QStyleOptionViewItem.ViewItemFeature.Alternate
_ROW_STYLE = QStyle.PrimitiveElement.PE_PanelItemViewRow
_ITEM = QStyle.ControlElement.CE_ItemViewItem
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
    or none), over ``columns`` as :func:`columns_in` gives them."""
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


def paint_cell_by_style(
    view: QTableView,
    painter: QPainter,
    base: QStyleOptionViewItem,
    style: QStyle,
    row: int,
    column: int,
    rect: QRect,
    alternate: bool,
    focused: bool,
    selected: bool | None = None,
) -> None:
    """One cell as ``QTableView::drawCell`` paints it: the row panel, then the delegate
    (``selected``: None asks the view's selection model)."""
    model = view.model()
    option = QStyleOptionViewItem(base)
    option.rect = rect
    if alternate:
        option.features |= _ALTERNATE
    else:
        option.features &= ~_ALTERNATE
    index = model.index(row, column)
    if selected is None:
        selected = view.selectionModel().isSelected(index)
    if selected:
        option.state |= _SELECTED
    if option.state & _ENABLED:
        if model.flags(index) & Qt.ItemFlag.ItemIsEnabled:
            option.palette.setCurrentColorGroup(QPalette.ColorGroup.Normal)
        else:
            option.state &= ~_ENABLED
            option.palette.setCurrentColorGroup(QPalette.ColorGroup.Disabled)
    if focused:
        option.state |= _FOCUSED
    style.drawPrimitive(_ROW_STYLE, option, painter, view)
    painter.save()
    view.itemDelegateForIndex(index).paint(painter, option, index)
    painter.restore()


def blank_image(size: QSize, palette: QPalette) -> QImage:
    """An image of ``size`` filled with the palette's base, to paint a sample cell on."""
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(palette.color(QPalette.ColorRole.Base))
    return image


def sample_by_style(
    style: QStyle, sample: QStyleOptionViewItem, view: QWidget, palette: QPalette
) -> QImage:
    """A sample cell as the style paints it (the row panel, then the item), on an image of
    the sample's size filled with ``palette``'s base: what a view's own painting of the same
    cell is compared with before the view trusts it."""
    image = blank_image(sample.rect.size(), palette)
    painter = QPainter(image)
    style.drawPrimitive(_ROW_STYLE, sample, painter, view)
    style.drawControl(_ITEM, sample, painter, view)
    painter.end()
    return image


def rows_in(view: QTableView, dirty: QRect) -> tuple[int, int, list[tuple[int, int, int]]] | None:
    """(first row, last row, shown columns) of ``view`` crossing ``dirty``; None when it
    crosses no row or no column (nothing to paint)."""
    first = view.rowAt(dirty.top())
    if first < 0:
        return None
    last = view.rowAt(dirty.bottom())
    if last < 0:
        last = view.model().rowCount() - 1
    columns = columns_in(view, dirty)
    if not columns:
        return None
    return first, last, columns


def columns_in(view: QTableView, dirty: QRect) -> list[tuple[int, int, int]]:
    """(column, x, width) of the shown columns of ``view`` crossing ``dirty``, left to right."""
    header = view.horizontalHeader()
    left = header.visualIndexAt(dirty.left())
    right = header.visualIndexAt(dirty.right())
    left = 0 if left < 0 else left
    right = header.count() - 1 if right < 0 else right
    columns = []
    for visual in range(left, right + 1):
        column = header.logicalIndex(visual)
        if header.isSectionHidden(column):
            continue
        columns.append((column, view.columnViewportPosition(column), view.columnWidth(column)))
    return columns


def selected_columns(view: QTableView, first: int, last: int) -> dict[int, frozenset[int]]:
    """Per row of ``view`` between ``first`` and ``last``: its selected columns."""
    selected: dict[int, set[int]] = {}
    for each in view.selectionModel().selection():
        top, bottom = max(each.top(), first), min(each.bottom(), last)
        if top > bottom:
            continue
        span = range(each.left(), each.right() + 1)
        for row in range(top, bottom + 1):
            selected.setdefault(row, set()).update(span)
    return {row: frozenset(columns) for row, columns in selected.items()}


def focus_cell(view: QTableView) -> tuple[int, int] | None:
    """(row, column) of the cell of ``view`` the style draws a focus frame on, if any."""
    if not (view.hasFocus() or view.viewport().hasFocus()):
        return None
    current = view.currentIndex()
    return (current.row(), current.column()) if current.isValid() else None


def base_option(view: QTableView) -> QStyleOptionViewItem:
    """The view's item option as it starts every cell's (palette, font, state)."""
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    return option


class StyleChecks:
    """Whether a view's own painting matches its style, asked once per (style, palette, font,
    state): ``check(style, option)`` paints sample cells both ways and compares them.

    Keeps every style it checked alive, so the ``id`` in its keys stays that style's."""

    def __init__(self, check: Callable[[QStyle, QStyleOptionViewItem], bool]) -> None:
        self._check = check
        self._known: dict[tuple, bool] = {}
        self._styles: list[QStyle] = []

    def matches(self, view: QTableView) -> bool:
        """Whether ``view``'s style, palette, font and state now match its own painting."""
        style = view.style()
        option = base_option(view)
        key = (id(style), option.palette.cacheKey(), option.font.key(), option.state.value)
        known = self._known.get(key)
        if known is None:
            if style not in self._styles:
                self._styles.append(style)
            known = self._known[key] = self._check(style, option)
        return known

    def forget(self) -> None:
        """A new palette or style: check again before the next paint."""
        self._known.clear()
        self._styles.clear()
