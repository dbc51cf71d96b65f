"""The Chats page's layout on the demo's chats: the detail beside the list while both fit
whole, below it on a small screen, and every tab of the detail readable either way."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QTableView, QTabWidget

from memory_desk.ui import settings

pytest_plugins = ["window_fixture"]  # the open_window fixture


def open_chats(qtbot, open_window, language: str, width: int, height: int = 800):
    window = open_window(["--lang", language, "--demo"])
    window.resize(width, height)
    window.show_page("chats")
    page = window.chats_page
    qtbot.waitUntil(lambda: window.width() == width and page.model.rowCount() > 5)
    page.table.selectRow(0)
    qtbot.waitUntil(lambda: page.export_button.isEnabled() and not page.is_busy())
    return window, page


def tabs_whole(window) -> bool:
    """Every tab inside the bar with room for its title (none behind the scroll arrows)."""
    bar = window.findChild(QTabWidget, "chatTabs").tabBar()
    metrics = bar.fontMetrics()
    return all(
        bar.rect().contains(bar.tabRect(tab))
        and bar.tabRect(tab).width() >= metrics.horizontalAdvance(bar.tabText(tab))
        for tab in range(bar.count())
    )


def placement(window) -> Qt.Orientation:
    return window.findChild(QSplitter, "chatsSplitter").orientation()


def list_scrolls_sideways(window) -> bool:
    return window.findChild(QTableView, "chatsTable").horizontalScrollBar().isVisible()


@pytest.mark.parametrize(("language", "width"), [("en", 1280), ("es", 1600)])
def test_the_detail_sits_beside_the_list_when_both_fit(
    qtbot, open_window, language: str, width: int
) -> None:
    window, page = open_chats(qtbot, open_window, language, width)
    assert placement(window) == Qt.Orientation.Horizontal
    qtbot.waitUntil(lambda: tabs_whole(window) and not list_scrolls_sideways(window))
    tabs = window.findChild(QTabWidget, "chatTabs")
    assert tabs.mapTo(page, tabs.rect().topLeft()).x() > page.table.width()
    # the short titles keep the sections' whole names at hand
    assert tabs.tabToolTip(0) and tabs.tabToolTip(0) != tabs.tabText(0)


@pytest.mark.parametrize("language", ["en", "es"])
def test_on_a_small_screen_the_detail_goes_below_the_list_and_back(
    qtbot, open_window, language: str
) -> None:
    window, page = open_chats(qtbot, open_window, language, 1024, 640)
    assert placement(window) == Qt.Orientation.Vertical
    qtbot.waitUntil(lambda: tabs_whole(window) and not list_scrolls_sideways(window))
    tabs = window.findChild(QTabWidget, "chatTabs")
    table_bottom = page.table.mapTo(page, page.table.rect().bottomLeft()).y()
    assert tabs.mapTo(page, tabs.rect().topLeft()).y() > table_bottom
    window.resize(1700, 800)
    qtbot.waitUntil(lambda: placement(window) == Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: tabs_whole(window) and not list_scrolls_sideways(window))


def test_a_layout_saved_on_a_small_screen_turns_on_a_big_one(qtbot, open_window) -> None:
    """The splitter's saved state carries its orientation: restored on a wide window, the
    detail still comes beside the list."""
    small, _page = open_chats(qtbot, open_window, "en", 1024, 640)
    assert placement(small) == Qt.Orientation.Vertical
    small.close()  # (saves the window's layout)
    saved = QSplitter()
    assert saved.restoreState(settings.ui_state().value("splitters/chatsSplitter"))
    assert saved.orientation() == Qt.Orientation.Vertical
    big, _page = open_chats(qtbot, open_window, "en", 1400)
    qtbot.waitUntil(lambda: placement(big) == Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: tabs_whole(big))


@pytest.mark.parametrize("language", ["en", "es"])
def test_just_wide_enough_each_side_gets_what_it_needs(qtbot, open_window, language) -> None:
    """Turned side by side at the narrowest width that holds both, neither the list nor the
    tabs are squeezed (an even split gave one less than it needs and the other to spare)."""
    from memory_desk.ui.chats import columns

    window, page = open_chats(qtbot, open_window, language, 1024, 640)
    splitter = window.findChild(QSplitter, "chatsSplitter")
    needed = columns.needed_width(page.table) + splitter.handleWidth() + page.detail.needed_width()
    window.resize(window.width() + needed - splitter.width() + 4, 640)
    qtbot.waitUntil(lambda: placement(window) == Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: tabs_whole(window) and not list_scrolls_sideways(window))
