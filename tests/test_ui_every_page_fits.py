"""Every page at 1024×640, in English and in Spanish, on the demo's realistic stores.

The demo (``--demo``) is built the way the agents build their stores (the plugin's DDL and
writes, agent-kit's files) and holds what a few weeks of use leave: three projects, chats with
prompts and loaded context, persona folders with problems, pruning candidates, and an inbox of
changes to review. Each page is shown as a person would find it, with a row chosen where the
page has a detail, and then measured:

- every visible button, label, field, combo box and tab lies inside the window;
- no button, combo box or one-line label is narrower than its text needs (it would be clipped);
- every field a person types in keeps room to type (at least :data:`MIN_FIELD_WIDTH`);
- no table or tree of the page scrolls sideways, and the dates in them show whole.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QTabBar,
    QTableView,
    QTreeView,
    QWidget,
)

from memory_desk.ui.chats.model import ENDED, STARTED
from memory_desk.ui.observations.model import Column
from memory_desk.ui.persona.model import UPDATED
from memory_desk.ui.review.model import WHEN

pytest_plugins = ["window_fixture"]  # the open_window fixture

WIDTH, HEIGHT = 1024, 640
MIN_FIELD_WIDTH = 180
PAGES = ("observations", "persona", "chats", "overview", "pruning", "review")
# The columns of each page's tables that hold dates (they must show whole).
DATE_COLUMNS = {
    "observationsTable": (Column.UPDATED, Column.CREATED),
    "personaList": (UPDATED,),
    "chatsTable": (STARTED, ENDED),
    "pruningCandidates": (3,),
    "reviewList": (WHEN,),
}


def open_demo(qtbot, open_window, language: str):
    window = open_window(["--lang", language, "--demo"])
    window.resize(WIDTH, HEIGHT)
    qtbot.waitUntil(lambda: window.size().width() == WIDTH)
    return window


def show(qtbot, window, name: str) -> QWidget:
    """The page in front, read, with a row chosen where the page shows a detail."""
    window.show_page(name)
    page = window.pages.currentWidget()
    if name == "observations":
        view = window.findChild(QTableView, "observationsTable")
        qtbot.waitUntil(lambda: view.model().rowCount() > 100)
        view.selectRow(0)
    elif name == "persona":
        qtbot.waitUntil(lambda: page.model.rowCount() > 5)
        page.list.selectRow(0)
        qtbot.waitUntil(lambda: bool(page.editor.name.text()))
    elif name == "chats":
        qtbot.waitUntil(lambda: page.model.rowCount() > 5 and not page.is_busy())
        page.table.selectRow(0)
        qtbot.waitUntil(lambda: page.export_button.isEnabled() and not page.is_busy())
    elif name == "overview":
        qtbot.waitUntil(lambda: not page.is_loading() and bool(page.shown_folders))
    elif name == "pruning":
        tree = window.findChild(QTreeView, "pruningCandidates")
        qtbot.waitUntil(lambda: tree.model().rowCount() > 0)
        tree.setCurrentIndex(tree.model().index(0, 0, tree.model().index(0, 0)))
    elif name == "review":
        view = window.findChild(QTableView, "reviewList")
        qtbot.waitUntil(lambda: view.model().rowCount() > 0)
        view.selectRow(0)
    qtbot.wait(200)  # (what the choice shows is laid out)
    return page


def in_scrolled_area(widget: QWidget, window: QWidget) -> bool:
    """Inside a scroll area (not an item view): it may lie below the fold, never to the side."""
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QAbstractScrollArea) and not isinstance(parent, QAbstractItemView):
            return True
        parent = parent.parentWidget()
    return False


def where(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, (QLabel, QAbstractButton)) else ""
    return f"{type(widget).__name__} {widget.objectName()!r} {text[:30]!r}"


def problems(window: QWidget, page: QWidget) -> list[str]:
    found: list[str] = []
    bounds = window.rect()
    for widget in page.findChildren(QWidget):
        if not widget.isVisible() or isinstance(widget.parentWidget(), QAbstractSpinBox):
            continue
        # (a field's own icons, its clear button and an action's, are sized by the field)
        in_field = isinstance(widget.parentWidget(), QLineEdit)
        rect = QRect(widget.mapTo(window, QPoint(0, 0)), QWidget.size(widget))
        if isinstance(widget, (QAbstractButton, QLabel, QLineEdit, QComboBox, QTabBar)):
            if in_scrolled_area(widget, window):
                outside = rect.left() < 0 or rect.right() > bounds.right()
            else:
                outside = not bounds.contains(rect)
            if outside:
                found.append(f"outside the window: {where(widget)} at {rect.getRect()}")
        if (isinstance(widget, (QAbstractButton, QComboBox)) and not in_field) or (
            isinstance(widget, QLabel) and widget.text() and not widget.wordWrap()
        ):
            needs = widget.minimumSizeHint().width()
            if widget.width() < needs:
                found.append(f"clipped: {where(widget)} {widget.width()} < {needs}")
        if (
            isinstance(widget, QLineEdit)
            and not widget.isReadOnly()
            and widget.width() < MIN_FIELD_WIDTH
        ):
            found.append(f"no room to type: {where(widget)} {widget.width()} px")
        if isinstance(widget, QTabBar):
            found += tab_problems(widget)
        if isinstance(widget, (QTableView, QTreeView)):
            found += table_problems(widget)
    return found


def tab_problems(bar: QTabBar) -> list[str]:
    found = []
    metrics = bar.fontMetrics()
    for tab in range(bar.count()):
        rect, text = bar.tabRect(tab), bar.tabText(tab).replace("&", "")
        if not bar.rect().contains(rect) or rect.width() < metrics.horizontalAdvance(text):
            found.append(f"tab out of sight or clipped: {text!r} {rect.getRect()} in {bar.width()}")
    return found


def table_problems(view: QTableView | QTreeView) -> list[str]:
    found = []
    name = view.objectName()
    if view.horizontalScrollBar().isVisible():
        found.append(f"scrolls sideways: {name} ({view.horizontalScrollBar().maximum()} px)")
    header = view.horizontalHeader() if isinstance(view, QTableView) else view.header()
    model, metrics = view.model(), view.fontMetrics()
    for column in DATE_COLUMNS.get(name, ()):
        if header.isSectionHidden(column):
            continue
        head = model.headerData(column, Qt.Orientation.Horizontal)
        dated = [index for index in visible_indexes(view, column) if index.data()]
        if not dated:
            found.append(f"no dates in sight: {name} {head!r}")
        for index in dated:
            text = str(index.data())
            if name == "personaList" and not is_worded_date(model, index):
                continue  # the file's own words (the entry's problem says so), or a divider
            if metrics.horizontalAdvance(text) + 8 > header.sectionSize(column):
                found.append(f"date clipped: {name} {head!r} {text!r} {header.sectionSize(column)}")
    return found


def is_worded_date(model, index) -> bool:
    """Whether the persona list's Updated cell is a date the window worded."""
    entry = model.entry(index.siblingAtColumn(0).data(Qt.ItemDataRole.UserRole) or "")
    return entry is not None and index.data() != entry.updated


def visible_indexes(view: QAbstractItemView, column: int):
    """The cells of ``column`` in sight (the tree's leaves too)."""
    index = view.indexAt(QPoint(1, 1))
    seen = 0
    while index.isValid() and seen < 60:
        cell = index.siblingAtColumn(column)
        if cell.isValid() and view.visualRect(cell).top() < view.viewport().height():
            yield cell
        index = (
            view.indexBelow(index)
            if isinstance(view, QTreeView)
            else index.siblingAtRow(index.row() + 1)
        )
        seen += 1


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("name", PAGES)
def test_every_page_fits_at_1024_by_640(qtbot, open_window, name: str, language: str):
    window = open_demo(qtbot, open_window, language)
    page = show(qtbot, window, name)
    assert window.size().width() == WIDTH
    found = problems(window, page)
    assert not found, "\n".join(found)
