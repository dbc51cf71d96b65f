"""The review page's actions on a real window, with the agents as real processes.

A hard-deleted observation is written again from its last version through the observations
page's recreate path (the topic question asked when a live row holds its topic, undo
forgets it); marks reach the journal off the main thread (a journal file locked by someone
else never blocks the window); a write from the review page that waits for the agent's lock
shows the wait and its Cancel on the review page itself.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from memory_desk.core.journal import Change, ChangeKind, Journal, Version
from memory_desk.ui.review.writes import deleted_row
from memory_desk.ui.widgets.topic import TopicConflictDialog
from test_review_window import db, looked, rows, select_row, show_review, trigger, wait_rows
from test_ui_write_waits import HOLD_S, Holder
from window_helpers import NOW, stored_row

pytest_plugins = ["window_fixture"]  # the open_window fixture

__all__ = ["db"]  # the fixture, shared with test_review_window
WAIT_MS = 15_000


def agent(db: Path, script: str, *args: str) -> None:
    """Run ``script`` in a process of its own, with ``conn`` opened as the plugin opens it."""
    prelude = "import sys\nfrom memory_desk.core import alisio\n"
    prelude += "conn = alisio.connect_like_plugin(sys.argv[1])\n"
    result = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(script), str(db), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def review_writes_done(qtbot, window) -> None:
    qtbot.waitUntil(lambda: not window.review_page.actions.is_writing(), timeout=WAIT_MS)


def rescan(qtbot, window) -> None:
    window.journal_runner.scan_all(window.journal_runner.stores())
    looked(qtbot, window)


# -- a hard-deleted observation ---------------------------------------------------------------


def test_a_deleted_observation_is_written_again_asking_who_keeps_its_topic(
    qtbot, open_window, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = open_window(["--db", str(db)])
    looked(qtbot, window)
    # The agent deletes #1 outright, then saves another decision on its topic.
    agent(db, "conn.execute('DELETE FROM observations WHERE id = 1')")
    agent(
        db,
        """
        alisio.save_observation(conn, type="decision", title="Use Redis for the cache",
            content="Redis, for speed.", project="alpha-1a2b3c4d", topic_key="db/engine",
            session_id="chat-9")
        """,
    )
    show_review(window)
    qtbot.waitUntil(
        lambda: (
            sorted(rows(window))
            == [
                ("+ new", "#3 Use Redis for the cache"),
                ("✕ deleted", "#1 Use SQLite for the cache"),
            ]
        ),
        timeout=WAIT_MS,
    )
    select_row(window, [what for what, _title in rows(window)].index("✕ deleted"))

    asked: list[str] = []

    def answer(dialog: TopicConflictDialog) -> int:
        asked.append(dialog.findChild(QLabel, "topicConflictText").text())
        assert dialog.parent() is window.review_page  # asked where the person is
        dialog.findChild(QPushButton, "topicForgetOtherButton").click()
        return dialog.result()

    monkeypatch.setattr(TopicConflictDialog, "exec", answer)
    trigger(window, "reviewRollbackAction")
    review_writes_done(qtbot, window)
    assert len(asked) == 1 and "db/engine" in asked[0]
    row = stored_row(db, 4)
    assert row is not None and row["deleted_at"] is None
    assert (row["title"], row["content"]) == (
        "Use SQLite for the cache",
        "We keep the cache in SQLite because it is simple.",
    )
    assert (row["topic_key"], row["session_id"], row["project"]) == (
        "db/engine",
        "chat-1",
        "alpha-1a2b3c4d",
    )
    assert stored_row(db, 3)["deleted_at"] is not None  # the person's choice
    assert "Wrote #1 back as new observation #4" in window.message_bar.text()

    # The deletion is reviewed; the person's writes (#4, #3 forgotten) are never listed.
    rescan(qtbot, window)
    wait_rows(qtbot, window, [("+ new", "#3 Use Redis for the cache")])

    # Undo forgets the row written again and gives #3 its topic back.
    window.review_page.undo_stack.undo()
    review_writes_done(qtbot, window)
    qtbot.waitUntil(lambda: stored_row(db, 4)["deleted_at"] is not None, timeout=WAIT_MS)
    assert stored_row(db, 3)["deleted_at"] is None


def test_a_deleted_row_without_its_project_is_not_written_back() -> None:
    """An older journal kept no project or scope: the rollback refuses instead of guessing."""
    old = Version(title="Gone", description="", type="decision", body="text", revision=1)
    change = Change(
        id=1,
        store="/x/memory.sqlite",
        store_kind="observations",
        target="7",
        kind=ChangeKind.DELETED,
        at_ms=NOW,
        seen_ms=NOW,
        agent="Alisio",
        chat="chat-1",
        old=old,
        new=None,
        reviewed=False,
    )
    assert deleted_row(change) is None


# -- marks, off the main thread ---------------------------------------------------------------


def test_marking_reviewed_never_waits_for_the_journal_file(qtbot, open_window, db: Path) -> None:
    window = open_window(["--db", str(db)])
    looked(qtbot, window)
    agent(
        db,
        """
        alisio.save_observation(conn, type="decision", title="Alpha", content="first",
            project="alpha-1a2b3c4d")
        """,
    )
    show_review(window)
    wait_rows(qtbot, window, [("+ new", "#3 Alpha")])
    select_row(window, 0)

    # Someone else holds the journal file's write lock (a long scan, a backup tool).
    holder = sqlite3.connect(Journal.default_path(), timeout=0, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        trigger(window, "reviewMarkReviewedAction")
        assert rows(window) == []  # shown at once
        assert "Marked 1 change reviewed" in window.message_bar.text()
        assert window.journal_runner.journal.pending_count() == 1  # not written yet
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    qtbot.waitUntil(lambda: window.journal_runner.journal.pending_count() == 0, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "to review" not in window.windowTitle(), timeout=WAIT_MS)
    assert not window.review_page.problem.isVisible()


# -- a write waiting for the agent ------------------------------------------------------------


def test_a_pin_waiting_for_the_agent_shows_on_the_review_page_and_cancels(
    qtbot, open_window, db: Path
) -> None:
    window = open_window(["--db", str(db)])
    looked(qtbot, window)
    agent(
        db,
        """
        alisio.save_observation(conn, type="decision", title="Alpha", content="first",
            project="alpha-1a2b3c4d")
        """,
    )
    page = show_review(window)
    wait_rows(qtbot, window, [("+ new", "#3 Alpha")])
    select_row(window, 0)

    holder = Holder(db, HOLD_S)
    holder.wait_locked(qtbot)
    trigger(window, "reviewPinAction")
    banner = page.findChild(QWidget, "reviewWriteWaitBanner")
    qtbot.waitUntil(banner.isVisible, timeout=WAIT_MS)
    assert window.pages.currentWidget() is page  # the person stays where they acted
    text = page.findChild(QLabel, "reviewWriteWaitText").text()
    assert "Waiting for the agent" in text and "Pin" in text
    assert not window.observations_page.write_banner.isVisible()

    cancel = page.findChild(QPushButton, "reviewCancelWriteButton")
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    review_writes_done(qtbot, window)
    assert not banner.isVisible()
    assert "nothing was written" in window.message_bar.text()
    holder.release()
    holder.finish(qtbot)
    assert stored_row(db, 3)["pinned"] == 0
    assert window.review_page.undo_stack.count() == 0

    trigger(window, "reviewPinAction")  # the agent is done: the pin goes through
    review_writes_done(qtbot, window)
    qtbot.waitUntil(lambda: stored_row(db, 3)["pinned"] == 1, timeout=WAIT_MS)


# -- every field rolled back ------------------------------------------------------------------


def test_a_rollback_puts_back_every_field_of_the_earlier_version(
    qtbot, open_window, db: Path
) -> None:
    """The agent's revision changed #1's type with its title and content: the rollback
    puts the earlier type back too, and the row reads as it did before."""
    window = open_window(["--db", str(db)])
    looked(qtbot, window)
    agent(
        db,
        """
        alisio.save_observation(conn, type="bugfix", title="Use Redis for the cache",
            content="Redis, for speed.", project="alpha-1a2b3c4d", topic_key="db/engine",
            session_id="chat-9")
        """,
    )
    show_review(window)
    wait_rows(qtbot, window, [("± revised", "#1 Use Redis for the cache")])
    select_row(window, 0)
    trigger(window, "reviewRollbackAction")
    review_writes_done(qtbot, window)
    qtbot.waitUntil(
        lambda: stored_row(db, 1)["title"] == "Use SQLite for the cache", timeout=WAIT_MS
    )
    row = stored_row(db, 1)
    assert (row["type"], row["content"], row["topic_key"]) == (
        "decision",
        "We keep the cache in SQLite because it is simple.",
        "db/engine",
    )
    rescan(qtbot, window)
    wait_rows(qtbot, window, [])  # the rollback is the person's write
