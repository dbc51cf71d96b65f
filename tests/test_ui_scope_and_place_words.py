"""Where an observation lives, in the words the observations table uses, wherever it shows:
the detail pane's scope (Project / Personal, translated; the stored value stays the plugin's)
and the pruning tree's Where (a project's name, its hash only to tell two checkouts apart)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QTreeWidget

from memory_desk.core import alisio
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.model import Column
from window_helpers import NOW, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

DAY = 86_400_000
SHOP_HOME, SHOP_WORK = "shop-api-12307d9a", "shop-api-99a0b1c2"  # two checkouts of one name
GARDEN = "garden-bbd98ac3"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Each place holds the same advice saved twice (a pruning candidate): two checkouts
    of shop-api, one garden, and the personal scope."""
    path = tmp_path / "alisio" / "memory.sqlite"
    path.parent.mkdir()
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    try:
        for n, (project, scope) in enumerate(
            (
                (SHOP_HOME, "project"),
                (SHOP_WORK, "project"),
                (GARDEN, "project"),
                (GARDEN, "personal"),
            )
        ):
            for copy in range(2):
                alisio.save_observation(
                    conn,
                    title=f"Advice {n}.{copy}",
                    content=f"Keep the cache in WAL mode, place {n}.",
                    type="decision",
                    project=project,
                    scope=scope,
                    now=NOW - 2 * DAY + 10 * n + copy,
                )
    finally:
        conn.close()
    return path


def detail_scope(window) -> str:
    """The Scope value of the detail pane's facts."""
    meta = window.findChild(QLabel, "observationMeta").text()
    name = re.escape(translate("ObservationDetail", "Scope"))
    found = re.search(rf">{name}</td><td>([^<]*)</td>", meta)
    assert found is not None, meta
    return found.group(1)


@pytest.mark.parametrize(
    ("language", "words"), [("en", {"Project", "Personal"}), ("es", {"Proyecto", "Personal"})]
)
def test_the_detail_names_the_scope_as_the_table_does(
    qtbot, open_window, db: Path, language: str, words: set[str]
) -> None:
    window = open_window(["--lang", language, "--db", str(db)])
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == 8)
    shown = set()
    for row in range(view.model().rowCount()):
        view.selectRow(row)
        in_table = view.model().index(row, Column.SCOPE).data()
        qtbot.waitUntil(lambda: detail_scope(window) == in_table)  # noqa: B023 (waited here)
        shown.add(detail_scope(window))
    assert shown == words


def where_cells(tree: QTreeWidget) -> dict[str, str]:
    """Each candidate's Where as shown: its text, and the tooltip with the whole id."""
    cells = {}
    for g in range(tree.topLevelItemCount()):
        branch = tree.topLevelItem(g)
        for r in range(branch.childCount()):
            leaf = branch.child(r)
            cells[leaf.text(2)] = leaf.toolTip(2)
    return cells


def test_the_pruning_tree_names_projects_as_the_table_does(qtbot, open_window, db: Path) -> None:
    """A project's name, with its hash only where two checkouts share the name (the whole
    id in the tooltip); whole in its column."""
    window = open_window(["--db", str(db)])
    window.show_page("pruning")
    page = window.pruning_page
    qtbot.waitUntil(lambda: not page.is_busy() and page.findings is not None, timeout=20_000)
    tree = window.findChild(QTreeWidget, "pruningCandidates")
    cells = where_cells(tree)
    assert cells == {
        SHOP_HOME: "",
        SHOP_WORK: "",
        "garden": GARDEN,
        "personal": "",
    }
    metrics = tree.fontMetrics()
    assert tree.columnWidth(2) >= max(metrics.horizontalAdvance(text) for text in cells)
