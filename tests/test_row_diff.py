"""The row plan: random old and new id lists, both paths, and the plans' sizes.

The reference is the obvious one: applying the operations to a plain list must give exactly
the new ids, and the moves must be as few as a longest increasing subsequence allows
(computed here by the quadratic textbook method, not the module's).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_desk.ui.observations import row_diff
from memory_desk.ui.observations.row_diff import IdIndex, apply_to_list, plan


def fewest_moves(old: list[int], new: list[int]) -> int:
    """Kept rows minus a longest run of them whose new order is already right (O(n²))."""
    position = {oid: pos for pos, oid in enumerate(new)}
    kept = [position[oid] for oid in old if oid in position]
    best: list[int] = []
    for i, value in enumerate(kept):
        best.append(1 + max((best[j] for j in range(i) if kept[j] < value), default=0))
    return len(kept) - max(best, default=0)


@st.composite
def old_and_new(draw) -> tuple[list[int], list[int]]:
    """Any two unique lists from a shared pool; half the time a refresh-like edit of old."""
    pool = draw(st.lists(st.integers(1, 10_000), unique=True, max_size=60))
    old = draw(st.permutations(pool))[: draw(st.integers(0, len(pool)))]
    if draw(st.booleans()):
        return old, draw(st.permutations(pool))[: draw(st.integers(0, len(pool)))]
    rng = random.Random(draw(st.integers(0, 2**32)))
    new = [oid for oid in old if rng.random() > 0.2]
    for _ in range(draw(st.integers(0, 3))):  # a few rows change places
        if new:
            new.insert(rng.randrange(len(new) + 1), new.pop(rng.randrange(len(new))))
    shown = set(old)
    others = [oid for oid in pool if oid not in shown]
    for oid in others[: draw(st.integers(0, 6))]:  # a few arrive anywhere
        new.insert(rng.randrange(len(new) + 1), oid)
    return old, new


@settings(max_examples=400, deadline=None)
@given(old_and_new())
def test_applying_a_plan_gives_exactly_the_new_ids_by_either_path(pair) -> None:
    old, new = pair
    fast, general = plan(old, new), plan(old, new, force_general=True)
    assert fast is not None and general is not None  # small lists: never too scattered
    for each in (fast, general):
        assert apply_to_list(old, each) == new
        assert each.arrived.tolist() == [oid for oid in new if oid not in set(old)]
        assert each.new.tolist() == new
    assert fast.removals == general.removals
    assert [(row, run.tolist()) for row, run in fast.insertions] == [
        (row, run.tolist()) for row, run in general.insertions
    ]
    assert len(general.moves) == fewest_moves(old, new)  # only rows out of order move
    assert len(fast.moves) == fewest_moves(old, new)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 10_000), unique=True, max_size=80), st.randoms())
def test_rows_that_keep_their_relative_order_are_never_moved(old, rng) -> None:
    """Rows forgotten and rows arriving anywhere, nothing reordered: the linear path, no move."""
    new = [oid for oid in old if rng.random() > 0.3]
    for oid in range(20_000, 20_000 + rng.randrange(10)):
        new.insert(rng.randrange(len(new) + 1), oid)
    for force_general in (False, True):
        row_plan = plan(old, new, force_general=force_general)
        assert row_plan is not None and row_plan.moves == ()
        assert apply_to_list(old, row_plan) == new
    assert plan(old, new).linear


@settings(max_examples=200, deadline=None)
@given(old_and_new(), st.integers(0, 4))
def test_a_plan_over_the_limit_is_refused_and_one_within_is_right(pair, limit) -> None:
    old, new = pair
    row_plan = plan(old, new, max_runs=limit)
    if row_plan is None:
        loose = plan(old, new)
        assert loose is not None
        assert max(len(loose.removals), len(loose.moves), len(loose.insertions)) > limit
    else:
        assert max(len(row_plan.removals), len(row_plan.moves), len(row_plan.insertions)) <= limit
        assert apply_to_list(old, row_plan) == new


def test_a_scattered_difference_gives_no_plan() -> None:
    ids = list(range(1, 3001))
    assert plan(ids, ids[::2]) is None  # 1,500 separate removals
    assert plan(ids[::2], ids) is None  # 1,500 separate insertions
    shuffled = ids.copy()
    random.Random(3).shuffle(shuffled)
    assert plan(ids, shuffled) is None  # nearly every row would move


def test_one_row_rising_to_the_top_of_a_large_table_is_one_move_found_without_a_full_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A revised row rising to the top of "newest first": one move, and the sequential search
    (the only part that is not vectorised) never sees more than a few rows."""
    searched: list[int] = []
    search = row_diff._longest_increasing

    def counted(values: list[int]) -> list[int]:
        searched.append(len(values))
        return search(values)

    monkeypatch.setattr(row_diff, "_longest_increasing", counted)
    old = np.arange(200_000, 0, -1, dtype=np.int64)
    risen = int(old[123_456])
    new = np.concatenate(([risen], np.delete(old, 123_456)))
    row_plan = plan(old, new)
    assert row_plan is not None and not row_plan.linear
    assert row_plan.moves == ((123_456, 0),)
    assert sum(searched) == 0
    neighbours = old.copy()
    neighbours[[10, 11]] = neighbours[[11, 10]]  # two rows swap places
    row_plan = plan(old, neighbours)
    assert row_plan is not None and len(row_plan.moves) == 1
    assert sum(searched) <= 2


def test_a_large_append_is_planned_by_the_linear_path_with_the_runs_it_needs() -> None:
    old = np.arange(1_000_000, 0, -1, dtype=np.int64)
    new = np.concatenate((np.arange(1_000_010, 1_000_000, -1), old[:500], old[503:]))
    row_plan = plan(old, new)
    assert row_plan is not None and row_plan.linear
    assert row_plan.removals == ((500, 502),)
    assert row_plan.moves == ()
    assert [(row, len(run)) for row, run in row_plan.insertions] == [(0, 10)]
    assert row_plan.arrived.tolist() == list(range(1_000_010, 1_000_000, -1))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-(2**40), 2**40), unique=True, max_size=50),
    st.sampled_from(["as is", "ascending", "descending"]),
    st.lists(st.integers(-(2**40), 2**40), max_size=20),
)
def test_the_id_index_finds_every_row_and_nothing_else(ids, order, others) -> None:
    if order != "as is":
        ids = sorted(ids, reverse=order == "descending")
    index = IdIndex(np.array(ids, dtype=np.int64))
    rows = {oid: row for row, oid in enumerate(ids)}
    wanted = ids + others
    assert [index.row_of(oid) for oid in wanted] == [rows.get(oid, -1) for oid in wanted]
    assert index.rows_of(np.array(wanted, dtype=np.int64)).tolist() == [
        rows.get(oid, -1) for oid in wanted
    ]


def test_ids_are_taken_from_lists_ranges_and_arrays_alike() -> None:
    expected = [5, 3, 9]
    for given_ids in ([5, 3, 9], (5, 3, 9), np.array([5, 3, 9], dtype=np.int32), iter([5, 3, 9])):
        taken = row_diff.as_ids(given_ids)
        assert taken.dtype == np.int64 and taken.tolist() == expected
    assert row_diff.as_ids(range(10, 0, -3)).tolist() == [10, 7, 4, 1]
