"""The persona page in the person's language and theme, on the real window driven by object names.

Under ``marked_language()`` every string that went through Qt's translation reads ``⟦text⟧``:
the page, the rename dialog and "What the agent sees" must show nothing else (the person's data
aside) and name every control for a screen reader, on the demo and on a folder full of problems.
The rest checks what a person sees change as they work: the unsaved mark in the list and the
signal the window's title bar follows, a list that keeps its width while typing, one date style,
and badges, highlighting and banners that take their colours from the theme in effect.
"""

from __future__ import annotations

import ast
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QWidget,
)

import memory_desk.ui.persona as persona_ui
from memory_desk.core.persona import LARGE_ENTRY_BYTES
from memory_desk.ui import dates, theme
from memory_desk.ui.persona.model import DESCRIPTION, NAME, TYPE, UPDATED
from memory_desk.ui.persona.page import PersonaPage
from memory_desk.ui.persona.rename import SHOWN_NAME_CHARS, RenameDialog
from test_ui_persona import write_entry
from ui_strings import CLOSE, OPEN, marked_language, unnamed, untranslated

pytest_plugins = ["window_fixture"]  # the open_window fixture

LONG_NAME = "a-very-long-entry-name-about-tea-and-the-hours-it-is-drunk-at"  # 61 characters


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    """A folder as the agent writes it: a feedback entry with a heading, two user entries."""
    folder = tmp_path / ".miyagi" / "memory"
    folder.mkdir(parents=True)
    write_entry(
        folder,
        "no-fish-puns",
        "Dislikes puns about fish",
        type="feedback",
        updated="2026-10-07T13:15:05.678Z",
        body="# Rule\n\nNever tell jokes about fish.",
    )
    write_entry(folder, "likes-tea", "Drinks green tea", updated="2026-08-01T08:00:00.000Z")
    write_entry(folder, LONG_NAME, "Tea at five", updated="2026-07-01T08:00:00.000Z")
    return folder


@pytest.fixture
def troubled(tmp_path: Path) -> Path:
    """A folder with every kind of trouble the page explains: a folder named like an entry,
    an extra header key, a name the agent ignores, bytes that are not UTF-8, an empty
    description, an unknown type, a date the agent cannot sort by, and a large file."""
    folder = tmp_path / ".padawan" / "memory"
    folder.mkdir(parents=True)
    write_entry(folder, "no-fish-puns", "Dislikes puns", extra=("tags: [humour, fish]",))
    write_entry(folder, "My Note", "A note the agent never sees")
    write_entry(folder, "no-description", "")
    write_entry(folder, "odd-type", "Typed oddly", type="person")
    write_entry(folder, "odd-date", "Dated oddly", updated="last tuesday")
    (folder / "broken.md").write_bytes(
        b"---\nname: broken\ndescription: caf\xe9\ntype: user\n"
        b"updated: 2026-01-01T00:00:00.000Z\n---\n\nx\n"
    )
    line = b"- a line of a long entry, long enough to fill the file\n"
    big = (
        b"---\nname: big\ndescription: Big\ntype: user\nupdated: 2026-01-01T00:00:00.000Z\n---\n\n"
    )
    (folder / "big.md").write_bytes(big + line * (LARGE_ENTRY_BYTES // len(line) + 10))
    (folder / "archive.md").mkdir()
    (folder / "archive.md" / "old.md").write_text("kept", "utf-8")
    return folder


def open_persona(qtbot, open_window, args: list[str]):
    window = open_window(args)
    window.show_page("persona")
    page = window.persona_page
    qtbot.waitUntil(page.isVisible)
    return window, page


@pytest.fixture
def discard_on_close(monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing the window at the end drops edits a test left (it would ask otherwise)."""
    monkeypatch.setattr(
        QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Discard
    )


def child(parent: QWidget, kind, name: str):
    found = parent.findChild(kind, name)
    assert found is not None, name
    return found


def entry_list(page: PersonaPage) -> QAbstractItemView:
    return child(page, QAbstractItemView, "personaList")


def row_names(page: PersonaPage) -> list[str | None]:
    model = entry_list(page).model()
    return [model.index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]


def select(page: PersonaPage, name: str) -> None:
    view = entry_list(page)
    view.setCurrentIndex(view.model().index(row_names(page).index(name), 0))


def marked(text: str) -> bool:
    return text.startswith(OPEN) and text.endswith(CLOSE)


def leftovers(page: QWidget) -> list[str]:
    """Untranslated strings and unnamed controls, as one list a failure prints whole."""
    return [*untranslated(page), *(f"unnamed: {name}" for name in unnamed(page))]


# -- every string through the translator, every control named --------------------------------------


def test_the_demo_persona_page_is_translated_and_named(
    qtbot, open_window, discard_on_close
) -> None:
    with marked_language():
        window, page = open_persona(qtbot, open_window, ["--demo"])
        assert leftovers(page) == []
        child(page, QTabWidget, "personaTabs").setCurrentIndex(1)  # What the agent sees
        assert leftovers(page) == []
        status = page.status_text()
        assert OPEN in status and re.fullmatch(r"[\s·⟦⟧]*", re.sub(r"⟦[^⟦⟧]*⟧", "", status))
        for action in page.entry_actions.values():
            assert action.text().startswith(OPEN), action.text()
        # a new entry: the name field's tip and the hints that wrap under it
        child(page, QPushButton, "personaNew").click()
        assert leftovers(page) == []
        assert child(page, QLabel, "personaNameHint").text().startswith(OPEN)
        # undo texts name the action in the person's language
        child(page, QPushButton, "personaRevert").click()
        forgotten = next(name for name in row_names(page) if name is not None)
        select(page, forgotten)
        child(page, QPushButton, "personaForget").click()
        assert page.undo_stack.undoText() == f"{OPEN}Forget {{name}}{CLOSE}".format(name=forgotten)


def test_a_folder_full_of_problems_is_translated_and_named(
    qtbot, open_window, troubled: Path, discard_on_close
) -> None:
    with marked_language():
        window, page = open_persona(qtbot, open_window, ["--persona", str(troubled)])
        assert child(page, QWidget, "personaFolderProblems").isVisible()
        child(page, QTabWidget, "personaTabs").setCurrentIndex(1)
        seen = []
        for name in [n for n in row_names(page) if n is not None]:
            select(page, name)
            qtbot.waitUntil(lambda n=name: page.current_name() == n)
            seen += [f"{name}: {found}" for found in leftovers(page)]
        assert seen == []
        # the list's tooltips and dividers are in the person's language too
        model = entry_list(page).model()
        names = row_names(page)
        assert model.index(names.index(None), 0).data().startswith(OPEN)
        odd_type = model.index(names.index("odd-type"), TYPE).data(Qt.ItemDataRole.ToolTipRole)
        assert marked(odd_type) and "person" in odd_type
        odd_date = model.index(names.index("odd-date"), UPDATED).data(Qt.ItemDataRole.ToolTipRole)
        assert marked(odd_date) and "last tuesday" in odd_date
        headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(4)]
        assert all(marked(header) for header in headers)


def test_problems_carry_an_icon_and_words(qtbot, open_window, troubled: Path) -> None:
    window, page = open_persona(qtbot, open_window, ["--persona", str(troubled)])
    select(page, "no-fish-puns")
    panel = page.editor.problems
    icon = child(panel.widget(), QLabel, "personaProblemIcon-0")
    text = child(panel.widget(), QLabel, "personaProblemText-0")
    assert panel.isVisible() and icon.isVisible() and text.isVisible()
    assert not icon.pixmap().isNull() and icon.accessibleName() == "Warning"
    assert text.text().startswith("Warning: ") and "tags" in text.text()
    select(page, "broken")
    assert child(panel.widget(), QLabel, "personaProblemText-0").text().startswith("Error: ")
    banner_icon = child(page, QLabel, "personaFolderProblemsIcon")
    assert banner_icon.isVisible() and not banner_icon.pixmap().isNull()
    assert banner_icon.accessibleName() == "Error"
    model = entry_list(page).model()
    row = row_names(page).index("broken")
    assert model.index(row, NAME).data(Qt.ItemDataRole.DecorationRole) is not None
    said = model.index(row, NAME).data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert "problem" in said


def test_the_rename_dialog_is_translated_named_and_wide_enough(
    qtbot, open_window, memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[str] = []

    def look(dialog: RenameDialog) -> int:
        dialog.show()
        qtbot.waitExposed(dialog)
        assert leftovers(dialog) == []
        # the button says what it does, never a bare OK
        assert child(dialog, QPushButton, "personaRenameButton").text() == f"{OPEN}&Rename{CLOSE}"
        # the title naming a long entry is not cut
        title = QFontMetrics(QApplication.font("QMdiSubWindowTitleBar"))
        assert dialog.width() >= title.horizontalAdvance(dialog.windowTitle()) + 100
        # a 60-character name shows whole: with the cursor at its end, its start is in sight
        edit = child(dialog, QLineEdit, "personaRenameName")
        name = ("mmmw-" * 20)[: SHOWN_NAME_CHARS - 1] + "m"  # the widest letters
        assert len(name) == SHOWN_NAME_CHARS
        edit.setText(name)
        edit.end(False)
        assert (
            edit.cursorPositionAt(QPoint(edit.contentsRect().left() + 4, edit.height() // 2)) == 0
        )
        checked.append(dialog.windowTitle())
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(RenameDialog, "exec", look)
    with marked_language():
        window, page = open_persona(qtbot, open_window, ["--persona", str(memory)])
        select(page, LONG_NAME)
        window.activateWindow()
        entry_list(page).setFocus()
        qtbot.waitUntil(entry_list(page).hasFocus)
        qtbot.keyClick(entry_list(page), Qt.Key.Key_F2)
    assert checked == [f"{OPEN}Rename {{name}}{CLOSE}".format(name=LONG_NAME)]


def test_what_the_agent_sees_is_translated_and_named(qtbot, open_window, memory: Path) -> None:
    with marked_language():
        window, page = open_persona(qtbot, open_window, ["--persona", str(memory)])
        child(page, QTabWidget, "personaTabs").setCurrentIndex(1)
        panel = page.agent_panel
        assert panel.isVisible() and leftovers(panel) == []
        assert child(page, QLabel, "personaAgentViewCaption").text().startswith(OPEN)
        assert child(page, QPlainTextEdit, "personaAgentView").accessibleName().startswith(OPEN)


def test_a_conflict_and_its_compare_dialog_are_translated_and_decide(
    qtbot, open_window, memory: Path, discard_on_close
) -> None:
    """The agent rewrites the open entry under the person's edits: the banner, then the compare
    dialog, speak the person's language, and Take theirs in the dialog settles it."""
    with marked_language():
        window, page = open_persona(qtbot, open_window, ["--persona", str(memory)])
        child(page, QLineEdit, "personaDescription").setText("Puns about fish: never")
        write_entry(memory, "no-fish-puns", "Hates fish puns", type="feedback")
        page.reload()
        assert child(page, QWidget, "conflictBanner").isVisible()
        assert leftovers(page) == []
        child(page, QPushButton, "conflictCompare").click()
        dialog = child(page, QDialog, "compareDialog")
        qtbot.waitExposed(dialog)
        assert marked(dialog.windowTitle()) and leftovers(dialog) == []
        child(dialog, QPushButton, "compareTakeTheirs").click()
        assert child(page, QLineEdit, "personaDescription").text() == "Hates fish puns"
        assert not page.has_unsaved_edits() and not dialog.isVisible()


# -- unsaved edits in sight --------------------------------------------------------------------


def test_unsaved_edits_are_marked_in_the_list_and_signalled(
    qtbot, open_window, memory: Path, discard_on_close
) -> None:
    window, page = open_persona(qtbot, open_window, ["--persona", str(memory)])
    told: list[bool] = []
    page.unsaved_changed.connect(told.append)
    model = entry_list(page).model()
    description = child(page, QLineEdit, "personaDescription")
    assert page.current_name() == "no-fish-puns" and not page.has_unsaved_edits()
    window.activateWindow()
    description.setFocus()
    qtbot.waitUntil(description.hasFocus)

    qtbot.keyClicks(description, " at all")
    assert told == [True] and page.has_unsaved_edits()
    row = model.index(row_names(page).index("no-fish-puns"), NAME)
    assert row.data() == "• no-fish-puns"
    assert row.data(Qt.ItemDataRole.FontRole).italic()
    assert "Unsaved edits" in row.data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert "Unsaved edits" in row.data(Qt.ItemDataRole.ToolTipRole)
    other = model.index(row_names(page).index("likes-tea"), NAME)
    assert other.data() == "likes-tea" and other.data(Qt.ItemDataRole.FontRole) is None

    qtbot.keyClick(description, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)  # Revert
    assert told == [True, False] and not page.has_unsaved_edits()
    assert row.data() == "no-fish-puns" and row.data(Qt.ItemDataRole.FontRole) is None

    qtbot.keyClick(description, Qt.Key.Key_End)
    qtbot.keyClicks(description, "!")
    qtbot.keyClick(description, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # Save
    qtbot.waitUntil(lambda: "fish!" in (memory / "no-fish-puns.md").read_text("utf-8"))
    assert told == [True, False, True, False]
    assert model.index(row_names(page).index("no-fish-puns"), NAME).data() == "no-fish-puns"

    # a new entry is unsaved too, though no row shows it yet
    qtbot.keyClick(description, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    name = child(page, QLineEdit, "personaName")
    qtbot.waitUntil(name.hasFocus)
    qtbot.keyClicks(name, "drinks-coffee")
    assert told[-1] is True and page.has_unsaved_edits()
    assert not any(
        str(model.index(r, NAME).data() or "").startswith("•") for r in range(model.rowCount())
    )


# -- layouts that do not jump ------------------------------------------------------------------


def test_the_entry_list_keeps_its_width_while_typing(
    qtbot, open_window, memory: Path, discard_on_close
) -> None:
    window, page = open_persona(qtbot, open_window, ["--persona", str(memory)])
    view = entry_list(page)
    width = view.width()
    description = child(page, QLineEdit, "personaDescription")
    field_width = description.width()  # the counter beside it keeps its width as it counts
    window.activateWindow()
    description.setFocus()
    qtbot.waitUntil(description.hasFocus)
    qtbot.keyClicks(description, " and lemon, always in the blue cup with the chipped handle" * 3)
    qtbot.wait(20)
    assert child(page, QLabel, "personaDescriptionCounter").property("textTone") == "error"
    assert view.width() == width and description.width() == field_width

    child(page, QPushButton, "personaNew").click()
    name = child(page, QLineEdit, "personaName")
    qtbot.waitUntil(name.hasFocus)
    qtbot.keyClicks(name, "This Name Has Spaces And Capitals, Which The Agent Never Reads")
    hint = child(page, QLabel, "personaNameHint")
    qtbot.wait(20)
    assert hint.isVisible() and hint.text() and hint.wordWrap()
    assert view.width() == width


# -- one date style ----------------------------------------------------------------------------


def test_the_updated_column_speaks_the_window_date_style(
    qtbot, open_window, tmp_path: Path
) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    now = datetime.now(UTC)
    recent = now - timedelta(minutes=5, seconds=30)
    iso = recent.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    write_entry(folder, "recent", "Recent", updated=iso)
    write_entry(folder, "old", "Old", updated="2020-02-29T12:00:00.000Z")
    window, page = open_persona(qtbot, open_window, ["--persona", str(folder)])
    model = entry_list(page).model()
    now_ms = int(time.time() * 1000)
    for name, moment in (("recent", recent), ("old", datetime(2020, 2, 29, 12, tzinfo=UTC))):
        cell = model.index(row_names(page).index(name), UPDATED)
        ms = dates.ms_from_datetime(moment)
        assert cell.data() == dates.relative(ms, now_ms)
        assert cell.data(Qt.ItemDataRole.ToolTipRole).startswith(dates.exact(ms) + "\n")
    assert model.index(row_names(page).index("old"), UPDATED).data() == dates.short_date(
        dates.ms_from_datetime(datetime(2020, 2, 29, 12, tzinfo=UTC))
    )


# -- light and dark ----------------------------------------------------------------------------


def badge_background(page: PersonaPage, name: str) -> QColor:
    """The colour painted inside the type badge of entry ``name`` (left of its text)."""
    view = entry_list(page)
    rect = view.visualRect(view.model().index(row_names(page).index(name), TYPE))
    image = view.viewport().grab().toImage()
    return image.pixelColor(rect.left() + 6, rect.center().y())


def test_badges_take_the_theme_colours(qtbot, open_window, memory: Path) -> None:
    window, page = open_persona(qtbot, open_window, ["--persona", str(memory)])
    for choice, colours in (("light", theme.LIGHT), ("dark", theme.DARK), ("light", theme.LIGHT)):
        theme.apply_theme(choice)
        qtbot.wait(10)
        for name, kind in (("no-fish-puns", "feedback"), ("likes-tea", "user")):
            assert badge_background(page, name).name() == colours.persona_badges[kind][0]


def heading_colour(page: PersonaPage) -> str:
    block = child(page, QPlainTextEdit, "personaBody").document().begin()
    heading = next(r for r in block.layout().formats() if r.start == 0)
    return heading.format.foreground().color().name()


def test_the_highlighter_recolours_with_the_theme(qtbot, open_window, memory: Path) -> None:
    window, page = open_persona(qtbot, open_window, ["--persona", str(memory)])
    assert page.current_name() == "no-fish-puns"  # its body opens with "# Rule"
    theme.apply_theme("light")
    assert heading_colour(page) == theme.LIGHT.syntax["heading"]
    theme.apply_theme("dark")
    assert heading_colour(page) == theme.DARK.syntax["heading"]


def shaded_colour(page: PersonaPage) -> str:
    block = child(page, QPlainTextEdit, "personaAgentView").document().begin()
    while block.isValid() and block.blockFormat().background().style() == Qt.BrushStyle.NoBrush:
        block = block.next()
    return block.blockFormat().background().color().name()


def test_banners_and_the_agent_view_shading_follow_the_theme(
    qtbot, open_window, memory: Path
) -> None:
    (memory / "archive.md").mkdir()
    window, page = open_persona(qtbot, open_window, ["--persona", str(memory)])
    banner = child(page, QWidget, "personaFolderProblems")
    assert banner.isVisible() and banner.property("tone") == "error"
    for choice, colours in (("light", theme.LIGHT), ("dark", theme.DARK)):
        theme.apply_theme(choice)
        qtbot.wait(10)
        painted = banner.grab().toImage().pixelColor(banner.width() // 2, 3)
        assert painted.name() == colours.tone("error").background
    (memory / "archive.md").rmdir()
    page.reload()
    child(page, QTabWidget, "personaTabs").setCurrentIndex(1)
    for choice, colours in (("light", theme.LIGHT), ("dark", theme.DARK)):
        theme.apply_theme(choice)
        assert shaded_colour(page) == colours.tone("info").background


def test_no_colour_is_written_in_the_persona_page_files() -> None:
    """Colours come from the theme: no colour literal, no style sheet in the page's files."""
    folder = Path(persona_ui.__file__).parent
    colour = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?\b")
    found = []
    for path in sorted(folder.glob("*.py")):
        source = path.read_text("utf-8")
        if "setStyleSheet" in source:
            found.append(f"{path.name}: setStyleSheet")
        for node in ast.walk(ast.parse(source)):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and colour.search(text):
                found.append(f"{path.name}:{node.lineno}: {text!r}")
    assert found == []


def test_descriptions_in_the_list_are_data_not_translated(qtbot, open_window, memory: Path) -> None:
    """What the agent wrote stays as written whatever the language (only the words around it
    are translated)."""
    with marked_language():
        window, page = open_persona(qtbot, open_window, ["--persona", str(memory)])
        model = entry_list(page).model()
        row = row_names(page).index("likes-tea")
        assert model.index(row, DESCRIPTION).data() == "Drinks green tea"
        assert model.index(row, TYPE).data() == "user"
        assert child(page, QLineEdit, "personaName").text() == "no-fish-puns"
