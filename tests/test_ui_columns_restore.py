"""A table layout saved on a big screen never makes the table scroll sideways on a small one,
and the widths the person gave the columns are kept: the title takes what is left."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableView

from memory_desk.ui.observations.columns import MIN_TITLE_WIDTH
from memory_desk.ui.observations.model import Column
from window_helpers import make_database

pytest_plugins = ["window_fixture"]


def test_a_layout_saved_at_1920_fits_1024_and_keeps_the_persons_width(
    qtbot, open_window, tmp_path
) -> None:
    db = make_database(tmp_path / "memory.sqlite")
    big = open_window(["--db", str(db)])
    big.resize(1920, 1080)
    view = big.findChild(QTableView, "observationsTable")
    header = view.horizontalHeader()
    qtbot.waitUntil(lambda: view.model().rowCount() > 0)
    qtbot.waitUntil(lambda: header.sectionSize(Column.TITLE) > 800)
    header.resizeSection(Column.TYPE, header.sectionSize(Column.TYPE) + 40)  # the person's
    chosen = header.sectionSize(Column.TYPE)
    big.close()

    small = open_window(["--db", str(db)])
    view = small.findChild(QTableView, "observationsTable")
    header = view.horizontalHeader()
    small.resize(1024, 640)
    qtbot.waitUntil(lambda: view.model().rowCount() > 0)
    qtbot.waitUntil(lambda: not view.horizontalScrollBar().isVisible())
    assert header.sectionSize(Column.TYPE) == chosen
    assert header.sectionSize(Column.TITLE) >= MIN_TITLE_WIDTH
    small.resize(1600, 900)  # and back: the title follows the width again
    qtbot.waitUntil(lambda: header.sectionSize(Column.TITLE) > 600)
    assert not view.horizontalScrollBar().isVisible()


def test_columns_saved_in_english_show_their_spanish_headers_whole(qtbot, open_window) -> None:
    """The chats table's widths saved at an English close, restored under Spanish headers."""
    english = open_window(["--lang", "en", "--demo"])
    english.resize(1920, 1080)
    english.show_page("chats")
    view = english.findChild(QTableView, "chatsTable")
    qtbot.waitUntil(lambda: view.model().rowCount() > 0, timeout=20_000)
    english.close()

    spanish = open_window(["--lang", "es", "--demo"])
    spanish.resize(1024, 640)
    spanish.show_page("chats")
    view = spanish.findChild(QTableView, "chatsTable")
    qtbot.waitUntil(lambda: view.model().rowCount() > 0, timeout=20_000)
    header, model = view.horizontalHeader(), view.model()
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        words = str(model.headerData(section, Qt.Orientation.Horizontal))
        assert header.sectionSize(section) >= header.fontMetrics().horizontalAdvance(words), words
