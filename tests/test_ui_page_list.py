"""Every page has a place always in sight (the page list), and the keys work from the start."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QListWidget

from window_helpers import make_database, make_persona_folder, wait_until

pytest_plugins = ["window_fixture"]

PAGES = ["observations", "persona", "chats", "overview", "pruning", "review"]


def page_list(window) -> QListWidget:
    found = window.findChild(QListWidget, "pageList")
    assert found is not None
    return found


def test_every_page_is_one_click_or_one_key_away(qtbot, open_window, tmp_path: Path) -> None:
    db = make_database(tmp_path / "memory.sqlite")
    folder = make_persona_folder(tmp_path / ".miyagi" / "memory")
    window = open_window(["--db", str(db), "--persona", str(folder)])
    listed = page_list(window)
    assert listed.isVisible() and listed.count() == len(PAGES)
    names = [listed.item(row).data(Qt.ItemDataRole.UserRole) for row in range(listed.count())]
    assert names == PAGES
    for row, name in enumerate(PAGES):
        item = listed.item(row)
        rect = listed.visualItemRect(item)
        qtbot.mouseClick(listed.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        wait_until(lambda: window.current_page_name() == name)  # noqa: B023
        assert listed.currentItem() is item and item.isSelected()
        assert f"Ctrl+{row + 1}" in item.toolTip()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    for row, name in reversed(list(enumerate(PAGES))):
        key = Qt.Key(Qt.Key.Key_1 + row)
        qtbot.keyClick(QApplication.focusWidget(), key, Qt.KeyboardModifier.ControlModifier)
        wait_until(lambda: window.current_page_name() == name)  # noqa: B023
        assert listed.currentItem().data(Qt.ItemDataRole.UserRole) == name


def test_the_waiting_changes_are_counted_in_the_list(qtbot, open_window) -> None:
    window = open_window(["--demo"])
    listed = page_list(window)
    review = listed.item(PAGES.index("review"))
    wait_until(lambda: "(" in review.text(), 30)  # the demo's agents changed a few things
    assert review.text().startswith("Since you last looked")


def test_the_pages_keys_work_right_after_start(qtbot, open_window, tmp_path: Path) -> None:
    """Ctrl+F straight after start puts the cursor in the page's search (focus started in the
    sidebar, where the page's keys did nothing)."""
    db = make_database(tmp_path / "memory.sqlite")
    window = open_window(["--db", str(db)])
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)
    assert window.observations_page.isAncestorOf(QApplication.focusWidget())
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    search = window.findChild(QLineEdit, "observationsSearch")
    qtbot.waitUntil(search.hasFocus)
