"""The observations page's table: how it is set up, and its selection kept by id, which
survives new answers, live reloads and row moves.

Keyboard triage, as in a mail client: the current row is always selected, so Del, Ctrl+P or
F2 can be pressed again at once. When the current row leaves the view (forgotten, deleted,
unpinned under "Pinned only", or removed by the agent), the row below it becomes current and
selected once the answer that follows is in.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from memory_desk.core.lazy_numpy import np
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations import row_diff
from memory_desk.ui.observations.delegates import install_delegates
from memory_desk.ui.observations.model import Column, ObservationTableModel
from memory_desk.ui.observations.query import QueryResult
from memory_desk.ui.observations.row_diff import IdIndex
from memory_desk.ui.observations.table_view import ObservationsTableView


def build_table(parent: QWidget, model: ObservationTableModel) -> ObservationsTableView:
    """The page's table, set up for rows: whole rows selected, fixed heights, sorting by
    the header in SQL (the page sizes its columns with :class:`.columns.TableColumns`)."""
    table = ObservationsTableView(parent)  # paints its rows itself (see table_view)
    table.setObjectName("observationsTable")
    table.setAccessibleName(translate("ObservationsPage", "Observations"))
    table.setAccessibleDescription(
        translate(
            "ObservationsPage",
            "The observations of this database, one per row. Return reads the current one,"
            " Del forgets, Ctrl+P pins, F2 edits; the header's menu shows or hides columns",
        )
    )
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    table.setAlternatingRowColors(True)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    table.setTabKeyNavigation(False)  # rows are the unit here: Tab leaves the table
    install_delegates(table)  # each cell painted from one look-up of its row
    # The header would scan every row to draw its "column selected" state (every cell's
    # flags() after Ctrl+A); its own, always empty, selection model spares that. Sections are for sorting here, never for selecting.
    table.horizontalHeader().setSelectionModel(QItemSelectionModel(model, table))
    rows = table.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(table.fontMetrics().height() + 8)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    header.setSectionsClickable(True)
    header.setSortIndicatorShown(True)
    header.setSortIndicatorClearable(True)  # a third click goes back to rank / newest first
    header.setSortIndicator(-1, Qt.SortOrder.DescendingOrder)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(False)
    return table


# After a new query, restore at most this many selected ids (beyond, only the current row).
RESELECT_LIMIT = 5000


class RowSelection:
    """Selection, current row and scroll position of the table, by observation id.

    It also holds the rows to make current when the next answer is in: a row this page just
    created or was asked to show (kept until an answer holds it), and the row to go on to
    after a write took the current ones away (used once).
    """

    def __init__(self, table: QTableView, model: ObservationTableModel) -> None:
        self._table = table
        self._model = model
        self._wanted: int | None = None  # created or asked for: shown once an answer has it
        self._after_write: int | None = None  # the row to go on to after a triage write

    # -- reading it -----------------------------------------------------------------------------

    def ids(self, limit: int | None = None) -> list[int]:
        """Ids of the selected rows, in display order, read from the selection's ranges
        (the first ``limit`` of them: a check of the selection never copies all of it)."""
        ids: list[int] = []
        ranges = sorted(self._table.selectionModel().selection(), key=lambda r: r.top())
        for selection_range in ranges:
            ids.extend(self._model.ids_slice(selection_range.top(), selection_range.bottom()))
            if limit is not None and len(ids) >= limit:
                break
        unique = list(dict.fromkeys(ids))
        return unique if limit is None else unique[:limit]

    def current_id(self) -> int | None:
        index = self._table.currentIndex()
        return self._model.id_at(index.row()) if index.isValid() else None

    def ids_in_view(self, selected_limit: int) -> list[int]:
        """The rows worth keeping fresh after a refresh: on screen, current, a few selected."""
        first = max(0, self._table.rowAt(0))
        last = self._table.rowAt(self._table.viewport().height() - 1)
        last = self._model.rowCount() - 1 if last < 0 else last
        ids = self._model.ids_slice(first, last)
        current = self.current_id()
        if current is not None:
            ids.append(current)
        return ids + self.ids(limit=selected_limit)

    def row_after(self, ids: Sequence[int]) -> int | None:
        """The first row below the last of ``ids`` that is not one of them, else the nearest
        above the first (None when no row is left)."""
        leaving = set(ids)
        rows = [row for row in (self._model.row_of(oid) for oid in ids) if row >= 0]
        if not rows:
            return None
        count = self._model.rowCount()
        for row in [*range(max(rows) + 1, count), *range(min(rows) - 1, -1, -1)]:
            oid = self._model.id_at(row)
            if oid is not None and oid not in leaving:
                return oid
        return None

    # -- changing it ----------------------------------------------------------------------------

    def select(self, ids: Sequence[int], current: int | None) -> None:
        rows = sorted(int(row) for row in self._model.rows_of(ids) if row >= 0) if ids else []
        selection = QItemSelection()
        last_column = len(Column) - 1
        start = previous = None
        for row in [*rows, None]:
            if start is not None and (row is None or row != previous + 1):
                selection.select(
                    self._model.index(start, 0), self._model.index(previous, last_column)
                )
                start = None
            if row is not None and start is None:
                start = row
            previous = row
        selection_model = self._table.selectionModel()
        current_row = self._model.row_of(current) if current is not None else -1
        if current_row >= 0:
            selection_model.setCurrentIndex(
                self._model.index(current_row, 0), QItemSelectionModel.SelectionFlag.NoUpdate
            )
        selection_model.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def show(self, observation_id: int) -> None:
        """Make this row current and selected, in the middle of the view."""
        self.select([observation_id], observation_id)
        self.scroll_to(observation_id)

    def scroll_to(self, observation_id: int) -> None:
        row = self._model.row_of(observation_id)
        if row >= 0:
            self._table.scrollTo(
                self._model.index(row, 0), QAbstractItemView.ScrollHint.PositionAtCenter
            )
        else:
            self._table.scrollToTop()

    def select_first_row(self) -> None:
        """A person opening a database sees a filled detail pane: the first row is current."""
        if self._model.rowCount() == 0 or self._table.selectionModel().hasSelection():
            return
        self._table.selectionModel().setCurrentIndex(
            self._model.index(0, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )

    def make_a_row_current(self) -> None:
        if not self._table.currentIndex().isValid() and self._model.rowCount() > 0:
            self._table.selectRow(0)

    # -- answers --------------------------------------------------------------------------------

    def show_new_ids(self, ids: Sequence[int] | np.ndarray, index: IdIndex | None = None) -> None:
        """Reset to the new ids (``index``: their row look-up, built on the worker), keeping
        the current and selected rows that are still there."""
        current, selected = self.current_id(), self.ids(limit=RESELECT_LIMIT)
        self._model.reset_ids(ids, index)
        self.select(selected, current)
        if current is None:
            self._table.scrollToTop()
        else:
            self.scroll_to(current)

    def apply_difference(self, result: QueryResult) -> list[int]:
        """Apply a re-run's answer row by row (the worker planned the operations); the view
        keeps its top row where it was.

        Returns the ids that were not shown before (rows that just arrived).
        """
        model = self._model
        anchor = self._top_id()
        offset = 0 if anchor is None else self._table.rowViewportPosition(model.row_of(anchor))
        current = self.current_id()
        before = model.snapshot()[1] if current is not None else None
        plan = result.plan
        if plan is not None and model.apply_plan(plan, result.based_on):
            arrived = [int(oid) for oid in plan.arrived]
        else:
            # Planned against other ids (rare), or too scattered: plan here, or reset.
            ids = row_diff.as_ids(result.ids)
            arrived = [int(oid) for oid in ids[~model.contains_many(ids)]]
            if not model.apply_ids(ids):
                self.show_new_ids(ids)
        if anchor is not None and model.row_of(anchor) >= 0:
            self._keep_on_screen(anchor, offset)
        if current is not None and before is not None and model.row_of(current) < 0:
            self._go_on_from(current, before)
        return arrived

    def want(self, observation_id: int) -> None:
        """Show this row once an answer holds it (a row just created, or asked for)."""
        self._wanted = observation_id

    def go_on_after_write(self, observation_id: int | None) -> None:
        """With the next answer, go on to this row (the write took the current ones away)."""
        self._after_write = observation_id

    def follow_answer(self) -> None:
        """An answer is in: show the wanted row if it holds it, then go on after a write."""
        if self._wanted is not None and self._model.row_of(self._wanted) >= 0:
            self.show(self._wanted)
            self._wanted = None
        target, self._after_write = self._after_write, None
        if target is not None and self._model.row_of(target) >= 0:
            self.show(target)

    def _go_on_from(self, gone: int, before: np.ndarray) -> None:
        """The current row left the view: the first row below it that is still shown becomes
        current and selected (else the nearest above), as a mail client goes on to the next
        message. Qt alone would move to the row above and leave nothing selected."""
        found = np.flatnonzero(before == gone)
        if not len(found):
            return
        row = int(found[0])
        below = np.flatnonzero(self._model.contains_many(before[row + 1 :]))
        if len(below):
            oid = int(before[row + 1 + int(below[0])])
        else:
            above = np.flatnonzero(self._model.contains_many(before[:row]))
            if not len(above):
                return
            oid = int(before[int(above[-1])])
        self.select([oid], oid)

    def _keep_on_screen(self, anchor: int, offset: int) -> None:
        """Scroll so that ``anchor`` is again ``offset`` pixels from the top of the viewport."""
        row = self._model.row_of(anchor)
        if row < 0:
            return
        self._table.updateGeometries()  # the scroll range must know about the new rows first
        bar = self._table.verticalScrollBar()
        bar.setValue(bar.value() + self._table.rowViewportPosition(row) - offset)

    def _top_id(self) -> int | None:
        """The id of the first visible row, unless the view is at the very top (then new rows
        arriving there should show)."""
        row = self._table.rowAt(0)
        return self._model.id_at(row) if row > 0 else None
