"""The chats table keeps the sort the person chose, on a real window driven by object names.

The person sorts by a column with a click on its header; the order stays when an agent (a
process of its own, ``tests/agents/alisio_one_write.py``) starts a new chat and the live
reload lists it, when another source is shown and this one comes back, and after a restart
(the sort is saved with the rest of the view's state).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QTableView

from journal_helpers import alisio_agent
from memory_desk.core.kinds import SourceKind
from memory_desk.ui.chats.model import SAVED
from test_chats_core import build

pytest_plugins = ["window_fixture"]  # the open_window fixture

WAIT_MS = 20_000
ID = Qt.ItemDataRole.UserRole
DESCENDING = Qt.SortOrder.DescendingOrder
NEWEST_FIRST = ["chat-d", "chat-c", "chat-b", "chat-a"]  # as listed until a sort is chosen
# Most saved observations first (chat-a two of its three, the third is forgotten; chat-b one;
# chat-d and chat-c none); among equals, newest first.
BY_SAVED = ["chat-a", "chat-b", "chat-d", "chat-c"]


def chats_table(window) -> QTableView:
    found = window.findChild(QTableView, "chatsTable")
    assert found is not None
    return found


def shown_ids(window) -> list[str]:
    model = chats_table(window).model()
    return [model.index(row, 0).data(ID) for row in range(model.rowCount())]


def open_chats(qtbot, open_window, db: Path):
    window = open_window(["--db", str(db)])
    window.findChild(QAction, "showChatsAction").trigger()
    page = window.chats_page
    qtbot.waitUntil(lambda: page.model.rowCount() > 0 and not page.is_busy(), timeout=WAIT_MS)
    return window, page


def click_header(qtbot, window, column: int) -> None:
    """A person's click on a column's heading."""
    header = chats_table(window).horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))


def sort_by_saved_descending(qtbot, window, page) -> None:
    header = chats_table(window).horizontalHeader()
    for _click in range(2):  # the first click may choose either order
        click_header(qtbot, window, SAVED)
        qtbot.waitUntil(lambda: not page.is_busy(), timeout=WAIT_MS)
        if header.sortIndicatorOrder() == DESCENDING:
            break
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (SAVED, DESCENDING)
    assert header.isSortIndicatorShown()


def test_the_chosen_sort_stays_through_new_chats_switches_and_a_restart(
    qtbot, open_window, tmp_path: Path
) -> None:
    db = tmp_path / "alisio" / "memory.sqlite"
    db.parent.mkdir()
    build(db)
    other = tmp_path / "other" / "memory.sqlite"
    other.parent.mkdir()
    build(other)

    window, page = open_chats(qtbot, open_window, db)
    assert shown_ids(window) == NEWEST_FIRST
    sort_by_saved_descending(qtbot, window, page)
    assert shown_ids(window) == BY_SAVED

    # the agent starts a chat (one saved row) and the live reload lists it: still by saved
    alisio_agent(db, "save", "Prefer rebase", "Rebase before merging.", "--session", "chat-new")
    expected = ["chat-a", "chat-new", "chat-b", "chat-d", "chat-c"]
    qtbot.waitUntil(lambda: shown_ids(window) == expected, timeout=WAIT_MS)

    # another database shown, then this one again: the same order
    assert window.open_database(other)
    qtbot.waitUntil(lambda: page.store is not None and page.store.path == other, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: shown_ids(window) == BY_SAVED, timeout=WAIT_MS)
    window.sidebar.select(window.registry.find(SourceKind.DB, db))
    qtbot.waitUntil(lambda: shown_ids(window) == expected, timeout=WAIT_MS)
    window.close()
    window.shutdown()

    # a restart: the sort comes back with the view's state, and a newer chat is placed by it
    alisio_agent(db, "save", "Use tabs", "Tabs.", "--session", "chat-newer")
    second, second_page = open_chats(qtbot, open_window, db)
    header = chats_table(second).horizontalHeader()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (SAVED, DESCENDING)
    assert header.isSortIndicatorShown()
    newer = ["chat-a", "chat-newer", "chat-new", "chat-b", "chat-d", "chat-c"]
    qtbot.waitUntil(lambda: shown_ids(second) == newer, timeout=WAIT_MS)
