"""The observations table model: an ordered list of ids, rows loaded lazily into a small cache.

Anki's browser shape: one SQL query (run elsewhere, off the main thread) gives the ids in
display order; the model fetches only the rows the view asks for, a block at a time with one
``get_many`` call, and keeps them preformatted so ``data()`` is a dictionary look-up. Sorting
and filtering happen in SQL, never here.

A new query replaces the ids with a reset. Re-running the same query (after a write, or when
the agent wrote) goes through :meth:`ObservationTableModel.apply_ids`, which turns the
difference into row removals, moves and insertions, so selection, current row and scroll
position survive; changed rows in the cache emit ``dataChanged``.

Rows another program just added (or revised) are *marked* for a few seconds
(:mod:`.row_marks`): a soft highlight behind the row and a word in its tooltip; a new query
clears them all.

The columns and each row's texts are :mod:`.row_format`'s; colours (forgotten rows, marks,
unreadable titles) come from the theme in effect, and the whole table repaints when it changes.

Signals:
    fetch_failed(str): loading rows for the view failed (the store's message)
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

from memory_desk.core import StoreError, lazy_numpy
from memory_desk.core.lazy_numpy import np
from memory_desk.core.observations import Observation, ObservationStore
from memory_desk.ui import dates, theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations import row_diff
from memory_desk.ui.observations.busy import report_unless_busy
from memory_desk.ui.observations.row_diff import IdIndex, RowPlan
from memory_desk.ui.observations.row_format import (
    ASCENDING_FIRST,
    CELL_ALIGNMENTS,
    MARK_CHANGED,
    MARK_NEW,
    SORT_KEY_BY_COLUMN,  # noqa: F401 (the page imports it from here)
    UNSAVED_MARK,
    WAITING_MARK,
    Column,
    RowRecord,
    format_row,
    header_labels,
    header_names,
    header_tips,
    mark_note,
    revised,
    tooltip,
    waiting_note,
)
from memory_desk.ui.observations.row_marks import RowMarks
from memory_desk.ui.plain import as_shown
from memory_desk.ui.widgets.cells import FORGOTTEN_ROLE, Cell, CellTableModel
from memory_desk.ui.widgets.display import now_ms

ID_ROLE = Qt.ItemDataRole.UserRole
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
MAX_INCREMENTAL_RUNS = row_diff.MAX_RUNS

_MARK_ROLES = [Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ToolTipRole]


_COLUMN_COUNT = len(Column)
_TITLE = int(Column.TITLE)  # compared per painted cell: a plain int, not an enum member
_ALIGNMENTS = CELL_ALIGNMENTS


class ObservationTableModel(CellTableModel):
    """Ids in display order plus a bounded cache of formatted rows (see the module docstring).

    The ids are one int64 array (far smaller than a list of ints plus a dict), looked up
    through a sorted index built once per change. The
    array is never written in place once shown: :meth:`snapshot` hands it to a worker thread
    that plans the next difference while the window paints.

    Signals:
        fetch_failed(str): loading rows for the view failed (the store's message)
    """

    fetch_failed = Signal(str)

    # Rows fetched around a cache miss, on the window's thread: about two screens. Bigger
    # blocks make page jumps miss frames, and reading ahead on a worker takes the
    # interpreter's lock from the frames it was meant to spare (docs/performance.md).
    BLOCK = 40
    CACHE_LIMIT = 2000  # rows kept; the oldest-used go first
    MARK_MS = 4000  # how long a row that just arrived or changed stays highlighted

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._store: ObservationStore | None = None
        self._ids: np.ndarray | array = array("q")
        self._index: IdIndex | None = None  # rebuilt lazily after a change
        self._version = 0  # changes whenever the ids change (snapshot / apply_plan)
        self._unsaved_id: int | None = None  # the row whose edit form holds unsaved edits
        self._waiting: frozenset[int] = frozenset()  # rows the agent changed, not reviewed
        self._cache: OrderedDict[int, RowRecord] = OrderedDict()
        self._failed = False  # stop retrying a broken store on every paint until the next reload
        self._clock = 0  # relative times of cached rows are rewritten when read after a tick
        self._clock_now = 0
        self._forgotten_font = QFont()
        self._forgotten_font.setItalic(True)
        self._take_theme_colours()
        theme.notifier().changed.connect(self._on_theme_changed)
        self._row_marks = RowMarks(self._on_marks_expired, self)
        self._marks = self._row_marks.by_id  # read for every painted row

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
        """Each role of a cell: screen readers, tooltips and other views ask here; the
        observations table's own delegates paint from :meth:`cell` instead."""
        if not index.isValid():
            return None
        row = index.row()
        if row >= len(self._ids):
            return None
        oid = int(self._ids[row])
        if role == _ID:
            return oid
        column = index.column()
        if role == _ALIGNMENT:
            return _ALIGNMENTS[column]
        if role == _BACKGROUND:
            return self._mark_brush if self._marks and oid in self._marks else None
        if role == _ACCESSIBLE and column == Column.PINNED:  # a screen reader says "Pinned"
            record = self._record(row, oid)
            pinned = record is not None and record.observation.pinned
            return translate("ObservationTableModel", "Pinned") if pinned else ""
        if role not in _ROW_ROLES:
            return None
        record = self._record(row, oid)
        if record is None:
            return "…" if role == _DISPLAY and column == Column.TITLE else None
        if role == _DISPLAY:
            return self._text(oid, record, column)
        if role == _TOOLTIP:
            tip = as_shown(self._tooltip(record.observation, column))  # titles are not HTML
            if column == Column.TITLE and oid == self._unsaved_id:
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
        if role == _FONT:
            return self._forgotten_font if record.forgotten else None
        return self._foreground(record, column)

    # -- what the delegates ask --------------------------------------------------------------

    def record_at(self, row: int) -> RowRecord | None:
        """The row's formatted record (loading its block if needed), or None: out of range,
        not readable, or no database."""
        if not 0 <= row < len(self._ids):
            return None
        return self._record(row, int(self._ids[row]))

    def cell(self, row: int, column: int) -> Cell | None:
        """What the cell at (row, column) paints, in one call; None while it cannot be read
        (the delegate then asks ``data()`` as any view would)."""
        painted = self.paint_row(row)
        if painted is None:
            return None
        record, mark = painted
        return Cell(
            self._text(record.observation.id, record, column),
            _ALIGNMENTS[column],
            self._forgotten_font if record.forgotten else None,
            self._foreground(record, column),
            mark,
            record,
        )

    def paint_row(self, row: int) -> tuple[RowRecord, QBrush | None] | None:
        """What the table's own painting needs of a row, in one call: its record and the
        mark's background (None when unmarked); None while the row cannot be read."""
        if not 0 <= row < len(self._ids):
            return None
        oid = int(self._ids[row])
        record = self._record(row, oid)
        if record is None:
            return None
        return record, (self._mark_brush if self._marks and oid in self._marks else None)

    def shown_text(self, record: RowRecord, column: int) -> str:
        """A cell's text as shown (the unsaved mark before the title being edited)."""
        return self._text(record.observation.id, record, column)

    def foreground(self, record: RowRecord, column: int) -> QBrush | QColor | None:
        """A cell's own text colour, or None where the view's applies."""
        return self._foreground(record, column)

    @property
    def forgotten_font(self) -> QFont:
        """The font a forgotten row's cells resolve over the view's (italic)."""
        return self._forgotten_font

    def badge(self, row: int) -> tuple[str, QColor, bool] | None:
        """The type badge of a row (name, fill in the theme in effect, forgotten) for the
        delegate: one Python call per painted badge instead of three QVariant round trips."""
        record = self.record_at(row)
        if record is None:
            return None
        return record.observation.type, self._badge_colour(record), record.forgotten

    # -- what the page asks ------------------------------------------------------------------

    def set_unsaved(self, oid: int | None) -> None:
        """Mark the row being edited with unsaved edits (``None``: no row), as the persona
        list marks its entry: a "• " before the title and a line in its tooltip."""
        if oid == self._unsaved_id:
            return
        changed = [self._unsaved_id, oid]
        self._unsaved_id = oid
        for each in changed:
            row = self.row_of(each) if each is not None else -1
            if row >= 0:
                cell = self.index(row, Column.TITLE)
                self.dataChanged.emit(cell, cell, [_DISPLAY, Qt.ItemDataRole.ToolTipRole.value])

    def set_waiting(self, ids: Iterable[int]) -> None:
        """Mark these rows as changed by the agent and not yet reviewed (the journal's list,
        so the marks are the same after a restart): a "✱ " before the title."""
        ids = frozenset(ids)
        if ids == self._waiting:
            return  # (the journal's answer after every scan: most change no mark)
        before, self._waiting = self._waiting, ids
        rows = self.rows_of(list(before ^ ids))
        rows = rows[rows >= 0]
        if len(rows):  # one signal over the titles between: thousands of marks scatter
            top, bottom = self.index(int(rows.min()), _TITLE), self.index(int(rows.max()), _TITLE)
            self.dataChanged.emit(top, bottom, [_DISPLAY, _TOOLTIP])

    def waiting(self) -> frozenset[int]:
        """The ids marked as waiting for review."""
        return self._waiting

    def set_store(self, store: ObservationStore | None) -> None:
        """Show another database: empty until its first query's ids arrive."""
        self.beginResetModel()
        self._store = store
        self._set_ids(array("q"))
        self._cache.clear()
        self._failed = False
        self._drop_marks()
        self.endResetModel()

    def reset_ids(self, ids: Sequence[int] | np.ndarray, index: IdIndex | None = None) -> None:
        """Show the result of a new query (new text, filter or sort): a reset is honest here.

        ``ids`` may be a list or an array (an int64 array is taken, not copied: the caller no
        longer writes it; never looped over in Python); ``index``, an
        :class:`IdIndex` of the same ids built off the main thread, spares building it here.
        """
        self.beginResetModel()
        self._set_ids(_id_array(ids), index)
        self._failed = False
        self._drop_marks()
        self.endResetModel()

    def ids(self) -> list[int]:
        """The ids in display order (a copy; :meth:`ids_slice` reads a screen of them)."""
        return self._ids.tolist()

    def ids_slice(self, first: int, last_inclusive: int) -> list[int]:
        """The ids of rows ``first`` to ``last_inclusive`` (clipped to the rows there are)."""
        return self._ids[max(0, first) : max(0, last_inclusive + 1)].tolist()

    def id_at(self, row: int) -> int:
        return int(self._ids[row])

    def row_of(self, observation_id: int) -> int:
        """The row showing this id, or -1; the index is rebuilt only after changes."""
        return self._id_index().row_of(observation_id)

    def rows_of(self, ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """The row of each id (-1 where not shown), in one vectorised look-up."""
        return self._id_index().rows_of(row_diff.as_ids(ids))

    def contains_many(self, ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """A boolean mask: which of ``ids`` have a row."""
        return self.rows_of(ids) >= 0

    def snapshot(self) -> tuple[int, np.ndarray]:
        """(version, ids): a read-only view of the ids that a worker thread may read while the
        window goes on (the model never writes an array it has shown), and the version that
        :meth:`apply_plan` checks."""
        view = self._numpy_ids().view()
        view.flags.writeable = False
        return self._version, view

    def version(self) -> int:
        """Changes whenever the ids change."""
        return self._version

    def apply_plan(self, plan: RowPlan, version: int) -> bool:
        """Apply a plan made (off the main thread) from the ids of ``version``.

        False, changing nothing, when the ids changed since (the caller plans again or
        resets). Each run emits its own begin/end signals so selection, current row and
        persistent indexes follow their rows.
        """
        if version != self._version:
            return False
        if plan.is_empty():
            return True
        self._apply_operations(plan)
        self._set_ids(self._ids, plan.index)
        return True

    def apply_ids(self, new_ids: Sequence[int] | np.ndarray) -> bool:
        """Turn the current ids into ``new_ids`` with removals, moves and insertions.

        Returns False without changing anything when the difference is too scattered to be
        worth row-by-row signals; the caller then resets and restores the selection by id.
        Plans on the spot: the page prefers a plan made by its worker (:meth:`apply_plan`).
        """
        new = row_diff.as_ids(new_ids)
        if np.array_equal(new, self._numpy_ids()):
            return True
        plan = row_diff.plan(self._ids, new, MAX_INCREMENTAL_RUNS)
        return plan is not None and self.apply_plan(plan, self._version)

    def cached(self, observation_id: int) -> Observation | None:
        """The row's observation if it is in the cache (no query), else None."""
        record = self._cache.get(observation_id)
        return record.observation if record is not None else None

    def retain(self, ids: Iterable[int]) -> None:
        """Keep only these rows in the cache (those in view): the rest reload when needed."""
        self._cache = OrderedDict({oid: self._cache[oid] for oid in ids if oid in self._cache})

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
        except StoreError as exc:  # (the agent holding the lock: read again at its commit)
            report_unless_busy(self.fetch_failed.emit, exc)
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
                self._cache[oid] = self._format(observation, now)
                row = self.row_of(oid)
                if row >= 0:
                    changed_rows.append(row)
        self._emit_changed(changed_rows)
        if newly_revised:
            self.mark(newly_revised, MARK_CHANGED)

    def reformat_times(self) -> None:
        """The clock moved on: relative times (``5 min ago``) are rewritten when next read.

        Only the rows painted again pay for it (a screen, not the whole cache), and one
        signal asks the views to repaint those two columns.
        """
        self._clock += 1
        self._clock_now = now_ms()
        if not len(self._ids) or not self._cache:
            return
        top = self.index(0, Column.UPDATED)
        bottom = self.index(len(self._ids) - 1, Column.CREATED)
        self.dataChanged.emit(top, bottom, [Qt.ItemDataRole.DisplayRole])

    # -- marks: rows that just arrived or changed ------------------------------------------

    def mark(self, ids: Iterable[int], kind: str = MARK_NEW) -> None:
        """Highlight these rows for :attr:`MARK_MS`; a row already marked new stays "new"."""
        ids = list(ids)
        self._row_marks.add(ids, kind, self.MARK_MS / 1000)
        self._emit_changed([row for row in map(self.row_of, ids) if row >= 0], _MARK_ROLES)
        self._row_marks.schedule_expiry()

    def mark_of(self, observation_id: int) -> str | None:
        """``"new"``, ``"changed"`` or None: how this row is marked right now."""
        return self._row_marks.kind_of(observation_id)

    def marked_ids(self) -> list[int]:
        return list(self._marks)

    def clear_marks(self) -> None:
        """Unmark every row now (the page is closing, or the person asked for a new view)."""
        self._on_marks_expired(self._row_marks.drop())

    def _drop_marks(self) -> None:
        self._row_marks.drop()

    def _on_marks_expired(self, ids: list[int]) -> None:
        self._emit_changed([row for row in map(self.row_of, ids) if row >= 0], _MARK_ROLES)

    def _tooltip(self, observation: Observation, column: int) -> str | None:
        text = tooltip(observation, column)
        if column == _TITLE and observation.id in self._waiting:
            text = f"{waiting_note()}\n{text}" if text else waiting_note()
        mark = self._marks.get(observation.id)
        if mark is None:
            return text
        note = mark_note(mark[0])
        return f"{text}\n({note})" if text else note

    # -- internals ---------------------------------------------------------------------------

    @staticmethod
    def _badge_colour(record: RowRecord) -> QColor:
        return QColor(theme.colors().badge(record.observation.type)[0])

    def _text(self, oid: int, record: RowRecord, column: int) -> str:
        """A cell's text as shown: the unsaved and waiting marks before the title."""
        if column != _TITLE:
            return record.display[column]
        text = WAITING_MARK + record.display[column] if oid in self._waiting else None
        if oid == self._unsaved_id:
            return UNSAVED_MARK + (text or record.display[column])
        return text or record.display[column]

    def _foreground(self, record: RowRecord, column: int) -> QBrush | QColor | None:
        """Greyed forgotten rows; an unreadable title in the theme's error colour."""
        if record.forgotten:
            return self._forgotten_brush
        if column == _TITLE and record.observation.problems:
            return QColor(theme.colors().error_text)  # with the ⚠ and the tooltip's words
        return None

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
        if len(self._ids):
            last = self.index(len(self._ids) - 1, len(Column) - 1)
            self.dataChanged.emit(self.index(0, 0), last, [])

    def _set_ids(self, ids: np.ndarray | array, index: IdIndex | None = None) -> None:
        """The ids shown from now on (a new version); ``index`` if already built for them."""
        self._ids = ids
        self._index = index
        self._version += 1

    def _id_index(self) -> IdIndex:
        if self._index is None:
            self._index = IdIndex(self._numpy_ids())
        return self._index

    def _numpy_ids(self) -> np.ndarray:
        """The ids as numpy's array. A first answer at start comes as an ``array('q')``, so
        that the first rows are painted before numpy is imported (core/lazy_numpy); it
        becomes numpy's array, sharing its memory, when a numpy operation first needs it."""
        if isinstance(self._ids, array):
            self._ids = row_diff.as_ids(self._ids)
        return self._ids

    def _apply_operations(self, plan: RowPlan) -> None:
        """Removals, moves, then insertions, each inside its begin/end signals.

        The rows the last step leaves are the planned ones: that step takes ``plan.new`` as it
        is. The steps before it work in a fresh buffer (one copy of the ids), so the array a
        snapshot handed to a worker is never written; every step leaves ``self._ids`` a view
        of what is shown. (A live commit is one insertion: no id is copied.)
        """
        removals, moves, insertions = list(plan.removals), list(plan.moves), list(plan.insertions)
        root = QModelIndex()
        self._index = None  # nothing may look rows up half-way through
        if insertions:
            first, run = insertions.pop()
            last_step = (
                self.beginInsertRows,
                (root, first, first + len(run) - 1),
                self.endInsertRows,
            )
        elif moves:
            source, destination = moves.pop()
            last_step = (
                self.beginMoveRows,
                (root, source, source, root, destination),
                self.endMoveRows,
            )
        else:
            first, last = removals.pop()
            last_step = (self.beginRemoveRows, (root, first, last), self.endRemoveRows)
        if removals or moves or insertions:
            self._apply_before_last(removals, moves, insertions, len(plan.new))
        begin, arguments, end = last_step
        begin(*arguments)
        self._ids = plan.new
        end()

    def _apply_before_last(
        self,
        removals: list[tuple[int, int]],
        moves: list[tuple[int, int]],
        insertions: list[tuple[int, np.ndarray]],
        final_count: int,
    ) -> None:
        count = len(self._ids)
        buffer = np.empty(max(count, final_count), dtype=np.int64)
        buffer[:count] = self._numpy_ids()
        self._ids = buffer[:count]
        root = QModelIndex()
        for first, last in removals:
            self.beginRemoveRows(root, first, last)
            size = last - first + 1
            buffer[first : count - size] = buffer[last + 1 : count]
            count -= size
            self._ids = buffer[:count]
            self.endRemoveRows()
        for source, destination in moves:
            self.beginMoveRows(root, source, source, root, destination)
            moved = buffer[source]
            if destination < source:
                buffer[destination + 1 : source + 1] = buffer[destination:source]
                buffer[destination] = moved
            else:
                buffer[source : destination - 1] = buffer[source + 1 : destination]
                buffer[destination - 1] = moved
            self.endMoveRows()
        for first, run in insertions:
            size = len(run)
            self.beginInsertRows(root, first, first + size - 1)
            buffer[first + size : count + size] = buffer[first:count]
            buffer[first : first + size] = run
            count += size
            self._ids = buffer[:count]
            self.endInsertRows()

    def _format(self, observation: Observation, now: int) -> RowRecord:
        record = format_row(observation, now)
        record.clock = self._clock
        return record

    def _record(self, row: int, oid: int) -> RowRecord | None:
        """The cached record of the row (its times rewritten if the clock moved), loading its
        block on a miss."""
        record = self._cache.get(oid)
        if record is None:
            if self._store is None or self._failed:
                return None
            self._fetch_block(row)
            record = self._cache.get(oid)
            if record is None:
                return None
        if record.clock != self._clock:
            observation, now = record.observation, self._clock_now
            record.display[Column.UPDATED] = dates.relative(observation.updated_at, now)
            record.display[Column.CREATED] = dates.relative(observation.created_at, now)
            record.clock = self._clock
        return record

    def ensure(self, ids: Iterable[int]) -> None:
        """Load the uncached rows among ``ids`` with one query: the few rows a live refresh
        brought into view, so painting them does not fetch a whole block on a miss."""
        if self._store is None or self._failed:
            return
        self._load([oid for oid in ids if oid not in self._cache])

    def _fetch_block(self, row: int) -> None:
        """Load the uncached rows in a block around ``row`` with one query."""
        start = max(0, row - self.BLOCK // 2)
        self._load(
            [oid for oid in self.ids_slice(start, start + self.BLOCK - 1) if oid not in self._cache]
        )

    def _load(self, block: list[int]) -> None:
        if not block:
            return
        try:
            fetched = self._store.get_many(block)  # type: ignore[union-attr]
        except StoreError as exc:
            self._failed = True
            report_unless_busy(self.fetch_failed.emit, exc)
            return
        now = now_ms()
        for oid in block:
            observation = fetched.get(oid)
            if observation is not None:
                self._cache[oid] = self._format(observation, now)
        self._trim_cache()

    def _trim_cache(self) -> None:
        while len(self._cache) > self.CACHE_LIMIT:
            self._cache.popitem(last=False)

    def _emit_changed(self, rows: list[int], roles: Sequence[Qt.ItemDataRole] = ()) -> None:
        """One ``dataChanged`` per run of consecutive rows (all roles unless named)."""
        last_column = len(Column) - 1
        for first, last in _runs(sorted(rows)):
            self.dataChanged.emit(self.index(first, 0), self.index(last, last_column), list(roles))


def _id_array(ids: Sequence[int] | np.ndarray) -> np.ndarray | array:
    """``ids`` as numpy's int64 array; before numpy is imported, a list of ids (the newest
    rows of a first answer) as an ``array('q')`` instead (see :meth:`_numpy_ids`).

    An int64 array is taken as it is, not copied: it is a query's answer, which its worker
    hands over and never writes again, and the model never writes an array it shows."""
    if isinstance(ids, list | tuple | array) and not lazy_numpy.loaded():
        return array("q", ids)
    if isinstance(ids, array):
        return np.array(row_diff.as_ids(ids), dtype=np.int64)  # (as_ids would share it)
    return row_diff.as_ids(ids)


def _runs(sorted_rows: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive rows grouped as (first, last) pairs."""
    runs: list[tuple[int, int]] = []
    for row in sorted_rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs
