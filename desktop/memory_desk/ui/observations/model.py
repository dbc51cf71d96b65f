"""The observations table model: an ordered list of ids, rows loaded lazily into a small cache.

Anki's browser shape: one SQL query (run elsewhere, off the main thread) gives the ids in
display order; the model fetches only the rows the view asks for, a block at a time with one
``get_many`` call, and keeps them preformatted so ``data()`` is a dictionary look-up. Sorting
and filtering happen in SQL, never here.

A new query replaces the ids with a reset. Re-running the same query (after a write, or when
the agent wrote) goes through :meth:`ObservationTableModel.apply_ids`, which turns the
difference into row removals, moves and insertions, so selection, current row and scroll
position survive; changed rows in the cache emit ``dataChanged``.

Rows another program just added (or revised) are *marked* for a few seconds: a soft
highlight behind the row and a word in its tooltip, so a person sees what arrived without
hunting. One single-shot timer clears the marks as they expire; a new query clears them all.

Texts are the person's language (headers and tooltips through ``translate``, read when asked
so a language installed later applies); dates are :mod:`memory_desk.ui.dates`' one style
(relative in cells, exact on hover); colours (forgotten rows, marks, unreadable titles) come
from the theme in effect, and the whole table repaints when the theme changes.

Signals:
    fetch_failed(str): loading rows for the view failed (the store's message)
"""

from __future__ import annotations

import bisect
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

from memory_desk.core import StoreError
from memory_desk.core.observations import Observation, ObservationStore
from memory_desk.ui import dates, i18n, theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.display import now_ms, pin_glyph
from memory_desk.ui.plain import as_shown

ID_ROLE = Qt.ItemDataRole.UserRole
FORGOTTEN_ROLE = Qt.ItemDataRole.UserRole + 1
BADGE_COLOUR_ROLE = Qt.ItemDataRole.UserRole + 2  # the type badge's fill, in the theme in effect

# data() runs thousands of times per paint: compare plain ints, not enum members.
_DISPLAY = Qt.ItemDataRole.DisplayRole.value
_TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
_FONT = Qt.ItemDataRole.FontRole.value
_FOREGROUND = Qt.ItemDataRole.ForegroundRole.value
_BACKGROUND = Qt.ItemDataRole.BackgroundRole.value
_ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole.value
_ID = ID_ROLE.value
_FORGOTTEN = int(FORGOTTEN_ROLE)
_BADGE = int(BADGE_COLOUR_ROLE)
_ROW_ROLES = frozenset({_DISPLAY, _TOOLTIP, _FONT, _FOREGROUND, _FORGOTTEN, _BADGE})
_ACCESSIBLE = Qt.ItemDataRole.AccessibleTextRole.value
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
_NO_FLAGS = Qt.ItemFlag.NoItemFlags

# Beyond this many separate runs of changes, row-by-row signals cost more than a reset
# that restores the selection by id (the page does that when apply_ids returns False).
MAX_INCREMENTAL_RUNS = 500

MARK_NEW = "new"
MARK_CHANGED = "changed"
_MARK_ROLES = [Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ToolTipRole]


class Column(IntEnum):
    ID = 0
    PINNED = 1
    TYPE = 2
    TITLE = 3
    PROJECT = 4
    SCOPE = 5
    TOPIC_KEY = 6
    REVISIONS = 7
    DUPLICATES = 8
    ACCESSES = 9
    UPDATED = 10
    CREATED = 11


_COLUMN_COUNT = len(Column)


def header_labels() -> list[str]:
    """Each column's header in the person's language (the pin column shows the pin glyph)."""
    return [
        translate("ObservationTableModel", "ID"),
        pin_glyph(),
        translate("ObservationTableModel", "Type"),
        translate("ObservationTableModel", "Title"),
        translate("ObservationTableModel", "Project"),
        translate("ObservationTableModel", "Scope"),
        translate("ObservationTableModel", "Topic key"),
        translate("ObservationTableModel", "Rev."),
        translate("ObservationTableModel", "Dup."),
        translate("ObservationTableModel", "Reads"),
        translate("ObservationTableModel", "Updated"),
        translate("ObservationTableModel", "Created"),
    ]


def header_names() -> list[str]:
    """What a screen reader says for each header: the words the short labels stand for."""
    return [
        translate("ObservationTableModel", "ID"),
        translate("ObservationTableModel", "Pinned"),
        translate("ObservationTableModel", "Type"),
        translate("ObservationTableModel", "Title"),
        translate("ObservationTableModel", "Project"),
        translate("ObservationTableModel", "Scope"),
        translate("ObservationTableModel", "Topic key"),
        translate("ObservationTableModel", "Revisions"),
        translate("ObservationTableModel", "Duplicates"),
        translate("ObservationTableModel", "Reads"),
        translate("ObservationTableModel", "Updated"),
        translate("ObservationTableModel", "Created"),
    ]


def header_tips() -> list[str]:
    """Each column's header tooltip: what it holds and how clicking sorts."""
    tips = [
        translate("ObservationTableModel", "The observation's id in the database."),
        translate("ObservationTableModel", "Pinned: always injected into the agent's context."),
        translate("ObservationTableModel", "What kind of memory this is."),
        translate("ObservationTableModel", "The title the agent gave it."),
        translate(
            "ObservationTableModel", "The project it belongs to (the full id on hover over a cell)."
        ),
        translate(
            "ObservationTableModel",
            "Either project or personal (personal rows are visible from every project).",
        ),
        translate("ObservationTableModel", "Saves with the same topic key revise this row."),
        translate("ObservationTableModel", "Revisions: how many times a save rewrote it."),
        translate("ObservationTableModel", "Duplicates: exact repeats saved within 15 minutes."),
        translate("ObservationTableModel", "Reads: how often the agent opened it whole."),
        translate("ObservationTableModel", "Last changed (exact time on hover)."),
        translate("ObservationTableModel", "First saved (exact time on hover)."),
    ]
    sorting = translate(
        "ObservationTableModel", "Click to sort; a third click goes back to the default order."
    )
    return [f"{tip} {sorting}" for tip in tips]


# The store's SORT_KEYS, one per column: clicking a header sorts in SQL by this key.
SORT_KEY_BY_COLUMN: dict[Column, str] = {
    Column.ID: "id",
    Column.PINNED: "pinned",
    Column.TYPE: "type",
    Column.TITLE: "title",
    Column.PROJECT: "project",
    Column.SCOPE: "scope",
    Column.TOPIC_KEY: "topic_key",
    Column.REVISIONS: "revision_count",
    Column.DUPLICATES: "duplicate_count",
    Column.ACCESSES: "access_count",
    Column.UPDATED: "updated_at",
    Column.CREATED: "created_at",
}

# Columns whose first click sorts ascending (words); the rest start with the largest/newest.
ASCENDING_FIRST = frozenset(
    {Column.TYPE, Column.TITLE, Column.PROJECT, Column.SCOPE, Column.TOPIC_KEY}
)

_NUMERIC = frozenset({Column.ID, Column.REVISIONS, Column.DUPLICATES, Column.ACCESSES})
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_CENTRE = Qt.AlignmentFlag.AlignCenter
_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


@dataclass(slots=True)
class RowRecord:
    """One observation as the table shows it, formatted once when it enters the cache.

    No colour is kept here: colours are the theme's, read when a cell is painted.
    """

    observation: Observation
    display: list[str]
    forgotten: bool


def format_row(obs: Observation, now: int) -> RowRecord:
    """Every cell's text, so painting never formats or queries."""
    display = [
        str(obs.id),
        pin_glyph() if obs.pinned else "",
        obs.type,
        f"⚠ {obs.title}" if obs.problems else obs.title,
        obs.project,
        obs.scope,
        obs.topic_key or "",
        str(obs.revision_count),
        str(obs.duplicate_count),
        str(obs.access_count),
        dates.relative(obs.updated_at, now),
        dates.relative(obs.created_at, now),
    ]
    return RowRecord(obs, display, obs.deleted_at is not None)


def revised(before: Observation, after: Observation) -> bool:
    """Did a save rewrite the row (not just a pin, a forget or a read by the agent)?"""
    return (
        before.updated_at != after.updated_at
        or before.revision_count != after.revision_count
        or before.normalized_hash != after.normalized_hash
        or before.title != after.title
    )


def tooltip(obs: Observation, column: int) -> str | None:
    """A cell's tooltip, formatted on hover (one cell at a time, so not worth caching)."""
    if column == Column.UPDATED:
        return dates.exact(obs.updated_at)
    if column == Column.CREATED:
        return dates.exact(obs.created_at)
    forgotten = (
        translate("ObservationTableModel", "Forgotten {when}").format(
            when=dates.exact(obs.deleted_at)
        )
        if obs.deleted_at is not None
        else None
    )
    if column == Column.TITLE:
        text = obs.title if forgotten is None else f"{obs.title}\n({forgotten})"
        if obs.problems:
            problems = (i18n.shown(problem) for problem in obs.problems)
            heading = translate("ObservationTableModel", "Cannot be read as stored:")
            return "\n".join((heading, *problems, text))
        return text
    if column == Column.PROJECT:  # the cell may be elided: the whole id is here
        return obs.project if forgotten is None else f"{obs.project}\n({forgotten})"
    if column == Column.PINNED and obs.pinned:
        return translate("ObservationTableModel", "Pinned")
    return forgotten


UNSAVED_MARK = "• "  # before the title of the row being edited with unsaved edits


def mark_note(kind: str) -> str:
    """What a row's tooltip adds while it is marked as just arrived or just changed."""
    if kind == MARK_NEW:
        return translate("ObservationTableModel", "New: just arrived")
    return translate("ObservationTableModel", "Changed just now")


class ObservationTableModel(QAbstractTableModel):
    """Ids in display order plus a bounded cache of formatted rows (see the module docstring).

    Signals:
        fetch_failed(str): loading rows for the view failed (the store's message)
    """

    fetch_failed = Signal(str)

    BLOCK = 200  # rows fetched around a cache miss: about five screens
    CACHE_LIMIT = 2000  # rows kept; the oldest-used go first
    MARK_MS = 4000  # how long a row that just arrived or changed stays highlighted

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._store: ObservationStore | None = None
        self._ids: list[int] = []
        self._rows_by_id: dict[int, int] | None = None
        self._unsaved_id: int | None = None  # the row whose edit form holds unsaved edits
        self._cache: OrderedDict[int, RowRecord] = OrderedDict()
        self._failed = False  # stop retrying a broken store on every paint until the next reload
        self._forgotten_font = QFont()
        self._forgotten_font.setItalic(True)
        self._take_theme_colours()
        theme.notifier().changed.connect(self._on_theme_changed)
        self._marks: dict[int, tuple[str, float]] = {}  # id -> (kind, monotonic deadline)
        self._mark_timer = QTimer(self)
        self._mark_timer.setSingleShot(True)
        self._mark_timer.timeout.connect(self._expire_marks)

    # -- Qt model interface --------------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else _COLUMN_COUNT

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(Column):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return header_labels()[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return header_tips()[section]
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return header_names()[section]
        if role == Qt.ItemDataRole.InitialSortOrderRole:
            ascending = Column(section) in ASCENDING_FIRST
            return Qt.SortOrder.AscendingOrder if ascending else Qt.SortOrder.DescendingOrder
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else _NO_FLAGS

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY):
        if not index.isValid():
            return None
        row = index.row()
        if row >= len(self._ids):
            return None
        if role == _ID:
            return self._ids[row]
        column = index.column()
        if role == _ALIGNMENT:
            return _ALIGNMENTS[column]
        if role == _BACKGROUND:
            return self._mark_brush if self._marks and self._ids[row] in self._marks else None
        if role == _ACCESSIBLE and column == Column.PINNED:  # a screen reader says "Pinned"
            record = self._cache.get(self._ids[row]) or self._record(row)
            pinned = record is not None and record.observation.pinned
            return translate("ObservationTableModel", "Pinned") if pinned else ""
        if role not in _ROW_ROLES:
            return None
        record = self._cache.get(self._ids[row]) or self._record(row)
        if record is None:
            return "…" if role == _DISPLAY and column == Column.TITLE else None
        unsaved = column == Column.TITLE and self._ids[row] == self._unsaved_id
        if role == _DISPLAY:
            return UNSAVED_MARK + record.display[column] if unsaved else record.display[column]
        if role == _TOOLTIP:
            tip = as_shown(self._tooltip(record.observation, column))  # titles are not HTML
            if unsaved:
                tip = (
                    translate("ObservationTableModel", "Unsaved edits in the form")
                    + "\n"
                    + (tip or "")
                )
            return tip
        if role == _FORGOTTEN:
            return record.forgotten
        if role == _BADGE:
            return self._badge_colour(record) if column == Column.TYPE else None
        if not record.forgotten:
            if role == _FOREGROUND and column == Column.TITLE and record.observation.problems:
                return QColor(theme.colors().error_text)  # with the ⚠ and the tooltip's words
            return None
        return self._forgotten_font if role == _FONT else self._forgotten_brush

    # -- what the page asks ------------------------------------------------------------------

    def set_unsaved(self, oid: int | None) -> None:
        """Mark the row being edited with unsaved edits (``None``: no row), as the persona
        list marks its entry: a "• " before the title and a line in its tooltip."""
        if oid == self._unsaved_id:
            return
        changed = [self._unsaved_id, oid]
        self._unsaved_id = oid
        for each in changed:
            if each is not None and each in self._ids:
                row = self._ids.index(each)
                cell = self.index(row, Column.TITLE)
                self.dataChanged.emit(cell, cell, [_DISPLAY, Qt.ItemDataRole.ToolTipRole.value])

    def set_store(self, store: ObservationStore | None) -> None:
        """Show another database: empty until its first query's ids arrive."""
        self.beginResetModel()
        self._store = store
        self._ids = []
        self._rows_by_id = None
        self._cache.clear()
        self._failed = False
        self._drop_marks()
        self.endResetModel()

    def reset_ids(self, ids: Sequence[int]) -> None:
        """Show the result of a new query (new text, filter or sort): a reset is honest here."""
        self.beginResetModel()
        self._ids = list(ids)
        self._rows_by_id = None
        self._failed = False
        self._drop_marks()
        self.endResetModel()

    def ids(self) -> list[int]:
        """The ids in display order (a copy)."""
        return list(self._ids)

    def id_at(self, row: int) -> int:
        return self._ids[row]

    def row_of(self, observation_id: int) -> int:
        """The row showing this id, or -1; the reverse index is rebuilt only after changes."""
        if self._rows_by_id is None:
            self._rows_by_id = {oid: row for row, oid in enumerate(self._ids)}
        return self._rows_by_id.get(observation_id, -1)

    def badge(self, row: int) -> tuple[str, QColor, bool] | None:
        """The type badge of a row (name, fill in the theme in effect, forgotten) for the
        delegate: one Python call per painted badge instead of three QVariant round trips."""
        if not 0 <= row < len(self._ids):
            return None
        record = self._cache.get(self._ids[row]) or self._record(row)
        if record is None:
            return None
        return record.observation.type, self._badge_colour(record), record.forgotten

    @staticmethod
    def _badge_colour(record: RowRecord) -> QColor:
        return QColor(theme.colors().badge(record.observation.type)[0])

    def _take_theme_colours(self) -> None:
        """Brushes from the palette in effect: greyed forgotten rows, faint marks."""
        palette = QApplication.palette()
        self._forgotten_brush = palette.brush(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        # The theme's highlight, faint: readable in light and dark palettes alike.
        mark = QColor(palette.color(QPalette.ColorRole.Highlight))
        mark.setAlphaF(0.22)
        self._mark_brush = QBrush(mark)

    def _on_theme_changed(self) -> None:
        """Take the new theme's colours and have every view repaint its rows."""
        self._take_theme_colours()
        if self._ids:
            last = self.index(len(self._ids) - 1, len(Column) - 1)
            self.dataChanged.emit(self.index(0, 0), last, [])

    def cached(self, observation_id: int) -> Observation | None:
        """The row's observation if it is in the cache (no query), else None."""
        record = self._cache.get(observation_id)
        return record.observation if record is not None else None

    def apply_ids(self, new_ids: Sequence[int]) -> bool:
        """Turn the current ids into ``new_ids`` with removals, moves and insertions.

        Returns False without changing anything when the difference is too scattered to be
        worth row-by-row signals; the caller then resets and restores the selection by id.
        """
        new_ids = list(new_ids)
        if new_ids == self._ids:
            return True
        plan = _plan_difference(self._ids, new_ids)
        if plan is None:
            return False
        removals, moves = plan
        for first, last in removals:
            self.beginRemoveRows(QModelIndex(), first, last)
            del self._ids[first : last + 1]
            self.endRemoveRows()
        for source, destination in moves(self._ids):
            self.beginMoveRows(QModelIndex(), source, source, QModelIndex(), destination)
            moved = self._ids.pop(source)
            self._ids.insert(destination if destination < source else destination - 1, moved)
            self.endMoveRows()
        for first, run in _insertion_runs(self._ids, new_ids):
            self.beginInsertRows(QModelIndex(), first, first + len(run) - 1)
            self._ids[first:first] = run
            self.endInsertRows()
        self._rows_by_id = None
        return True

    def retain(self, ids: Iterable[int]) -> None:
        """Keep only these rows in the cache (those in view): the rest reload when needed."""
        keep = {oid: self._cache[oid] for oid in ids if oid in self._cache}
        self._cache = OrderedDict(keep)

    def reload(self, ids: Iterable[int] | None = None, *, mark_revised: bool = False) -> None:
        """Re-read cached rows (all, or these ids) and emit ``dataChanged`` where they differ.

        With ``mark_revised``, rows that a save rewrote since they were cached are marked
        (live reload); the app's own writes reload their rows first, so they are not.
        """
        self._failed = False
        wanted = list(self._cache) if ids is None else [i for i in ids if i in self._cache]
        if not wanted or self._store is None:
            return
        try:
            fresh = self._store.get_many(wanted)
        except StoreError as exc:
            self.fetch_failed.emit(str(exc))
            return
        now = now_ms()
        changed_rows: list[int] = []
        newly_revised: list[int] = []
        for oid in wanted:
            observation = fresh.get(oid)
            if observation is None:
                self._cache.pop(oid, None)  # gone from the database; the next query removes it
            elif observation != self._cache[oid].observation:
                if mark_revised and revised(self._cache[oid].observation, observation):
                    newly_revised.append(oid)
                self._cache[oid] = format_row(observation, now)
                row = self.row_of(oid)
                if row >= 0:
                    changed_rows.append(row)
        self._emit_changed(changed_rows)
        if newly_revised:
            self.mark(newly_revised, MARK_CHANGED)

    def reformat_times(self) -> None:
        """Refresh the relative times (``5 min ago``) of cached rows as the clock moves on."""
        if not self._ids or not self._cache:
            return
        now = now_ms()
        for oid, record in self._cache.items():
            self._cache[oid] = format_row(record.observation, now)
        top = self.index(0, Column.UPDATED)
        bottom = self.index(len(self._ids) - 1, Column.CREATED)
        self.dataChanged.emit(top, bottom, [Qt.ItemDataRole.DisplayRole])

    # -- marks: rows that just arrived or changed ------------------------------------------

    def mark(self, ids: Iterable[int], kind: str = MARK_NEW) -> None:
        """Highlight these rows for :attr:`MARK_MS`; a row already marked new stays "new"."""
        deadline = time.monotonic() + self.MARK_MS / 1000
        rows: list[int] = []
        for oid in ids:
            previous = self._marks.get(oid)
            self._marks[oid] = (previous[0] if previous else kind, deadline)
            row = self.row_of(oid)
            if row >= 0:
                rows.append(row)
        self._emit_changed(rows, _MARK_ROLES)
        self._schedule_expiry()

    def mark_of(self, observation_id: int) -> str | None:
        """``"new"``, ``"changed"`` or None: how this row is marked right now."""
        mark = self._marks.get(observation_id)
        return mark[0] if mark is not None else None

    def marked_ids(self) -> list[int]:
        return list(self._marks)

    def clear_marks(self) -> None:
        """Unmark every row now (the page is closing, or the person asked for a new view)."""
        rows = [row for row in map(self.row_of, self._marks) if row >= 0]
        self._drop_marks()
        self._emit_changed(rows, _MARK_ROLES)

    def _drop_marks(self) -> None:
        self._marks.clear()
        self._mark_timer.stop()

    def _expire_marks(self) -> None:
        now = time.monotonic()
        expired = [oid for oid, (_kind, deadline) in self._marks.items() if deadline <= now]
        for oid in expired:
            del self._marks[oid]
        self._emit_changed([row for row in map(self.row_of, expired) if row >= 0], _MARK_ROLES)
        self._schedule_expiry()

    def _schedule_expiry(self) -> None:
        """One timer for every mark: it fires when the earliest one is due."""
        if not self._marks:
            self._mark_timer.stop()
            return
        due = min(deadline for _kind, deadline in self._marks.values())
        self._mark_timer.start(max(0, int((due - time.monotonic()) * 1000) + 1))

    def _tooltip(self, observation: Observation, column: int) -> str | None:
        text = tooltip(observation, column)
        mark = self._marks.get(observation.id)
        if mark is None:
            return text
        note = mark_note(mark[0])
        return f"{text}\n({note})" if text else note

    # -- internals ---------------------------------------------------------------------------

    def _record(self, row: int) -> RowRecord | None:
        oid = self._ids[row]
        record = self._cache.get(oid)
        if record is not None:
            return record
        if self._store is None or self._failed:
            return None
        self._fetch_block(row)
        return self._cache.get(oid)

    def _fetch_block(self, row: int) -> None:
        """Load the uncached rows in a block around ``row`` with one query."""
        start = max(0, row - self.BLOCK // 2)
        block = [oid for oid in self._ids[start : start + self.BLOCK] if oid not in self._cache]
        try:
            fetched = self._store.get_many(block)  # type: ignore[union-attr]
        except StoreError as exc:
            self._failed = True
            self.fetch_failed.emit(str(exc))
            return
        now = now_ms()
        for oid in block:
            observation = fetched.get(oid)
            if observation is not None:
                self._cache[oid] = format_row(observation, now)
        while len(self._cache) > self.CACHE_LIMIT:
            self._cache.popitem(last=False)

    def _emit_changed(self, rows: list[int], roles: Sequence[Qt.ItemDataRole] = ()) -> None:
        """One ``dataChanged`` per run of consecutive rows (all roles unless named)."""
        last_column = len(Column) - 1
        for first, last in _runs(sorted(rows)):
            self.dataChanged.emit(self.index(first, 0), self.index(last, last_column), list(roles))


_ALIGNMENTS = [
    _RIGHT if column in _NUMERIC else _CENTRE if column == Column.PINNED else _LEFT
    for column in Column
]


def _runs(sorted_rows: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive rows grouped as (first, last) pairs."""
    runs: list[tuple[int, int]] = []
    for row in sorted_rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def _plan_difference(old: list[int], new: list[int]):
    """Removal runs (last first) and a move planner, or None when the change is too scattered.

    Rows whose relative order is unchanged stay put (the longest increasing subsequence of
    their new positions); the others move, so a selected row that moved keeps its selection.
    """
    new_positions = {oid: pos for pos, oid in enumerate(new)}
    removed_rows = [row for row, oid in enumerate(old) if oid not in new_positions]
    removals = list(reversed(_runs(removed_rows)))
    if len(removals) > MAX_INCREMENTAL_RUNS:
        return None
    kept = [oid for oid in old if oid in new_positions]
    stable = _longest_increasing(kept, new_positions)
    movers = [oid for oid in kept if oid not in stable]
    if len(movers) > MAX_INCREMENTAL_RUNS:
        return None
    kept_set = set(kept)
    insert_runs = sum(
        1
        for pos, oid in enumerate(new)
        if oid not in kept_set and (pos == 0 or new[pos - 1] in kept_set)
    )
    if insert_runs > MAX_INCREMENTAL_RUNS:
        return None

    def moves(current: list[int]):
        """Yield (source, destination) row moves that put the movers in their new order."""
        mover_set = set(movers)
        previous: int | None = None
        for oid in new:
            if oid not in kept_set:
                continue
            if oid in mover_set:
                source = current.index(oid)
                destination = 0 if previous is None else current.index(previous) + 1
                if destination not in (source, source + 1):
                    yield source, destination
            previous = oid

    return removals, moves


def _longest_increasing(kept: list[int], positions: dict[int, int]) -> set[int]:
    """Ids of the longest run of ``kept`` whose new positions increase (patience sorting)."""
    tails: list[int] = []  # new position ending the best subsequence of each length
    tail_index: list[int] = []  # index into kept of that ending element
    parent = [-1] * len(kept)
    for i, oid in enumerate(kept):
        pos = positions[oid]
        at = bisect.bisect_left(tails, pos)
        if at == len(tails):
            tails.append(pos)
            tail_index.append(i)
        else:
            tails[at] = pos
            tail_index[at] = i
        parent[i] = tail_index[at - 1] if at > 0 else -1
    result: set[int] = set()
    i = tail_index[-1] if tail_index else -1
    while i >= 0:
        result.add(kept[i])
        i = parent[i]
    return result


def _insertion_runs(current: list[int], new: list[int]) -> list[tuple[int, list[int]]]:
    """Runs of ids to insert, as (row, ids), once ``current`` is an ordered subset of ``new``."""
    present = set(current)
    runs: list[tuple[int, list[int]]] = []
    for pos, oid in enumerate(new):
        if oid in present:
            continue
        if runs and runs[-1][0] + len(runs[-1][1]) == pos:
            runs[-1][1].append(oid)
        else:
            runs.append((pos, [oid]))
    return runs
