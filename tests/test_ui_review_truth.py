"""The review inbox tells the truth, on a real window driven by object names, with the agents
as real processes (``tests/agents/``) and the journal at its usual place:

- its empty state says what the page will list and when it last looked (``reviewEmptyState``),
  and goes away while changes wait;
- the ✱ marks on the rows and entries the agent changed come from the journal's waiting
  changes, so a second window on the same data and journal shows the same marks and count;
- an agent-kit folder ``<agent-kit>/agents/miyagi/memory`` is "miyagi" in the sidebar (after a
  rescan and a restart too), in the review's rows and in the window's title.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractItemView, QLabel, QTreeWidget, QWidget

from journal_helpers import alisio_agent, persona_agent
from memory_desk.core.journal import Journal
from memory_desk.core.kinds import SourceKind
from memory_desk.core.locate import describe_folder, folder_label, store_label
from memory_desk.ui import dates, export
from memory_desk.ui.observations.row_format import Column
from test_review_window import child, looked
from test_ui_persona import write_entry
from window_helpers import NOW, agent_save, source_rows, wait_persona_read

pytest_plugins = ["window_fixture"]  # the open_window fixture

WAIT_MS = 20_000
MARK = "✱ "
ENTRIES = ("no-fish-puns", "likes-tea", "prefers-short-answers")
AGENT_PROJECT = "proj-12345678"  # where tests/agents/alisio_one_write.py saves


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Three rows saved by the plugin: #1 on the topic "db/engine", #2 and #3 without (in
    the project the agent process saves to, so its save on that topic revises #1)."""
    path = tmp_path / "alisio" / "memory.sqlite"
    path.parent.mkdir()
    from memory_desk.core import alisio

    alisio.create_database(path)
    save = {"project": AGENT_PROJECT}
    agent_save(path, title="Use SQLite", content="Simple.", topic_key="db/engine", now=NOW, **save)
    agent_save(path, title="Tabs", content="Indent with tabs.", now=NOW + 1, **save)
    agent_save(path, title="Small commits", content="Commit often.", now=NOW + 2, **save)
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An agent-kit agent's folder in its own tree: ``agent-kit/agents/miyagi/memory``."""
    path = tmp_path / "agent-kit" / "agents" / "miyagi" / "memory"
    path.mkdir(parents=True)
    write_entry(path, "no-fish-puns", "Dislikes puns about fish", body="Never tell fish puns.")
    write_entry(path, "likes-tea", "Drinks green tea", body="Green tea, no sugar.")
    return path


def review_rows(window) -> list[tuple[str, str, str, str]]:
    """(what, title, store, agent) per row of reviewList."""
    model = child(window, QAbstractItemView, "reviewList").model()
    return [tuple(model.index(r, c).data() for c in (1, 2, 3, 5)) for r in range(model.rowCount())]


def show_review(window) -> QWidget:
    child(window, QAction, "showReviewAction").trigger()
    return child(window, QWidget, "reviewPage")


def select_source(qtbot, window, kind: SourceKind, path: Path) -> None:
    source = window.registry.find(kind, path)
    assert source is not None, path
    window.sidebar.select(source)
    if kind == SourceKind.PERSONA:
        wait_persona_read(window)
    else:
        qtbot.waitUntil(lambda: not window.observations_page.is_busy(), timeout=WAIT_MS)


def observation_marks(qtbot, window, db: Path) -> dict[int, str]:
    """Each observation's title as the table shows it (the database shown first)."""
    select_source(qtbot, window, SourceKind.DB, db)
    model = window.observations_page.model
    qtbot.waitUntil(lambda: model.rowCount() == 4, timeout=WAIT_MS)
    return titles(window)


def titles(window) -> dict[int, str]:
    model = window.observations_page.model
    title = Column.TITLE
    return {model.id_at(r): model.index(r, title).data() for r in range(model.rowCount())}


def entry_marks(qtbot, window, folder: Path) -> dict[str, str]:
    """Each entry's name as the persona list shows it (the folder shown first)."""
    select_source(qtbot, window, SourceKind.PERSONA, folder)
    model = window.persona_page.model
    qtbot.waitUntil(lambda: all(model.row_of(n) >= 0 for n in ENTRIES), timeout=WAIT_MS)
    return names(window)


def names(window) -> dict[str, str]:
    model = window.persona_page.model
    return {n: model.index(model.row_of(n), 0).data() for n in ENTRIES}


def sidebar_waiting(window) -> dict[str, str]:
    """Each source's label and its count of changes to review, as the sidebar shows them."""
    tree = child(window, QTreeWidget, "sourcesList")
    groups = [tree.topLevelItem(g) for g in range(tree.topLevelItemCount())]
    items = [group.child(r) for group in groups for r in range(group.childCount())]
    return {item.text(0): item.text(2) for item in items}


def marked(texts: dict) -> set:
    return {key for key, text in texts.items() if text.startswith(MARK)}


# -- 1. the empty state says what the page is for ------------------------------------------


def test_the_empty_state_explains_the_page_and_when_it_last_looked(
    qtbot, open_window, db: Path
) -> None:
    window = open_window(["--db", str(db)])
    page = show_review(window)
    state = child(page, QLabel, "reviewEmptyState")
    assert state.isVisible()
    looked(qtbot, window)
    qtbot.waitUntil(lambda: "last looked" in state.text(), timeout=WAIT_MS)
    text = state.text()
    for words in ("observations and persona entries", "since you last looked", "roll it back"):
        assert words in text, words
    looked_ms = window.journal_runner.journal.looked_ms
    assert looked_ms is not None and dates.exact(looked_ms) in text
    assert child(page, QLabel, "reviewEmpty").isVisible()

    # changes wait: the list, not the explanation
    alisio_agent(db, "save", "Prefer rebase", "Rebase before merging.")
    qtbot.waitUntil(lambda: len(review_rows(window)) == 1, timeout=WAIT_MS)
    assert not state.isVisible()
    assert child(page, QAbstractItemView, "reviewList").isVisible()

    # reviewed: nothing waits, the explanation is back, with the newer look's time
    child(window, QAction, "reviewMarkAllReviewedAction").trigger()
    qtbot.waitUntil(state.isVisible, timeout=WAIT_MS)
    assert "roll it back" in state.text()
    last = window.journal_runner.journal.looked_ms
    assert last is not None and last >= looked_ms and dates.exact(last) in state.text()

    # the journal keeps that time: the next start says it before its own first look ends
    window.close()
    window.shutdown()
    journal = Journal(Journal.default_path())
    try:
        assert journal.looked_ms == last
    finally:
        journal.close()


# -- 2. the marks come from the journal: the same after a restart ----------------------------


def test_marks_and_count_are_the_same_in_a_second_window_on_the_same_journal(
    qtbot, qtmodeltester, open_window, db: Path, folder: Path
) -> None:
    args = ["--db", str(db), "--persona", str(folder)]
    first = open_window(args)
    looked(qtbot, first)
    wait_persona_read(first)

    # the agents, as processes of their own: a revision, a new row, a changed and a new entry
    alisio_agent(db, "save", "Use Postgres", "Postgres scales.", "--topic", "db/engine")
    alisio_agent(db, "save", "Prefer rebase", "Rebase before merging.")
    persona_agent(folder, "no-fish-puns", "feedback", "Likes puns about fish", "Fish puns!")
    persona_agent(folder, "prefers-short-answers", "feedback", "Short answers", "Be brief.")
    show_review(first)
    qtbot.waitUntil(lambda: len(review_rows(first)) == 4, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "4 changes to review" in first.windowTitle(), timeout=WAIT_MS)

    observation_marks(qtbot, first, db)
    qtbot.waitUntil(lambda: marked(titles(first)) == {1, 4}, timeout=WAIT_MS)
    assert "changed this row since you last looked" in window_tip(first, 1)
    assert "changed this row" not in window_tip(first, 2)
    qtmodeltester.check(first.observations_page.model)  # with its marks
    rows_before = titles(first)
    entry_marks(qtbot, first, folder)
    qtbot.waitUntil(lambda: marked(names(first)) == {"no-fish-puns", "prefers-short-answers"})
    entries_before = names(first)
    first.close()
    first.shutdown()

    second = open_window(args)
    looked(qtbot, second)
    qtbot.waitUntil(lambda: "4 changes to review" in second.windowTitle(), timeout=WAIT_MS)
    observation_marks(qtbot, second, db)
    qtbot.waitUntil(lambda: titles(second) == rows_before, timeout=WAIT_MS)
    entry_marks(qtbot, second, folder)
    qtbot.waitUntil(lambda: names(second) == entries_before, timeout=WAIT_MS)

    # reviewing takes the marks away, and the title's count with them
    show_review(second)
    child(second, QAction, "reviewMarkAllReviewedAction").trigger()
    qtbot.waitUntil(lambda: "to review" not in second.windowTitle(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: marked(names(second)) == set(), timeout=WAIT_MS)
    observation_marks(qtbot, second, db)
    qtbot.waitUntil(lambda: marked(titles(second)) == set(), timeout=WAIT_MS)


def window_tip(window, observation_id: int) -> str:
    model = window.observations_page.model
    index = model.index(model.row_of(observation_id), Column.TITLE)
    return index.data(Qt.ItemDataRole.ToolTipRole) or ""


# -- 3. one name per agent -------------------------------------------------------------------


def test_a_folder_is_named_by_its_agent_in_either_layout(tmp_path: Path) -> None:
    kit = tmp_path / "agent-kit" / "agents"
    assert folder_label(kit / "miyagi" / "memory") == "miyagi"
    assert folder_label(kit / "miyagi" / "memory" / "work") == "miyagi (work)"
    assert folder_label(tmp_path / ".miyagi" / "memory") == "miyagi"
    assert folder_label(tmp_path / ".padawan" / "memory" / "evening") == "padawan (evening)"
    assert folder_label(tmp_path / "notes") == "notes"
    assert folder_label(tmp_path / "notes" / "memory") == "memory"  # not an agent's place
    assert describe_folder(kit / "miyagi" / "memory").agent == "miyagi"
    assert store_label(SourceKind.PERSONA, kit / "miyagi" / "memory") == "miyagi"
    assert store_label(SourceKind.DB, tmp_path / "alisio" / "memory.sqlite") == (
        "alisio/memory.sqlite"
    )
    # an export's file name starts with the same agent
    assert export.folder_label(kit / "miyagi" / "memory") == "miyagi-memory"
    assert export.folder_label(tmp_path / ".miyagi" / "memory" / "work") == "miyagi-memory-work"


def test_the_agent_kit_folder_is_miyagi_in_the_sidebar_review_and_title(
    qtbot, open_window, folder: Path
) -> None:
    window = open_window(["--persona", str(folder)])
    looked(qtbot, window)
    wait_persona_read(window)
    assert [label for _g, label, _c in source_rows(window)] == ["miyagi"]
    qtbot.waitUntil(lambda: "miyagi" in window.windowTitle(), timeout=WAIT_MS)

    persona_agent(folder, "no-fish-puns", "feedback", "Likes puns about fish", "Fish puns!")
    show_review(window)
    qtbot.waitUntil(lambda: len(review_rows(window)) == 1, timeout=WAIT_MS)
    assert review_rows(window) == [("± changed", "no-fish-puns", "miyagi", "miyagi")]
    assert "miyagi" in window.windowTitle() and "1 change to review" in window.windowTitle()

    # a rescan (the sources' periodic look, with a recount) keeps the name
    window.registry.refresh()
    assert [label for _g, label, _c in source_rows(window)] == ["miyagi"]
    window.close()
    window.shutdown()

    # a restart, the folder found again from the person's added folders or arguments
    second = open_window(["--persona", str(folder)])
    looked(qtbot, second)
    show_review(second)
    qtbot.waitUntil(lambda: len(review_rows(second)) == 1, timeout=WAIT_MS)
    assert review_rows(second) == [("± changed", "no-fish-puns", "miyagi", "miyagi")]
    assert [label for _g, label, _c in source_rows(second)] == ["miyagi"]
    assert sidebar_waiting(second) == {"miyagi": "✱1"}
    assert "miyagi" in second.windowTitle()


def test_a_closed_folders_changes_are_still_named_by_its_agent(
    qtbot, open_window, db: Path, folder: Path
) -> None:
    """A change of a folder not open in this window: the review names it as the sidebar
    would, by its agent, not by the folder's own name ("memory")."""
    first = open_window(["--db", str(db), "--persona", str(folder)])
    looked(qtbot, first)
    wait_persona_read(first)
    persona_agent(folder, "likes-tea", "user", "Drinks black tea", "Black tea.")
    show_review(first)
    qtbot.waitUntil(lambda: len(review_rows(first)) == 1, timeout=WAIT_MS)
    first.close()
    first.shutdown()

    second = open_window(["--db", str(db)])
    looked(qtbot, second)
    show_review(second)
    qtbot.waitUntil(lambda: len(review_rows(second)) == 1, timeout=WAIT_MS)
    assert review_rows(second) == [("± changed", "likes-tea", "miyagi", "miyagi")]
