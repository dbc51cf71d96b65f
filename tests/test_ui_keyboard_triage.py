"""Keyboard triage on the real window: a person goes through many memories with the keys alone.

Each test drives the window by object names and ``qtbot.keyClick``: the next row is current
and selected after every action and refresh, the search box steers the table, Ctrl+Z reaches
the undo stack unless the focused field has text of its own to undo, the type filter stays
open while ticking, Help ▸ Keyboard shortcuts lists every key, and Tab follows each page.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QLineEdit,
    QMenu,
    QToolButton,
    QTreeWidget,
    QWidget,
)

from memory_desk.core import alisio
from window_helpers import (
    agent_forget,
    make_database,
    make_persona_folder,
    stored_row,
    table,
    writes_done,
)

pytest_plugins = ["window_fixture"]  # the open_window fixture

CTRL = Qt.KeyboardModifier.ControlModifier
TITLES = ("First note", "Second note", "Third note", "Fourth note", "Fifth note")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Five live rows (ids 1–5); the table shows them newest first: 5, 4, 3, 2, 1."""
    return make_database(tmp_path / "memory.sqlite", TITLES)


@pytest.fixture
def window(qtbot, open_window, db: Path):
    window = open_window(["--db", str(db)])
    settle(qtbot, window)
    qtbot.waitUntil(lambda: table(window).model().rowCount() == len(TITLES))
    window.activateWindow()
    return window


def settle(qtbot, window) -> None:
    """The latest query's answer is in and no write is running."""
    writes_done(window)
    qtbot.waitUntil(lambda: not window.observations_page.is_busy())


def current_id(window) -> int | None:
    index = table(window).currentIndex()
    return index.data(Qt.ItemDataRole.UserRole) if index.isValid() else None


def selected(window) -> list[int]:
    return window.observations_page.selected_ids()


def focus_on(qtbot, widget: QWidget) -> None:
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)


def select_row(qtbot, window, oid: int) -> None:
    """Make ``oid`` current and selected with the keyboard: Home, then Down to it."""
    view = table(window)
    focus_on(qtbot, view)
    qtbot.keyClick(view, Qt.Key.Key_Home)
    while current_id(window) != oid:
        before = current_id(window)
        qtbot.keyClick(view, Qt.Key.Key_Down)
        assert current_id(window) != before, f"row {oid} is not in the table"
    assert selected(window) == [oid]


def column(db: Path, name: str, oid: int):
    row = stored_row(db, oid)
    return None if row is None else row[name]


def search_box(window) -> QLineEdit:
    return window.findChild(QLineEdit, "observationsSearch")


def assert_goes_on(qtbot, window, gone: int, below: int) -> None:
    """``gone`` left the table; ``below`` is current and the only row selected."""
    qtbot.waitUntil(lambda: gone not in table(window).model().ids())
    settle(qtbot, window)
    assert current_id(window) == below
    assert selected(window) == [below]


# -- 1. the current row stays selected --------------------------------------------------------


def test_unpin_under_pinned_only_goes_on_to_the_next_row(qtbot, window, db: Path) -> None:
    conn = alisio.connect_like_plugin(db)
    conn.execute("UPDATE observations SET pinned = 1")
    conn.close()
    window.findChild(QCheckBox, "pinnedOnlyFilter").setChecked(True)
    settle(qtbot, window)
    view = table(window)
    select_row(qtbot, window, 4)
    for current, below in ((4, 3), (3, 2)):
        qtbot.keyClick(view, Qt.Key.Key_P, CTRL)
        writes_done(window)
        assert column(db, "pinned", current) == 0
        assert_goes_on(qtbot, window, current, below)
        assert view.hasFocus()  # the action came from the table: the focus stays there


def test_unpinning_several_rows_goes_on_below_the_last_of_them(qtbot, window, db: Path) -> None:
    conn = alisio.connect_like_plugin(db)
    conn.execute("UPDATE observations SET pinned = 1")
    conn.close()
    window.findChild(QCheckBox, "pinnedOnlyFilter").setChecked(True)
    settle(qtbot, window)
    view = table(window)
    select_row(qtbot, window, 2)  # rows: 5, 4, 3, 2, 1
    qtbot.keyClick(view, Qt.Key.Key_Up, CTRL)  # move without selecting…
    qtbot.keyClick(view, Qt.Key.Key_Up, CTRL)
    qtbot.keyClick(view, Qt.Key.Key_Space, CTRL)  # …and add row 4
    assert current_id(window) == 4 and selected(window) == [4, 2]
    qtbot.keyClick(view, Qt.Key.Key_P, CTRL)
    writes_done(window)
    assert_goes_on(qtbot, window, 2, 1)  # not 3, the row below the current one


def test_delete_again_and_again_keeps_the_focus_in_the_table(qtbot, window, db: Path) -> None:
    view = table(window)
    select_row(qtbot, window, 3)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    writes_done(window)
    assert_goes_on(qtbot, window, 3, 2)
    assert view.hasFocus()
    assert window.message_bar.text() == "Forgot 1 observation (Ctrl+Z brings it back)"


def test_three_deletes_pressed_at_once_forget_three_rows_in_turn(qtbot, window, db: Path) -> None:
    """A person triaging presses Delete without waiting for each write: every press acts on
    the row the selection comes to (the second one was dropped, nothing forgotten or said)."""
    view = table(window)
    select_row(qtbot, window, 4)
    for _ in range(3):
        qtbot.keyClick(view, Qt.Key.Key_Delete)  # no wait between the keys
    qtbot.waitUntil(
        lambda: all(column(db, "deleted_at", oid) is not None for oid in (4, 3, 2)),
        timeout=10_000,
    )
    writes_done(window)
    settle(qtbot, window)
    assert column(db, "deleted_at", 1) is None  # three presses, three rows
    assert current_id(window) == 1 and view.hasFocus()


def test_the_agent_forgetting_the_current_row_moves_on_to_the_row_below(
    qtbot, window, db: Path
) -> None:
    select_row(qtbot, window, 4)
    agent_forget(db, 4)
    window.observations_page.refresh()  # what the live watcher calls on the agent's commit
    assert_goes_on(qtbot, window, 4, 3)


def test_undo_that_takes_the_current_row_away_goes_on_below(qtbot, window, db: Path) -> None:
    agent_forget(db, 3)
    forgotten = window.findChild(QCheckBox, "showForgottenFilter")
    forgotten.setChecked(True)
    settle(qtbot, window)
    view = table(window)
    select_row(qtbot, window, 3)
    qtbot.keyClick(view, Qt.Key.Key_R, CTRL)  # restore
    writes_done(window)
    assert column(db, "deleted_at", 3) is None
    settle(qtbot, window)
    assert selected(window) == [3]  # a restored row stays in view, still selected
    forgotten.setChecked(False)
    settle(qtbot, window)
    focus_on(qtbot, view)
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL)  # forgets row 3 again: it leaves the view
    writes_done(window)
    assert column(db, "deleted_at", 3) is not None
    assert_goes_on(qtbot, window, 3, 2)


# -- 2. the search box steers the table --------------------------------------------------------


def test_search_box_arrows_move_the_table_and_return_reads_the_row(qtbot, window) -> None:
    search = search_box(window)
    focus_on(qtbot, search)
    qtbot.keyClicks(search, "note")
    settle(qtbot, window)
    qtbot.keyClick(search, Qt.Key.Key_Down)
    first = current_id(window)
    assert first is not None and selected(window) == [first]
    qtbot.keyClick(search, Qt.Key.Key_Down)
    assert current_id(window) != first and len(selected(window)) == 1
    qtbot.keyClick(search, Qt.Key.Key_Up)
    assert current_id(window) == first
    assert search.hasFocus()  # steering the table does not leave the search box

    qtbot.keyClick(search, Qt.Key.Key_Return)
    content = window.findChild(QWidget, "observationContent")
    qtbot.waitUntil(content.hasFocus)
    assert window.observations_page.detail.shown_id == first
    qtbot.keyClick(content, Qt.Key.Key_Escape)
    qtbot.waitUntil(table(window).hasFocus)
    qtbot.keyClick(table(window), Qt.Key.Key_Return)  # Return means the same in the table
    qtbot.waitUntil(content.hasFocus)


def test_escape_clears_the_search_and_row_keys_work_from_it(qtbot, window, db: Path) -> None:
    search = search_box(window)
    focus_on(qtbot, search)
    qtbot.keyClicks(search, "third")
    settle(qtbot, window)
    assert table(window).model().ids() == [3]
    qtbot.keyClick(search, Qt.Key.Key_Escape)
    assert search.text() == ""
    settle(qtbot, window)
    assert len(table(window).model().ids()) == len(TITLES)

    select_row(qtbot, window, 2)
    focus_on(qtbot, search)
    qtbot.keyClick(search, Qt.Key.Key_P, CTRL)  # a row shortcut, the focus in the search box
    writes_done(window)
    assert column(db, "pinned", 2) == 1
    qtbot.keyClick(search, Qt.Key.Key_F2)
    assert window.observations_page.detail.editing_id == 2


def test_leaving_the_edit_form_gives_the_focus_back_to_the_table(qtbot, window) -> None:
    view = table(window)
    select_row(qtbot, window, 3)
    qtbot.keyClick(view, Qt.Key.Key_F2)
    title = window.findChild(QLineEdit, "editTitle")
    qtbot.waitUntil(title.hasFocus)
    qtbot.keyClick(title, Qt.Key.Key_Escape)
    assert window.observations_page.detail.editing_id is None
    qtbot.waitUntil(view.hasFocus)  # where F2 was pressed: Del, Ctrl+P go on from there
    assert selected(window) == [3]


# -- 3. Ctrl+Z ---------------------------------------------------------------------------------


def test_ctrl_z_in_an_empty_search_box_undoes_the_last_action(qtbot, window, db: Path) -> None:
    view = table(window)
    select_row(qtbot, window, 4)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    writes_done(window)
    search = search_box(window)
    focus_on(qtbot, search)
    qtbot.keyClick(search, Qt.Key.Key_Z, CTRL)
    writes_done(window)
    assert column(db, "deleted_at", 4) is None


def test_ctrl_z_in_a_field_with_its_own_text_undoes_the_text(qtbot, window, db: Path) -> None:
    select_row(qtbot, window, 4)
    qtbot.keyClick(table(window), Qt.Key.Key_Delete)
    writes_done(window)
    search = search_box(window)
    focus_on(qtbot, search)
    qtbot.keyClicks(search, "zz")
    qtbot.keyClick(search, Qt.Key.Key_Z, CTRL)
    writes_done(window)
    assert search.text() != "zz"  # the field's own typing went back
    assert column(db, "deleted_at", 4) is not None  # the forget did not


def test_the_undo_hint_names_keys_that_work_from_the_focus(qtbot, window, db: Path) -> None:
    """Forget from the button while the search box holds typed text: there Ctrl+Z undoes the
    text, so the message names Edit ▸ Undo instead, and Ctrl+Z indeed keeps the row forgotten."""
    select_row(qtbot, window, 4)
    search = search_box(window)
    focus_on(qtbot, search)
    qtbot.keyClicks(search, "note")
    settle(qtbot, window)
    qtbot.mouseClick(window.findChild(QToolButton, "forgetButton"), Qt.MouseButton.LeftButton)
    writes_done(window)
    assert search.hasFocus()
    assert window.message_bar.text() == "Forgot 1 observation (Edit ▸ Undo brings it back)"
    qtbot.keyClick(search, Qt.Key.Key_Z, CTRL)
    writes_done(window)
    assert column(db, "deleted_at", 4) is not None
    window.findChild(QAction, "undoAction").trigger()
    writes_done(window)
    assert column(db, "deleted_at", 4) is None


# -- 4. the filters ----------------------------------------------------------------------------


# A popup menu grabs the keyboard, which the offscreen platform cannot do (and says so).
@pytest.mark.qt_log_ignore("does not support grabbing the keyboard")
def test_type_filter_stays_open_while_ticking_and_filters_show_their_state(qtbot, window) -> None:
    button = window.findChild(QToolButton, "typeFilter")
    menu = button.findChild(QMenu, "typeFilterMenu")
    seen: list[bool] = []

    def tick_two_then_close() -> None:
        for name in ("typeFilter_bugfix", "typeFilter_decision"):
            action = next(a for a in menu.actions() if a.objectName() == name)
            qtbot.mouseClick(
                menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center()
            )
            seen.append(menu.isVisible() and action.isChecked())
        menu.close()

    QTimer.singleShot(100, tick_two_then_close)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # the menu's own loop runs here
    qtbot.waitUntil(lambda: len(seen) == 2 and not menu.isVisible())
    assert seen == [True, True]
    assert button.text() == "Types: 2" and button.font().bold()
    assert "decision, bugfix" in button.toolTip()
    settle(qtbot, window)
    assert len(table(window).model().ids()) == len(TITLES)  # all rows are decisions

    scope = window.findChild(QComboBox, "scopeFilter")
    pinned = window.findChild(QCheckBox, "pinnedOnlyFilter")
    assert not scope.font().bold() and not pinned.font().bold()
    scope.setCurrentIndex(1)
    pinned.setChecked(True)
    assert scope.font().bold() and pinned.font().bold()
    settle(qtbot, window)
    assert table(window).model().ids() == []  # no row is pinned
    window.observations_page.show_observation_id(1)  # clears every filter to show it
    settle(qtbot, window)
    assert not any(
        window.findChild(QWidget, name).font().bold()
        for name in ("typeFilter", "scopeFilter", "pinnedOnlyFilter")
    )
    assert button.text() == "All types"


# -- 5. Help ▸ Keyboard shortcuts and Tab ------------------------------------------------------


def test_keyboard_shortcuts_lists_every_shortcut_of_the_window(qtbot, window) -> None:
    help_action = window.findChild(QAction, "shortcutsAction")
    help_action.trigger()
    dialog = window.findChild(QWidget, "shortcutsDialog")
    qtbot.waitUntil(dialog.isVisible)
    listed = {keys for keys, _does, _where in dialog.rows()}
    native = QKeySequence.SequenceFormat.NativeText
    for action in window.findChildren(QAction):
        for keys in action.shortcuts():
            assert keys.toString(native) in listed, action.objectName() or action.text()
    assert {"Ctrl+P", "Del", "F2", "Ctrl+Z", "Ctrl+L", "Esc"} <= listed
    does = {does for _keys, does, _where in dialog.rows()}
    assert "Go to the entry list" in does  # a persona page QShortcut, by its description

    extra = QAction("Something new", window)  # a later action shows without editing the list
    extra.setShortcut(QKeySequence("Ctrl+Alt+J"))
    window.addAction(extra)
    help_action.trigger()
    assert ("Ctrl+Alt+J", "Something new", "Everywhere") in dialog.rows()
    dialog.close()


def tab_sequence(qtbot, start: QWidget, count: int) -> list[str]:
    focus_on(qtbot, start)
    names = [start.objectName()]
    for _ in range(count):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        names.append(QApplication.focusWidget().objectName())
    return names


def test_tab_follows_the_observations_page_as_it_reads(qtbot, window) -> None:
    select_row(qtbot, window, 4)
    assert tab_sequence(qtbot, search_box(window), 14) == [
        "observationsSearch",
        "typeFilter",
        "projectFilter",
        "scopeFilter",
        "dateRangeFilter",
        "pinnedOnlyFilter",
        "showForgottenFilter",
        "pinButton",
        "forgetButton",
        "editButton",  # Restore is disabled: no forgotten row is selected
        "agentSearchButton",
        "deleteButton",
        "observationsTable",
        "observationContent",  # the table no longer keeps Tab to move between cells
        "liveIndicator",
    ]


def test_tab_follows_the_persona_page_as_it_reads(qtbot, open_window, tmp_path: Path) -> None:
    folder = make_persona_folder(tmp_path / "memory")
    window = open_window(["--persona", str(folder)])
    window.activateWindow()
    filter_box = window.findChild(QLineEdit, "personaFilter")
    qtbot.waitUntil(filter_box.isVisible)
    assert tab_sequence(qtbot, filter_box, 6) == [
        "personaFilter",
        "personaList",
        "personaNew",  # the entry's buttons sit above its fields (Save and Revert disabled)
        "personaRename",
        "personaForget",
        "personaName",
        "personaType",
    ]


def test_keyboard_shortcuts_are_grouped_by_page_and_can_be_searched(qtbot, window) -> None:
    window.findChild(QAction, "shortcutsAction").trigger()
    dialog = window.findChild(QWidget, "shortcutsDialog")
    qtbot.waitUntil(dialog.isVisible)
    tree = dialog.findChild(QTreeWidget, "shortcutsList")
    groups = [tree.topLevelItem(g).text(0) for g in range(tree.topLevelItemCount())]
    assert groups[0] == "Everywhere" and "Observations" in groups
    assert len(groups) == len(set(groups))  # one group per place
    qtbot.keyClicks(dialog.findChild(QLineEdit, "shortcutsFilter"), "entry list")
    rows = dialog.rows()
    assert ("Ctrl+L", "Go to the entry list", "Memory of the person") in rows
    assert all(
        {"entry", "list"} <= set(does.lower().replace("(", " ").replace(")", " ").split())
        for _keys, does, _where in rows
    )  # every word typed, in any order
    hidden = [tree.topLevelItem(g).isHidden() for g in range(tree.topLevelItemCount())]
    assert any(hidden) and not all(hidden)  # groups with no match are hidden
    dialog.close()
