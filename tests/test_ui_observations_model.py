"""The observations table model and query runner, on a real database without the window."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPersistentModelIndex, Qt
from PySide6.QtGui import QUndoStack

from alisio_fixtures import build_database
from memory_desk.core.observations import ObservationStore
from memory_desk.ui import dates
from memory_desk.ui.observations import row_diff
from memory_desk.ui.observations.model import Column, ObservationTableModel
from memory_desk.ui.observations.page import ObservationsPage
from memory_desk.ui.observations.query import Query, QueryRunner
from memory_desk.ui.widgets.display import now_ms


@pytest.fixture
def store(qapp, tmp_path: Path):
    # qapp: formatting a row asks QFontDatabase (the pin glyph), which needs an application
    store = ObservationStore(build_database(tmp_path / "memory.sqlite", 60, seed=3))
    yield store
    store.close()


def test_apply_ids_turns_any_order_into_any_other_and_keeps_persistent_indexes(
    qtmodeltester, store: ObservationStore
) -> None:
    model = ObservationTableModel()
    model.set_store(store)
    all_ids = store.search_ids(include_forgotten=True)
    model.reset_ids(all_ids[:30])
    qtmodeltester.check(model)  # keeps watching every signal below
    rng = random.Random(7)
    for _ in range(25):
        old = model.ids()
        new = rng.sample(all_ids, rng.randrange(0, 45))
        if rng.random() < 0.5:  # mostly the same order with a few changes, like a refresh
            new = [i for i in old if rng.random() > 0.1] + new[:3]
            new = list(dict.fromkeys(new))
            if len(new) > 2:
                new.insert(0, new.pop(rng.randrange(len(new))))
        watched = {oid: QPersistentModelIndex(model.index(row, 0)) for row, oid in enumerate(old)}
        assert model.apply_ids(new)
        assert model.ids() == new
        for oid, index in watched.items():
            if oid in new:
                assert index.isValid() and index.data(Qt.ItemDataRole.UserRole) == oid
            else:
                assert not index.isValid()
        assert all(model.row_of(oid) == row for row, oid in enumerate(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ([8, 7, 6, 4, 3, 2, 1], [1, 8, 7, 6, 4, 3, 2]),  # a revised row rises: moves only
        ([1, 2, 3, 4], [4, 3, 2, 1]),
        ([1, 2, 3, 4], [9, 1, 2, 3, 4, 10]),  # insertions only
        ([1, 2, 3, 4], [2, 4]),  # removals only
    ],
)
def test_each_kind_of_change_alone_reaches_the_new_ids(qtmodeltester, old, new) -> None:
    model = ObservationTableModel()
    model.reset_ids(old)
    qtmodeltester.check(model)
    assert model.apply_ids(new)
    assert model.ids() == new
    assert [model.index(row, 0).data(Qt.ItemDataRole.UserRole) for row in range(len(new))] == new
    assert model.rows_of(new).tolist() == list(range(len(new)))


def test_scattered_difference_asks_for_a_reset(store: ObservationStore) -> None:
    model = ObservationTableModel()
    model.set_store(store)
    model.reset_ids(range(1, 3001))
    assert not model.apply_ids(range(1, 3001, 2))  # 1,500 separate removals
    assert model.ids() == list(range(1, 3001))


def test_rows_load_lazily_in_blocks_and_reload_reports_changes(store: ObservationStore) -> None:
    model = ObservationTableModel()
    model.set_store(store)
    ids = store.search_ids()
    model.reset_ids(ids)
    assert model.cached(ids[0]) is None
    assert model.index(0, Column.TITLE).data() == store.get(ids[0]).title
    assert all(model.cached(oid) is not None for oid in ids[: model.BLOCK])  # one block
    assert model.cached(ids[model.BLOCK]) is None  # (only one: about two screens)
    for row in range(len(ids)):
        model.index(row, Column.TITLE).data()  # every row in the cache now
    changed: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda top, bottom, _roles: changed.append((top.row(), bottom.row())))
    row = 5
    store.pin([ids[row]], pinned=not model.cached(ids[row]).pinned)
    model.reload()
    assert changed == [(row, row)]


def test_only_the_latest_query_answers(qtbot, store: ObservationStore) -> None:
    runner = QueryRunner()
    answers = []
    runner.finished.connect(answers.append)
    for text in ("t", "to", "tok", "toke", "token"):
        runner.submit(store, Query(text=text))
    qtbot.waitUntil(lambda: not runner.is_busy())
    runner.stop()
    assert [a.query.text for a in answers] == ["token"]
    assert answers[0].ids.tolist() == store.search_ids("token")


def test_page_works_on_its_own(qtbot, store: ObservationStore) -> None:
    page = ObservationsPage(QUndoStack())
    qtbot.addWidget(page)
    statuses: list[str] = []
    page.status_changed.connect(statuses.append)
    with qtbot.waitSignal(page.refreshed):
        page.set_store(store)
    totals = store.totals()
    assert page.model.rowCount() == totals.live
    assert statuses[-1].startswith(f"Showing {totals.live:,} · {totals.live:,} live")
    page.set_store(None)
    assert statuses[-1] == "No database open" and page.model.rowCount() == 0
    page.shutdown()


def test_marks_highlight_rows_then_expire_and_a_new_query_clears_them(
    qtbot, qtmodeltester, store: ObservationStore
) -> None:
    model = ObservationTableModel()
    model.set_store(store)
    ids = store.search_ids()
    model.reset_ids(ids[5:])
    qtmodeltester.check(model)
    model.MARK_MS = 50
    assert model.apply_ids(ids)
    model.mark(ids[:5])
    assert [model.mark_of(oid) for oid in ids[:6]] == ["new"] * 5 + [None]
    assert model.index(0, Column.TITLE).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert model.index(5, Column.TITLE).data(Qt.ItemDataRole.BackgroundRole) is None
    assert "New" in model.index(0, Column.ID).data(Qt.ItemDataRole.ToolTipRole)
    qtbot.waitUntil(lambda: model.marked_ids() == [])
    assert model.index(0, Column.TITLE).data(Qt.ItemDataRole.BackgroundRole) is None

    model.MARK_MS = 60_000
    model.index(0, Column.TITLE).data()  # the row enters the cache
    store.edit(ids[0], content="**What** rewritten elsewhere")
    model.reload(mark_revised=True)
    assert model.mark_of(ids[0]) == "changed"
    model.reset_ids(ids[::-1])
    assert model.marked_ids() == []


def test_each_plugin_section_gets_its_own_paragraph() -> None:
    from memory_desk.ui.widgets.display import sectioned_markdown

    content = "**What**: a\n**Why**: b\nmore of b\n**Where**: c\n\n**Learned**: d"
    assert sectioned_markdown(content) == (
        "**What**: a\n\n**Why**: b\nmore of b\n\n**Where**: c\n\n**Learned**: d"
    )
    assert sectioned_markdown("plain text\nwith **what** inside") == (
        "plain text\nwith **what** inside"
    )


# -- ids at a million rows: one array, a sorted index, plans made elsewhere ----------------------


def test_a_million_ids_are_held_in_one_array_not_python_ints(qapp) -> None:
    """8 bytes a row plus the look-up index: a list of ints and a dict took ~100 bytes a row."""
    model = ObservationTableModel()
    ids = np.arange(1_000_000, 0, -1, dtype=np.int64)
    listed = ids.tolist()
    unordered = listed[::2] + listed[1::2]  # nothing to exploit: the index must sort
    tracemalloc.start()
    try:
        model.reset_ids(ids)
        assert model.row_of(1) == 999_999 and model.row_of(0) == -1
        model.reset_ids(unordered)
        assert model.row_of(2) == 499_999 and model.row_of(1) == 999_999
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held <= 30_000_000  # the ids, their order and its sorted copy: 8 MB each
    assert peak <= 60_000_000
    assert isinstance(model.id_at(5), int) and isinstance(model.ids_slice(0, 2)[0], int)


def test_ids_slices_lookups_and_masks_read_only_what_they_are_asked(qapp) -> None:
    model = ObservationTableModel()
    model.reset_ids([40, 10, 30, 20])
    assert model.ids() == [40, 10, 30, 20]
    assert model.ids_slice(1, 2) == [10, 30] and model.ids_slice(3, 99) == [20]
    assert model.ids_slice(-5, 0) == [40] and model.ids_slice(4, 9) == []
    assert model.id_at(2) == 30 and type(model.id_at(2)) is int
    assert model.index(2, Column.ID).data(Qt.ItemDataRole.UserRole) == 30
    assert model.contains_many([10, 11, 20]).tolist() == [True, False, True]
    assert model.rows_of(np.array([20, 40, 7])).tolist() == [3, 0, -1]
    model.reset_ids(np.array([7, 8], dtype=np.int32))  # an array as a worker gives it
    assert model.ids() == [7, 8] and model.row_of(8) == 1 and model.row_of(40) == -1


def test_a_plan_from_a_snapshot_applies_only_to_the_version_it_was_made_from(
    qtmodeltester, store: ObservationStore
) -> None:
    model = ObservationTableModel()
    model.set_store(store)
    all_ids = store.search_ids(include_forgotten=True)
    model.reset_ids(all_ids[:30])
    qtmodeltester.check(model)
    version, seen = model.snapshot()
    assert not seen.flags.writeable and seen.tolist() == all_ids[:30]
    new = all_ids[2:40]
    new.insert(0, new.pop(10))  # one row rises, two leave, ten arrive
    row_plan = row_diff.plan(seen, new)  # what the worker does, off the main thread
    assert row_plan is not None

    model.apply_ids(all_ids[:29])  # the table changed meanwhile
    assert model.version() != version
    assert not model.apply_plan(row_plan, version)  # refused, nothing changed
    assert model.ids() == all_ids[:29]

    version, seen = model.snapshot()
    row_plan = row_diff.plan(seen, new)
    watched = {oid: QPersistentModelIndex(model.index(row, 0)) for row, oid in enumerate(seen)}
    assert model.apply_plan(row_plan, version)
    assert model.ids() == new and model.version() != version
    assert seen.tolist() == all_ids[:29]  # the snapshot a worker read was never written
    assert all(model.row_of(oid) == row for row, oid in enumerate(new))
    for oid, index in watched.items():
        assert index.isValid() == (oid in new)
        if index.isValid():
            assert index.row() == new.index(oid)


def test_the_unsaved_mark_follows_its_row(store: ObservationStore) -> None:
    model = ObservationTableModel()
    model.set_store(store)
    ids = store.search_ids()
    model.reset_ids(ids)
    changed: list[int] = []
    model.dataChanged.connect(lambda top, _bottom, _roles: changed.append(top.row()))
    model.set_unsaved(ids[7])
    assert model.index(7, Column.TITLE).data().startswith("• ")
    model.set_unsaved(ids[3])
    assert not model.index(7, Column.TITLE).data().startswith("• ")
    assert model.index(3, Column.TITLE).data().startswith("• ")
    assert changed == [7, 7, 3]


def test_the_clock_rewrites_relative_times_only_for_rows_read_again(
    store: ObservationStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clock tick costs one signal, not a reformat of the whole cache (up to 2,000 rows)."""
    model = ObservationTableModel()
    model.set_store(store)
    ids = store.search_ids()
    model.reset_ids(ids)
    for row in range(len(ids)):
        model.index(row, Column.TITLE).data()  # the rows enter the cache, a block at a time
    assert all(model.cached(oid) is not None for oid in ids)
    written: list[int] = []
    relative = dates.relative

    def counted(moment: int, now: int) -> str:
        written.append(moment)
        return relative(moment, now)

    monkeypatch.setattr(dates, "relative", counted)
    signals: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda top, bottom, _roles: signals.append((top.row(), bottom.row())))
    model.reformat_times()
    assert written == [] and signals == [(0, len(ids) - 1)]
    observation = model.cached(ids[4])
    assert model.index(4, Column.UPDATED).data() == relative(observation.updated_at, now_ms())
    assert len(written) == 2  # that row's two times, once
    model.index(4, Column.CREATED).data()
    assert len(written) == 2


@pytest.mark.parametrize("where", ["top", "middle"])
def test_a_one_row_change_at_a_million_rows_copies_no_id_on_the_windows_thread(
    qapp, where: str
) -> None:
    """A live commit is one insertion (or one move, or one removal): the model takes the rows
    its worker planned as they are. Shifting a million ids in a copy of them took 15-20 ms
    of the window's thread per commit, over a frame."""
    model = ObservationTableModel()
    ids = np.arange(1_000_000, 0, -1, dtype=np.int64)
    model.reset_ids(ids)
    at = 0 if where == "top" else 500_000
    new = np.concatenate((ids[:at], [2_000_000], ids[at:]))
    plan = row_diff.plan(ids, new)  # (made on the page's worker in the window)
    assert plan is not None and len(plan.insertions) == 1
    inserted = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    tracemalloc.start()
    try:
        assert model.apply_plan(plan, model.version())
        _held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert inserted == [(at, at)]
    assert model.id_at(at) == 2_000_000 and model.row_of(1) == 1_000_000
    assert peak < 1_000_000  # (a copy of the ids is 8 MB)


def test_a_new_answer_at_a_million_rows_is_shown_without_copying_its_ids(qapp) -> None:
    """A sort or a search answers with a fresh array of ids (and its look-up, both made on the
    page's worker): the model shows that array. Copying a million ids was 10-15 ms of the
    window's thread after each sort."""
    model = ObservationTableModel()
    model.reset_ids(np.arange(10, dtype=np.int64))
    ids = np.arange(1_000_000, 0, -1, dtype=np.int64)
    index = row_diff.IdIndex(ids)
    tracemalloc.start()
    try:
        model.reset_ids(ids, index)
        _held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert model.rowCount() == 1_000_000 and model.row_of(1) == 999_999
    assert peak < 1_000_000  # (a copy of the ids is 8 MB)
