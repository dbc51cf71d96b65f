"""One live row per topic, asked before writing: restore, undo, edit and re-create in the window.

The database is the plugin's own (``alisio.create_database``), filled by its ``memory_save``
and its forget; the person drives the window by object names; the modal question is answered
by patching its ``exec`` (as the other dialog tests do). After each choice the file holds
exactly one live row per topic, and the plugin's next save on the topic lands on the row the
person chose; Ctrl+Z puts every changed row back, the other rows too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QCheckBox, QLabel, QLineEdit, QPlainTextEdit, QPushButton, QWidget

from memory_desk.core import alisio
from memory_desk.ui.observations.model import Column
from memory_desk.ui.widgets.topic import TopicConflictDialog
from window_helpers import (
    NOW,
    agent_delete,
    agent_forget,
    agent_save,
    live_topic_rows,
    stored_row,
    table,
    writes_done,
)

pytest_plugins = ["window_fixture"]  # the open_window fixture

MINUTE = 60_000
PROJECT = "alpha-1a2b3c4d"
AUTH = "auth/token-refresh"
SCROLL = "ui/scroll-position"
FORGOT_1 = NOW + 1 * MINUTE


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Two topics, each with a forgotten row and the newer live row the agent saved after.

    #1 auth (forgotten), #2 auth (live), #3 scroll (forgotten), #4 scroll (live),
    #5 no topic (forgotten), #6 no topic (live).
    """
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    rows = [
        ("Refresh tokens behind one lock", AUTH, True),
        ("Refresh tokens per tab", AUTH, False),
        ("Keep the scroll position on reload", SCROLL, True),
        ("Scroll position lives in the model", SCROLL, False),
        ("An old build trick", None, True),
        ("Ruff replaces flake8", None, False),
    ]
    for n, (title, topic, forget) in enumerate(rows):
        at = NOW + 2 * n * MINUTE
        saved = agent_save(
            path, title=title, content=f"**What** {title.lower()}", topic_key=topic, now=at
        )
        assert saved.id == n + 1 and saved.action == "created"
        if forget:
            agent_forget(path, saved.id, at=at + MINUTE)
    return path


@pytest.fixture
def window(open_window, qtbot, db: Path):
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)
    return window


class Answers:
    """Patches the question's ``exec``: records what it said and clicks the given button."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: list[str] = []
        self.buttons: list[dict[str, str]] = []
        self.next: list[str] = []
        monkeypatch.setattr(TopicConflictDialog, "exec", lambda dialog: self._exec(dialog))

    def _exec(self, dialog: TopicConflictDialog) -> int:
        assert dialog.objectName() == "topicConflictDialog" and dialog.isModal()
        self.texts.append(dialog.findChild(QLabel, "topicConflictText").text())
        self.buttons.append(
            {button.objectName(): button.text() for button in dialog.findChildren(QPushButton)}
        )
        assert self.next, "the question was asked once more than expected"
        dialog.findChild(QPushButton, self.next.pop(0)).click()
        return dialog.result()

    def answer(self, *buttons: str) -> Answers:
        self.next = list(buttons)
        return self


def page(window):
    return window.observations_page


def shown_ids(window) -> list[int]:
    return table(window).model().ids()


def show_forgotten(qtbot, window) -> None:
    window.findChild(QCheckBox, "showForgottenFilter").setChecked(True)
    qtbot.waitUntil(lambda: len(shown_ids(window)) == 6 and not page(window).is_busy())


def select(qtbot, window, *ids: int) -> None:
    """Click the first row, Ctrl+click the others."""
    view = table(window)
    for n, oid in enumerate(ids):
        index = view.model().index(shown_ids(window).index(oid), Column.TITLE)
        view.scrollTo(index)
        modifier = Qt.KeyboardModifier.ControlModifier if n else Qt.KeyboardModifier.NoModifier
        qtbot.mouseClick(
            view.viewport(), Qt.MouseButton.LeftButton, modifier, view.visualRect(index).center()
        )
    assert sorted(page(window).selected_ids()) == sorted(ids)


def click(qtbot, window, name: str) -> None:
    widget = page(window).findChild(QWidget, name)
    assert widget is not None and widget.isEnabled(), name
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
    writes_done(window)  # writes run in the background


def trigger(window, name: str) -> None:
    action = window.findChild(QAction, name)
    assert action.isEnabled(), f"{name} is disabled"
    action.trigger()
    writes_done(window)


def deleted_at(db: Path, oid: int):
    return stored_row(db, oid)["deleted_at"]


def topic(db: Path, oid: int):
    return stored_row(db, oid)["topic_key"]


def next_save_lands_on(db: Path, topic_key: str) -> int:
    """The plugin's next save on the topic: which row it rewrote (it must not create one)."""
    saved = agent_save(
        db, title="The agent's next word", content="**What** again", topic_key=topic_key
    )
    assert saved.action == "revised"
    return saved.id


def refreshed(qtbot, window) -> None:
    """Apply the agent's writes now (the live watcher would, a moment later)."""
    with qtbot.waitSignal(page(window).refreshed):
        page(window).refresh()


# -- restore -------------------------------------------------------------------------------------


CHOICES = {
    # button: (live holder of AUTH afterwards, #2 forgotten?, #2's key, #1's key)
    "topicForgetOtherButton": (1, True, AUTH, AUTH),
    "topicClearOtherButton": (1, False, None, AUTH),
    "topicClearThisButton": (2, False, AUTH, None),
}


@pytest.mark.parametrize("button", CHOICES)
def test_restore_asks_which_row_keeps_the_topic_and_undo_puts_both_back(
    qtbot, window, db: Path, monkeypatch, button: str
) -> None:
    answers = Answers(monkeypatch).answer(button)
    show_forgotten(qtbot, window)
    select(qtbot, window, 1)
    click(qtbot, window, "restoreButton")

    said = answers.texts[0]
    for fact in ("#1", "Refresh tokens behind one lock", "#2", "Refresh tokens per tab", AUTH):
        assert fact in said
    assert "next save" in said and "rewrites #1" in said and "keeps rewriting #2" in said
    assert answers.buttons[0]["topicForgetOtherButton"] == "Forget #2"
    assert answers.buttons[0]["topicClearOtherButton"] == "Take the topic key off #2"
    assert answers.buttons[0]["topicClearThisButton"] == "Restore without the topic key"

    holder, other_forgotten, other_key, this_key = CHOICES[button]
    assert deleted_at(db, 1) is None
    assert live_topic_rows(db, AUTH) == [holder]
    assert (deleted_at(db, 2) is not None) == other_forgotten
    assert topic(db, 2) == other_key and topic(db, 1) == this_key

    trigger(window, "undoAction")
    assert deleted_at(db, 1) == FORGOT_1 and topic(db, 1) == AUTH
    assert deleted_at(db, 2) is None and topic(db, 2) == AUTH
    assert live_topic_rows(db, AUTH) == [2]

    trigger(window, "redoAction")  # the same choice again, without asking
    assert live_topic_rows(db, AUTH) == [holder] and len(answers.texts) == 1
    assert next_save_lands_on(db, AUTH) == holder


def test_cancel_restores_nothing_and_says_so(qtbot, window, db: Path, monkeypatch) -> None:
    answers = Answers(monkeypatch).answer("topicCancelButton")
    show_forgotten(qtbot, window)
    select(qtbot, window, 1)
    click(qtbot, window, "restoreButton")
    assert len(answers.texts) == 1
    assert deleted_at(db, 1) == FORGOT_1 and live_topic_rows(db, AUTH) == [2]
    assert "Nothing was restored" in window.message_bar.text()
    assert window.undo_stack.count() == 0  # nothing to undo: nothing was done


def test_bulk_restore_asks_once_for_every_topic(qtbot, window, db: Path, monkeypatch) -> None:
    answers = Answers(monkeypatch).answer("topicClearOtherButton")
    show_forgotten(qtbot, window)
    select(qtbot, window, 1, 3, 5)
    click(qtbot, window, "restoreButton")
    assert len(answers.texts) == 1
    assert AUTH in answers.texts[0] and SCROLL in answers.texts[0]
    assert answers.buttons[0]["topicClearOtherButton"] == "Take the topic key off #2, #4"
    assert [deleted_at(db, oid) for oid in (1, 3, 5)] == [None, None, None]
    assert live_topic_rows(db, AUTH) == [1] and live_topic_rows(db, SCROLL) == [3]
    assert "#2, #4" in window.message_bar.text()  # the other rows the choice changed

    trigger(window, "undoAction")
    assert all(deleted_at(db, oid) is not None for oid in (1, 3, 5))
    assert live_topic_rows(db, AUTH) == [2] and live_topic_rows(db, SCROLL) == [4]
    assert next_save_lands_on(db, SCROLL) == 4


# -- undo of a forget ----------------------------------------------------------------------------


def test_undo_of_a_forget_asks_when_the_agent_took_the_topic_meanwhile(
    qtbot, window, db: Path, monkeypatch
) -> None:
    answers = Answers(monkeypatch)
    select(qtbot, window, 4)
    click(qtbot, window, "forgetButton")
    assert deleted_at(db, 4) is not None
    newer = agent_save(
        db, title="Scroll restored by anchor", content="**What** anchors", topic_key=SCROLL
    )
    assert newer.action == "created"  # #4 was forgotten: the plugin made a new row

    answers.answer("topicCancelButton")
    trigger(window, "undoAction")
    assert deleted_at(db, 4) is not None and live_topic_rows(db, SCROLL) == [newer.id]
    assert "Nothing was undone" in window.message_bar.text()
    # Cancel wrote nothing, and Ctrl+Z still offers to undo the forget.
    qtbot.waitUntil(lambda: window.undo_stack.index() == 1)
    assert window.undo_stack.undoText() == "Forget 1 observation"

    answers.answer("topicForgetOtherButton")
    trigger(window, "undoAction")
    assert "Undoing the forget of #4" in answers.texts[-1]
    assert deleted_at(db, 4) is None and deleted_at(db, newer.id) is not None
    assert live_topic_rows(db, SCROLL) == [4]
    assert next_save_lands_on(db, SCROLL) == 4


# -- edits ---------------------------------------------------------------------------------------


def open_form(qtbot, window, oid: int) -> None:
    select(qtbot, window, oid)
    click(qtbot, window, "editButton")
    assert window.findChild(QLineEdit, "editTitle").isVisible()


def test_saving_a_topic_key_another_live_row_holds_asks_first(
    qtbot, window, db: Path, monkeypatch
) -> None:
    answers = Answers(monkeypatch).answer("topicCancelButton")
    open_form(qtbot, window, 6)
    window.findChild(QLineEdit, "editTopicKey").setText(SCROLL)
    click(qtbot, window, "saveEditButton")
    error = window.findChild(QLabel, "editError")
    assert error.isVisible() and "Nothing was saved" in error.text()
    assert topic(db, 6) is None and stored_row(db, 6)["revision_count"] == 1
    assert window.findChild(QLineEdit, "editTopicKey").text() == SCROLL  # the text stays

    answers.answer("topicClearOtherButton")
    click(qtbot, window, "saveEditButton")
    assert answers.buttons[-1]["topicClearThisButton"] == "Save without the topic key"
    assert not window.findChild(QLineEdit, "editTitle").isVisible()
    assert topic(db, 6) == SCROLL and topic(db, 4) is None and deleted_at(db, 4) is None
    assert live_topic_rows(db, SCROLL) == [6]

    trigger(window, "undoAction")
    assert topic(db, 6) is None and topic(db, 4) == SCROLL
    assert next_save_lands_on(db, SCROLL) == 4


def test_undo_of_an_edit_asks_when_its_old_topic_was_taken(
    qtbot, window, db: Path, monkeypatch
) -> None:
    answers = Answers(monkeypatch)
    open_form(qtbot, window, 2)
    window.findChild(QLineEdit, "editTopicKey").setText("auth/refresh-lock")
    click(qtbot, window, "saveEditButton")
    assert topic(db, 2) == "auth/refresh-lock" and answers.texts == []
    newer = agent_save(db, title="Refresh on focus", content="**What** on focus", topic_key=AUTH)
    assert newer.action == "created"

    answers.answer("topicClearThisButton")
    trigger(window, "undoAction")
    assert "Undoing the edit of #2" in answers.texts[0]
    assert answers.buttons[0]["topicClearThisButton"] == "Undo without the topic key"
    assert stored_row(db, 2)["revision_count"] == 1 and topic(db, 2) is None
    assert live_topic_rows(db, AUTH) == [newer.id]
    assert next_save_lands_on(db, AUTH) == newer.id


def test_keep_on_a_row_the_agent_deleted_asks_before_saving_it_again(
    qtbot, window, db: Path, monkeypatch
) -> None:
    answers = Answers(monkeypatch).answer("topicForgetOtherButton")
    open_form(qtbot, window, 2)
    window.findChild(QPlainTextEdit, "editContent").setPlainText("**What** my version")
    agent_delete(db, 2)
    newer = agent_save(db, title="Refresh per tab, again", content="**What** again", topic_key=AUTH)
    refreshed(qtbot, window)
    qtbot.waitUntil(lambda: page(window).detail.conflict == "deleted")
    click(qtbot, window, "conflictKeep")
    click(qtbot, window, "saveEditButton")

    assert "Saving as a new observation would" in answers.texts[0]
    assert answers.buttons[0]["topicForgetOtherButton"] == f"Forget #{newer.id}"
    qtbot.waitUntil(lambda: page(window).selected_ids() == [newer.id + 1])
    created = newer.id + 1
    assert stored_row(db, created)["content"] == "**What** my version"
    assert deleted_at(db, newer.id) is not None and live_topic_rows(db, AUTH) == [created]

    trigger(window, "undoAction")  # the new row is forgotten, the agent's row comes back
    assert deleted_at(db, created) is not None and live_topic_rows(db, AUTH) == [newer.id]
    trigger(window, "redoAction")
    assert live_topic_rows(db, AUTH) == [created]
    assert next_save_lands_on(db, AUTH) == created


def test_keep_on_a_row_the_agent_forgot_asks_before_restoring_it(
    qtbot, window, db: Path, monkeypatch
) -> None:
    answers = Answers(monkeypatch).answer("topicCancelButton")
    open_form(qtbot, window, 2)
    window.findChild(QPlainTextEdit, "editContent").setPlainText("**What** mine")
    agent_forget(db, 2)
    newer = agent_save(db, title="Refresh per tab, again", content="**What** again", topic_key=AUTH)
    refreshed(qtbot, window)
    qtbot.waitUntil(lambda: page(window).detail.conflict == "forgotten")
    click(qtbot, window, "conflictKeep")
    click(qtbot, window, "saveEditButton")
    assert "Restoring and saving #2" in answers.texts[0]
    # Cancelled at the restore: the edit made just before it is put back too.
    row = stored_row(db, 2)
    assert row["deleted_at"] is not None and row["content"] != "**What** mine"
    assert row["revision_count"] == 1 and window.undo_stack.count() == 0

    answers.answer("topicClearOtherButton")
    click(qtbot, window, "saveEditButton")
    row = stored_row(db, 2)
    assert row["deleted_at"] is None and row["content"] == "**What** mine"
    assert live_topic_rows(db, AUTH) == [2] and topic(db, newer.id) is None

    trigger(window, "undoAction")
    row = stored_row(db, 2)
    assert row["deleted_at"] is not None and row["content"] != "**What** mine"
    assert topic(db, newer.id) == AUTH and live_topic_rows(db, AUTH) == [newer.id]
    assert next_save_lands_on(db, AUTH) == newer.id
