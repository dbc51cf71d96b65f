"""How a table's ids become other ids row by row: a plan of removals, moves and insertions.

Pure Python and numpy, no Qt, so a worker thread can plan while the window paints; the model
only applies the ready operations (:meth:`ObservationTableModel.apply_plan`).

Ids are unique within one list (a query's answer). Two paths give the plan:

- **linear** (the live case: the agent added or forgot rows, nothing changed order): the rows
  kept appear in the same relative order in both lists, so there is nothing to move; a few
  vectorised passes find the removal and insertion runs, whatever the number of rows.
- **general** (an order changed, e.g. a revised row rises to the top of "newest first"): rows
  whose relative order is unchanged stay put (a longest increasing subsequence of their new
  positions) and only the others move, so a selected row that moved keeps its selection.
  Rows that crossed more than ``max_runs`` others must move anyway (or the plan gives up), and
  rows in order with everything around them must stay, so the sequential search only runs on
  the few disordered stretches between them.

Beyond ``max_runs`` separate removal runs, moves or insertion runs, row-by-row signals cost
more than a reset that restores the selection by id: :func:`plan` returns None then.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from memory_desk.core.lazy_numpy import np

MAX_RUNS = 500
_PRUNING_ROUNDS = 4


def as_ids(ids: Sequence[int] | np.ndarray) -> np.ndarray:
    """``ids`` as a one-dimensional int64 array (no Python loop; no copy when it already is,
    nor for an ``array('q')``, which it shares)."""
    if isinstance(ids, array):
        return np.frombuffer(ids, dtype=np.int64) if len(ids) else np.empty(0, dtype=np.int64)
    if isinstance(ids, np.ndarray):
        return ids.astype(np.int64, copy=False).reshape(-1)
    if isinstance(ids, range):
        return np.arange(ids.start, ids.stop, ids.step, dtype=np.int64)
    if isinstance(ids, list | tuple):
        return np.array(ids, dtype=np.int64).reshape(-1)
    return np.fromiter(ids, dtype=np.int64)


class IdIndex:
    """The row of any id in an ids array, by binary search on a sorted order.

    A query's answer is usually already sorted (newest first is descending ids): then the
    order is the array itself, read backwards, and building the index costs one comparison
    pass instead of a sort.
    """

    __slots__ = ("_ids", "_order", "_sorted")

    def __init__(self, ids: np.ndarray) -> None:
        self._ids = ids
        count = len(ids)
        if count < 2 or bool(np.all(ids[1:] > ids[:-1])):
            self._order: np.ndarray | None = None  # ascending: the row is the position
            self._sorted = ids
        elif bool(np.all(ids[1:] < ids[:-1])):
            self._order = np.arange(count - 1, -1, -1, dtype=np.int64)
            self._sorted = ids[::-1]
        else:
            self._order = np.argsort(ids, kind="stable")
            self._sorted = ids[self._order]

    def rows_of(self, wanted: np.ndarray) -> np.ndarray:
        """The row of each wanted id, -1 where it is not in the array."""
        wanted = as_ids(wanted)
        if not len(self._sorted) or not len(wanted):
            return np.full(len(wanted), -1, dtype=np.int64)
        at = np.searchsorted(self._sorted, wanted)
        at_clipped = np.minimum(at, len(self._sorted) - 1)
        found = self._sorted[at_clipped] == wanted
        rows = at_clipped if self._order is None else self._order[at_clipped]
        return np.where(found, rows, -1).astype(np.int64, copy=False)

    def row_of(self, oid: int) -> int:
        """The row of one id, or -1."""
        if not len(self._sorted):
            return -1
        at = int(np.searchsorted(self._sorted, oid))
        if at >= len(self._sorted) or int(self._sorted[at]) != oid:
            return -1
        return at if self._order is None else int(self._order[at])


@dataclass(frozen=True, slots=True, eq=False)
class RowPlan:
    """Ready-to-apply operations turning ``old`` into ``new``, in the order to apply them.

    - ``removals``: (first, last) row runs, last run first, in the rows of ``old``;
    - ``moves``: (source, destination) single-row moves as ``beginMoveRows`` takes them
      (destination counted before the row leaves), on the rows left after the removals;
    - ``insertions``: (row, ids) runs in increasing row order, rows of ``new``;
    - ``arrived``: the ids of ``new`` that were not in ``old``, in ``new``'s order;
    - ``new`` and its ``index``, so the model takes the final rows' look-up ready-made.
    """

    removals: tuple[tuple[int, int], ...]
    moves: tuple[tuple[int, int], ...]
    insertions: tuple[tuple[int, np.ndarray], ...]
    arrived: np.ndarray
    new: np.ndarray
    index: IdIndex
    linear: bool  # True when planned by the linear path (nothing changed order)

    def is_empty(self) -> bool:
        return not (self.removals or self.moves or self.insertions)


def plan(
    old: Sequence[int] | np.ndarray,
    new: Sequence[int] | np.ndarray,
    max_runs: int = MAX_RUNS,
    *,
    force_general: bool = False,
) -> RowPlan | None:
    """The operations that turn ``old`` into ``new``, or None when too scattered (reset).

    ``force_general`` skips the linear path (tests compare both paths with it).
    """
    old_ids, new_ids = as_ids(old), as_ids(new)
    in_new = _isin(old_ids, new_ids)
    in_old = _isin(new_ids, old_ids)
    removals = _runs(np.flatnonzero(~in_new))
    if len(removals) > max_runs:
        return None
    insert_rows = np.flatnonzero(~in_old)
    insert_runs = _runs(insert_rows)
    if len(insert_runs) > max_runs:
        return None
    kept_old, kept_new = old_ids[in_new], new_ids[in_old]
    linear = not force_general and bool(np.array_equal(kept_old, kept_new))
    if linear:
        moves: list[tuple[int, int]] = []
    else:
        found = _moves(kept_old, kept_new, max_runs)
        if found is None:
            return None
        moves = found
    insertions = tuple((first, new_ids[first : last + 1].copy()) for first, last in insert_runs)
    return RowPlan(
        removals=tuple(reversed(removals)),
        moves=tuple(moves),
        insertions=insertions,
        arrived=new_ids[insert_rows].copy(),
        new=new_ids,
        index=IdIndex(new_ids),
        linear=linear,
    )


def apply_to_list(current: list[int], row_plan: RowPlan) -> list[int]:
    """The plan's operations on a plain list, in order (what the model does with signals);
    for tests and for reading the plan."""
    ids = list(current)
    for first, last in row_plan.removals:
        del ids[first : last + 1]
    for source, destination in row_plan.moves:
        moved = ids.pop(source)
        ids.insert(destination if destination < source else destination - 1, moved)
    for first, run in row_plan.insertions:
        ids[first:first] = run.tolist()
    return ids


# -- internals -----------------------------------------------------------------------------


def _isin(values: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """Which values are in ``pool``: a lookup table when the ids span a small range."""
    if not len(values) or not len(pool):
        return np.zeros(len(values), dtype=bool)
    return np.isin(values, pool)


def _runs(rows: np.ndarray) -> list[tuple[int, int]]:
    """Sorted rows grouped into (first, last) runs of consecutive rows."""
    if not len(rows):
        return []
    breaks = np.flatnonzero(np.diff(rows) != 1)
    firsts = np.concatenate(([rows[0]], rows[breaks + 1]))
    lasts = np.concatenate((rows[breaks], [rows[-1]]))
    return list(zip(firsts.tolist(), lasts.tolist(), strict=True))


def _moves(
    kept_old: np.ndarray, kept_new: np.ndarray, max_runs: int
) -> list[tuple[int, int]] | None:
    """Single-row moves turning ``kept_old`` into ``kept_new`` (the same ids, reordered)."""
    count = len(kept_old)
    rank = _positions(kept_old, kept_new)
    stable = _stable_rows(rank, max_runs)
    if stable is None or count - int(stable.sum()) > max_runs:
        return None
    old_row = np.empty(count, dtype=np.int64)  # old_row[j]: old position of kept_new[j]
    old_row[rank] = np.arange(count, dtype=np.int64)
    movers_new = np.flatnonzero(~stable[old_row])  # positions in the new order of movers
    return _plan_moves(old_row, movers_new.tolist())


def _positions(ids: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Where each of ``ids`` stands in ``order`` (the same ids, reordered).

    Ids are database row ids, dense enough for a lookup table as long as the table is not
    much bigger than the lists; else a binary search on a sorted copy.
    """
    count = len(order)
    if not count:
        return np.empty(0, dtype=np.int64)
    low, high = int(order.min()), int(order.max())
    if high - low <= 8 * count + 1_000_000:
        table = np.empty(high - low + 1, dtype=np.int64)
        table[order - low] = np.arange(count, dtype=np.int64)
        return table[ids - low]
    sorter = np.argsort(order, kind="stable")
    return sorter[np.searchsorted(order, ids, sorter=sorter)]


def _ranks(values: np.ndarray, span: int) -> np.ndarray:
    """The rank of each of ``values`` (distinct, all below ``span``) among themselves."""
    present = np.zeros(span, dtype=np.int64)
    present[values] = 1
    return np.cumsum(present)[values] - 1


def _stable_rows(rank: np.ndarray, max_runs: int) -> np.ndarray | None:
    """A mask of the rows (old order) that stay put: a longest increasing subsequence of
    ``rank``, or None when more than ``max_runs`` rows would have to move."""
    count = len(rank)
    keep = np.ones(count, dtype=bool)
    budget = max_runs
    # A row that crossed more than `budget` others must move: keeping it would move them all.
    # |row - rank| is a lower bound of how many it crossed; repeat on what is left (a few
    # rounds: stopping early only leaves more to the sequential search below).
    for _round in range(_PRUNING_ROUNDS):
        alive = np.flatnonzero(keep)
        ranks = rank if len(alive) == count else _ranks(rank[alive], count)
        far = np.abs(np.arange(len(alive)) - ranks) > budget
        if not far.any():
            break
        keep[alive[far]] = False
        budget = max_runs - (count - len(alive) + int(far.sum()))
        if budget < 0:
            return None
    alive = np.flatnonzero(keep)
    values = rank[alive]
    if len(values) < 2:
        return keep
    # A row with only smaller values before it and only larger after it is in every longest
    # increasing subsequence: only the stretches between such rows need the sequential search.
    before = np.maximum.accumulate(np.concatenate(([-1], values[:-1])))
    after = np.minimum.accumulate(np.concatenate((values[1:], [np.iinfo(np.int64).max]))[::-1])[
        ::-1
    ]
    clean = (before < values) & (values < after)
    unclean = np.flatnonzero(~clean)
    for first, last in _runs(unclean):
        segment = values[first : last + 1].tolist()
        chosen = _longest_increasing(segment)
        dropped = np.ones(last - first + 1, dtype=bool)
        dropped[chosen] = False
        keep[alive[first : last + 1][dropped]] = False
        if count - int(keep.sum()) > max_runs:
            return None
    return keep


def _longest_increasing(values: list[int]) -> list[int]:
    """Indexes of a longest strictly increasing subsequence of ``values`` (patience sorting)."""
    tails: list[int] = []  # the value ending the best subsequence of each length
    tail_index: list[int] = []  # index into values of that ending element
    parent = [-1] * len(values)
    for i, value in enumerate(values):
        at = bisect.bisect_left(tails, value)
        if at == len(tails):
            tails.append(value)
            tail_index.append(i)
        else:
            tails[at] = value
            tail_index[at] = i
        parent[i] = tail_index[at - 1] if at > 0 else -1
    chosen: list[int] = []
    i = tail_index[-1] if tail_index else -1
    while i >= 0:
        chosen.append(i)
        i = parent[i]
    chosen.reverse()
    return chosen


def _plan_moves(old_row: np.ndarray, movers_new: list[int]) -> list[tuple[int, int]]:
    """(source, destination) moves putting each mover right after the row before it in the
    new order, in the new order: the rows left in place are already in order.

    Positions are counted, not searched: a row never moved is keyed by its old row ``(i,)``,
    a moved row by its predecessor's key plus ``(0,)`` (right after it, before anything that
    followed), so a row's position is how many keys sort before its own.
    """
    count = len(old_row)
    moved_from: list[int] = []  # old rows emptied by a move, sorted
    moved_keys: list[tuple[int, ...]] = []  # the keys of moved rows, sorted
    key_of: dict[int, tuple[int, ...]] = {}  # new position -> key, for moved rows

    def key(new_position: int) -> tuple[int, ...]:
        return key_of.get(new_position) or (int(old_row[new_position]),)

    def position(row_key: tuple[int, ...]) -> int:
        head, deeper = row_key[0], len(row_key) > 1
        originals = min(count, max(0, head + deeper))  # old rows (j,) sorting before the key
        emptied = (bisect.bisect_right if deeper else bisect.bisect_left)(moved_from, head)
        return originals - emptied + bisect.bisect_left(moved_keys, row_key)

    moves: list[tuple[int, int]] = []
    for new_position in movers_new:
        own = key(new_position)
        source = position(own)
        if new_position == 0:
            destination, target = 0, (-1,)
        else:
            before = key(new_position - 1)
            destination, target = position(before) + 1, (*before, 0)
        if destination in (source, source + 1):
            continue
        moves.append((source, destination))
        bisect.insort(moved_from, own[0])
        bisect.insort(moved_keys, target)
        key_of[new_position] = target
    return moves
