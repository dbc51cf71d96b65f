"""The search index's health, checked in the background when a database is opened.

Real databases built by the plugin's DDL and ``memory_save``; a damaged index is made the way
it happens for real (a write that bypassed the update trigger, which the cheap checks at open
cannot see). The check is FTS5's own ``integrity-check`` (seconds on a big file), so it must
run off the main thread, and its answer must never land on another database's page.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QLabel

from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore
from window_helpers import make_database, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

TITLES = ("First note", "Second note", "Third note")


@pytest.fixture
def healthy(tmp_path: Path) -> Path:
    return make_database(tmp_path / "healthy" / "memory.sqlite", TITLES)


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    """Row 2's content rewritten while the plugin's update trigger was missing: the index
    still holds the old text (same row count, titles still found: opening succeeds)."""
    path = make_database(tmp_path / "damaged" / "memory.sqlite", TITLES)
    conn = alisio.connect_like_plugin(path)
    try:
        sql = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'observations_au'"
        ).fetchone()[0]
        conn.execute("DROP TRIGGER observations_au")
        conn.execute("UPDATE observations SET content = '**What** rewritten' WHERE id = 2")
        conn.execute(sql)
    finally:
        conn.close()
    return path


def page(window):
    return window.observations_page


def banner(window) -> QFrame:
    found = window.findChild(QFrame, "indexHealthBanner")
    assert found is not None
    return found


def checked(qtbot, window) -> None:
    qtbot.waitUntil(lambda: not page(window).is_checking_index(), timeout=10_000)


class Gate:
    """Holds ``check_database`` of one database on its thread until released (or a timeout)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, held: Path, timeout: float = 5.0):
        self.event = threading.Event()
        self.threads: list[int] = []
        self.released: list[bool] = []
        real = ObservationStore.check_database

        def gated(store: ObservationStore):
            self.threads.append(threading.get_ident())
            if store.path == held:
                self.released.append(self.event.wait(timeout))
            return real(store)

        monkeypatch.setattr(ObservationStore, "check_database", gated)


def test_a_healthy_database_shows_no_warning(qtbot, open_window, healthy: Path) -> None:
    window = open_window(["--db", str(healthy)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)
    checked(qtbot, window)
    assert banner(window).isHidden()
    assert window.message_bar.kind != "error"


def test_a_damaged_index_gets_a_banner_that_says_what_to_do(
    qtbot, open_window, damaged: Path
) -> None:
    window = open_window(["--db", str(damaged)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)  # it opened: cheap checks pass
    checked(qtbot, window)
    assert banner(window).isVisible()
    text = banner(window).findChild(QLabel, "indexHealthText").text()
    assert "search index" in text and "damaged" in text and "rebuild" in text
    assert str(damaged) in text


def test_the_check_runs_off_the_main_thread_while_the_window_paints(
    qtbot, open_window, damaged: Path, monkeypatch
) -> None:
    gate = Gate(monkeypatch, damaged)
    window = open_window(["--db", str(damaged)])
    beats: list[int] = []
    heartbeat = QTimer(window)
    heartbeat.setInterval(10)
    heartbeat.timeout.connect(lambda: beats.append(1))
    heartbeat.start()
    # The check waits until the main thread has beaten ten times: only a check off the main
    # thread lets that happen (on it, the gate would time out instead).
    qtbot.waitUntil(lambda: len(beats) >= 10 and page(window).is_checking_index())
    gate.event.set()
    checked(qtbot, window)
    heartbeat.stop()
    assert gate.released == [True]
    assert threading.main_thread().ident not in gate.threads
    assert banner(window).isVisible()


def test_switching_database_while_it_runs_drops_the_stale_answer(
    qtbot, open_window, damaged: Path, healthy: Path, monkeypatch
) -> None:
    gate = Gate(monkeypatch, damaged)
    window = open_window(["--db", str(damaged)])
    qtbot.waitUntil(page(window).is_checking_index)
    assert window.open_database(healthy)  # the person opens another database meanwhile
    assert page(window).store.path == healthy
    gate.event.set()  # the damaged database's answer now arrives, too late
    checked(qtbot, window)
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)
    assert banner(window).isHidden()

    assert window.open_database(damaged)  # back to it: checked again, and now it shows
    checked(qtbot, window)
    assert banner(window).isVisible()
    assert window.open_database(healthy)
    assert banner(window).isHidden()  # a banner belongs to the database it was about


def test_closing_the_window_while_it_runs_waits_for_it_and_leaves_no_thread(
    qtbot, open_window, damaged: Path, monkeypatch
) -> None:
    gate = Gate(monkeypatch, damaged, timeout=0.3)
    window = open_window(["--db", str(damaged)])
    qtbot.waitUntil(lambda: bool(gate.threads))  # the check has started (after the first rows)
    window.close()  # the fixture's no_thread_left_running checks the rest
    assert gate.released == [False]  # it was still running when the window closed
    assert not page(window).is_checking_index()
