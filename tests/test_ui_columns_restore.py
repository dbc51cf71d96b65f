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


def test_a_column_saved_in_english_shows_its_spanish_header_whole(
    qtbot, open_window, tmp_path
) -> None:
    db = make_database(tmp_path / "memory.sqlite")
    english = open_window(["--lang", "en", "--db", str(db)])
    header = english.findChild(QTableView, "observationsTable").horizontalHeader()
    header.resizeSection(Column.UPDATED, header.sectionSizeHint(Column.UPDATED))  # snug
    english.close()

    spanish = open_window(["--lang", "es", "--db", str(db)])
    header = spanish.findChild(QTableView, "observationsTable").horizontalHeader()
    assert header.model().headerData(Column.UPDATED, Qt.Orientation.Horizontal) == "Actualizada"
    assert header.sectionSize(Column.UPDATED) >= header.sectionSizeHint(Column.UPDATED)
