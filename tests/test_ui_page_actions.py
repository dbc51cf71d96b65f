"""Each page owns its actions, its status text and its messages; a hidden source catches up.

A real window with a real database and a real persona folder, driven by object names. The
agent that writes the folder while another page is shown is a real second process
(tests/agents/persona_agent.py), as in test_live_window_persona.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractItemView, QLabel, QMenu, QTreeWidget, QWidget

from window_helpers import (
    make_database,
    make_persona_folder,
    source_rows,
    stored_row,
    table,
    writes_done,
)

pytest_plugins = ["window_fixture"]  # the open_window fixture

AGENT = Path(__file__).parent / "agents" / "persona_agent.py"
WAIT_MS = 5000


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_database(tmp_path / "alisio" / "memory.sqlite", ("First note", "Second note"))


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return make_persona_folder(tmp_path / ".miyagi" / "memory", ("likes-tea", "name-carmen"))


@pytest.fixture
def window(qtbot, open_window, db: Path, memory: Path):
    """Both sources open; the database (opened last) is shown."""
    window = open_window(["--persona", str(memory), "--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 2)
    qtbot.waitUntil(lambda: not window.observations_page.is_busy())
    assert window.current_page_name() == "observations"
    return window


def action(window, name: str) -> QAction:
    found = window.findChild(QAction, name)
    assert found is not None, name
    return found


def menu_action(window, menu: str, text: str) -> QAction:
    found = window.findChild(QMenu, menu)
    assert found is not None, menu
    for each in found.actions():
        if each.text().split("\t")[0] == text:
            return each
    raise AssertionError(f"{text} is not in {menu}")


def status(window) -> str:
    return window.findChild(QLabel, "statusCounts").text()


def shown_message(window) -> str:
    bar = window.findChild(QWidget, "messageBar")
    return bar.findChild(QLabel, "messageText").text() if bar.isVisible() else ""


def selected_observation(window) -> int:
    ids = window.observations_page.selected_ids()
    assert len(ids) == 1, ids
    return ids[0]


def persona_names(window) -> list[str]:
    model = window.findChild(QAbstractItemView, "personaList").model()
    return [model.index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]


def run_agent(qtbot, folder: Path, *args: str) -> None:
    """The agent writes the folder from its own process while the event loop keeps turning."""
    proc = subprocess.Popen(
        [sys.executable, str(AGENT), str(folder), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        qtbot.waitUntil(lambda: proc.poll() is not None, timeout=WAIT_MS)
        _out, err = proc.communicate()
        assert proc.returncode == 0, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def persona_count(window) -> str:
    return next(count for _group, label, count in source_rows(window) if label == "miyagi")


# -- switching back shows what the agents wrote meanwhile -----------------------------------


def test_a_folder_written_while_hidden_is_shown_when_switched_back(qtbot, window, memory) -> None:
    """The persona page still holds the folder while the database is shown; the agent's write
    then only reached the sidebar's count. Coming back must read the folder again."""
    action(window, "showPersonaAction").trigger()
    qtbot.waitUntil(lambda: "likes-tea" in persona_names(window))
    action(window, "showObservationsAction").trigger()
    assert window.current_page_name() == "observations"

    run_agent(qtbot, memory, "likes-sushi", "user", "Eats sushi on Fridays", "Sushi, Fridays.")
    qtbot.waitUntil(lambda: persona_count(window) == "3", timeout=WAIT_MS)
    assert window.current_page_name() == "observations"

    action(window, "showPersonaAction").trigger()
    assert window.current_page_name() == "persona"
    assert "likes-sushi" in persona_names(window)
    assert window.findChild(QLabel, "statusCounts").text().startswith("3 entries")


# -- each page's actions work only while it is current ---------------------------------------


def test_observation_forget_is_off_while_the_persona_page_is_current(qtbot, window, db) -> None:
    oid = selected_observation(window)  # the database's first row is current and selected
    forget = menu_action(window, "observationMenu", "Forget")
    assert forget.isEnabled()
    action(window, "showPersonaAction").trigger()
    assert window.current_page_name() == "persona"
    assert not forget.isEnabled()

    forget.trigger()  # the menu's action (a stale menu, a script, an accessibility tool)
    sidebar = window.findChild(QTreeWidget, "sourcesList")
    sidebar.setFocus()
    qtbot.keyClick(sidebar, Qt.Key.Key_Delete)  # its shortcut, from outside the entry list
    writes_done(window)
    assert stored_row(db, oid)["deleted_at"] is None
    assert window.undo_stack.count() == 0

    action(window, "showObservationsAction").trigger()
    assert forget.isEnabled()  # its own state comes back with its page


def test_entry_actions_are_off_while_the_observations_page_is_current(window, memory) -> None:
    """The persona page still holds the folder with an entry open (the folder was shown
    before the database), so its Forget button is enabled behind the observations page."""
    forget = action(window, "personaForgetAction")
    assert window.current_page_name() == "observations"
    assert not forget.isEnabled()
    assert not action(window, "personaNewAction").isEnabled()

    forget.trigger()
    assert sorted(p.name for p in memory.glob("*.md")) == ["likes-tea.md", "name-carmen.md"]
    assert window.undo_stack.count() == 0

    action(window, "showPersonaAction").trigger()
    assert forget.isEnabled()
    assert menu_action(window, "entryMenu", "Forget") is forget


# -- each page's status text and message -------------------------------------------------------


def test_status_and_message_follow_their_page(qtbot, window) -> None:
    """A page's message leaves with it and comes back with it; the status is the page's."""
    assert status(window).startswith("Showing 2")
    menu_action(window, "observationMenu", "Forget").trigger()
    writes_done(window)
    qtbot.waitUntil(lambda: shown_message(window).startswith("Forgot 1 observation"))

    action(window, "showPersonaAction").trigger()
    assert status(window).startswith("2 entries")
    assert "Forgot" not in shown_message(window)

    action(window, "showObservationsAction").trigger()
    qtbot.waitUntil(lambda: status(window).startswith("Showing 1"))
    assert shown_message(window).startswith("Forgot 1 observation")


# -- each page's undo history ----------------------------------------------------------------


def test_undo_acts_on_the_current_pages_own_history(qtbot, window, db) -> None:
    """A forget on the observations page is not undone from the persona page: Edit ▸ Undo and
    Ctrl+Z there belong to the persona page (nothing to undo yet); back on the observations
    page, the forget is undone."""
    oid = selected_observation(window)
    menu_action(window, "observationMenu", "Forget").trigger()
    writes_done(window)
    qtbot.waitUntil(lambda: stored_row(db, oid)["deleted_at"] is not None)
    undo = action(window, "undoAction")
    assert undo.isEnabled() and "Forget" in undo.text()

    action(window, "showPersonaAction").trigger()
    assert not undo.isEnabled()
    undo.trigger()
    qtbot.keyClick(
        window.findChild(QAbstractItemView, "personaList"),
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier,
    )
    writes_done(window)
    assert stored_row(db, oid)["deleted_at"] is not None
    assert window.undo_stack is window.persona_page.undo_stack

    action(window, "showObservationsAction").trigger()
    assert undo.isEnabled()
    undo.trigger()
    writes_done(window)
    qtbot.waitUntil(lambda: stored_row(db, oid)["deleted_at"] is None)


def test_the_welcome_page_has_nothing_to_undo(open_window) -> None:
    window = open_window([])
    assert window.current_page_name() == "welcome"
    assert window.undo_stack is None
    assert not action(window, "undoAction").isEnabled()
