"""The observations filter bar folds in two when narrow: the search field keeps room to type."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLineEdit

from memory_desk.ui.observations.filters import SEARCH_ROOM_PX
from window_helpers import make_database

pytest_plugins = ["window_fixture"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_search_keeps_its_room_at_1024_and_the_bar_is_one_line_when_wide(
    qtbot, open_window, tmp_path, language
) -> None:
    db = make_database(tmp_path / "memory.sqlite")
    window = open_window(["--lang", language, "--db", str(db)])
    bar = window.observations_page.filters
    search = window.findChild(QLineEdit, "observationsSearch")
    window.resize(1024, 640)
    qtbot.waitUntil(lambda: search.width() >= SEARCH_ROOM_PX)
    folded_at_1024 = bar.rows.is_folded()
    window.resize(1900, 1000)
    qtbot.waitUntil(lambda: not bar.rows.is_folded())
    qtbot.waitUntil(lambda: abs(search.y() - bar.type_button.y()) < 8)  # one line
    assert search.width() >= SEARCH_ROOM_PX
    if language == "es":  # Spanish words do not fit beside the search at 1024
        assert folded_at_1024
        window.resize(1024, 640)
        qtbot.waitUntil(lambda: bar.type_button.y() > search.y() + search.height() // 2)
        assert bar.rows.is_folded() and search.width() >= SEARCH_ROOM_PX
