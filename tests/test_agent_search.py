"""What the agent's ``memory_search`` would return (``ObservationStore.agent_search``).

The database is filled through the plugin's own save; the expected rows come from an
oracle over every row (the agent's rules as the plugin documents them: words under 3
characters ignored, each word anywhere in the six indexed columns, AND or OR, live rows of
the project or personal), not from the store's SQL.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from alisio_fixtures import agent_columns, plugin_connection, read_all
from memory_desk.core import alisio
from memory_desk.core.observations import AgentSearch, Observation, ObservationStore

P1 = "alpha-1a2b3c4d"
P2 = "beta-5e6f7a8b"
NOW = 1_790_000_000_000
DAY = 24 * 3600 * 1000

ROWS = [
    # title, content, project, scope, tool, type
    (
        "Cache the token",
        "**What** refresh the token cache in db",
        P1,
        "project",
        "memory_save",
        "decision",
    ),
    ("Token refresh", "**What** refresh hourly", P1, "project", "memory_save", "bugfix"),
    ("Cache sizes", "**What** the cache holds 100 entries", P2, "project", "memory_save", "config"),
    ("Personal cache habit", "likes a warm cache", P2, "personal", "memory_save", "preference"),
    ("Compaction notes", "**What** summary of the chat", P1, "project", "compaction", "learning"),
    ("Forgotten cache token", "cache token gone", P1, "project", "memory_save", "decision"),
    ("UI in db", "db ui io", P1, "project", "memory_save", "pattern"),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("agent") / "memory.sqlite"
    alisio.create_database(path)
    with plugin_connection(path) as conn:
        for i, (title, content, project, scope, tool, type_) in enumerate(ROWS):
            saved = alisio.save_observation(
                conn,
                title=title,
                content=content,
                type=type_,
                project=project,
                scope=scope,
                tool_name=tool,
                now=NOW - i * DAY,
            )
            if title.startswith("Forgotten"):
                conn.execute("UPDATE observations SET deleted_at = ? WHERE id = ?", (NOW, saved.id))
    return path


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    target = tmp_path / "memory.sqlite"
    target.write_bytes(template.read_bytes())
    return target


@pytest.fixture
def store(db: Path):
    with ObservationStore(db) as opened:
        yield opened


def oracle(
    db: Path, words: list[str], *, match: str = "all", project: str | None = None
) -> set[int]:
    """Rows the agent's rules match: each word in any of the six indexed columns."""

    def has(row: Observation, word: str) -> bool:
        columns = (row.title, row.content, row.tool_name, row.type, row.project, row.topic_key)
        return any(word.lower() in (value or "").lower() for value in columns)

    combine = all if match == "all" else any
    return {
        row.id
        for row in read_all(db)
        if not row.forgotten
        and (project is None or row.project == project or row.scope == "personal")
        and combine(has(row, word) for word in words)
    }


def ids(result: AgentSearch) -> set[int]:
    return {row.id for row in result.hits}


def test_short_words_are_ignored_where_the_persons_search_keeps_them(
    store: ObservationStore, db: Path
) -> None:
    result = store.agent_search("db cache", project=None)
    assert result.ignored_words == ("db",)
    assert result.fts_query == '"cache"'
    assert ids(result) == oracle(db, ["cache"])
    assert set(store.search_ids("db cache")) < ids(result)  # the person's search needs "db"
    nothing = store.agent_search("db ui io", project=P1)
    assert nothing == AgentSearch((), ("db", "ui", "io"), None)
    assert store.search_ids("db ui io")  # while the person's search finds the row


def test_words_are_counted_in_utf16_units_and_split_on_javascript_spaces(
    store: ObservationStore,
) -> None:
    duck = "\U0001f986"
    result = store.agent_search(f"{duck}\u3000ab\ufeff{duck}{duck} cache\u0085x", project=None)
    assert result.ignored_words == (duck, "ab")  # one emoji is 2 units: under 3
    assert result.fts_query == f'"{duck}{duck}" AND "cache\u0085x"'  # U+0085 is no space


def test_all_words_by_default_any_word_on_request(store: ObservationStore, db: Path) -> None:
    both = store.agent_search("cache token", project=None)
    assert both.fts_query == '"cache" AND "token"'
    assert ids(both) == oracle(db, ["cache", "token"])
    either = store.agent_search("cache token", project=None, match="any")
    assert either.fts_query == '"cache" OR "token"'
    assert ids(either) == oracle(db, ["cache", "token"], match="any")
    assert ids(both) < ids(either)
    with pytest.raises(ValueError, match="unknown match"):
        store.agent_search("cache", project=None, match="some")


def test_all_six_columns_are_searched(store: ObservationStore, db: Path) -> None:
    by_tool = store.agent_search("compaction", project=P1)
    assert ids(by_tool) == oracle(db, ["compaction"], project=P1)
    by_project = store.agent_search("beta-5e6f", project=None)
    assert ids(by_project) == oracle(db, ["beta-5e6f"]) != set()
    assert store.search_ids("beta-5e6f") == []  # the person's search reads title/content/topic


def test_project_scope_includes_personal_rows_unless_all_projects(
    store: ObservationStore, db: Path
) -> None:
    in_p1 = store.agent_search("cache", project=P1)
    assert ids(in_p1) == oracle(db, ["cache"], project=P1)
    assert {row.project for row in in_p1.hits if row.scope == "project"} == {P1}
    assert any(row.scope == "personal" and row.project == P2 for row in in_p1.hits)
    everywhere = store.agent_search("cache", project=P1, all_projects=True)
    assert (
        ids(everywhere) == oracle(db, ["cache"]) == ids(store.agent_search("cache", project=None))
    )
    assert ids(in_p1) < ids(everywhere)


def test_forgotten_rows_type_and_scope_filters(store: ObservationStore, db: Path) -> None:
    forgotten = next(row.id for row in read_all(db) if row.forgotten)
    assert forgotten not in ids(store.agent_search("cache token", project=None, match="any"))
    assert {r.type for r in store.agent_search("cache", project=None, type="config").hits} == {
        "config"
    }
    personal = store.agent_search("cache", project=None, scope="personal")
    assert {r.scope for r in personal.hits} == {"personal"}


def test_ranking_title_first_then_recency_and_limit(tmp_path: Path) -> None:
    db = tmp_path / "memory.sqlite"
    alisio.create_database(db)
    with plugin_connection(db) as conn:

        def save(title: str, content: str, at: int) -> int:
            return alisio.save_observation(
                conn, title=title, content=content, type="decision", project=P1, now=at
            ).id

        in_content = save("Other", "platypus facts", NOW)
        in_title = save("Platypus", "other facts", NOW - 300 * DAY)
        old_twin = save("Twin", "wombat", NOW - 300 * DAY)
        new_twin = save("Twin", "wombat", NOW)
        many = [save(f"Echidna {i}", f"echidna note {i}", NOW - i) for i in range(25)]
    with ObservationStore(db) as store:
        assert [r.id for r in store.agent_search("platypus", project=P1).hits] == [
            in_title,
            in_content,
        ]
        assert [r.id for r in store.agent_search("wombat", project=P1).hits] == [
            new_twin,
            old_twin,
        ]
        assert len(store.agent_search("echidna", project=P1).hits) == 10
        assert len(store.agent_search("echidna", project=P1, limit=50).hits) == 20
        assert len(store.agent_search("echidna", project=P1, limit=0).hits) == 1
        assert {r.id for r in store.agent_search("echidna", project=P1, limit=25).hits} < set(many)


def test_quotes_are_doubled_and_nothing_is_read_as_syntax(store: ObservationStore) -> None:
    result = store.agent_search('say "cache" NEAR(x) AND', project=None)
    assert result.fts_query == '"say" AND """cache""" AND "NEAR(x)" AND "AND"'
    assert result.hits == ()
    assert store.agent_search("ca\x00che", project=None).hits == ()


def test_searching_as_the_agent_changes_no_counter_and_writes_nothing(
    store: ObservationStore, db: Path
) -> None:
    before = agent_columns(db)
    version = store.data_version()
    store.agent_search("cache token", project=P1, match="any")
    store.agent_search("refresh", project=None, all_projects=True)
    assert agent_columns(db) == before
    assert store.data_version() == version
