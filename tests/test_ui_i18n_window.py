"""The window's own words go through Qt's translation, and its controls have names.

Under ``marked_language()`` every translated string reads ``⟦text⟧``: a string without the
mark never went through the translator and would stay English in Spanish. The window, its
menus (opened), the welcome page, the sidebar with its details, the live indicator, the
message bar, Help ▸ Keyboard shortcuts (F1) and the compare dialog are checked here; the pages'
own widgets are checked by their own tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QDialogButtonBox,
    QLabel,
    QMenu,
    QPushButton,
    QToolButton,
    QTreeWidget,
    QWidget,
)

from memory_desk.ui.widgets.conflict import CompareDialog, ConflictBanner, unified_diff
from ui_strings import CLOSE, OPEN, marked_language, translated_test_text, unnamed, untranslated
from window_helpers import make_database, make_persona_folder, write_alisio_config

pytest_plugins = ["window_fixture"]  # the open_window fixture

# The window's own menus; the Observation and Entry menus hold the pages' actions (their tests).
OWN_MENUS = (
    "fileMenu",
    "editMenu",
    "toolsMenu",
    "viewMenu",
    "themeMenu",
    "languageMenu",
    "helpMenu",
)


@pytest.fixture
def marked():
    with marked_language():
        yield


@pytest.fixture
def found_home(private_home: Path) -> Path:
    make_database(private_home / ".local/state/alisio/memory.sqlite", ("One", "Two"))
    make_persona_folder(private_home / ".miyagi/memory", ("likes-tea",))
    write_alisio_config(private_home, {"recallLimit": 12})
    return private_home


def widget(root: QWidget, kind, name: str):
    found = root.findChild(kind, name)
    assert found is not None, name
    return found


def is_marked(text: str) -> bool:
    return text.startswith(OPEN) and CLOSE in text


def open_and_close(qtbot, menu: QMenu) -> None:
    """Open a menu as the person would see it, then close it."""
    menu.popup(QPoint(10, 10))
    qtbot.waitUntil(menu.isVisible)
    menu.hide()


@pytest.mark.qt_log_ignore("does not support grabbing the keyboard")  # a popup, offscreen
def test_window_title_and_menus_are_translated(qtbot, marked, open_window) -> None:
    window = open_window([])
    assert is_marked(window.windowTitle())
    for action in window.menuBar().actions():  # every menu's title, the pages' menus too
        assert is_marked(action.text()), action.text()
    for name in OWN_MENUS:
        menu = widget(window, QMenu, name)
        open_and_close(qtbot, menu)
        assert untranslated(menu) == [], name  # texts, tooltips and status tips
    assert is_marked(window.undo_action.text()) and is_marked(window.undo_action.whatsThis())


def test_welcome_page_is_translated_and_named(marked, open_window) -> None:
    window = open_window([])
    page = widget(window, QWidget, "welcomePage")
    assert page.isVisible()
    assert untranslated(page) == []
    assert unnamed(page) == []
    text = widget(page, QLabel, "welcomeText").text()
    assert text.count(OPEN) == 5  # the heading and each paragraph, whole


def test_sidebar_details_and_live_indicator_are_translated_and_named(
    qtbot, marked, open_window, found_home
) -> None:
    window = open_window([])
    widget(window, QToolButton, "sourceDetailsToggle").click()
    sidebar = window.sidebar
    assert widget(sidebar, QLabel, "sourceDetails").isVisible()
    assert untranslated(sidebar) == []
    assert unnamed(sidebar) == []
    tree = widget(sidebar, QTreeWidget, "sourcesList")
    for g in range(tree.topLevelItemCount()):  # while counting: "Counting…", in words too
        for r in range(tree.topLevelItem(g).childCount()):
            assert is_marked(tree.topLevelItem(g).child(r).toolTip(1))
    qtbot.waitUntil(lambda: not sidebar.is_counting())
    for g in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(g)
        assert is_marked(group.text(0))
        for r in range(group.childCount()):
            assert is_marked(group.child(r).toolTip(1))  # the counts, in words
    live = widget(window, QToolButton, "liveIndicator")
    assert untranslated(live) == [] and unnamed(live) == []
    qtbot.mouseClick(live, Qt.MouseButton.LeftButton)  # paused: other words
    assert untranslated(live) == []
    assert is_marked(live.accessibleName()) and is_marked(live.accessibleDescription())


def test_the_window_messages_are_translated(qtbot, marked, open_window, found_home) -> None:
    window = open_window([])
    bar = window.message_bar
    window.findChild(QAction, "checkDatabaseAction").trigger()  # Tools ▸ Check database
    assert bar.isVisible() and is_marked(bar.text())
    assert untranslated(bar) == [] and unnamed(bar) == []

    db = found_home / ".local/state/alisio/memory.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    window.refresh_sources()  # the registry sees the file gone and says so
    assert bar.kind == "error" and is_marked(bar.text()) and str(db) in bar.text()
    tree = widget(window, QTreeWidget, "sourcesList")
    gone = tree.topLevelItem(0).child(0)
    assert is_marked(gone.text(1)) and is_marked(gone.toolTip(1))


def test_keyboard_shortcuts_dialog_from_f1_is_translated_and_named(
    qtbot, marked, open_window
) -> None:
    window = open_window([])
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    dialog = widget(window, QWidget, "shortcutsDialog")
    qtbot.waitUntil(dialog.isVisible)
    assert untranslated(dialog) == []
    assert unnamed(dialog) == []
    assert dialog.rows() and all(is_marked(where) for _keys, _does, where in dialog.rows())
    dialog.close()


def test_compare_dialog_and_conflict_banner_are_translated_and_named(marked, open_window) -> None:
    window = open_window([])
    tips = {
        name: translated_test_text("PageTips", "What this button does")
        for name in ("conflictCompare", "conflictKeepMine", "conflictReload")
    }
    banner = ConflictBanner(tips, window.welcome_page)
    banner.show_changed(translated_test_text("PageTips", "Changed on disk"))
    assert untranslated(banner) == [] and unnamed(banner) == []
    diff = unified_diff(
        "theirs\n", "mine\n", theirs_label="a (on disk)", mine_label="a (yours)", same=""
    )
    dialog = CompareDialog(
        diff, title=translated_test_text("PageTips", "Compare: on disk vs yours"), parent=window
    )
    dialog.show()
    try:
        assert untranslated(dialog) == []
        assert unnamed(dialog) == []
        close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
        assert is_marked(close.text())  # Qt's own words, through its translation too
        for name in ("compareKeepMine", "compareTakeTheirs"):
            assert is_marked(widget(dialog, QPushButton, name).text())
    finally:
        dialog.close()
        QApplication.processEvents()
