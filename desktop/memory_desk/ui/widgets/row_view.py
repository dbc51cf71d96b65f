"""The one table view that paints its rows itself, in one Python call per paint.

Why: a ``QTableView`` paints each cell through its delegate and the style
(``QTableView::drawCell`` → ``PE_PanelItemViewRow`` → ``CE_ItemViewItem``). From Python that
is a trip into the delegate and two into the style per cell, several times what a plain C++
table costs; a live refresh, a save that moves a row to the top, a filter keystroke or a
page-jump scroll repaints the whole viewport, so that cost would be the floor of their stalls.

What it paints is what the delegates and the style paint (the same pixels, tested in both
themes): per row, one fill for each run of cells with the same background (selection,
alternate row, a row's mark); per cell, its text elided and aligned as the style does, from a
``QStaticText`` kept between paints (:class:`~memory_desk.ui.widgets.painting.TextCache`), the
search's words marked in the title column, or what the view's column table says for that
column (a badge, a project, an icon before the text). A few cells still go through the
delegate and the style: the current cell while the view has focus (the style's focus frame),
a text with line breaks, control characters or right-to-left runs, a cell its column's
painter declines, a row the view cannot give (unreadable, a divider).

It checks itself: before painting with a style, palette, font or state it has not seen, it
paints the view's sample cells both ways and compares the pixels; a style that draws items its
own way (a platform theme) gets the delegate path for every cell. Editing, tooltips,
accessibility, keyboard navigation, drag-select and the header are ``QTableView``'s own: only
``paintEvent`` is replaced.

A view built on it gives its column table and says how to read a row (:class:`RowView`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from PySide6.QtCore import QAbstractItemModel, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QIcon,
    QImage,
    QPainter,
    QPaintEvent,
    QPalette,
)
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QTableView, QWidget

from memory_desk.ui import theme
from memory_desk.ui.widgets.painting import SLOW, CellColours, TextCache, fill_row

LEFT = int((Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter).value)

_SELECTED = QStyle.StateFlag.State_Selected
_FOCUSED = QStyle.StateFlag.State_HasFocus
_ROW_STYLE = QStyle.PrimitiveElement.PE_PanelItemViewRow
_ITEM = QStyle.ControlElement.CE_ItemViewItem
_ENABLED = QStyle.StateFlag.State_Enabled
_ALTERNATE = QStyleOptionViewItem.ViewItemFeature.Alternate
_HAS_DISPLAY = QStyleOptionViewItem.ViewItemFeature.HasDisplay
_HAS_DECORATION = QStyleOptionViewItem.ViewItemFeature.HasDecoration
_TEXT_AREA = QStyle.SubElement.SE_ItemViewItemText
_ICON_AREA = QStyle.SubElement.SE_ItemViewItemDecoration
_DECORATION_SELECTED = QStyle.StyleHint.SH_ItemView_ShowDecorationSelected
_SAMPLE = QSize(160, 24)
_ICON_CELLS_KEPT = 64


class Sample(NamedTuple):
    """A cell the style check paints both ways: its text, alignment and font, the icon before
    it (or None), and whether it is on an alternate row and selected."""

    text: str
    alignment: int
    font: QFont
    icon: QIcon | None
    alternate: bool
    selected: bool


class Shown(NamedTuple):
    """A row as the view paints it: the model's record of it, its font (and the font's key),
    its mark's background (or None), and its text colours (``inks[0]`` for every column but the
    title, ``inks[1]`` the title's; None: the palette's)."""

    record: Any
    font: QFont
    font_key: str
    mark: QBrush | None
    inks: tuple[QColor | None, QColor | None]


NO_INKS: tuple[None, None] = (None, None)
# A Shown from its five fields as one tuple, in one call into C (its class's own constructor is
# a Python function, and a paint makes one Shown per row).
shown_of = partial(tuple.__new__, Shown)


@dataclass(frozen=True, slots=True)
class IconCell:
    """Where the style puts an icon and the text beside it, relative to the cell."""

    icon: QRect
    text: QRect
    alignment: Qt.AlignmentFlag


@dataclass(slots=True)
class Paint:
    """What every row of one paint shares (``extra``: what the view's own cell painters need,
    from :meth:`RowView.paint_extras`)."""

    model: QAbstractItemModel | None
    option: QStyleOptionViewItem
    style: QStyle
    colours: CellColours
    height: int
    font: QFont
    font_key: str
    columns: list[tuple[int, int, int]] = field(default_factory=list)  # (column, x, width)
    # (column, x, width, its own painter or None, alignment): the column table, looked up once
    cells: list[tuple] = field(default_factory=list)
    selected: dict[int, frozenset[int]] = field(default_factory=dict)  # per row, its columns
    focus: tuple[int, int] | None = None
    alternating: bool = False
    enabled: bool = True  # the view's cells are enabled (their icons are not greyed)
    marks: Any = None  # the search's words to mark in the title column, if any
    extra: Any = None


# A column's own painter: (painter, paint, row shown, x, top, width, selected) → True: it
# painted the cell; False: the delegate and the style paint it, after the row's other cells;
# None: the cell is its text, as in a column with no painter of its own.
CellPainter = Callable[[QPainter, Paint, Shown, int, int, int, bool], bool | None]


class RowView(QTableView):
    """A ``QTableView`` that paints the rows of its model in one Python call per paint.

    A view built on it sets ``cell_painters`` (column → its own :data:`CellPainter`; any other
    column is its text, aligned by ``alignments[column]``), ``title_column`` (the column whose
    text carries ``title_marks`` and the row's second ink) and implements :meth:`paints` and
    :meth:`shown_row`, and :meth:`style_samples` for its style check; its model answers
    ``shown_text(record, column)`` with a cell's text. On another model, with a grid, word
    wrap, hidden rows, right to left or a style that paints items its own way, it paints as a
    ``QTableView`` does.

    Signals:
        painted(): the viewport was just painted (a page finishes a live refresh after the
            new rows are on screen, not before)
    """

    painted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # (text, width, height, font, align) -> laid out, in two generations: emptying one
        # cache at once would make the next frame lay out every text on screen again.
        self.texts = TextCache()
        # Whether its painting matches the style, per (style, palette, font, state); the
        # styles checked are kept alive, so the ids in those keys stay theirs.
        self._checked: dict[tuple, bool] = {}
        self._styles: list[QStyle] = []
        self._icon_cells: dict[tuple, IconCell] = {}  # (icon, width, height, style, font)
        self.painted_fast = 0  # cells painted by the view itself (the tests read it)
        self.painted_by_style = 0  # cells the delegates and the style painted
        self.cell_painters: dict[int, CellPainter] = {}
        self.alignments: list[int] = []
        self.title_column = -1
        self.title_marks: Any = None  # words marked in the title column: .words, .paint(...)
        theme.notifier().changed.connect(self._on_theme_changed)

    # -- what a view built on it says --------------------------------------------------------

    def paints(self, model: QAbstractItemModel) -> bool:
        """Whether the view paints the rows of ``model`` itself."""
        return False

    def paint_extras(self, paint: Paint) -> Any:
        """What this view's cell painters share in one paint (worked out once)."""
        return None

    def shown_row(self, paint: Paint, row: int) -> Shown | None:
        """How to paint ``row``, or None to leave the whole row to the delegates."""
        raise NotImplementedError

    def style_samples(self, option: QStyleOptionViewItem) -> list[Sample]:
        """The cells the style check paints both ways, in the view's item ``option``."""
        return []

    # -- Qt --------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        model = self.model()
        if model is not None and self.paints(model) and self.can_paint():
            painter = QPainter(self.viewport())
            try:
                self._paint_rows(painter, model, event.rect())
            finally:
                painter.end()
        else:
            super().paintEvent(event)
        self.painted.emit()

    def _on_theme_changed(self) -> None:
        """A new palette or style: check the own painting again, and repaint."""
        self._checked.clear()
        self._styles.clear()
        self._icon_cells.clear()
        self.viewport().update()

    # -- when its own painting applies -------------------------------------------------------

    def can_paint(self) -> bool:
        """Whether painting the rows itself gives the pixels ``QTableView`` would."""
        if self.showGrid() or self.isRightToLeft() or self.wordWrap():
            return False
        if self.verticalHeader().sectionsHidden():
            return False
        style = self.style()
        option = self._item_option()
        key = (id(style), option.palette.cacheKey(), option.font.key(), option.state.value)
        known = self._checked.get(key)
        if known is None:
            if style not in self._styles:
                self._styles.append(style)
            known = self._checked[key] = self._matches_the_style(style, option)
        return known

    def _item_option(self) -> QStyleOptionViewItem:
        """The view's item option as it starts every cell's (palette, font, state)."""
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        return option

    def _matches_the_style(self, style: QStyle, option: QStyleOptionViewItem) -> bool:
        """Paint the sample cells with the style and as the rows are painted: the same
        pixels?"""
        if not style.styleHint(_DECORATION_SELECTED, option, self):
            return False
        colours = CellColours(option, self.isEnabled())
        rect = QRect(0, 0, _SAMPLE.width(), _SAMPLE.height())
        for sample in self.style_samples(option):
            cell = self._sample_option(option, rect, sample)
            by_style = _blank(option.palette)
            painter = QPainter(by_style)
            style.drawPrimitive(_ROW_STYLE, cell, painter, self)
            style.drawControl(_ITEM, cell, painter, self)
            painter.end()
            ours = _blank(option.palette)
            painter = QPainter(ours)
            for brush in colours.background(sample.selected, sample.alternate):
                painter.fillRect(rect, brush)
            font = sample.font
            painter.setFont(font)
            paint = Paint(None, option, style, colours, rect.height(), font, font.key())
            paint.enabled = bool(cell.state & _ENABLED)
            selected = sample.selected
            if sample.icon is None:
                width, align = rect.width(), sample.alignment
                self.paint_text(painter, paint, sample.text, 0, 0, width, selected, align)
            else:
                width, icon = rect.width(), sample.icon
                self.paint_icon_and_text(painter, paint, icon, sample.text, 0, 0, width, selected)
            painter.end()
            if by_style != ours:
                return False
        return True

    def _sample_option(
        self, base: QStyleOptionViewItem, rect: QRect, sample: Sample
    ) -> QStyleOptionViewItem:
        """A sample cell's option, as ``QTableView::drawCell`` and ``QStyledItemDelegate``
        fill it for such a cell."""
        option = QStyleOptionViewItem(base)
        option.rect = rect
        option.text = sample.text
        option.font = sample.font
        option.fontMetrics = QFontMetrics(sample.font)
        option.displayAlignment = Qt.AlignmentFlag(sample.alignment)
        option.features |= _HAS_DISPLAY
        if sample.icon is not None:
            option.icon = sample.icon
            option.features |= _HAS_DECORATION
            option.decorationSize = sample.icon.actualSize(base.decorationSize)
        if sample.alternate:
            option.features |= _ALTERNATE
        if sample.selected:
            option.state |= _SELECTED
        option.palette.setCurrentColorGroup(QPalette.ColorGroup.Normal)
        return option

    # -- painting ----------------------------------------------------------------------------

    def _paint_rows(self, painter: QPainter, model: QAbstractItemModel, dirty: QRect) -> None:
        """Every row crossing ``dirty``: backgrounds, texts and the column table's cells."""
        first, last = self.rowAt(dirty.top()), self.rowAt(dirty.bottom())
        columns = self._columns_in(dirty)
        if first < 0 or not columns:
            return
        if last < 0:
            last = model.rowCount() - 1
        option = self._item_option()
        font = option.font
        current = self.currentIndex()
        focused = current.isValid() and (self.hasFocus() or self.viewport().hasFocus())
        marks = self.title_marks
        paint = Paint(
            model=model,
            option=option,
            style=self.style(),
            colours=CellColours(option, self.isEnabled()),
            columns=columns,
            height=self.rowHeight(first),
            font=font,
            font_key=font.key(),
            selected=self._selected_columns(first, last),
            focus=(current.row(), current.column()) if focused else None,
            alternating=self.alternatingRowColors(),
            enabled=bool(option.state & _ENABLED),
            marks=marks if marks is not None and marks.words else None,
            extra=None,
        )
        own, alignments = self.cell_painters, self.alignments
        paint.cells = [
            (column, x, width, own.get(column), alignments[column] if alignments else LEFT)
            for column, x, width in columns
        ]
        paint.extra = self.paint_extras(paint)
        painter.setFont(font)
        for row in range(first, last + 1):
            top = self.rowViewportPosition(row)
            shown = self.shown_row(paint, row)
            if shown is None:
                self._paint_row_by_style(painter, paint, row, top)
            else:
                self._paint_row(painter, paint, row, top, shown)

    def _columns_in(self, dirty: QRect) -> list[tuple[int, int, int]]:
        """(column, x, width) of the shown columns crossing ``dirty``, left to right."""
        header = self.horizontalHeader()
        left = max(header.visualIndexAt(dirty.left()), 0)
        right = header.visualIndexAt(dirty.right())
        right = header.count() - 1 if right < 0 else right
        columns = []
        for visual in range(left, right + 1):
            column = header.logicalIndex(visual)
            if not header.isSectionHidden(column):
                x = self.columnViewportPosition(column)
                columns.append((column, x, self.columnWidth(column)))
        return columns

    def _selected_columns(self, first: int, last: int) -> dict[int, frozenset[int]]:
        """Per row between ``first`` and ``last``: its selected columns."""
        selected: dict[int, set[int]] = {}
        for each in self.selectionModel().selection():
            top, bottom = max(each.top(), first), min(each.bottom(), last)
            span = range(each.left(), each.right() + 1)
            for row in range(top, bottom + 1):
                selected.setdefault(row, set()).update(span)
        return {row: frozenset(columns) for row, columns in selected.items()}

    def _paint_row_by_style(self, painter: QPainter, paint: Paint, row: int, top: int) -> None:
        """A row the view does not paint itself: every cell as the delegates paint it, or its
        one cell when it spans the row."""
        alternate = paint.alternating and bool(row & 1)
        chosen = paint.selected.get(row, ())
        if self.columnSpan(row, 0) == paint.model.columnCount() > 1:
            rect = self.visualRect(paint.model.index(row, 0))
            self._paint_by_style(painter, paint, row, 0, rect, alternate, 0 in chosen)
            return
        for column, x, width in paint.columns:
            rect = QRect(x, top, width, paint.height)
            self._paint_by_style(painter, paint, row, column, rect, alternate, column in chosen)

    def _paint_row(self, painter: QPainter, paint: Paint, row: int, top: int, shown: Shown) -> None:
        """One row: its fills, then each cell (a cell not painted here goes to the delegate,
        after the others)."""
        alternate = paint.alternating and bool(row & 1)
        row_selection = paint.selected.get(row, ())
        colours = paint.colours
        height = paint.height
        fill_row(painter, paint.columns, top, height, colours, row_selection, alternate, shown[3])
        record, row_font, font_key, _mark, inks = shown
        if row_font is not paint.font:
            painter.setFont(row_font)
        focus = paint.focus
        title = self.title_column
        marks = paint.marks
        shown_text = paint.model.shown_text
        cache = self.texts
        slow: list[tuple[int, int, int, bool]] = []
        pen: QColor | None = None
        fast = 0
        for column, x, width, cell_painter, align in paint.cells:
            chosen = column in row_selection
            if focus is not None and focus == (row, column):
                slow.append((column, x, width, chosen))
                continue
            if cell_painter is not None:
                painted = cell_painter(painter, paint, shown, x, top, width, chosen)
                if painted:
                    fast += 1
                    pen = None
                    continue
                if painted is False:
                    slow.append((column, x, width, chosen))
                    continue
            text = shown_text(record, column)
            if not text:
                fast += 1
                continue
            laid = cache.texts.get((text, width, height, font_key, align))
            if laid is None:
                laid = cache.get(text, width, height, row_font, font_key, align, paint.style, self)
            if laid is SLOW:
                slow.append((column, x, width, chosen))
                continue
            static, dx, dy = laid  # type: ignore[misc]
            if chosen:
                ink = colours.highlighted_text
            else:
                foreground = inks[column == title]
                ink = foreground if foreground is not None else colours.text
            if ink is not pen:
                painter.setPen(ink)
                pen = ink
            painter.drawStaticText(QPointF(x + dx, top + dy), static)
            if marks is not None and column == title:
                cell = QRectF(x, top, width, height)
                marks.paint(painter, static, QPointF(x + dx, top + dy), row_font, cell)
            fast += 1
        self.painted_fast += fast
        if row_font is not paint.font:
            painter.setFont(paint.font)
        for column, x, width, chosen in slow:
            rect = QRect(x, top, width, height)
            self._paint_by_style(painter, paint, row, column, rect, alternate, chosen)

    def _paint_by_style(
        self,
        painter: QPainter,
        paint: Paint,
        row: int,
        column: int,
        rect: QRect,
        alternate: bool,
        selected: bool,
    ) -> None:
        """One cell as ``QTableView::drawCell`` paints it: the row panel, then the delegate."""
        model = paint.model
        option = QStyleOptionViewItem(paint.option)
        option.rect = rect
        if alternate:
            option.features |= _ALTERNATE
        else:
            option.features &= ~_ALTERNATE
        index = model.index(row, column)
        if selected:
            option.state |= _SELECTED
        if option.state & _ENABLED:
            if model.flags(index) & Qt.ItemFlag.ItemIsEnabled:
                option.palette.setCurrentColorGroup(QPalette.ColorGroup.Normal)
            else:
                option.state &= ~_ENABLED
                option.palette.setCurrentColorGroup(QPalette.ColorGroup.Disabled)
        if paint.focus == (row, column):
            option.state |= _FOCUSED
        paint.style.drawPrimitive(_ROW_STYLE, option, painter, self)
        painter.save()
        self.itemDelegateForIndex(index).paint(painter, option, index)
        painter.restore()
        self.painted_by_style += 1

    # -- what cell painters share --------------------------------------------------------------

    def paint_text(
        self,
        painter: QPainter,
        paint: Paint,
        text: str,
        x: int,
        top: int,
        width: int,
        chosen: bool,
        align: int = LEFT,
    ) -> bool:
        """A text in a cell, in the paint's font and the palette's colour (False: the text is
        one the style lays out differently)."""
        if not text:
            return True
        font_key, height = paint.font_key, paint.height
        laid = self.texts.texts.get((text, width, height, font_key, align))
        if laid is None:
            laid = self.texts.get(
                text, width, height, paint.font, font_key, align, paint.style, self
            )
        if laid is SLOW:
            return False
        static, dx, dy = laid  # type: ignore[misc]
        painter.setPen(paint.colours.ink(chosen))
        painter.drawStaticText(QPointF(x + dx, top + dy), static)
        return True

    def paint_icon_and_text(
        self,
        painter: QPainter,
        paint: Paint,
        icon: QIcon,
        text: str,
        x: int,
        top: int,
        width: int,
        chosen: bool,
    ) -> bool:
        """An icon where the style puts it in a cell of ``width``, the text beside it, in the
        paint's font (False: the text is one the style lays out differently)."""
        place = self._icon_cell(paint, icon, width)
        if paint.enabled:
            mode = QIcon.Mode.Selected if chosen else QIcon.Mode.Normal
        else:
            mode = QIcon.Mode.Disabled
        icon.paint(painter, place.icon.translated(x, top), place.alignment, mode, QIcon.State.Off)
        area = place.text
        return self.paint_text(painter, paint, text, x + area.left(), top, area.width(), chosen)

    def _icon_cell(self, paint: Paint, icon: QIcon, width: int) -> IconCell:
        """Where this icon and the text beside it go in a cell of this width, as the style
        lays out the option the delegate gives such a cell (worked out once)."""
        key = (icon.cacheKey(), width, paint.height, id(paint.style), paint.font_key)
        known = self._icon_cells.get(key)
        if known is None:
            rect = QRect(0, 0, width, paint.height)
            sample = Sample("x", LEFT, paint.font, icon, False, False)
            option = self._sample_option(paint.option, rect, sample)
            if len(self._icon_cells) >= _ICON_CELLS_KEPT:
                self._icon_cells.clear()
            known = self._icon_cells[key] = _icon_cell(paint.style, option, self)
        return known


def _icon_cell(style: QStyle, option: QStyleOptionViewItem, view: QTableView) -> IconCell:
    """The icon's and the text's areas in a cell with this option, as the style lays them
    out (``QCommonStyle``'s item layout), relative to the option's rect."""
    origin = option.rect.topLeft()
    icon = style.subElementRect(_ICON_AREA, option, view).translated(-origin)
    text = style.subElementRect(_TEXT_AREA, option, view).translated(-origin)
    return IconCell(icon, text, option.decorationAlignment)


def _blank(palette: QPalette) -> QImage:
    """A sample cell's image, filled with the palette's base as the viewport is."""
    image = QImage(_SAMPLE, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(palette.color(QPalette.ColorRole.Base))
    return image
