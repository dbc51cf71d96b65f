"""The new pages of the window and the ways one page shows something of another.

A real window on a real database (the plugin's DDL and save rules), driven by object names:
the View actions bring each page; a page of the database stays in front when the person picks
another database; the Observation menu opens the current row's chat and timeline; a day of the
Overview's chart filters the table to exactly the rows saved that local day.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QToolButton

from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore
from window_helpers import make_database, make_persona_folder, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

DAY = date(2026, 11, 20)


def _local_ms(day: date, hour: int, minute: int = 0) -> int:
    return int(datetime.combine(day, time(hour, minute)).astimezone().timestamp() * 1000)


@pytest.fixture
def days_db(tmp_path: Path) -> Path:
    """Rows saved on the day before, at the first and last minute of DAY, and the day after;
    one of DAY's rows is forgotten (the chart counts every save)."""
    path = tmp_path / "alisio" / "memory.sqlite"
    path.parent.mkdir(parents=True)
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    saves = [
        ("Late the day before", DAY - timedelta(days=1), 23, 59),
        ("Just after midnight", DAY, 0, 0),
        ("Middle of the day", DAY, 12, 30),
        ("Last minute of the day", DAY, 23, 59),
        ("Next morning", DAY + timedelta(days=1), 0, 0),
    ]
    ids = {}
    try:
        for title, day, hour, minute in saves:
            ids[title] = alisio.save_observation(
                conn,
                title=title,
                content=f"**What** {title}",
                type="decision",
                project="alpha-1a2b3c4d",
                scope="project",
                session_id=f"chat-{day.isoformat()}",
                now=_local_ms(day, hour, minute),
            ).id
        conn.execute(
            "UPDATE observations SET deleted_at = ? WHERE id = ?",
            (_local_ms(DAY + timedelta(days=2), 9), ids["Middle of the day"]),
        )
    finally:
        conn.close()
    return path


def test_store_filters_one_local_day_against_sql(days_db: Path) -> None:
    start = _local_ms(DAY, 0)
    end = _local_ms(DAY + timedelta(days=1), 0)
    with ObservationStore(days_db) as store:
        got = store.search_ids(include_forgotten=True, created_between=(start, end))
        assert store.count(include_forgotten=True, created_between=(start, end)) == 3
        live = store.search_ids(created_between=(start, end))
    conn = alisio.connect_like_plugin(days_db)
    try:
        expected = {
            row[0]
            for row in conn.execute(
                "SELECT id FROM observations WHERE created_at >= ? AND created_at < ?",
                (start, end),
            )
        }
    finally:
        conn.close()
    assert set(got) == expected and len(expected) == 3
    assert len(live) == 2  # the forgotten one only with include_forgotten


def test_show_day_filters_the_table_and_the_chip_clears_it(open_window, days_db: Path, qtbot):
    window = open_window(["--db", str(days_db)])
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == 4)  # live rows
    asked = window.observations_page.queries.runner.generation
    window.overview_page.day_requested.emit(DAY)
    assert window.current_page_name() == "observations"
    assert window.observations_page.queries.runner.generation == asked + 1  # one query
    qtbot.waitUntil(lambda: view.model().rowCount() == 3)
    with ObservationStore(days_db) as store:
        titles = {o.title for o in store.get_many(window.observations_page.model.ids()).values()}
    assert titles == {"Just after midnight", "Middle of the day", "Last minute of the day"}
    chip = window.findChild(QToolButton, "savedOnFilter")
    assert chip.isVisible() and chip.font().bold()
    chip.click()
    assert not chip.isVisible()
    qtbot.waitUntil(lambda: view.model().rowCount() == 5)  # every day, forgotten still shown


def test_view_actions_bring_each_page_and_a_database_page_stays(
    open_window, tmp_path: Path, qtbot
) -> None:
    first = make_database(tmp_path / "a" / "memory.sqlite", ("One",))
    second = make_database(tmp_path / "b" / "memory.sqlite", ("Two", "Three"))
    folder = make_persona_folder(tmp_path / "persona")
    window = open_window(["--db", str(first), "--persona", str(folder)])
    assert window.open_database(second)
    names = {
        "showChatsAction": "chats",
        "showOverviewAction": "overview",
        "showPruningAction": "pruning",
        "showObservationsAction": "observations",
        "showPersonaAction": "persona",
    }
    for action_name, page in names.items():
        action = window.findChild(QAction, action_name)
        assert not action.shortcut().isEmpty()
        action.trigger()
        assert window.current_page_name() == page
    window.show_page("chats")
    db_sources = [s for s in window.registry.sources() if s.kind == "db"]
    other = next(s for s in db_sources if s is not window.current_source())
    window.sidebar.select(other)
    assert window.current_page_name() == "chats"  # the database page chosen stays
    assert window.chats_page.store is other.store
    window.show_page("pruning")
    persona = next(s for s in window.registry.sources() if s.kind == "persona")
    window.sidebar.select(persona)
    assert window.current_page_name() == "pruning"  # the assistant prunes the folder now
    assert window.pruning_page.source is persona.store
    window.show_page("overview")
    assert window.current_source().kind == "db"
    assert [f for f in window.overview_page.folders] == [persona.store]


def test_observation_menu_opens_its_chat_and_timeline(open_window, days_db: Path, qtbot):
    window = open_window(["--db", str(days_db)])
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() == 4)
    page = window.observations_page
    chat = window.findChild(QAction, "openChatAction")
    timeline = window.findChild(QAction, "timelineAction")
    view.selectRow(0)
    qtbot.waitUntil(lambda: page.detail.shown is not None)
    shown = page.detail.shown
    assert chat.isEnabled() and timeline.isEnabled()
    asked: list[object] = []
    page.open_chat_requested.connect(asked.append)
    page.timeline_requested.connect(asked.append)
    chat.trigger()
    assert asked == [shown.session_id]
    assert window.current_page_name() == "chats"
    window.show_page("observations")
    timeline.trigger()
    assert asked == [shown.session_id, shown.id]
    assert window.current_page_name() == "chats"


def test_the_next_chat_uses_the_budget_of_the_databases_own_config(open_window, qtbot) -> None:
    """The demo's home has its own Alisio config (injectBudgetTokens 2400): the window passes
    what it read of it to the Chats page, as for a database Memory Desk found by itself."""
    from memory_desk.core.observations import next_context as nc

    window = open_window(["--demo"])
    window.show_page("chats")
    page = window.chats_page
    qtbot.waitUntil(lambda: page.model.rowCount() > 0, timeout=10_000)
    page.show_chat(str(page.model.index(0, 0).data(0x0100)))
    panel = page.detail.next_context
    qtbot.waitUntil(lambda: panel.shown_preview is not None and not panel.is_busy(), timeout=10_000)
    budget = panel.shown_preview.budget
    assert (budget.tokens, budget.source) == (2400, nc.BUDGET_CONFIGURED)
