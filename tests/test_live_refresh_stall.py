"""A live refresh does the row first: nothing else shares its turns of the event loop.

An agent's commit reaches the observations page (which re-reads its ids, applies the row and
paints it) and the journal (which scans the same database in a Python loop on a worker) at
once. Each turn of the window's event loop must stay short (issue 12: no stall over 16 ms),
so what is not the row waits for it:

- the page asks for the counts, updates the detail pane and the actions only after the table
  painted the new row, in a turn of its own;
- the journal's scan of that database starts only after the page's ``refreshed`` (the
  change is still listed).

The tests record the order of the real events (signals of the real window, and the calls
the page and the desk make on their runners), never a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QAbstractItemView

from memory_desk.core import alisio
from window_helpers import NOW, agent_save

pytest_plugins = ["window_fixture"]  # the open_window fixture

WAIT_MS = 15_000


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    for minute in range(3):
        agent_save(
            path, title=f"Note {minute}", content=f"**What** note {minute}", now=NOW + minute
        )
    return path


def settled(qtbot, window) -> None:
    """The first rows, their counts and the journal's first look are all done."""
    page = window.observations_page
    qtbot.waitUntil(lambda: page.model.rowCount() == 3, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.review.started, timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: not page.is_busy() and not window.journal_runner.is_busy(), timeout=WAIT_MS
    )


def spy(events: list[str], name: str, call):  # noqa: ANN001, ANN201 - wraps any callable
    """``call`` as it is, recording ``name`` in ``events`` each time it is called."""

    def recorded(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        events.append(name)
        return call(*args, **kwargs)

    return recorded


def test_a_live_refresh_paints_the_row_before_asking_for_the_counts(
    qtbot, open_window, db: Path
) -> None:
    window = open_window(["--db", str(db)])
    settled(qtbot, window)
    page = window.observations_page
    events: list[str] = []
    page.model.rowsInserted.connect(lambda *_: events.append("row inserted"))
    page.table.painted.connect(lambda: events.append("painted"))
    page.refreshed.connect(lambda: events.append("refreshed"))
    page.queries.summary.submit = spy(events, "counts asked", page.queries.summary.submit)
    page.detail.show_observation = spy(events, "detail shown", page.detail.show_observation)

    agent_save(db, title="Arrived live", content="**What** new", now=NOW + 60_000)
    qtbot.waitUntil(lambda: "refreshed" in events, timeout=WAIT_MS)

    assert page.model.rowCount() == 4
    assert events.count("row inserted") == 1
    assert events.count("counts asked") == 1
    inserted = events.index("row inserted")
    painted = events.index("painted", inserted)
    # The row is painted before the counts' query starts (it would compete with the paint
    # for the GIL) and before the detail pane and the actions are brought up to date.
    assert painted < events.index("counts asked") < events.index("refreshed")
    if "detail shown" in events:
        assert painted < events.index("detail shown")
    assert not page.is_busy()


def test_the_page_is_busy_until_the_follow_up_of_a_live_refresh_ran(
    qtbot, open_window, db: Path
) -> None:
    """Between the row and its follow-up the page still says it is busy: tests, the
    benchmark and the journal (which waits for it) must not take it as settled."""
    window = open_window(["--db", str(db)])
    settled(qtbot, window)
    page = window.observations_page
    busy_at_insert: list[bool] = []
    page.model.rowsInserted.connect(
        lambda *_: QTimer.singleShot(0, lambda: busy_at_insert.append(page.is_busy()))
    )
    agent_save(db, title="Arrived live", content="**What** new", now=NOW + 60_000)
    qtbot.waitUntil(lambda: bool(busy_at_insert), timeout=WAIT_MS)
    assert busy_at_insert == [True]
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=WAIT_MS)


def test_the_journal_scans_a_database_the_page_is_rereading_after_its_refresh(
    qtbot, open_window, db: Path
) -> None:
    window = open_window(["--db", str(db)])
    settled(qtbot, window)
    page = window.observations_page
    runner = window.journal_runner
    events: list[str] = []
    page.model.rowsInserted.connect(lambda *_: events.append("row inserted"))
    page.refreshed.connect(lambda: events.append("refreshed"))
    runner.scan = spy(events, "journal scan", runner.scan)

    agent_save(db, title="Arrived live", content="**What** new", now=NOW + 60_000)
    qtbot.waitUntil(lambda: "journal scan" in events, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not runner.is_busy(), timeout=WAIT_MS)

    assert events.count("journal scan") == 1
    assert events.index("row inserted") < events.index("refreshed") < events.index("journal scan")
    # Put off, not lost: the agent's save is listed for review.
    review = window.findChild(QAbstractItemView, "reviewList")
    qtbot.waitUntil(lambda: review.model().rowCount() == 1, timeout=WAIT_MS)
    assert "1 change to review" in window.windowTitle()


def test_the_journal_does_not_wait_for_a_page_showing_another_database(
    qtbot, open_window, db: Path, tmp_path: Path
) -> None:
    """Only the database being re-read is put off: a scan the page is not busy with runs
    at once (here: the page is idle when the desk is asked)."""
    window = open_window(["--db", str(db)])
    settled(qtbot, window)
    runner = window.journal_runner
    events: list[str] = []
    runner.scan = spy(events, "journal scan", runner.scan)
    source = window.current_source()
    window.review.scan(source)
    assert events == ["journal scan"]
