"""The observations table's view: it paints its rows itself, in one Python call per paint.

Why: a ``QTableView`` paints each cell through its delegate and the style
(``QTableView::drawCell`` → ``PE_PanelItemViewRow`` → ``CE_ItemViewItem``). From Python that is
a trip into the delegate and two into the style sheet style per cell, several times what a
plain C++ table costs. A live refresh inserts at the top and shifts every row, a page-jump
scroll and a sort repaint the whole viewport, so that cost would be the floor of their stalls.

The search's words are marked in the titles on both paths (:mod:`.highlight`).

What it paints is what the style and the delegates paint (the same pixels, tested in both
themes): per row, one fill for each run of cells with the same background (selection,
alternate row, the mark of a row that just arrived); per cell, its text elided with "…" and
aligned as the style does, from a ``QStaticText`` cached per (text, width, font, alignment)
so a repaint lays out no text it laid out before; the type badge and the project cut drawn by
the delegates' own painting functions. A few cells still go through the delegate and the
style: the current cell while the table has focus (the style's focus frame), a cell whose
text holds line breaks or control characters, a row that cannot be read.

It checks itself: before painting with a style and palette it has not seen, it paints a few
sample cells both ways and compares the pixels; a style that draws items its own way (a
platform theme) gets the delegate path for every cell. Editing, tooltips, accessibility
(``data()`` roles), keyboard navigation, drag-select and the header are the view's own and
unchanged: only ``paintEvent`` is replaced.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QTableView, QWidget

from memory_desk.ui import theme
from memory_desk.ui.observations.highlight import TitleMarks
from memory_desk.ui.observations.model import (
    CELL_ALIGNMENTS,
    Column,
    ObservationTableModel,
    RowRecord,
)
from memory_desk.ui.widgets.delegates import ProjectCell, ProjectDelegate, TypeBadgeDelegate
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

# Laid-out texts kept, in two generations of half this each: more than ten screens.
_ID = int(Column.ID)
_TITLE = int(Column.TITLE)
_TYPE = int(Column.TYPE)
_PROJECT = int(Column.PROJECT)
_SELECTED = QStyle.StateFlag.State_Selected
_ALTERNATE = QStyleOptionViewItem.ViewItemFeature.Alternate
_HAS_DISPLAY = QStyleOptionViewItem.ViewItemFeature.HasDisplay
_TEXT = QPalette.ColorRole.Text
_HIGHLIGHTED_TEXT = QPalette.ColorRole.HighlightedText
_LEFT_VCENTER = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
_RIGHT_VCENTER = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_TEXT_AREA = QStyle.SubElement.SE_ItemViewItemText
_FOCUS_MARGIN = QStyle.PixelMetric.PM_FocusFrameHMargin
_DECORATION_SELECTED = QStyle.StyleHint.SH_ItemView_ShowDecorationSelected
_SAMPLE = QSize(120, 24)


class ObservationsTableView(QTableView):
    """A ``QTableView`` that paints the observations model's rows in one Python call.

    Every call of ``QTableView`` still works; on another model, with a grid, spans, right
    to left or a style that paints items its own way, it paints as a ``QTableView`` does.

    Signals:
        painted(): the viewport was just painted (the page finishes a live refresh after
            the new rows are on screen, not before)
    """

    painted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # (text, width, height, font, align) -> laid out, in two generations (widgets/painting):
        # emptying one cache at once would make the next frame lay out every text on screen
        # again (the slowest frames of a scroll). Tests read its counts, as the persona list's.
        self.texts = TextCache()
        self._fonts: dict[str, QFont] = {}  # a forgotten row's font, per view font
        self._checks = StyleChecks(self._matches_the_style)
        self.painted_fast = 0  # cells painted by the fast path (the tests read it)
        self.painted_by_style = 0  # cells the delegates and the style painted
        self.title_marks = TitleMarks()  # the search's words in the titles (both paths)
        theme.notifier().changed.connect(self._on_theme_changed)

    # -- Qt --------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        model = self.model()
        if not isinstance(model, ObservationTableModel):
            super().paintEvent(event)
            self.painted.emit()
            return
        if self._can_paint_fast():
            painter = QPainter(self.viewport())
            try:
                self._paint_rows(painter, model, event.rect())
            finally:
                painter.end()
        else:
            super().paintEvent(event)
        self.painted.emit()

    def _on_theme_changed(self) -> None:
        """A new palette or style: check the fast path again, and repaint."""
        self._checks.forget()
        self.viewport().update()

    # -- when the fast path applies ----------------------------------------------------------

    def _can_paint_fast(self) -> bool:
        if self.showGrid() or self.isRightToLeft() or self.verticalHeader().sectionsHidden():
            return False
        if self.wordWrap():
            return False
        return self._checks.matches(self)

    def _matches_the_style(self, style: QStyle, option: QStyleOptionViewItem) -> bool:
        """Paint sample cells with the style and with the fast path: the same pixels?"""
        if not style.styleHint(_DECORATION_SELECTED, option, self):
            return False
        font = option.font
        italic = QFont(font)
        italic.setItalic(True)
        samples = [
            ("Notes on the cache layer", _LEFT_VCENTER, font, False, False),
            ("1234", _RIGHT_VCENTER, font, True, False),
            (
                "A title far too long to fit in the sample cell at all",
                _LEFT_VCENTER,
                font,
                False,
                True,
            ),
            ("forgotten", _LEFT_VCENTER, italic, True, False),
            ("📌", Qt.AlignmentFlag.AlignCenter, font, False, False),
        ]
        for text, alignment, sample_font, alternate, selected in samples:
            sample = QStyleOptionViewItem(option)
            sample.rect = QRect(0, 0, _SAMPLE.width(), _SAMPLE.height())
            sample.text = text
            sample.font = sample_font
            sample.fontMetrics = QFontMetrics(sample_font)
            sample.displayAlignment = alignment
            sample.features |= _HAS_DISPLAY
            if alternate:
                sample.features |= _ALTERNATE
            if selected:
                sample.state |= _SELECTED
            by_style = sample_by_style(style, sample, self, option.palette)
            ours = blank_image(_SAMPLE, option.palette)
            painter = QPainter(ours)
            colours = _Colours(option, self.isEnabled())
            rect = sample.rect
            for brush in colours.background(selected, alternate, None):
                painter.fillRect(rect, brush)
            painter.setPen(colours.highlighted_text if selected else colours.text)
            painter.setFont(sample_font)
            align = int(alignment.value)
            laid = self.texts.get(
                text,
                rect.width(),
                rect.height(),
                sample_font,
                sample_font.key(),
                align,
                style,
                self,
            )
            if laid is not SLOW:
                static, dx, dy = laid  # type: ignore[misc]
                painter.drawStaticText(QPointF(dx, dy), static)
            painter.end()
            if by_style != ours:
                return False
        return True

    # -- painting ----------------------------------------------------------------------------

    def _paint_rows(self, painter: QPainter, model: ObservationTableModel, dirty: QRect) -> None:
        """Every row crossing ``dirty``: backgrounds, texts, badges and projects."""
        crossed = rows_in(self, dirty)
        if crossed is None:
            return
        first, last, columns = crossed
        paint = self._paint_context(model, columns, first, last)
        for row in range(first, last + 1):
            top = self.rowViewportPosition(row)
            painted = model.paint_row(row)
            if painted is None:
                self._paint_row_by_style(painter, paint, row, top)
            else:
                self._paint_row(painter, paint, model, row, top, *painted)

    def _paint_context(
        self,
        model: ObservationTableModel,
        columns: list[tuple[int, int, int]],
        first: int,
        last: int,
    ) -> _Paint:
        """What every row of one paint shares, worked out once."""
        option = base_option(self)
        style = self.style()
        height = self.rowHeight(first)
        font = option.font
        forgotten_font = self._forgotten_font(model, font)
        badges = self.itemDelegateForColumn(_TYPE)
        projects = self.itemDelegateForColumn(_PROJECT)
        return _Paint(
            option=option,
            style=style,
            colours=_Colours(option, self.isEnabled()),
            columns=columns,
            height=height,
            fonts=((font, font.key()), (forgotten_font, forgotten_font.key())),
            selected=selected_columns(self, first, last),
            focus=focus_cell(self),
            alternating=self.alternatingRowColors(),
            badges=badges if isinstance(badges, TypeBadgeDelegate) else None,
            projects=projects if isinstance(projects, ProjectDelegate) else None,
            project_area=self._project_area(option, columns, height, style),
            subdued=QColor(theme.colors().subdued),
        )

    def _paint_row_by_style(self, painter: QPainter, paint: _Paint, row: int, top: int) -> None:
        """A row the model cannot give (not readable): every cell as the delegates paint it."""
        alternate = paint.alternating and bool(row & 1)
        row_selection = paint.selected.get(row, ())
        for column, x, width in paint.columns:
            rect = QRect(x, top, width, paint.height)
            chosen = column in row_selection
            self._paint_by_style(painter, paint, row, column, rect, alternate, chosen)

    def _paint_row(
        self,
        painter: QPainter,
        paint: _Paint,
        model: ObservationTableModel,
        row: int,
        top: int,
        record: RowRecord,
        mark: QBrush | None,
    ) -> None:
        """One row: its fills, then each cell's text (a cell the fast path cannot paint the
        style's way goes to the delegate, after the others)."""
        alternate = paint.alternating and bool(row & 1)
        row_selection = paint.selected.get(row, ())
        colours = paint.colours
        height = paint.height
        fill_row(painter, paint.columns, top, height, colours, row_selection, alternate, mark)
        forgotten = record.forgotten
        row_font, font_key = paint.fonts[forgotten]
        painter.setFont(row_font)
        inks = (_colour(model.foreground(record, _ID)), _colour(model.foreground(record, _TITLE)))
        focus = paint.focus
        slow: list[tuple[int, int, int, bool]] = []
        pen: QColor | None = None
        cache = self.texts
        fast = 0
        for column, x, width in paint.columns:
            chosen = column in row_selection
            if focus is not None and focus == (row, column):
                slow.append((column, x, width, chosen))
                continue
            foreground = inks[column == _TITLE]
            if column == _TYPE and paint.badges is not None:
                ink = foreground if foreground is not None else colours.normal_text
                rect = QRect(x, top, width, height)
                paint.badges.paint_badge(
                    painter, rect, record.observation.type, forgotten, row_font, ink, font_key
                )
                painter.setFont(row_font)
                pen = None
                fast += 1
                continue
            text = model.shown_text(record, column)
            if column == _PROJECT and paint.projects is not None and paint.project_area:
                if text:
                    area = paint.project_area.translated(x, top)
                    fonts = (row_font, font_key)
                    cell = _project_cell(paint, text, area, fonts, chosen, forgotten, foreground)
                    paint.projects.paint_project(painter, area, row_font, cell, font_key)
                    painter.setFont(row_font)
                    pen = None
                fast += 1
                continue
            if not text:
                fast += 1
                continue
            align = _ALIGN_VALUES[column]
            key = (text, width, height, font_key, align)
            laid = cache.texts.get(key)
            if laid is None:
                laid = cache.get(text, width, height, row_font, font_key, align, paint.style, self)
            if laid is SLOW:
                slow.append((column, x, width, chosen))
                continue
            static, dx, dy = laid  # type: ignore[misc]
            if chosen:
                ink = colours.highlighted_text
            else:
                ink = foreground if foreground is not None else colours.text
            if ink is not pen:
                painter.setPen(ink)
                pen = ink
            painter.drawStaticText(QPointF(x + dx, top + dy), static)
            if column == _TITLE and self.title_marks.words:
                cell = QRectF(x, top, width, height)
                self.title_marks.paint(painter, static, QPointF(x + dx, top + dy), row_font, cell)
            fast += 1
        self.painted_fast += fast
        for column, x, width, chosen in slow:
            rect = QRect(x, top, width, height)
            self._paint_by_style(painter, paint, row, column, rect, alternate, chosen)

    def _paint_by_style(
        self,
        painter: QPainter,
        paint: _Paint,
        row: int,
        column: int,
        rect: QRect,
        alternate: bool,
        selected: bool,
    ) -> None:
        """One cell as ``QTableView::drawCell`` paints it: the row panel, then the delegate."""
        focused = paint.focus == (row, column)
        paint_cell_by_style(
            self,
            painter,
            paint.option,
            paint.style,
            row,
            column,
            rect,
            alternate,
            focused,
            selected,
        )
        self.painted_by_style += 1

    # -- what a paint works out once -------------------------------------------------------

    def _forgotten_font(self, model: ObservationTableModel, font: QFont) -> QFont:
        key = font.key()
        known = self._fonts.get(key)
        if known is None:
            known = self._fonts[key] = model.forgotten_font.resolve(font)
        return known

    def _project_area(
        self,
        option: QStyleOptionViewItem,
        columns: list[tuple[int, int, int]],
        height: int,
        style: QStyle,
    ) -> QRect | None:
        """The project cell's text area relative to the cell, as the delegate works it out."""
        width = next((width for column, _x, width in columns if column == _PROJECT), None)
        if width is None:
            return None
        sample = QStyleOptionViewItem(option)
        sample.rect = QRect(0, 0, width, height)
        sample.text = "x"
        sample.features |= _HAS_DISPLAY
        area = style.subElementRect(_TEXT_AREA, sample, self)
        margin = style.pixelMetric(_FOCUS_MARGIN, None, self)
        return area.adjusted(margin + 1, 0, -(margin + 1), 0)


class _Colours(CellColours):
    """The palette's colours for one paint (see :class:`CellColours`), with the Normal
    group's text colours the badge and project delegates read (``QTableView::drawCell``
    sets an enabled cell's palette to Normal)."""

    def __init__(self, option: QStyleOptionViewItem, enabled: bool) -> None:
        super().__init__(option, enabled)
        palette, normal = option.palette, QPalette.ColorGroup.Normal
        self.normal_text = palette.color(normal, _TEXT)
        self.normal_highlighted_text = palette.color(normal, _HIGHLIGHTED_TEXT)


@dataclass(frozen=True, slots=True)
class _Paint:
    """What every row of one paint shares."""

    option: QStyleOptionViewItem
    style: QStyle
    colours: _Colours
    columns: list[tuple[int, int, int]]  # (column, x, width) crossing the dirty region
    height: int
    fonts: tuple[tuple[QFont, str], tuple[QFont, str]]  # (font, key): kept, forgotten rows
    selected: dict[int, frozenset[int]]
    focus: tuple[int, int] | None
    alternating: bool
    badges: TypeBadgeDelegate | None
    projects: ProjectDelegate | None
    project_area: QRect | None
    subdued: QColor


def _project_cell(
    paint: _Paint,
    text: str,
    area: QRect,
    fonts: tuple[QFont, str],
    selected: bool,
    forgotten: bool,
    foreground: QColor | None,
) -> ProjectCell:
    """The project's parts and colours, as :meth:`ProjectDelegate.layout` gives them
    (``fonts``: the row's font and its key)."""
    assert paint.projects is not None
    name, tail = paint.projects.pieces(text, area.width(), *fonts)
    if selected:
        ink = paint.colours.normal_highlighted_text
    else:
        ink = foreground if foreground is not None else paint.colours.normal_text
    return ProjectCell(name, tail, ink, ink if selected or forgotten else paint.subdued)


def _colour(foreground: QBrush | QColor | None) -> QColor | None:
    return foreground.color() if isinstance(foreground, QBrush) else foreground


_ALIGN_VALUES = [int(alignment.value) for alignment in CELL_ALIGNMENTS]
