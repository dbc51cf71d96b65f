"""The observations page in the person's language and theme, as a screen reader hears it.

Driven through the real window by object names. Under ``marked_language()`` every string that
goes through Qt's translation reads ``⟦text⟧``: a visible string without the mark never went
through it, so Spanish could not reach it. The page is checked on the demo and on a database
with forgotten rows and every filter changed, with its banners showing; the delete question
names what it deletes; the columns fit the default window with the sort arrow in view; the
banners take their colours from the theme in effect, light and dark.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, QPoint, Qt
from PySide6.QtGui import QAction, QColor, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QFrame,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableView,
    QWidget,
)

from memory_desk.core import alisio
from memory_desk.core.messages import msg
from memory_desk.ui import theme
from memory_desk.ui.observations.columns import HIDDEN_BY_DEFAULT, MIN_TITLE_WIDTH
from memory_desk.ui.observations.model import Column
from memory_desk.ui.observations.page import delete_confirmation
from ui_strings import CLOSE, OPEN, _is_neutral, marked_language, unnamed, untranslated
from window_helpers import agent_forget, agent_save, table, writes_done

pytest_plugins = ["window_fixture"]  # the open_window fixture

NOW = 1_790_000_000_000
MINUTE = 60_000
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
# title, type, project, scope, forgotten, pinned
# A problem as the core words it: a translatable message, shown in the person's language.
DAMAGED = msg("IndexCheck", "The search index is damaged; rebuild it")
ROWS = (
    ("Refresh tokens race across tabs", "bugfix", "alpha-1a2b3c4d", "project", False, True),
    ("Use WAL for the cache", "decision", "alpha-1a2b3c4d", "project", False, False),
    ("Prefers short commit messages", "preference", "beta-5e6f7a8b", "personal", False, False),
    ("Old parser note", "pattern", "beta-5e6f7a8b", "project", True, False),
    ("Stale retry advice", "bugfix", "alpha-1a2b3c4d", "project", True, False),
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Rows saved and forgotten by the plugin's own rules; one pinned as the app pins."""
    path = tmp_path / "alisio" / "memory.sqlite"
    path.parent.mkdir(parents=True)
    alisio.create_database(path)
    for n, (title, kind, project, scope, forgotten, pinned) in enumerate(ROWS):
        at = NOW + n * MINUTE
        saved = agent_save(
            path,
            title=title,
            content=f"**What** {title}",
            type=kind,
            project=project,
            scope=scope,
            now=at,
        )
        if forgotten:
            agent_forget(path, saved.id, at=at + 1)
        if pinned:
            conn = alisio.connect_like_plugin(path)
            try:
                conn.execute("UPDATE observations SET pinned = 1 WHERE id = ?", (saved.id,))
            finally:
                conn.close()
    return path


def page(window):
    return window.observations_page


def settle(qtbot, window) -> None:
    """No write running, the latest query answered, the index check done."""
    writes_done(window)
    qtbot.waitUntil(lambda: not page(window).is_busy() and not page(window).is_checking_index())


def open_db(qtbot, open_window, db: Path, live_rows: int = 3):
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == live_rows)
    settle(qtbot, window)
    window.activateWindow()
    return window


def select_row(view: QTableView, row: int) -> None:
    """Make ``row`` current and the only one selected (``selectRow`` would read modifier keys
    an earlier key click left pressed, and toggle or extend instead)."""
    flags = QItemSelectionModel.SelectionFlag
    view.selectionModel().setCurrentIndex(
        view.model().index(row, 0), flags.ClearAndSelect | flags.Rows
    )


def status(window) -> str:
    return window.findChild(QLabel, "statusCounts").text()


# -- what the harness cannot tell apart yet --------------------------------------------------


def _outside_marks(text: str) -> str:
    """The text outside every ``⟦…⟧``, nested ones included (a translated sentence that holds
    another translated text, e.g. the banner's "Waiting… “⟦Pin 1 observation⟧” …")."""
    depth, kept = 0, []
    for char in text:
        if char == OPEN:
            depth += 1
            kept.append(" ")
        elif char == CLOSE and depth:
            depth -= 1
        elif depth == 0:
            kept.append(char)
    return "".join(kept)


def _still_unmarked(text: str) -> bool:
    """``ui_strings``' rule, nesting aside; a shortcut's key letter (``⟦Ctrl⟧⟦+⟧P``: Qt
    translates the modifier, a letter has nothing to translate) is neutral."""
    plain = re.sub(r"<[^>]+>", " ", text)
    outside = _outside_marks(plain)
    outside = re.sub(r"(?<=\s)[A-Z0-9](?=\))", " ", outside)
    return any(not _is_neutral(piece) for piece in re.split(r"\s{2,}|\n", outside))


def _shown_data(root: QWidget) -> set[str]:
    """Lines of ``untranslated`` that are the person's data by design: the type names in the
    type menu (actions marked with ``i18n.mark_data``) and the projects in the project filter."""
    lines: set[str] = set()
    for action in root.findChildren(QAction):
        if action.property("showsData"):
            for widget in action.associatedObjects():
                name = widget.objectName() or type(widget).__name__
                lines.add(f"{name}.action {action.objectName()}: {action.text()!r}")
                lines.add(f"{name}.action {action.objectName()} tip: {action.toolTip()!r}")
    project = root.findChild(QComboBox, "projectFilter")
    if project is not None:
        lines.update(
            f"projectFilter.item: {project.itemText(i)!r}" for i in range(1, project.count())
        )
    return lines


def not_translated(root: QWidget) -> list[str]:
    """``ui_strings.untranslated(root)``, less the person's data and the harness's two blind
    spots (nested marks, a shortcut's key letter): what is left never met the translator."""
    data = _shown_data(root)
    left = []
    for line in untranslated(root):
        if line in data:
            continue
        text = ast.literal_eval(line.split(": ", 1)[1])
        if _still_unmarked(text):
            left.append(line)
    return left


def test_the_helper_still_catches_a_plain_string(qtbot) -> None:
    """The allowances above let nothing else through: plain words and words beside a mark
    are still reported."""
    with marked_language():
        label = QLabel("Forgot 3 observations")
        other = QLabel(f"{OPEN}Pinned{CLOSE} only")
        shortcut = QLabel(f"{OPEN}Pin{OPEN}x{CLOSE}{CLOSE} ({OPEN}Ctrl{CLOSE}{OPEN}+{CLOSE}P)")
        for widget in (label, other, shortcut):
            qtbot.addWidget(widget)
        assert _still_unmarked(label.text()) and _still_unmarked(other.text())
        assert not _still_unmarked(shortcut.text())


# -- every visible string goes through the translator -----------------------------------------


def test_the_demo_page_has_no_untranslated_string_and_no_unnamed_control(
    qtbot, open_window
) -> None:
    with marked_language():
        window = open_window(["--demo"])
        window.show_page("observations")
        qtbot.waitUntil(lambda: table(window).model().rowCount() > 0)
        settle(qtbot, window)
        assert page(window).detail.shown_id is not None  # the detail pane is filled too
        assert not_translated(page(window)) == []
        assert unnamed(page(window)) == []
        assert status(window).startswith(f"{OPEN}Showing ")


def test_forgotten_rows_changed_filters_and_banners_are_translated(
    qtbot, open_window, db: Path
) -> None:
    """Every filter changed (a type, a project, a scope, both switches), a forgotten row
    current, the index banner and the write banner up: still nothing unmarked, nothing
    unnamed."""
    with marked_language():
        window = open_db(qtbot, open_window, db)
        p = page(window)
        p.findChild(QCheckBox, "showForgottenFilter").setChecked(True)
        settle(qtbot, window)
        assert table(window).model().rowCount() == len(ROWS)
        # The scope column speaks the person's language too (the value is the plugin's).
        model = table(window).model()
        scopes = {model.index(r, Column.SCOPE).data() for r in range(model.rowCount())}
        assert scopes and all(scope.startswith(OPEN) and CLOSE in scope for scope in scopes)
        p.findChild(QAction, "typeFilter_bugfix").setChecked(True)
        settle(qtbot, window)
        project = p.findChild(QComboBox, "projectFilter")
        project.setCurrentIndex(project.findText("alpha-1a2b3c4d"))
        settle(qtbot, window)
        assert table(window).model().rowCount() == 2  # both bugfixes of alpha, one forgotten
        forgotten = next(
            oid for oid in table(window).model().ids() if p.model.cached(oid).forgotten
        )
        p.show_observation_id(forgotten)
        assert p.findChild(QAction, "typeFilter_pattern") is not None
        assert not_translated(p) == [], "with a type, a project and forgotten rows"
        assert p.restore_action.isEnabled()

        p.findChild(QAction, "typeFilter_pattern").setChecked(True)  # two types now
        p.findChild(QComboBox, "scopeFilter").setCurrentIndex(1)
        p.findChild(QCheckBox, "pinnedOnlyFilter").setChecked(True)
        settle(qtbot, window)
        p.index_banner.show_problem(DAMAGED)
        assert p.index_banner.text() == f"⚠ {OPEN}The search index is damaged; rebuild it{CLOSE}"
        with writer_lock(db):
            p.findChild(QCheckBox, "pinnedOnlyFilter").setChecked(False)
            settle(qtbot, window)
            p.show_observation_id(1)
            table(window).setFocus()
            qtbot.keyClick(table(window), Qt.Key.Key_P, CTRL)
            qtbot.waitUntil(lambda: p.write_banner.isVisible(), timeout=10_000)
            assert OPEN in p.write_banner.text()
            assert not_translated(p) == [], "with two types, a scope and both banners"
            assert unnamed(p) == []
        writes_done(window)


@contextmanager
def writer_lock(db: Path) -> Iterator[None]:
    """The agent in the middle of a save: its connection holds the write lock meanwhile."""
    conn = alisio.connect_like_plugin(db)
    conn.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        conn.execute("COMMIT")
        conn.close()


def test_messages_undo_texts_and_counts_go_through_the_translator(
    qtbot, open_window, db: Path
) -> None:
    """What a write says (the message bar, Edit ▸ Undo, the status counts) is translated
    whole, with the count's form chosen for the count (one, or several)."""
    with marked_language():
        window = open_db(qtbot, open_window, db)
        view = table(window)
        view.setFocus()
        select_row(view, 0)
        qtbot.keyClick(view, Qt.Key.Key_Delete)
        settle(qtbot, window)
        message = window.message_bar.text()
        assert message.startswith(f"{OPEN}Forgot 1 observation (") and "brings it back" in message
        assert window.undo_stack.undoText() == f"{OPEN}Forget 1 observation{CLOSE}"
        assert status(window).startswith(f"{OPEN}Showing 2 ·")

        view.selectAll()
        qtbot.keyClick(view, Qt.Key.Key_P, CTRL)
        settle(qtbot, window)
        assert window.message_bar.text() == f"{OPEN}Pinned 2 observations{CLOSE}"
        assert window.undo_stack.undoText() == f"{OPEN}Pin 2 observations{CLOSE}"


# -- the delete question says what it does ----------------------------------------------------


def buttons(box: QMessageBox) -> dict[str, str]:
    return {button.objectName(): button.text() for button in box.buttons()}


@pytest.mark.parametrize(
    ("count", "label"), [(3, "Delete 3 observations"), (1, "Delete 1 observation")]
)
def test_the_delete_button_names_what_it_deletes(qtbot, count: int, label: str) -> None:
    box = delete_confirmation(None, count)
    qtbot.addWidget(box)
    assert buttons(box) == {"confirmDeleteButton": label, "cancelDeleteButton": "Cancel"}
    assert box.defaultButton().objectName() == "cancelDeleteButton"  # Return deletes nothing
    assert box.escapeButton().objectName() == "cancelDeleteButton"
    assert "cannot be undone" in box.informativeText()
    for bare in ("Yes", "OK", "&Yes", "&OK"):
        assert bare not in buttons(box).values()


def test_the_delete_question_is_translated_and_named(qtbot) -> None:
    with marked_language():
        box = delete_confirmation(None, 2)
        qtbot.addWidget(box)
        box.show()
        assert buttons(box)[
            "confirmDeleteButton"
        ] == f"{OPEN}Delete {{n}} observations{CLOSE}".format(n=2)
        assert untranslated(box) == [] and unnamed(box) == []
        box.close()


def test_shift_del_asks_with_the_selected_count_and_cancel_keeps_every_row(
    qtbot, open_window, db: Path, monkeypatch
) -> None:
    asked: list[dict[str, str]] = []

    def exec_(box: QMessageBox) -> int:
        asked.append(buttons(box))
        box.findChild(QPushButton, "cancelDeleteButton").click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    window = open_db(qtbot, open_window, db)
    view = table(window)
    view.setFocus()
    view.selectAll()
    qtbot.keyClick(view, Qt.Key.Key_Delete, SHIFT)
    select_row(view, 1)
    qtbot.keyClick(view, Qt.Key.Key_Delete, SHIFT)
    assert [a["confirmDeleteButton"] for a in asked] == [
        "Delete 3 observations",
        "Delete 1 observation",
    ]
    assert table(window).model().rowCount() == 3
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        assert conn.execute("SELECT count(*) FROM observations").fetchone()[0] == len(ROWS)
    finally:
        conn.close()


# -- the columns fit the default window -------------------------------------------------------


def at_default_size(qtbot, window) -> None:
    """The window as it first opens on a desktop: 1280×800, the sidebar 230 px wide (the
    offscreen screen is smaller than that, so the size is set again after showing)."""
    window.resize(1280, 800)
    window.splitter.setSizes([230, 1050])
    qtbot.waitUntil(lambda: window.width() == 1280)
    QApplication.processEvents()


def click_header(qtbot, view: QTableView, column: Column) -> None:
    header = view.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(
        header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2)
    )


def in_view(view: QTableView, column: Column) -> bool:
    """The column's whole section, header text and sort arrow, is inside the viewport."""
    header = view.horizontalHeader()
    left = header.sectionViewportPosition(column)
    return (
        not header.isSectionHidden(column)
        and left >= 0
        and left + header.sectionSize(column) <= view.viewport().width()
        and header.sectionSize(column) >= header.sectionSizeHint(column)
    )


@pytest.mark.parametrize("language", ["english", "marked"])
def test_every_sort_column_is_in_view_with_its_arrow_at_the_default_size(
    qtbot, open_window, db: Path, language: str
) -> None:
    """Sorted by any shown column, its header and arrow are on screen without scrolling
    sideways; the marked language (every header longer) fits too."""
    with marked_language() if language == "marked" else contextlib_null():
        window = open_db(qtbot, open_window, db)
        at_default_size(qtbot, window)
        view = table(window)
        header = view.horizontalHeader()
        assert header.length() <= view.viewport().width()
        assert view.horizontalScrollBar().maximum() == 0
        for column in Column:
            if header.isSectionHidden(column):
                continue
            click_header(qtbot, view, column)
            settle(qtbot, window)
            assert header.sortIndicatorSection() == column
            assert in_view(view, column), column.name
        assert header.sectionSize(Column.TITLE) >= MIN_TITLE_WIDTH  # room to read the title


@contextmanager
def contextlib_null() -> Iterator[None]:
    yield


def test_hidden_columns_come_back_from_the_header_menu_and_still_fit(
    qtbot, open_window, db: Path
) -> None:
    window = open_db(qtbot, open_window, db)
    at_default_size(qtbot, window)
    view = table(window)
    header = view.horizontalHeader()
    assert all(header.isSectionHidden(column) for column in HIDDEN_BY_DEFAULT)
    entries = {action.objectName(): action for action in header.actions()}
    assert "showColumn_title" not in entries  # the title always shows
    entries["showColumn_created"].trigger()
    QApplication.processEvents()
    assert not header.isSectionHidden(Column.CREATED)
    click_header(qtbot, view, Column.CREATED)
    settle(qtbot, window)
    assert in_view(view, Column.CREATED)
    entries["showColumn_scope"].trigger()
    assert header.isSectionHidden(Column.SCOPE)


def test_the_title_takes_the_width_the_other_columns_leave(qtbot, open_window, db: Path) -> None:
    """No empty band right of the last column, at the default size or wider."""
    window = open_db(qtbot, open_window, db)
    at_default_size(qtbot, window)
    view = table(window)
    header = view.horizontalHeader()
    assert header.length() == view.viewport().width()
    before = header.sectionSize(Column.TITLE)
    window.splitter.setSizes([150, 1130])
    qtbot.waitUntil(lambda: header.sectionSize(Column.TITLE) > before)
    assert header.length() == view.viewport().width()


def test_a_column_the_person_sized_keeps_its_width(qtbot, open_window, db: Path) -> None:
    """A column the person sizes keeps its width; the title takes what is left, as the window
    widens (it never leaves the table scrolling sideways)."""
    window = open_db(qtbot, open_window, db)
    at_default_size(qtbot, window)
    view = table(window)
    view.setColumnWidth(Column.TYPE, 150)
    window.splitter.setSizes([200, 1080])
    qtbot.waitUntil(lambda: view.viewport().width() > 1020)
    QApplication.processEvents()
    assert view.columnWidth(Column.TYPE) == 150
    header = view.horizontalHeader()
    qtbot.waitUntil(lambda: header.length() >= view.viewport().width() - 40)  # no gap
    assert not view.horizontalScrollBar().isVisible()


# -- nothing widens the page ------------------------------------------------------------------


def test_long_messages_and_project_names_do_not_widen_the_page(
    qtbot, open_window, db: Path
) -> None:
    window = open_db(qtbot, open_window, db)
    p = page(window)
    narrowest = p.minimumSizeHint().width()
    long_name = "a-project-whose-folder-name-goes-on-and-on-" * 3 + "a786d7ce"
    p.filters.set_projects([long_name, "alpha-1a2b3c4d"])
    p.index_banner.show_problem("The search index is damaged. " * 30)
    p.write_banner.show_waiting("Pin 1 observation " * 20)
    QApplication.processEvents()
    assert p.index_banner.isVisible() and p.write_banner.isVisible()
    assert p.minimumSizeHint().width() <= narrowest
    project = p.findChild(QComboBox, "projectFilter")
    index = project.findData(long_name, Qt.ItemDataRole.ToolTipRole)
    shown = project.itemText(index)
    assert "…" in shown and shown.endswith("a786d7ce")  # cut in the middle, the hash kept
    p.write_banner.clear()


# -- light and dark ---------------------------------------------------------------------------


def banner_background(banner: QFrame) -> QColor:
    """The colour painted inside the banner's border, left of its text."""
    image = banner.grab().toImage()
    return image.pixelColor(5, image.height() // 2)


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_banners_take_their_colours_from_the_theme(
    qtbot, open_window, db: Path, choice: str
) -> None:
    theme.apply_theme(choice)
    window = open_db(qtbot, open_window, db)
    p = page(window)
    p.index_banner.show_problem(DAMAGED)
    p.write_banner.show_waiting("Pin 1 observation")
    QApplication.processEvents()
    colors = theme.colors()
    assert colors.dark == (choice == "dark")
    for banner, tone in ((p.index_banner, "warning"), (p.write_banner, "info")):
        expected = colors.tone(tone)
        assert banner_background(banner) == QColor(expected.background), banner.objectName()
        label = banner.findChild(QLabel)
        assert label.palette().color(QPalette.ColorRole.WindowText) == QColor(expected.text)
        assert theme.contrast(expected.text, expected.background) >= 4.5
    p.write_banner.clear()


def test_a_theme_change_recolours_a_banner_already_shown(qtbot, open_window, db: Path) -> None:
    theme.apply_theme("light")
    window = open_db(qtbot, open_window, db)
    banner = page(window).index_banner
    banner.show_problem(DAMAGED)
    QApplication.processEvents()
    light = banner_background(banner)
    theme.apply_theme("dark")
    QApplication.processEvents()
    dark = banner_background(banner)
    assert light == QColor(theme.LIGHT.tone("warning").background)
    assert dark == QColor(theme.DARK.tone("warning").background)
