"""One background mechanism for the observations page: ``BackgroundCall``, and the page's
``QueryRunner`` built on it.

Calls are real functions run on the pool's real thread, held at a ``threading.Event`` when a
test needs one to be running while it submits more; queries run on a real database.
"""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtCore import QThreadPool
from PySide6.QtGui import QUndoStack

from alisio_fixtures import build_database
from memory_desk.core import StoreError
from memory_desk.core.observations import ObservationStore
from memory_desk.ui.observations.page import ObservationsPage
from memory_desk.ui.observations.query import Query, QueryRunner
from memory_desk.ui.workers.background import BackgroundCall

WAIT_S = 5.0


class Held:
    """A call that signals when it starts and runs until released (or WAIT_S passes)."""

    def __init__(self, value: object = "held", error: str | None = None) -> None:
        self.value = value
        self.error = error
        self.started = threading.Event()
        self.release = threading.Event()
        self.done = threading.Event()

    def __call__(self) -> object:
        self.started.set()
        try:
            self.release.wait(WAIT_S)
            if self.error is not None:
                raise StoreError(self.error)
            return self.value
        finally:
            self.done.set()


@pytest.fixture
def runner(qapp):
    runner = BackgroundCall()
    answers: list[tuple[int, object]] = []
    failures: list[tuple[int, str]] = []
    runner.finished.connect(lambda generation, value: answers.append((generation, value)))
    runner.failed.connect(lambda generation, message: failures.append((generation, message)))
    runner.answers, runner.failures = answers, failures
    yield runner
    runner.stop()
    runner.deleteLater()


@pytest.fixture
def store(tmp_path: Path):
    store = ObservationStore(build_database(tmp_path / "memory.sqlite", 40, seed=5))
    yield store
    store.close()


def test_a_call_superseded_while_queued_is_skipped_and_only_the_latest_answers(
    qtbot, runner
) -> None:
    ran: list[str] = []
    first = Held("first")
    runner.submit(lambda: ran.append("first") or first())
    assert first.started.wait(WAIT_S)
    for name in ("second", "third", "latest"):
        latest = runner.submit(lambda name=name: ran.append(name) or name)
    first.release.set()
    qtbot.waitUntil(lambda: not runner.is_busy())
    assert ran == ["first", "latest"]  # the two in between were never run
    assert runner.answers == [(latest, "latest")]  # the first one's answer was dropped


def test_only_the_latest_failure_is_reported(qtbot, runner) -> None:
    stale = Held(error="a stale problem")
    runner.submit(stale)
    assert stale.started.wait(WAIT_S)
    with qtbot.waitSignal(runner.failed, timeout=int(WAIT_S * 1000)):
        latest = runner.submit(partial(fail, "the latest problem"))
        stale.release.set()
    assert runner.failures == [(latest, "the latest problem")]
    assert runner.answers == []


def fail(message: str) -> object:
    raise StoreError(message)


def test_cancel_drops_the_answer_of_the_running_call(qtbot, runner) -> None:
    held = Held("cancelled")
    runner.submit(held)
    assert held.started.wait(WAIT_S)
    runner.cancel()
    assert not runner.is_busy()  # nothing is awaited any more
    held.release.set()
    assert held.done.wait(WAIT_S)
    # Answers arrive in order: once the next call's is in, the cancelled one's was dropped.
    with qtbot.waitSignal(runner.finished, timeout=int(WAIT_S * 1000)):
        after = runner.submit(lambda: "after")
    assert runner.answers == [(after, "after")]


def test_stop_waits_for_the_running_call_skips_the_queue_and_accepts_no_more(qapp, runner) -> None:
    held = Held("running")
    queued: list[str] = []
    runner.submit(held)
    assert held.started.wait(WAIT_S)
    generation = runner.submit(lambda: queued.append("queued"))
    releaser = threading.Timer(0.1, held.release.set)
    releaser.start()
    try:
        runner.stop()
    finally:
        releaser.join()
    assert held.done.is_set()  # stop returned only after the running call ended
    assert runner.submit(lambda: queued.append("after stop")) == generation
    assert not runner.is_busy()
    qapp.processEvents()  # deliver whatever the pool's thread emitted before stopping
    assert queued == []
    assert runner.answers == [] and runner.failures == []


def test_query_runner_answers_with_the_generation_it_gave(qtbot, store: ObservationStore) -> None:
    runner = QueryRunner()
    answers = []
    runner.finished.connect(answers.append)
    query = Query(text="the", sort="id")
    with qtbot.waitSignal(runner.finished, timeout=int(WAIT_S * 1000)):
        generation = runner.submit(store, query)
    runner.stop()
    (result,) = answers
    assert (result.generation, result.query) == (generation, query)
    assert result.ids.tolist() == store.search_ids("the", sort="id")
    assert runner.submit(store, query) == generation  # stopped: no more queries
    assert not runner.is_busy()


def test_query_runner_reports_a_query_that_could_not_run(qtbot, store: ObservationStore) -> None:
    runner = QueryRunner()
    answers, failures = [], []
    runner.finished.connect(answers.append)
    runner.failed.connect(lambda generation, message: failures.append((generation, message)))
    store.close()
    with qtbot.waitSignal(runner.failed, timeout=int(WAIT_S * 1000)):
        generation = runner.submit(store, Query())
    runner.stop()
    assert answers == []
    assert failures == [(generation, "memory.sqlite was closed; open it again")]


def test_every_worker_of_the_page_is_a_background_call(qtbot, store: ObservationStore) -> None:
    """One mechanism: each thread pool the page owns belongs to a BackgroundCall."""
    page = ObservationsPage(QUndoStack())
    qtbot.addWidget(page)
    with qtbot.waitSignal(page.refreshed):
        page.set_store(store)
    page.on_agent_search()  # the panel builds its worker when first shown
    pools = page.findChildren(QThreadPool)
    # the query, the counts beside it, the index health check, the agent's search, writes
    # (the table reads its rows on the window's thread: see test_observations_scrolling.py)
    assert len(pools) == 5
    assert all(isinstance(pool.parent(), BackgroundCall) for pool in pools)
    query_runner = page.findChild(QueryRunner)
    assert len(query_runner.findChildren(BackgroundCall)) == 1
    page.shutdown()
