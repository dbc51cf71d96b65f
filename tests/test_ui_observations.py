"""The Observations page, driven through the window by object names as a person would."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTextBrowser,
    QToolButton,
    QWidget,
)

from alisio_fixtures import BASE_NOW, PROJECTS, add_observation, plugin_connection
from memory_desk.app import create_main_window
from memory_desk.core import alisio
from memory_desk.ui import dates
from memory_desk.ui.observations.model import Column
from memory_desk.ui.widgets.display import pin_glyph
from window_helpers import writes_done

MINUTE = 60_000
CONTENT = (
    "**What** The refresh token raced the access token.\n\n"
    "**Why** Two tabs refreshed at once.\n\n"
    "**Where** src/auth/client.py\n\n"
    "**Learned** Serialise refreshes behind one lock. [docs](https://example.com/x)"
)

# title, type, project index, scope, pinned, forgotten
ROWS = [
    ("Token refresh race in auth client", "bugfix", 0, "project", False, False),
    ("Use sqlite WAL for the cache", "decision", 0, "project", True, False),
    ("Prefer ruff over flake8", "preference", 1, "personal", False, False),
    ("Qt db layer choice", "architecture", 1, "project", False, False),
    ("Old build trick", "config", 1, "project", False, True),
    ("Scroll position must survive reload", "pattern", 2, "project", True, False),
    ("Trigram needs three characters", "learning", 2, "project", False, False),
    ("Found the flaky socket test", "discovery", 0, "project", False, False),
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A small database: one row per type, newest last, one pinned pair, one forgotten."""
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    for minute, (title, type_, project, scope, pinned, forgotten) in enumerate(ROWS):
        at = BASE_NOW + minute * MINUTE
        add_observation(
            path,
            title=title,
            content=CONTENT if minute == 0 else f"**What** {title.lower()}",
            type=type_,
            project=PROJECTS[project],
            scope=scope,
            topic_key="auth/token-refresh" if minute == 0 else None,
            pinned=pinned,
            deleted_at=at + MINUTE if forgotten else None,
            created_at=at,
        )
    return path


@pytest.fixture
def window(qtbot, db: Path):
    window = create_main_window(["--db", str(db)])
    qtbot.addWidget(window)
    window.show()
    page = window.observations_page
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 7 and not page.is_busy())
    return window


def table(window) -> QTableView:
    return window.findChild(QTableView, "observationsTable")


def page(window):
    return window.observations_page


def shown_ids(window) -> list[int]:
    model = table(window).model()
    return [
        model.index(row, Column.ID).data(Qt.ItemDataRole.UserRole)
        for row in range(model.rowCount())
    ]


def titles(window) -> list[str]:
    model = table(window).model()
    return [model.index(row, Column.TITLE).data() for row in range(model.rowCount())]


def select(qtbot, window, *ids: int) -> None:
    """Click the first row, Ctrl+click the others: what a person does."""
    view = table(window)
    for n, oid in enumerate(ids):
        index = view.model().index(shown_ids(window).index(oid), Column.TITLE)
        view.scrollTo(index)
        modifier = Qt.KeyboardModifier.ControlModifier if n else Qt.KeyboardModifier.NoModifier
        qtbot.mouseClick(
            view.viewport(), Qt.MouseButton.LeftButton, modifier, view.visualRect(index).center()
        )


def click(qtbot, window, name: str) -> None:
    button = window.findChild(QToolButton, name) or window.findChild(QWidget, name)
    assert button is not None, name
    assert button.isEnabled(), f"{name} is disabled"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    writes_done(window)  # writes run in the background


def settle(qtbot, window) -> None:
    """Wait until typing has settled and the latest query's answer is in the table."""
    qtbot.waitUntil(lambda: not page(window).is_busy())


def undo(window) -> None:
    action = window.findChild(QAction, "undoAction")
    assert action.isEnabled()
    action.trigger()
    writes_done(window)


def column(db: Path, name: str, oid: int):
    with plugin_connection(db) as conn:
        return conn.execute(f"SELECT {name} FROM observations WHERE id = ?", (oid,)).fetchone()[0]


# -- opening, status, detail ---------------------------------------------------------------------


def test_opens_live_rows_newest_first_with_counts(window, db: Path) -> None:
    assert shown_ids(window) == [8, 7, 6, 4, 3, 2, 1]
    assert window.findChild(QLabel, "statusCounts").text() == (
        "Showing 7 · 7 live · 1 forgotten · 2 pinned"
    )
    model = table(window).model()
    tip = model.index(0, Column.UPDATED).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == dates.exact(column(db, "updated_at", 8))  # the exact time, one date style
    assert model.index(shown_ids(window).index(2), Column.PINNED).data() == pin_glyph()
    assert all(model.index(0, c).data(Qt.ItemDataRole.UserRole) == 8 for c in range(len(Column)))


def test_detail_shows_metadata_and_markdown_without_following_links(qtbot, window) -> None:
    select(qtbot, window, 1)
    detail = window.findChild(QWidget, "observationDetail")
    assert (
        detail.findChild(QLabel, "observationTitle").text() == "Token refresh race in auth client"
    )
    meta = detail.findChild(QLabel, "observationMeta").text()
    for fact in ("auth/token-refresh", "session-1", "memory_save", PROJECTS[0], "Revisions"):
        assert fact in meta
    content = detail.findChild(QTextBrowser, "observationContent")
    assert not content.openLinks() and not content.openExternalLinks()
    text = content.toPlainText()
    assert "**" not in text and "What" in text and "Learned" in text
    assert content.toMarkdown().count("**") >= 8  # the sections are bold, not literal stars


# -- search and filters --------------------------------------------------------------------------


def test_search_follows_typing_including_short_words(qtbot, window) -> None:
    search = window.findChild(QLineEdit, "observationsSearch")
    qtbot.keyClicks(search, "token")
    settle(qtbot, window)
    assert shown_ids(window) == [1]
    search.clear()
    qtbot.keyClicks(search, "qt db")
    settle(qtbot, window)
    assert titles(window) == ["Qt db layer choice"]
    search.clear()
    settle(qtbot, window)
    assert len(shown_ids(window)) == 7


def test_filters_type_project_scope_pinned_forgotten(qtbot, window) -> None:
    type_button = window.findChild(QToolButton, "typeFilter")
    actions = {a.objectName(): a for a in type_button.menu().actions()}
    actions["typeFilter_bugfix"].trigger()
    actions["typeFilter_decision"].trigger()
    settle(qtbot, window)
    assert sorted(shown_ids(window)) == [1, 2]
    assert type_button.text() == "Types: 2"
    actions["typeFilterAll"].trigger()
    settle(qtbot, window)
    assert len(shown_ids(window)) == 7

    project = window.findChild(QComboBox, "projectFilter")
    project.setCurrentIndex(project.findText(PROJECTS[2]))
    settle(qtbot, window)
    assert sorted(shown_ids(window)) == [6, 7]
    project.setCurrentIndex(0)

    scope = window.findChild(QComboBox, "scopeFilter")
    scope.setCurrentIndex(scope.findText("Personal"))
    settle(qtbot, window)
    assert shown_ids(window) == [3]
    scope.setCurrentIndex(0)

    window.findChild(QCheckBox, "pinnedOnlyFilter").setChecked(True)
    settle(qtbot, window)
    assert sorted(shown_ids(window)) == [2, 6]
    window.findChild(QCheckBox, "pinnedOnlyFilter").setChecked(False)

    window.findChild(QCheckBox, "showForgottenFilter").setChecked(True)
    settle(qtbot, window)
    assert 5 in shown_ids(window)
    row = shown_ids(window).index(5)
    model = table(window).model()
    assert model.index(row, Column.TITLE).data(Qt.ItemDataRole.FontRole).italic()
    assert "Forgotten" in model.index(row, Column.TITLE).data(Qt.ItemDataRole.ToolTipRole)


def test_header_click_sorts_in_sql_and_third_click_clears(qtbot, window) -> None:
    header = table(window).horizontalHeader()

    def click_header(col: Column) -> None:
        x = header.sectionViewportPosition(col) + header.sectionSize(col) // 2
        qtbot.mouseClick(
            header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2)
        )
        settle(qtbot, window)

    live_titles = sorted((r[0] for r in ROWS if not r[5]), key=str.lower)
    click_header(Column.TITLE)
    assert titles(window) == live_titles
    click_header(Column.TITLE)
    assert titles(window) == live_titles[::-1]
    click_header(Column.TITLE)
    assert shown_ids(window) == [8, 7, 6, 4, 3, 2, 1]
    click_header(Column.ID)
    assert shown_ids(window) == [8, 7, 6, 4, 3, 2, 1]
    click_header(Column.ID)
    assert shown_ids(window) == [1, 2, 3, 4, 6, 7, 8]


# -- writes and undo -----------------------------------------------------------------------------


def test_pin_toggles_and_undo_puts_back_each_state(qtbot, window, db: Path) -> None:
    select(qtbot, window, 1, 2)  # 2 is pinned already, 1 is not
    pin = window.findChild(QToolButton, "pinButton")
    assert pin.text() == "Pin"
    click(qtbot, window, "pinButton")
    assert column(db, "pinned", 1) == 1 and column(db, "pinned", 2) == 1
    assert window.message_bar.text() == "Pinned 2 observations"
    qtbot.waitUntil(lambda: pin.text() == "Unpin")
    settle(qtbot, window)
    assert "3 pinned" in window.findChild(QLabel, "statusCounts").text()

    undo(window)
    assert column(db, "pinned", 1) == 0 and column(db, "pinned", 2) == 1
    assert page(window).selected_ids() == [2, 1]


def test_forget_undo_then_restore_from_show_forgotten(qtbot, window, db: Path) -> None:
    select(qtbot, window, 3)
    click(qtbot, window, "forgetButton")
    assert column(db, "deleted_at", 3) is not None
    qtbot.waitUntil(lambda: 3 not in shown_ids(window))
    assert "Forgot 1 observation" in window.message_bar.text()

    undo(window)
    assert column(db, "deleted_at", 3) is None
    qtbot.waitUntil(lambda: 3 in shown_ids(window))

    window.findChild(QCheckBox, "showForgottenFilter").setChecked(True)
    settle(qtbot, window)
    select(qtbot, window, 5)
    assert not window.findChild(QToolButton, "forgetButton").isEnabled()
    click(qtbot, window, "restoreButton")
    assert column(db, "deleted_at", 5) is None
    settle(qtbot, window)
    model = table(window).model()
    assert not model.index(shown_ids(window).index(5), Column.TITLE).data(Qt.ItemDataRole.FontRole)

    before = BASE_NOW + 5 * MINUTE  # the fixture forgot row 5 one minute after it was made
    undo(window)
    assert column(db, "deleted_at", 5) == before


def test_delete_asks_with_the_count_and_cancel_keeps_rows(
    qtbot, window, db: Path, monkeypatch
) -> None:
    asked: list[str] = []

    def answer(button_name: str):
        def exec_(box: QMessageBox) -> int:
            asked.append(f"{box.text()} {box.informativeText()}")
            box.findChild(QPushButton, button_name).click()
            return 0

        return exec_

    select(qtbot, window, 7, 8)
    monkeypatch.setattr(QMessageBox, "exec", answer("cancelDeleteButton"))
    click(qtbot, window, "deleteButton")
    assert column(db, "id", 7) == 7
    monkeypatch.setattr(QMessageBox, "exec", answer("confirmDeleteButton"))
    click(qtbot, window, "deleteButton")
    assert "Delete 2 observations permanently" in asked[-1] and "cannot be undone" in asked[-1]
    with plugin_connection(db) as conn:
        assert (
            conn.execute("SELECT count(*) FROM observations WHERE id IN (7, 8)").fetchone()[0] == 0
        )
    qtbot.waitUntil(lambda: shown_ids(window) == [6, 4, 3, 2, 1])
    assert window.message_bar.text() == "Deleted 2 observations permanently"


def test_edit_validates_saves_and_undo_reverts(qtbot, window, db: Path) -> None:
    select(qtbot, window, 1)
    click(qtbot, window, "editButton")
    title = window.findChild(QLineEdit, "editTitle")
    topic = window.findChild(QLineEdit, "editTopicKey")
    content = window.findChild(QPlainTextEdit, "editContent")
    error = window.findChild(QLabel, "editError")
    kind = window.findChild(QComboBox, "editType")
    assert title.text() == "Token refresh race in auth client" and content.toPlainText() == CONTENT

    title.setText("   ")
    click(qtbot, window, "saveEditButton")
    assert error.isVisible() and "title" in error.text()
    assert column(db, "revision_count", 1) == 1

    # A key is stored as the plugin stores it, and the form says so as it is typed.
    topic.setText("Auth / Refresh  Lock!")
    stored_as = window.findChild(QLabel, "editTopicKeyStored")
    assert stored_as.isVisible() and stored_as.text() == "stored as auth/refresh-lock"
    title.setText("Refresh tokens race across tabs")
    kind.setCurrentText("pattern")
    content.setPlainText(CONTENT + "\n\n<private>secret</private>")
    click(qtbot, window, "saveEditButton")
    assert column(db, "title", 1) == "Refresh tokens race across tabs"
    assert column(db, "type", 1) == "pattern"
    assert column(db, "topic_key", 1) == "auth/refresh-lock"
    assert column(db, "revision_count", 1) == 2
    assert "[REDACTED]" in column(db, "content", 1)
    assert not title.isVisible()
    detail_title = window.findChild(QLabel, "observationTitle")
    assert detail_title.text() == "Refresh tokens race across tabs"
    qtbot.waitUntil(lambda: "Refresh tokens race across tabs" in titles(window))

    undo(window)
    assert column(db, "title", 1) == "Token refresh race in auth client"
    assert column(db, "revision_count", 1) == 1
    assert detail_title.text() == "Token refresh race in auth client"


def test_cancel_edit_writes_nothing(qtbot, window, db: Path) -> None:
    select(qtbot, window, 4)
    click(qtbot, window, "editButton")
    window.findChild(QLineEdit, "editTitle").setText("Something else")
    click(qtbot, window, "cancelEditButton")
    assert column(db, "title", 4) == "Qt db layer choice"
    assert window.findChild(QLabel, "observationTitle").isVisible()


# -- errors and refresh --------------------------------------------------------------------------


def test_store_error_reaches_the_message_bar_and_window_stays_usable(
    qtbot, window, db: Path
) -> None:
    select(qtbot, window, 4)
    with plugin_connection(db) as conn:  # someone breaks the database under us
        conn.execute("DROP TABLE observations")
    click(qtbot, window, "pinButton")
    assert window.message_bar.kind == "error"
    assert "no such table" in window.message_bar.text()
    search = window.findChild(QLineEdit, "observationsSearch")
    qtbot.keyClicks(search, "x")
    settle(qtbot, window)
    assert window.message_bar.kind == "error" and search.isEnabled()


def test_refresh_after_agent_write_keeps_selection_current_and_detail(
    qtbot, window, db: Path
) -> None:
    select(qtbot, window, 6, 3)
    view = table(window)
    assert view.currentIndex().data(Qt.ItemDataRole.UserRole) == 3
    with plugin_connection(db) as conn:  # the agent saves a new row and touches row 3
        alisio.save_observation(
            conn, title="Brand new", content="**What** new", type="decision", project=PROJECTS[0]
        )
        conn.execute("UPDATE observations SET access_count = 4 WHERE id = 3")
    resets: list[bool] = []
    view.model().modelReset.connect(lambda: resets.append(True))
    with qtbot.waitSignal(page(window).refreshed):
        page(window).refresh()
    assert shown_ids(window)[0] == 9
    assert resets == []
    assert sorted(page(window).selected_ids()) == [3, 6]
    assert view.currentIndex().data(Qt.ItemDataRole.UserRole) == 3
    row = shown_ids(window).index(3)
    assert view.model().index(row, Column.ACCESSES).data() == "4"
    assert "Showing 8 · 8 live" in window.findChild(QLabel, "statusCounts").text()


def test_model_passes_qtmodeltester_through_refreshes(
    qtbot, qtmodeltester, window, db: Path
) -> None:
    model = table(window).model()
    qtmodeltester.check(model)
    with plugin_connection(db) as conn:
        for n in range(3):
            alisio.save_observation(
                conn, title=f"New {n}", content=f"new {n}", type="pattern", project=PROJECTS[1]
            )
        conn.execute("UPDATE observations SET deleted_at = 1 WHERE id IN (2, 7)")
        conn.execute(
            "UPDATE observations SET updated_at = ? WHERE id = 1", (alisio.now_ms() + 60 * MINUTE,)
        )
    with qtbot.waitSignal(page(window).refreshed):
        page(window).refresh()
    assert shown_ids(window) == [1, 11, 10, 9, 8, 6, 4, 3]


def test_window_without_database_says_so(qtbot) -> None:
    window = create_main_window([])
    qtbot.addWidget(window)
    assert not table(window).isEnabled()
    assert not window.findChild(QToolButton, "pinButton").isEnabled()


def test_unreadable_file_is_reported(qtbot, tmp_path: Path) -> None:
    garbage = tmp_path / "memory.sqlite"
    garbage.write_bytes(b"not a database at all" * 100)
    window = create_main_window(["--db", str(garbage)])
    qtbot.addWidget(window)
    assert window.message_bar.kind == "error"
    assert not table(window).isEnabled()


def test_sqlite_is_only_the_standard_library() -> None:
    assert sqlite3.sqlite_version  # QtSql is never imported by the page
    import sys

    assert not any(name.startswith("PySide6.QtSql") for name in sys.modules)


def test_keyboard_delete_forgets_and_ctrl_z_brings_back(qtbot, window, db: Path) -> None:
    select(qtbot, window, 4)
    view = table(window)
    window.activateWindow()
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    writes_done(window)
    assert column(db, "deleted_at", 4) is not None
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    writes_done(window)
    assert column(db, "deleted_at", 4) is None
