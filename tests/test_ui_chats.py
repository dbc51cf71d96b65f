"""The Chats page in the real window, offscreen, driven by object names as a person would.

Databases are built with the plugin's DDL and writes (:mod:`test_chats_core`'s ``build``):
a chat with everything, one named only by its saved rows, one only by a prompt, one only by
its loaded context, and a row saved outside any chat.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTableWidget,
    QTabWidget,
    QTextBrowser,
)

from heartbeat import Heartbeat
from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.chats import list_chats, saved_in_chat, timeline
from memory_desk.ui import export
from test_chats_core import ALPHA, BETA, CONTEXT, T0, build
from ui_strings import marked_language, unnamed, untranslated
from window_helpers import agent_save, make_database, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

ID = Qt.ItemDataRole.UserRole


@pytest.fixture
def db(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    path = tmp_path / "alisio" / "memory.sqlite"
    path.parent.mkdir()
    return path, build(path)


def chats_page_of(window):
    return window.chats_page


def settled(qtbot, page) -> None:
    qtbot.waitUntil(lambda: not page.is_busy())


def open_chats(qtbot, open_window, path: Path, rows: int | None = None):
    """The window on ``path`` with the Chats page shown through its View action."""
    window = open_window(["--db", str(path)])
    window.findChild(QAction, "showChatsAction").trigger()
    page = window.chats_page
    qtbot.waitUntil(
        lambda: page.model.rowCount() > 0 if rows is None else page.model.rowCount() == rows
    )
    settled(qtbot, page)
    return window, page


def chats_table(window) -> QTableView:
    return window.findChild(QTableView, "chatsTable")


def table_ids(window) -> list[str]:
    view = chats_table(window)
    model = view.model()
    return [model.index(row, 0).data(ID) for row in range(model.rowCount())]


def choose(qtbot, window, session_id: str) -> None:
    """Click the chat's row in the table and wait for its detail."""
    view = chats_table(window)
    row = table_ids(window).index(session_id)
    view.scrollTo(view.model().index(row, 0))
    rect = view.visualRect(view.model().index(row, 0))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    page = window.chats_page
    qtbot.waitUntil(
        lambda: page.detail.detail is not None and page.detail.detail.row.id == session_id
    )
    settled(qtbot, page)


def widget(window, kind, name):
    found = window.findChild(kind, name)
    assert found is not None, name
    return found


def column_ids(view: QTableWidget) -> list[int]:
    return [view.item(row, 0).data(ID) for row in range(view.rowCount())]


# ----------------------------------------------------------------------------- list and detail


def test_the_table_lists_every_chat_newest_first_with_its_id_in_user_role(
    qtbot, open_window, db
) -> None:
    path, _ids = db
    window, page = open_chats(qtbot, open_window, path, rows=4)
    assert table_ids(window) == ["chat-d", "chat-c", "chat-b", "chat-a"]
    model = chats_table(window).model()
    row = table_ids(window).index("chat-a")
    assert model.index(row, 0).data() == ALPHA
    assert model.index(row, 1).data() == "/home/ana/alpha"
    assert model.index(row, 4).data() == "2"
    assert model.index(row, 5).data().startswith("Goal: Ship the parser.")
    with qtbot.waitSignal(page.status_changed) as status:
        page.refresh()
    assert status.args == ["4 chats"]


def test_directory_and_end_are_hidden_until_the_header_menu_shows_them(
    qtbot, open_window, db
) -> None:
    path, _ids = db
    window, page = open_chats(qtbot, open_window, path, rows=4)
    header = chats_table(window).horizontalHeader()
    assert [header.isSectionHidden(c) for c in range(6)] == [False, True, False, True, False, False]
    assert header.contextMenuPolicy() == Qt.ContextMenuPolicy.CustomContextMenu
    menu = page.column_menu()
    assert isinstance(menu, QMenu)
    directory = next(a for a in menu.actions() if a.text() == "Directory")
    assert not directory.isChecked()
    directory.trigger()
    assert not header.isSectionHidden(1)
    menu.close()


def test_choosing_a_chat_fills_every_section(qtbot, open_window, db) -> None:
    path, ids = db
    window, page = open_chats(qtbot, open_window, path)
    choose(qtbot, window, "chat-a")
    saved = widget(window, QTableWidget, "chatSaved")
    store = window.chats_page.store
    assert column_ids(saved) == [o.id for o in saved_in_chat(store, "chat-a")]
    assert ids["a3"] not in column_ids(saved)  # forgotten
    summary = widget(window, QTextBrowser, "chatSummary").toPlainText()
    for section in ("Goal", "Instructions", "Discoveries", "Accomplished", "Next Steps"):
        assert section in summary
    assert "**" not in summary and "##" not in summary  # rendered, not shown as markup
    context = widget(window, QPlainTextEdit, "chatLoadedContext")
    assert context.toPlainText() == CONTEXT  # tabs, trailing spaces, CRLF, emoji, NBSP
    assert context.isReadOnly()
    prompts = widget(window, QTableWidget, "chatPrompts")
    assert [prompts.item(r, 1).text() for r in range(prompts.rowCount())] == [
        "first prompt",
        "second, same time",
        "third, same time",
    ]
    assert widget(window, QLabel, "chatTitle").text() == "chat-a"
    assert widget(window, QPushButton, "exportChatButton").isEnabled()
    QApplication.clipboard().clear()
    widget(window, QPushButton, "copyLoadedContextButton").click()
    assert QApplication.clipboard().text() == CONTEXT


def test_a_chat_without_summary_or_context_says_so(qtbot, open_window, db) -> None:
    path, _ids = db
    window, _page = open_chats(qtbot, open_window, path)
    choose(qtbot, window, "chat-b")
    summary = widget(window, QTextBrowser, "chatSummary")
    assert summary.toPlainText() == "" and summary.placeholderText() == "No summary"
    assert widget(window, QPlainTextEdit, "chatLoadedContext").toPlainText() == ""
    note = widget(window, QLabel, "chatLoadedContextNote").text()
    assert "started before the plugin recorded" in note
    assert not widget(window, QPushButton, "copyLoadedContextButton").isEnabled()


def test_a_database_without_schema_101_says_context_is_not_recorded(
    qtbot, open_window, tmp_path: Path
) -> None:
    path = tmp_path / "old" / "memory.sqlite"
    path.parent.mkdir()
    build(path, versions=(100,))
    window, _page = open_chats(qtbot, open_window, path, rows=3)
    choose(qtbot, window, "chat-a")
    assert widget(window, QPlainTextEdit, "chatLoadedContext").toPlainText() == ""
    assert "schema 101" in widget(window, QLabel, "chatLoadedContextNote").text()


def test_the_saved_list_filters_by_type_and_text_in_the_database(qtbot, open_window, db) -> None:
    path, ids = db
    window, page = open_chats(qtbot, open_window, path)
    choose(qtbot, window, "chat-a")
    saved = widget(window, QTableWidget, "chatSaved")
    kind = widget(window, QComboBox, "chatSavedType")
    kind.setCurrentIndex(kind.findText("bugfix"))
    qtbot.waitUntil(lambda: column_ids(saved) == [ids["a2"]])
    kind.setCurrentIndex(0)
    qtbot.waitUntil(lambda: len(column_ids(saved)) == 2)
    search = widget(window, QLineEdit, "chatSavedSearch")
    qtbot.keyClicks(search, "wA")  # two letters, any case
    qtbot.waitUntil(lambda: column_ids(saved) == [ids["a1"]])
    settled(qtbot, page)


def test_the_chat_list_search_and_project_filter(qtbot, open_window, db) -> None:
    path, _ids = db
    window, page = open_chats(qtbot, open_window, path, rows=4)
    qtbot.keyClicks(widget(window, QLineEdit, "chatsSearch"), "TRIGRAM")
    qtbot.waitUntil(lambda: table_ids(window) == ["chat-a"])
    widget(window, QLineEdit, "chatsSearch").clear()
    qtbot.waitUntil(lambda: len(table_ids(window)) == 4)
    projects = widget(window, QComboBox, "chatsProjectFilter")
    projects.setCurrentIndex(projects.findText(BETA))
    qtbot.waitUntil(lambda: table_ids(window) == ["chat-c", "chat-b"])
    settled(qtbot, page)


def test_sorting_by_a_column_keeps_the_chosen_chat(qtbot, qtmodeltester, open_window, db) -> None:
    path, _ids = db
    window, page = open_chats(qtbot, open_window, path, rows=4)
    qtmodeltester.check(chats_table(window).model())  # and every signal the sort sends
    choose(qtbot, window, "chat-b")
    chats_table(window).sortByColumn(4, Qt.SortOrder.DescendingOrder)  # saved
    qtbot.waitUntil(lambda: table_ids(window)[:2] == ["chat-a", "chat-b"])
    settled(qtbot, page)
    assert page.chosen_chat() == "chat-b"
    current = chats_table(window).currentIndex()
    assert current.data(ID) == "chat-b"


def test_export_hands_the_chosen_chat_to_the_exporter(qtbot, open_window, db, monkeypatch):
    path, _ids = db
    calls = []
    monkeypatch.setattr(export, "start_chat_export", lambda *args: calls.append(args))
    window, page = open_chats(qtbot, open_window, path)
    choose(qtbot, window, "chat-a")
    widget(window, QPushButton, "exportChatButton").click()
    assert calls == [(page, page.store, "chat-a")]


# ----------------------------------------------------------------------------- routing


def test_show_chat_clears_filters_that_hide_it_and_says_so(qtbot, open_window, db) -> None:
    path, _ids = db
    window, page = open_chats(qtbot, open_window, path, rows=4)
    qtbot.keyClicks(widget(window, QLineEdit, "chatsSearch"), "TRIGRAM")
    qtbot.waitUntil(lambda: table_ids(window) == ["chat-a"])
    with qtbot.waitSignal(page.info_raised):
        window.show_chat("chat-c")
    qtbot.waitUntil(lambda: page.chosen_chat() == "chat-c")
    settled(qtbot, page)
    assert widget(window, QLineEdit, "chatsSearch").text() == ""
    assert chats_table(window).currentIndex().data(ID) == "chat-c"


def test_from_the_observations_page_a_chat_and_a_timeline_open(qtbot, open_window, db) -> None:
    path, ids = db
    window = open_window(["--db", str(path)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() > 0)
    page = window.chats_page
    window.show_chat("chat-b")
    assert window.current_page_name() == "chats"
    qtbot.waitUntil(lambda: page.chosen_chat() == "chat-b")
    settled(qtbot, page)
    window.show_timeline(ids["a2"])
    qtbot.waitUntil(lambda: page.chosen_chat() == "chat-a")
    view = widget(window, QTableWidget, "chatTimeline")
    expected = [o.id for o in timeline(page.store, ids["a2"]).entries]
    qtbot.waitUntil(lambda: column_ids(view) == expected)
    settled(qtbot, page)
    assert widget(window, QTabWidget, "chatTabs").currentWidget().isAncestorOf(view)
    anchor = expected.index(ids["a2"])
    assert view.item(anchor, 2).font().bold()
    assert not view.item(0 if anchor else 1, 2).font().bold()
    # A row outside any chat: its project's timeline, no chat chosen.
    window.show_timeline(ids["none"])
    qtbot.waitUntil(lambda: ids["none"] in column_ids(view))
    settled(qtbot, page)
    assert page.chosen_chat() is None
    assert "belongs to no chat" in widget(window, QLabel, "chatTimelineNote").text()


def test_double_click_in_the_timeline_shows_the_observation_in_the_table(
    qtbot, open_window, db
) -> None:
    path, ids = db
    window = open_window(["--db", str(path)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() > 0)
    window.show_timeline(ids["a2"])
    page = window.chats_page
    view = widget(window, QTableWidget, "chatTimeline")
    qtbot.waitUntil(lambda: ids["a1"] in column_ids(view))
    settled(qtbot, page)
    row = column_ids(view).index(ids["a1"])
    rect = view.visualItemRect(view.item(row, 2))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.current_page_name() == "observations"
    qtbot.waitUntil(lambda: window.observations_page.selected_ids() == [ids["a1"]])


def test_enter_on_a_saved_row_shows_it_in_the_table(qtbot, open_window, db) -> None:
    path, ids = db
    window, page = open_chats(qtbot, open_window, path)
    choose(qtbot, window, "chat-a")
    saved = widget(window, QTableWidget, "chatSaved")
    row = column_ids(saved).index(ids["a2"])
    saved.setFocus()
    saved.setCurrentCell(row, 3)
    with qtbot.waitSignal(page.observation_requested) as asked:
        QTest.keyClick(saved, Qt.Key.Key_Return)
    assert asked.args == [ids["a2"]]
    qtbot.waitUntil(lambda: window.observations_page.selected_ids() == [ids["a2"]])


# ----------------------------------------------------------------------------- live, lazy


def test_an_agent_write_refreshes_the_chat_and_keeps_it_chosen(qtbot, open_window, db) -> None:
    path, _ids = db
    window, page = open_chats(qtbot, open_window, path, rows=4)
    choose(qtbot, window, "chat-b")
    saved = widget(window, QTableWidget, "chatSaved")
    assert saved.rowCount() == 1
    agent_save(path, title="Another in b", content="**What** b", project=BETA, session_id="chat-b")
    qtbot.waitUntil(lambda: saved.rowCount() == 2, timeout=10_000)
    settled(qtbot, page)
    assert page.chosen_chat() == "chat-b"
    assert chats_table(window).currentIndex().data(ID) == "chat-b"


def test_the_page_reads_nothing_while_another_page_is_in_front(qtbot, open_window, db) -> None:
    path, _ids = db
    window, page = open_chats(qtbot, open_window, path, rows=4)
    window.show_page("observations")
    rows = table(window).model().rowCount()
    agent_save(path, title="A new chat's row", content="**What** new", session_id="chat-new")
    qtbot.waitUntil(lambda: table(window).model().rowCount() == rows + 1, timeout=10_000)
    assert page.model.row_of("chat-new") == -1  # stale, not read behind the person's back
    window.show_page("chats")
    qtbot.waitUntil(lambda: page.model.row_of("chat-new") >= 0)
    settled(qtbot, page)


# ----------------------------------------------------------------------------- pure reading


def test_browsing_every_chat_changes_no_byte_of_the_database(qtbot, open_window, db) -> None:
    path, ids = db
    watcher = sqlite3.connect(path)
    window, page = open_chats(qtbot, open_window, path, rows=4)
    version = watcher.execute("PRAGMA data_version").fetchone()[0]
    files = [p for p in (path, Path(f"{path}-wal")) if p.exists()]
    before = [hashlib.sha256(p.read_bytes()).hexdigest() for p in files]
    counters = "SELECT sum(access_count), max(last_accessed_at), max(updated_at) FROM observations"
    access = watcher.execute(counters).fetchone()
    tabs = widget(window, QTabWidget, "chatTabs")
    for session_id in table_ids(window):
        choose(qtbot, window, session_id)
        for index in range(tabs.count()):
            tabs.setCurrentIndex(index)
        qtbot.keyClicks(widget(window, QLineEdit, "chatSavedSearch"), "a")
        qtbot.waitUntil(lambda: not page.is_busy())
        widget(window, QLineEdit, "chatSavedSearch").clear()
        settled(qtbot, page)
    for oid in ids.values():
        window.show_timeline(oid)
        qtbot.waitUntil(lambda oid=oid: oid in column_ids(page.detail.timeline_view))
    settled(qtbot, page)
    assert watcher.execute("PRAGMA data_version").fetchone()[0] == version
    assert [hashlib.sha256(p.read_bytes()).hexdigest() for p in files] == before
    assert watcher.execute(counters).fetchone() == access
    watcher.close()


# ----------------------------------------------------------------------------- words and names


def test_every_string_is_translated_and_every_control_named(qtbot, open_window, db) -> None:
    """Each of the page's own tabs in turn (the Next chat panel has its own tests)."""
    path, ids = db
    with marked_language():
        window, page = open_chats(qtbot, open_window, path)
        choose(qtbot, window, "chat-b")  # notes about what is missing are showing
        window.show_timeline(ids["none"])
        qtbot.waitUntil(lambda: ids["none"] in column_ids(page.detail.timeline_view))
        choose(qtbot, window, "chat-a")
        tabs = widget(window, QTabWidget, "chatTabs")
        types = {f"chatSavedType.item: {name!r}" for name in alisio.OBSERVATION_TYPES}
        for index in range(tabs.count()):
            if tabs.widget(index) is page.detail.next_context:
                continue
            tabs.setCurrentIndex(index)
            found = [line for line in untranslated(page) if line not in types]
            assert found == [], tabs.tabText(index)
            assert unnamed(page) == [], tabs.tabText(index)


# ----------------------------------------------------------------------------- a big database


def test_ten_thousand_chats_list_without_freezing_the_window(
    qtbot, open_window, tmp_path: Path
) -> None:
    path = tmp_path / "big" / "memory.sqlite"
    path.parent.mkdir()
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO memory_sessions(id, project, directory, started_at, ended_at, summary)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (f"s-{i:05d}", f"p{i % 25}-0000abcd", "/work", T0 + i, T0 + i + 9, "## Goal\n" * 20)
            for i in range(10_000)
        ],
    )
    conn.executemany(
        "INSERT INTO observations(session_id, type, title, content, project, normalized_hash,"
        " created_at, updated_at) VALUES (?, 'decision', ?, 'body', ?, 'h', ?, ?)",
        [
            (f"s-{i % 10_000:05d}", f"t{i}", f"p{i % 25}-0000abcd", T0 + i, T0 + i)
            for i in range(40_000)
        ],
    )
    conn.execute("COMMIT")
    conn.close()
    store = ObservationStore(path)
    started = time.perf_counter()
    assert len(list_chats(store)) == 10_000
    raw = time.perf_counter() - started  # the listing's own cost, measured in this run
    store.close()

    # The page's first showing builds and polishes its widgets whatever the data (65-130 ms
    # here at 1,000 or 30,000 chats): done once on a small database, so the heartbeat below
    # measures only what grows with the chats.
    small = make_database(tmp_path / "small" / "memory.sqlite")
    window = open_window(["--db", str(small)])
    page = window.chats_page
    window.show_page("chats")
    qtbot.waitUntil(lambda: page.model.rowCount() > 0)
    settled(qtbot, page)
    window.show_page("observations")
    assert window.open_database(path)
    qtbot.waitUntil(lambda: window.observations_page.store is not None)
    qtbot.waitUntil(lambda: table(window).model().rowCount() > 0)
    # Opening a database checks its index in the background: not the chats' doing.
    qtbot.waitUntil(lambda: not window.observations_page.is_checking_index(), timeout=20_000)
    qtbot.waitUntil(lambda: not window.observations_page.is_busy(), timeout=20_000)
    beat = Heartbeat(window).start()
    window.show_page("chats")
    qtbot.waitUntil(lambda: page.model.rowCount() == 10_000, timeout=30_000)
    settled(qtbot, page)
    longest = beat.stop()
    print(f"listing {raw * 1000:.0f} ms, longest main-thread gap {longest * 1000:.0f} ms")
    # Listing on the main thread would freeze it for at least the listing's time.
    assert longest < raw
    assert table_ids(window)[0] == "s-09999"
