"""The "what the next chat will be told" panel, alone and offscreen, on real databases.

The panel reads off the main thread; the tests wait for its answer and check what a person
sees: the next context and the recorded one verbatim, the changes their pins and forgets
make, the note that says what the block is made of (and, for a project the plugin tells
nothing, that the next chat starts with no memory and why), and every string translated and
every control named. The empty-context message is also checked in the real window.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFontDatabase
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QListView, QPlainTextEdit, QTableView, QTabWidget

from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations import context_layout as layout
from memory_desk.core.observations import next_context as nc
from memory_desk.ui.chats.next_context import NextContextPanel
from ui_strings import marked_language, unnamed, untranslated

pytest_plugins = ["window_fixture"]  # the open_window fixture

ALPHA = "alpha-1a2b3c4d"
T0 = 1_790_000_000_000
MINUTE = 60_000


def make_db(path: Path, versions: tuple[int, ...] = (100, 101)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    alisio.create_database(path, versions=versions)
    return path


def agent(path: Path, sql: str, params: tuple = ()) -> None:
    conn = alisio.connect_like_plugin(path)
    try:
        conn.execute(sql, params)
    finally:
        conn.close()


def save(path: Path, title: str, at: int) -> int:
    conn = alisio.connect_like_plugin(path)
    try:
        return alisio.save_observation(
            conn, title=title, content=f"**What**: {title}", type="decision", project=ALPHA, now=at
        ).id
    finally:
        conn.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Three notes, a summary, a prompt, and the context a chat recorded at its start."""
    path = make_db(tmp_path / "state" / "memory.sqlite")
    for n, title in enumerate(("Use WAL for the cache", "Advice later forgotten", "Newest note")):
        save(path, title, T0 + n * MINUTE)
    agent(
        path,
        "INSERT INTO memory_sessions(id,project,started_at,ended_at,summary) VALUES(?,?,?,?,?)",
        ("s1", ALPHA, T0, T0, "## Goal\nShip the cache"),
    )
    agent(
        path,
        "INSERT INTO user_prompts(session_id,content,project,created_at) VALUES(?,?,?,?)",
        ("s1", "make the cache faster", ALPHA, T0),
    )
    store = ObservationStore(path)
    try:
        text = nc.estimate_next_context(store, ALPHA).text
    finally:
        store.close()
    agent(
        path,
        "INSERT INTO injected_context(session_id,project,content,created_at) VALUES(?,?,?,?)",
        ("chat-7f3e", ALPHA, text, T0 + 10 * MINUTE),
    )
    return path


@pytest.fixture
def open_panel(qtbot) -> Iterator[Callable[[Path | None], NextContextPanel]]:
    """``open_panel(db)``: a shown panel on this database (None: no database)."""
    opened: list[tuple[NextContextPanel, ObservationStore | None]] = []

    def build(path: Path | None) -> NextContextPanel:
        panel = NextContextPanel()
        qtbot.addWidget(panel)
        panel.resize(1000, 700)
        store = ObservationStore(path) if path is not None else None
        panel.set_store(store)
        opened.append((panel, store))
        panel.show()
        qtbot.waitExposed(panel)
        return panel

    yield build
    for panel, store in opened:
        panel.shutdown()
        if store is not None:
            store.close()


def shown(qtbot, panel: NextContextPanel, project: str | None) -> NextContextPanel:
    panel.set_project(project)
    qtbot.waitUntil(lambda: not panel.is_busy(), timeout=5000)
    return panel


def pane(panel: NextContextPanel, name: str) -> QPlainTextEdit:
    return panel.findChild(QPlainTextEdit, name)


def changes(panel: NextContextPanel) -> list[str]:
    model = panel.findChild(QListView, "nextContextChanges").model()
    return [model.index(row, 0).data() for row in range(model.rowCount())]


def test_both_contexts_show_verbatim_side_by_side(qtbot, open_panel, db: Path) -> None:
    panel = shown(qtbot, open_panel(db), ALPHA)

    store = ObservationStore(db)
    try:
        expected = nc.preview(store, ALPHA)
    finally:
        store.close()
    estimate, recorded = pane(panel, "nextContextEstimate"), pane(panel, "nextContextRecorded")
    assert estimate.toPlainText() == expected.next.text
    assert recorded.toPlainText() == expected.recorded.content
    assert estimate.isReadOnly() and recorded.isReadOnly()
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()
    assert estimate.font().family() == fixed == recorded.font().family()
    assert (
        estimate.mapTo(panel, estimate.rect().topLeft()).x()
        < recorded.mapTo(panel, recorded.rect().topLeft()).x()
    )
    caption = panel.findChild(QLabel, "nextContextRecordedCaption").text()
    assert "chat-7f3e" in caption
    assert changes(panel) == [
        "No change: the next chat would be told about the same observations as the last one."
    ]


def test_the_note_says_what_the_block_is_made_of(qtbot, open_panel, db: Path) -> None:
    panel = shown(qtbot, open_panel(db), ALPHA)

    note = panel.findChild(QLabel, "nextContextNote").text()

    assert "An estimate" not in note and "not public" not in note
    assert "1,500 tokens, the plugin's default: this is not the database Alisio's" in note
    assert "characters divided by 4" in note  # the plugin's own token estimate
    assert "10 pinned and 20 recent observations and 5 prompts" in note
    assert layout.NEXT_SESSION_STAND_IN in note and "no memory" not in note
    # The person's words on screen; the setting's own name only in the tooltip.
    assert "injectBudgetTokens" not in note
    assert "injectBudgetTokens" in panel.findChild(QLabel, "nextContextNote").toolTip()
    caption = panel.findChild(QLabel, "nextContextEstimateCaption").text()
    assert caption.startswith("Next context: about ")


def test_a_project_told_nothing_says_the_next_chat_starts_with_no_memory(
    qtbot, open_panel, tmp_path: Path
) -> None:
    path = make_db(tmp_path / "empty" / "memory.sqlite")
    gone = save(path, "Advice later forgotten", T0)
    agent(path, "UPDATE observations SET deleted_at=? WHERE id=?", (T0 + MINUTE, gone))

    panel = shown(qtbot, open_panel(path), ALPHA)

    estimate = pane(panel, "nextContextEstimate")
    assert estimate.toPlainText() == ""
    assert estimate.placeholderText().startswith("The next chat starts with no memory")
    note = panel.findChild(QLabel, "nextContextNote").text()
    assert note.startswith(
        "The next chat starts with no memory: this project has no session summary, no saved"
        " prompt and no observation it can see"
    )
    caption = panel.findChild(QLabel, "nextContextEstimateCaption").text()
    assert caption == "Next context: nothing (the chat starts with no memory)"

    save(path, "A new note", T0 + 2 * MINUTE)  # the agent saves: the block is back
    panel.refresh()
    qtbot.waitUntil(lambda: not panel.is_busy(), timeout=5000)
    assert estimate.toPlainText().startswith(layout.HEADER)
    assert "no memory" not in panel.findChild(QLabel, "nextContextNote").text()


def test_the_located_databases_configured_budget_is_used(qtbot, open_panel, private_home) -> None:
    path = make_db(private_home / ".local/state/alisio/memory.sqlite")
    save(path, "Note", T0)
    config = private_home / ".config/alisio/config.json"
    config.parent.mkdir(parents=True)
    config.write_text('{"builtinPlugins": {"memory": {"injectBudgetTokens": 800}}}')

    panel = shown(qtbot, open_panel(path), ALPHA)

    assert (
        "Budget: 800 tokens, set in Alisio's config."
        in panel.findChild(QLabel, "nextContextNote").text()
    )
    assert "of 800 tokens" in panel.findChild(QLabel, "nextContextEstimateCaption").text()


def test_pins_and_forgets_show_as_changes(qtbot, open_panel, db: Path) -> None:
    panel = shown(qtbot, open_panel(db), ALPHA)
    opened: list[int] = []
    panel.observation_requested.connect(opened.append)

    agent(db, "UPDATE observations SET deleted_at=? WHERE id=2", (T0 + 20 * MINUTE,))
    fresh = save(db, "Saved after that chat", T0 + 30 * MINUTE)
    agent(db, "UPDATE observations SET pinned=1 WHERE id=?", (fresh,))
    panel.refresh()
    qtbot.waitUntil(lambda: not panel.is_busy(), timeout=5000)

    assert changes(panel) == [
        f"would be added: #{fresh} Saved after that chat (pinned)",
        "no longer included: #2 Advice later forgotten (forgotten)",
    ]
    view = panel.findChild(QListView, "nextContextChanges")
    view.setFocus()
    view.setCurrentIndex(view.model().index(0, 0))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert opened == [fresh]


def test_without_schema_101_the_recorded_side_says_why(qtbot, open_panel, tmp_path) -> None:
    path = make_db(tmp_path / "old.sqlite", versions=(100,))
    save(path, "Note", T0)

    panel = shown(qtbot, open_panel(path), ALPHA)

    caption = panel.findChild(QLabel, "nextContextRecordedCaption").text()
    assert caption.startswith("Last recorded context: not recorded (") and "schema 101" in caption
    assert pane(panel, "nextContextRecorded").toPlainText() == ""
    assert pane(panel, "nextContextEstimate").toPlainText().startswith(layout.HEADER)
    assert changes(panel) == ["Nothing to compare: no context was recorded for this project."]


def test_no_project_shows_the_empty_state(qtbot, open_panel, db: Path) -> None:
    panel = shown(qtbot, open_panel(db), ALPHA)
    assert not panel.findChild(QLabel, "nextContextEmpty").isVisible()

    shown(qtbot, panel, None)

    empty = panel.findChild(QLabel, "nextContextEmpty")
    assert empty.isVisible() and "Choose a chat" in empty.text()
    assert not pane(panel, "nextContextEstimate").isVisible()


def test_a_failed_read_is_reported(qtbot, open_panel, tmp_path: Path) -> None:
    path = make_db(tmp_path / "gone.sqlite")
    panel = open_panel(path)
    errors: list[str] = []
    panel.error_raised.connect(errors.append)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE observations")
    conn.close()

    shown(qtbot, panel, ALPHA)

    assert errors and "observations" in errors[0]
    assert (
        panel.findChild(QLabel, "nextContextNote")
        .text()
        .startswith("Cannot read the next context: ")
    )


@pytest.mark.parametrize("project", [ALPHA, None])
def test_every_string_is_translated_and_every_control_named(
    qtbot, open_panel, db: Path, project: str | None
) -> None:
    with marked_language():
        panel = shown(qtbot, open_panel(db), project)
        agent(db, "UPDATE observations SET deleted_at=? WHERE id=2", (T0 + 20 * MINUTE,))
        panel.refresh()
        qtbot.waitUntil(lambda: not panel.is_busy(), timeout=5000)

        assert untranslated(panel) == []
        assert unnamed(panel) == []
        if project is not None:
            first = panel.findChild(QListView, "nextContextChanges").model().index(0, 0)
            assert first.data().startswith("⟦no longer included")
            assert first.data(Qt.ItemDataRole.UserRole) == 2


def test_the_window_says_a_chat_of_an_empty_project_starts_with_no_memory(
    qtbot, open_window, tmp_path: Path
) -> None:
    """The real window: the Chats page, a chat whose project has nothing left (its one row
    forgotten), its "Next chat" tab."""
    path = make_db(tmp_path / "alisio" / "memory.sqlite")
    conn = alisio.connect_like_plugin(path)
    try:
        gone = alisio.save_observation(
            conn,
            title="Since forgotten",
            content="**What**: x",
            type="decision",
            project=ALPHA,
            session_id="chat-empty",
            now=T0,
        ).id
        conn.execute("UPDATE observations SET deleted_at=? WHERE id=?", (T0 + MINUTE, gone))
    finally:
        conn.close()

    window = open_window(["--db", str(path)])
    window.findChild(QAction, "showChatsAction").trigger()
    page = window.chats_page
    qtbot.waitUntil(lambda: page.model.rowCount() == 1)
    view = window.findChild(QTableView, "chatsTable")
    rect = view.visualRect(view.model().index(0, 0))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    tabs = window.findChild(QTabWidget, "chatTabs")
    panel = page.detail.next_context
    tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.shown_preview is not None and not panel.is_busy())

    estimate = window.findChild(QPlainTextEdit, "nextContextEstimate")
    assert estimate.isVisible() and estimate.toPlainText() == ""
    assert estimate.placeholderText().startswith("The next chat starts with no memory")
    note = window.findChild(QLabel, "nextContextNote")
    assert note.isVisible() and note.text().startswith("The next chat starts with no memory")
    caption = window.findChild(QLabel, "nextContextEstimateCaption").text()
    assert caption == "Next context: nothing (the chat starts with no memory)"
