"""The persona entry list paints its rows itself, and looks exactly as its delegate painted.

``EntryListView`` replaces ``QTableView``'s per-cell trip through ``EntryDelegate`` and the
style with one Python call per paint (``ui/widgets/row_view.py``). These tests compare its
pixels with the same rows painted the old way (a ``QTableView`` with ``EntryDelegate``, reading
``data()`` through a proxy), in light and dark, with the prompt's divider, problem icons, the
unsaved and waiting marks, a selected row, an elided description and one in Arabic on screen;
they check that the screen went through the fast path (no ``data()`` call), that the focus
frame is the style's, that a theme switch repaints in the new colours, and that a style which
paints items its own way gets the delegate for every cell.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QIdentityProxyModel, QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QProxyStyle, QStyle, QTableView

from memory_desk.ui import theme
from memory_desk.ui.persona.entry_list import EntryDelegate, EntryListView
from memory_desk.ui.persona.model import (
    COLUMNS,
    DESCRIPTION,
    NAME,
    PersonaListModel,
)
from memory_desk.ui.persona.rows import Separator, build_rows
from persona_files import agent_file
from test_paint_calls import changed_pixels
from window_helpers import wait_persona_read

pytest_plugins = ["window_fixture"]  # the open_window fixture

COUNT = 70  # 50 in the agent's prompt, 20 beyond it (each with a warning), one it never sees
TYPES = ("user", "feedback", "project", "reference")
ARABIC = 45
LONG = 44
UNSAVED = 47
WAITING = (41, 52)
SELECTED = 53  # beyond the prompt: its warning icon is drawn selected


def entry_name(n: int) -> str:
    return f"entry-{n:02d}-about-things"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "persona" / "memory"
    path.mkdir(parents=True)
    for n in range(COUNT):
        description = f"What the person said about topic {n}"
        if n == ARABIC:
            description = "ملاحظة عن الذاكرة 🧠"
        elif n == LONG:
            description = "A description far too long for its column " * 6
        updated = f"2026-11-{28 - n // 3:02d}T{23 - n % 3:02d}:00:00.000Z"
        data = agent_file(entry_name(n), description, updated, f"Body {n}.", TYPES[n % 4])
        (path / f"{entry_name(n)}.md").write_bytes(data)
    never = agent_file("Never_Seen", "Not a name the agent reads", updated, "Body.")
    (path / "Never_Seen.md").write_bytes(never)
    return path


@pytest.fixture
def window(open_window, qtbot, folder: Path):
    window = open_window(["--persona", str(folder)])
    window.resize(1280, 800)
    qtbot.waitUntil(window.persona_page.isVisible)
    wait_persona_read(window)
    view = entry_list(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == COUNT + 3)
    return window


def entry_list(window) -> EntryListView:
    view = window.findChild(QAbstractItemView, "personaList")
    assert isinstance(view, EntryListView)
    view.window().activateWindow()
    return view


def show_the_hard_rows(view: EntryListView) -> None:
    """Scroll to the prompt's divider, with marks, an unsaved entry and a selected row."""
    model: PersonaListModel = view.model()
    view.selectRow(model.row_of(entry_name(SELECTED)))  # (the page opens it: marks after)
    model.set_unsaved(entry_name(UNSAVED))
    model.set_waiting({entry_name(n) for n in WAITING})
    view.scrollTo(model.index(model.row_of(entry_name(40)), 0), view.ScrollHint.PositionAtTop)
    first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
    on_screen = [model.row_at(row) for row in range(first, last + 1)]
    names = {getattr(item, "name", None) for item in on_screen}
    assert {entry_name(n) for n in (ARABIC, LONG, UNSAVED, *WAITING, 55)} <= names
    assert any(isinstance(item, Separator) for item in on_screen)
    assert model.problem_icon(model.entry(entry_name(55))) is not None  # beyond the prompt
    assert model.unsaved() == entry_name(UNSAVED)
    assert model.problem_icon(model.entry(entry_name(SELECTED))) is not None


def reference_view(view: EntryListView) -> QTableView:
    """The same rows, sizes, spans and selection, painted as the list painted before: through
    a proxy (so the delegate reads ``data()`` role by role) and ``EntryDelegate``."""
    proxy = QIdentityProxyModel(view)
    proxy.setSourceModel(view.model())
    reference = QTableView()
    reference.setModel(proxy)
    reference.setShowGrid(False)
    reference.setWordWrap(False)
    reference.setAlternatingRowColors(view.alternatingRowColors())
    reference.setHorizontalScrollMode(view.horizontalScrollMode())
    reference.setItemDelegate(EntryDelegate(reference))
    rows = reference.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(view.verticalHeader().defaultSectionSize())
    for column in range(len(COLUMNS)):
        reference.setColumnWidth(column, view.columnWidth(column))
    for row in view.model().separator_rows():
        reference.setSpan(row, 0, 1, len(COLUMNS))
    selection = QItemSelection()
    for each in view.selectionModel().selection():
        selection.select(
            proxy.mapFromSource(each.topLeft()), proxy.mapFromSource(each.bottomRight())
        )
    reference.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.Select)
    reference.resize(view.size())
    return reference


def compare_with_the_delegate(qtbot, view: EntryListView) -> int:
    """Changed pixels between the list and the same rows painted by the delegate."""
    reference = reference_view(view)
    qtbot.addWidget(reference)
    reference.show()
    qtbot.waitExposed(reference)
    reference.verticalScrollBar().setValue(view.verticalScrollBar().value())
    reference.horizontalHeader().resize(view.horizontalHeader().size())
    assert reference.rowAt(0) == view.rowAt(0)
    assert reference.viewport().size() == view.viewport().size()
    painted = view.viewport().grab().toImage()
    before = reference.viewport().grab().toImage()
    return changed_pixels(painted, before)


def dividers_on_screen(view: EntryListView) -> int:
    first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
    last = view.model().rowCount() - 1 if last < 0 else last
    return sum(isinstance(view.model().row_at(row), Separator) for row in range(first, last + 1))


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_the_list_paints_the_same_pixels_as_the_delegate(qtbot, window, choice: str) -> None:
    view = entry_list(window)
    show_the_hard_rows(view)
    theme.apply_theme(choice)
    view.clearFocus()
    painter = view.rows_painter
    painter.painted_fast = painter.painted_by_style = 0
    assert compare_with_the_delegate(qtbot, view) == 0
    assert painter.painted_fast >= 60  # the screen went through the fast path...
    # ...but for the divider, the unsaved name (italic) and the Arabic description
    assert painter.painted_by_style == dividers_on_screen(view) + 2


def test_a_screen_of_entries_paints_without_asking_data(qtbot, window) -> None:
    view = entry_list(window)
    model = view.model()
    view.scrollTo(model.index(model.row_of(entry_name(5)), 0), view.ScrollHint.PositionAtTop)
    view.clearFocus()
    assert dividers_on_screen(view) == 0
    calls = []
    original = model.data
    model.data = lambda *args: calls.append(args) or original(*args)  # type: ignore[method-assign]
    try:
        view.viewport().repaint()
    finally:
        del model.data
    assert calls == []  # no data() call per cell: every cell read its entry once


def test_the_focus_frame_is_the_styles_own(qtbot, window) -> None:
    view = entry_list(window)
    show_the_hard_rows(view)
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    painter = view.rows_painter
    painter.painted_by_style = 0
    current = view.currentIndex()
    assert current.isValid() and current.column() == NAME
    image = view.viewport().grab().toImage()
    assert painter.painted_by_style == dividers_on_screen(view) + 3  # + the current cell
    view.clearFocus()
    without = view.viewport().grab().toImage()
    rect = view.visualRect(current)
    assert any(
        image.pixel(x, y) != without.pixel(x, y)
        for x in range(rect.left(), rect.right() + 1)
        for y in (rect.top(), rect.bottom())
    )  # the focus frame is really drawn


def test_the_visible_texts_are_laid_out_once_and_reused(qtbot, window) -> None:
    view = entry_list(window)
    model = view.model()
    view.viewport().grab()
    first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
    shown = {
        model.shown_text(model.row_at(row), DESCRIPTION)
        for row in range(first, last + 1)
        if not isinstance(model.row_at(row), Separator)
    }
    assert shown <= {key[0] for key in view.rows_painter.texts.texts}
    layouts = view.rows_painter.texts.layouts
    view.viewport().grab()
    assert view.rows_painter.texts.layouts == layouts  # a repaint lays out nothing again


def test_a_theme_switch_repaints_the_rows_in_the_new_colours(qtbot, window) -> None:
    view = entry_list(window)
    show_the_hard_rows(view)
    view.clearFocus()
    theme.apply_theme("light")
    view.viewport().grab()
    theme.apply_theme("dark")
    image = view.viewport().grab().toImage()
    dark = theme.palette_for(theme.DARK)
    row = view.model().row_of(entry_name(SELECTED))
    y = view.rowViewportPosition(row) + 1
    x = view.columnViewportPosition(DESCRIPTION) + view.columnWidth(DESCRIPTION) - 2
    group = QPalette.ColorGroup.Active if view.isActiveWindow() else QPalette.ColorGroup.Inactive
    assert QColor(image.pixel(x, y)) == dark.color(group, QPalette.ColorRole.Highlight)
    assert compare_with_the_delegate(qtbot, view) == 0


class OwnItems(QProxyStyle):
    """A style that paints items its own way (as a platform theme may)."""

    def drawControl(self, element, option, painter: QPainter, widget=None) -> None:  # noqa: N802
        super().drawControl(element, option, painter, widget)
        if element == QStyle.ControlElement.CE_ItemViewItem:
            painter.fillRect(option.rect.adjusted(0, 0, 0, -option.rect.height() + 1), Qt.red)


def test_a_style_that_paints_items_its_own_way_gets_the_delegate(qtbot, window) -> None:
    view = entry_list(window)
    style = OwnItems("Fusion")
    view.setStyle(style)
    painter = view.rows_painter
    painter.painted_fast = painter.painted_by_style = 0
    image: QImage = view.viewport().grab().toImage()
    view.setStyle(None)  # the window's style again, before this one goes
    assert painter.painted_fast == 0  # QTableView painted every cell through the delegate
    rect = view.visualRect(view.model().index(view.rowAt(0), DESCRIPTION))
    assert QColor(image.pixel(rect.center().x(), rect.top())) == QColor(Qt.red)


@pytest.mark.parametrize("needle", ["ABOUT", "topic 4", "ß", "Ω", "-0", "about\0what", "ملاحظة"])
def test_the_filter_shows_what_the_slow_path_shows(window, needle: str) -> None:
    """The filter tests every entry in C now (a substring test, no call per entry): its rows
    are the obvious path's, NUL-joined fields and case folding included."""
    model: PersonaListModel = entry_list(window).model()
    entries = model.entries()
    for text in ("", needle[:1], needle, needle[:1], ""):  # typed, narrowed, backed out
        model.set_filter(text)
        shown = [model.row_at(row) for row in range(model.rowCount())]
        assert shown == build_rows(entries, text)
