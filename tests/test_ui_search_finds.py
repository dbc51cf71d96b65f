"""Search that shows what it found: highlighted words, a date range, saved searches.

A database built by the plugin's DDL, a real window driven by object names; the highlight is
read from what the window painted (a grab of the table) and from the detail's document.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QInputDialog,
    QLabel,
    QLineEdit,
    QTextBrowser,
    QToolButton,
    QWidget,
)

from alisio_fixtures import add_observation
from heartbeat import Heartbeat
from memory_desk.core import alisio
from memory_desk.ui import theme
from memory_desk.ui.observations.highlight import DETAIL_HITS
from memory_desk.ui.observations.model import Column
from ui_strings import OPEN, marked_language, unnamed, untranslated
from window_helpers import table

pytest_plugins = ["window_fixture"]  # the open_window fixture

DAY = 86_400_000
MAX_STALL_S = 0.100  # as tests/test_ui_observation_large.py


@pytest.fixture
def now() -> int:
    return alisio.now_ms()


@pytest.fixture
def db(tmp_path: Path, now: int) -> Path:
    """#1 created two days ago; #2 created 40 days ago, rewritten yesterday; #3 created 40
    days ago; #4 created 10 days ago, with the words in its body only."""
    path = tmp_path / "agent" / "memory.sqlite"
    path.parent.mkdir()
    alisio.create_database(path)
    add_observation(
        path,
        title="Cache tokens per tab",
        content="**What** the cache keeps one token per tab",
        created_at=now - 2 * DAY,
    )
    add_observation(
        path,
        title="Rewrite of the CACHE layer",
        content="**What** rewritten",
        created_at=now - 40 * DAY,
        updated_at=now - 1 * DAY,
    )
    add_observation(
        path, title="Eviction order", content="**What** oldest first", created_at=now - 40 * DAY
    )
    add_observation(
        path,
        title="Retry with backoff",
        content="**What** retries hit the cache; the Cache answers",
        created_at=now - 10 * DAY,
    )
    return path


@pytest.fixture
def window(qtbot, open_window, db: Path):
    window = open_window(["--db", str(db)])
    page = window.observations_page
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 4 and not page.is_busy())
    return window


def shown_ids(window) -> set[int]:
    model = table(window).model()
    return {
        model.index(row, Column.ID).data(Qt.ItemDataRole.UserRole)
        for row in range(model.rowCount())
    }


def settle(qtbot, window) -> None:
    page = window.observations_page
    qtbot.waitUntil(lambda: not page.is_busy())


def search(qtbot, window, text: str) -> None:
    box = window.findChild(QLineEdit, "observationsSearch")
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text) if text else box.clear()
    settle(qtbot, window)


def choose(qtbot, window, name: str, index: int) -> None:
    """Open the date popup and choose an entry of one of its lists."""
    button = window.findChild(QToolButton, "dateRangeFilter")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    box = window.findChild(QComboBox, name)
    qtbot.waitUntil(box.isVisible)
    box.setCurrentIndex(index)
    settle(qtbot, window)


# -- the date range ----------------------------------------------------------------------------


def test_the_last_week_by_creation_then_by_update(qtbot, window) -> None:
    button = window.findChild(QToolButton, "dateRangeFilter")
    assert button.text() == "Date" and not button.font().bold()
    choose(qtbot, window, "dateRangeChoice", 2)  # Last 7 days
    assert shown_ids(window) == {1}
    assert button.text() == "7 days" and button.font().bold()
    choose(qtbot, window, "dateFieldChoice", 1)  # Updated
    assert shown_ids(window) == {1, 2}
    assert button.text() == "7 days"
    assert button.toolTip() == "Showing only what was updated: Last 7 days"
    search(qtbot, window, "cache")  # the range and the words together
    assert shown_ids(window) == {1, 2}
    choose(qtbot, window, "dateRangeChoice", 3)  # Last 30 days: #4 was created 10 days ago
    assert shown_ids(window) == {1, 2, 4}
    choose(qtbot, window, "dateRangeChoice", 0)  # Any time
    assert shown_ids(window) == {1, 2, 4}
    assert button.text() == "Date"


def test_chosen_days_include_the_first_and_the_last(qtbot, window, now: int) -> None:
    choose(qtbot, window, "dateRangeChoice", 4)  # Chosen days
    first = window.findChild(QDateEdit, "dateFromEdit")
    last = window.findChild(QDateEdit, "dateToEdit")
    assert first.isEnabled() and last.isEnabled()
    ten_days_ago = datetime.fromtimestamp((now - 10 * DAY) / 1000).date()
    two_days_ago = datetime.fromtimestamp((now - 2 * DAY) / 1000).date()
    first.setDate(ten_days_ago)
    last.setDate(two_days_ago)
    settle(qtbot, window)
    assert shown_ids(window) == {1, 4}
    last.setDate(two_days_ago - timedelta(days=1))  # the day before #1's: #1 goes
    settle(qtbot, window)
    assert shown_ids(window) == {4}
    button = window.findChild(QToolButton, "dateRangeFilter")
    assert button.text() == "Dates"
    assert "created" in button.toolTip() and "–" in button.toolTip()


# -- saved searches ----------------------------------------------------------------------------


def saved_menu_action(window, name: str):
    """The saved searches' menu as the person opens it (a click on the star), and its entry
    called ``name``."""
    star = window.findChild(QToolButton, "savedSearchesButton")
    star.click()
    menu = window.observations_page.filters.saved_searches.menu
    assert menu.isVisible()
    for action in menu.actions():
        if action.objectName() == name or action.text() == name:
            return action
    return None


def test_a_saved_search_comes_back_whole_and_survives_a_restart(
    qtbot, window, open_window, db: Path, monkeypatch
) -> None:
    search(qtbot, window, "cache")
    choose(qtbot, window, "dateRangeChoice", 2)
    choose(qtbot, window, "dateFieldChoice", 1)
    bar = window.observations_page.filters
    bar.type_actions["decision"].setChecked(True)
    settle(qtbot, window)
    assert shown_ids(window) == {1, 2}
    asked = []

    def answer(parent, title, label, echo, text):
        asked.append(text)
        return "Fresh cache", True

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(answer))
    saved_menu_action(window, "saveSearchAction").trigger()
    assert asked == ["cache"]  # the words offered as the name

    bar.clear()
    bar.filters_changed.emit()
    settle(qtbot, window)
    assert shown_ids(window) == {1, 2, 3, 4}
    assert not saved_menu_action(window, "Fresh cache").isChecked()
    saved_menu_action(window, "Fresh cache").trigger()
    settle(qtbot, window)
    assert shown_ids(window) == {1, 2}
    assert saved_menu_action(window, "Fresh cache").isChecked()  # ticked: the one shown
    state = bar.state()
    assert state.text == "cache" and state.types == ("decision",)
    assert (state.date.preset, state.date.field) == ("7d", "updated")
    assert window.findChild(QLineEdit, "observationsSearch").text() == "cache"

    # A second window on the same settings: the saved search is there, and works there.
    second = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(second).model().rowCount() == 4)
    settle(qtbot, second)
    assert second.observations_page.filters.saved_searches.names() == ["Fresh cache"]
    saved_menu_action(second, "Fresh cache").trigger()
    settle(qtbot, second)
    assert shown_ids(second) == {1, 2}

    # Removed in one window, gone from the other's menu.
    saved = second.observations_page.filters.saved_searches
    saved.open_menu()
    (remove_menu,) = [a.menu() for a in saved.menu.actions() if a.menu() is not None]
    assert remove_menu.objectName() == "removeSavedSearchMenu"
    (remove,) = remove_menu.actions()
    remove.trigger()
    assert saved_menu_action(window, "Fresh cache") is None


def test_ctrl_d_in_the_search_box_opens_the_saved_searches(qtbot, window) -> None:
    box = window.findChild(QLineEdit, "observationsSearch")
    window.activateWindow()
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    qtbot.keyClick(box, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    menu = window.observations_page.filters.saved_searches.menu
    qtbot.waitUntil(menu.isVisible)
    assert menu.actions()[0].objectName() == "saveSearchAction"


def test_saved_searches_keep_their_order_and_a_name_is_replaced(qtbot, window) -> None:
    button = window.observations_page.filters.saved_searches
    search(qtbot, window, "cache")
    button.save_current("one")
    search(qtbot, window, "retry")
    button.save_current("two")
    search(qtbot, window, "eviction")
    button.save_current("one")  # the same name: replaced, in its place
    assert button.names() == ["one", "two"]
    assert button.restore("one")
    settle(qtbot, window)
    assert window.observations_page.filters.text() == "eviction"
    assert shown_ids(window) == {3}
    assert not button.restore("three")


# -- the bar still fits a small window ---------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_bar_fits_a_1024_window_in_either_language(qtbot, open_window, db, language) -> None:
    window = open_window(["--db", str(db), "--lang", language])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 4)
    settle(qtbot, window)
    window.resize(1024, 640)
    bar = window.observations_page.filters

    def fits() -> list[str]:
        bar.layout().activate()
        assert bar.minimumSizeHint().width() <= bar.width()
        return [
            w.objectName()
            for w in bar.findChildren(QWidget)
            if w.parent() is bar and w.isVisible() and w.width() < w.minimumSizeHint().width()
        ]

    assert fits() == []
    assert bar.search.width() >= 100  # any time: the date filter is a calendar alone
    assert bar.date_filter.text() and bar.date_filter.toolButtonStyle() == (
        Qt.ToolButtonStyle.ToolButtonIconOnly
    )
    choose(qtbot, window, "dateRangeChoice", 4)  # chosen days: the longest word it shows
    assert fits() == []
    assert bar.search.width() >= 60


# -- the words it matched, highlighted ---------------------------------------------------------


def row_of(window, observation_id: int) -> int:
    return table(window).model().row_of(observation_id)


def match_pixels(window, observation_id: int) -> int:
    """Pixels of the match's background in the title cell of that row, as painted."""
    view = table(window)
    index = view.model().index(row_of(window, observation_id), Column.TITLE)
    rect = view.visualRect(index)
    view.viewport().repaint()
    image = view.viewport().grab(rect).toImage()
    fill = QColor(theme.colors().match[0]).rgb()
    return sum(
        image.pixel(x, y) == fill for x in range(image.width()) for y in range(image.height())
    )


def select_row(qtbot, window, observation_id: int) -> None:
    view = table(window)
    view.setCurrentIndex(view.model().index(row_of(window, observation_id), Column.TITLE))
    qtbot.waitUntil(lambda: window.observations_page.detail.shown_id == observation_id)


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_the_titles_mark_the_words_matched_whatever_their_case(qtbot, window, choice) -> None:
    theme.apply_theme(choice)
    page = window.observations_page
    assert page.highlighted_words() == []
    assert match_pixels(window, 1) == 0
    search(qtbot, window, "cache")
    assert page.highlighted_words() == ["cache"]
    assert shown_ids(window) == {1, 2, 4}
    assert match_pixels(window, 1) > 0  # "Cache tokens per tab"
    assert match_pixels(window, 2) > 0  # "Rewrite of the CACHE layer"
    assert match_pixels(window, 4) == 0  # matched by its body: its title has no box
    # The current cell of a focused table is painted by the delegate and the style: marked too.
    view = table(window)
    view.setFocus()
    view.setCurrentIndex(view.model().index(row_of(window, 2), Column.TITLE))
    before = view.painted_by_style
    assert match_pixels(window, 2) > 0
    assert view.painted_by_style > before
    search(qtbot, window, "")
    assert page.highlighted_words() == []
    assert match_pixels(window, 1) == 0


def test_the_marks_in_the_detail_take_the_new_theme(qtbot, window) -> None:
    theme.apply_theme("light")
    search(qtbot, window, "cache")
    select_row(qtbot, window, 1)
    title = window.findChild(QLabel, "observationTitle")
    assert theme.LIGHT.match[0] in title.text()
    theme.apply_theme("dark")
    assert theme.DARK.match[0] in title.text() and theme.LIGHT.match[0] not in title.text()
    content = window.findChild(QTextBrowser, "observationContent")
    cursor = QTextCursor(content.document())
    cursor.setPosition(content.toPlainText().lower().index("cache") + 1)
    assert cursor.charFormat().background().color() == QColor(theme.DARK.match[0])
    assert window.observations_page.detail.highlight_count() == 2


def test_the_detail_marks_the_words_in_the_title_and_the_rendered_content(qtbot, window) -> None:
    page = window.observations_page
    detail = page.detail
    title = window.findChild(QLabel, "observationTitle")
    select_row(qtbot, window, 1)
    assert detail.highlight_count() == 0 and title.textFormat() == Qt.TextFormat.PlainText
    search(qtbot, window, "cache tab")
    select_row(qtbot, window, 1)
    # title "Cache tokens per tab": 2; content "the cache keeps one token per tab": 2
    assert detail.highlight_count() == 4
    fill, ink = theme.colors().match
    assert title.textFormat() == Qt.TextFormat.RichText and fill in title.text()
    content = window.findChild(QTextBrowser, "observationContent")
    document = content.document()
    at = content.toPlainText().lower().index("cache")
    cursor = QTextCursor(document)
    cursor.setPosition(at + 1)
    assert cursor.charFormat().background().color() == QColor(fill)
    assert cursor.charFormat().foreground().color() == QColor(ink)
    search(qtbot, window, "")
    assert detail.highlight_count() == 0
    assert title.textFormat() == Qt.TextFormat.PlainText
    assert title.text() == "Cache tokens per tab"


def test_a_title_is_marked_as_text_never_as_markup(qtbot, window, db: Path) -> None:
    add_observation(db, title="<b>cache</b> & <i>more</i>", content="**What** x")
    page = window.observations_page
    search(qtbot, window, "cache")
    qtbot.waitUntil(lambda: 5 in shown_ids(window))
    select_row(qtbot, window, 5)
    title = window.findChild(QLabel, "observationTitle")
    assert "&lt;b&gt;" in title.text() and "<b>" not in title.text()
    assert page.detail.highlight_count() == 1


def test_a_huge_content_full_of_matches_is_marked_without_a_stall(qtbot, window, db: Path) -> None:
    """5 MB of matches: the reader renders its start, marks a capped number of matches, and
    the window never stalls (the longest heartbeat gap, best of three tries)."""
    add_observation(db, title="Big cache", content="cache " * 900_000)
    search(qtbot, window, "cache")
    qtbot.waitUntil(lambda: 5 in shown_ids(window))
    stalls = []
    for _attempt in range(3):
        select_row(qtbot, window, 1)
        qtbot.wait(100)
        heartbeat = Heartbeat(window).start()
        view = table(window)
        index = view.model().index(row_of(window, 5), Column.TITLE)
        qtbot.mouseClick(
            view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center()
        )
        qtbot.waitUntil(lambda: window.observations_page.detail.shown_id == 5)
        qtbot.wait(300)
        stalls.append(heartbeat.stop())
        print(f"\nselecting 5 MB of matches: longest stall {stalls[-1] * 1000:.1f} ms")
        if stalls[-1] < MAX_STALL_S:
            break
    assert window.observations_page.detail.highlight_count() == DETAIL_HITS
    assert min(stalls) < MAX_STALL_S, f"the window froze for {stalls} s"


def test_the_new_controls_speak_through_the_translator_and_have_names(
    qtbot, open_window, db: Path
) -> None:
    with marked_language():
        window = open_window(["--db", str(db)])
        qtbot.waitUntil(lambda: table(window).model().rowCount() == 4)
        settle(qtbot, window)
        bar = window.observations_page.filters
        bar.saved_searches.save_current("mine")
        bar.saved_searches.open_menu()
        choose(qtbot, window, "dateRangeChoice", 4)
        popup = bar.date_filter.popup
        assert popup.isVisible()
        assert untranslated(popup) == [] and unnamed(popup) == []
        # (the project names are the agents' data)
        assert [t for t in untranslated(bar) if not t.startswith("projectFilter.item")] == []
        assert unnamed(bar) == []
        menu = bar.saved_searches.menu
        texts = [a.text() for a in menu.actions() if not a.isSeparator()]
        assert texts[0].startswith(OPEN) and "mine" in texts  # the name is the person's
        star = window.findChild(QToolButton, "savedSearchesButton")
        assert OPEN in bar.date_filter.toolTip() and OPEN in star.toolTip()
        assert OPEN in star.accessibleName()
