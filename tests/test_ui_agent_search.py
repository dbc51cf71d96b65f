""" "Search as the agent…": what the plugin's ``memory_search`` would return, beside the table.

The database is the plugin's own, filled by its ``memory_save``; the panel is driven by object
names. Its answer is compared with the person's own search (which finds short words) and with
the store's ``agent_search`` (the ranked rows, in order).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QDialog, QLabel, QLineEdit, QMenu, QTableWidget, QWidget

from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore
from memory_desk.ui.observations.model import Column
from window_helpers import NOW, agent_forget, agent_save, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

ALPHA = "alpha-1a2b3c4d"
BETA = "beta-5e6f7a8b"
MINUTE = 60_000
ROWS = [  # title, project, scope
    ("Qt db layer choice", ALPHA, "project"),
    ("Token refresh race", ALPHA, "project"),
    ("Refresh the cache on login", ALPHA, "project"),
    ("Token storage is personal", BETA, "personal"),
    ("Token rotation in beta", BETA, "project"),
    ("Token thing since forgotten", ALPHA, "project"),
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    for n, (title, project, scope) in enumerate(ROWS):
        saved = agent_save(
            path,
            title=title,
            content=f"**What** {title.lower()}",
            project=project,
            scope=scope,
            now=NOW + n * MINUTE,
        )
        assert saved.id == n + 1
    agent_forget(path, 6, at=NOW + 10 * MINUTE)
    return path


@pytest.fixture
def window(open_window, qtbot, db: Path):
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 5)
    return window


def page(window):
    return window.observations_page


def dialog(window) -> QDialog:
    found = window.findChild(QDialog, "agentSearchDialog")
    assert found is not None
    return found


def search_box(window) -> QLineEdit:
    return window.findChild(QLineEdit, "observationsSearch")


def type_search(qtbot, window, text: str) -> None:
    search_box(window).clear()
    qtbot.keyClicks(search_box(window), text)
    qtbot.waitUntil(lambda: not page(window).is_busy())


def open_panel(qtbot, window) -> QDialog:
    window.findChild(QAction, "agentSearchAction").trigger()
    panel = dialog(window)
    qtbot.waitUntil(lambda: panel.isVisible() and not panel.is_busy())
    return panel


def results(panel: QDialog) -> list[int]:
    view = panel.findChild(QTableWidget, "agentSearchResults")
    return [int(view.item(row, 1).text()) for row in range(view.rowCount())]


def note(panel: QDialog) -> str:
    return panel.findChild(QLabel, "agentSearchNote").text()


def settle(qtbot, panel: QDialog) -> None:
    qtbot.waitUntil(lambda: not panel.is_busy())


def choose(combo: QComboBox, text: str) -> None:
    index = combo.findText(text)
    assert index >= 0, (text, [combo.itemText(i) for i in range(combo.count())])
    combo.setCurrentIndex(index)


def test_the_action_has_a_free_shortcut_and_names_it(qtbot, window) -> None:
    action = window.findChild(QAction, "agentSearchAction")
    assert action.text() == "Search as the agent…"
    assert action.shortcut() == QKeySequence("Ctrl+Shift+F")
    assert "Ctrl+Shift+F" in action.toolTip() and "agent" in action.toolTip()
    assert action in page(window).actions()
    observation_menu = window.findChild(QMenu, "observationMenu")
    assert action in observation_menu.actions()  # listed with its shortcut, keyboard first
    others = [other.shortcut() for other in window.findChildren(QAction) if other is not action]
    others += [other.key() for other in window.findChildren(QShortcut)]
    assert QKeySequence("Ctrl+Shift+F") not in others

    view = table(window)
    window.activateWindow()
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    qtbot.keyClick(
        view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    qtbot.waitUntil(lambda: window.findChild(QDialog, "agentSearchDialog") is not None)
    assert not dialog(window).isModal()


def test_short_words_the_person_finds_are_ignored_by_the_agent(qtbot, window) -> None:
    type_search(qtbot, window, "qt db")
    assert table(window).model().ids() == [1]  # the person's search finds short words
    panel = open_panel(qtbot, window)
    assert panel.findChild(QLineEdit, "agentSearchText").text() == "qt db"
    assert results(panel) == []
    assert "ignores words under 3 characters: “qt”, “db”" in note(panel)
    assert "would find nothing" in note(panel)

    text = panel.findChild(QLineEdit, "agentSearchText")
    text.setText("qt db layer")
    settle(qtbot, panel)
    assert results(panel) == [1]
    assert "“qt”, “db”" in note(panel) and "with all the words" in note(panel)


def test_ranked_like_the_store_with_all_or_any_words_and_the_chats_project(
    qtbot, window, db: Path
) -> None:
    page(window).table.selectRow(table(window).model().ids().index(2))  # an alpha row
    type_search(qtbot, window, "token refresh")
    panel = open_panel(qtbot, window)
    match = panel.findChild(QComboBox, "agentSearchMatch")
    project = panel.findChild(QComboBox, "agentSearchProject")
    assert project.currentText() == ALPHA  # the current row's project: the chat that asks
    assert results(panel) == [2]
    assert "with all the words" in note(panel) and "estimate" not in note(panel)

    choose(match, "Any word")
    settle(qtbot, panel)
    with ObservationStore(db) as store:
        expected = store.agent_search("token refresh", project=ALPHA, match="any")
    assert results(panel) == [hit.id for hit in expected.hits]
    assert set(results(panel)) == {2, 3, 4}  # personal #4 from beta; never forgotten #6
    assert "with any of the words" in note(panel)

    choose(project, "All projects")
    settle(qtbot, panel)
    assert set(results(panel)) == {2, 3, 4, 5}
    view = panel.findChild(QTableWidget, "agentSearchResults")
    headers = [view.horizontalHeaderItem(c).text() for c in range(view.columnCount())]
    assert headers == ["Rank", "ID", "Type", "Title", "Project", "Pinned"]
    assert [view.item(r, 0).text() for r in range(view.rowCount())] == ["1", "2", "3", "4"]


def test_the_panel_says_when_the_agent_fell_back_to_any_word(qtbot, window, db: Path) -> None:
    type_search(qtbot, window, "token")
    panel = open_panel(qtbot, window)
    match = panel.findChild(QComboBox, "agentSearchMatch")
    assert match.currentText() == "As the agent asks by default (all words, else any)"
    text = panel.findChild(QLineEdit, "agentSearchText")
    text.setText("Token, zebrafish!")  # no row has both words
    settle(qtbot, panel)
    with ObservationStore(db) as store:
        chat = panel.project_name()  # the current row's project
        expected = store.agent_search("Token, zebrafish!", project=chat, all_projects=chat is None)
    assert expected.match == "any" and expected.hits
    assert results(panel) == [hit.id for hit in expected.hits]
    assert "searched again for any of them" in note(panel)

    choose(match, "All words")  # asked for all words: the agent does not fall back
    settle(qtbot, panel)
    assert results(panel) == []
    assert "with all the words" in note(panel) and "would find nothing" in note(panel)


def test_double_click_selects_the_row_in_the_table_even_behind_a_filter(qtbot, window) -> None:
    type_search(qtbot, window, "cache")
    assert table(window).model().ids() == [3]
    panel = open_panel(qtbot, window)
    text = panel.findChild(QLineEdit, "agentSearchText")
    text.setText("token race")
    settle(qtbot, panel)
    assert results(panel) == [2]
    view = panel.findChild(QTableWidget, "agentSearchResults")
    rect = view.visualItemRect(view.item(0, 3))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: page(window).selected_ids() == [2])
    current = table(window).currentIndex()
    assert current.siblingAtColumn(Column.ID).data(Qt.ItemDataRole.UserRole) == 2
    assert search_box(window).text() == ""  # the filter that hid it was cleared, and said so
    assert "#2" in window.message_bar.text()


def test_the_agents_search_runs_off_the_main_thread(qtbot, window, monkeypatch) -> None:
    threads: list[int] = []
    real = ObservationStore.agent_search

    def recorded(store, *args, **kwargs):
        threads.append(threading.get_ident())
        return real(store, *args, **kwargs)

    monkeypatch.setattr(ObservationStore, "agent_search", recorded)
    type_search(qtbot, window, "token")
    panel = open_panel(qtbot, window)
    assert results(panel) and threads
    assert threading.main_thread().ident not in threads


def test_closing_the_database_empties_the_panel(qtbot, window) -> None:
    type_search(qtbot, window, "token")
    panel = open_panel(qtbot, window)
    assert results(panel)
    page(window).set_store(None)
    assert results(panel) == [] and not panel.isEnabled()
    assert isinstance(panel, QWidget)
