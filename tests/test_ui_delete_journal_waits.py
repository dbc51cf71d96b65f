"""A database in rollback-journal (``DELETE``) mode gives way as a WAL one does.

The plugin keeps ``memory.sqlite`` in WAL mode, where readers never wait for the agent's write
lock; but a file another writer switched to ``journal_mode=DELETE`` makes *readers* wait too
while the agent holds ``EXCLUSIVE`` (or commits). A real second process holds that lock for
``HOLD_S`` seconds while the person pins a row in the real window (driven by object names); a
heartbeat ``QTimer`` (every 10 ms) records the longest gap of the event loop. The window
must keep painting: the pin waits off the main thread, and what the page reads afterwards
waits for the lock off the main thread too. The pin lands once the agent lets go.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from heartbeat import Heartbeat
from memory_desk.ui import warm_up
from memory_desk.ui.observations.model import Column
from window_helpers import make_database, table, writes_done

pytest_plugins = ["window_fixture"]

HOLD_S = 2.0
ATTEMPTS = 3
STALL_LIMIT_S = 0.100
NOISE_LIMIT_S = 0.250
WAIT_MS = 30_000
TITLES = ("First note", "Second note", "Third note")

# The agent in a long save on a rollback-journal database: it holds EXCLUSIVE (readers wait
# too) until the hold is over.
_HOLDER = """
import sqlite3, sys, time
from pathlib import Path
db, hold_s, locked, end = sys.argv[1], float(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
conn = sqlite3.connect(db, isolation_level=None)
conn.execute("PRAGMA busy_timeout = 5000")
conn.execute("BEGIN EXCLUSIVE")
conn.execute("UPDATE observations SET access_count = access_count + 1 WHERE id = 1")
locked.write_text("locked")
time.sleep(hold_s)
conn.execute(end)
conn.close()
"""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = make_database(tmp_path / "memory.sqlite", TITLES)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"
    finally:
        conn.close()
    return path


def settle(qtbot) -> None:
    """The window's held-back imports (a minute after a real start, long done) are not
    measured: they hold the interpreter on a thread of their own."""
    qtbot.waitUntil(
        lambda: all(t.name != warm_up.THREAD_NAME for t in threading.enumerate()),
        timeout=WAIT_MS,
    )


def pinned(db: Path, oid: int) -> int:
    conn = sqlite3.connect(db, timeout=10)
    try:
        return conn.execute("SELECT pinned FROM observations WHERE id = ?", (oid,)).fetchone()[0]
    finally:
        conn.close()


def select(qtbot, window, oid: int) -> None:
    view = table(window)
    index = view.model().index(view.model().row_of(oid), Column.TITLE)
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center()
    )
    assert window.observations_page.selected_ids() == [oid]


def pin_while_the_agent_holds_the_lock(qtbot, window, db: Path, oid: int) -> float:
    """Pin ``oid`` while a second process holds EXCLUSIVE; the longest stall meanwhile."""
    page = window.observations_page
    select(qtbot, window, oid)
    was = pinned(db, oid)
    locked = db.parent / f"locked-{time.monotonic_ns()}"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(db), str(HOLD_S), str(locked), "COMMIT"],
        stderr=subprocess.PIPE,
        text=True,
    )
    qtbot.waitUntil(locked.exists, timeout=WAIT_MS)
    heartbeat = Heartbeat(window).start()
    pin = page.findChild(QAbstractButton, "pinButton")
    qtbot.mouseClick(pin, Qt.MouseButton.LeftButton)
    # The person is told the write waits for the agent.
    qtbot.waitUntil(lambda: page.findChild(QWidget, "writeWaitBanner").isVisible())
    assert "Waiting for the agent" in page.findChild(QLabel, "writeWaitText").text()
    qtbot.waitUntil(lambda: holder.poll() is not None, timeout=WAIT_MS)
    writes_done(window)
    qtbot.waitUntil(lambda: not page.is_busy(), timeout=WAIT_MS)
    qtbot.wait(200)
    longest = heartbeat.stop()
    assert holder.returncode == 0, holder.stderr.read()
    holder.stderr.close()
    assert pinned(db, oid) == (not was)  # the pin landed once the agent let go
    told = "Unpinned 1 observation" if was else "Pinned 1 observation"
    assert window.message_bar.text() == told  # and the person is told
    return longest


def test_a_pin_on_a_delete_mode_database_waits_for_the_agent_without_freezing(
    qtbot, open_window, db: Path
) -> None:
    """Best of up to three pins (a shared machine can add a stray gap to any single one)."""
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == len(TITLES), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.observations_page.is_busy(), timeout=WAIT_MS)
    settle(qtbot)
    stalls: list[float] = []
    for _attempt in range(ATTEMPTS):
        stalls.append(pin_while_the_agent_holds_the_lock(qtbot, window, db, 2))
        print(f"\npin with the lock held {HOLD_S:g} s (DELETE mode): {stalls[-1] * 1000:.0f} ms")
        if stalls[-1] < STALL_LIMIT_S:
            break
    assert min(stalls) < STALL_LIMIT_S, f"the window froze for {[round(s * 1000) for s in stalls]}"


# The agent saving 50 times a second as the plugin does, on its own connection, without
# switching the file back to WAL (connect_like_plugin would).
_SAVER = """
import sqlite3, sys, time
from pathlib import Path
from memory_desk.core import alisio
db, seconds, started = sys.argv[1], float(sys.argv[2]), Path(sys.argv[3])
conn = sqlite3.connect(db, isolation_level=None)
conn.execute("PRAGMA busy_timeout = 5000")
started.write_text("saving")
end = time.monotonic() + seconds
n = 0
while time.monotonic() < end:
    alisio.save_observation(
        conn, title=f"Agent note {n}", content=f"**What** change {n}", type="discovery",
        project="agent-0badc0de",
    )
    n += 1
    time.sleep(0.017)
assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
conn.close()
print(n)
"""


def test_pins_on_a_delete_mode_database_while_the_agent_saves_50_a_second_never_freeze(
    qtbot, open_window, db: Path
) -> None:
    """Every agent commit locks readers out for a moment in DELETE mode: the page's reads on
    the window's thread, which wait only briefly for the lock, must not turn those moments
    into errors or lost pins. Best of up to three runs, one stray gap tolerated (see
    tests/test_ui_write_waits.py)."""
    window = open_window(["--db", str(db)])
    page = window.observations_page
    qtbot.waitUntil(lambda: table(window).model().rowCount() == len(TITLES), timeout=WAIT_MS)
    settle(qtbot)
    runs: list[list[int]] = []
    for attempt in range(ATTEMPTS):
        started = db.parent / f"saving-{attempt}"
        agent = subprocess.Popen(
            [sys.executable, "-c", _SAVER, str(db), "3", str(started)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        qtbot.waitUntil(started.exists, timeout=WAIT_MS)
        was = pinned(db, 2)
        errors: list[str] = []
        page.error_raised.connect(errors.append)
        heartbeat = Heartbeat(window).start()
        pins = 0
        while agent.poll() is None:
            select(qtbot, window, 2)
            qtbot.mouseClick(
                page.findChild(QAbstractButton, "pinButton"), Qt.MouseButton.LeftButton
            )
            writes_done(window, timeout_s=30)
            pins += 1
            qtbot.wait(50)
        longest = heartbeat.stop()
        out, err = agent.communicate(timeout=60)
        assert agent.returncode == 0, err
        gaps = [round(gap * 1000) for gap in heartbeat.gaps]
        print(
            f"\nDELETE mode, {out.strip()} agent saves, {pins} pins: longest stall"
            f" {longest * 1000:.0f} ms; gaps over 50 ms: {gaps}"
        )
        assert pins > 0
        page.error_raised.disconnect(errors.append)
        assert errors == []
        assert pinned(db, 2) == was ^ (pins % 2)  # every pin landed
        over = [gap for gap in gaps if gap >= STALL_LIMIT_S * 1000]
        runs.append(over)
        if longest < NOISE_LIMIT_S and len(over) <= 1:
            return
    raise AssertionError(f"the event loop stalled over 100 ms in every run: {runs} ms")


def test_a_row_selected_while_the_agent_holds_the_lock_shows_once_it_lets_go(
    qtbot, open_window, db: Path
) -> None:
    """The read of the row the person selected is refused while the agent holds EXCLUSIVE;
    it is tried again until it succeeds, even when the agent rolls back (no commit, so no
    live reload would bring it), and no error is shown for it."""
    window = open_window(["--db", str(db)])
    page = window.observations_page
    qtbot.waitUntil(lambda: table(window).model().rowCount() == len(TITLES), timeout=WAIT_MS)
    select(qtbot, window, 1)
    title = page.findChild(QLabel, "observationTitle")
    qtbot.waitUntil(lambda: title.text() == TITLES[0], timeout=WAIT_MS)
    errors: list[str] = []
    page.error_raised.connect(errors.append)
    locked = db.parent / "locked-rollback"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(db), str(HOLD_S), str(locked), "ROLLBACK"],
        stderr=subprocess.PIPE,
        text=True,
    )
    qtbot.waitUntil(locked.exists, timeout=WAIT_MS)
    heartbeat = Heartbeat(window).start()
    select(qtbot, window, 3)
    qtbot.waitUntil(lambda: holder.poll() is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: title.text() == TITLES[2], timeout=WAIT_MS)
    longest = heartbeat.stop()
    holder.stderr.close()
    print(f"\nselecting while the lock is held {HOLD_S:g} s (DELETE mode): {longest * 1000:.0f} ms")
    assert holder.returncode == 0
    assert errors == []
    assert longest < NOISE_LIMIT_S
