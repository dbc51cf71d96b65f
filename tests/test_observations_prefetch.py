"""Issue 12: a page jump finds its rows read ahead, on a worker, and never stale ones.

A real 2,000-row database written by the plugin's own code (``alisio.save_observation``,
one topic key per row so the agent can rewrite exactly one), the real store, the real
window offscreen. Counts and results, never times.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore
from memory_desk.ui import heap, painting
from memory_desk.ui.observations.model import Column, ObservationTableModel, format_row
from window_helpers import table

pytest_plugins = ["window_fixture"]  # the open_window fixture

ROWS = 2000
PROJECT = "alpha-1a2b3c4d"


def _save(conn, number: int, title: str) -> int:
    return alisio.save_observation(
        conn,
        title=title,
        content=f"**What** note {number} about the cache layer",
        type=("decision", "bugfix", "discovery")[number % 3],
        project=PROJECT,
        topic_key=f"notes/n{number}",
        now=1_700_000_000_000 + number * 60_000,
    ).id


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("prefetch") / "memory.sqlite"
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    try:
        for number in range(ROWS):
            _save(conn, number, f"Note {number} on the cache layer")
    finally:
        conn.close()
    return path


@pytest.fixture
def db(built: Path, tmp_path: Path) -> Path:
    """A fresh copy per test (the agent writes to some)."""
    conn = alisio.connect_like_plugin(built)
    try:
        conn.execute("VACUUM INTO ?", (str(tmp_path / "memory.sqlite"),))
    finally:
        conn.close()
    return tmp_path / "memory.sqlite"


@pytest.fixture
def store(qapp, db: Path) -> Iterator[ObservationStore]:
    store = ObservationStore(db)
    yield store
    store.close()


class Reads:
    """Every ``get_many`` call with the thread it ran on (the store's own code runs)."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []  # (thread ident, ids asked)
        self.main = threading.get_ident()

    def on_main(self) -> int:
        return sum(1 for ident, _ in self.calls if ident == self.main)

    def elsewhere(self) -> int:
        return sum(1 for ident, _ in self.calls if ident != self.main)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Reads:
    seen = Reads()
    original = ObservationStore.get_many

    def counted(self, ids):
        seen.calls.append((threading.get_ident(), len(ids)))
        return original(self, ids)

    monkeypatch.setattr(ObservationStore, "get_many", counted)
    return seen


def _model(store: ObservationStore) -> ObservationTableModel:
    model = ObservationTableModel()
    model.set_store(store)
    model.reset_ids(store.search_ids())
    return model


def _read_ahead_done(qtbot, model: ObservationTableModel) -> None:
    qtbot.waitUntil(lambda: not model.reading_ahead())


def test_page_jumps_find_their_rows_read_ahead_not_queried_on_the_main_thread(
    open_window, qtbot, db: Path, store: ObservationStore, reads: Reads
) -> None:
    window = open_window(["--db", str(db)])
    window.resize(1280, 800)
    view = table(window)
    model = window.observations_page.model
    qtbot.waitUntil(lambda: model.rowCount() == ROWS)
    view.viewport().repaint()
    _read_ahead_done(qtbot, model)
    bar = view.verticalScrollBar()
    on_main = reads.on_main()
    shown: set[int] = set()
    for _ in range(40):  # 40 pages: about 800 rows, four blocks' worth
        bar.setValue(bar.value() + bar.pageStep())
        qtbot.wait(1)  # the scroll's own events
        view.viewport().repaint()
        first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
        shown.update(range(first, last + 1))
        _read_ahead_done(qtbot, model)  # the worker keeps ahead of the person (here, at once)
    assert max(shown) > 700
    assert reads.on_main() == on_main  # not one query on the main thread
    assert reads.elsewhere() >= 3  # the worker read them, a block at a time
    # What was painted is what the slow path gives: the row formatted from the store.
    for row in sorted(shown):
        record = model.record_at(row)
        expected = format_row(store.get_many([model.id_at(row)])[model.id_at(row)], 0).display
        assert record.display[: Column.UPDATED] == expected[: Column.UPDATED]


def test_a_row_read_ahead_then_rewritten_by_the_agent_shows_the_new_title(
    qtbot, db: Path, store: ObservationStore
) -> None:
    model = _model(store)
    assert model.record_at(0) is not None  # the first block: rows 0-199
    assert model.read_ahead(100, 119)  # the next rows, read on the worker
    _read_ahead_done(qtbot, model)
    row = 250
    oid = model.id_at(row)
    before = store.get(oid)
    conn = alisio.connect_like_plugin(db)
    try:  # the agent's topic upsert rewrites that row after it was read ahead
        assert _save(conn, ROWS - 1 - row, "Rewritten by the agent") == oid
    finally:
        conn.close()
    model.reload()  # the live refresh's step: cached rows read again
    assert model.record_at(row).display[Column.TITLE] == "Rewritten by the agent"
    assert before.title != "Rewritten by the agent"


def test_rows_read_ahead_for_ids_no_longer_shown_are_dropped(
    qtbot, store: ObservationStore, reads: Reads
) -> None:
    model = _model(store)
    model.record_at(0)
    assert model.read_ahead(100, 119)
    _read_ahead_done(qtbot, model)
    asked = [model.id_at(row) for row in range(200, 320)]
    model.reset_ids(store.search_ids(sort="title", descending=False))  # a new query
    assert not model.read_ahead(10**6, 10**6)  # takes the read in, and drops it
    assert all(model.cached(oid) is None for oid in asked)
    on_main = reads.on_main()
    row = model.row_of(asked[0])
    assert model.record_at(row) is not None  # read again, for the ids shown now
    assert reads.on_main() == on_main + 1


def test_another_store_waits_for_the_read_ahead_and_never_takes_it(
    qtbot, built: Path, tmp_path: Path, store: ObservationStore, reads: Reads
) -> None:
    model = _model(store)
    model.record_at(0)
    assert model.read_ahead(100, 119)
    other_path = tmp_path / "other.sqlite"
    conn = alisio.connect_like_plugin(built)
    try:
        conn.execute("VACUUM INTO ?", (str(other_path),))
    finally:
        conn.close()
    other = ObservationStore(other_path)
    try:
        model.set_store(other)  # waits for the first store's read, and forgets it
        store.close()  # safe at once: nothing reads it any more
        model.reset_ids(other.search_ids())
        assert model.record_at(0) is not None
        assert model.read_ahead(100, 119)  # not held back by the first store's read
        _read_ahead_done(qtbot, model)
        on_main = reads.on_main()
        assert model.record_at(250).observation.id == model.id_at(250)  # read ahead: taken
        assert reads.on_main() == on_main
    finally:
        model.set_store(None)
        other.close()


def test_a_read_ahead_that_fails_leaves_the_main_threads_read_to_report(
    qtbot, store: ObservationStore, db: Path
) -> None:
    model = _model(store)
    model.record_at(0)
    failures: list[str] = []
    model.fetch_failed.connect(failures.append)
    store.close()  # every read fails from now on, the worker's too
    assert model.read_ahead(100, 119)
    _read_ahead_done(qtbot, model)
    assert model.record_at(300) is None  # not read ahead; the main thread's read fails
    assert len(failures) == 1


def test_a_full_text_cache_keeps_the_texts_on_screen(
    open_window, qtbot, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full cache of laid-out texts drops its oldest half, never the texts just painted:
    a repaint after any page jump lays out nothing again."""
    monkeypatch.setattr(painting, "TEXTS_KEPT", 400)
    window = open_window(["--db", str(db)])
    window.resize(1280, 800)
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == ROWS)
    cache = view._text_cache
    layouts = [0]

    def counted() -> int:
        layouts[0] = cache.layouts
        return layouts[0]

    bar = view.verticalScrollBar()
    again: list[int] = []
    for _ in range(60):
        bar.setValue(bar.value() + bar.pageStep())
        view.viewport().repaint()
        before = counted()
        view.viewport().repaint()
        again.append(counted() - before)
    assert counted() > 400  # the cache filled up many times over
    assert again == [0] * 60


def test_the_start_is_set_aside_from_the_collector_once(
    open_window, qtbot, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(heap, "_frozen", False)
    calls: list[bool] = []
    original = heap.freeze_the_start
    monkeypatch.setattr(heap, "freeze_the_start", lambda: calls.append(original()) or True)
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: window.observations_page.model.rowCount() == ROWS)
    qtbot.waitUntil(lambda: bool(calls))
    assert calls == [True]
    assert gc.get_freeze_count() > 0
    assert not original()  # once per process
