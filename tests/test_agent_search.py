"""What the agent's ``memory_search`` would return (``ObservationStore.agent_search``).

The database is filled through the plugin's own save; the expected rows come from an
oracle over every row (the agent's rules as the plugin documents them in FORMATS.md: runs of letters, digits and ``_``, lower-cased,
words under 3 characters ignored, each word anywhere in the six indexed columns, AND or OR,
live rows of the project or personal), not from the store's SQL. The order is checked
against the plugin's own statement (``store.ts`` ``search``, verbatim) and ``rankScore``
worked by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from alisio_fixtures import agent_columns, plugin_connection, read_all
from memory_desk.core import alisio
from memory_desk.core.observations import AgentSearch, Observation, ObservationStore
from memory_desk.core.observations import agent_search as agent

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
    # No word left: "all" finds nothing, so the tool (asked without a mode) tries "any".
    assert nothing == AgentSearch((), ("db", "ui", "io"), None, "any")
    assert store.search_ids("db ui io")  # while the person's search finds the row


def test_words_are_runs_of_letters_digits_and_underscores_lower_cased(
    store: ObservationStore,
) -> None:
    duck = "\U0001f986"
    # Worked by hand: lower-cased; the emoji, U+3000, U+FEFF, U+0085 and the punctuation
    # separate words; "ab" and "x" are under 3 units; "lock" and "cache" come once.
    result = store.agent_search(
        f"{duck}\u3000AB\ufeff{duck}Lock-leak? lock_leak LOCK cache\u0085x CACHE",
        project=None,
        match="all",
    )
    assert result.ignored_words == ("ab", "x")
    assert result.fts_query == '"lock" AND "leak" AND "lock_leak" AND "cache"'
    assert agent.split_words("Lock-leak? LOCK") == (["lock", "leak"], [], [])


def test_word_characters_are_unicode_letters_and_numbers_not_pythons_word_class() -> None:
    # A combining accent (U+0301, a mark) is neither a letter nor a number: it splits.
    assert agent.split_words("cafe\u0301s") == (["cafe"], ["s"], [])
    # "İ" lower-cases to "i" + U+0307 (a mark) in JavaScript as in Python: "İZMİR" is
    # "i", "zmi", "r". Numbers of every kind count ("½" is No, "٣" is Nd).
    assert agent.split_words("İZMİR ½½½ ٣٣٣") == (["zmi", "½½½", "٣٣٣"], ["i", "r"], [])
    # An emoji is no letter: no word at all. A letter outside the BMP (U+1D400, Lu) is a
    # letter of 2 UTF-16 units: with "a" it makes 3, enough; alone it is too short.
    bold_a = "\U0001d400"
    assert agent.split_words(f"\U0001f986\U0001f986 a{bold_a} {bold_a}") == (
        [f"a{bold_a}"],
        [bold_a],
        [],
    )


def test_punctuation_only_finds_nothing(store: ObservationStore) -> None:
    result = store.agent_search("?!-- ... ''", project=P1)
    assert result == AgentSearch((), (), None, "any")
    assert store.agent_search("?!--", project=P1, match="all") == AgentSearch((), (), None, "all")


def test_only_the_first_16_distinct_words_are_searched(store: ObservationStore) -> None:
    words = [f"w{n:02d}" for n in range(1, 21)]
    result = store.agent_search(" ".join(["cache", "cache", *words]), project=None, match="any")
    searched = ["cache", *words[:15]]
    assert result.fts_query == " OR ".join(f'"{w}"' for w in searched)
    assert result.unused_words == tuple(words[15:])
    assert result.match == "any"


def test_all_words_by_default_any_word_on_request(store: ObservationStore, db: Path) -> None:
    both = store.agent_search("cache token", project=None)
    assert both.fts_query == '"cache" AND "token"' and both.match == "all"
    assert ids(both) == oracle(db, ["cache", "token"])
    either = store.agent_search("cache token", project=None, match="any")
    assert either.fts_query == '"cache" OR "token"' and either.match == "any"
    assert ids(either) == oracle(db, ["cache", "token"], match="any")
    assert ids(both) < ids(either)
    with pytest.raises(ValueError, match="unknown match"):
        store.agent_search("cache", project=None, match="some")


def test_all_six_columns_are_searched(store: ObservationStore, db: Path) -> None:
    by_tool = store.agent_search("compaction", project=P1)
    assert ids(by_tool) == oracle(db, ["compaction"], project=P1)
    by_project = store.agent_search("beta-5e6f", project=None)
    assert by_project.fts_query == '"beta" AND "5e6f"'  # the dash separates words
    assert ids(by_project) == oracle(db, ["beta", "5e6f"]) != set()
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
        assert len(store.agent_search("echidna", project=P1).hits) == 8  # the tool's default
        assert len(store.agent_search("echidna", project=P1, limit=50).hits) == 20
        assert len(store.agent_search("echidna", project=P1, limit=0).hits) == 1
        assert {r.id for r in store.agent_search("echidna", project=P1, limit=25).hits} < set(many)


def test_quotes_and_operators_are_never_read_as_syntax(store: ObservationStore) -> None:
    result = store.agent_search('say "cache" NEAR(x) AND', project=None, match="all")
    assert result.fts_query == '"say" AND "cache" AND "near" AND "and"'
    assert result.hits == ()
    split = store.agent_search("ca\x00che", project=None)  # a NUL separates words too
    assert split.ignored_words == ("ca",) and split.fts_query == '"che"'


# The plugin's statement (store.ts ``search``), verbatim but for the named parameter.
PLUGIN_SEARCH = (
    "SELECT o.*, bm25(observations_fts, 5.0, 1.0, 0.5, 0.5, 0.2, 2.0) AS rank FROM observations_fts"
    " JOIN observations o ON o.id = observations_fts.rowid WHERE observations_fts MATCH ?"
    " AND o.deleted_at IS NULL AND (o.project=? OR o.scope='personal') ORDER BY rank LIMIT 100"
)


def plugin_order(db: Path, match: str, project: str, now: int, limit: int = 8) -> list[int]:
    """The plugin's rows for ``match``: its statement, then ``rankScore`` written out here
    from FORMATS.md and a stable sort, best first."""
    import math
    import sqlite3

    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        rows = conn.execute(PLUGIN_SEARCH, (match, project)).fetchall()
    finally:
        conn.close()

    def score(row: sqlite3.Row) -> float:
        age_days = max(0, now - row["updated_at"]) / 86_400_000
        return (
            max(-row["rank"], 1e-9)
            * (0.6 + 0.4 * math.exp(-age_days / 30))
            * (1 + 0.05 * math.log(1 + row["access_count"]))
        )

    return [row["id"] for row in sorted(rows, key=score, reverse=True)][:limit]


def test_rank_score_worked_by_hand() -> None:
    month = 30 * DAY
    # Fresh, never opened: the bm25 alone (weight 0.6 + 0.4 = 1).
    assert agent.rank_score(-3.0, NOW, 0, NOW) == pytest.approx(3.0)
    assert agent.rank_score(-3.0, NOW + DAY, 0, NOW) == pytest.approx(3.0)  # no negative age
    # 30 days old: 0.6 + 0.4 / e.
    assert agent.rank_score(-2.0, NOW - month, 0, NOW) == pytest.approx(2.0 * 0.7471517764685769)
    # Opened 9 times: 1 + 0.05 * ln(10).
    assert agent.rank_score(-1.0, NOW, 9, NOW) == pytest.approx(1.1151292546497023)
    # A bm25 of 0 or above is floored at 1e-9.
    assert agent.rank_score(0.5, NOW, 0, NOW) == 1e-9


def test_order_is_the_plugins_rank_score_with_ties_in_sql_order(tmp_path: Path) -> None:
    db = tmp_path / "memory.sqlite"
    alisio.create_database(db)
    with plugin_connection(db) as conn:

        def save(title: str, content: str, at: int, project: str = P1) -> int:
            return alisio.save_observation(
                conn, title=title, content=content, type="decision", project=project, now=at
            ).id

        # Ties: three identical rows at the same instant (different titles so none is a
        # duplicate of another): equal score, so bm25's SQL order stays (no tie-break by id).
        twins = [save(f"Quokka note {n}", "quokka", NOW - 5 * DAY) for n in "abc"]
        old_title = save("Quokka", "a title hit, a year old", NOW - 365 * DAY)
        fresh_body = save("Marsupials", "quokka in the body, fresh", NOW)
        used = save("Used often", "quokka quokka", NOW - 40 * DAY)
        conn.execute("UPDATE observations SET access_count = 50 WHERE id = ?", (used,))
        save("Other project", "quokka", NOW, project=P2)
        for n in range(6):
            save(f"Filler {n}", f"quokka filler {n}", NOW - n * DAY)
    with ObservationStore(db) as store:
        found = store.agent_search("Quokka!", project=P1)
        now = alisio.now_ms()
        assert [r.id for r in found.hits] == plugin_order(db, '"quokka"', P1, now)
        assert len(found.hits) == 8 and found.match == "all"
        every = store.agent_search("quokka", project=P1, limit=20)
        order = [r.id for r in every.hits]
        assert order == plugin_order(db, '"quokka"', P1, now, limit=20)
        assert [i for i in order if i in twins] == twins  # in SQL order, ascending here
        assert {old_title, fresh_body, used} < set(order)


def test_all_falls_back_to_any_only_when_no_match_was_asked(
    store: ObservationStore, db: Path
) -> None:
    asked_nothing = store.agent_search("cache zebrafish", project=None)
    assert asked_nothing.match == "any"
    assert asked_nothing.fts_query == '"cache" OR "zebrafish"'
    assert ids(asked_nothing) == oracle(db, ["cache", "zebrafish"], match="any") != set()
    asked_all = store.agent_search("cache zebrafish", project=None, match="all")
    assert asked_all == AgentSearch((), (), '"cache" AND "zebrafish"', "all")
    found_at_once = store.agent_search("cache", project=None)
    assert found_at_once.match == "all" and found_at_once.hits


def test_searching_as_the_agent_changes_no_counter_and_writes_nothing(
    store: ObservationStore, db: Path
) -> None:
    before = agent_columns(db)
    version = store.data_version()
    store.agent_search("cache token", project=P1, match="any")
    store.agent_search("refresh", project=None, all_projects=True)
    assert agent_columns(db) == before
    assert store.data_version() == version
