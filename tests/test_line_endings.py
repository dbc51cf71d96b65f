"""Bodies keep their bytes through the editors (core/line_endings.py, ui/plain.py).

Qt's text editors turn ``\\r\\n``, a lone ``\\r`` and U+2029 into one kind of line break and
hand the text back with ``\\n`` (and ``toPlainText`` makes U+2028 a break and a no-break space
a space). Opening an observation or a persona entry and saving it unchanged must write
nothing; editing one line must leave every other line's break as it was.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QMessageBox, QPlainTextEdit, QTableView, QWidget

from alisio_fixtures import add_observation
from memory_desk.app import create_main_window
from memory_desk.core import alisio
from memory_desk.core.line_endings import as_in_editor, keep_line_endings, split_lines
from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import PersonaFolder
from memory_desk.core.persona_format import parse_text
from memory_desk.ui.observations.detail import ObservationDetail
from memory_desk.ui.observations.model import Column
from memory_desk.ui.persona.editor import EntryEditor
from window_helpers import stored_row, writes_done

# -- the mapping, by hand -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "original",
    [
        "a\r\nb\r\nc",
        "a\nb\r\nc\rd",
        "one\u2028line\u00a0with\u2029marks\ufdd0and\ufdd1more",
        "lone\rcarriage\rreturns",
        "",
        "no breaks",
    ],
)
def test_text_left_as_the_editor_shows_it_is_the_original(original: str) -> None:
    assert keep_line_endings(original, as_in_editor(original)) == original


def test_an_edited_line_keeps_its_break_and_the_others_keep_theirs() -> None:
    original = "What\r\nWhy\nWhere\r\nLearned"
    edited = "What\nWhy it matters\nWhere\nLearned"
    assert keep_line_endings(original, edited) == "What\r\nWhy it matters\nWhere\r\nLearned"


def test_new_lines_take_the_dominant_break_and_removed_lines_take_theirs_away() -> None:
    original = "a\r\nb\r\nc\nd"
    assert keep_line_endings(original, "a\nnew\nb\nc\nd") == "a\r\nnew\r\nb\r\nc\nd"
    assert keep_line_endings(original, "a\nc\nd") == "a\r\nc\nd"
    # No break to follow: the default (the file's own, for a persona entry).
    assert keep_line_endings("single", "single\nmore", "\r\n") == "single\r\nmore"


def test_a_lone_cr_stays_only_between_lines_left_as_they_were() -> None:
    original = "a\rb\nc"
    assert keep_line_endings(original, "a\nb\nc!") == "a\rb\nc!"
    # The line before the lone CR was rewritten: a new line takes a real break.
    assert keep_line_endings(original, "totally different\nb\nc") == "totally different\nb\nc"


# -- random bodies through the real editor widgets --------------------------------------------

LINE = st.text(alphabet=st.sampled_from(list("ab yz\t#*-é€😀\u00a0\u2028")), max_size=14)
BREAK = st.sampled_from(["\r\n", "\n", "\r\n", "\n", "\r\n", "\n", "\r", "\u2029"])
PROPS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def bodies(draw: st.DrawFn) -> tuple[str, int]:
    """A body of 2-12 lines with CRLF, LF, mixed (and a few lone CR / U+2029) breaks, that
    trimming leaves as it is; and the line the person edits."""
    lines = draw(st.lists(LINE, min_size=2, max_size=12))
    lines[0], lines[-1] = "A" + lines[0], lines[-1] + "Z"
    breaks = draw(st.lists(BREAK, min_size=len(lines) - 1, max_size=len(lines) - 1))
    # A lone CR, an empty line and an LF are written as one CRLF: a file cannot tell them apart.
    for index, brk in enumerate(breaks[:-1]):
        if brk == "\r" and lines[index + 1] == "" and breaks[index + 1] == "\n":
            breaks[index + 1] = "\r\n"
    body = "".join(line + brk for line, brk in zip(lines, breaks, strict=False)) + lines[-1]
    return body, draw(st.integers(0, len(lines) - 1))


def type_at_end_of_line(qtbot, editor: QPlainTextEdit, line: int, text: str) -> None:
    """Put the cursor at the end of ``line`` and type ``text``, as a person does."""
    block = editor.document().findBlockByNumber(line)
    cursor = editor.textCursor()
    cursor.setPosition(block.position())
    cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
    editor.setTextCursor(cursor)
    editor.setFocus()
    qtbot.keyClicks(editor, text)


def assert_untouched_lines_kept(before: str, after: str, edited: int) -> None:
    old_lines, old_breaks = split_lines(before)
    new_lines, new_breaks = split_lines(after)
    assert len(new_lines) == len(old_lines)
    for index, (old, new) in enumerate(zip(old_lines, new_lines, strict=True)):
        if index != edited:
            assert new == old
            if index < len(old_breaks):
                assert new_breaks[index] == old_breaks[index], (index, before, after)
    assert new_lines[edited] == old_lines[edited] + " edited"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    return path


@PROPS
@given(bodies())
def test_the_observation_form_keeps_every_untouched_lines_break(
    qtbot, db: Path, drawn: tuple[str, int]
) -> None:
    body, line = drawn
    oid = add_observation(db, title="Line breaks", content=body)
    with ObservationStore(db) as store:
        row = store.get(oid)
        detail = ObservationDetail()
        qtbot.addWidget(detail)
        detail.show_observation(row)
        detail.start_edit()
        type_at_end_of_line(qtbot, detail.edit_content, line, " edited")
        with qtbot.waitSignal(detail.save_requested) as saved:
            detail.save_button.click()
        _base, changes, _restore = saved.args
        assert set(changes) == {"content"}
        store.edit(oid, content=changes["content"], expected=row)
    assert_untouched_lines_kept(body, stored_row(db, oid)["content"], line)


@PROPS
@given(bodies(), st.sampled_from(["\n", "\r\n"]))
@example(("A\r\r\nZ", 0), "\n")  # a lone CR just before a CRLF: two breaks, not one
def test_the_persona_editor_keeps_every_untouched_lines_break(
    qtbot, drawn: tuple[str, int], header_break: str
) -> None:
    body, line = drawn
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp, "memory")
        folder.mkdir()
        header = ["---", "name: an-entry", "description: Breaks", "type: user", "---", ""]
        path = folder / "an-entry.md"
        path.write_bytes((header_break.join(header) + body + header_break).encode("utf-8"))
        store = PersonaFolder(folder, trash=Path(tmp, "trash"))
        editor = EntryEditor()
        qtbot.addWidget(editor)
        editor.load(store.read("an-entry"))
        assert not editor.is_dirty()
        type_at_end_of_line(qtbot, editor.body, line, " edited")
        assert editor.is_dirty()
        store.save(editor.edited_entry())
        after = parse_text(path.read_bytes().decode("utf-8")).body
    assert_untouched_lines_kept(body, after, line)


# -- opened and saved unchanged: nothing is written ---------------------------------------------

ODD_BODY = "**What**\r\nmixed\nbreaks\r\nlone\rcarriage\u2028line sep\u00a0nbsp\u2029para end"


def type_and_take_back(qtbot, editor: QPlainTextEdit) -> None:
    """A person who types a character in the text and deletes it again: no change."""
    editor.setFocus()
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, "x")
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)


def file_state(path: Path) -> tuple[bytes, int, int]:
    st_ = os.stat(path)
    return path.read_bytes(), st_.st_mtime_ns, st_.st_ino


def test_an_observation_opened_and_saved_unchanged_writes_nothing(qtbot, db: Path) -> None:
    oid = add_observation(db, title="Odd breaks", content=ODD_BODY)
    window = create_main_window(["--db", str(db)])
    qtbot.addWidget(window)
    window.show()
    view = window.findChild(QTableView, "observationsTable")
    qtbot.waitUntil(lambda: view.model().rowCount() == 1)
    watcher = sqlite3.connect(db)
    version = watcher.execute("PRAGMA data_version").fetchone()[0]
    files = [db, Path(f"{db}-wal")]
    before = [file_state(path) for path in files if path.exists()]
    view.setCurrentIndex(view.model().index(0, Column.TITLE))
    qtbot.waitUntil(lambda: window.observations_page.detail.shown_id == oid)
    qtbot.mouseClick(window.findChild(QWidget, "editButton"), Qt.MouseButton.LeftButton)
    content = window.findChild(QPlainTextEdit, "editContent")
    qtbot.waitUntil(content.isVisible)
    assert window.observations_page.detail.has_unsaved_edits() is False
    type_and_take_back(qtbot, content)
    assert window.observations_page.detail.has_unsaved_edits() is False
    qtbot.mouseClick(window.findChild(QWidget, "saveEditButton"), Qt.MouseButton.LeftButton)
    writes_done(window)
    qtbot.waitUntil(lambda: not window.observations_page.detail.is_editing)
    assert watcher.execute("PRAGMA data_version").fetchone()[0] == version
    assert [file_state(path) for path in files if path.exists()] == before
    row = stored_row(db, oid)
    assert (row["content"], row["revision_count"]) == (ODD_BODY, 1)
    watcher.close()


def test_a_persona_entry_opened_and_saved_unchanged_writes_nothing(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / ".miyagi" / "memory"
    folder.mkdir(parents=True)
    path = folder / "odd-breaks.md"
    path.write_bytes(
        (
            "---\r\nname: odd-breaks\r\ndescription: Odd breaks\r\ntype: user\r\n"
            "updated: 2026-01-01T00:00:00.000Z\r\n---\r\n\r\n" + ODD_BODY + "\r\n"
        ).encode("utf-8")
    )
    before = file_state(path)
    window = create_main_window(["--persona", str(folder)])
    window.show()
    qtbot.waitExposed(window)
    page = window.persona_page
    qtbot.waitUntil(lambda: page.editor.entry is not None or page.findChild(QWidget, "personaList"))
    view = page.findChild(QWidget, "personaList")
    qtbot.waitUntil(lambda: view.model().rowCount() == 1)
    view.setCurrentIndex(view.model().index(0, 0))
    qtbot.waitUntil(lambda: page.editor.entry is not None)
    assert not page.editor.is_dirty()
    type_and_take_back(qtbot, page.findChild(QPlainTextEdit, "personaBody"))
    assert not page.editor.is_dirty()
    qtbot.keyClick(page.editor.body, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert page.save()  # on disk as shown, without a write
    assert file_state(path) == before
    with monkeypatch.context() as patch:
        patch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Discard)
        window.close()
    window.deleteLater()
