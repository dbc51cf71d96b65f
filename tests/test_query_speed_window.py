"""Issue 12 in the real window: the newest rows first, counts never read on the main thread,
the search box's pause following the database's speed, the full check after the first rows."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from PySide6.QtGui import QUndoStack

from alisio_fixtures import WORDS, build_database
from memory_desk.core.observations import ObservationStore, listing
from memory_desk.core.observations import sqlite as store_sqlite
from memory_desk.ui.observations import query as query_module
from memory_desk.ui.observations.filters import FilterBar
from memory_desk.ui.observations.page import ObservationsPage
from memory_desk.ui.observations.query import QueryRunner
from window_helpers import source_rows

pytest_plugins = ["window_fixture"]

WAIT_MS = 10_000


@pytest.fixture
def statements(monkeypatch) -> list[tuple[int, str]]:
    """Every statement run on the store's connections, with the thread that ran it."""
    seen: list[tuple[int, str]] = []
    opened = store_sqlite.Connections._open

    def traced(self) -> sqlite3.Connection:
        conn = opened(self)
        conn.set_trace_callback(lambda sql: seen.append((threading.get_ident(), sql)))
        return conn

    monkeypatch.setattr(store_sqlite.Connections, "_open", traced)
    return seen


def test_the_window_never_counts_a_database_on_the_main_thread(
    qtbot, open_window, tmp_path: Path, statements
) -> None:
    db = build_database(tmp_path / "memory.sqlite", 300, seed=1)
    window = open_window(["--db", str(db)])
    page = window.observations_page
    qtbot.waitUntil(lambda: page.model.rowCount() > 0 and not page.is_busy(), timeout=WAIT_MS)
    rows = source_rows(window)  # waits for the sidebar's count
    statements = list(statements)  # what the window ran (the test's own reads come next)
    with ObservationStore(db) as store:
        live = store.totals().live
    assert [count for _group, _label, count in rows] == [str(live)]
    main = threading.get_ident()
    counts = [sql for ident, sql in statements if listing.TOTALS_SQL in sql]
    assert counts, "the totals were read somewhere"
    on_main = [sql for ident, sql in statements if ident == main and listing.TOTALS_SQL in sql]
    projects_on_main = [
        sql for ident, sql in statements if ident == main and listing.PROJECTS_SQL in sql
    ]
    assert on_main == [] and projects_on_main == []
    # Every id list came in one row (group_concat), never one Python row per id.
    id_lists = [sql for _ident, sql in statements if sql.lstrip().startswith("SELECT o.id FROM")]
    assert all("LIMIT" in sql for sql in id_lists)  # only the first look's few rows


def test_a_new_question_shows_the_newest_rows_then_every_match_in_order(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(query_module, "FIRST_ROWS_WORTH_BYTES", 0)  # counted as a big file
    db = build_database(tmp_path / "memory.sqlite", 500, seed=2)
    page = ObservationsPage(QUndoStack())
    qtbot.addWidget(page)
    runner = page.findChild(QueryRunner)
    shown: list[tuple[str, list[int]]] = []
    statuses: list[str] = []
    page.status_changed.connect(statuses.append)
    page.model.modelReset.connect(lambda: shown.append(("reset", page.model.ids())))
    with ObservationStore(db) as store:
        with qtbot.waitSignal(page.refreshed, timeout=WAIT_MS):
            page.set_store(store)
        # Nothing measured yet when the database opened: its newest rows came first.
        every = store.search_ids()
        newest = sorted(every, reverse=True)[: listing.FIRST_ROWS]
        assert [ids for _kind, ids in shown][-2:] == [newest, every]
        assert any("newest matches" in status for status in statuses)
        assert statuses[-1].startswith(f"Showing {len(every):,}")
        assert page.table.currentIndex().row() == 0  # the whole answer's first row
        assert page.model.id_at(0) == every[0]
        # Measured fast since: a keystroke's answer comes whole, without a first look.
        runner.full_ms = 0.5
        shown.clear()
        page.filters.search.setText(WORDS[1])
        qtbot.waitUntil(lambda: not page.is_busy(), timeout=WAIT_MS)
        assert [ids for _kind, ids in shown] == [store.search_ids(WORDS[1])]
        page.shutdown()


def test_the_full_check_starts_only_once_the_first_rows_are_shown(qtbot, tmp_path: Path) -> None:
    db = build_database(tmp_path / "memory.sqlite", 50, seed=3)
    page = ObservationsPage(QUndoStack())
    qtbot.addWidget(page)
    order: list[str] = []
    page.model.modelReset.connect(
        lambda: order.append("rows") if page.model.rowCount() and "rows" not in order else None
    )
    with ObservationStore(db) as store:
        original = store.check_database

        def check():
            order.append("check")
            return original()

        store.check_database = check  # records when it runs; the check itself is real
        page.set_store(store)
        assert page.is_checking_index()  # waiting for the rows
        qtbot.waitUntil(
            lambda: not page.is_checking_index() and not page.is_busy(), timeout=WAIT_MS
        )
        assert order[:2] == ["rows", "check"]
        page.shutdown()


def test_the_pause_after_a_keystroke_follows_the_answers(qapp) -> None:
    bar = FilterBar()
    assert bar.search_delay() == FilterBar.SEARCH_DELAY_MS  # nothing measured yet
    for ms in (4.0, 6.0, 300.0):
        bar.note_answer_time(ms)
    assert bar.search_delay() == 6  # the median of the last answers
    for _ in range(FilterBar.ANSWERS_REMEMBERED):
        bar.note_answer_time(2_000.0)
    assert bar.search_delay() == FilterBar.SEARCH_DELAY_MS  # never more than the cap
    bar.deleteLater()
