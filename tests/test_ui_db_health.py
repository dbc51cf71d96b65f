"""The database's health in the window: read-only with a banner when damaged, checked again
from Tools ▸ Check database after the person's repair, rows that cannot be read shown as such.

A real window offscreen on real plugin-built files; damage made as in ``test_db_damaged``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QToolButton

from memory_desk.core.observations import StoreDamaged
from test_db_damaged import break_index, damage_file, rebuild_index, spoil_row
from window_helpers import make_database, stored_row, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

TITLES = ("First note", "Second note", "Third note")
WRITE_BUTTONS = ("pinButton", "forgetButton", "restoreButton", "editButton", "deleteButton")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_database(tmp_path / "agent" / "memory.sqlite", TITLES)


def page(window):
    return window.observations_page


def checked(qtbot, window) -> None:
    qtbot.waitUntil(lambda: not page(window).is_checking_index(), timeout=10_000)


def opened(qtbot, open_window, db: Path):
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)
    checked(qtbot, window)
    table(window).selectRow(0)
    return window


def enabled_buttons(window) -> list[str]:
    return [n for n in WRITE_BUTTONS if window.findChild(QToolButton, n).isEnabled()]


def banner_text(window) -> str:
    return window.findChild(QLabel, "indexHealthText").text()


def test_a_broken_index_disables_every_write_until_checked_again_after_the_rebuild(
    qtbot, open_window, db: Path
) -> None:
    break_index(db)
    window = opened(qtbot, open_window, db)
    assert page(window).index_banner.isVisible()
    assert "VALUES('rebuild')" in banner_text(window)
    assert enabled_buttons(window) == []
    assert not page(window).pin_action.isEnabled()
    page(window).pin_action.trigger()  # even a shortcut that slipped through writes nothing
    assert stored_row(db, 1)["pinned"] == 0
    assert isinstance(page(window).store.damage, StoreDamaged)

    rebuild_index(db)  # the person repairs it outside, as the banner said
    window.findChild(QAction, "checkDatabaseAction").trigger()
    checked(qtbot, window)
    qtbot.waitUntil(lambda: page(window).index_banner.isHidden())
    assert "healthy" in window.message_bar.text()
    assert set(enabled_buttons(window)) >= {"pinButton", "forgetButton", "editButton"}
    window.findChild(QToolButton, "pinButton").click()
    qtbot.waitUntil(lambda: stored_row(db, table(window).model().id_at(0))["pinned"] == 1)


def test_a_damaged_file_names_its_real_cause(qtbot, open_window, db: Path) -> None:
    damage_file(db)
    window = opened(qtbot, open_window, db)
    text = banner_text(window)
    assert "is damaged" in text and "restore a backup" in text
    assert "VALUES('rebuild')" not in text
    assert enabled_buttons(window) == []


def test_a_healthy_database_keeps_its_actions_and_check_says_so(
    qtbot, open_window, db: Path
) -> None:
    window = opened(qtbot, open_window, db)
    assert page(window).index_banner.isHidden()
    assert "pinButton" in enabled_buttons(window)
    window.check_database()
    checked(qtbot, window)
    qtbot.waitUntil(lambda: "healthy" in window.message_bar.text())
    assert "pinButton" in enabled_buttons(window)


def test_tools_menu_offers_check_database(open_window) -> None:
    window = open_window([])
    menus = {action.text(): action.menu() for action in window.menuBar().actions()}
    tools = menus["&Tools"]
    assert [a.objectName() for a in tools.actions()] == ["checkDatabaseAction"]
    window.findChild(QAction, "checkDatabaseAction").trigger()  # nothing open: says so
    assert "Open an Alisio database" in window.message_bar.text()


def test_a_row_that_cannot_be_decoded_is_shown_as_such(qtbot, open_window, db: Path) -> None:
    spoil_row(db, 1, "title = CAST(X'426164FF207469746C65' AS TEXT)")
    window = opened(qtbot, open_window, db)
    model = table(window).model()
    row = model.row_of(1)
    title = model.index(row, 3).data(Qt.ItemDataRole.DisplayRole)
    assert title == "⚠ Bad\ufffd title"
    tip = model.index(row, 3).data(Qt.ItemDataRole.ToolTipRole)
    assert "Cannot be read as stored" in tip and "not valid UTF-8" in tip
    table(window).selectRow(row)
    qtbot.waitUntil(lambda: page(window).detail.shown_id == 1)
    assert "Unreadable" in page(window).detail.meta_label.text()
    assert page(window).index_banner.isHidden()  # one bad row is not a damaged database
