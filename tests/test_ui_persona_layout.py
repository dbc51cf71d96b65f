"""The persona page's layout and its small stumbles, in the real window on a real folder:
the preview below the editor on a small screen and beside it on a wide one, the list's
columns stepping aside rather than scrolling sideways, and an undone forget shown again."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLineEdit, QPushButton, QSplitter, QTableView, QTextBrowser

from memory_desk.ui.persona.list_columns import NARROW_DROPS
from persona_files import agent_file, stamp

pytest_plugins = ["window_fixture"]  # the open_window fixture

NAMES = ("likes-green-tea", "works-late-at-night", "prefers-short-answers", "no-fish-puns")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    memory = tmp_path / ".miyagi" / "memory"
    memory.mkdir(parents=True)
    for n, name in enumerate(NAMES):
        body = f"# {name}\n\nWhat the agent keeps about it, in a few words."
        description = f"The person {name.replace('-', ' ')}, as they said in a chat"
        (memory / f"{name}.md").write_bytes(agent_file(name, description, stamp(n), body))
    return memory


def open_persona(qtbot, open_window, folder: Path, width: int, *args: str):
    window = open_window(["--persona", str(folder), *args])
    window.resize(width, 700)
    window.show_page("persona")
    page = window.persona_page
    qtbot.waitUntil(lambda: window.width() == width and page.model.rowCount() == len(NAMES))
    return window, page


def name_field(window) -> QLineEdit:
    return window.findChild(QLineEdit, "personaName")


def current_name(page) -> str | None:
    return page.list.currentIndex().data(Qt.ItemDataRole.UserRole)


# -- an undone forget ---------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["menu", "keys"])
def test_an_undone_forget_shows_the_entry_again(qtbot, open_window, folder: Path, how) -> None:
    """The entry comes back chosen in the list and open in the form, as it was before."""
    window, page = open_persona(qtbot, open_window, folder, 1280)
    chosen = page.model.row_of("works-late-at-night")
    page.list.setCurrentIndex(page.model.index(chosen, 0))
    qtbot.waitUntil(lambda: name_field(window).text() == "works-late-at-night")
    description = page.editor.description.text()
    window.findChild(QPushButton, "personaForget").click()
    qtbot.waitUntil(lambda: not (folder / "works-late-at-night.md").exists())
    assert name_field(window).text() != "works-late-at-night"

    if how == "menu":
        window.findChild(QAction, "undoAction").trigger()
    else:
        window.activateWindow()
        page.list.setFocus()
        qtbot.waitUntil(page.list.hasFocus)
        qtbot.keyClick(page.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: (folder / "works-late-at-night.md").exists())
    qtbot.waitUntil(lambda: name_field(window).text() == "works-late-at-night")
    assert current_name(page) == "works-late-at-night"
    assert page.current_name() == "works-late-at-night"
    assert page.editor.description.text() == description
    assert "What the agent keeps" in page.editor.body.toPlainText()


# -- the preview beside or below the editor -----------------------------------------------------


def preview_place(window) -> tuple[Qt.Orientation, int, int]:
    """How the editor and the preview sit, and the x and y of the preview's top left."""
    splitter = window.findChild(QSplitter, "personaEditorSplitter")
    preview = window.findChild(QTextBrowser, "personaPreview")
    corner = preview.mapTo(splitter, preview.rect().topLeft())
    return splitter.orientation(), corner.x(), corner.y()


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_preview_sits_beside_the_editor_on_a_wide_window(
    qtbot, open_window, folder: Path, language: str
) -> None:
    """Below the editor at 1024 wide; beside it at 1600, with the list keeping room for its
    columns; below again when the window narrows."""
    window, page = open_persona(qtbot, open_window, folder, 1024, "--lang", language)
    page.list.setCurrentIndex(page.model.index(0, 0))
    qtbot.waitUntil(lambda: bool(name_field(window).text()))
    orientation, x, y = preview_place(window)
    assert orientation == Qt.Orientation.Vertical and x < 10 and y > 200

    window.resize(1600, 700)
    qtbot.waitUntil(lambda: preview_place(window)[0] == Qt.Orientation.Horizontal)
    qtbot.wait(50)
    _orientation, x, y = preview_place(window)
    editor = window.findChild(QLineEdit, "personaName")
    splitter = window.findChild(QSplitter, "personaEditorSplitter")
    assert y < 60 and x > editor.mapTo(splitter, editor.rect().topRight()).x()
    preview = window.findChild(QTextBrowser, "personaPreview")
    assert preview.width() >= 250 and editor.width() >= 180
    qtbot.waitUntil(lambda: "What the agent keeps" in preview.toPlainText())
    qtbot.waitUntil(lambda: not page.list.horizontalScrollBar().isVisible())
    assert page.list.columns.stepped_aside() == []

    window.resize(1024, 700)
    qtbot.waitUntil(lambda: preview_place(window)[0] == Qt.Orientation.Vertical)
    qtbot.waitUntil(lambda: not page.list.horizontalScrollBar().isVisible())


# -- the list's columns -------------------------------------------------------------------------


def test_a_narrow_list_steps_columns_aside_and_brings_them_back(
    qtbot, open_window, folder: Path
) -> None:
    """Never scrolling sideways: the type goes first, then the date; widened, both return."""
    from memory_desk.ui.persona.list_columns import MIN_DESCRIPTION_WIDTH
    from memory_desk.ui.persona.model import DESCRIPTION, TYPE, UPDATED

    window, page = open_persona(qtbot, open_window, folder, 1280)
    view = window.findChild(QTableView, "personaList")
    header = view.horizontalHeader()
    splitter = window.findChild(QSplitter, "personaSplitter")
    total = sum(splitter.sizes())
    seen = []
    for width in (600, 500, 420, 330, 260, 600):
        splitter.setSizes([width, total - width])
        qtbot.waitUntil(lambda w=width: abs(view.width() - w) < 20)
        qtbot.waitUntil(lambda: not view.horizontalScrollBar().isVisible())
        assert header.sectionSize(DESCRIPTION) >= MIN_DESCRIPTION_WIDTH or width < 330, width
        seen.append(view.columns.stepped_aside())
    assert seen[0] == [] and seen[-1] == []
    assert [TYPE] in seen and [TYPE, UPDATED] in seen
    assert list(NARROW_DROPS) == [TYPE, UPDATED]
    assert not header.isSectionHidden(TYPE) and not header.isSectionHidden(UPDATED)
