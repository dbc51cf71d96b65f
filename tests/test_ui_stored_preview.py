"""The edit form shows what the plugin will store: counters in its units, a note when it differs.

A database the plugin built, a real window, the form driven by object names; what the form
announced is compared with what the save then wrote to the file.
"""

from __future__ import annotations

import hashlib
import time
from contextlib import closing
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QPushButton, QToolButton

from memory_desk.core import alisio, jstext
from memory_desk.ui.i18n import number  # counters use the locale's digits
from memory_desk.ui.observations import stored_note
from window_helpers import make_database, table, writes_done

pytest_plugins = ["window_fixture"]  # the open_window fixture

TITLE = "Token refresh races across tabs"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_database(tmp_path / "memory.sqlite", titles=(TITLE,))


@pytest.fixture
def form(open_window, qtbot, db: Path):
    """The window with the edit form open on the only row."""
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 1)
    qtbot.waitUntil(lambda: window.observations_page.detail.shown_id == 1)
    qtbot.mouseClick(window.findChild(QToolButton, "editButton"), Qt.MouseButton.LeftButton)
    assert window.findChild(QLineEdit, "editTitle").isVisible()
    return window


def widgets(window):
    find = window.findChild
    return (
        find(QLineEdit, "editTitle"),
        find(QPlainTextEdit, "editContent"),
        find(QLabel, "titleCounter"),
        find(QLabel, "contentCounter"),
        find(QLabel, "storedNote"),
    )


def stored(db: Path, column: str) -> str:
    with closing(alisio.connect_like_plugin(db)) as conn:
        return conn.execute(f"SELECT {column} FROM observations WHERE id = 1").fetchone()[0]


def save(qtbot, window) -> None:
    qtbot.mouseClick(window.findChild(QPushButton, "saveEditButton"), Qt.MouseButton.LeftButton)
    writes_done(window)  # writes run in the background


def test_counters_count_utf16_units_as_the_person_types(qtbot, form) -> None:
    title, content, title_counter, content_counter, note = widgets(form)
    assert title_counter.text() == f"{len(TITLE)} / 200"
    body = content.toPlainText()
    assert content_counter.text() == f"{len(body)} / {number(50_000)}"
    assert note.isHidden()  # the plugin stores this row exactly as it reads

    title.end(False)
    qtbot.keyClicks(title, "!")
    assert title_counter.text() == f"{len(TITLE) + 1} / 200"
    title.insert("😀")  # typed through an input method: two units for the plugin
    assert title_counter.text() == f"{len(TITLE) + 3} / 200"
    content.moveCursor(content.textCursor().MoveOperation.End)
    content.insertPlainText(" é")
    assert content_counter.text() == f"{len(body) + 2} / {number(50_000)}"
    assert note.isHidden()


def test_a_long_title_is_announced_cut_and_stored_as_announced(qtbot, form, db: Path) -> None:
    title, _content, title_counter, _cc, note = widgets(form)
    typed = "Refresh " * 25 + "😀"  # 200 + 2 units: over the cap only because of the emoji
    title.setText(typed)
    assert len(title.text()) == len(typed)  # no silent limit cuts what the person pasted
    assert title_counter.text() == "200 / 200"
    assert not note.isHidden()
    assert "Title: will be cut to 200 characters, ending with “... [truncated]”" in note.text()
    assert "(it has 202)" in note.text()

    save(qtbot, form)
    qtbot.waitUntil(lambda: not title.isVisible())
    written = stored(db, "title")
    assert written.endswith(alisio.TRUNCATED_SUFFIX)
    assert jstext.utf16_len(written) == 200
    assert written == alisio.preview_title(typed).stored


def test_private_text_and_blank_edges_are_announced(qtbot, form, db: Path) -> None:
    title, content, _tc, content_counter, note = widgets(form)
    title.setText(f"  {TITLE} <private>api key</private>")
    assert "Title: <private>…</private> will be stored as [REDACTED]" in note.text()
    assert "blank space at its start and end will be dropped" in note.text()
    content.setPlainText("**What** rotate it\n\n")
    assert "Content: blank space at its start and end will be dropped." in note.text()
    assert content_counter.text() == f"{len('**What** rotate it')} / {number(50_000)}"

    title.setText(TITLE)
    content.setPlainText("**What** rotate it")
    assert note.isHidden() and note.text() == ""

    title.setText(f"{TITLE} <private>api key</private>")
    save(qtbot, form)
    qtbot.waitUntil(lambda: not title.isVisible())
    assert stored(db, "title") == f"{TITLE} [REDACTED]"


def test_a_title_that_is_only_blank_space_is_refused_as_the_plugin_would(
    qtbot, form, db: Path
) -> None:
    title, *_rest = widgets(form)
    title.setText("\ufeff \u3000")  # JavaScript's trim() takes U+FEFF and U+3000 too
    save(qtbot, form)
    error = form.findChild(QLabel, "editError")
    assert error.isVisible() and "title cannot be empty" in error.text()
    assert stored(db, "title") == TITLE


def test_a_long_content_is_previewed_when_typing_pauses(qtbot, form, monkeypatch) -> None:
    """50,000 characters: previewing costs milliseconds, so keystrokes only restart a timer."""
    _title, content, _tc, content_counter, _note = widgets(form)
    calls: list[int] = []
    real = stored_note.preview_content

    def counted(raw: str, **options: bool):
        calls.append(len(raw))
        return real(raw, **options)

    monkeypatch.setattr(stored_note, "preview_content", counted)
    content.setPlainText("word " * 10_000)
    almost = f"{number(49_999)} / {number(50_000)}"  # the trailing space is dropped
    qtbot.waitUntil(lambda: content_counter.text() == almost)
    calls.clear()
    content.moveCursor(content.textCursor().MoveOperation.End)
    started = time.perf_counter()
    qtbot.keyClicks(content, "abcdefghij")
    typing = time.perf_counter() - started
    panel = form.observations_page.detail.stored
    assert panel.is_pending() and calls == []  # no keystroke paid for a preview
    qtbot.waitUntil(lambda: content_counter.text() == f"{number(50_000)} / {number(50_000)}")
    assert len(calls) == 1
    one = time.perf_counter()
    real(content.toPlainText())
    print(
        f"\n10 keystrokes at 50,000 chars: {typing * 1000:.1f} ms;"
        f" one preview: {(time.perf_counter() - one) * 1000:.1f} ms"
    )


def test_a_stored_hash_memory_desk_cannot_reproduce_is_flagged_and_kept(
    qtbot, open_window, tmp_path: Path
) -> None:
    """The agent's runtime lower-cases U+A7CB (Unicode 16) where Python 3.11 cannot: the form
    says so, and saving another field keeps the agent's hash."""
    path = make_database(tmp_path / "memory.sqlite", titles=(TITLE,))
    body = "**What** the \ua7cb glyph"
    agent_hash = hashlib.sha256(b"**what** the \xc9\xa4 glyph").hexdigest()  # "ɤ" in UTF-8
    with closing(alisio.connect_like_plugin(path)) as conn:
        # As the agent's topic upsert rewrites a row: its content and its own hash.
        conn.execute(
            "UPDATE observations SET content=?, normalized_hash=? WHERE id=1", (body, agent_hash)
        )
    window = open_window(["--db", str(path)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 1)
    qtbot.waitUntil(lambda: window.observations_page.detail.shown_id == 1)
    qtbot.mouseClick(window.findChild(QToolButton, "editButton"), Qt.MouseButton.LeftButton)
    title, content, _tc, _cc, note = widgets(window)
    assert note.isVisible() and "stored fingerprint (normalized_hash)" in note.text()

    content.setPlainText(body + " again")  # new content: its hash will be computed afresh
    assert note.isHidden()
    content.setPlainText(body)
    assert "stored fingerprint" in note.text()

    title.setText(TITLE + " (font)")
    save(qtbot, window)
    qtbot.waitUntil(lambda: not title.isVisible())
    assert stored(path, "title") == TITLE + " (font)"
    assert stored(path, "normalized_hash") == agent_hash
