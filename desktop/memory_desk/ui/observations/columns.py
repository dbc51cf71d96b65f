"""The observations table's columns: widths that fit the window, and which columns show.

The window first opens at 1280×800 beside a 230 px sidebar, and the column the rows are
sorted by must be on screen with its arrow there. So each column is as wide as its header
(with room for the sort arrow) and its usual values, measured in the table's font and the
person's language (a longer translation widens its column); the title takes what the others
leave (at least :data:`MIN_TITLE_WIDTH`) and follows the table's width. A width the person gave
another column (dragging a border, or a layout restored from a bigger screen) is kept: the title
still takes what is left. Duplicates and Created start hidden (the detail pane shows both);
the header's context menu shows or hides any column but the title. While the table is too
narrow for every column beside the title (a small screen), the columns of :data:`NARROW_DROPS`
step aside in that order, and come back as the table widens: the table never scrolls
sideways. The detail pane shows what they held.
"""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHeaderView, QStyle, QTableView

from memory_desk.core.alisio import now_ms
from memory_desk.ui import dates
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.model import Column

# The widest usual value of each column (besides its header). Long projects and topic keys
# are elided, so theirs is a typical short one.
_SAMPLES: dict[Column, str] = {
    Column.ID: "#00000",
    Column.PINNED: "",
    Column.TYPE: "architecture",
    Column.PROJECT: "notes…a786d7ce",
    Column.SCOPE: "personal",
    Column.TOPIC_KEY: "auth/refresh-lock",
    Column.REVISIONS: "000",
    Column.DUPLICATES: "000",
    Column.ACCESSES: "0000",
}
_CELL_PADDING = 10  # the cell's margins
_BADGE_PADDING = 12  # a type badge's own, inside the cell
_DAY_MS = 86_400_000
# A date whose day and month both take two digits: the widest short date of a locale.
_LONG_DATE_MS = dates.ms_from_datetime(datetime(2026, 12, 28, 12, tzinfo=UTC))

HIDDEN_BY_DEFAULT = (Column.DUPLICATES, Column.CREATED)
MIN_TITLE_WIDTH = 240
STEPPED_ASIDE = "steppedAside"  # the table's property: the columns hidden for want of room
# Hidden, in this order, while the table is too narrow for them beside the title.
NARROW_DROPS = (
    Column.ACCESSES,
    Column.REVISIONS,
    Column.ID,
    Column.SCOPE,
    Column.TOPIC_KEY,
)


class TableColumns(QObject):
    """Sizes the table's columns and offers the header's show/hide menu (module docstring).

    ``actions`` holds the menu's checkable entries (object names ``showColumn_<column>``).
    """

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self._table = table
        header = table.horizontalHeader()
        for column in Column:
            header.resizeSection(column, self.default_width(column))
        for column in HIDDEN_BY_DEFAULT:
            header.setSectionHidden(column, True)
        self._stepped_aside: list[Column] = []  # hidden for want of room, in drop order
        self._arranging = False
        self.actions = self._build_menu(header)
        table.viewport().installEventFilter(self)  # its width: the title fits it
        header.installEventFilter(self)  # its menu: the checks follow a restored layout

    def default_width(self, column: Column) -> int:
        """Room for the header with its sort arrow, and for the column's usual values."""
        if column == Column.TITLE:
            return MIN_TITLE_WIDTH
        if column in (Column.UPDATED, Column.CREATED):
            now = now_ms()
            samples = [dates.relative(now - 29 * _DAY_MS, now), dates.short_date(_LONG_DATE_MS)]
        else:
            samples = [_SAMPLES.get(column, "")]
        metrics = self._table.fontMetrics()
        widest = max(metrics.horizontalAdvance(text) for text in samples)
        padding = _CELL_PADDING + (_BADGE_PADDING if column == Column.TYPE else 0)
        return max(self._table.horizontalHeader().sectionSizeHint(column), widest + padding)

    def show_column(self, column: Column, shown: bool) -> None:
        """Show or hide a column; the title keeps fitting the width if it did."""
        header = self._table.horizontalHeader()
        if column in self._stepped_aside:
            self._stepped_aside.remove(column)  # the person's choice rules it from now on
            self._table.setProperty(STEPPED_ASIDE, [int(c) for c in self._stepped_aside])
        if header.isSectionHidden(column) != shown:
            return
        header.setSectionHidden(column, not shown)
        if shown and header.sectionSize(column) < header.sectionSizeHint(column):
            header.resizeSection(column, self.default_width(column))
        self.fit_title()

    def fit_title(self) -> None:
        """Give the title the width the other columns leave (at least MIN_TITLE_WIDTH), so
        every column, and the sort arrow on any of them, shows without scrolling sideways."""
        header = self._table.horizontalHeader()
        self._arranging = True  # (hiding a column resizes the viewport on the way)
        try:
            for _round in range(3):  # until the room it was arranged for is the room there is
                room = self._room()
                self._make_room(header, room)
                if self._room() == room:
                    break
        finally:
            self._arranging = False
        others = self._others(header)
        width = max(MIN_TITLE_WIDTH, self._table.viewport().width() - others)
        if width != header.sectionSize(Column.TITLE):
            header.resizeSection(Column.TITLE, width)

    def _room(self) -> int:
        """The width the columns may take: the viewport's, with the vertical scroll bar's
        room always kept (its coming and going must not make the columns come and go)."""
        table = self._table
        extent = table.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, table)
        return table.maximumViewportSize().width() - extent

    def _others(self, header: QHeaderView) -> int:
        return sum(
            header.sectionSize(c)
            for c in Column
            if c != Column.TITLE and not header.isSectionHidden(c)
        )

    def _make_room(self, header: QHeaderView, room: int) -> None:
        """Step columns aside while the title lacks its minimum; bring them back (last
        dropped first) while they fit again."""
        for column in NARROW_DROPS:
            if self._others(header) + MIN_TITLE_WIDTH <= room:
                break
            if not header.isSectionHidden(column):
                header.setSectionHidden(column, True)
                self._stepped_aside.append(column)
        while self._stepped_aside:
            column = self._stepped_aside[-1]
            width = self.default_width(column)  # (a hidden section's size reads 0)
            if self._others(header) + width + MIN_TITLE_WIDTH > room:
                break
            header.setSectionHidden(column, False)
            self._stepped_aside.pop()
        # (saved as shown: a layout saved on a small screen must not hide them on a big one)
        self._table.setProperty(STEPPED_ASIDE, [int(c) for c in self._stepped_aside])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        """The viewport resized: fit the title. The header's menu opens: tick what shows."""
        kind = event.type()
        if kind == QEvent.Type.Resize and watched is self._table.viewport():
            if not self._arranging:
                self.fit_title()
        elif kind == QEvent.Type.ContextMenu and watched is self._table.horizontalHeader():
            self._sync_menu()
        return super().eventFilter(watched, event)

    def _build_menu(self, header: QHeaderView) -> dict[Column, QAction]:
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        actions: dict[Column, QAction] = {}
        for column in Column:
            if column == Column.TITLE:
                continue  # the title always shows: without it a row means nothing
            action = QAction(self._name(column), header)
            action.setObjectName(f"showColumn_{column.name.lower()}")
            action.setCheckable(True)
            action.setChecked(not header.isSectionHidden(column))
            action.toggled.connect(lambda shown, c=column: self.show_column(c, shown))
            header.addAction(action)
            actions[column] = action
        return actions

    def _name(self, column: Column) -> str:
        """A column's name for the menu (the pin column's header is only a glyph)."""
        if column == Column.PINNED:
            return translate("TableColumns", "Pinned")
        model = self._table.model()
        return str(model.headerData(column, Qt.Orientation.Horizontal) or column.name)

    def _sync_menu(self) -> None:
        header = self._table.horizontalHeader()
        for column, action in self.actions.items():
            action.blockSignals(True)
            action.setChecked(not header.isSectionHidden(column))
            action.blockSignals(False)
