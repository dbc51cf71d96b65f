"""The chats table's model: a listing made off the main thread, shown as it came.

A database may hold 10,000 chats. Everything that grows with them (the query, sorting, the
id-to-row index) happens in the page's worker (:func:`make_listing`, :func:`sorted_listing`);
the main thread only swaps the finished :class:`ChatListing` in and paints the visible rows.
The summary excerpt is made when a row is first painted (:attr:`ChatRow.summary_excerpt`).

Column 0 holds the chat's session id under ``Qt.UserRole``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal

from memory_desk.core.hidden_text import reveal
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.chats import ChatRow, chat_projects, list_chats
from memory_desk.ui import dates, i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.plain import as_shown
from memory_desk.ui.widgets.display import now_ms

_Index = QModelIndex | QPersistentModelIndex

PROJECT, DIRECTORY, STARTED, ENDED, SAVED, SUMMARY = range(6)
ID_ROLE = Qt.ItemDataRole.UserRole

# How each column sorts; None sorts last in either direction (see sorted_listing).
_SORT_KEYS: dict[int, Callable[[ChatRow], object]] = {
    PROJECT: lambda row: row.project.casefold(),
    DIRECTORY: lambda row: (row.directory or "").casefold() or None,
    STARTED: lambda row: row.at,
    ENDED: lambda row: row.ended_at,
    SAVED: lambda row: row.saved,
    SUMMARY: lambda row: row.summary_start.casefold() or None,
}


def column_titles() -> tuple[str, ...]:
    return (
        translate("ChatsPage", "Project"),
        translate("ChatsPage", "Directory"),
        translate("ChatsPage", "Started"),
        translate("ChatsPage", "Ended"),
        translate("ChatsPage", "Saved"),
        translate("ChatsPage", "Summary"),
    )


@dataclass(frozen=True)
class ChatListing:
    """What the table shows: the rows in order, where each id is, the projects offered by
    the filter, and what the database lacks (None: nothing)."""

    rows: tuple[ChatRow, ...] = ()
    rows_of: dict[str, int] = field(default_factory=dict)
    projects: tuple[str, ...] = ()
    missing: str | None = None


def make_listing(
    store: ObservationStore,
    text: str,
    project: str | None,
    sort: tuple[int, Qt.SortOrder] | None,
) -> ChatListing:
    """Run on the worker: the chats for these filters, in the chosen order."""
    rows = list_chats(store, text=text, project=project)
    listing = ChatListing(tuple(rows), {}, tuple(chat_projects(store)), rows.missing)
    return sorted_listing(listing, sort)


def sorted_listing(listing: ChatListing, sort: tuple[int, Qt.SortOrder] | None) -> ChatListing:
    """The listing in a column's order (None: newest first, as listed); empty values last."""
    rows = list(listing.rows)
    if sort is not None:
        column, order = sort
        key = _SORT_KEYS[column]
        descending = order == Qt.SortOrder.DescendingOrder
        present = [row for row in rows if key(row) is not None]
        absent = [row for row in rows if key(row) is None]
        present.sort(key=key, reverse=descending)  # stable: newest first among equals
        rows = present + absent
    return ChatListing(
        tuple(rows), {row.id: n for n, row in enumerate(rows)}, listing.projects, listing.missing
    )


class ChatsModel(QAbstractTableModel):
    """The chats of a :class:`ChatListing`, one per row (module docstring).

    Sorting asks the page (which sorts on its worker) instead of sorting here.

    Signals:
        sort_requested(int, object): the person clicked a column header (column, order)
    """

    sort_requested = Signal(int, object)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.listing = ChatListing()
        self._titles = column_titles()
        self._now = now_ms()

    def set_listing(self, listing: ChatListing) -> None:
        self.beginResetModel()
        self.listing = listing
        self._now = now_ms()
        self.endResetModel()

    def row_of(self, session_id: str) -> int:
        """The row showing this chat, or -1."""
        return self.listing.rows_of.get(session_id, -1)

    def chat_at(self, row: int) -> ChatRow | None:
        rows = self.listing.rows
        return rows[row] if 0 <= row < len(rows) else None

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008 (Qt)
        return 0 if parent.isValid() else len(self.listing.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008 (Qt)
        return 0 if parent.isValid() else len(self._titles)

    def headerData(  # noqa: N802 (Qt override)
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._titles[section] if 0 <= section < len(self._titles) else None
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if column in _SORT_KEYS:
            self.sort_requested.emit(column, order)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self.chat_at(index.row()) if index.isValid() else None
        if row is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:  # hidden characters as placeholders
            return reveal(self._display(row, column))
        if role == ID_ROLE and column == PROJECT:
            return row.id
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column == SAVED:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, row: ChatRow, column: int) -> str:
        if column == PROJECT:
            return row.project
        if column == DIRECTORY:
            return row.directory or ""
        if column == STARTED:
            return dates.relative(row.at, self._now)
        if column == ENDED:
            return dates.relative(row.ended_at, self._now)
        if column == SAVED:
            return i18n.number(row.saved)
        return row.summary_excerpt

    def _tooltip(self, row: ChatRow, column: int) -> str | None:
        if column == PROJECT:
            return as_shown(translate("ChatsPage", "Chat {id}").format(id=row.id))
        if column == STARTED and row.at is not None:
            if row.started_at is None:
                return translate(
                    "ChatsPage", "{when}: the first thing this chat recorded (no start time)"
                ).format(when=dates.exact(row.at))
            return dates.exact(row.at)
        if column == ENDED and row.ended_at is not None:
            return dates.exact(row.ended_at)
        if column == DIRECTORY and row.directory:
            return as_shown(row.directory)
        return None
