"""The observations table's delegates: the type badge, the project, and every other cell.

The badge and the project are the shared delegates (:mod:`memory_desk.ui.widgets.delegates`);
the plain cells are :class:`ObservationCellDelegate`, which paints each from one
:meth:`ObservationTableModel.cell` call instead of one ``data()`` per role.
:func:`install_delegates` puts the three on a table.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QTableView

from memory_desk.ui.observations.model import Column
from memory_desk.ui.widgets.delegates import ProjectDelegate, ThemedDelegate, TypeBadgeDelegate

_Index = QModelIndex | QPersistentModelIndex
_ITEM = QStyle.ControlElement.CE_ItemViewItem


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


def install_delegates(table: QTableView) -> None:
    """The observations table's delegates: the type badge, the project, every other cell."""
    table.setItemDelegate(ObservationCellDelegate(table))
    table.setItemDelegateForColumn(Column.TYPE, TypeBadgeDelegate(table))
    table.setItemDelegateForColumn(Column.PROJECT, ProjectDelegate(table))
