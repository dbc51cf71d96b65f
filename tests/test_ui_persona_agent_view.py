""" "What the agent sees" and the folder's own problems, on the real window driven by object names.

The view must hold exactly the section the agent's prompt gets, with the one part that changes
with the entries (the list) marked; and while something in the folder makes the agent's listing
fail, the page says so above the list, the view says the agent gets no section, and one click
(undoable) fixes it. The live test creates the culprit while the window watches the folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QWidget,
)

from memory_desk.app import create_main_window
from memory_desk.core.persona import PersonaFolder, agent_index, prompt_section
from test_ui_persona import write_entry

WAIT_MS = 5000


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    folder = tmp_path / ".miyagi" / "memory"
    folder.mkdir(parents=True)
    write_entry(
        folder,
        "no-fish-puns",
        "Dislikes puns about fish",
        type="feedback",
        updated="2026-10-07T13:15:05.678Z",
    )
    write_entry(folder, "likes-tea", "Drinks green tea 🍵", updated="2026-08-01T08:00:00.000Z")
    return folder


@pytest.fixture
def window(qtbot, memory: Path, monkeypatch: pytest.MonkeyPatch):
    win = create_main_window(["--persona", str(memory)])
    win.show()
    qtbot.waitExposed(win)
    yield win
    with monkeypatch.context() as patch:
        patch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Discard)
        win.close()
    win.deleteLater()


@pytest.fixture
def page(window):
    return window.persona_page


def child(parent: QWidget, kind, name: str):
    found = parent.findChild(kind, name)
    assert found is not None, name
    return found


def view(page) -> QPlainTextEdit:
    return child(page, QPlainTextEdit, "personaAgentView")


def marked_lines(page) -> list[str]:
    """The lines of the view drawn with a background: the part marked as the list."""
    block = view(page).document().begin()
    lines = []
    while block.isValid():
        if block.blockFormat().background().style() != Qt.BrushStyle.NoBrush:
            lines.append(block.text())
        block = block.next()
    return lines


def banner(page) -> QWidget:
    return child(page, QWidget, "personaFolderProblems")


def show_agent_tab(page) -> None:
    tabs = child(page, QTabWidget, "personaTabs")
    tabs.setCurrentIndex(1)


# -- the section --------------------------------------------------------------------------------


def test_the_view_is_the_whole_section_with_the_list_marked(page, memory: Path) -> None:
    show_agent_tab(page)
    entries = PersonaFolder(memory).entries()
    assert view(page).toPlainText() == prompt_section(entries)
    assert view(page).toPlainText().startswith("## Your memory of the person\nYou keep")
    assert marked_lines(page) == agent_index(entries).split("\n")
    caption = child(page, QLabel, "personaAgentViewCaption")
    assert caption.isVisible() and "changes with your entries" in caption.text()
    assert banner(page).isHidden()


def test_the_list_part_follows_a_save(qtbot, page, memory: Path) -> None:
    child(page, QLineEdit, "personaDescription").setText("Hates fish puns")
    with qtbot.waitSignal(page.info_raised):
        child(page, QPushButton, "personaSave").click()
    entries = PersonaFolder(memory).entries()
    assert view(page).toPlainText() == prompt_section(entries)
    assert marked_lines(page)[0] == "- no-fish-puns (feedback): Hates fish puns"
    assert len(marked_lines(page)) == 2


def test_an_empty_folder_marks_nothing_yet(qtbot, tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    win = create_main_window(["--persona", str(folder)])
    qtbot.addWidget(win)
    win.show()
    page = win.persona_page
    assert view(page).toPlainText() == prompt_section([])
    assert marked_lines(page) == ["Nothing yet."]


# -- the folder's problems -----------------------------------------------------------------------


def test_a_folder_named_like_an_entry_is_said_above_the_list_and_fixed(
    window, page, memory: Path
) -> None:
    (memory / "archive.md").mkdir()
    (memory / "archive.md" / "old.md").write_text("kept")
    page.reload()
    assert banner(page).isVisible()
    text = child(page, QLabel, "personaFolderProblemsText").text()
    assert "“archive.md” is a folder" in text
    assert "cannot read its memory at all while this is here" in text
    # the view says what the agent gets instead of a list it will not get
    assert view(page).toPlainText().startswith("The agent gets no memory section")
    assert "- no-fish-puns" not in view(page).toPlainText() and marked_lines(page) == []
    assert "none in the prompt" in child(window, QLabel, "statusCounts").text()

    fix = child(page, QPushButton, "personaFolderFixButton")
    assert fix.text() == "Rename it to “archive”"
    fix.click()
    assert (memory / "archive" / "old.md").read_text() == "kept"
    assert not (memory / "archive.md").exists()
    assert banner(page).isHidden()
    assert view(page).toPlainText() == prompt_section(PersonaFolder(memory).entries())

    window.findChild(QAction, "undoAction").trigger()
    assert (memory / "archive.md" / "old.md").read_text() == "kept"
    assert banner(page).isVisible()


def test_the_banner_follows_the_folder_live(qtbot, window, page, memory: Path) -> None:
    """The agent's folder gains a culprit while the window watches it, then loses it."""
    assert window.folder_watcher.mode != "off"
    (memory / "old-notes.md").mkdir()
    qtbot.waitUntil(lambda: banner(page).isVisible(), timeout=WAIT_MS)
    assert "“old-notes.md” is a folder" in child(page, QLabel, "personaFolderProblemsText").text()
    shutil.rmtree(memory / "old-notes.md")
    qtbot.waitUntil(lambda: banner(page).isHidden(), timeout=WAIT_MS)
    assert view(page).toPlainText() == prompt_section(PersonaFolder(memory).entries())
