"""Issue 12: a page jump reads its rows on the window's thread, a small block at a time.

A page jump used to read 200 rows around a miss (5 ms: every tenth frame over budget), and
then read them ahead on a worker, whose Python took the interpreter's lock from the very
frames it was meant to spare. Now a miss reads about two screens (``BLOCK``), on the
window's thread, and no other thread reads rows while the table scrolls.

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
from memory_desk.ui import heap
from memory_desk.ui.observations.model import Column, ObservationTableModel, format_row
from memory_desk.ui.widgets import painting
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
    path = tmp_path_factory.mktemp("scrolling") / "memory.sqlite"
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


def test_page_jumps_read_their_rows_on_the_window_thread_a_small_block_at_a_time(
    open_window, qtbot, db: Path, store: ObservationStore, reads: Reads
) -> None:
    window = open_window(["--db", str(db)])
    window.resize(1280, 800)
    view = table(window)
    model = window.observations_page.model
    qtbot.waitUntil(lambda: model.rowCount() == ROWS)
    view.viewport().repaint()
    bar = view.verticalScrollBar()
    shown: set[int] = set()
    per_frame: list[int] = []
    reads.calls.clear()
    for _ in range(48):  # 48 pages: past row 700 whatever the screen height
        before = len(reads.calls)
        bar.setValue(bar.value() + bar.pageStep())
        qtbot.wait(1)  # the scroll's own events
        view.viewport().repaint()
        first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
        shown.update(range(first, last + 1))
        per_frame.append(sum(asked for _thread, asked in reads.calls[before:]))
        visible = last - first + 1
    assert max(shown) > 700
    assert reads.elsewhere() == 0  # no worker reads rows beside the frames
    assert reads.on_main() >= 20  # the window's thread read them, block by block
    assert max(per_frame) <= 2 * visible + 2  # never more than about two screens a frame
    # What was painted is the row as the store gives it.
    for row in sorted(shown):
        record = model.record_at(row)
        expected = format_row(store.get_many([model.id_at(row)])[model.id_at(row)], 0).display
        assert record.display[: Column.UPDATED] == expected[: Column.UPDATED]


def test_a_cached_row_rewritten_by_the_agent_shows_the_new_title(
    db: Path, store: ObservationStore
) -> None:
    model = _model(store)
    row = 250
    assert model.record_at(row) is not None  # cached before the agent's write
    oid = model.id_at(row)
    conn = alisio.connect_like_plugin(db)
    try:  # the agent's topic upsert rewrites that row
        assert _save(conn, ROWS - 1 - row, "Rewritten by the agent") == oid
    finally:
        conn.close()
    assert model.record_at(row).display[Column.TITLE] != "Rewritten by the agent"
    model.reload()  # the live refresh's step: cached rows read again
    assert model.record_at(row).display[Column.TITLE] == "Rewritten by the agent"


def test_a_read_that_fails_is_reported_once(store: ObservationStore) -> None:
    model = _model(store)
    model.record_at(0)
    failures: list[str] = []
    model.fetch_failed.connect(failures.append)
    store.close()  # every read fails from now on
    assert model.record_at(300) is None
    assert model.record_at(301) is None  # not retried on every paint
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
    cache = view.texts
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
