"""The entry list's columns: widths from the font, and the columns that step aside when the
list is narrow.

No ResizeToContents (folders hold thousands of entries): the name takes about twenty
characters, the type its widest badge, the date its longest wording, and the description
every pixel left over, since that is the line the agent reads. On a small screen the list
never scrolls sideways: while the description would get less than
:data:`MIN_DESCRIPTION_WIDTH`, the type steps aside first (the editor shows it), then the name
narrows down to :data:`MIN_NAME_CHARS` characters (the tooltip holds it whole), then the date
steps aside; they come back in the opposite order as the list widens. A name column the
person sized keeps their width.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtWidgets import QHeaderView, QStyle, QTableView

from memory_desk.core.persona import ENTRY_TYPES
from memory_desk.ui.persona.model import (
    DESCRIPTION,
    NAME,
    TYPE,
    UNSAVED_MARK,
    UPDATED,
    relative_time,
)

BADGE_PADDING = 12  # a type pill's width beyond its text (the list paints it: entry_list)
MIN_DESCRIPTION_WIDTH = 120
MIN_NAME_CHARS = 12
NARROW_DROPS = (TYPE, UPDATED)  # stepped aside in this order while the list is too narrow
STEPPED_ASIDE = "steppedAside"  # the list's property: saved layouts show these columns again


def _date_samples() -> list[str]:
    """The widest wordings the Updated column shows, in the person's language and locale."""
    now = datetime(2026, 12, 31, 12, tzinfo=UTC)
    return [
        relative_time(now - timedelta(days=days, hours=hours), now)
        for days, hours in ((0, 23), (1, 0), (28, 0), (400, 0))
    ]


class ListColumns:
    """Sizes the entry list's columns and steps them aside when it is narrow (module
    docstring). :meth:`fit` runs at every resize of the list."""

    def __init__(self, view: QTableView) -> None:
        self._view = view
        metrics = view.fontMetrics()
        # + the problem icon and the unsaved mark
        extras = 24 + metrics.horizontalAdvance(UNSAVED_MARK)
        self._name = metrics.averageCharWidth() * 20 + extras
        self._min_name = metrics.averageCharWidth() * MIN_NAME_CHARS + extras
        badge = max(metrics.horizontalAdvance(text) for text in ENTRY_TYPES)
        self._widths = {
            TYPE: badge + BADGE_PADDING + 12,
            UPDATED: max(metrics.horizontalAdvance(t) for t in _date_samples()) + 12,
        }
        self._stepped_aside: list[int] = []
        self._fitted_name: int | None = None  # the name's width this object last set

    def size(self) -> None:
        """The columns' modes and first widths (the model is set)."""
        header = self._view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(48)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(TYPE, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(DESCRIPTION, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(UPDATED, QHeaderView.ResizeMode.Interactive)
        for column, width in self._widths.items():
            self._view.setColumnWidth(column, width)
        self._set_name(self._name)

    def stepped_aside(self) -> list[int]:
        """The columns hidden for want of room, in the order they went."""
        return list(self._stepped_aside)

    def fit(self) -> None:
        """Hide, narrow or bring back columns so the description keeps its minimum: the
        first of the layouts, fullest first, that leaves it room."""
        header = self._view.horizontalHeader()
        if header.count() <= UPDATED:
            return
        room = self._room()
        mine = self._fitted_name is not None and header.sectionSize(NAME) == self._fitted_name
        names = [self._name, self._min_name] if mine else [header.sectionSize(NAME)]
        names = list(dict.fromkeys(names))
        layouts = [((TYPE, UPDATED), names[0])]
        layouts += [((UPDATED,), name) for name in names]  # (the full name first, each time)
        layouts += [((), name) for name in names]
        fitting = [
            (shown, name)
            for shown, name in layouts
            if name + sum(self._widths[c] for c in shown) + MIN_DESCRIPTION_WIDTH <= room
        ]
        shown, name = fitting[0] if fitting else layouts[-1]
        for column in NARROW_DROPS:
            if header.isSectionHidden(column) == (column in shown):
                header.setSectionHidden(column, column not in shown)
                if column in shown and header.sectionSize(column) < self._widths[column]:
                    self._view.setColumnWidth(column, self._widths[column])
        self._stepped_aside = [c for c in NARROW_DROPS if c not in shown]
        self._view.setProperty(STEPPED_ASIDE, self._stepped_aside)
        if mine and name != header.sectionSize(NAME):
            self._set_name(name)

    def _set_name(self, width: int) -> None:
        self._view.setColumnWidth(NAME, width)
        self._fitted_name = self._view.horizontalHeader().sectionSize(NAME)

    def _room(self) -> int:
        """The width the columns may take: the viewport's, with the vertical scroll bar's
        room always kept (its coming and going must not make the columns come and go)."""
        view = self._view
        extent = view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, view)
        return view.maximumViewportSize().width() - extent
