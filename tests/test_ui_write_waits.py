"""The window never freezes on a write: while the agent holds the write lock, a pin, forget or
edit waits in the background, visibly, and can be cancelled.

A real second process opens the database as the plugin does and holds ``BEGIN EXCLUSIVE``
(for ``MEMORY_DESK_HOLD_S`` seconds, 10 by default, the issue's figure), while the
person drives the real window by object names. A QTimer firing every 10 ms records the
longest gap between two of its beats: the longest time the event loop could not run. The
old writes ran on the main thread and waited there for the lock, a gap of seconds.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton, QWidget

from heartbeat import Heartbeat
from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore, WriteCancelled, WriteWait
from memory_desk.ui.observations.model import Column
from window_helpers import make_database, table, writes_done

pytest_plugins = ["window_fixture"]  # the open_window fixture

HOLD_S = float(os.environ.get("MEMORY_DESK_HOLD_S", "10"))
STALL_LIMIT_S = 0.100
NOISE_LIMIT_S = 0.250
TITLES = ("First note", "Second note", "Third note", "Fourth note", "Fifth note")

# The agent in the middle of a long save: the plugin's connection holds the write lock
# until the hold is over or the test creates the release file.
_HOLDER = """
import sys, time
from pathlib import Path
from memory_desk.core import alisio
db, hold_s, locked, release = sys.argv[1], float(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
conn = alisio.connect_like_plugin(db)
conn.execute("BEGIN EXCLUSIVE")
locked.write_text("locked")
end = time.monotonic() + hold_s
while time.monotonic() < end and not release.exists():
    time.sleep(0.005)
conn.execute("COMMIT")
conn.close()
"""


class Holder:
    """A second process holding the database's write lock (see ``_HOLDER``)."""

    def __init__(self, db: Path, hold_s: float) -> None:
        folder = db.parent
        self.locked = folder / f"locked-{time.monotonic_ns()}"
        self.release_file = folder / f"release-{time.monotonic_ns()}"
        self.process = subprocess.Popen(
            [sys.executable, "-c", _HOLDER, str(db), str(hold_s), self.locked, self.release_file],
            stderr=subprocess.PIPE,
            text=True,
        )

    def wait_locked(self, qtbot) -> None:
        """Wait (the event loop running) until the lock is held."""
        qtbot.waitUntil(lambda: self.locked.exists(), timeout=20_000)

    def holding(self) -> bool:
        return self.process.poll() is None

    def release(self) -> None:
        self.release_file.write_text("go")

    def finish(self, qtbot) -> None:
        qtbot.waitUntil(lambda: not self.holding(), timeout=int(HOLD_S * 1000) + 20_000)
        assert self.process.returncode == 0, self.process.stderr.read()
        self.process.stderr.close()


def read(db: Path, sql: str, params: tuple = ()) -> list[tuple]:
    """A read-only look at the file, which never waits for the holder (WAL)."""
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def column(db: Path, name: str, oid: int):
    return read(db, f"SELECT {name} FROM observations WHERE id = ?", (oid,))[0][0]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_database(tmp_path / "memory.sqlite", TITLES)


@pytest.fixture
def window(open_window, qtbot, db: Path):
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == len(TITLES))
    return window


def page(window):
    return window.observations_page


def banner(window) -> QWidget:
    return page(window).findChild(QWidget, "writeWaitBanner")


def select(qtbot, window, oid: int) -> None:
    view = table(window)
    index = view.model().index(view.model().row_of(oid), Column.TITLE)
    view.scrollTo(index)
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center()
    )
    assert page(window).selected_ids() == [oid]


def press(qtbot, window, name: str) -> None:
    widget = page(window).findChild(QWidget, name)
    assert widget is not None and widget.isVisible() and widget.isEnabled(), name
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def waiting(qtbot, window) -> None:
    """The write has found the lock taken and says so."""
    qtbot.waitUntil(lambda: banner(window).isVisible())
    text = page(window).findChild(QLabel, "writeWaitText").text()
    assert "Waiting for the agent" in text


# -- the measured scenario -----------------------------------------------------------------------


def test_pin_forget_and_edit_wait_for_the_agent_and_the_window_never_freezes(
    qtbot, window, db: Path
) -> None:
    heartbeat = Heartbeat().start()
    search = page(window).findChild(QLineEdit, "observationsSearch")

    # The agent holds the lock: the pin waits, visibly; the window searches meanwhile.
    holder = Holder(db, HOLD_S)
    holder.wait_locked(qtbot)
    select(qtbot, window, 2)
    press(qtbot, window, "pinButton")
    waiting(qtbot, window)
    assert "Pin 1 observation" in page(window).findChild(QLabel, "writeWaitText").text()
    qtbot.keyClicks(search, "third")
    qtbot.waitUntil(lambda: table(window).model().ids() == [3] and not page(window).is_busy())
    search.clear()
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 5 and not page(window).is_busy())
    # One write at a time: a second one is refused, with a word, and writes nothing.
    select(qtbot, window, 4)
    press(qtbot, window, "forgetButton")
    assert "still waiting for the agent" in window.message_bar.text()
    assert holder.holding() and page(window).is_writing()
    assert column(db, "pinned", 2) == 0 and column(db, "deleted_at", 4) is None
    holder.finish(qtbot)
    writes_done(window)
    assert column(db, "pinned", 2) == 1  # written once the agent let go
    assert not banner(window).isVisible()
    assert window.message_bar.text() == "Pinned 1 observation"
    assert window.undo_stack.count() == 1

    # Again: a forget waits, and Cancel writes nothing and says so.
    holder = Holder(db, HOLD_S)
    holder.wait_locked(qtbot)
    select(qtbot, window, 4)
    press(qtbot, window, "forgetButton")
    waiting(qtbot, window)
    press(qtbot, window, "cancelWriteButton")
    writes_done(window)
    assert column(db, "deleted_at", 4) is None
    assert "nothing was written" in window.message_bar.text()
    assert window.message_bar.kind == "info"
    assert window.undo_stack.count() == 1  # the cancelled forget never reached the stack
    assert not banner(window).isVisible()

    # Still held: an edit waits too, the form open, and is saved once the agent is done.
    select(qtbot, window, 3)
    press(qtbot, window, "editButton")
    window.findChild(QLineEdit, "editTitle").setText("Third note, by hand")
    press(qtbot, window, "saveEditButton")
    waiting(qtbot, window)
    assert window.findChild(QLineEdit, "editTitle").isVisible()
    assert column(db, "title", 3) == "Third note"
    holder.finish(qtbot)
    writes_done(window)
    assert column(db, "title", 3) == "Third note, by hand"
    assert not window.findChild(QLineEdit, "editTitle").isVisible()
    assert window.undo_stack.count() == 2

    longest = heartbeat.stop()
    print(f"\nlongest event-loop stall with the lock held {HOLD_S:g} s: {longest * 1000:.1f} ms")
    # A busy CI machine can deschedule the process once in 20 s; one such stray gap (under
    # NOISE_LIMIT_S) is tolerated. The old synchronous writes froze for seconds at each write.
    over = [round(gap * 1000) for gap in heartbeat.gaps if gap >= STALL_LIMIT_S]
    assert longest < NOISE_LIMIT_S and len(over) <= 1, f"the event loop stalled {over} ms"


# -- undo, failures, closing ---------------------------------------------------------------------


def test_an_undo_waits_too_and_cancel_keeps_it_on_offer(qtbot, window, db: Path) -> None:
    select(qtbot, window, 2)
    press(qtbot, window, "forgetButton")
    writes_done(window)
    assert column(db, "deleted_at", 2) is not None
    undo = window.findChild(QAction, "undoAction")

    holder = Holder(db, 30)
    holder.wait_locked(qtbot)
    undo.trigger()
    waiting(qtbot, window)
    assert "Undo “Forget 1 observation”" in page(window).findChild(QLabel, "writeWaitText").text()
    press(qtbot, window, "cancelWriteButton")
    writes_done(window)
    assert column(db, "deleted_at", 2) is not None
    assert "Nothing was undone (you cancelled)" in window.message_bar.text()
    qtbot.waitUntil(lambda: window.undo_stack.index() == 1)
    assert window.undo_stack.undoText() == "Forget 1 observation"

    undo.trigger()  # again, and this time the agent lets go
    waiting(qtbot, window)
    holder.release()
    holder.finish(qtbot)
    writes_done(window)
    assert column(db, "deleted_at", 2) is None
    assert window.undo_stack.index() == 0 and window.undo_stack.redoText() == "Forget 1 observation"


def test_an_undo_that_fails_in_the_background_leaves_the_stack(qtbot, window, db: Path) -> None:
    select(qtbot, window, 1)
    press(qtbot, window, "editButton")
    window.findChild(QLineEdit, "editTitle").setText("Mine")
    press(qtbot, window, "saveEditButton")
    writes_done(window)
    assert column(db, "title", 1) == "Mine" and window.undo_stack.count() == 1
    conn = alisio.connect_like_plugin(db)  # the agent revises the row since
    conn.execute("UPDATE observations SET title = 'Theirs', revision_count = 3 WHERE id = 1")
    conn.close()

    window.findChild(QAction, "undoAction").trigger()
    writes_done(window)
    assert column(db, "title", 1) == "Theirs"
    assert window.message_bar.kind == "error"
    assert window.undo_stack.count() == 0  # dropped, as a failed synchronous undo was


def test_keyboard_triage_moves_on_once_each_write_is_done(qtbot, window, db: Path) -> None:
    """Delete, Delete: each press forgets the current row; once its write is done, the row
    below it is current and selected, so the next press goes on with it."""
    view = table(window)
    select(qtbot, window, 4)  # rows newest first: 5, 4, 3, 2, 1
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    for current, below in ((4, 3), (3, 2)):
        qtbot.keyClick(view, Qt.Key.Key_Delete)
        writes_done(window)
        assert column(db, "deleted_at", current) is not None
        qtbot.waitUntil(lambda: current not in view.model().ids())  # noqa: B023 (this pass)
        assert view.currentIndex().data(Qt.ItemDataRole.UserRole) == below
        assert page(window).selected_ids() == [below]
    assert window.undo_stack.count() == 2


def test_closing_the_window_gives_up_a_waiting_write_at_once(qtbot, open_window, db: Path) -> None:
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == len(TITLES))
    holder = Holder(db, 30)
    holder.wait_locked(qtbot)
    select(qtbot, window, 5)
    press(qtbot, window, "pinButton")
    waiting(qtbot, window)
    started = time.perf_counter()
    window.close()
    closing_s = time.perf_counter() - started
    holder.release()
    holder.finish(qtbot)
    assert closing_s < 1.0, f"closing waited {closing_s:.2f} s for the agent"
    assert column(db, "pinned", 5) == 0


def test_the_topic_question_is_asked_on_the_window_while_the_write_waits_on_its_thread(
    qtbot, window, db: Path, monkeypatch
) -> None:
    """The question comes from the worker, is asked by the main thread, and its answer goes
    back to the waiting write (here: the person cancels, so nothing is written)."""
    from memory_desk.ui.widgets.topic import TopicConflictDialog

    conn = alisio.connect_like_plugin(db)
    conn.execute("UPDATE observations SET topic_key = 'auth/lock' WHERE id IN (1, 2)")
    conn.execute("UPDATE observations SET deleted_at = 1 WHERE id = 1")
    conn.close()
    asked_on: list[bool] = []

    def answer(dialog: TopicConflictDialog) -> int:
        asked_on.append(threading.current_thread() is threading.main_thread())
        dialog.findChild(QPushButton, "topicCancelButton").click()
        return dialog.result()

    monkeypatch.setattr(TopicConflictDialog, "exec", answer)
    window.findChild(QWidget, "showForgottenFilter").setChecked(True)
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 5 and not page(window).is_busy())
    select(qtbot, window, 1)
    press(qtbot, window, "restoreButton")
    writes_done(window)
    assert asked_on == [True]
    assert column(db, "deleted_at", 1) == 1
    assert "Nothing was restored" in window.message_bar.text()
    assert window.undo_stack.count() == 0


# -- the core's side: a WriteWait ----------------------------------------------------------------


def test_a_waiting_store_write_can_be_cancelled_until_it_holds_the_lock(qtbot, db: Path) -> None:
    store = ObservationStore(db)
    holder = Holder(db, 30)
    holder.wait_locked(qtbot)
    wait = WriteWait()
    outcome: list[object] = []

    def write() -> None:
        try:
            with wait:
                outcome.append(store.pin([1]))
        except WriteCancelled as exc:
            outcome.append(exc)

    worker = threading.Thread(target=write)
    worker.start()
    qtbot.waitUntil(lambda: wait.waited)
    assert wait.cancel()
    worker.join(5)
    holder.release()
    holder.finish(qtbot)
    assert isinstance(outcome[0], WriteCancelled)
    assert column(db, "pinned", 1) == 0

    done = WriteWait()
    with done:
        store.pin([1])
    assert not done.cancel()  # written: too late to cancel
    store.close()
    assert column(db, "pinned", 1) == 1
