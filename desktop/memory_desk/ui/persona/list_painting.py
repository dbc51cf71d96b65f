"""The entry list paints its rows itself, in one Python call per paint.

Why: through ``QTableView`` each cell goes to the Python ``EntryDelegate`` and through the
style, one call per cell, and a screen's worth of cells repaints at every save (the saved
entry moves to the top) and every filter keystroke: that held the window's thread longer than
a frame. One call per paint does not.

What it paints is what the delegate and the style paint (the same pixels, tested in both
themes): per row, one fill for each run of cells with the same background (selection, alternate
row); per cell, its text elided and aligned as the style does, from a ``QStaticText`` kept
between paints (``memory_desk.ui.widgets.painting``); the problem icon where the style puts it;
the type badge by the delegate's own drawing function. A few cells still go through the
delegate and the style: the dividers (a labelled rule across the row), the name of
the entry with unsaved edits (italic), the current cell while the list has focus (the style's
focus frame), a text with line breaks, control characters or right-to-left runs.

It checks itself: before painting with a style, palette, font or state it has not seen, it
paints sample cells both ways and compares the pixels; a style that draws items its own way
gets the delegate path for every cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QTableView

from memory_desk.ui import theme
from memory_desk.ui.persona.model import (
    COLUMNS,
    NAME,
    TYPE,
    PersonaListModel,
    Separator,
)
from memory_desk.ui.persona.problems import severity_icon
from memory_desk.ui.widgets.painting import (
    SLOW,
    CellColours,
    StyleChecks,
    TextCache,
    base_option,
    blank_image,
    fill_row,
    focus_cell,
    paint_cell_by_style,
    rows_in,
    sample_by_style,
    selected_columns,
)

BADGE_PADDING = 12  # the pill's width beyond its text

_SELECTED = QStyle.StateFlag.State_Selected
_ENABLED = QStyle.StateFlag.State_Enabled
_ALTERNATE = QStyleOptionViewItem.ViewItemFeature.Alternate
_HAS_DISPLAY = QStyleOptionViewItem.ViewItemFeature.HasDisplay
_HAS_DECORATION = QStyleOptionViewItem.ViewItemFeature.HasDecoration
_TEXT_AREA = QStyle.SubElement.SE_ItemViewItemText
_ICON_AREA = QStyle.SubElement.SE_ItemViewItemDecoration
_DECORATION_SELECTED = QStyle.StyleHint.SH_ItemView_ShowDecorationSelected
_LEFT = int((Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter).value)
_SAMPLE = QSize(160, 24)


def badge_colours(type_name: str) -> tuple[str, str]:
    """(background, text) of a type's badge in the theme in effect now."""
    badges = theme.colors().persona_badges
    return badges.get(type_name, badges[""])


def paint_badge(painter: QPainter, rect: QRect, text: str, metrics: QFontMetrics) -> None:
    """The type as a coloured pill at the left of the cell ``rect``, in the theme's colours."""
    paint_pill(painter, rect, text, _badge_look(text, metrics))


def paint_pill(painter: QPainter, rect: QRect, text: str, look: tuple[int, QColor, QColor]) -> None:
    """The pill itself, from its (width, background, text colour): the delegate's drawing and
    the list's own are this one function, so both paint the same pixels."""
    width, background, foreground = look
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pill = QRect(rect.left() + 4, rect.top() + 3, width, rect.height() - 6)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(background)
    painter.drawRoundedRect(pill, 6, 6)
    painter.setPen(foreground)
    painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()


@dataclass(frozen=True, slots=True)
class _IconCell:
    """Where the style puts an icon and the text beside it, relative to the cell."""

    icon: QRect
    text: QRect
    alignment: Qt.AlignmentFlag


@dataclass(slots=True)
class _Paint:
    """What every row of one paint shares."""

    option: QStyleOptionViewItem
    style: QStyle
    colours: CellColours
    columns: list[tuple[int, int, int]]  # (column, x, width) crossing the dirty region
    height: int
    font: QFont
    font_key: str
    metrics: QFontMetrics
    selected: dict[int, frozenset[int]]
    focus: tuple[int, int] | None
    alternating: bool
    unsaved: str | None
    badges: dict[str, tuple[int, QColor, QColor]]  # type: the pill's width and colours


class EntryRowPainter:
    """Paints an :class:`EntryListView`'s rows (see the module's docstring)."""

    def __init__(self, view: QTableView) -> None:
        self.view = view
        self.texts = TextCache()
        self._checks = StyleChecks(self._matches_the_style)
        self._icon_cells: dict[tuple, _IconCell] = {}  # (icon, width, height, style, font)
        self.painted_fast = 0  # cells painted by the fast path (the tests read it)
        self.painted_by_style = 0  # cells the delegate and the style painted

    def forget_checks(self) -> None:
        """A new palette or style: check the fast path again before using it."""
        self._checks.forget()
        self._icon_cells.clear()

    # -- when the fast path applies ----------------------------------------------------------

    def can_paint(self) -> bool:
        view = self.view
        if view.showGrid() or view.isRightToLeft() or view.wordWrap():
            return False
        if not isinstance(view.model(), PersonaListModel):
            return False
        return self._checks.matches(view)

    def _matches_the_style(self, style: QStyle, option: QStyleOptionViewItem) -> bool:
        """Paint sample cells with the style and with the fast path: the same pixels?"""
        if not style.styleHint(_DECORATION_SELECTED, option, self.view):
            return False
        icon = severity_icon("warning")
        samples = [
            ("likes-green-tea", None, False, False),
            ("A description far too long to fit in the sample cell at all", None, True, False),
            ("3 days ago", None, False, True),
            ("✱ prefers-short-answers", icon, False, False),
            ("• a-name-that-goes-on-and-on-past-the-edge", icon, True, True),
        ]
        colours = CellColours(option, self.view.isEnabled())
        rect = QRect(0, 0, _SAMPLE.width(), _SAMPLE.height())
        for text, sample_icon, alternate, selected in samples:
            sample = self._sample_option(option, rect, text, sample_icon, alternate, selected)
            by_style = sample_by_style(style, sample, self.view, option.palette)
            ours = blank_image(_SAMPLE, option.palette)
            painter = QPainter(ours)
            for brush in colours.background(selected, alternate):
                painter.fillRect(rect, brush)
            painter.setFont(option.font)
            painter.setPen(colours.ink(selected))
            area = rect
            if sample_icon is not None:
                cell = _icon_cell(style, sample, self.view)
                sample_icon.paint(
                    painter, cell.icon, cell.alignment, _icon_mode(sample), QIcon.State.Off
                )
                area = cell.text
            laid = self.texts.get(
                text, area.width(), area.height(), option.font, option.font.key(), _LEFT, style,
                self.view,
            )  # fmt: skip
            if laid is not SLOW:
                static, dx, dy = laid  # type: ignore[misc]
                painter.drawStaticText(QPointF(area.left() + dx, area.top() + dy), static)
            painter.end()
            if by_style != ours:
                return False
        return True

    def _sample_option(
        self,
        base: QStyleOptionViewItem,
        rect: QRect,
        text: str,
        icon: QIcon | None,
        alternate: bool,
        selected: bool,
    ) -> QStyleOptionViewItem:
        """A sample cell's option, as ``QStyledItemDelegate`` fills it for such a cell."""
        sample = QStyleOptionViewItem(base)
        sample.rect = rect
        sample.text = text
        sample.displayAlignment = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        sample.features |= _HAS_DISPLAY
        if icon is not None:
            sample.icon = icon
            sample.features |= _HAS_DECORATION
            sample.decorationSize = icon.actualSize(base.decorationSize)
        if alternate:
            sample.features |= _ALTERNATE
        if selected:
            sample.state |= _SELECTED
        sample.palette.setCurrentColorGroup(QPalette.ColorGroup.Normal)
        return sample

    # -- painting ----------------------------------------------------------------------------

    def paint(self, painter: QPainter, model: PersonaListModel, dirty: QRect) -> None:
        """Every row crossing ``dirty``: backgrounds, texts, icons, badges and dividers."""
        view = self.view
        crossed = rows_in(view, dirty)
        if crossed is None:
            return
        first, last, columns = crossed
        paint = self._paint_context(model, columns, first, last)
        painter.setFont(paint.font)
        for row in range(first, last + 1):
            top = view.rowViewportPosition(row)
            item = model.row_at(row)
            if isinstance(item, Separator):
                self._paint_divider(painter, paint, row, top)
            else:
                self._paint_row(painter, paint, model, row, top, item)

    def _paint_context(
        self, model: PersonaListModel, columns: list[tuple[int, int, int]], first: int, last: int
    ) -> _Paint:
        view = self.view
        option = base_option(self.view)
        font = option.font
        return _Paint(
            option=option,
            style=view.style(),
            colours=CellColours(option, view.isEnabled()),
            columns=columns,
            height=view.rowHeight(first),
            font=font,
            font_key=font.key(),
            metrics=QFontMetrics(font),
            selected=selected_columns(self.view, first, last),
            focus=focus_cell(self.view),
            alternating=view.alternatingRowColors(),
            unsaved=model.unsaved(),
            badges={},
        )

    def _paint_divider(self, painter: QPainter, paint: _Paint, row: int, top: int) -> None:
        """A divider row, as ``QTableView`` paints a spanned cell (or each cell, unspanned)."""
        view = self.view
        alternate = paint.alternating and bool(row & 1)
        if view.columnSpan(row, 0) == len(COLUMNS):
            rect = view.visualRect(view.model().index(row, 0))
            self._paint_by_style(painter, paint, row, 0, rect, alternate)
            return
        for column, x, width in paint.columns:
            rect = QRect(x, top, width, paint.height)
            self._paint_by_style(painter, paint, row, column, rect, alternate)

    def _paint_row(
        self,
        painter: QPainter,
        paint: _Paint,
        model: PersonaListModel,
        row: int,
        top: int,
        entry,
    ) -> None:
        """One entry's row: its fills, then each cell (a cell the fast path does not paint
        the style's way goes to the delegate, after the others)."""
        alternate = paint.alternating and bool(row & 1)
        chosen_columns = paint.selected.get(row, ())
        colours = paint.colours
        height = paint.height
        fill_row(painter, paint.columns, top, height, colours, chosen_columns, alternate)
        slow: list[tuple[int, int, int]] = []
        texts = self.texts
        fast = 0
        for column, x, width in paint.columns:
            if paint.focus == (row, column):
                slow.append((column, x, width))
                continue
            if column == TYPE:
                look = paint.badges.get(entry.type)
                if look is None:
                    look = paint.badges[entry.type] = _badge_look(entry.type, paint.metrics)
                paint_pill(painter, QRect(x, top, width, height), entry.type, look)
                fast += 1
                continue
            if column == NAME and entry.name == paint.unsaved:
                slow.append((column, x, width))  # italic, and rare: the style's way
                continue
            chosen = column in chosen_columns
            left, area_width = x, width
            if column == NAME:
                icon = model.problem_icon(entry)
                if icon is not None:
                    cell = self._icon_cell(paint, icon, width)
                    icon_rect = cell.icon.translated(x, top)
                    mode = QIcon.Mode.Selected if chosen else QIcon.Mode.Normal
                    if not paint.option.state & _ENABLED:
                        mode = QIcon.Mode.Disabled
                    icon.paint(painter, icon_rect, cell.alignment, mode, QIcon.State.Off)
                    left, area_width = x + cell.text.left(), cell.text.width()
            text = model.shown_text(entry, column)
            if not text:
                fast += 1
                continue
            laid = texts.texts.get((text, area_width, height, paint.font_key, _LEFT))
            if laid is None:
                laid = texts.get(
                    text, area_width, height, paint.font, paint.font_key, _LEFT, paint.style,
                    self.view,
                )  # fmt: skip
            if laid is SLOW:
                slow.append((column, x, width))
                continue
            static, dx, dy = laid  # type: ignore[misc]
            painter.setPen(colours.ink(chosen))
            painter.drawStaticText(QPointF(left + dx, top + dy), static)
            fast += 1
        self.painted_fast += fast
        for column, x, width in slow:
            rect = QRect(x, top, width, height)
            self._paint_by_style(painter, paint, row, column, rect, alternate)

    def _paint_by_style(
        self, painter: QPainter, paint: _Paint, row: int, column: int, rect: QRect, alternate: bool
    ) -> None:
        """One cell as ``QTableView::drawCell`` paints it: the row panel, then the delegate."""
        focused = paint.focus == (row, column)
        paint_cell_by_style(
            self.view, painter, paint.option, paint.style, row, column, rect, alternate, focused
        )
        self.painted_by_style += 1

    # -- what a paint works out once -------------------------------------------------------

    def _icon_cell(self, paint: _Paint, icon: QIcon, width: int) -> _IconCell:
        """Where this icon and the text beside it go in a name cell of this width, as the
        style lays out the option the delegate gives such a cell (worked out once)."""
        key = (icon.cacheKey(), width, paint.height, id(paint.style), paint.font_key)
        known = self._icon_cells.get(key)
        if known is None:
            rect = QRect(0, 0, width, paint.height)
            option = self._sample_option(paint.option, rect, "x", icon, False, False)
            if len(self._icon_cells) >= 64:
                self._icon_cells.clear()
            known = self._icon_cells[key] = _icon_cell(paint.style, option, self.view)
        return known


def _badge_look(text: str, metrics: QFontMetrics) -> tuple[int, QColor, QColor]:
    """A type's pill width and colours, in the theme in effect now (once per paint)."""
    background, foreground = badge_colours(text)
    return metrics.horizontalAdvance(text) + BADGE_PADDING, QColor(background), QColor(foreground)


def _icon_cell(style: QStyle, option: QStyleOptionViewItem, view: QTableView) -> _IconCell:
    """The icon's and the text's areas in a cell with this option, as the style lays them
    out (``QCommonStyle``'s item layout), relative to the option's rect."""
    origin = option.rect.topLeft()
    icon = style.subElementRect(_ICON_AREA, option, view).translated(-origin)
    text = style.subElementRect(_TEXT_AREA, option, view).translated(-origin)
    return _IconCell(icon, text, option.decorationAlignment)


def _icon_mode(option: QStyleOptionViewItem) -> QIcon.Mode:
    if not option.state & _ENABLED:
        return QIcon.Mode.Disabled
    return QIcon.Mode.Selected if option.state & _SELECTED else QIcon.Mode.Normal
