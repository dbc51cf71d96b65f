"""The entry list view: fixed-height rows, a type badge, and dividers drawn as a rule with a line
of text across the whole row.

The badge's colours come from the theme in effect when it is painted (``theme.colors()``), and
the view repaints when the theme changes; the badge always carries the type's name, so colour
is never the only signal.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from memory_desk.ui import theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.persona.list_columns import BADGE_PADDING, ListColumns
from memory_desk.ui.persona.model import (
    COLUMNS,
    NAME,
    SEPARATOR_ROLE,
    TYPE,
    PersonaListModel,
    Separator,
)
from memory_desk.ui.persona.problems import severity_icon
from memory_desk.ui.widgets.row_view import (
    LEFT,
    NO_INKS,
    Paint,
    RowView,
    Sample,
    Shown,
    shown_of,
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
        paint_pill(painter, option.rect, text, pill_look(text, painter.fontMetrics()))


class EntryListView(RowView):
    """A flat list of entries; separator rows span every column.

    A table, not a tree: a tree view lays out every row of the model whenever rows come or go
    (every save or keystroke then paid for the whole folder), a table only the rows in
    sight. Rows have one fixed height (see :class:`EntryDelegate`), so none is measured. The
    rows are painted in one Python call per paint (:mod:`~memory_desk.ui.widgets.row_view`,
    the delegate's pixels), not cell by cell through the delegate: each cell its text, the
    type as its pill, the name after its problem icon. The dividers and the name of the entry
    with unsaved edits (italic, and rare) go through the delegate.
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
        self.columns = ListColumns(self)
        self.alignments = [LEFT] * len(COLUMNS)
        self.cell_painters = {TYPE: self._paint_pill, NAME: self._paint_name}

    def header(self) -> QHeaderView:
        """The column headers (the name a tree view gives them)."""
        return self.horizontalHeader()

    @property
    def rows_painter(self) -> EntryListView:
        """What paints the rows (its counts, texts and check): the view itself."""
        return self

    def paints(self, model: QAbstractItemModel) -> bool:
        return isinstance(model, PersonaListModel)

    def style_samples(self, option: QStyleOptionViewItem) -> list[Sample]:
        font, icon = option.font, severity_icon("warning")
        long = "A description far too long to fit in the sample cell at all"
        return [
            Sample("likes-green-tea", LEFT, font, None, False, False),
            Sample(long, LEFT, font, None, True, False),
            Sample("3 days ago", LEFT, font, None, False, True),
            Sample("✱ prefers-short-answers", LEFT, font, icon, False, False),
            Sample("• a-name-that-goes-on-and-on-past-the-edge", LEFT, font, icon, True, True),
        ]

    def paint_extras(self, paint: Paint) -> tuple[str | None, dict, QFontMetrics]:
        """The entry with unsaved edits, and the pills' looks (per type, worked out once)."""
        return paint.model.unsaved(), {}, QFontMetrics(paint.font)

    def shown_row(self, paint: Paint, row: int) -> Shown | None:
        entry = paint.model.row_at(row)
        if isinstance(entry, Separator):
            return None  # the delegate draws the divider
        return shown_of((entry, paint.font, paint.font_key, None, NO_INKS))

    def _paint_pill(
        self,
        painter: QPainter,
        paint: Paint,
        shown: Shown,
        x: int,
        top: int,
        width: int,
        chosen: bool,
    ) -> bool:
        """The type as the delegate's pill (its look worked out once per type and paint)."""
        kind = shown.record.type
        _unsaved, looks, metrics = paint.extra
        look = looks.get(kind)
        if look is None:
            look = looks[kind] = pill_look(kind, metrics)
        paint_pill(painter, QRect(x, top, width, paint.height), kind, look)
        return True

    def _paint_name(
        self,
        painter: QPainter,
        paint: Paint,
        shown: Shown,
        x: int,
        top: int,
        width: int,
        chosen: bool,
    ) -> bool | None:
        """The name after its problem icon (without one: its text, as any cell); the unsaved
        entry's (italic) by the delegate."""
        entry = shown.record
        if entry.name == paint.extra[0]:
            return False
        icon = paint.model.problem_icon(entry)
        if icon is None:
            return None
        text = paint.model.shown_text(entry, NAME)
        return self.paint_icon_and_text(painter, paint, icon, text, x, top, width, chosen)

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


def pill_look(text: str, metrics: QFontMetrics) -> tuple[int, QColor, QColor]:
    """A type's pill: its width and (background, text) colours in the theme in effect now."""
    badges = theme.colors().persona_badges
    background, foreground = badges.get(text, badges[""])
    return metrics.horizontalAdvance(text) + BADGE_PADDING, QColor(background), QColor(foreground)


def paint_pill(painter: QPainter, rect: QRect, text: str, look: tuple[int, QColor, QColor]) -> None:
    """The type as a coloured pill at the left of the cell ``rect``, from its look: the
    delegate's drawing and the list's own are this one function, so both paint the same
    pixels."""
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
