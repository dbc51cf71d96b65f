"""The Overview's figures against real plugin-built databases and a real persona folder.

Every expected number comes from SQL or file listings written here, independently of the
module's own queries: the chart's days from one plain ``created_at`` range per local day
(bounds computed with zoneinfo), the counts from plain ``WHERE``/``GROUP BY`` statements.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from datetime import time as clock
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from alisio_fixtures import (
    PROJECTS,
    add_observation,
    agent_columns,
    build_database,
    copy_database,
    plugin_connection,
)
from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.overview import (
    DAYS,
    FolderOverview,
    folder_overview,
    folder_overviews,
    overview,
)
from memory_desk.core.persona import PersonaFolder
from persona_corpus import build_corpus
from window_helpers import make_persona_folder

MADRID = ZoneInfo("Europe/Madrid")  # clocks go back on 2026-10-25: that day has 25 hours
# The span ending here holds that day and the spring change is outside it.
TODAY = date(2026, 11, 20)
FIRST = TODAY - timedelta(days=DAYS - 1)
HOUR = 3_600_000


def midnight(day: date, tz: ZoneInfo = MADRID) -> int:
    return int(datetime.combine(day, clock.min, tzinfo=tz).timestamp() * 1000)


def oracle_days(path: Path, tz: ZoneInfo = MADRID, today: date = TODAY) -> list[dict[str, int]]:
    """Per day of the span, ``{type: count}`` from one range query per day."""
    days = [today - timedelta(days=DAYS - 1 - n) for n in range(DAYS)]
    found = []
    with plugin_connection(path) as conn:
        for day in days:
            rows = conn.execute(
                "SELECT type, count(*) FROM observations WHERE created_at >= ? AND created_at < ?"
                " GROUP BY type",
                (midnight(day, tz), midnight(day + timedelta(days=1), tz)),
            ).fetchall()
            found.append(dict(rows))
    return found


def counts(path: Path, sql: str) -> dict:
    with plugin_connection(path) as conn:
        return dict(conn.execute(sql).fetchall())


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Rows across the span (and outside it) saved at the hours that catch a wrong day:
    both sides of every local midnight near the clock change, the span's edges, the future."""
    path = build_database(tmp_path_factory.mktemp("overview") / "memory.sqlite")
    kinds = alisio.OBSERVATION_TYPES
    n = 0

    def add(at: int, **values) -> int:
        nonlocal n
        n += 1
        values.setdefault("type", kinds[n % len(kinds)])
        values.setdefault("project", PROJECTS[n % len(PROJECTS)])
        return add_observation(path, title=f"Row {n}", created_at=at, **values)

    for offset in range(0, DAYS + 3):  # a row every day at 13:00 local, before and after
        add(midnight(FIRST - timedelta(days=1) + timedelta(days=offset)) + 13 * HOUR)
    change = date(2026, 10, 25)
    for day in (change - timedelta(days=1), change, change + timedelta(days=1)):
        add(midnight(day))  # the first millisecond of the day is that day's
        add(midnight(day) - 1)  # the last of the day before is not
        add(midnight(day) + 23 * HOUR + 30 * 60_000)  # 23:30 local (on the 25th: 22:30 + 1h)
    add(midnight(FIRST))  # the span's first millisecond
    add(midnight(FIRST) - 1)  # just older than the span
    add(midnight(TODAY + timedelta(days=1)) - 1)  # the span's last millisecond
    add(midnight(TODAY + timedelta(days=1)))  # the future
    add(midnight(TODAY) + HOUR, deleted_at=midnight(TODAY) + 2 * HOUR)  # forgotten: still saved
    add(midnight(TODAY) + 3 * HOUR, pinned=True, scope="personal")
    add(midnight(TODAY) + 4 * HOUR, pinned=True, deleted_at=midnight(TODAY) + 5 * HOUR)
    add(midnight(TODAY) + 6 * HOUR, type="newer-plugin-type")
    return path


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return copy_database(template, tmp_path / "memory.sqlite")


@pytest.fixture
def store(db: Path) -> Iterator[ObservationStore]:
    with ObservationStore(db) as opened:
        yield opened


def test_saved_per_day_matches_one_range_query_per_local_day(store: ObservationStore, db: Path):
    figures = overview(store, today=TODAY, tz=MADRID)
    assert [d.day for d in figures.days] == [FIRST + timedelta(days=n) for n in range(DAYS)]
    assert [dict(d.by_type) for d in figures.days] == oracle_days(db)
    # The span's edges and the 25-hour day are where an offset mistake shows.
    assert figures.days[0].total == 2  # 13:00 and the first millisecond; not the one before
    assert figures.days[-1].total == 6  # forgotten rows too; not the future one
    change = [d for d in figures.days if d.day == date(2026, 10, 25)][0]
    # Its first and last milliseconds, and two rows between; the millisecond before its
    # midnight is the 24th's.
    assert change.total == 4


def test_the_days_follow_the_zone_given_and_the_system_zone_by_default(
    store: ObservationStore, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    figures = overview(store, today=TODAY, tz=tokyo)
    assert [dict(d.by_type) for d in figures.days] == oracle_days(db, tokyo)
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        local = overview(store, today=TODAY)
    finally:
        monkeypatch.undo()
        time.tzset()
    new_york = [dict(d.by_type) for d in local.days]
    assert new_york == oracle_days(db, ZoneInfo("America/New_York"))
    assert new_york != oracle_days(db, tokyo)


def test_the_stacks_follow_the_plugins_type_order_then_others(store: ObservationStore) -> None:
    figures = overview(store, today=TODAY, tz=MADRID)
    assert figures.day_types == (*alisio.OBSERVATION_TYPES, "newer-plugin-type")
    for day in figures.days:
        order = [kind for kind, _ in day.by_type]
        assert order == [kind for kind in figures.day_types if kind in order]


def test_counts_by_type_project_and_scope_are_of_live_rows(store: ObservationStore, db: Path):
    figures = overview(store, today=TODAY, tz=MADRID)
    live = " FROM observations WHERE deleted_at IS NULL GROUP BY "
    assert dict(figures.by_type) == counts(db, "SELECT type, count(*)" + live + "type")
    assert dict(figures.by_project) == counts(db, "SELECT project, count(*)" + live + "project")
    assert dict(figures.by_scope) == counts(db, "SELECT scope, count(*)" + live + "scope")
    assert dict(figures.by_scope)["personal"] == 1
    for pairs in (figures.by_type, figures.by_project, figures.by_scope):
        assert [n for _, n in pairs] == sorted((n for _, n in pairs), reverse=True)


def test_totals_count_pinned_among_live_rows_and_every_forgotten_one(
    store: ObservationStore, db: Path
) -> None:
    figures = overview(store, today=TODAY, tz=MADRID)
    with plugin_connection(db) as conn:
        total, live, forgotten, pinned = conn.execute(
            "SELECT count(*), sum(deleted_at IS NULL), sum(deleted_at IS NOT NULL),"
            " sum(pinned AND deleted_at IS NULL) FROM observations"
        ).fetchone()
    assert (figures.total, figures.live, figures.forgotten, figures.pinned) == (
        total,
        live,
        forgotten,
        pinned,
    )
    assert figures.pinned == 1  # the forgotten pinned row is not in the agent's context


def test_most_revised_topics_are_live_rewritten_rows_most_revisions_first(tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite")
    conn = alisio.connect_like_plugin(path)
    saves = {"auth/refresh": 4, "db/wal": 2, "ui/theme": 1, "build/old": 5, "db/tie": 2}
    try:
        for minute, (topic, times) in enumerate(saves.items()):
            for n in range(times):
                alisio.save_observation(
                    conn,
                    title=f"{topic} v{n}",
                    content=f"**What** {topic} version {n}",
                    type="decision",
                    project=PROJECTS[0],
                    topic_key=topic,
                    now=1_790_000_000_000 + minute * 60_000 + n,
                )
        conn.execute("UPDATE observations SET deleted_at = 1 WHERE topic_key = 'build/old'")
        ids = dict(conn.execute("SELECT topic_key, id FROM observations").fetchall())
    finally:
        conn.close()
    with ObservationStore(path) as store:
        topics = overview(store).topics
    # ui/theme was never rewritten; build/old is forgotten. The tie: the newer save first.
    assert [(t.topic_key, t.revision_count) for t in topics] == [
        ("auth/refresh", 4),
        ("db/tie", 2),
        ("db/wal", 2),
    ]
    assert [t.id for t in topics] == [ids["auth/refresh"], ids["db/tie"], ids["db/wal"]]
    assert topics[0].title == "auth/refresh v3"
    with ObservationStore(path) as store:
        assert len(overview(store, topics_limit=1).topics) == 1


def test_largest_are_live_rows_by_length_in_characters(tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite")
    short = add_observation(path, title="short", content="x" * 10)
    emoji = add_observation(path, title="emoji", content="😀" * 300)  # 600 UTF-16 units
    long = add_observation(path, title="long", content="y" * 500)
    add_observation(path, title="forgotten", content="z" * 5000, deleted_at=1)
    tie = add_observation(path, title="tie", content="w" * 10)
    with ObservationStore(path) as store:
        largest = overview(store).largest
        assert [(o.id, o.length) for o in largest] == [
            (long, 500),
            (emoji, 300),  # SQLite counts characters, not UTF-16 units (said in the module)
            (tie, 10),
            (short, 10),
        ]
        assert len(overview(store, largest_limit=2).largest) == 2


def test_reading_the_overview_changes_no_byte_counter_or_version(
    store: ObservationStore, db: Path
) -> None:
    files = [db, db.with_name(db.name + "-wal")]
    before = [p.read_bytes() if p.exists() else None for p in files]
    columns = agent_columns(db)
    with plugin_connection(db) as watcher:
        version = watcher.execute("PRAGMA data_version").fetchone()[0]
        for _ in range(3):
            overview(store, today=TODAY, tz=MADRID)
        assert watcher.execute("PRAGMA data_version").fetchone()[0] == version
    assert [p.read_bytes() if p.exists() else None for p in files] == before
    assert agent_columns(db) == columns
    assert not store._db.current().in_transaction  # the read transaction was closed


def test_an_empty_database_has_ninety_empty_days(tmp_path: Path) -> None:
    with ObservationStore(build_database(tmp_path / "memory.sqlite", versions=(100,))) as store:
        figures = overview(store, today=TODAY, tz=MADRID)
    assert (figures.total, figures.live, figures.by_type, figures.topics) == (0, 0, (), ())
    assert len(figures.days) == DAYS and all(d.total == 0 for d in figures.days)
    assert figures.day_types == ()


def test_persona_folder_numbers_on_the_corpus(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    expected = build_corpus(folder, tmp_path / "outside")
    sizes = 0
    for name in expected:
        with contextlib.suppress(OSError):  # the broken link holds nothing
            sizes += os.stat(folder / f"{name}.md").st_size  # what each entry's file holds
    persona = PersonaFolder(folder, trash=tmp_path / "trash")
    found = folder_overview(persona)
    assert found.entries == len(expected)
    assert found.bytes == sizes
    assert found.entries_with_problems == sum(bool(e.problems) for e in expected.values())
    assert found.folder_problems == len(persona.problems()) > 0  # folder-named.md/ at least
    assert found.problems == found.entries_with_problems + found.folder_problems
    assert found.error is None


def test_persona_folders_are_read_through_a_copy_and_a_missing_one_says_so(tmp_path: Path):
    good = make_persona_folder(tmp_path / ".miyagi" / "memory")
    gone = make_persona_folder(tmp_path / ".padawan" / "memory", names=("likes-tea",))
    folders = [PersonaFolder(good, trash=tmp_path / "t"), PersonaFolder(gone, trash=tmp_path / "t")]
    for entry in gone.iterdir():
        entry.unlink()
    gone.rmdir()
    first, second = folder_overviews(folders)
    assert first == FolderOverview(good, 2, sum(p.stat().st_size for p in good.iterdir()), 0, 0)
    assert second.error and second.entries == 0
    assert folders[0].entry_count() is None  # the page's own folder object never listed


def test_the_figures_take_the_same_few_statements_at_any_size(tmp_path: Path) -> None:
    """Not timed: the statements are counted (set-based: none per row or per day)."""
    path = build_database(tmp_path / "memory.sqlite", 2_000, seed=3)
    with ObservationStore(path) as store:
        statements: list[str] = []
        store._db.current().set_trace_callback(statements.append)
        overview(store)
        store._db.current().set_trace_callback(None)
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 5, statements
