"""Live reload of the Observations page in the real window, with real agent processes.

A second Python process plays Alisio's plugin (``tests/agents/alisio_agent.py``: the plugin's
connection and ``memory_save``, topic upserts included) or a tool that forgets or deletes a
row, while the person has a selection, a scrolled table or an edit form open. The window's
own DatabaseWatcher notices the commits; the tests only wait on the main thread (the model's
rows, the page's ``refreshed`` signal, widgets' visibility), never sleep.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QToolButton,
    QWidget,
)

from alisio_fixtures import build_database, plugin_connection
from memory_desk.app import create_main_window
from memory_desk.ui.observations.model import Column
from window_helpers import writes_done

AGENTS = Path(__file__).parent / "agents"
ALISIO_AGENT = AGENTS / "alisio_agent.py"
LIVE_WRITERS = AGENTS / "live_writers.py"
TOPIC = ("--topic-every", "1", "--topics", "1")  # every save revises agent/topic-0
WAIT_MS = 10_000  # generous for a loaded 2-core CI machine; a pass takes far less

# A second process that forgets or deletes one row, through the plugin's own connection.
_TOOL = """
import sys
from memory_desk.core import alisio
conn = alisio.connect_like_plugin(sys.argv[1])
if sys.argv[2] == "forget":
    conn.execute("UPDATE observations SET deleted_at = ? WHERE id = ?",
                 (alisio.now_ms(), int(sys.argv[3])))
else:
    conn.execute("DELETE FROM observations WHERE id = ?", (int(sys.argv[3]),))
conn.close()
"""


# -- agents ------------------------------------------------------------------------------------


def run_agent(db: Path, *args: str) -> dict:
    """Run the plugin-playing agent to the end; its summary (ids created and revised)."""
    done = subprocess.run(
        [sys.executable, str(ALISIO_AGENT), "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def start_agent(db: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(ALISIO_AGENT), "--db", str(db), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(agent: subprocess.Popen) -> dict:
    out, err = agent.communicate(timeout=60)
    assert agent.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def run_tool(db: Path, action: str, oid: int) -> None:
    subprocess.run([sys.executable, "-c", _TOOL, str(db), action, str(oid)], check=True, timeout=60)


# -- the window --------------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """300 rows as the plugin leaves them, then one agent topic row: the newest of all."""
    path = build_database(tmp_path / "memory.sqlite", 300, seed=4)
    run_agent(path, "--count", "1", *TOPIC, "--seed", "0")
    return path


@pytest.fixture
def window(qtbot, db: Path):
    window = create_main_window(["--db", str(db)])
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: table(window).model().rowCount() > 0)
    # Settled: the counts that follow the first rows (and their ``refreshed``) are in, so a
    # test that expects no refresh does not meet the start's own.
    qtbot.waitUntil(lambda: not page(window).is_busy())
    return window


def table(window) -> QTableView:
    return window.findChild(QTableView, "observationsTable")


def page(window):
    return window.observations_page


def ids(window) -> list[int]:
    return table(window).model().ids()


def current_id(window) -> int | None:
    index = table(window).currentIndex()
    return index.data(Qt.ItemDataRole.UserRole) if index.isValid() else None


def top_id(window) -> int:
    view = table(window)
    return view.model().id_at(view.rowAt(0))


def click(qtbot, window, name: str) -> None:
    """Click a button of the observations page (the persona page has its own banner)."""
    widget = page(window).findChild(QWidget, name)
    assert widget is not None, name
    assert widget.isVisible() and widget.isEnabled(), f"{name} cannot be clicked"
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
    writes_done(window)  # writes run in the background


def click_row(qtbot, window, row: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    view = table(window)
    rect = view.visualRect(view.model().index(row, Column.TITLE))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def banner(window) -> QWidget:
    found = page(window).findChild(QWidget, "conflictBanner")
    assert found is not None
    return found


def column(db: Path, name: str, oid: int):
    with plugin_connection(db) as conn:
        return conn.execute(f"SELECT {name} FROM observations WHERE id = ?", (oid,)).fetchone()[0]


def start_editing(qtbot, window, content: str) -> QPlainTextEdit:
    """Open the form on the current row and type new content, as a person does."""
    click(qtbot, window, "editButton")
    editor = window.findChild(QPlainTextEdit, "editContent")
    assert editor.isVisible()
    editor.selectAll()
    qtbot.keyClicks(editor, content)
    return editor


def background(window, oid: int):
    model = table(window).model()
    return model.index(model.row_of(oid), Column.TITLE).data(Qt.ItemDataRole.BackgroundRole)


# -- rows arriving -----------------------------------------------------------------------------


def test_agent_rows_appear_marked_new_and_the_persons_place_stays(qtbot, window, db) -> None:
    view, model = table(window), table(window).model()
    before = model.rowCount()
    view.scrollTo(model.index(120, 0), QAbstractItemView.ScrollHint.PositionAtTop)
    view.verticalScrollBar().setValue(view.verticalScrollBar().value() + 7)  # mid-row
    first = view.rowAt(0) + 2
    click_row(qtbot, window, first)
    click_row(qtbot, window, first + 4, Qt.KeyboardModifier.ControlModifier)
    selected, current = page(window).selected_ids(), current_id(window)
    top, offset = top_id(window), view.rowViewportPosition(view.rowAt(0))
    assert page(window).detail.shown_id == current
    resets: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))

    agent = start_agent(db, "--count", "5", "--interval-ms", "40", "--seed", "3")
    qtbot.waitUntil(lambda: model.rowCount() == before + 5, timeout=WAIT_MS)
    created = finish(agent)["created"]

    assert ids(window)[:5] == created[::-1]  # newest first, above the person's rows
    assert all(model.mark_of(oid) == "new" for oid in created)
    assert background(window, created[0]) is not None
    assert background(window, top) is None
    tip = model.index(model.row_of(created[0]), Column.TITLE).data(Qt.ItemDataRole.ToolTipRole)
    assert "New" in tip
    assert resets == []
    assert page(window).selected_ids() == selected
    assert current_id(window) == current
    assert page(window).detail.shown_id == current
    assert top_id(window) == top
    assert view.rowViewportPosition(view.rowAt(0)) == offset

    # A new sort is a new question: nothing in its answer is "new".
    header = view.horizontalHeader()
    x = header.sectionViewportPosition(Column.ID) + header.sectionSize(Column.ID) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    qtbot.waitUntil(lambda: not page(window).is_busy())
    assert model.marked_ids() == []
    assert current_id(window) == current


def test_first_row_is_selected_on_open_and_live_rows_never_move_the_selection(
    qtbot, window, db
) -> None:
    model = table(window).model()
    first = ids(window)[0]
    assert current_id(window) == first
    assert page(window).selected_ids() == [first]
    assert page(window).detail.shown_id == first
    assert window.findChild(QLabel, "observationTitle").text().startswith("Agent note")
    model.MARK_MS = 300

    before = model.rowCount()
    subprocess.run(
        [sys.executable, str(LIVE_WRITERS), "save", str(db), "--count", "2", "--gap", "0.05"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    qtbot.waitUntil(lambda: model.rowCount() == before + 2, timeout=WAIT_MS)
    assert current_id(window) == first and page(window).selected_ids() == [first]
    assert page(window).detail.shown_id == first
    assert len(model.marked_ids()) == 2
    qtbot.waitUntil(lambda: model.marked_ids() == [], timeout=WAIT_MS)
    assert background(window, ids(window)[0]) is None


# -- the detail pane when its row changes -------------------------------------------------------


def test_reader_follows_a_topic_upsert_quietly_and_says_so(qtbot, window, db) -> None:
    agent_row = ids(window)[0]
    title = window.findChild(QLabel, "observationTitle")
    assert title.text() == "Agent note 0-0"
    summary = run_agent(db, "--count", "1", *TOPIC, "--seed", "1")
    assert summary["revised"] == {str(agent_row): 1}
    qtbot.waitUntil(lambda: title.text() == "Agent note 1-0", timeout=WAIT_MS)
    assert f"#{agent_row} was changed by another program" in window.message_bar.text()
    assert table(window).model().mark_of(agent_row) == "changed"
    assert current_id(window) == agent_row
    assert not banner(window).isVisible()


def test_upsert_on_the_edited_row_keeps_my_text_then_compare_and_keep_mine(
    qtbot, window, db
) -> None:
    agent_row = ids(window)[0]
    editor = start_editing(qtbot, window, "**What** my careful rewrite")
    run_agent(db, "--count", "1", *TOPIC, "--seed", "1")
    qtbot.waitUntil(banner(window).isVisible, timeout=WAIT_MS)
    assert editor.toPlainText() == "**What** my careful rewrite"
    assert page(window).findChild(QPushButton, "conflictKeepMine").isVisible()
    assert not page(window).findChild(QPushButton, "conflictClose").isVisible()

    click(qtbot, window, "saveEditButton")  # unresolved banner: nothing is overwritten
    assert "agentsave1x0" in column(db, "content", agent_row)
    assert "banner" in window.findChild(QLabel, "editError").text()

    click(qtbot, window, "conflictCompare")
    dialog = page(window).findChild(QDialog, "compareDialog")
    assert dialog is not None and dialog.isVisible()
    diff = dialog.diff_view.toPlainText()
    assert "-Title: Agent note 1-0" in diff and "+Title: Agent note 0-0" in diff
    assert "+**What** my careful rewrite" in diff and "agentsave1x0" in diff
    dialog.close()

    click(qtbot, window, "conflictKeepMine")
    assert not banner(window).isVisible()
    click(qtbot, window, "saveEditButton")
    assert column(db, "content", agent_row) == "**What** my careful rewrite"
    assert column(db, "title", agent_row) == "Agent note 0-0"  # all of mine, knowingly
    assert column(db, "revision_count", agent_row) == 3
    assert not editor.isVisible()


def test_reload_theirs_drops_my_edits_and_a_clean_form_follows_quietly(qtbot, window, db) -> None:
    agent_row = ids(window)[0]
    editor = start_editing(qtbot, window, "draft that will be dropped")
    run_agent(db, "--count", "1", *TOPIC, "--seed", "1")
    qtbot.waitUntil(banner(window).isVisible, timeout=WAIT_MS)
    click(qtbot, window, "conflictReload")
    assert not banner(window).isVisible()
    assert "agentsave1x0" in editor.toPlainText()
    assert window.findChild(QLineEdit, "editTitle").text() == "Agent note 1-0"

    run_agent(db, "--count", "1", *TOPIC, "--seed", "2")  # no edits now: no banner
    qtbot.waitUntil(lambda: "agentsave2x0" in editor.toPlainText(), timeout=WAIT_MS)
    assert not banner(window).isVisible()
    assert "the form shows the new version" in window.message_bar.text()
    click(qtbot, window, "cancelEditButton")
    assert column(db, "revision_count", agent_row) == 3  # the agent's two, none of ours


def test_agent_forgets_the_edited_row_keep_restores_and_saves(qtbot, window, db) -> None:
    agent_row = ids(window)[0]
    start_editing(qtbot, window, "**What** keep this one")
    run_tool(db, "forget", agent_row)
    qtbot.waitUntil(banner(window).isVisible, timeout=WAIT_MS)
    assert "forgot" in banner(window).message()
    assert page(window).findChild(QPushButton, "conflictKeep").isVisible()
    assert not page(window).findChild(QPushButton, "conflictKeepMine").isVisible()
    click(qtbot, window, "conflictKeep")
    assert not banner(window).isVisible()
    click(qtbot, window, "saveEditButton")
    assert column(db, "content", agent_row) == "**What** keep this one"
    assert column(db, "deleted_at", agent_row) is None
    qtbot.waitUntil(lambda: agent_row in ids(window), timeout=WAIT_MS)


def test_agent_deletes_the_edited_row_close_leaves_the_form(qtbot, window, db) -> None:
    agent_row = ids(window)[0]
    editor = start_editing(qtbot, window, "text for a row that goes away")
    run_tool(db, "delete", agent_row)
    qtbot.waitUntil(banner(window).isVisible, timeout=WAIT_MS)
    assert "deleted" in banner(window).message()
    assert editor.toPlainText() == "text for a row that goes away"
    click(qtbot, window, "conflictClose")
    assert not editor.isVisible()
    assert not banner(window).isVisible()
    qtbot.waitUntil(lambda: agent_row not in ids(window), timeout=WAIT_MS)


def test_agent_deletes_the_edited_row_keep_saves_it_as_a_new_one(qtbot, window, db) -> None:
    agent_row = ids(window)[0]
    before = {name: column(db, name, agent_row) for name in ("project", "scope", "session_id")}
    start_editing(qtbot, window, "**What** my version <private>secret</private>")
    run_tool(db, "delete", agent_row)
    qtbot.waitUntil(banner(window).isVisible, timeout=WAIT_MS)
    click(qtbot, window, "conflictKeep")
    click(qtbot, window, "saveEditButton")
    qtbot.waitUntil(lambda: "Saved as new observation" in window.message_bar.text())
    created = int(window.message_bar.text().split("#")[1].split()[0])
    qtbot.waitUntil(lambda: created in ids(window), timeout=WAIT_MS)
    assert created != agent_row and agent_row not in ids(window)
    assert column(db, "content", created) == "**What** my version [REDACTED]"
    assert {name: column(db, name, created) for name in before} == before
    assert column(db, "revision_count", created) == 1
    qtbot.waitUntil(lambda: page(window).selected_ids() == [created], timeout=WAIT_MS)
    with plugin_connection(db) as conn:
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")


# -- pause, and the app's own writes ------------------------------------------------------------


def test_paused_save_meets_a_conflict_then_resume_catches_up(qtbot, window, db) -> None:
    model = table(window).model()
    agent_row = ids(window)[0]
    live = window.findChild(QToolButton, "liveIndicator")
    qtbot.mouseClick(live, Qt.MouseButton.LeftButton)
    assert not live.isChecked() and "Paused" in live.text()
    before = model.rowCount()
    start_editing(qtbot, window, "**What** written while paused")

    with qtbot.assertNotEmitted(page(window).refreshed, wait=300):
        run_agent(db, "--count", "3", "--seed", "5")
        run_agent(db, "--count", "1", *TOPIC, "--seed", "1")
    assert model.rowCount() == before and not banner(window).isVisible()

    # Saving over the agent's revision is refused by the store: the banner takes over.
    click(qtbot, window, "saveEditButton")
    assert banner(window).isVisible()
    assert "agentsave1x0" in column(db, "content", agent_row)

    qtbot.mouseClick(live, Qt.MouseButton.LeftButton)
    assert live.isChecked()
    qtbot.waitUntil(lambda: model.rowCount() == before + 3, timeout=WAIT_MS)
    assert banner(window).isVisible()


def test_save_after_the_agent_only_repeated_the_row_goes_through(qtbot, window, db) -> None:
    agent_row = ids(window)[0]
    live = window.findChild(QToolButton, "liveIndicator")
    qtbot.mouseClick(live, Qt.MouseButton.LeftButton)  # paused: the save meets it first
    start_editing(qtbot, window, "**What** mine")
    duplicates = column(db, "duplicate_count", agent_row)
    assert run_agent(db, "--count", "1", *TOPIC, "--seed", "0")["duplicates"] == {str(agent_row): 1}
    click(qtbot, window, "saveEditButton")  # refused once by the store, then saved
    assert column(db, "content", agent_row) == "**What** mine"
    assert column(db, "duplicate_count", agent_row) == duplicates + 1  # the agent's, kept
    assert column(db, "revision_count", agent_row) == 2
    assert not banner(window).isVisible()
    assert not window.findChild(QPlainTextEdit, "editContent").isVisible()


def test_own_pin_refreshes_a_few_times_then_goes_quiet(qtbot, window, db) -> None:
    refreshes: list[float] = []
    page(window).refreshed.connect(lambda: refreshes.append(time.monotonic()))
    pinned_row = current_id(window)
    was_pinned = column(db, "pinned", pinned_row)
    click(qtbot, window, "pinButton")
    assert column(db, "pinned", pinned_row) != was_pinned
    qtbot.waitUntil(lambda: len(refreshes) >= 1, timeout=WAIT_MS)
    # Quiet: a second without refreshes (four polls of the watcher).
    qtbot.waitUntil(lambda: time.monotonic() - refreshes[-1] > 1.0, timeout=WAIT_MS)
    assert len(refreshes) <= 3
    assert table(window).model().marked_ids() == []  # our own pin is not news
    assert current_id(window) == pinned_row
