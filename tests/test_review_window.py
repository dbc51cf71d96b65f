"""The "Since you last looked" page on a real window, with the agents as real processes.

An agent process writes the database and a persona folder while the window is closed (the
journal's scan at the next start finds it) and while it is open (live); ``reviewList`` lists
exactly those changes, newest first, never the person's own writes; ``reviewDiff`` shows both
versions; rollback puts the previous text back (read on a fresh connection, or by the core's
persona reader, as the agent reads it) and undo brings the agent's text back.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QTextEdit,
    QTreeWidget,
    QWidget,
)

from memory_desk.core.journal import Journal
from memory_desk.core.persona import PersonaFolder
from memory_desk.core.word_diff import ADDED, REMOVED
from memory_desk.ui.widgets.side_by_side import marked_runs
from test_ui_persona import write_entry
from window_helpers import NOW, agent_save, stored_row, writes_done

pytest_plugins = ["window_fixture"]  # the open_window fixture

PERSONA_AGENT = Path(__file__).parent / "agents" / "persona_agent.py"
WAIT_MS = 15_000


# -- the agents -------------------------------------------------------------------------------


def agent_saves(db: Path, *saves: dict) -> None:
    """The plugin's ``memory_save``, in a process of its own, once per dict of values."""
    script = textwrap.dedent(
        """
        import json, sys
        from memory_desk.core import alisio
        conn = alisio.connect_like_plugin(sys.argv[1])
        for values in json.loads(sys.argv[2]):
            values.setdefault("type", "decision")
            values.setdefault("project", "alpha-1a2b3c4d")
            alisio.save_observation(conn, **values)
        conn.close()
        """
    )
    import json

    result = subprocess.run(
        [sys.executable, "-c", script, str(db), json.dumps(list(saves))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def persona_agent(folder: Path, name: str, description: str, body: str) -> None:
    result = subprocess.run(
        [sys.executable, str(PERSONA_AGENT), str(folder), name, "feedback", description, body],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr


# -- the window -------------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Two rows: #1 on the topic "db/engine", #2 without a topic."""
    path = tmp_path / "memory.sqlite"
    from memory_desk.core import alisio

    alisio.create_database(path)
    agent_save(
        path,
        title="Use SQLite for the cache",
        content="We keep the cache in SQLite because it is simple.",
        topic_key="db/engine",
        session_id="chat-1",
        now=NOW,
    )
    agent_save(path, title="Tabs for indentation", content="Indent with tabs.", now=NOW + 1)
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / ".miyagi" / "memory"
    path.mkdir(parents=True)
    write_entry(
        path,
        "no-fish-puns",
        "Dislikes puns about fish",
        type="feedback",
        body="Never tell fish puns.",
    )
    write_entry(path, "likes-tea", "Drinks green tea", body="Green tea, no sugar.")
    return path


def child(parent: QWidget, kind, name: str):
    found = parent.findChild(kind, name)
    assert found is not None, name
    return found


def looked(qtbot, window) -> None:
    """The journal's first look is done and its list is shown."""
    qtbot.waitUntil(lambda: window.review.started, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.journal_runner.is_busy(), timeout=WAIT_MS)


def rows(window) -> list[tuple[str, str]]:
    """(what happened, title or entry) per row of reviewList, top to bottom."""
    model = child(window, QAbstractItemView, "reviewList").model()
    return [(model.index(r, 1).data(), model.index(r, 2).data()) for r in range(model.rowCount())]


def wait_rows(qtbot, window, expected: list[tuple[str, str]]) -> None:
    qtbot.waitUntil(lambda: rows(window) == expected, timeout=WAIT_MS)


def show_review(window) -> QWidget:
    child(window, QAction, "showReviewAction").trigger()
    return child(window, QWidget, "reviewPage")


def select_row(window, row: int) -> None:
    view = child(window, QAbstractItemView, "reviewList")
    view.setCurrentIndex(view.model().index(row, 0))


def diff_sides(qtbot, window) -> tuple[QTextEdit, QTextEdit]:
    qtbot.waitUntil(lambda: not window.review_page.diff.is_busy(), timeout=WAIT_MS)
    diff = child(window, QWidget, "reviewDiff")
    return child(diff, QTextEdit, "reviewDiffOld"), child(diff, QTextEdit, "reviewDiffNew")


def trigger(window, name: str) -> None:
    action = child(window, QAction, name)
    assert action.isEnabled(), name
    action.trigger()


# -- observations -----------------------------------------------------------------------------


def test_changes_made_while_closed_are_listed_once_newest_first_and_roll_back(
    qtbot, open_window, db: Path
) -> None:
    first = open_window(["--db", str(db)])
    looked(qtbot, first)  # the baseline: nothing is listed for what was there before
    assert rows(first) == []
    first.close()
    first.shutdown()

    agent_saves(
        db,
        {
            "title": "Use Postgres for the cache",
            "content": "We keep the cache in Postgres because it scales.",
            "topic_key": "db/engine",
            "session_id": "chat-2",
            "now": NOW + 60_000,
        },
        {
            "title": "Prefer small commits",
            "content": "Commit often.",
            "session_id": "chat-2",
            "now": NOW + 120_000,
        },
    )
    window = open_window(["--db", str(db)])
    show_review(window)
    wait_rows(
        qtbot,
        window,
        [("+ new", "#3 Prefer small commits"), ("± revised", "#1 Use Postgres for the cache")],
    )
    assert "2 changes to review" in window.windowTitle()
    tree = child(window, QTreeWidget, "sourcesList")
    assert tree.topLevelItem(0).child(0).text(2) == "✱2"

    # the person's own pin (in the window) is not the agent's: nothing new is listed
    window.show_observation(2)
    qtbot.waitUntil(lambda: window.observations_page.detail.shown_id == 2, timeout=WAIT_MS)
    window.observations_page.pin_action.trigger()
    writes_done(window)
    qtbot.waitUntil(lambda: stored_row(db, 2)["pinned"] == 1, timeout=WAIT_MS)
    window.journal_runner.scan_all(window.journal_runner.stores())
    looked(qtbot, window)
    show_review(window)
    assert len(rows(window)) == 2

    # the diff: the words the agent removed, and the words it added
    select_row(window, 1)
    old, new = diff_sides(qtbot, window)
    assert "Use SQLite for the cache" in old.toPlainText()
    assert "Use Postgres for the cache" in new.toPlainText()
    assert "SQLite" in marked_runs(old, REMOVED) and "Postgres" in marked_runs(new, ADDED)
    assert old.isVisible() and new.isVisible()

    # roll back: the previous title and content as a new revision, read as the agent would
    revision = stored_row(db, 1)["revision_count"]
    trigger(window, "reviewRollbackAction")
    writes_done(window)
    qtbot.waitUntil(
        lambda: stored_row(db, 1)["title"] == "Use SQLite for the cache", timeout=WAIT_MS
    )
    row = stored_row(db, 1)
    assert row["content"] == "We keep the cache in SQLite because it is simple."
    assert row["revision_count"] == revision + 1
    assert "Rolled back #1" in window.message_bar.text()
    # it is marked reviewed, and the rollback (the person's write) is never listed
    window.journal_runner.scan_all(window.journal_runner.stores())
    looked(qtbot, window)
    wait_rows(qtbot, window, [("+ new", "#3 Prefer small commits")])

    # undo (Ctrl+Z on this page) brings the agent's text back
    window.review_page.undo_stack.undo()
    writes_done(window)
    qtbot.waitUntil(
        lambda: stored_row(db, 1)["title"] == "Use Postgres for the cache", timeout=WAIT_MS
    )
    window.journal_runner.scan_all(window.journal_runner.stores())
    looked(qtbot, window)
    assert rows(window) == [("+ new", "#3 Prefer small commits")]


def test_live_agent_saves_are_listed_and_marks_work_on_several_rows(
    qtbot, qtmodeltester, open_window, db: Path
) -> None:
    window = open_window(["--db", str(db)])
    looked(qtbot, window)
    page = show_review(window)
    # the list's model, checked now and at every row the agent's saves and the marks move
    qtmodeltester.check(child(window, QAbstractItemView, "reviewList").model())
    assert child(page, QLabel, "reviewEmpty").isVisible()
    assert child(page, QLabel, "reviewEmpty").text() == "Nothing changed since you last looked"

    agent_saves(
        db,
        {"title": "Alpha", "content": "first", "now": NOW + 60_000},
        {"title": "Beta", "content": "second", "now": NOW + 120_000},
        {"title": "Gamma", "content": "third", "now": NOW + 180_000},
    )
    wait_rows(qtbot, window, [("+ new", "#5 Gamma"), ("+ new", "#4 Beta"), ("+ new", "#3 Alpha")])
    assert "3 changes to review" in window.windowTitle()

    view = child(window, QAbstractItemView, "reviewList")
    view.selectAll()
    select_row(window, 0)
    view.selectionModel().select(
        view.model().index(1, 0),
        view.selectionModel().SelectionFlag.Select | view.selectionModel().SelectionFlag.Rows,
    )
    trigger(window, "reviewMarkReviewedAction")
    wait_rows(qtbot, window, [("+ new", "#3 Alpha")])
    qtbot.waitUntil(lambda: "1 change to review" in window.windowTitle(), timeout=WAIT_MS)

    child(page, QCheckBox, "reviewShowReviewed").setChecked(True)
    qtbot.waitUntil(lambda: len(rows(window)) == 3, timeout=WAIT_MS)
    child(page, QCheckBox, "reviewShowReviewed").setChecked(False)
    qtbot.waitUntil(lambda: len(rows(window)) == 1, timeout=WAIT_MS)

    trigger(window, "reviewMarkAllReviewedAction")
    wait_rows(qtbot, window, [])
    qtbot.waitUntil(lambda: "to review" not in window.windowTitle(), timeout=WAIT_MS)
    assert child(window, QTreeWidget, "sourcesList").topLevelItem(0).child(0).text(2) == ""


# -- persona ----------------------------------------------------------------------------------


def test_a_persona_change_is_marked_diffed_rolled_back_and_undone(
    qtbot, open_window, folder: Path
) -> None:
    window = open_window(["--persona", str(folder)])
    looked(qtbot, window)
    persona_agent(folder, "no-fish-puns", "Likes puns about fish", "Always tell fish puns.")
    show_review(window)
    wait_rows(qtbot, window, [("± changed", "no-fish-puns")])

    # marked in the persona list (a sign and a tooltip) and counted in the sidebar
    model = window.persona_page.model
    row = model.row_of("no-fish-puns")
    assert model.index(row, 0).data().startswith("✱ ")
    assert "changed this entry" in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert not model.index(model.row_of("likes-tea"), 0).data().startswith("✱")
    assert child(window, QTreeWidget, "sourcesList").topLevelItem(1).child(0).text(2) == "✱1"

    select_row(window, 0)
    old, new = diff_sides(qtbot, window)
    assert "Never tell fish puns." in old.toPlainText()
    assert "Always tell fish puns." in new.toPlainText()
    assert "Never" in marked_runs(old, REMOVED) and "Always" in marked_runs(new, ADDED)

    trigger(window, "reviewRollbackAction")
    restored = PersonaFolder(folder).read("no-fish-puns")  # the agent's header reader
    assert restored.body == "Never tell fish puns."
    assert restored.description == "Dislikes puns about fish"
    qtbot.waitUntil(
        lambda: not model.index(model.row_of("no-fish-puns"), 0).data().startswith("✱"),
        timeout=WAIT_MS,
    )
    window.journal_runner.scan_all(window.journal_runner.stores())
    looked(qtbot, window)
    assert rows(window) == []  # the rollback is the person's write

    window.review_page.undo_stack.undo()
    back = PersonaFolder(folder).read("no-fish-puns")
    assert back.body == "Always tell fish puns." and back.description == "Likes puns about fish"


def test_history_off_records_nothing_and_clear_starts_afresh(
    qtbot, open_window, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = open_window(["--persona", str(folder)])
    looked(qtbot, window)
    page = show_review(window)
    child(page, QCheckBox, "reviewHistoryEnabled").setChecked(False)
    looked(qtbot, window)
    from memory_desk.ui import settings

    assert settings.journal_limits().enabled is False
    persona_agent(folder, "likes-tea", "Drinks black tea", "Black tea.")
    qtbot.waitUntil(lambda: window.persona_page.model.row_of("likes-tea") >= 0, timeout=WAIT_MS)
    window.journal_runner.scan_all(window.journal_runner.stores())
    looked(qtbot, window)
    assert rows(window) == []

    child(page, QCheckBox, "reviewHistoryEnabled").setChecked(True)
    looked(qtbot, window)
    persona_agent(folder, "likes-tea", "Drinks oolong", "Oolong.")
    wait_rows(qtbot, window, [("± changed", "likes-tea")])
    assert child(page, QLabel, "reviewHistorySize").text() != "not known yet"

    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Yes)
    child(page, QPushButton, "reviewClearHistory").click()
    looked(qtbot, window)
    wait_rows(qtbot, window, [])


def test_a_corrupt_journal_keeps_the_window_up_and_clear_mends_it(
    qtbot, open_window, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = Journal.default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database" * 200)
    window = open_window(["--persona", str(folder)])
    page = show_review(window)
    problem = child(page, QLabel, "reviewProblem")
    qtbot.waitUntil(problem.isVisible, timeout=WAIT_MS)
    assert "Clear history" in problem.text()
    assert window.persona_page.entries()  # the rest of the window works

    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Yes)
    child(page, QPushButton, "reviewClearHistory").click()
    looked(qtbot, window)
    assert not problem.isVisible()
    persona_agent(folder, "likes-tea", "Drinks oolong", "Oolong.")
    wait_rows(qtbot, window, [("± changed", "likes-tea")])


def test_the_demo_has_its_own_history_with_its_agents_changes(qtbot, open_window) -> None:
    """``--demo`` shows what its agents changed since its person last looked, from a journal
    in the demo's folder: the person's own history gets nothing of it."""
    window = open_window(["--demo"])
    looked(qtbot, window)
    show_review(window)
    qtbot.waitUntil(lambda: len(rows(window)) == 7, timeout=WAIT_MS)
    assert sorted(rows(window)) == sorted(
        [
            ("✕ removed", "studies-at-night"),
            ("± changed", "preferred-name-carmen"),
            ("+ new entry", "formal-register-in-reports"),
            ("✕ deleted", "#339 Scratch files go in ~/tmp"),
            ("− forgotten", "#340 Tokio caches more than expected in note parser"),
            ("+ new", "#345 Always squash commits before merging"),
            ("± revised", "#309 Make fuzzy finder asynchronous with a worker pool"),
        ]
    )
    # A chat is named by what the person asked in it, not by its id.
    from memory_desk.demo_changes import CHAT_ID, CHAT_PROMPT

    model = child(window, QAbstractItemView, "reviewList").model()
    revised = next(r for r in range(model.rowCount()) if "#309" in model.index(r, 2).data())
    assert model.index(revised, 4).data() == f"“{CHAT_PROMPT}”"
    assert CHAT_ID in model.index(revised, 4).data(Qt.ItemDataRole.ToolTipRole)
    assert window.journal_runner.journal.path.parent == window.demo.folder
    assert "7" in window.windowTitle()
    own = Journal(Journal.default_path())  # the person's history holds nothing of the demo
    try:
        assert own.changes(include_reviewed=True) == [] and own.pending_count() == 0
    finally:
        own.close()


def test_an_emptied_journal_file_says_the_history_started_again(
    qtbot, open_window, db: Path
) -> None:
    """A journal file left empty (a crash, a full disk) is a new history: the page says so,
    and a file that was never there (a first start) says nothing."""
    first = open_window(["--db", str(db)])
    looked(qtbot, first)
    assert not child(first, QLabel, "reviewNotice").isVisibleTo(first.review_page)
    first.close()
    first.shutdown()
    path = Journal.default_path()
    Journal.remove_files(path)
    path.write_bytes(b"")  # what the crash left
    window = open_window(["--db", str(db)])
    show_review(window)
    notice = child(window, QLabel, "reviewNotice")
    assert notice.isVisible()
    assert "had to start again" in notice.text() and "was found empty" in notice.text()
    looked(qtbot, window)
    assert notice.isVisible()  # the list read after it does not hide it


def test_a_persona_rewrite_with_the_same_fields_shows_which_lines_changed(
    qtbot, open_window, folder: Path
) -> None:
    """The agent saves an entry again with the same text: its header's date is what changed,
    and the diff shows the whole file instead of four identical fields."""
    window = open_window(["--persona", str(folder)])
    looked(qtbot, window)
    before = (folder / "no-fish-puns.md").read_text("utf-8")
    persona_agent(folder, "no-fish-puns", "Dislikes puns about fish", "Never tell fish puns.")
    after = (folder / "no-fish-puns.md").read_text("utf-8")
    assert after != before
    show_review(window)
    wait_rows(qtbot, window, [("± changed", "no-fish-puns")])
    select_row(window, 0)
    old, new = diff_sides(qtbot, window)
    summary = child(window, QLabel, "reviewDiffSummary").text()
    assert "only other lines" in summary
    assert "The whole file" in old.toPlainText() and "The whole file" in new.toPlainText()
    assert marked_runs(old, REMOVED) and marked_runs(new, ADDED)  # the changed lines, marked
    assert all("fish" not in run for run in marked_runs(new, ADDED))  # not the text itself
