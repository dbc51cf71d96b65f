"""What the window looked like survives a restart; what the person chose is kept apart."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QSplitter, QTreeWidget, QWidget

from memory_desk.core.appdirs import settings_dir, state_dir
from memory_desk.ui.observations.model import Column
from window_helpers import (
    make_database,
    make_persona_folder,
    table,
)

pytest_plugins = ["window_fixture"]  # the open_window fixture

TITLES = ("Banana bread", "apple pie", "Cherry cake", "date loaf")


@pytest.fixture
def args(tmp_path: Path) -> list[str]:
    db = make_database(tmp_path / "alisio" / "memory.sqlite", TITLES)
    folder = make_persona_folder(tmp_path / ".miyagi" / "memory")
    return ["--db", str(db), "--persona", str(folder)]


def splitter(window, name: str) -> QSplitter:
    return window.findChild(QSplitter, name)


def titles_in_view(window) -> list[str]:
    model = table(window).model()
    return [model.index(row, Column.TITLE).data() for row in range(model.rowCount())]


def click_header(qtbot, window, column: int) -> None:
    header = table(window).horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))


def select_source(window, label: str) -> None:
    tree = window.findChild(QTreeWidget, "sourcesList")
    (item,) = tree.findItems(label, Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive)
    tree.setCurrentItem(item)


def test_layout_sort_and_source_survive_a_restart(open_window, qtbot, args) -> None:
    first = open_window(args)
    qtbot.waitUntil(lambda: table(first).model().rowCount() == len(TITLES))
    # The offscreen screen is 800x800, narrower than the window's minimum width: a restored
    # width is clamped to it, so heights, positions and the vertical splitter are what tell.
    first.resize(first.width(), 650)
    first.move(12, 34)
    top, height = first.y(), first.height()
    splitter(first, "observationsSplitter").setSizes([150, 400])
    table(first).setColumnWidth(Column.TITLE, 333)
    click_header(qtbot, first, Column.TITLE)
    by_title = sorted(TITLES, key=str.lower)
    qtbot.waitUntil(lambda: titles_in_view(first) == by_title)
    detail_sizes = splitter(first, "observationsSplitter").sizes()
    select_source(first, "miyagi")
    assert first.current_page_name() == "persona"
    first.close()

    second = open_window(args)
    assert (second.y(), second.height()) == (top, height) == (34, 650)
    assert second.current_page_name() == "persona"
    assert second.current_source().path == Path(args[3])
    header = table(second).horizontalHeader()
    assert header.sortIndicatorSection() == Column.TITLE
    assert header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
    assert table(second).columnWidth(Column.TITLE) == 333

    select_source(second, "alisio/memory.sqlite")
    assert second.current_page_name() == "observations"
    # The table keeps its height; the detail pane takes what the (clamped) width leaves.
    table_height, detail_height = splitter(second, "observationsSplitter").sizes()
    assert table_height == detail_sizes[0]
    assert abs(detail_height - detail_sizes[1]) <= 4
    # The restored sort is the one the rows follow, not only an arrow on the header.
    qtbot.waitUntil(lambda: titles_in_view(second) == by_title)


def test_restored_sort_orders_the_rows_shown_first(open_window, qtbot, args) -> None:
    """The observations table is the last source: the restored window opens sorted."""
    first = open_window(args)
    select_source(first, "alisio/memory.sqlite")
    qtbot.waitUntil(lambda: table(first).model().rowCount() == len(TITLES))
    click_header(qtbot, first, Column.TITLE)
    click_header(qtbot, first, Column.TITLE)  # second click: descending
    by_title_desc = sorted(TITLES, key=str.lower, reverse=True)
    qtbot.waitUntil(lambda: titles_in_view(first) == by_title_desc)
    first.close()

    second = open_window(args)
    assert second.current_page_name() == "observations"
    qtbot.waitUntil(lambda: titles_in_view(second) == by_title_desc)


def test_settings_and_ui_state_are_separate_private_files(
    open_window, qtbot, args, tmp_path, private_home
) -> None:

    window = open_window(args)
    assert window.add_persona_folder(make_persona_folder(tmp_path / "extra"))
    window.close()

    settings_file = settings_dir() / "settings.ini"
    state_file = state_dir() / "ui-state.ini"
    assert settings_file != state_file
    for path in (settings_file, state_file):
        assert path.is_file()
        assert path.is_relative_to(private_home), path
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700, path.parent
    assert "geometry" not in settings_file.read_text(encoding="utf-8")
    assert "geometry" in state_file.read_text(encoding="utf-8")
    assert "extra" in settings_file.read_text(encoding="utf-8")
    assert "added" not in state_file.read_text(encoding="utf-8")


def test_a_last_source_that_is_gone_is_skipped(open_window, args, tmp_path) -> None:
    other = make_persona_folder(tmp_path / "other")
    first = open_window([*args, "--persona", str(other)])
    select_source(first, "other")
    first.close()
    # The last source was "other"; it is not among the stores of this start.
    second = open_window(args)
    assert second.current_source() is not None
    assert second.current_source().path == Path(args[1])


def test_a_damaged_state_file_does_not_stop_the_window(open_window, args) -> None:
    state = state_dir() / "ui-state.ini"
    state.write_bytes(b"[window]\ngeometry=@ByteArray(garbage)\nsource=??\n\x00\xff[[[\n")
    window = open_window(args)
    assert window.current_source() is not None


def test_a_saved_size_that_hides_a_pane_is_never_restored_nor_saved(
    open_window, qtbot, args
) -> None:
    """A splitter saved squeezed (a list a row and a half high) comes back as the page made it."""
    from memory_desk.ui import settings as settings_module
    from memory_desk.ui.startup import MIN_PANE_PX, hides_a_pane

    squeezed = QSplitter(Qt.Orientation.Vertical)
    for _ in range(2):
        squeezed.addWidget(QWidget())
    squeezed.setSizes([24, 600])
    state = settings_module.ui_state()
    assert hides_a_pane(squeezed.saveState())
    state.setValue("splitters/reviewSplitter", squeezed.saveState())
    state.sync()
    window = open_window(args)
    window.show_page("review")
    review = splitter(window, "reviewSplitter")
    qtbot.waitUntil(lambda: review.isVisible())
    assert min(review.sizes()) >= MIN_PANE_PX, review.sizes()
    window.close()
    saved = settings_module.ui_state().value("splitters/reviewSplitter")
    assert not hides_a_pane(saved)
