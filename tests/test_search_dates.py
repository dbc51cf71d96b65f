"""The person's search with a date range, and the words it matched, on real databases.

Databases are built by the plugin's own DDL and triggers (tests/alisio_fixtures.py); what the
store returns is compared with an oracle that reads every row independently and applies the
rule in Python: created_at (or updated_at) within [start, end), every word matching.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from alisio_fixtures import (
    BASE_NOW,
    DAY_MS,
    add_observation,
    build_database,
    read_all,
    text_matches,
)
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.search import (
    DateRange,
    build_filter,
    match_spans,
    search_words,
)


@pytest.fixture
def dated(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """Four rows whose creation and last change fall on known days."""
    path = build_database(tmp_path / "memory.sqlite")
    ids = {
        # created 40 days ago, rewritten yesterday: old by creation, fresh by update
        "old_revised": add_observation(
            path,
            title="Cache layer rewrite",
            content="**What** the cache keeps tokens",
            created_at=BASE_NOW - 40 * DAY_MS,
            updated_at=BASE_NOW - 1 * DAY_MS,
        ),
        "old": add_observation(
            path,
            title="Cache eviction order",
            content="**What** oldest first; db size",
            created_at=BASE_NOW - 40 * DAY_MS,
        ),
        "week": add_observation(
            path,
            title="Retry with backoff",
            content="**What** the cache retries; db locks",
            created_at=BASE_NOW - 5 * DAY_MS,
        ),
        "today": add_observation(
            path,
            title="Token refresh",
            content="**What** refresh once per tab",
            created_at=BASE_NOW - 1000,
        ),
    }
    return path, ids


def oracle(path: Path, text: str, date_range: DateRange) -> set[int]:
    """Live rows matching every word, whose chosen date is within the range."""
    found = set()
    for row in read_all(path):
        when = row.created_at if date_range.field == "created" else row.updated_at
        if row.deleted_at is not None or not text_matches(row, text):
            continue
        if date_range.start is not None and when < date_range.start:
            continue
        if date_range.end is not None and when >= date_range.end:
            continue
        found.add(row.id)
    return found


def test_the_last_week_by_creation_and_by_update_are_different_rows(dated) -> None:
    path, ids = dated
    week = BASE_NOW - 7 * DAY_MS
    with ObservationStore(path) as store:
        created = set(store.search_ids(date_range=DateRange("created", week, None)))
        updated = set(store.search_ids(date_range=DateRange("updated", week, None)))
    assert created == {ids["week"], ids["today"]}
    assert updated == {ids["old_revised"], ids["week"], ids["today"]}


def test_the_start_is_kept_and_the_end_is_not(dated) -> None:
    path, ids = dated
    created = BASE_NOW - 5 * DAY_MS  # the "week" row's own creation
    with ObservationStore(path) as store:
        assert store.search_ids(date_range=DateRange("created", created, created + 1)) == [
            ids["week"]
        ]
        assert store.search_ids(date_range=DateRange("created", created - 1, created)) == []
        before = store.search_ids(date_range=DateRange("created", None, created))
    assert set(before) == {ids["old_revised"], ids["old"]}


def test_the_range_narrows_the_search_path_too_long_and_short_words(dated) -> None:
    """Words of three characters or more go through FTS5, shorter ones through LIKE: both
    paths keep only the rows of the range, in the search's own order and counts."""
    path, ids = dated
    recent = DateRange("updated", BASE_NOW - 7 * DAY_MS, BASE_NOW)
    with ObservationStore(path) as store:
        assert set(store.search_ids("cache")) == {ids["old_revised"], ids["old"], ids["week"]}
        assert set(store.search_ids("cache", date_range=recent)) == {
            ids["old_revised"],
            ids["week"],
        }
        assert store.search_ids("db", date_range=recent) == [ids["week"]]
        assert store.count("cache", date_range=recent) == 2
        assert set(store.first_ids("cache", date_range=recent)) == {
            ids["old_revised"],
            ids["week"],
        }
        rows = store.search("cache db", date_range=recent)
    assert [row.id for row in rows] == [ids["week"]]


def test_the_range_is_sql_bounds_on_the_chosen_column() -> None:
    both = build_filter("cache", date_range=DateRange("updated", 10, 20))
    assert "o.updated_at >= :date_from" in both.where
    assert "o.updated_at < :date_to" in both.where
    assert (both.params["date_from"], both.params["date_to"]) == (10, 20)
    since = build_filter("", date_range=DateRange("created", 10, None))
    assert "o.created_at >= :date_from" in since.where and "date_to" not in since.params
    assert build_filter("", date_range=DateRange()).where == build_filter("").where
    with pytest.raises(ValueError):
        DateRange("deleted", 1, 2)


@pytest.mark.parametrize("text", ["", "cache", "db", "cache db", "token refresh"])
@pytest.mark.parametrize("field", ["created", "updated"])
def test_a_populated_database_answers_as_the_oracle(tmp_path: Path, text, field) -> None:
    path = build_database(tmp_path / "memory.sqlite", 400, seed=7)
    # the populated rows span about a year before BASE_NOW
    date_range = DateRange(field, BASE_NOW - 60 * DAY_MS, BASE_NOW - 10 * DAY_MS)
    with ObservationStore(path) as store:
        found = store.search_ids(text, date_range=date_range)
        assert len(found) == len(set(found))
        assert set(found) == oracle(path, text, date_range)
        assert store.count(text, date_range=date_range) == len(found)
    assert found, "the range should hold some rows, or the test proves nothing"


# -- the words a search matched, for the highlight ----------------------------------------------


def test_the_words_are_the_ones_the_search_requires() -> None:
    assert search_words("  cache\tdb  cache ") == ["cache", "db"]
    assert search_words("lock-leak?") == ["lock-leak?"]  # taken literally, as the search does
    assert search_words("a\x00b") == ["a", "b"]
    assert search_words("ok \ud800x") == ["ok"]  # unstorable: it matches nothing anyway
    assert search_words("") == []


def test_spans_are_case_insensitive_in_order_and_capped() -> None:
    text = "Cache the CACHE; a cachedb and db"
    assert match_spans(text, ["cache", "db"], 10) == [
        (0, 5),
        (10, 15),
        (19, 24),
        (24, 26),
        (31, 33),
    ]
    assert match_spans(text, ["cache", "db"], 2) == [(0, 5), (10, 15)]
    assert match_spans("cachedb", ["cache", "cachedb"], 5) == [(0, 7)]  # the longer word wins
    assert match_spans(text, [], 5) == [] and match_spans("", ["x"], 5) == []
    assert match_spans("a.b a+b", ["a.b"], 5) == [(0, 3)]  # literal, not a pattern


def test_every_row_found_shows_each_of_its_words(tmp_path: Path) -> None:
    """What the highlight marks is what the search matched: in each row the search finds,
    every word has a span in the title, the content or the topic key."""
    path = build_database(tmp_path / "memory.sqlite", 300, seed=3)
    text = "cache db"
    words = search_words(text)
    with ObservationStore(path) as store:
        rows = store.search(text, with_content=True)
    assert rows
    for row in rows:
        for word in words:
            haystacks = (row.title, row.content or "", row.topic_key or "")
            assert any(match_spans(h, [word], 1) for h in haystacks), (row.id, word)
