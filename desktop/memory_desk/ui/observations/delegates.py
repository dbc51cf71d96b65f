"""The observations table's delegates: the type badge, the project, and every other cell.

The badge and the project are the shared delegates (:mod:`memory_desk.ui.widgets.delegates`);
the plain cells are :class:`ObservationCellDelegate`, which paints each from one
:meth:`ObservationTableModel.cell` call instead of one ``data()`` per role.
:func:`install_delegates` puts the three on a table. A title cell painted here gets the
search's words marked as the view's own painting marks them (:mod:`.highlight`).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QTableView, QWidget

from memory_desk.ui.observations.highlight import TitleMarks
from memory_desk.ui.observations.model import Column
from memory_desk.ui.widgets.delegates import ProjectDelegate, ThemedDelegate, TypeBadgeDelegate
from memory_desk.ui.widgets.painting import lay_out_text, needs_the_style

_Index = QModelIndex | QPersistentModelIndex
_ITEM = QStyle.ControlElement.CE_ItemViewItem
_TEXT_AREA = QStyle.SubElement.SE_ItemViewItemText


class ObservationCellDelegate(ThemedDelegate):
    """The observations table's plain cells: the style draws them as a ``QStyledItemDelegate``
    would, from one model call instead of one ``data()`` per role."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        cell_option, _cell = self._cell_option(option, index)
        widget, style = self._view_style(cell_option)
        if style is None:
            super().paint(painter, option, index)
            return
        style.drawControl(_ITEM, cell_option, painter, widget)
        marks = getattr(widget, "title_marks", None)
        if index.column() == Column.TITLE and isinstance(marks, TitleMarks) and marks.words:
            self._mark_title(painter, cell_option, marks, widget, style)

    def _mark_title(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        marks: TitleMarks,
        widget: QWidget | None,
        style: QStyle,
    ) -> None:
        """The search's words over the title the style just drew, laid out as it laid it."""
        text = option.text
        if not text or needs_the_style(text):
            return
        area = style.subElementRect(_TEXT_AREA, option, widget)
        align = int(option.displayAlignment.value)
        static, x, y = lay_out_text(
            text, area.width(), area.height(), option.font, align, style, widget
        )
        at = QPointF(area.left() + x, area.top() + y)
        marks.paint(painter, static, at, option.font, QRectF(option.rect))


def install_delegates(table: QTableView) -> None:
    """The observations table's delegates: the type badge, the project, every other cell."""
    table.setItemDelegate(ObservationCellDelegate(table))
    table.setItemDelegateForColumn(Column.TYPE, TypeBadgeDelegate(table))
    table.setItemDelegateForColumn(Column.PROJECT, ProjectDelegate(table))
