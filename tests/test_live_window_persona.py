"""Live reload on the persona page: a real window, a real watcher, the agent as a real process.

tests/agents/persona_agent.py plays the agent: it rewrites entry files in place, the way the
agent does (``--split-write`` leaves a half-written file for a moment), or through a temporary
file and a rename as an editor does (``--atomic``), or deletes them (``--forget``). The window
must show each change, keep the person's place and unsaved text, and not take its own writes
for the agent's. Every wait is on the main thread's signals or state, never a sleep.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from memory_desk.app import create_main_window
from memory_desk.core.persona import PersonaFolder, prompt_section
from memory_desk.ui.persona.page import looks_half_written, writer_name
from memory_desk.ui.persona.rename import RenameDialog
from test_ui_persona import write_entry

AGENT = Path(__file__).parent / "agents" / "persona_agent.py"
OLD_BODY = "Rule: never tell jokes about fish."
# One long line: half of the file always ends inside it, without its line break.
LONG_BODY = "Rule: never tell jokes or puns about fish, not even about cod. " * 12
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
        body=OLD_BODY,
    )
    write_entry(folder, "works-at-night", "Works late", updated="2026-09-01T08:00:00.000Z")
    write_entry(folder, "likes-tea", "Drinks green tea", updated="2026-08-01T08:00:00.000Z")
    return folder


@pytest.fixture
def window(qtbot, memory: Path, monkeypatch: pytest.MonkeyPatch):
    win = create_main_window(["--persona", str(memory)])
    win.show()
    qtbot.waitExposed(win)
    assert win.folder_watcher.mode != "off"
    yield win
    with monkeypatch.context() as patch:
        patch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Discard)
        win.close()
    win.deleteLater()


@pytest.fixture
def page(window):
    return window.persona_page


@pytest.fixture
def agent(qtbot, memory: Path) -> Iterator[Callable[..., list[str]]]:
    """Run the agent script against ``memory`` while the event loop keeps turning (the window
    sees a split write half-done); returns the lines it printed."""
    running: list[subprocess.Popen] = []

    def run(*args: str) -> list[str]:
        proc = subprocess.Popen(
            [sys.executable, str(AGENT), str(memory), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        running.append(proc)
        qtbot.waitUntil(lambda: proc.poll() is not None, timeout=WAIT_MS)
        out, err = proc.communicate()
        assert proc.returncode == 0, err
        return out.splitlines()

    yield run
    for proc in running:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def child(parent: QWidget, kind, name: str):
    found = parent.findChild(kind, name)
    assert found is not None, name
    return found


def body(page) -> QPlainTextEdit:
    return child(page, QPlainTextEdit, "personaBody")


def banner(page) -> QWidget:
    return child(page, QWidget, "conflictBanner")


def button(page, name: str) -> QPushButton:
    return child(page, QPushButton, name)


def names_in_list(page) -> list[str | None]:
    model = child(page, QAbstractItemView, "personaList").model()
    return [model.index(row, 0).data(Qt.ItemDataRole.UserRole) for row in range(model.rowCount())]


def descriptions_in_list(page) -> dict[str, str]:
    model = child(page, QAbstractItemView, "personaList").model()
    rows = range(model.rowCount())
    return {
        model.index(r, 0).data(Qt.ItemDataRole.UserRole): model.index(r, 2).data() for r in rows
    }


def selected_name(page) -> str | None:
    view = child(page, QAbstractItemView, "personaList")
    return view.currentIndex().data(Qt.ItemDataRole.UserRole)


def select(page, name: str) -> None:
    view = child(page, QAbstractItemView, "personaList")
    view.setCurrentIndex(view.model().index(names_in_list(page).index(name), 0))


def agent_view(page) -> str:
    return child(page, QPlainTextEdit, "personaAgentView").toPlainText()


class Reports:
    """What the watcher reported and what the page was asked to do about it."""

    def __init__(self, window) -> None:
        self.paths: list[str] = []
        self.reloads = 0
        self.statuses: list[str] = []
        self.written: list[str] = []
        page = window.persona_page
        window.folder_watcher.paths_changed.connect(lambda _key, paths: self.paths.extend(paths))
        page.status_changed.connect(self.statuses.append)
        page.file_written.connect(self.written.append)
        reload = page.reload

        def counting_reload() -> None:
            self.reloads += 1
            reload()

        page.reload = counting_reload  # the window looks the method up on each change

    def names(self) -> set[str]:
        return {Path(path).name for path in self.paths}


# -- what a half-written file looks like -------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "half"),
    [
        (b"", True),  # truncated, nothing written yet
        (b"---\nname: a\ndescription: x\n", True),  # the header not closed yet
        (b"---\nname: a\n---\n\nThe body, cut in the mid", True),
        (b"---\nname: a\n---\n\nThe body.\n", False),
        (b"---\r\nname: a\r\n---\r\n\r\nWindows.\r\n", False),
    ],
)
def test_looks_half_written(tmp_path: Path, data: bytes, half: bool) -> None:
    (tmp_path / "a.md").write_bytes(data)
    assert looks_half_written(PersonaFolder(tmp_path).read("a")) is half


def test_writer_name(memory: Path, tmp_path: Path) -> None:
    assert writer_name(memory) == "miyagi"
    assert writer_name(memory / "work") == "miyagi"
    assert writer_name(tmp_path) == "Another program"


# -- the agent writes; the person only looks ---------------------------------------------------


def test_a_new_entry_appears_in_the_list_and_the_agents_view(qtbot, page, agent) -> None:
    out = agent(
        "likes-sushi", "user", "Eats sushi on Fridays", "Salmon, no wasabi.", "--split-write", "0.2"
    )
    assert out[0].startswith("wrote ")
    qtbot.waitUntil(lambda: "likes-sushi" in names_in_list(page), timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: "- likes-sushi (user): Eats sushi on Fridays" in agent_view(page), timeout=WAIT_MS
    )
    assert descriptions_in_list(page)["likes-sushi"] == "Eats sushi on Fridays"
    assert names_in_list(page)[0] == "likes-sushi"  # the agent's order: most recent first
    assert selected_name(page) == "no-fish-puns"  # the person's place stays
    assert agent_view(page) == prompt_section(PersonaFolder(page.folder().path).entries())


def test_the_open_entry_without_edits_reloads_quietly(qtbot, page, agent) -> None:
    with qtbot.waitSignal(
        page.info_raised, check_params_cb=lambda text: "reloaded" in text, timeout=WAIT_MS
    ) as notice:
        agent("no-fish-puns", "feedback", "Hates fish puns", "Rule: no fish jokes.", "--atomic")
    assert notice.args == ["miyagi changed no-fish-puns; reloaded"]
    assert body(page).toPlainText() == "Rule: no fish jokes."
    assert child(page, QLineEdit, "personaDescription").text() == "Hates fish puns"
    assert child(page, QLabel, "personaDiskNote").isVisible()
    assert banner(page).isHidden()
    assert not button(page, "personaSave").isEnabled()
    assert selected_name(page) == "no-fish-puns"


def test_a_half_written_file_is_never_shown(qtbot, page, agent) -> None:
    """The agent stops in the middle of its write; what the window shows is the old version,
    then the new one, never the half in between."""
    shown: list[tuple[str, str]] = []
    listed: list[str | None] = []
    description = child(page, QLineEdit, "personaDescription")

    def note() -> None:
        shown.append((description.text(), body(page).toPlainText()))
        listed.append(descriptions_in_list(page).get("no-fish-puns"))

    body(page).textChanged.connect(note)
    page.model.dataChanged.connect(note)
    page.model.rowsInserted.connect(note)
    agent("no-fish-puns", "feedback", "Hates fish puns", LONG_BODY, "--split-write", "0.2")
    qtbot.waitUntil(lambda: body(page).toPlainText() == LONG_BODY.strip(), timeout=WAIT_MS)
    old = ("Dislikes puns about fish", OLD_BODY)
    new = ("Hates fish puns", LONG_BODY.strip())
    assert set(shown) <= {old, new}, shown
    assert set(listed) <= {old[0], new[0]}, listed
    assert banner(page).isHidden()


# -- the person is typing ------------------------------------------------------------------------


def test_edits_stay_and_the_banner_offers_compare_keep_mine_reload(qtbot, page, agent) -> None:
    body(page).setPlainText("my words about fish")
    agent("no-fish-puns", "feedback", "Hates fish puns", LONG_BODY, "--split-write", "0.2")
    qtbot.waitUntil(banner(page).isVisible, timeout=WAIT_MS)
    assert body(page).toPlainText() == "my words about fish"
    for name in ("conflictCompare", "conflictKeepMine", "conflictReload"):
        assert button(page, name).isVisible()
    assert not button(page, "conflictKeep").isVisible()

    button(page, "conflictCompare").click()
    diff = child(page, QPlainTextEdit, "conflictDiff").toPlainText()
    assert f"-{LONG_BODY.strip()}" in diff and "+my words about fish" in diff


def test_keep_mine_then_save_writes_mine(qtbot, page, agent, memory: Path) -> None:
    body(page).setPlainText("my words about fish")
    agent("no-fish-puns", "feedback", "Hates fish puns", "Their words.", "--atomic")
    qtbot.waitUntil(banner(page).isVisible, timeout=WAIT_MS)
    button(page, "conflictKeepMine").click()
    assert banner(page).isHidden()
    assert "Their words." in (memory / "no-fish-puns.md").read_text("utf-8")  # not yet
    assert body(page).toPlainText() == "my words about fish"
    with qtbot.waitSignal(page.info_raised, check_params_cb=lambda t: t.startswith("Saved")):
        button(page, "personaSave").click()
    assert (memory / "no-fish-puns.md").read_text("utf-8").endswith("\n\nmy words about fish\n")
    assert banner(page).isHidden()
    assert not button(page, "personaSave").isEnabled()


def test_keep_mine_does_not_overwrite_a_later_change_unseen(qtbot, page, agent, memory) -> None:
    body(page).setPlainText("my words about fish")
    agent("no-fish-puns", "feedback", "Hates fish puns", "Their words.", "--atomic")
    qtbot.waitUntil(banner(page).isVisible, timeout=WAIT_MS)
    button(page, "conflictKeepMine").click()
    agent("no-fish-puns", "feedback", "Hates fish puns", "Their second words.", "--atomic")
    qtbot.waitUntil(banner(page).isVisible, timeout=WAIT_MS)  # a new version: asked again
    assert body(page).toPlainText() == "my words about fish"
    assert "Their second words." in (memory / "no-fish-puns.md").read_text("utf-8")


def test_reload_theirs_shows_theirs(qtbot, page, agent) -> None:
    body(page).setPlainText("my words about fish")
    agent("no-fish-puns", "feedback", "Hates fish puns", "Their words.")
    qtbot.waitUntil(banner(page).isVisible, timeout=WAIT_MS)
    button(page, "conflictReload").click()
    assert banner(page).isHidden()
    assert body(page).toPlainText() == "Their words."
    assert child(page, QLineEdit, "personaDescription").text() == "Hates fish puns"
    assert not button(page, "personaSave").isEnabled()


# -- the agent deletes the open entry --------------------------------------------------------------


def test_deleted_open_entry_keep_then_save_writes_it_back(qtbot, page, agent, memory) -> None:
    agent("no-fish-puns", "--forget")
    qtbot.waitUntil(banner(page).isVisible, timeout=WAIT_MS)
    assert "deleted no-fish-puns" in child(page, QLabel, "conflictMessage").text()
    assert button(page, "conflictKeep").isVisible() and button(page, "conflictClose").isVisible()
    assert not button(page, "conflictCompare").isVisible()
    assert "no-fish-puns" not in names_in_list(page)
    assert body(page).toPlainText() == OLD_BODY  # still there to keep

    button(page, "conflictKeep").click()
    assert banner(page).isHidden()
    assert button(page, "personaSave").isEnabled()
    body(page).setPlainText("Rule: still no fish jokes.")
    button(page, "personaSave").click()
    text = (memory / "no-fish-puns.md").read_text("utf-8")
    assert "description: Dislikes puns about fish\n" in text
    assert text.endswith("\n\nRule: still no fish jokes.\n")
    assert "no-fish-puns" in names_in_list(page)
    assert selected_name(page) == "no-fish-puns"
    assert not button(page, "personaSave").isEnabled()


def test_deleted_open_entry_close(qtbot, page, agent, memory: Path) -> None:
    body(page).setPlainText("unsaved words")
    agent("no-fish-puns", "--forget")
    qtbot.waitUntil(banner(page).isVisible, timeout=WAIT_MS)
    assert body(page).toPlainText() == "unsaved words"
    button(page, "conflictClose").click()
    assert banner(page).isHidden()
    assert child(page, QLineEdit, "personaName").text() == ""
    assert page.current_name() is None
    assert not (memory / "no-fish-puns.md").exists()


# -- the person's place ----------------------------------------------------------------------------


def test_selection_survives_other_entries_changing(qtbot, page, agent) -> None:
    select(page, "likes-tea")
    body(page).setPlainText("half a thought")
    agent("works-at-night", "user", "Works late, sleeps late", "Owl.", "--split-write", "0.1")
    agent("likes-coffee", "user", "Coffee in the morning", "Black.", "--atomic")
    qtbot.waitUntil(
        lambda: names_in_list(page)[:2] == ["likes-coffee", "works-at-night"], timeout=WAIT_MS
    )
    qtbot.waitUntil(
        lambda: descriptions_in_list(page)["works-at-night"] == "Works late, sleeps late",
        timeout=WAIT_MS,
    )
    assert selected_name(page) == "likes-tea"
    assert child(page, QLineEdit, "personaName").text() == "likes-tea"
    assert body(page).toPlainText() == "half a thought"
    assert banner(page).isHidden()


# -- the page's own writes -----------------------------------------------------------------------


def test_own_writes_are_not_taken_for_the_agents(
    qtbot, window, page, agent, memory: Path, monkeypatch
) -> None:
    """Save, rename, forget and undo: the watcher reports none of them, the page reloads only
    for the agent's write that follows (a sentinel: once it shows, the page's echoes, which
    came earlier, would have shown too)."""
    reports = Reports(window)
    body(page).setPlainText("saved by the person")
    button(page, "personaSave").click()

    def exec_with_name(dialog: RenameDialog) -> int:
        dialog.name_edit.setText("hates-fish-puns")
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(RenameDialog, "exec", exec_with_name)
    button(page, "personaRename").click()
    select(page, "likes-tea")
    button(page, "personaForget").click()
    window.findChild(QAction, "undoAction").trigger()  # likes-tea comes back
    assert (memory / "likes-tea.md").exists() and (memory / "hates-fish-puns.md").exists()
    expected = {"no-fish-puns.md", "hates-fish-puns.md", "likes-tea.md"}
    assert {Path(p).name for p in reports.written} == expected
    open_before = page.current_name()

    agent("sentinel-entry", "user", "Written by the agent", "x", "--atomic")
    qtbot.waitUntil(lambda: "sentinel-entry" in names_in_list(page), timeout=WAIT_MS)
    assert reports.names() == {"sentinel-entry.md"}
    assert 1 <= reports.reloads <= 2
    assert len(reports.statuses) <= 6  # one per write and one for the sentinel, no loop
    assert page.current_name() == open_before == selected_name(page)
    assert banner(page).isHidden()
