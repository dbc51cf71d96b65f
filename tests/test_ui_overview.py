"""The Overview page in a real window, offscreen, driven by object names.

A database saved by the plugin's own rules (rows today, days ago, long ago, one forgotten, a
topic rewritten) and a persona folder are opened as a person would; the page fills off the main
thread once it is in front. The chart's bars hold what plain SQL finds for each local day; a
click, or Enter on the highlighted day, asks for that day; Enter on a topic or a large row asks
for that observation; nothing in the database changes because the page was read.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QItemSelectionModel, QPoint, Qt
from PySide6.QtGui import QColor, QHelpEvent
from PySide6.QtWidgets import QLabel, QTableWidget, QToolTip

from alisio_fixtures import agent_columns, plugin_connection
from memory_desk.core import alisio
from memory_desk.core.observations.overview import DAYS
from memory_desk.ui import theme
from memory_desk.ui.overview.charts import DailyChart
from ui_strings import marked_language, unnamed, untranslated
from window_helpers import agent_forget, agent_save, make_persona_folder

pytest_plugins = ["window_fixture"]  # the open_window fixture

DAY = 86_400_000
PROJECT = "alpha-1a2b3c4d"


def local_midnight(day: date) -> int:
    return int(datetime.combine(day, time.min).astimezone().timestamp() * 1000)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Saves spread over today, a few days ago and long ago, by the plugin's rules."""
    path = tmp_path / "alisio" / "memory.sqlite"
    path.parent.mkdir(parents=True)
    alisio.create_database(path)
    now = alisio.now_ms()
    saves = [
        ("decision", 0),
        ("decision", 0),
        ("bugfix", 0),
        ("pattern", 3 * DAY),
        ("bugfix", 3 * DAY),
        ("learning", 10 * DAY),
        ("config", (DAYS + 10) * DAY),  # older than the chart
    ]
    for n, (kind, ago) in enumerate(saves):
        agent_save(
            path,
            title=f"Note {n} {kind}",
            content=f"**What** note {n} " + "word " * (n * 40),
            type=kind,
            scope="personal" if n == 2 else "project",
            now=now - ago - n,
        )
    forgotten = agent_save(path, title="Dropped", content="**What** gone", now=now - 4 * DAY)
    agent_forget(path, forgotten.id, at=now - 4 * DAY + 1)
    for revision in range(3):
        agent_save(
            path,
            title=f"Auth flow v{revision}",
            content=f"**What** auth revision {revision}",
            topic_key="auth/flow",
            now=now - 2 * DAY + revision,
        )
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return make_persona_folder(tmp_path / ".miyagi" / "memory")


def open_overview(qtbot, open_window, db: Path, folder: Path | None = None):
    args = ["--db", str(db)] + (["--persona", str(folder)] if folder else [])
    window = open_window(args)
    window.resize(1280, 800)
    window.show_page("overview")
    page = window.overview_page
    qtbot.waitUntil(lambda: page.shown is not None and not page.is_loading(), timeout=10_000)
    return window, page


def chart(window) -> DailyChart:
    return window.findChild(DailyChart, "overviewDailyChart")


def oracle_days(db: Path, today: date) -> list[dict[str, int]]:
    """Per local day of the last 90, ``{type: count}`` from one range query per day."""
    found = []
    with plugin_connection(db) as conn:
        for n in range(DAYS):
            day = today - timedelta(days=DAYS - 1 - n)
            rows = conn.execute(
                "SELECT type, count(*) FROM observations WHERE created_at >= ? AND created_at < ?"
                " GROUP BY type",
                (local_midnight(day), local_midnight(day + timedelta(days=1))),
            ).fetchall()
            found.append(dict(rows))
    return found


def table_rows(window, name: str) -> list[list[str]]:
    view = window.findChild(QTableWidget, name)
    return [
        [view.item(r, c).text() for c in range(view.columnCount())] for r in range(view.rowCount())
    ]


def test_the_page_reads_nothing_until_it_comes_to_the_front(qtbot, open_window, db) -> None:
    window = open_window(["--db", str(db)])
    page = window.overview_page
    qtbot.wait(50)
    assert page.shown is None and not page.is_loading()
    window.show_page("overview")
    qtbot.waitUntil(lambda: page.shown is not None, timeout=10_000)


def test_the_chart_holds_what_sql_finds_for_each_local_day(qtbot, open_window, db) -> None:
    window, page = open_overview(qtbot, open_window, db)
    shown = chart(window)
    days = [shown.day(i) for i in range(shown.count())]
    assert len(days) == DAYS and days == sorted(days)
    assert [dict(d.by_type) for d in page.shown.days] == oracle_days(db, days[-1])
    # Six saves, the forgotten one and the topic's one row; not the one older than 90 days.
    assert sum(d.total for d in page.shown.days) == 8
    assert "config" not in page.shown.day_types


def test_clicking_a_day_asks_for_that_day(qtbot, open_window, db) -> None:
    window, page = open_overview(qtbot, open_window, db)
    shown = chart(window)
    busy = [i for i in range(shown.count()) if page.shown.days[i].total][0]
    rect = shown.bar_rect(busy)
    assert rect.height() > 0 and shown.rect().contains(rect)
    with qtbot.waitSignal(page.day_requested) as asked:
        qtbot.mouseClick(shown, Qt.MouseButton.LeftButton, pos=rect.center())
    assert asked.args == [shown.day(busy)]
    assert shown.highlighted() == busy
    empty = [i for i in range(shown.count()) if not page.shown.days[i].total][0]
    with qtbot.waitSignal(page.day_requested) as asked:  # an empty day's column: that day
        qtbot.mouseClick(shown, Qt.MouseButton.LeftButton, pos=shown.column_rect(empty).center())
    assert asked.args == [shown.day(empty)]


def test_the_keyboard_moves_the_highlighted_day_and_asks_for_it(qtbot, open_window, db) -> None:
    window, page = open_overview(qtbot, open_window, db)
    shown = chart(window)
    shown.setFocus()
    assert shown.focusPolicy() & Qt.FocusPolicy.TabFocus
    assert shown.highlighted() == DAYS - 1  # today
    qtbot.keyClick(shown, Qt.Key.Key_Home)
    qtbot.keyClick(shown, Qt.Key.Key_Right)
    assert shown.highlighted() == 1
    qtbot.keyClick(shown, Qt.Key.Key_End)
    qtbot.keyClick(shown, Qt.Key.Key_Left)
    with qtbot.waitSignal(page.day_requested) as asked:
        qtbot.keyClick(shown, Qt.Key.Key_Return)
    assert asked.args == [shown.day(DAYS - 2)]
    qtbot.keyClick(shown, Qt.Key.Key_PageUp)
    with qtbot.waitSignal(page.day_requested) as asked:
        qtbot.keyClick(shown, Qt.Key.Key_Space)
    assert asked.args == [shown.day(DAYS - 9)]
    # A screen reader hears what the chart holds and which day is highlighted.
    description = shown.accessibleDescription()
    assert "8 observations saved" in description
    assert shown.day_text(DAYS - 9).split("\n")[0] in description


def test_hovering_a_day_tells_its_count_per_type(qtbot, open_window, db) -> None:
    window, page = open_overview(qtbot, open_window, db)
    shown = chart(window)
    today = DAYS - 1
    centre = shown.column_rect(today).center()
    event = QHelpEvent(QEvent.Type.ToolTip, centre, shown.mapToGlobal(centre))
    shown.event(event)
    qtbot.waitUntil(QToolTip.isVisible)
    counts = dict(page.shown.days[today].by_type)
    assert QToolTip.text() == shown.day_text(today)
    assert f"decision: {counts['decision']}" in QToolTip.text().split("\n")
    QToolTip.hideText()
    outside = QPoint(1, 1)
    shown.event(QHelpEvent(QEvent.Type.ToolTip, outside, shown.mapToGlobal(outside)))
    qtbot.waitUntil(lambda: not QToolTip.isVisible())


def test_counts_by_type_project_and_scope_show_their_numbers(qtbot, open_window, db) -> None:
    window, page = open_overview(qtbot, open_window, db)
    with plugin_connection(db) as conn:
        live = " FROM observations WHERE deleted_at IS NULL GROUP BY "
        by_type = dict(conn.execute("SELECT type, count(*)" + live + "type").fetchall())
        by_scope = dict(conn.execute("SELECT scope, count(*)" + live + "scope").fetchall())
    assert {name: int(n) for name, n in table_rows(window, "overviewTypeCounts")} == by_type
    # The project by its name (its only checkout: no hash), the whole id on hover.
    assert table_rows(window, "overviewProjectCounts") == [["alpha", str(sum(by_type.values()))]]
    projects = window.findChild(QTableWidget, "overviewProjectCounts")
    assert projects.item(0, 0).toolTip() == PROJECT
    assert table_rows(window, "overviewScopeCounts") == [
        ["Project", str(by_scope["project"])],
        ["Personal", str(by_scope["personal"])],
    ]
    totals = window.findChild(QLabel, "overviewTotals").text()
    assert totals == f"{sum(by_type.values())} live observations · 0 pinned · 1 forgotten"


def test_a_topic_or_a_large_row_opens_that_observation(qtbot, open_window, db) -> None:
    window, page = open_overview(qtbot, open_window, db)
    with plugin_connection(db) as conn:
        topic_id = conn.execute("SELECT id FROM observations WHERE topic_key = 'auth/flow'")
        topic_id = topic_id.fetchone()[0]
        largest = [
            row[0]
            for row in conn.execute(
                "SELECT id FROM observations WHERE deleted_at IS NULL"
                " ORDER BY length(content) DESC, id DESC"
            )
        ]
    assert table_rows(window, "overviewTopics") == [
        ["auth/flow", "3", "Project", PROJECT, "Auth flow v2"]
    ]
    for name, expected in (("overviewTopics", topic_id), ("overviewLargest", largest[1])):
        view = window.findChild(QTableWidget, name)
        row = 0 if name == "overviewTopics" else 1
        view.setFocus()
        view.selectionModel().setCurrentIndex(
            view.model().index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        with qtbot.waitSignal(page.observation_requested) as asked:
            qtbot.keyClick(view, Qt.Key.Key_Return)
        assert asked.args == [expected]
    assert [row[0] for row in table_rows(window, "overviewLargest")][:2] == [
        "Note 6 config",
        "Note 5 learning",
    ]


def test_persona_folders_show_entries_size_and_problems(qtbot, open_window, db, folder) -> None:
    (folder / "Not An Entry Name.md").write_text("---\ndescription: x\n---\n\nbody\n")
    (folder / "no-header.md").write_text("Only a body, no header.\n")
    window, page = open_overview(qtbot, open_window, db, folder)
    qtbot.waitUntil(lambda: bool(page.shown_folders))
    [(name, entries, size, problems)] = table_rows(window, "overviewPersonaFolders")
    files = [p for p in folder.iterdir()]
    assert name == "miyagi" and entries == "4"
    assert page.shown_folders[0].bytes == sum(p.stat().st_size for p in files)
    assert int(problems) == page.shown_folders[0].problems >= 2
    assert size  # the locale's words for the size


def test_reading_the_page_changes_nothing_in_the_database(qtbot, open_window, db) -> None:
    window = open_window(["--db", str(db)])  # the observations page reads first: not counted
    qtbot.waitUntil(lambda: not window.observations_page.is_busy(), timeout=10_000)
    with plugin_connection(db) as watcher:
        files = [db, db.with_name(db.name + "-wal")]
        before = [p.read_bytes() for p in files]
        columns = agent_columns(db)
        version = watcher.execute("PRAGMA data_version").fetchone()[0]
        window.show_page("overview")
        page = window.overview_page
        qtbot.waitUntil(lambda: page.shown is not None, timeout=10_000)
        page.refresh()
        qtbot.waitUntil(lambda: not page.is_loading())
        assert watcher.execute("PRAGMA data_version").fetchone()[0] == version
        assert [p.read_bytes() for p in files] == before
        assert agent_columns(db) == columns


def test_the_page_fits_the_default_window_and_scrolls_in_a_small_one(
    qtbot, open_window, db, folder
) -> None:
    window, page = open_overview(qtbot, open_window, db, folder)
    qtbot.waitUntil(lambda: page.scroll.widget().width() > 0)
    assert page.scroll.horizontalScrollBar().maximum() == 0
    window.resize(760, 480)
    qtbot.waitUntil(lambda: page.scroll.verticalScrollBar().maximum() > 0)
    assert chart(window).height() >= chart(window).minimumSizeHint().height()


@pytest.mark.parametrize("name", ["light", "dark"])
def test_both_themes_paint_the_bars_in_the_types_colours(qtbot, open_window, db, name) -> None:
    window, page = open_overview(qtbot, open_window, db)
    theme.apply_theme(name)
    shown = chart(window)
    image = shown.grab().toImage()
    colours = theme.colors()
    today = shown.bar_rect(DAYS - 1)
    painted = {
        image.pixelColor(x, y).name()
        for x in range(today.left(), today.right() + 1)
        for y in range(today.top(), today.bottom() + 1)
    }
    assert QColor(colours.badge("decision")[0]).name() in painted
    assert QColor(colours.badge("bugfix")[0]).name() in painted
    page.grab()  # the tables and labels paint without a warning too


def test_nothing_on_the_page_is_untranslated_or_unnamed(qtbot, open_window, db, folder) -> None:
    with marked_language():
        window, page = open_overview(qtbot, open_window, db, folder)
        qtbot.waitUntil(lambda: bool(page.shown_folders))
        assert untranslated(page) == []
        assert unnamed(page) == []
        assert "⟦" in chart(window).accessibleName()
        assert "⟦" in chart(window).accessibleDescription()


def test_a_closed_database_leaves_the_page_empty(qtbot, open_window, db) -> None:
    window, page = open_overview(qtbot, open_window, db)
    page.set_store(None)
    assert page.shown is None
    qtbot.waitUntil(lambda: not page.is_loading())
    assert page.shown is None
    notice = window.findChild(QLabel, "overviewNotice")
    assert notice.isVisible() and "Open an Alisio database" in notice.text()
    assert not chart(window).isVisible()


def test_the_counts_keep_their_names_whole_at_1024_by_640(qtbot, open_window, db) -> None:
    """On a small screen the names stay readable and the bars take what is left (a stretched
    name column was squeezed to one letter)."""
    window, _page = open_overview(qtbot, open_window, db)
    window.resize(1024, 640)
    qtbot.wait(100)
    for name in ("overviewTypeCounts", "overviewProjectCounts", "overviewScopeCounts"):
        table = window.findChild(QTableWidget, name)
        metrics = table.fontMetrics()
        for row in range(table.rowCount()):
            text = table.item(row, 0).text()
            assert table.columnWidth(0) >= metrics.horizontalAdvance(text), (name, text)
        assert table.columnWidth(1) >= 40, name  # room for a bar and its number
        right = table.mapTo(window, table.rect().topRight()).x()
        assert right <= window.width(), name


def test_two_checkouts_of_one_project_keep_their_hashes() -> None:
    from memory_desk.ui.elide import project_names

    projects = ["shop-api-12307d9a", "shop-api-99a0b1c2", "garden-bbd98ac3", "plain"]
    assert project_names(projects) == ["shop-api-12307d9a", "shop-api-99a0b1c2", "garden", "plain"]
