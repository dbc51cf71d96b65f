"""The chats table's columns: each as wide as its header and its usual values, the summary
taking what they leave, and the width the list needs to show them all without scrolling
sideways (the page stacks the detail below the list when the window cannot give it).

Widths are measured in the table's font and the person's language (a longer translation
widens its column), never per row: a database may hold 10,000 chats.
"""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtWidgets import QHeaderView, QStyle, QTableView

from memory_desk.ui import dates, i18n
from memory_desk.ui.chats.model import DIRECTORY, ENDED, PROJECT, SAVED, STARTED, SUMMARY
from memory_desk.ui.widgets.display import now_ms

PROJECT_WIDTH = 170  # a project's name and the start of its hash (the tooltip has it all)
MIN_SUMMARY_WIDTH = 160  # the start of what the chat was about
_CELL_PADDING = 12
_DAY_MS = 86_400_000
# A date whose day and month both take two digits: the widest short date of a locale.
_LONG_DATE_MS = dates.ms_from_datetime(datetime(2026, 12, 28, 12, tzinfo=UTC))


def _samples(column: int) -> list[str]:
    """The widest usual values of a column besides its header."""
    if column in (STARTED, ENDED):
        now = now_ms()
        return [
            dates.relative(now - 29 * _DAY_MS, now),
            dates.relative(now - 23 * 3_600_000, now),
            dates.short_date(_LONG_DATE_MS),
        ]
    if column == SAVED:
        return [i18n.number(8888)]
    return []


def default_width(table: QTableView, column: int) -> int:
    """Room for the column's header and its usual values."""
    if column == PROJECT:
        return PROJECT_WIDTH
    header = table.horizontalHeader()
    metrics = table.fontMetrics()
    widest = max((metrics.horizontalAdvance(text) for text in _samples(column)), default=0)
    return max(header.sectionSizeHint(column), widest + _CELL_PADDING)


def size_columns(table: QTableView) -> None:
    """Every column but the summary to its usual width; the summary takes the rest."""
    header = table.horizontalHeader()
    header.setMinimumSectionSize(min(header.minimumSectionSize(), 40))
    for column in (PROJECT, DIRECTORY, STARTED, ENDED, SAVED):
        header.resizeSection(column, default_width(table, column))
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setSectionResizeMode(SUMMARY, QHeaderView.ResizeMode.Stretch)


def needed_width(table: QTableView) -> int:
    """The table's width that shows every shown column whole beside the summary's minimum:
    narrower, it would scroll sideways."""
    header = table.horizontalHeader()
    shown = sum(
        header.sectionSize(c)
        for c in range(header.count())
        if c != SUMMARY and not header.isSectionHidden(c)
    )
    scroll_bar = table.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, table)
    return shown + MIN_SUMMARY_WIDTH + scroll_bar + 2 * table.frameWidth()
