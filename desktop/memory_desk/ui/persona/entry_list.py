"""The entry list view: fixed-height rows, a type badge, and dividers drawn as a rule with a line
of text across the whole row.

The badge's colours come from the theme in effect when it is painted (``theme.colors()``), and
the view repaints when the theme changes; the badge always carries the type's name, so colour
is never the only signal.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from memory_desk.ui import theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.persona.list_columns import ListColumns
from memory_desk.ui.persona.list_painting import (
    EntryRowPainter,
    paint_badge,
)
from memory_desk.ui.persona.model import (
    COLUMNS,
    SEPARATOR_ROLE,
    TYPE,
    PersonaListModel,
)

_Index = QModelIndex | QPersistentModelIndex


class EntryDelegate(QStyledItemDelegate):
    """Paints the type as a coloured pill and separator rows as a labelled rule.

    Every row has the same height, taken from the font and the problem icon, not from the
    first row (with uniform row heights the view asks only that one): otherwise the rows shrink
    when the entry with an icon leaves the top and the badges no longer fit.
    """

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:  # noqa: N802
        hint = super().sizeHint(option, index)
        style = option.widget.style() if option.widget else QApplication.style()
        icon = style.pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        hint.setHeight(max(option.fontMetrics.height(), icon) + 6)
        return hint  # (the list's rows take row_height(), the same figure, without asking)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        if index.data(SEPARATOR_ROLE):
            self._paint_divider(painter, option, index)
        elif index.column() == TYPE:
            self._paint_badge(painter, option, index)
        else:
            super().paint(painter, option, index)

    def _paint_divider(
        self, painter: QPainter, option: QStyleOptionViewItem, index: _Index
    ) -> None:
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        painter.save()
        colour = option.palette.color(QPalette.ColorRole.PlaceholderText)
        painter.setPen(colour)
        font = painter.font()
        font.setItalic(True)
        painter.setFont(font)
        rect = option.rect
        width = painter.fontMetrics().horizontalAdvance(text) + 16
        middle = rect.center().y()
        painter.drawLine(rect.left() + 4, middle, rect.left() + 12, middle)
        painter.drawText(
            QRect(rect.left() + 16, rect.top(), width, rect.height()),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            text,
        )
        painter.drawLine(rect.left() + 16 + width, middle, rect.right() - 4, middle)
        painter.restore()

    def _paint_badge(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        style = option.widget.style() if option.widget else None
        if style is not None and option.state & QStyle.StateFlag.State_Selected:
            style.drawPrimitive(
                QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, option.widget
            )
        text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        paint_badge(painter, option.rect, text, painter.fontMetrics())


class EntryListView(QTableView):
    """A flat list of entries; separator rows span every column.

    A table, not a tree: a tree view lays out every row of the model whenever rows come or go
    (every save or keystroke then paid for the whole folder), a table only the rows in
    sight. Rows have one fixed height (see :class:`EntryDelegate`), so none is measured. The
    rows are painted in one Python call per paint (:mod:`~memory_desk.ui.persona.list_painting`,
    the delegate's pixels), not cell by cell through the delegate.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personaList")
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setTabKeyNavigation(False)  # Tab leaves the list, as in the page's reading order
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.setItemDelegate(EntryDelegate(self))
        self.setToolTip(
            translate(
                "EntryListView", "Entries in the agent's order, most recent first (Ctrl+L to focus)"
            )
        )
        self.setAccessibleName(translate("EntryListView", "Entries"))
        self.setAccessibleDescription(
            translate(
                "EntryListView",
                "The agent's memory of the person, one entry per row, in the agent's order. "
                "A row marked • holds unsaved edits.",
            )
        )
        self._spanned: list[int] = []
        self.rows_painter = EntryRowPainter(self)
        self.columns = ListColumns(self)
        theme.notifier().changed.connect(self._on_theme_changed)

    def header(self) -> QHeaderView:
        """The column headers (the name a tree view gives them)."""
        return self.horizontalHeader()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        """The rows in one Python call (``list_painting``), or as ``QTableView`` paints them
        when that way would not give the style's pixels."""
        model = self.model()
        if not isinstance(model, PersonaListModel) or not self.rows_painter.can_paint():
            super().paintEvent(event)
            return
        painter = QPainter(self.viewport())
        try:
            self.rows_painter.paint(painter, model, event.rect())
        finally:
            painter.end()

    def _on_theme_changed(self) -> None:
        """Badges are painted with the theme's colours, and the palette may be new: check the
        own painting again and paint the rows in the new colours."""
        self.rows_painter.forget_checks()
        self.viewport().update()

    def setModel(self, model: PersonaListModel) -> None:  # noqa: N802 (Qt override)
        """Columns sized from the font, stepping aside when the list is narrow
        (:mod:`~memory_desk.ui.persona.list_columns`)."""
        super().setModel(model)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.columns.size()
        self.verticalHeader().setDefaultSectionSize(row_height(self))
        for signal in (model.dividers_moved, model.modelReset):
            signal.connect(self.span_separators)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self.columns.fit()

    def span_separators(self, *_args: object) -> None:
        """Let every separator row draw across the whole width (there are at most two).

        Spanned again after every change the model completes: the view shifts its spans
        itself as rows come and go, so the spans it holds are not always the ones last set."""
        rows = self.model().separator_rows()
        if rows == self._spanned and all(self.columnSpan(r, 0) == len(COLUMNS) for r in rows):
            return
        self.clearSpans()
        for row in rows:
            self.setSpan(row, 0, 1, len(COLUMNS))
        self._spanned = rows

    def isFirstColumnSpanned(self, row: int, _parent: object = None) -> bool:  # noqa: N802
        """Whether ``row`` draws across every column (a divider), as a tree view says it."""
        return self.columnSpan(row, 0) == len(COLUMNS)


def row_height(view: QWidget) -> int:
    """Every row's height: the font's line or the problem icon, whichever is taller, plus
    room for the badge's margins (the same for every row, so none is measured)."""
    icon = view.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
    return max(view.fontMetrics().height(), icon) + 6
