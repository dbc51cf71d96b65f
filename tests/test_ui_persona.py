"""The persona page, driven by object names as a person would, on real folders of entry files."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QAction, QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QWidget,
)

from memory_desk.app import create_main_window
from memory_desk.core.persona import PersonaFolder, prompt_section
from memory_desk.ui.persona.page import PersonaPage
from memory_desk.ui.persona.rename import RenameDialog

UPDATED_RE = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"


def write_entry(
    folder: Path,
    name: str,
    description: str,
    *,
    type: str = "user",
    updated: str = "2026-01-01T00:00:00.000Z",
    body: str = "Some text.",
    extra: tuple[str, ...] = (),
    newline: str = "\n",
) -> Path:
    """A file exactly as the agent writes it (plus any ``extra`` header lines a person added)."""
    lines = [
        "---",
        f"name: {name}",
        f"description: {description}",
        f"type: {type}",
        f"updated: {updated}",
        *extra,
        "---",
        "",
        body,
    ]
    path = folder / f"{name}.md"
    path.write_bytes((newline.join(lines) + newline).encode("utf-8"))
    return path


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
        body="Rule: never tell jokes about fish.",
        extra=("tags: [humour, fish]",),
    )
    write_entry(
        folder,
        "works-at-night",
        "Works late, answers slowly in the morning",
        updated="2026-09-01T08:00:00.000Z",
        body="# Night owl\n\nPrefers *short* answers after midnight.",
    )
    write_entry(folder, "likes-tea", "Drinks green tea", updated="2026-08-01T08:00:00.000Z")
    return folder


@pytest.fixture
def window(qtbot, memory: Path, monkeypatch: pytest.MonkeyPatch):
    """The window on ``memory``; closed at the end dropping any unsaved edits a test left
    (qtbot's own closing would stop at the Save/Discard/Cancel question)."""
    win = create_main_window(["--persona", str(memory)])
    win.show()
    qtbot.waitExposed(win)
    yield win
    with monkeypatch.context() as patch:
        patch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Discard)
        win.close()
    win.deleteLater()


@pytest.fixture
def page(window) -> PersonaPage:
    return window.persona_page


def child(page: QWidget, kind, name: str):
    found = page.findChild(kind, name)
    assert found is not None, name
    return found


def button(page: QWidget, name: str) -> QPushButton:
    return child(page, QPushButton, name)


def names_in_list(page: QWidget) -> list[str | None]:
    view = child(page, QAbstractItemView, "personaList")
    model = view.model()
    return [model.index(row, 0).data(Qt.ItemDataRole.UserRole) for row in range(model.rowCount())]


def select(page: QWidget, name: str) -> None:
    view = child(page, QAbstractItemView, "personaList")
    row = names_in_list(page).index(name)
    view.setCurrentIndex(view.model().index(row, 0))


def selected_name(page: QWidget) -> str | None:
    view = child(page, QAbstractItemView, "personaList")
    return view.currentIndex().data(Qt.ItemDataRole.UserRole)


def answer(monkeypatch: pytest.MonkeyPatch, button: QMessageBox.StandardButton) -> list[str]:
    """Make the Save/Discard/Cancel question answer ``button``; returns the questions asked."""
    asked: list[str] = []

    def question(_parent, _title, text, *_args, **_kwargs):
        asked.append(text)
        return button

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def body(page: QWidget) -> QPlainTextEdit:
    return child(page, QPlainTextEdit, "personaBody")


# -- the list -----------------------------------------------------------------------------------


def test_list_shows_entries_in_the_agents_order(window, page) -> None:
    assert names_in_list(page) == ["no-fish-puns", "works-at-night", "likes-tea"]
    model = child(page, QAbstractItemView, "personaList").model()
    assert model.index(0, 1).data() == "feedback"
    assert model.index(0, 2).data() == "Dislikes puns about fish"
    assert "2026-10-07T13:15:05.678Z" in model.index(0, 3).data(Qt.ItemDataRole.ToolTipRole)
    # the first entry opens by itself; the window's status bar shows the counts
    assert child(page, QLineEdit, "personaName").text() == "no-fish-puns"
    assert child(window, QLabel, "statusCounts").text() == (
        "3 entries · 3 in the prompt · 1 with problems"
    )


def test_problem_marker_and_filter(qtbot, page) -> None:
    model = child(page, QAbstractItemView, "personaList").model()
    # the extra "tags:" line is a warning the person sees on the row
    assert model.index(0, 0).data(Qt.ItemDataRole.DecorationRole) is not None
    assert "tags" in model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(1, 0).data(Qt.ItemDataRole.DecorationRole) is None
    with qtbot.waitSignal(page.filter_applied):  # (the filter waits for a pause in typing)
        child(page, QLineEdit, "personaFilter").setText("TEA")
    assert names_in_list(page) == ["likes-tea"]
    # the open entry stays open while the filter hides it
    assert child(page, QLineEdit, "personaName").text() == "no-fish-puns"
    with qtbot.waitSignal(page.filter_applied):
        child(page, QLineEdit, "personaFilter").clear()
    assert names_in_list(page) == ["no-fish-puns", "works-at-night", "likes-tea"]
    assert selected_name(page) == "no-fish-puns"


@pytest.mark.parametrize(("cost_ms", "waits_ms"), [(5.0, 0), (15.9, 0), (40.0, 40), (900.0, 100)])
def test_the_filter_waits_for_a_pause_only_when_it_takes_more_than_a_frame(
    qtbot, page, cost_ms, waits_ms
) -> None:
    """A filter that fits in a frame follows every key at once; a dearer one waits for a
    pause in typing as long as it took (at most 100 ms), so keys typed meanwhile filter once."""
    from memory_desk.ui.persona import page as persona_page

    page._filter_cost_ms = cost_ms  # (as if the last filter had taken that long)
    box = child(page, QLineEdit, "personaFilter")
    applied: list[str] = []
    page.filter_applied.connect(applied.append)
    QTest.keyClicks(box, "tea")  # three keys, no event processed between them
    timer = page._filter_timer
    assert timer.isActive() and timer.interval() == waits_ms
    assert waits_ms <= persona_page.MAX_FILTER_DELAY_MS
    qtbot.waitUntil(lambda: bool(applied))
    assert applied == ["tea"] and names_in_list(page) == ["likes-tea"]


def test_divider_after_the_fiftieth_entry(qtbot, tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    for n in range(55):
        write_entry(
            folder, f"entry-{n:02d}", f"Entry {n}", updated=f"2026-01-01T00:00:{n:02d}.000Z"
        )
    (folder / "Not Kebab.md").write_text("---\ndescription: hidden\n---\n\nx\n", "utf-8")
    win = create_main_window(["--persona", str(folder)])
    qtbot.addWidget(win)
    win.show()
    page = win.persona_page
    names = names_in_list(page)
    assert names[:50] == [f"entry-{n:02d}" for n in range(54, 4, -1)]
    assert names[50] is None
    assert names[51:56] == [f"entry-{n:02d}" for n in range(4, -1, -1)]
    assert names[56] is None and names[57] == "Not Kebab"
    model = child(page, QAbstractItemView, "personaList").model()
    divider = model.index(50, 0)
    assert divider.data() == "The agent's prompt lists only the entries above"
    assert not model.flags(divider) & Qt.ItemFlag.ItemIsSelectable
    assert model.index(56, 0).data() == "The agent never sees the entries below"
    assert page.findChild(QAbstractItemView, "personaList").isFirstColumnSpanned(50, QModelIndex())
    assert win.findChild(QLabel, "statusCounts").text().startswith("56 entries · 50 in the prompt")


def test_list_model_passes_the_model_tester(qtmodeltester, page) -> None:
    qtmodeltester.check(child(page, QAbstractItemView, "personaList").model())


# -- editing and saving -------------------------------------------------------------------------


def test_save_writes_only_what_changed(qtbot, page, memory: Path) -> None:
    path = memory / "no-fish-puns.md"
    body(page).setPlainText("Rule: no fish jokes, ever.\n\n- not even *cod*")
    child(page, QLineEdit, "personaDescription").setText("Hates fish puns")
    assert button(page, "personaSave").isEnabled()
    with qtbot.waitSignal(page.info_raised):
        button(page, "personaSave").click()
    text = path.read_text("utf-8")
    assert re.fullmatch(
        "---\nname: no-fish-puns\ndescription: Hates fish puns\ntype: feedback\n"
        f"updated: {UPDATED_RE}\ntags: \\[humour, fish\\]\n---\n\n"
        "Rule: no fish jokes, ever.\n\n- not even \\*cod\\*\n",
        text,
    ), text
    assert not button(page, "personaSave").isEnabled()
    assert names_in_list(page)[0] == "no-fish-puns"
    assert selected_name(page) == "no-fish-puns"


def test_type_change_and_crlf_kept(qtbot, page, memory: Path) -> None:
    path = write_entry(
        memory, "crlf-entry", "Windows file", updated="2027-01-01T00:00:00.000Z", newline="\r\n"
    )
    page.reload()
    select(page, "crlf-entry")
    child(page, QComboBox, "personaType").setCurrentText("feedback")
    button(page, "personaSave").click()
    data = path.read_bytes()
    assert b"type: feedback\r\n" in data
    assert data.endswith(b"---\r\n\r\nSome text.\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_description_counter_follows_typing(page) -> None:
    description = child(page, QLineEdit, "personaDescription")
    description.setText("x" * 12)
    assert child(page, QLabel, "personaDescriptionCounter").text().startswith("12")


def test_revert_drops_edits(page, memory: Path) -> None:
    before = (memory / "no-fish-puns.md").read_bytes()
    body(page).setPlainText("something else")
    assert button(page, "personaRevert").isEnabled()
    button(page, "personaRevert").click()
    assert body(page).toPlainText() == "Rule: never tell jokes about fish."
    assert not button(page, "personaSave").isEnabled()
    assert (memory / "no-fish-puns.md").read_bytes() == before


def test_new_entry_is_written_in_the_agents_format(qtbot, page, memory: Path) -> None:
    button(page, "personaNew").click()
    name = child(page, QLineEdit, "personaName")
    assert not name.isReadOnly()
    name.setText("Bad Name")
    assert child(page, QLabel, "personaNameHint").text()
    with qtbot.waitSignal(page.error_raised):
        button(page, "personaSave").click()
    assert not (memory / "Bad Name.md").exists()

    name.setText("prefers-short-answers")
    child(page, QComboBox, "personaType").setCurrentText("feedback")
    child(page, QLineEdit, "personaDescription").setText("Wants answers in three lines or less")
    body(page).setPlainText("Keep it short.  \n")
    button(page, "personaSave").click()
    text = (memory / "prefers-short-answers.md").read_text("utf-8")
    assert re.fullmatch(
        "---\nname: prefers-short-answers\ndescription: Wants answers in three lines or less\n"
        f"type: feedback\nupdated: {UPDATED_RE}\n---\n\nKeep it short.\n",
        text,
    ), text
    assert names_in_list(page)[0] == "prefers-short-answers"
    assert selected_name(page) == "prefers-short-answers"
    assert child(page, QLineEdit, "personaName").isReadOnly()


def test_rename_through_the_dialog_and_undo(qtbot, window, page, memory: Path, monkeypatch) -> None:
    def exec_with_name(dialog: RenameDialog) -> int:
        dialog.name_edit.setText("Has Spaces")
        assert dialog.findChild(QLabel, "personaRenameHint").text()
        dialog.name_edit.setText("hates-fish-puns")
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(RenameDialog, "exec", exec_with_name)
    button(page, "personaRename").click()
    assert not (memory / "no-fish-puns.md").exists()
    text = (memory / "hates-fish-puns.md").read_text("utf-8")
    assert "name: hates-fish-puns\n" in text and "tags: [humour, fish]\n" in text
    assert child(page, QLineEdit, "personaName").text() == "hates-fish-puns"
    assert selected_name(page) == "hates-fish-puns"

    window.findChild(QAction, "undoAction").trigger()
    assert (memory / "no-fish-puns.md").exists()
    assert not (memory / "hates-fish-puns.md").exists()
    assert child(page, QLineEdit, "personaName").text() == "no-fish-puns"


# -- forgetting ---------------------------------------------------------------------------------


def test_forget_and_undo(window, page, memory: Path) -> None:
    original = (memory / "no-fish-puns.md").read_bytes()
    button(page, "personaForget").click()
    assert not (memory / "no-fish-puns.md").exists()
    assert "no-fish-puns" not in names_in_list(page)
    assert sorted(p.name for p in memory.iterdir()) == ["likes-tea.md", "works-at-night.md"]
    assert child(page, QLineEdit, "personaName").text() == "works-at-night"

    window.findChild(QAction, "undoAction").trigger()
    assert (memory / "no-fish-puns.md").read_bytes() == original
    assert names_in_list(page)[0] == "no-fish-puns"


# -- unsaved edits ------------------------------------------------------------------------------


def test_switching_with_edits_cancel_keeps_everything(page, monkeypatch) -> None:
    asked = answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    body(page).setPlainText("my unsaved words")
    select(page, "likes-tea")
    assert asked and "no-fish-puns" in asked[0]
    assert selected_name(page) == "no-fish-puns"
    assert body(page).toPlainText() == "my unsaved words"


def test_switching_with_edits_discard(page, memory: Path, monkeypatch) -> None:
    before = (memory / "no-fish-puns.md").read_bytes()
    answer(monkeypatch, QMessageBox.StandardButton.Discard)
    body(page).setPlainText("my unsaved words")
    select(page, "likes-tea")
    assert child(page, QLineEdit, "personaName").text() == "likes-tea"
    assert (memory / "no-fish-puns.md").read_bytes() == before


def test_switching_with_edits_save(page, memory: Path, monkeypatch) -> None:
    answer(monkeypatch, QMessageBox.StandardButton.Save)
    body(page).setPlainText("my saved words")
    select(page, "likes-tea")
    assert child(page, QLineEdit, "personaName").text() == "likes-tea"
    assert selected_name(page) == "likes-tea"
    assert (memory / "no-fish-puns.md").read_text("utf-8").endswith("\n\nmy saved words\n")


def test_closing_with_edits_asks(window, page, monkeypatch) -> None:
    asked = answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    body(page).setPlainText("unsaved")
    assert page.maybe_close() is False
    assert window.close() is False
    assert len(asked) == 2
    answer(monkeypatch, QMessageBox.StandardButton.Discard)
    assert page.maybe_close() is True


# -- conflicts ----------------------------------------------------------------------------------


def _edit_behind_the_editor(memory: Path) -> Path:
    path = memory / "no-fish-puns.md"
    path.write_text(path.read_text("utf-8").replace("never tell", "NEVER tell"), "utf-8")
    return path


def test_conflict_on_save_then_keep_mine(qtbot, page, memory: Path) -> None:
    banner = child(page, QWidget, "conflictBanner")
    assert banner.isHidden()
    body(page).setPlainText("mine")
    path = _edit_behind_the_editor(memory)
    theirs = path.read_bytes()
    button(page, "personaSave").click()
    assert banner.isVisible()
    assert path.read_bytes() == theirs

    child(page, QPushButton, "conflictCompare").click()
    diff = child(page, QPlainTextEdit, "conflictDiff").toPlainText()
    assert "-Rule: NEVER tell jokes about fish." in diff and "+mine" in diff

    child(page, QPushButton, "conflictKeepMine").click()
    assert banner.isHidden()
    assert path.read_text("utf-8").endswith("\n\nmine\n")
    assert not button(page, "personaSave").isEnabled()


def test_conflict_on_save_then_reload(page, memory: Path) -> None:
    body(page).setPlainText("mine")
    path = _edit_behind_the_editor(memory)
    theirs = path.read_bytes()
    button(page, "personaSave").click()
    child(page, QPushButton, "conflictReload").click()
    assert child(page, QWidget, "conflictBanner").isHidden()
    assert body(page).toPlainText() == "Rule: NEVER tell jokes about fish."
    assert path.read_bytes() == theirs
    assert not button(page, "personaSave").isEnabled()


def test_reload_keeps_unsaved_text_and_flags_a_change(page, memory: Path) -> None:
    body(page).setPlainText("mine")
    _edit_behind_the_editor(memory)
    page.reload()
    assert body(page).toPlainText() == "mine"
    assert child(page, QWidget, "conflictBanner").isVisible()
    assert selected_name(page) == "no-fish-puns"


def test_reload_follows_the_disk_when_clean(page, memory: Path) -> None:
    _edit_behind_the_editor(memory)
    page.reload()
    assert body(page).toPlainText() == "Rule: NEVER tell jokes about fish."
    assert child(page, QWidget, "conflictBanner").isHidden()


# -- what the agent sees, preview, errors -------------------------------------------------------


def test_agent_view_is_the_prompt_section(page, memory: Path) -> None:
    view = child(page, QPlainTextEdit, "personaAgentView")
    expected = prompt_section(PersonaFolder(memory).entries())
    assert view.toPlainText() == expected
    assert expected.startswith("## Your memory of the person\nYou keep a memory")
    assert "\n- no-fish-puns (feedback): Dislikes puns about fish\n" in expected
    button(page, "personaForget").click()
    assert view.toPlainText() == prompt_section(PersonaFolder(memory).entries())
    assert "no-fish-puns" not in view.toPlainText()


def test_preview_renders_and_loads_nothing_outside(qtbot, page, memory: Path) -> None:
    (memory.parent / "secret.png").write_bytes(b"not really a png")
    preview = child(page, QTextBrowser, "personaPreview")
    assert not preview.openLinks() and not preview.openExternalLinks()
    body(page).setPlainText(
        "# Title\n\n![x](https://example.com/track.png) ![y](../secret.png) [a link](https://x.y)"
    )
    qtbot.waitUntil(lambda: "Title" in preview.toPlainText())
    assert "https://example.com/track.png" in preview.blocked
    assert any("secret.png" in url for url in preview.blocked)


def test_non_utf8_entry_is_read_only(qtbot, page, memory: Path) -> None:
    (memory / "latin1.md").write_bytes(
        b"---\nname: latin1\ndescription: caf\xe9\ntype: user\n"
        b"updated: 2027-01-01T00:00:00.000Z\n---\n\nna\xefve\n"
    )
    page.reload()
    select(page, "latin1")
    assert body(page).isReadOnly()
    assert "\ufffd" in body(page).toPlainText()
    reason = child(page, QLabel, "personaReadOnlyReason")
    assert reason.isVisible() and "UTF-8" in reason.text()
    assert not button(page, "personaSave").isEnabled()


def test_problem_fix_button_renames_a_hidden_entry(qtbot, page, memory: Path) -> None:
    (memory / "My Note.md").write_text(
        "---\nname: My Note\ndescription: A note\ntype: user\n"
        "updated: 2026-01-01T00:00:00.000Z\n---\n\nText\n",
        "utf-8",
    )
    page.reload()
    select(page, "My Note")
    problems = child(page, QWidget, "personaProblems")
    assert problems.isVisible()
    child(page, QPushButton, "personaFix-rename").click()
    assert (memory / "my-note.md").exists() and not (memory / "My Note.md").exists()
    assert child(page, QLineEdit, "personaName").text() == "my-note"


def test_ctrl_s_saves(qtbot, window, page, memory: Path) -> None:
    window.activateWindow()
    editor = body(page)
    editor.setFocus()
    editor.setPlainText("typed then saved with the keyboard")
    qtbot.keyClick(editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "with the keyboard" in (memory / "no-fish-puns.md").read_text("utf-8"))


def test_preview_loads_an_image_inside_the_folder(qtbot, page, memory: Path) -> None:
    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    assert image.save(str(memory / "pic.png"))
    preview = child(page, QTextBrowser, "personaPreview")
    body(page).setPlainText("Look ![pic](pic.png)")
    qtbot.waitUntil(lambda: "Look" in preview.toPlainText())
    assert preview.blocked == []


def test_body_highlighting_marks_markdown(page) -> None:
    body(page).setPlainText("# Heading\n\nSome **bold** and `code`\n\n- item [link](x.md)")
    highlighter = page.editor.highlighter
    assert highlighter.format_name_at(0, 2) == "heading"
    assert highlighter.format_name_at(2, 7) == "bold"
    assert highlighter.format_name_at(2, 20) == "code"
    assert highlighter.format_name_at(4, 0) == "list"
    assert highlighter.format_name_at(4, 8) == "link"


def test_delete_key_in_the_list_forgets(qtbot, page, memory: Path) -> None:
    view = child(page, QAbstractItemView, "personaList")
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: not (memory / "no-fish-puns.md").exists())


def test_conflict_banner_can_be_raised_by_a_watcher(page, memory: Path) -> None:
    """The live-reload work shows the same banner through ``show_conflict``."""
    body(page).setPlainText("mine")
    path = _edit_behind_the_editor(memory)
    page.show_conflict("no-fish-puns changed on disk.")
    banner = child(page, QWidget, "conflictBanner")
    assert banner.isVisible()
    child(page, QPushButton, "conflictKeepMine").click()
    assert banner.isHidden()
    assert path.read_text("utf-8").endswith("\n\nmine\n")


def test_byte_order_mark_is_read_only_until_fixed(page, memory: Path) -> None:
    path = memory / "with-bom.md"
    path.write_bytes(
        "\ufeff---\nname: with-bom\ndescription: Saved by Notepad\ntype: user\n"
        "updated: 2027-01-01T00:00:00.000Z\n---\n\nText\n".encode()
    )
    page.reload()
    select(page, "with-bom")
    assert body(page).isReadOnly()
    child(page, QPushButton, "personaFix-remove-bom").click()
    assert path.read_bytes().startswith(b"---\nname: with-bom\n")
    assert not body(page).isReadOnly()
    assert child(page, QLineEdit, "personaDescription").text() == "Saved by Notepad"
    assert not any("byte-order" in text for text in page.editor.problems.messages())


# -- links, descriptions and names the agent reads differently ----------------------------------


def test_a_link_to_a_file_outside_is_shown_as_the_agent_reads_it_and_read_only(
    qtbot, window, page, memory: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "dotfiles"
    outside.mkdir()
    target = write_entry(
        outside, "calls-me-fran", "Call her Fran", updated="2027-01-01T00:00:00.000Z"
    )
    before = target.read_bytes()
    (memory / "calls-me-fran.md").symlink_to(target)
    page.reload()
    assert names_in_list(page)[0] == "calls-me-fran"  # the agent lists it, newest first
    view = child(page, QPlainTextEdit, "personaAgentView")
    assert "\n- calls-me-fran (user): Call her Fran\n" in view.toPlainText()
    select(page, "calls-me-fran")
    assert child(page, QLineEdit, "personaDescription").text() == "Call her Fran"
    assert body(page).isReadOnly() and child(page, QLineEdit, "personaDescription").isReadOnly()
    reason = child(page, QLabel, "personaReadOnlyReason")
    assert reason.isVisible() and str(target) in reason.text()
    assert "outside the folder" in reason.text()
    assert not button(page, "personaSave").isEnabled()
    assert not button(page, "personaRename").isEnabled()
    assert page.findChild(QPushButton, "personaFix-set-name") is None  # a fix would write it
    button(page, "personaForget").click()  # removes the link, never the file
    assert not (memory / "calls-me-fran.md").exists() and target.read_bytes() == before
    window.findChild(QAction, "undoAction").trigger()
    assert (memory / "calls-me-fran.md").is_symlink()


def test_the_editor_says_a_description_is_needed_before_saving(qtbot, page, memory: Path) -> None:
    hint = child(page, QLabel, "personaDescriptionHint")
    assert hint.isHidden()
    button(page, "personaNew").click()
    assert hint.isVisible() and "needs a description" in hint.text()
    child(page, QLineEdit, "personaName").setText("prefers-tabs")
    body(page).setPlainText("Tabs, not spaces.")
    child(page, QLineEdit, "personaDescription").setText(" \t ")
    assert hint.isVisible()  # spaces alone are empty to the agent
    with qtbot.waitSignal(page.error_raised) as refused:
        button(page, "personaSave").click()
    assert "needs a description" in refused.args[0]
    assert not (memory / "prefers-tabs.md").exists()
    child(page, QLineEdit, "personaDescription").setText("Indents with tabs")
    assert hint.isHidden()
    button(page, "personaSave").click()
    assert "\ndescription: Indents with tabs\n" in (memory / "prefers-tabs.md").read_text()


def test_an_entry_without_description_gets_a_problem_and_a_fill_fix(page, memory: Path) -> None:
    path = write_entry(
        memory,
        "short-answers",
        "",
        type="feedback",
        updated="2027-01-01T00:00:00.000Z",
        body="**Three lines** at most, please.\n\nWhy: reads on the phone.",
    )
    page.reload()
    select(page, "short-answers")
    assert child(page, QLabel, "personaDescriptionHint").isVisible()
    problems = page.editor.problems.messages()
    assert any("cannot update this entry: it needs a description" in m for m in problems)
    child(page, QPushButton, "personaFix-fill-description").click()
    assert "\ndescription: Three lines at most, please.\n" in path.read_text("utf-8")
    assert child(page, QLineEdit, "personaDescription").text() == "Three lines at most, please."
    assert child(page, QLabel, "personaDescriptionHint").isHidden()


def test_the_set_name_fix_never_writes_a_line_break_into_a_header(
    window, page, memory: Path
) -> None:
    (memory / "Likes\nTea.md").write_bytes(
        b"---\nname: likes-coffee\ndescription: Drinks tea\ntype: user\n"
        b"updated: 2027-01-01T00:00:00.000Z\n---\n\nGreen.\n"
    )
    page.reload()
    select(page, "Likes\nTea")
    child(page, QPushButton, "personaFix-set-name").click()
    assert not (memory / "Likes\nTea.md").exists()
    text = (memory / "likes-tea-2.md").read_text("utf-8")  # likes-tea is taken
    assert "\nname: likes-tea-2\n" in text and "Likes" not in text
    assert child(page, QLineEdit, "personaName").text() == "likes-tea-2"
    window.findChild(QAction, "undoAction").trigger()  # a rename, so undoable
    assert (memory / "Likes\nTea.md").exists()


@pytest.mark.skipif(os.name != "posix", reason="file names are bytes on POSIX only")
def test_a_file_name_that_is_not_utf8_opens_and_is_renamed(qtbot, page, memory: Path) -> None:
    raw = os.path.join(os.fsencode(memory), b"caf\xe9.md")
    with open(raw, "wb") as handle:
        handle.write(
            b"---\nname: cafe\ndescription: Likes coffee\ntype: user\n"
            b"updated: 2027-01-01T00:00:00.000Z\n---\n\nBlack.\n"
        )
    page.reload()
    # (Qt text drops the name's lone surrogate)
    view = child(page, QAbstractItemView, "personaList")
    view.setCurrentIndex(view.model().index(view.model().row_of("caf\udce9"), 0))
    assert page.current_name() == "caf\udce9"
    assert child(page, QLineEdit, "personaDescription").text() == "Likes coffee"
    assert any("caf\\xe9" in message for message in page.editor.problems.messages())
    child(page, QPushButton, "personaFix-rename").click()
    assert (memory / "caf.md").exists() and not os.path.exists(raw)
    assert page.current_name() == "caf"
