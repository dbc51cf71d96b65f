"""The observations table model and query runner, on a real database without the window."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import QPersistentModelIndex, Qt
from PySide6.QtGui import QUndoStack

from alisio_fixtures import build_database
from memory_desk.core.observations import ObservationStore
from memory_desk.ui.observations.model import Column, ObservationTableModel
from memory_desk.ui.observations.page import ObservationsPage
from memory_desk.ui.observations.query import Query, QueryRunner


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
    assert all(model.cached(oid) is not None for oid in ids)  # one block covers them all
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
    assert answers[0].ids == store.search_ids("token")


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
    from memory_desk.ui.observations.display import sectioned_markdown

    content = "**What**: a\n**Why**: b\nmore of b\n**Where**: c\n\n**Learned**: d"
    assert sectioned_markdown(content) == (
        "**What**: a\n\n**Why**: b\nmore of b\n\n**Where**: c\n\n**Learned**: d"
    )
    assert sectioned_markdown("plain text\nwith **what** inside") == (
        "plain text\nwith **what** inside"
    )
