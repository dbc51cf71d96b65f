"""The observations table's view: the house's row-painting view with the table's columns.

It paints its rows itself (:mod:`memory_desk.ui.widgets.row_view`, the delegates' and the
style's pixels): each cell its text, aligned per column, the title with the search's words
marked (:mod:`.highlight`); the type badge and the project cut drawn by the delegates' own
painting functions; a forgotten row in its italic font and greyed text, a row that just
arrived with its mark. A row that cannot be read goes through the delegates.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QAbstractItemModel, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QWidget

from memory_desk.ui import theme
from memory_desk.ui.observations.highlight import TitleMarks
from memory_desk.ui.observations.model import CELL_ALIGNMENTS, Column, ObservationTableModel
from memory_desk.ui.widgets.delegates import ProjectCell, ProjectDelegate, TypeBadgeDelegate
from memory_desk.ui.widgets.row_view import Paint, RowView, Sample, Shown, shown_of

_ID = int(Column.ID)
_TITLE = int(Column.TITLE)
_TYPE = int(Column.TYPE)
_PROJECT = int(Column.PROJECT)
_HAS_DISPLAY = QStyleOptionViewItem.ViewItemFeature.HasDisplay
_TEXT_AREA = QStyle.SubElement.SE_ItemViewItemText
_FOCUS_MARGIN = QStyle.PixelMetric.PM_FocusFrameHMargin
_LEFT = int((Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter).value)
_RIGHT = int((Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value)
_CENTER = int(Qt.AlignmentFlag.AlignCenter.value)


@dataclass(frozen=True, slots=True)
class _Extras:
    """What the table's rows share in one paint, beyond the view's own."""

    fonts: tuple[tuple[QFont, str], tuple[QFont, str]]  # (font, key): kept, forgotten rows
    badges: TypeBadgeDelegate | None
    projects: ProjectDelegate | None
    project_area: QRect | None  # the project cell's text area, relative to the cell
    subdued: QColor


class ObservationsTableView(RowView):
    """The observations table (``observationsTable``), painting the observations model's rows
    in one Python call per paint; on another model it paints as a ``QTableView`` does."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._fonts: dict[str, QFont] = {}  # a forgotten row's font, per view font
        self.title_marks = TitleMarks()  # the search's words in the titles (both paths)
        self.title_column = _TITLE
        self.alignments = [int(alignment.value) for alignment in CELL_ALIGNMENTS]
        self.cell_painters = {_TYPE: self._paint_badge, _PROJECT: self._paint_project}

    def paints(self, model: QAbstractItemModel) -> bool:
        return isinstance(model, ObservationTableModel)

    def style_samples(self, option: QStyleOptionViewItem) -> list[Sample]:
        font = option.font
        italic = QFont(font)
        italic.setItalic(True)
        long_title = "A title far too long to fit in the sample cell at all"
        return [
            Sample("Notes on the cache layer", _LEFT, font, None, False, False),
            Sample("1234", _RIGHT, font, None, True, False),
            Sample(long_title, _LEFT, font, None, False, True),
            Sample("forgotten", _LEFT, italic, None, True, False),
            Sample("📌", _CENTER, font, None, False, False),
        ]

    def paint_extras(self, paint: Paint) -> _Extras:
        font = paint.font
        forgotten = self._forgotten_font(paint.model, font)
        badges = self.itemDelegateForColumn(_TYPE)
        projects = self.itemDelegateForColumn(_PROJECT)
        return _Extras(
            fonts=((font, paint.font_key), (forgotten, forgotten.key())),
            badges=badges if isinstance(badges, TypeBadgeDelegate) else None,
            projects=projects if isinstance(projects, ProjectDelegate) else None,
            project_area=self._project_area(paint),
            subdued=QColor(theme.colors().subdued),
        )

    def shown_row(self, paint: Paint, row: int) -> Shown | None:
        model = paint.model
        painted = model.paint_row(row)
        if painted is None:
            return None
        record, mark = painted
        font, key = paint.extra.fonts[record.forgotten]
        inks = (_colour(model.foreground(record, _ID)), _colour(model.foreground(record, _TITLE)))
        return shown_of((record, font, key, mark, inks))

    # -- the column table's own cells --------------------------------------------------------

    def _paint_badge(
        self,
        painter: QPainter,
        paint: Paint,
        shown: Shown,
        x: int,
        top: int,
        width: int,
        chosen: bool,
    ) -> bool:
        """The type as the badge delegate paints it (False without that delegate)."""
        badges = paint.extra.badges
        if badges is None:
            return False
        ink = shown.inks[0] if shown.inks[0] is not None else paint.colours.normal_text
        record = shown.record
        rect = QRect(x, top, width, paint.height)
        kind = record.observation.type
        badges.paint_badge(painter, rect, kind, record.forgotten, shown.font, ink, shown.font_key)
        return True

    def _paint_project(
        self,
        painter: QPainter,
        paint: Paint,
        shown: Shown,
        x: int,
        top: int,
        width: int,
        chosen: bool,
    ) -> bool:
        """The project's bold name and subdued hash as the project delegate paints them."""
        extra: _Extras = paint.extra
        projects = extra.projects
        if projects is None or extra.project_area is None:
            return False
        text = paint.model.shown_text(shown.record, _PROJECT)
        if not text:
            return True
        area = extra.project_area.translated(x, top)
        name, tail = projects.pieces(text, area.width(), shown.font, shown.font_key)
        if chosen:
            ink = paint.colours.normal_highlighted_text
        else:
            ink = shown.inks[0] if shown.inks[0] is not None else paint.colours.normal_text
        quiet = ink if chosen or shown.record.forgotten else extra.subdued
        cell = ProjectCell(name, tail, ink, quiet)
        projects.paint_project(painter, area, shown.font, cell, shown.font_key)
        return True

    # -- what a paint works out once -------------------------------------------------------

    def _forgotten_font(self, model: ObservationTableModel, font: QFont) -> QFont:
        key = font.key()
        known = self._fonts.get(key)
        if known is None:
            known = self._fonts[key] = model.forgotten_font.resolve(font)
        return known

    def _project_area(self, paint: Paint) -> QRect | None:
        """The project cell's text area relative to the cell, as the delegate works it out."""
        columns = paint.columns
        width = next((width for column, _x, width in columns if column == _PROJECT), None)
        if width is None:
            return None
        sample = QStyleOptionViewItem(paint.option)
        sample.rect = QRect(0, 0, width, paint.height)
        sample.text = "x"
        sample.features |= _HAS_DISPLAY
        area = paint.style.subElementRect(_TEXT_AREA, sample, self)
        margin = paint.style.pixelMetric(_FOCUS_MARGIN, None, self)
        return area.adjusted(margin + 1, 0, -(margin + 1), 0)


def _colour(foreground: QBrush | QColor | None) -> QColor | None:
    return foreground.color() if isinstance(foreground, QBrush) else foreground
