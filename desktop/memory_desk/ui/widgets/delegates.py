"""How two columns are painted: the type as a badge, the project as a bold name and a hash.

- The type badge is a rounded pill carrying the type's name (colour is never the only
  signal), one hue per type, its colours read from :func:`memory_desk.ui.theme.colors` when
  it is painted, so light and dark each get pairs that keep a 4.5:1 contrast.
- A project id is ``<basename>-<8 hex>``: the name is what a person reads, the hash what tells
  two checkouts apart. The name is drawn bold and the hash subdued; a narrow column cuts the
  id in the middle (``fieldnotes…a786d7ce``) so both ends stay; the model's tooltip and
  accessible text keep the whole id.

Both delegates repaint their view when the theme changes, and work on any model whose cells
hold the type name or the project id (the observations table, the agent-search results, the
chats). On a :class:`~memory_desk.ui.widgets.cells.CellTableModel` (the observations table)
each cell is painted from one :meth:`~memory_desk.ui.widgets.cells.CellTableModel.cell`
call: the option is filled from that one answer exactly as ``initStyleOption`` would fill it,
and the style draws it, so themes, selection, hover, alternate rows and elision look as the
style makes them. Tooltips and screen readers still ask ``data()``. :class:`ThemedDelegate` is the
base a page's own delegates build on.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QStaticText,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from memory_desk.ui import theme
from memory_desk.ui.elide import elide_middle, split_project
from memory_desk.ui.widgets.cells import FORGOTTEN_ROLE, Cell, CellTableModel
from memory_desk.ui.widgets.painting import laid_out

_Index = QModelIndex | QPersistentModelIndex
_HAS_DISPLAY = QStyleOptionViewItem.ViewItemFeature.HasDisplay
_TEXT = QPalette.ColorRole.Text
_ITEM = QStyle.ControlElement.CE_ItemViewItem
_TEXT_AREA = QStyle.SubElement.SE_ItemViewItemText
_FOCUS_MARGIN = QStyle.PixelMetric.PM_FocusFrameHMargin
_LAYOUTS_KEPT = 4096  # measured labels and project cuts kept (a few screens' worth)


def badge_colours(type_name: str) -> tuple[QColor, QColor]:
    """(fill, text) of a type's badge in the theme in effect now."""
    fill, text = theme.colors().badge(type_name)
    return QColor(fill), QColor(text)


def project_parts(text: str) -> tuple[str, str, str]:
    """``(name, hash, rest)`` of a shown project: ``fieldnotes-a786d7ce (personal)`` gives
    ``("fieldnotes", "a786d7ce", " (personal)")``; text that is not an Alisio id is all name."""
    name, digest = split_project(text)
    if digest:
        return name, digest, ""
    head, separator, tail = text.rpartition(" (")
    if separator:
        name, digest = split_project(head)
        if digest:
            return name, digest, separator + tail
    return text, "", ""


def project_pieces(
    text: str, bold: QFontMetrics, plain: QFontMetrics, width: int
) -> tuple[str, str]:
    """``(bold part, subdued part)`` of a project id as it fits in ``width`` pixels.

    The name is what a person reads; the hash only tells two checkouts of one name apart
    (the whole id is in the cell's tooltip). Whole when it fits; else the hash goes first
    (``fieldnotes``, with what follows it, such as " (personal)"), then the name is cut at its
    end (``fieldno…``).
    """
    name, digest, rest = project_parts(text)
    if not digest:
        return elide_middle(text, bold, width), ""
    tail = f"-{digest}{rest}"
    if bold.horizontalAdvance(name) + plain.horizontalAdvance(tail) <= width:
        return name, tail
    room = width - plain.horizontalAdvance(rest)
    if bold.horizontalAdvance(name) <= room:
        return name, rest
    return bold.elidedText(name, Qt.TextElideMode.ElideRight, max(room, 0)), rest


@dataclass(frozen=True)
class ProjectCell:
    """What a project cell shows: the bold name part, the subdued rest, and their colours."""

    name: str
    tail: str
    name_colour: QColor
    tail_colour: QColor


class ThemedDelegate(QStyledItemDelegate):
    """A delegate that paints with the theme's colours and repaints its view when it changes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._widget: QWidget | None = None
        self._style: QStyle | None = None
        theme.notifier().changed.connect(self._repaint)

    def _repaint(self) -> None:
        self._style = None  # a theme may change the style too
        view = self.parent()
        if isinstance(view, QAbstractItemView):
            view.viewport().update()

    def _view_style(self, option: QStyleOptionViewItem) -> tuple[QWidget | None, QStyle | None]:
        """The view and its style, looked up once (each look-up from a cell finds the Python
        wrapper of the view again, which costs as much as drawing the cell's text)."""
        if self._style is None:
            widget = option.widget
            self._widget = widget
            self._style = widget.style() if widget is not None else None
        return self._widget, self._style

    def _cell_option(
        self, option: QStyleOptionViewItem, index: _Index
    ) -> tuple[QStyleOptionViewItem, Cell | None]:
        """The cell's initialised option, and the observations model's answer when it gave
        one (then no ``data()`` was asked); other models go through ``initStyleOption``."""
        model = index.model()
        cell = (
            model.cell(index.row(), index.column()) if isinstance(model, CellTableModel) else None
        )
        if cell is None:
            cell_option = QStyleOptionViewItem(option)
            self.initStyleOption(cell_option, index)
            return cell_option, cell
        # A table view hands each cell its own copy of the option (QTableView::drawCell):
        # filling it in place saves a copy per cell, the largest cost left in a cell.
        cell_option = (
            option if isinstance(option.widget, QTableView) else QStyleOptionViewItem(option)
        )
        self._fill(cell_option, index, cell)
        return cell_option, cell

    def _fill(self, option: QStyleOptionViewItem, index: _Index, cell: Cell) -> None:
        """What ``QStyledItemDelegate::initStyleOption`` sets from the roles, from one answer:
        the font resolved over the view's, the text colour, alignment, text and background."""
        option.index = index
        if cell.font is not None:
            font = cell.font.resolve(option.font)
            option.font = font
            option.fontMetrics = QFontMetrics(font)
        option.displayAlignment = cell.alignment
        if cell.foreground is not None:
            palette = QPalette(option.palette)
            palette.setBrush(_TEXT, QBrush(cell.foreground))
            option.palette = palette
        option.features |= _HAS_DISPLAY
        text = cell.text
        # What displayText does to a string (line breaks drawn as breaks), only when needed:
        # asking it for every cell costs more than the rest of the cell.
        option.text = self.displayText(text, option.locale) if "\n" in text else text
        if cell.background is not None:
            option.backgroundBrush = cell.background

    def _paint_background(
        self, painter: QPainter, option: QStyleOptionViewItem, index: _Index
    ) -> tuple[QStyleOptionViewItem, Cell | None]:
        """The style's selection/hover background, without the cell's own text; returns the
        initialised option (font, palette and state of the cell) and the model's cell."""
        background, cell = self._cell_option(option, index)
        text = background.text
        background.text = ""
        widget, style = self._view_style(background)
        if style is not None:
            style.drawControl(_ITEM, background, painter, widget)
        background.text = text
        return background, cell


class TypeBadgeDelegate(ThemedDelegate):
    """Paints the type column as a badge so types can be told apart while scrolling.

    A forgotten row's badge is an outline in the type's hue with the row's greyed text, matching
    the rest of the row (a faded fill would drop the text's contrast).
    """

    PADDING_X = 7
    MARGIN_Y = 3

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._labels: dict[tuple[str, int, str], tuple[QFont, QStaticText, int]] = {}

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        model = index.model()
        if isinstance(model, CellTableModel):
            cell_option, cell = self._paint_background(painter, option, index)
            if cell is None:
                return
            observation = cell.record.observation
            self._paint_badge(painter, option, cell_option, observation.type, cell.record.forgotten)
            return
        badge = self._badge(index)
        if badge is None:
            super().paint(painter, option, index)
            return
        cell_option, _cell = self._paint_background(painter, option, index)
        self._paint_badge(painter, option, cell_option, *badge)

    def _paint_badge(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        cell_option: QStyleOptionViewItem,
        text: str,
        forgotten: bool,
    ) -> None:
        """The pill with the type's name, in the cell's rectangle, over its background."""
        row_ink = cell_option.palette.color(QPalette.ColorRole.Text)
        self.paint_badge(painter, option.rect, text, forgotten, cell_option.font, row_ink)

    def paint_badge(
        self,
        painter: QPainter,
        rect: QRect,
        text: str,
        forgotten: bool,
        cell_font: QFont,
        row_ink: QColor,
        font_key: str | None = None,
    ) -> None:
        """The pill with the type's name in a cell's rectangle: the same pixels whether this
        delegate or the observations table's own painting asks (``row_ink``: the row's text
        colour, which a forgotten row's outlined badge writes with; ``font_key``: the cell
        font's key, when the caller has it)."""
        fill, ink = badge_colours(text)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        cell = QRectF(rect).adjusted(4, self.MARGIN_Y, -4, -self.MARGIN_Y)
        font, label, label_width = self._label(text, int(cell.width()), cell_font, font_key)
        painter.setFont(font)
        width = min(label_width + 2 * self.PADDING_X, cell.width())
        shape = QRectF(cell.left(), cell.top(), width, cell.height())
        radius = shape.height() / 2
        if forgotten:
            painter.setPen(fill)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(shape.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
            ink = row_ink
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawRoundedRect(shape, radius, radius)
        painter.setPen(ink)
        size = label.size()  # centred in the pill, as drawText(AlignCenter) places it
        corner = QPointF(
            shape.left() + (shape.width() - size.width()) / 2,
            shape.top() + (shape.height() - size.height()) / 2,
        )
        painter.drawStaticText(corner, label)
        painter.restore()

    def _label(
        self, text: str, cell_width: int, cell_font: QFont, font_key: str | None = None
    ) -> tuple[QFont, QStaticText, int]:
        """The badge's font, its (elided) label laid out and the label's width: once per
        type, width and font (a screen repeats a handful of types), not once per painted cell
        (``drawText`` laid the label out again at every paint: a tenth of a scroll frame)."""
        key = (text, cell_width, font_key if font_key is not None else cell_font.key())
        known = self._labels.get(key)
        if known is not None:
            return known
        font = QFont(cell_font)
        font.setPointSizeF(max(font.pointSizeF() * 0.9, 7.0))
        metrics = QFontMetrics(font)
        room = cell_width - 2 * self.PADDING_X
        label = (
            text
            if metrics.horizontalAdvance(text) <= room
            else metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
        )
        if len(self._labels) >= _LAYOUTS_KEPT:
            self._labels.clear()
        known = self._labels[key] = (font, laid_out(label, font), metrics.horizontalAdvance(label))
        return known

    @staticmethod
    def _badge(index: _Index) -> tuple[str, bool] | None:
        """(type name, forgotten) of a cell of another model, or None for an empty cell."""
        text = index.data()
        if not text:
            return None
        return str(text), bool(index.data(FORGOTTEN_ROLE))


class ProjectDelegate(ThemedDelegate):
    """Paints a project id as its bold name and subdued hash, cut in the middle to fit.

    A screen shows a few projects many times: the fonts and the cut of each (id, width, font)
    are worked out once, not once per painted cell (it measures text several times).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._font_sets: dict[str, tuple[QFont, QFont, QFontMetrics, QFontMetrics]] = {}
        self._pieces: dict[tuple[str, int, str], tuple[str, str]] = {}
        self._texts: dict[tuple[str, str, bool], QStaticText] = {}  # laid out, per font

    def _fonts(
        self, font: QFont, key: str | None = None
    ) -> tuple[QFont, QFont, QFontMetrics, QFontMetrics]:
        """(plain, bold, bold metrics, plain metrics) for a cell's font (of this key)."""
        key = key if key is not None else font.key()
        known = self._font_sets.get(key)
        if known is None:
            plain = QFont(font)
            bold = QFont(plain)
            bold.setBold(True)
            known = self._font_sets[key] = (plain, bold, QFontMetrics(bold), QFontMetrics(plain))
        return known

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        cell_option, model_cell = self._paint_background(painter, option, index)
        widget, style = self._view_style(cell_option)
        if style is None or not cell_option.text:
            return
        area = style.subElementRect(_TEXT_AREA, cell_option, widget)
        margin = style.pixelMetric(_FOCUS_MARGIN, None, widget)
        area = area.adjusted(margin + 1, 0, -(margin + 1), 0)
        forgotten = None if model_cell is None else model_cell.record.forgotten
        cell = self.layout(cell_option, area.width(), forgotten)
        self.paint_project(painter, area, cell_option.font, cell)

    def paint_project(
        self,
        painter: QPainter,
        area: QRect,
        font: QFont,
        cell: ProjectCell,
        font_key: str | None = None,
    ) -> None:
        """The bold name and the subdued rest in a cell's text area, clipped to it: the same
        pixels whether this delegate or the observations table's own painting asks. Each
        part is laid out once per font (``font_key``: the font's key, when the caller has
        it), then drawn where ``drawText(AlignLeft | AlignVCenter)`` puts it."""
        key = font_key if font_key is not None else font.key()
        plain, bold, bold_metrics, _plain_metrics = self._fonts(font, key)
        painter.save()
        painter.setClipRect(area)
        painter.setFont(bold)
        painter.setPen(cell.name_colour)
        name = self._laid_out(cell.name, bold, key, True)
        top = area.top() + (area.height() - name.size().height()) / 2
        painter.drawStaticText(QPointF(area.left(), top), name)
        shift = bold_metrics.horizontalAdvance(cell.name)
        painter.setFont(plain)
        painter.setPen(cell.tail_colour)
        tail = self._laid_out(cell.tail, plain, key, False)
        top = area.top() + (area.height() - tail.size().height()) / 2
        painter.drawStaticText(QPointF(area.left() + shift, top), tail)
        painter.restore()

    def _laid_out(self, text: str, font: QFont, font_key: str, bold: bool) -> QStaticText:
        known = self._texts.get((text, font_key, bold))
        if known is None:
            if len(self._texts) >= _LAYOUTS_KEPT:
                self._texts.clear()
            known = self._texts[text, font_key, bold] = laid_out(text, font)
        return known

    def layout(
        self, option: QStyleOptionViewItem, width: int, forgotten: bool | None = None
    ) -> ProjectCell:
        """The cell's parts and colours for an initialised ``option`` and a text width
        (``forgotten`` when the caller knows it; else the model is asked)."""
        name, tail = self.pieces(option.text, width, option.font)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        ink = option.palette.color(role)
        if forgotten is None:
            forgotten = option.index.isValid() and bool(option.index.data(FORGOTTEN_ROLE))
        # On the selection or a greyed (forgotten) row, the row's own colour keeps the contrast.
        subdued = ink if selected or forgotten else QColor(theme.colors().subdued)
        return ProjectCell(name, tail, ink, subdued)

    def pieces(
        self, text: str, width: int, font: QFont, font_key: str | None = None
    ) -> tuple[str, str]:
        """``(bold part, subdued part)`` of a project id cut to ``width`` pixels in ``font``
        (whose key the caller may pass), worked out once per (id, width, font)."""
        font_key = font_key if font_key is not None else font.key()
        key = (text, width, font_key)
        pieces = self._pieces.get(key)
        if pieces is None:
            _plain, _bold, bold_metrics, plain_metrics = self._fonts(font, font_key)
            if len(self._pieces) >= _LAYOUTS_KEPT:
                self._pieces.clear()
            pieces = self._pieces[key] = project_pieces(text, bold_metrics, plain_metrics, width)
        return pieces

    def cell_at(self, index: _Index) -> ProjectCell:
        """What the cell at ``index`` shows at its view's current column width."""
        view = self.parent()
        assert isinstance(view, QAbstractItemView)
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.rect = view.visualRect(index)
        option.widget = view
        option.font = view.font()
        self.initStyleOption(option, index)
        style = view.style()
        area = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view)
        return self.layout(option, area.width() - 2 * (margin + 1))
