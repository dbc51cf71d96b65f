"""The observations table paints its rows itself, and looks exactly as the delegates painted.

``ObservationsTableView`` replaces ``QTableView``'s per-cell trip through the delegate and
the style with one Python call per paint. These tests compare its pixels with the same rows
painted the old way (a ``QTableView`` with the table's delegates, reading ``data()`` through
a proxy), in light and dark, with selected, marked, forgotten, unreadable and unsaved rows, a
title in Arabic with an emoji, a title with a line break and the focus frame on screen; they
check that the visible rows' texts went through the fast path, that a theme switch repaints
with the new colours, and that a style which paints items its own way gets the old path.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette
from PySide6.QtWidgets import QCheckBox, QProxyStyle, QStyle

from alisio_fixtures import build_database
from memory_desk.ui import theme
from memory_desk.ui.observations.model import Column
from memory_desk.ui.observations.table_view import ObservationsTableView
from test_paint_calls import changed_pixels, reference_view
from window_helpers import table

pytest_plugins = ["window_fixture"]  # the open_window fixture

NEWEST_FIRST = "SELECT id FROM observations ORDER BY updated_at DESC, id DESC"

ROWS = 300
HARD: dict[str, int] = {}  # the rows whose looks differ, ids picked next to each other


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = build_database(tmp_path / "memory.sqlite", ROWS, seed=5, forgotten_ratio=0.25)
    with sqlite3.connect(path) as conn:
        newest = [row[0] for row in conn.execute(NEWEST_FIRST)]
        # A topic key stored as a number (the plugin stores text): a ⚠ title; a right-to-left
        # title with an emoji; a title with a line break (the style lays it out).
        HARD.update(unreadable=newest[44], arabic=newest[40], two_lines=newest[47])
        UNREADABLE, ARABIC, TWO_LINES = HARD["unreadable"], HARD["arabic"], HARD["two_lines"]
        conn.execute("UPDATE observations SET topic_key = 42 WHERE id = ?", (UNREADABLE,))
        conn.execute(
            "UPDATE observations SET title = ? WHERE id = ?", ("ملاحظة عن الذاكرة 🧠", ARABIC)
        )
        conn.execute(
            "UPDATE observations SET title = ? WHERE id = ?", ("first line\nsecond", TWO_LINES)
        )
    return path


@pytest.fixture
def window(open_window, qtbot, db: Path):
    window = open_window(["--db", str(db)])
    window.resize(1280, 800)
    page = window.observations_page
    window.findChild(QCheckBox, "showForgottenFilter").setChecked(True)
    qtbot.waitUntil(lambda: page.model.rowCount() == ROWS)
    return window


def show_the_hard_rows(window) -> list[int]:
    """Scroll to the rows whose looks differ and set marks, unsaved edits and a selection."""
    view = table(window)
    model = window.observations_page.model
    model.MARK_MS = 60_000
    UNREADABLE, ARABIC, TWO_LINES = HARD["unreadable"], HARD["arabic"], HARD["two_lines"]
    view.scrollTo(model.index(model.row_of(ARABIC), 0), view.ScrollHint.PositionAtTop)
    top = view.rowAt(0)
    on_screen = model.ids_slice(top, top + 18)
    assert {UNREADABLE, ARABIC, TWO_LINES} <= set(on_screen)
    assert any(model.record_at(model.row_of(oid)).forgotten for oid in on_screen)
    model.mark(on_screen[1:3])
    model.set_unsaved(on_screen[4])
    view.selectRow(model.row_of(on_screen[6]))
    view.selectionModel().select(
        model.index(model.row_of(on_screen[8]), Column.TITLE),
        view.selectionModel().SelectionFlag.Select,
    )  # one cell of a row selected: a partial selection
    return on_screen


def compare_with_the_delegates(qtbot, view) -> int:
    """Changed pixels between the table and the same rows painted by the delegates."""
    reference = reference_view(view)
    qtbot.addWidget(reference)
    reference.show()
    qtbot.waitExposed(reference)
    reference.verticalScrollBar().setValue(view.verticalScrollBar().value())
    assert reference.rowAt(0) == view.rowAt(0)
    painted = view.viewport().grab().toImage()
    before = reference.viewport().grab().toImage()
    return changed_pixels(painted, before)


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_the_table_paints_the_same_pixels_as_the_delegates(qtbot, window, choice: str) -> None:
    view = table(window)
    assert isinstance(view, ObservationsTableView)
    show_the_hard_rows(window)
    theme.apply_theme(choice)
    view.clearFocus()
    view.painted_fast = view.painted_by_style = 0
    assert compare_with_the_delegates(qtbot, view) == 0
    assert view.painted_fast >= 150  # the screen went through the fast path...
    assert view.painted_by_style == 2  # ...but for the titles with a line break or in Arabic


def test_the_focus_frame_is_the_styles_own(qtbot, window) -> None:
    view = table(window)
    show_the_hard_rows(window)
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    view.painted_by_style = 0
    current = view.currentIndex()
    assert current.isValid()
    image = view.viewport().grab().toImage()
    assert view.painted_by_style == 3  # the current cell (focus frame), the two hard titles
    # The focus frame differs from the same cell without focus: it is really drawn.
    view.clearFocus()
    without = view.viewport().grab().toImage()
    rect = view.visualRect(current)
    assert any(
        image.pixel(x, y) != without.pixel(x, y)
        for x in range(rect.left(), rect.right() + 1)
        for y in (rect.top(), rect.bottom())
    )


def test_the_visible_rows_texts_are_laid_out_once_and_reused(qtbot, window) -> None:
    view = table(window)
    model = window.observations_page.model
    view.viewport().grab()
    first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
    titles = {model.record_at(row).display[Column.TITLE] for row in range(first, last + 1)}
    kept = {key[0] for key in view.texts.texts}
    assert titles <= kept  # every visible title was laid out by the fast path
    size = len(view.texts.texts)
    calls = _count_layouts(view)
    view.viewport().grab()
    assert calls() == 0 and len(view.texts.texts) == size  # a repaint lays out nothing again


def _count_layouts(view: ObservationsTableView):
    """How many texts the view lays out from now on (its cache counts them)."""
    start = view.texts.layouts
    return lambda: view.texts.layouts - start


def test_a_theme_switch_repaints_the_rows_in_the_new_colours(qtbot, window) -> None:
    view = table(window)
    theme.apply_theme("light")
    view.viewport().grab()
    theme.apply_theme("dark")
    image = view.viewport().grab().toImage()
    dark = theme.palette_for(theme.DARK)
    alternate_row = 1 if view.rowAt(0) % 2 == 0 else 0
    y = view.rowViewportPosition(view.rowAt(0) + alternate_row) + 1
    x = view.columnViewportPosition(Column.SCOPE) + view.columnWidth(Column.SCOPE) - 2
    assert QColor(image.pixel(x, y)) == dark.color(QPalette.ColorRole.AlternateBase)
    assert compare_with_the_delegates(qtbot, view) == 0


class OwnItems(QProxyStyle):
    """A style that paints items its own way (as a platform theme may)."""

    def drawControl(self, element, option, painter: QPainter, widget=None) -> None:  # noqa: N802
        super().drawControl(element, option, painter, widget)
        if element == QStyle.ControlElement.CE_ItemViewItem:
            painter.fillRect(option.rect.adjusted(0, 0, 0, -option.rect.height() + 1), Qt.red)


def test_a_style_that_paints_items_its_own_way_gets_the_delegates(qtbot, window) -> None:
    view = table(window)
    style = OwnItems("Fusion")
    view.setStyle(style)
    view.painted_fast = view.painted_by_style = 0
    image: QImage = view.viewport().grab().toImage()
    view.setStyle(None)  # the window's style again, before this one goes
    assert view.painted_fast == 0  # QTableView painted every cell through the style
    rect = view.visualRect(view.model().index(view.rowAt(0), Column.TITLE))
    assert QColor(image.pixel(rect.center().x(), rect.top())) == QColor(Qt.red)
