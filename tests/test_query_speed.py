"""Issue 12's query pipeline: ids read in bulk, the newest rows first, superseded reads
interrupted, counts read once per change of the file and never on the main thread.

Every database here is built with the plugin's DDL; "the agent" is a plugin-style connection
(or a second process where the timing matters). No time is asserted: the tests check which
rows come, in what order, which statements ran on which thread, and what was interrupted.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alisio_fixtures import WORDS, add_observation, build_database, plugin_connection
from memory_desk.core.errors import QueryInterrupted
from memory_desk.core.observations import ObservationStore, listing
from memory_desk.core.observations.sqlite import Connections
from memory_desk.ui.observations import query as query_module
from memory_desk.ui.observations.query import Query, QueryRunner
from memory_desk.ui.workers.background import BackgroundCall

WAIT_S = 10.0
# A read that never ends on its own: only an interrupt stops it.
ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    return build_database(tmp_path_factory.mktemp("speed") / "memory.sqlite", 600, seed=12)


@pytest.fixture
def store(database: Path):
    opened = ObservationStore(database)
    yield opened
    opened.close()


# -- ids in bulk, the newest first ------------------------------------------------------------


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(st.sampled_from([*WORDS[:12], "to", "x"]), max_size=2),
    forgotten=st.booleans(),
    pinned=st.booleans(),
    sort=st.sampled_from([None, "id", "title", "updated_at", "pinned"]),
    descending=st.booleans(),
    limit=st.integers(min_value=1, max_value=250),
)
def test_bulk_ids_and_first_rows_are_the_rows_the_store_searches(
    store: ObservationStore, words, forgotten, pinned, sort, descending, limit
) -> None:
    text = " ".join(words)
    filters = {"include_forgotten": forgotten, "pinned_only": pinned}
    rows = store.search(text, sort=sort, descending=descending, **filters)
    array = store.search_id_array(text, sort=sort, descending=descending, **filters)
    assert array.dtype == np.int64
    assert array.tolist() == [row.id for row in rows]
    assert store.search_ids(text, sort=sort, descending=descending, **filters) == array.tolist()
    # The first screen: the newest matches, highest id first, whatever the final order.
    newest = sorted((row.id for row in rows), reverse=True)[:limit]
    assert store.first_ids(text, limit=limit, **filters) == newest


def test_no_match_is_an_empty_array(store: ObservationStore) -> None:
    ids = store.search_id_array("zzzqqq-nothing")
    assert ids.dtype == np.int64 and len(ids) == 0
    assert store.first_ids("zzzqqq-nothing") == []


# -- counts once per change of the file -------------------------------------------------------


def test_the_summary_is_read_again_only_after_a_commit(tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite", 40, seed=3)
    with ObservationStore(path) as store:
        assert store.last_summary() is None
        first = store.summary()
        assert (first.totals, list(first.projects)) == (store.totals(), store.projects())
        assert store.summary() is first  # nothing committed: the same summary, no query
        add_observation(path, title="Saved by the agent", project="zeta-00000000")
        second = store.summary()
        assert second is not first and second.totals.total == first.totals.total + 1
        assert "zeta-00000000" in second.projects
        assert store.last_summary() is second


def test_a_commit_between_version_and_counts_is_never_cached_as_current(tmp_path: Path) -> None:
    """The version is read before the counts: counts newer than their version are read again
    next time, never kept as if nothing had changed."""
    path = build_database(tmp_path / "memory.sqlite", 5, seed=4)
    cache = listing.SummaryCache()
    with plugin_connection(path) as conn:
        version = 1
        stale_version_summary = cache.get(version, conn)
        assert cache.get(version, conn) is stale_version_summary
        assert cache.get(version + 1, conn) is not stale_version_summary


# -- interrupting a superseded read -----------------------------------------------------------


def _endless(conn: sqlite3.Connection) -> list:
    return conn.execute(ENDLESS).fetchall()


def test_interrupt_stops_a_read_on_another_thread_and_only_that_one(
    store: ObservationStore,
) -> None:
    outcome: list[object] = []
    started = threading.Event()

    def reader() -> None:
        store.get(1)  # opens this thread's connection
        started.set()
        try:
            store.read("search", _endless)
        except QueryInterrupted as exc:
            outcome.append(exc)

    thread = threading.Thread(target=reader)
    thread.start()
    assert started.wait(WAIT_S)
    while thread.is_alive() and not outcome:
        store.interrupt(thread.ident)  # repeated: the read may not have begun yet
        thread.join(0.05)
    thread.join(WAIT_S)
    assert not thread.is_alive()
    assert len(outcome) == 1 and "newer search" in str(outcome[0])
    assert store.totals().total == 600  # this thread's connection was never touched


def test_interrupting_a_thread_with_no_connection_does_nothing(database: Path) -> None:
    connections = Connections(database)
    try:
        connections.interrupt(threading.get_ident())  # no connection yet: a no-op
        assert connections.current().execute("SELECT count(*) FROM observations").fetchall()
    finally:
        connections.close()


def test_a_newer_call_interrupts_the_running_one(qtbot, store: ObservationStore) -> None:
    call = BackgroundCall()
    answers: list[object] = []
    failures: list[str] = []
    call.finished.connect(lambda _generation, value: answers.append(value))
    call.failed.connect(lambda _generation, message: failures.append(message))
    started = threading.Event()

    def endless() -> object:
        started.set()
        return store.read("search", _endless)

    call.submit(endless, interrupt=store.interrupt)
    assert started.wait(WAIT_S)
    with qtbot.waitSignal(call.finished, timeout=int(WAIT_S * 1000)):
        call.submit(lambda: store.count(), interrupt=store.interrupt)
    call.stop()
    assert answers == [store.count()]  # the endless read gave no answer and no error
    assert failures == []


def test_stop_interrupts_the_running_read(qtbot, store: ObservationStore) -> None:
    call = BackgroundCall()
    started = threading.Event()

    def endless() -> object:
        started.set()
        return store.read("search", _endless)

    call.submit(endless, interrupt=store.interrupt)
    assert started.wait(WAIT_S)
    call.stop()  # returns: the endless read was interrupted, not waited for forever
    assert not call.is_busy()


# -- the query runner: newest first, then everything in order ---------------------------------


def test_a_first_look_comes_before_the_whole_answer(
    qtbot, store: ObservationStore, monkeypatch
) -> None:
    # Nothing measured yet, and a file counted as big: the newest rows come first.
    monkeypatch.setattr(query_module, "FIRST_ROWS_WORTH_BYTES", 0)
    runner = QueryRunner()
    events: list[tuple[str, object]] = []
    runner.first.connect(lambda result: events.append(("first", result)))
    runner.finished.connect(lambda result: events.append(("finished", result)))
    query = Query(text=WORDS[0])
    with qtbot.waitSignal(runner.finished, timeout=int(WAIT_S * 1000)):
        runner.submit(store, query)
    kinds = [kind for kind, _ in events]
    assert kinds == ["first", "finished"]  # nothing measured yet: the newest rows come first
    first, whole = events[0][1], events[1][1]
    every = store.search_ids(WORDS[0])
    assert first.first and first.ids.tolist() == sorted(every, reverse=True)[: listing.FIRST_ROWS]
    assert not whole.first and whole.ids.tolist() == every

    # Measured fast: no first look (it would only make the table jump).
    runner.full_ms = 1.0
    events.clear()
    with qtbot.waitSignal(runner.finished, timeout=int(WAIT_S * 1000)):
        runner.submit(store, query)
    assert [kind for kind, _ in events] == ["finished"]
    # An explicit sort never gets a first look: the newest rows are no approximation of it.
    runner.full_ms = None
    events.clear()
    with qtbot.waitSignal(runner.finished, timeout=int(WAIT_S * 1000)):
        runner.submit(store, Query(text=WORDS[0], sort="title", descending=False))
    assert [kind for kind, _ in events] == ["finished"]
    # Nothing measured and a small file: the whole answer comes at once.
    monkeypatch.setattr(query_module, "FIRST_ROWS_WORTH_BYTES", 1 << 40)
    runner.full_ms = None
    events.clear()
    with qtbot.waitSignal(runner.finished, timeout=int(WAIT_S * 1000)):
        runner.submit(store, query)
    assert [kind for kind, _ in events] == ["finished"]
    runner.stop()


def test_a_re_run_brings_the_row_plan_from_the_tables_ids(qtbot, tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite", 50, seed=5)
    with ObservationStore(path) as store:
        runner = QueryRunner()
        answers = []
        runner.finished.connect(answers.append)
        old = store.search_id_array()
        added = add_observation(path, title="Just saved")
        with qtbot.waitSignal(runner.finished, timeout=int(WAIT_S * 1000)):
            runner.submit(store, Query(), previous=(7, old))
        runner.stop()
        (answer,) = answers
        assert answer.based_on == 7 and answer.plan is not None
        assert answer.plan.arrived.tolist() == [added]
        assert answer.ids.tolist() == store.search_ids()
