"""Painting the observations table asks the model once per cell, and looks exactly as before.

A ``QStyledItemDelegate`` asks ``data()`` once per role of every cell it paints (about seven:
a thousand calls for a screen of rows). The table's delegates take one :meth:`cell` answer
per cell instead. These tests count the ``data()`` calls while a real window paints, and
compare its pixels with the same rows painted the old way (the same delegates reading
``data()`` through a proxy model, and Qt's own delegate for the plain cells), in light and
dark, with selected, marked, forgotten, pinned, unreadable and unsaved rows on screen.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QIdentityProxyModel, QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QCheckBox, QHeaderView, QStyledItemDelegate, QTableView

from alisio_fixtures import build_database
from memory_desk.core.observations import ObservationStore
from memory_desk.ui import dates, theme
from memory_desk.ui.observations.delegates import install_delegates
from memory_desk.ui.observations.model import Column, ObservationTableModel
from memory_desk.ui.widgets.delegates import ProjectDelegate, TypeBadgeDelegate
from window_helpers import table

pytest_plugins = ["window_fixture"]  # the open_window fixture

ROWS = 600
UNREADABLE = 5  # its topic key is a number where the plugin stores text: a ⚠ title


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = build_database(tmp_path / "memory.sqlite", ROWS, seed=11, forgotten_ratio=0.2)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE observations SET topic_key = 42 WHERE id = ?", (UNREADABLE,))
    return path


class DataCalls:
    """Counts ``ObservationTableModel.data`` calls while switched on (the model's own code
    runs unchanged: the count wraps it)."""

    def __init__(self) -> None:
        self.count = 0
        self.on = False


@pytest.fixture
def data_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[DataCalls]:
    calls = DataCalls()
    original = ObservationTableModel.data

    def counted(self, index, role=Qt.ItemDataRole.DisplayRole.value):
        if calls.on:
            calls.count += 1
        return original(self, index, role)

    monkeypatch.setattr(ObservationTableModel, "data", counted)
    yield calls


@pytest.fixture
def window(open_window, qtbot, db: Path):
    window = open_window(["--db", str(db)])
    window.resize(1280, 800)
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() > 0)
    install_delegates(view)  # what the page does when it builds its table
    return window


def visible_cells(view: QTableView) -> int:
    """Cells on screen: rows in the viewport times columns shown in it."""
    viewport = view.viewport()
    first = view.rowAt(0)
    last = view.rowAt(viewport.height() - 1)
    last = view.model().rowCount() - 1 if last < 0 else last
    columns = [
        c
        for c in range(view.model().columnCount())
        if not view.isColumnHidden(c) and view.columnViewportPosition(c) < viewport.width()
    ]
    return (last - first + 1) * len(columns)


def test_a_screen_of_rows_is_painted_with_at_most_two_model_calls_a_cell(
    qtbot, window, data_calls: DataCalls
) -> None:
    view = table(window)
    view.viewport().grab()  # the rows on screen enter the cache
    data_calls.on = True
    view.viewport().grab()
    data_calls.on = False
    cells = visible_cells(view)
    assert cells >= 150  # a real screen: 20 rows or more, 10 columns
    assert data_calls.count <= 2 * cells

    # Tooltips and screen readers still ask data(), and get what they got.
    model = view.model()
    observation = model.record_at(3).observation
    updated = model.index(3, Column.UPDATED).data(Qt.ItemDataRole.ToolTipRole)
    assert updated == dates.exact(observation.updated_at)
    assert model.index(3, Column.TITLE).data(Qt.ItemDataRole.AccessibleTextRole) is None
    assert model.index(3, Column.TITLE).data() == model.record_at(3).display[Column.TITLE]


def test_scrolling_every_row_a_page_at_a_time_keeps_to_two_model_calls_a_cell(
    qtbot, window, data_calls: DataCalls, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = table(window)
    fetches: list[int] = []
    get_many = ObservationStore.get_many

    def counted(self, ids):
        fetches.append(len(ids))
        return get_many(self, ids)

    monkeypatch.setattr(ObservationStore, "get_many", counted)
    bar = view.verticalScrollBar()
    painted = 0
    data_calls.on = True
    while True:
        view.viewport().repaint()
        painted += visible_cells(view)
        if bar.value() >= bar.maximum():
            break
        bar.setValue(bar.value() + bar.pageStep())
    data_calls.on = False
    rows = view.model().rowCount()
    assert view.rowAt(view.viewport().height() - 1) in (rows - 1, -1)  # reached the end
    assert data_calls.count <= 2 * painted
    assert sum(fetches) <= rows + ObservationTableModel.BLOCK  # each row read about once
    assert len(fetches) <= rows // (ObservationTableModel.BLOCK // 2) + 2  # in blocks


def reference_view(view: QTableView) -> QTableView:
    """The same rows, sizes and selection, painted the way the table painted before: through
    a proxy (so the delegates read ``data()`` role by role) and Qt's delegate for plain cells."""
    proxy = QIdentityProxyModel(view)
    proxy.setSourceModel(view.model())
    reference = QTableView()
    reference.setModel(proxy)
    for setting in ("alternatingRowColors", "showGrid", "wordWrap", "textElideMode"):
        getattr(reference, "set" + setting[0].upper() + setting[1:])(getattr(view, setting)())
    reference.setHorizontalScrollMode(view.horizontalScrollMode())
    reference.setVerticalScrollMode(view.verticalScrollMode())
    reference.setItemDelegate(QStyledItemDelegate(reference))
    reference.setItemDelegateForColumn(Column.TYPE, TypeBadgeDelegate(reference))
    reference.setItemDelegateForColumn(Column.PROJECT, ProjectDelegate(reference))
    rows = reference.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(view.verticalHeader().defaultSectionSize())
    for column in Column:
        reference.setColumnHidden(column, view.isColumnHidden(column))
        reference.setColumnWidth(column, view.columnWidth(column))
    selection = QItemSelection()
    for each in view.selectionModel().selection():
        selection.select(
            proxy.mapFromSource(each.topLeft()), proxy.mapFromSource(each.bottomRight())
        )
    reference.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.Select)
    reference.resize(view.size())
    return reference


def changed_pixels(first: QImage, second: QImage) -> int:
    assert first.size() == second.size()
    return sum(
        first.pixel(x, y) != second.pixel(x, y)
        for y in range(first.height())
        for x in range(first.width())
    )


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_the_table_looks_exactly_as_the_styled_delegate_painted_it(
    qtbot, window, choice: str
) -> None:
    view = table(window)
    page = window.observations_page
    window.findChild(QCheckBox, "showForgottenFilter").setChecked(True)
    qtbot.waitUntil(lambda: page.model.rowCount() == ROWS)
    model = page.model
    model.MARK_MS = 60_000
    view.scrollToTop()
    assert UNREADABLE in model.ids() and model.row_of(UNREADABLE) >= 0
    view.scrollTo(model.index(model.row_of(UNREADABLE), 0))
    top = view.rowAt(0)
    on_screen = model.ids_slice(top, top + 20)
    forgotten = [oid for oid in on_screen if model.record_at(model.row_of(oid)).forgotten]
    assert forgotten and UNREADABLE in on_screen  # the rows whose looks differ, on screen
    model.mark(on_screen[1:3])
    model.set_unsaved(on_screen[4])
    view.selectRow(model.row_of(on_screen[6]))
    theme.apply_theme(choice)
    view.clearFocus()
    reference = reference_view(view)
    qtbot.addWidget(reference)
    reference.show()
    qtbot.waitExposed(reference)
    reference.verticalScrollBar().setValue(view.verticalScrollBar().value())
    assert reference.viewport().size() == view.viewport().size()
    assert reference.rowAt(0) == top

    painted = view.viewport().grab().toImage()
    before = reference.viewport().grab().toImage()
    assert changed_pixels(painted, before) == 0
