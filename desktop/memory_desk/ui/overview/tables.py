"""The Overview's small tables: counts with a bar beside each number, and short lists.

A count is always written as a number; the bar beside it only helps the eye compare (a
person with a screen reader, or who cannot tell the bars apart, reads the numbers). The bars
take the type's badge colour in the table of types, the link colour elsewhere, looked up at
paint time so both themes read well. The tables are sized to their rows, up to a limit, so
the page's own scroll area does the scrolling.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from memory_desk.core.hidden_text import reveal
from memory_desk.ui import theme
from memory_desk.ui.i18n import number

COUNT_ROLE = Qt.ItemDataRole.UserRole + 1  # the count as an int (the text is the locale's)
COLOUR_ROLE = Qt.ItemDataRole.UserRole + 2  # a type name: the bar takes its badge colour
ID_ROLE = Qt.ItemDataRole.UserRole  # the observation a row of a list stands for

_Index = QModelIndex | QPersistentModelIndex
_BAR_ROOM = 90
_PADDING = 6


class CountBarDelegate(QStyledItemDelegate):
    """Paints a count as its number, right-aligned, with a bar to its left scaled to the
    table's largest count."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        cell = QStyleOptionViewItem(option)
        self.initStyleOption(cell, index)
        text = cell.text
        cell.text = ""
        widget = cell.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, cell, painter, widget)
        count = index.data(COUNT_ROLE) or 0
        most = max(int(index.model().property("mostCount") or 0), 1) if index.model() else 1
        rect = option.rect.adjusted(_PADDING, 3, -_PADDING, -3)
        wide = option.fontMetrics.horizontalAdvance(text)
        room = max(rect.width() - wide - _PADDING, 0)
        colors = theme.colors()
        kind = index.data(COLOUR_ROLE)
        fill = QColor(colors.badge(kind)[0] if kind is not None else colors.link)
        bar = QRect(rect.left(), rect.top(), round(room * int(count) / most), rect.height())
        painter.save()
        if bar.width() > 0:
            painter.fillRect(bar, fill)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.setPen(option.palette.color(role))
        painter.drawText(rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)
        painter.restore()


class OverviewTable(QTableWidget):
    """A read-only table of a few rows, as tall as its rows (up to ``max_rows``).

    Signals:
        id_activated(int): a row standing for an observation was activated (Enter or a
            double click)
    """

    id_activated = Signal(int)

    def __init__(
        self,
        name: str,
        accessible_name: str,
        headers: Sequence[str],
        *,
        max_rows: int = 10,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(0, len(headers), parent)
        self.setObjectName(name)
        self.setAccessibleName(accessible_name)
        self.setHorizontalHeaderLabels(list(headers))
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setTabKeyNavigation(False)
        self.setWordWrap(False)
        self.setAlternatingRowColors(False)
        self.verticalHeader().hide()
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self._max_rows = max_rows
        self.activated.connect(self._on_activated)
        self._fit_height()

    def set_rows(self, rows: Sequence[Sequence[QTableWidgetItem]]) -> None:
        """Replace every row (each a list of items, one per column)."""
        self.setSortingEnabled(False)
        self.clearContents()
        self.setRowCount(len(rows))
        for r, items in enumerate(rows):
            for c, item in enumerate(items):
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                self.setItem(r, c, item)
        self._fit_height()

    def stretch(self, column: int) -> None:
        """Give ``column`` the width left over (a title or a name)."""
        self.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)

    def _fit_height(self) -> None:
        rows = min(max(self.rowCount(), 1), self._max_rows)
        row_height = self.verticalHeader().defaultSectionSize()
        frame = 2 * self.frameWidth()
        header = self.horizontalHeader().sizeHint().height()
        self.setFixedHeight(header + rows * row_height + frame)

    def _on_activated(self, index: QModelIndex) -> None:
        item = self.item(index.row(), 0)
        value = item.data(ID_ROLE) if item is not None else None
        if isinstance(value, int):
            self.id_activated.emit(value)


class CountTable(OverviewTable):
    """Names and their counts, largest first, with a bar beside each number."""

    def __init__(
        self,
        name: str,
        accessible_name: str,
        headers: Sequence[str],
        *,
        coloured_by_type: bool = False,
        max_rows: int = 10,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(name, accessible_name, headers, max_rows=max_rows, parent=parent)
        self._coloured = coloured_by_type
        self.setItemDelegateForColumn(1, CountBarDelegate(self))
        # The names whole, the bars in what is left (at least room for a bar and its number):
        # on a small screen a stretched name column was squeezed to a letter.
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(_BAR_ROOM // 2)
        theme.notifier().changed.connect(self.viewport().update)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        """Wide enough for the longest name and a bar with its number beside it."""
        hint = super().minimumSizeHint()
        names = max(self.horizontalHeader().sectionSizeHint(0), self.sizeHintForColumn(0))
        frame = 2 * self.frameWidth() + self.verticalScrollBar().sizeHint().width()
        return QSize(names + _BAR_ROOM + frame, hint.height())

    def set_counts(self, counts: Sequence[tuple[str, int]], shown: Sequence[str]) -> None:
        """``counts`` are ``(key, count)`` pairs; ``shown`` the text for each key."""
        self.model().setProperty("mostCount", max((n for _, n in counts), default=0))
        rows = []
        for (key, count), text in zip(counts, shown, strict=True):
            name = QTableWidgetItem(text)
            # (a project shown by its name alone: the whole id on hover)
            name.setToolTip(key if isinstance(key, str) and key.startswith(text) else text)
            amount = QTableWidgetItem(number(count))
            amount.setData(COUNT_ROLE, count)
            amount.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if self._coloured:
                amount.setData(COLOUR_ROLE, key)
            rows.append([name, amount])
        self.set_rows(rows)


def data_item(text: str, *, tip: str | None = None) -> QTableWidgetItem:
    """A cell holding the person's data (a title, a project, a topic key)."""
    item = QTableWidgetItem(reveal(text))  # hidden characters as placeholders
    item.setToolTip(reveal(tip if tip is not None else text))
    return item


def number_item(value: int, text: str | None = None) -> QTableWidgetItem:
    """A cell holding a number, right-aligned as numbers are."""
    item = QTableWidgetItem(text if text is not None else number(value))
    item.setData(COUNT_ROLE, value)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item
