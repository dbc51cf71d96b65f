"""The window never freezes while the agent saves 50 times a second and the person prunes.

A real second process plays the plugin (``tests/agents/alisio_agent.py``: topic upserts and
duplicates included) while the person works in the real window by object names: on the
Pruning assistant they forget the proposed rows and undo it, on the Observations page they pin
and unpin a row, going back and forth. Every agent commit reaches the observations model, the
sidebar's counts, the review desk, the overview and the pruning page at once. A heartbeat
``QTimer`` (every 10 ms) records the longest gap of the event loop: the freeze the person
would feel.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QTableView, QWidget

from heartbeat import Heartbeat
from memory_desk.core import alisio
from memory_desk.ui import warm_up
from memory_desk.ui.observations.model import Column
from window_helpers import NOW

pytest_plugins = ["window_fixture"]

AGENT = Path(__file__).parent / "agents" / "alisio_agent.py"
SECONDS = 4.0
RATE = 50
ROWS = 400
DAY = 86_400_000
WAIT_MS = 30_000
ATTEMPTS = 3
STALL_LIMIT_S = 0.100


def make_database(path: Path) -> Path:
    """Rows the plugin saved over months, a few of them saved twice (duplicates to prune)."""
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    try:
        for n in range(ROWS):
            content = f"**What** note {n % (ROWS - 40)} about the cache and its retries"
            alisio.save_observation(
                conn,
                title=f"Note {n}",
                content=content,
                type="decision",
                project="alpha-1a2b3c4d",
                session_id="person",
                now=NOW - (ROWS - n) * DAY // 4,
            )
    finally:
        conn.close()
    return path


def start_agent(db: Path, go: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            str(AGENT),
            "--db",
            str(db),
            "--count",
            str(int(SECONDS * RATE)),
            "--interval-ms",
            f"{1000 / RATE - 3:.2f}",
            "--topic-every",
            "3",
            "--topics",
            "4",
            "--duplicate-every",
            "5",
            "--seed",
            "11",
            "--go-file",
            str(go),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def warming_up() -> threading.Thread | None:
    return next((t for t in threading.enumerate() if t.name == warm_up.THREAD_NAME), None)


def press(qtbot, page: QWidget, name: str) -> None:
    button = page.findChild(QAbstractButton, name)
    assert button is not None, name
    qtbot.waitUntil(button.isEnabled, timeout=WAIT_MS)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def prune_once(qtbot, window) -> None:
    """Forget what the assistant proposes (when it proposes anything), then undo it."""
    page = window.pruning_page
    window.show_page("pruning")
    qtbot.waitUntil(lambda: page.findings is not None and not page.is_writing(), timeout=WAIT_MS)
    stack = page.undo_stack
    index = stack.index()
    press(qtbot, page, "pruningCheckAll")  # (nothing is checked until the person chooses)
    if page.tree.checked_keys():
        press(qtbot, page, "pruningApplyButton")
        qtbot.waitUntil(lambda: stack.index() == index + 1, timeout=WAIT_MS)
        qtbot.waitUntil(lambda: not page.is_writing(), timeout=WAIT_MS)
        stack.undo()
        qtbot.waitUntil(lambda: not page.is_writing(), timeout=WAIT_MS)


def pin_once(qtbot, window) -> None:
    """Pin the first row of the Observations page, and unpin it."""
    page = window.observations_page
    window.show_page("observations")
    view = window.findChild(QTableView, "observationsTable")
    qtbot.waitUntil(lambda: page.model.rowCount() > 0, timeout=WAIT_MS)
    index = view.model().index(0, Column.TITLE)
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center()
    )
    for _ in range(2):
        press(qtbot, page, "pinButton")
        qtbot.waitUntil(lambda: not page.is_writing(), timeout=WAIT_MS)


def run_round_trips(qtbot, window, db: Path, tmp_path: Path) -> tuple[float, list[int]]:
    """The agent saves for ``SECONDS`` while the person prunes and pins; the longest stall and
    every gap over 50 ms (ms). Every save of the agent must have gone in."""
    go = tmp_path / f"go-{len(list(tmp_path.iterdir()))}"
    agent = start_agent(db, go)
    heartbeat = Heartbeat(window).start()
    go.write_text("go")
    rounds = 0
    while agent.poll() is None:
        prune_once(qtbot, window)
        pin_once(qtbot, window)
        rounds += 1
    qtbot.wait(500)
    longest = heartbeat.stop()
    out, err = agent.communicate(timeout=60)
    summary = json.loads(out.strip().splitlines()[-1])
    gaps = [round(gap * 1000) for gap in heartbeat.gaps]
    print(
        f"\nagent: {summary['saved']} saves; person: {rounds} rounds;"
        f" longest stall {longest * 1000:.1f} ms; gaps over 50 ms: {gaps}"
    )
    assert agent.returncode == 0 and not summary["errors"], err
    assert summary["saved"] == int(SECONDS * RATE)
    assert rounds > 0
    return longest, gaps


def test_pruning_while_the_agent_saves_50_a_second_never_freezes(
    qtbot, open_window, tmp_path: Path
) -> None:
    """No stall of 100 ms or more in a run: best of up to three runs (a two-core machine
    shared with other work can lose one run to a stall that is not the window's). The
    old pages stalled over 100 ms 8 to 14 times a run (each commit searched again, back to
    back, and rebuilt the whole tree)."""
    db = make_database(tmp_path / "memory.sqlite")
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: window.observations_page.model.rowCount() > 0, timeout=WAIT_MS)
    prune_once(qtbot, window)
    # The window's start-up (its held-back imports and pages, the journal's first look: in a
    # real start long done before a person prunes) is not measured.
    startup = window.startup
    qtbot.waitUntil(lambda: startup.done and not startup.held_back, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: warming_up() is None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.journal_runner.is_busy(), timeout=WAIT_MS)
    runs: list[float] = []
    for _attempt in range(ATTEMPTS):
        longest, _gaps = run_round_trips(qtbot, window, db, tmp_path)
        runs.append(round(longest * 1000))
        if longest < STALL_LIMIT_S:
            return
    raise AssertionError(f"the event loop stalled 100 ms or more in every run: {runs} ms")
