"""What the store does with hostile text, wrong files, broken indexes and a busy agent.

The person's search text is literal: nothing typed may raise, reach SQL unescaped or
be read as FTS5 syntax. A file that is not an Alisio memory database, or whose search
index is broken, is refused with a StoreError a person can act on; no raw sqlite3
exception leaves the store.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from alisio_fixtures import (
    add_observation,
    build_database,
    copy_database,
    fts_integrity_problem,
    plugin_connection,
    read_all,
    text_matches,
)
from memory_desk.core import InvalidInput, StoreBusy, StoreError
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations import sqlite as store_sqlite

LITERAL_ROWS = (
    ('He said "NEAR(cache token)" twice', "a*b -minus 100% under_score back\\slash"),
    ("AND OR NOT are words here", "(paren) {brace} col:on ^caret +plus"),
    ('Quote \' and "" marks', "'; DROP TABLE observations; -- and \" OR 1=1 --"),
    ("Café ÜBER naïve 日本語 text", "emoji 🦆🦆🦆 and ß and İstanbul"),
    ("title:cache content:token", "{title content}: x and NEAR/2 and */ /* ;"),
)

TORTURE = [
    '"',
    '""',
    '"""',
    "'",
    "''",
    "*",
    "a*",
    "*abc",
    "a*b",
    "-",
    "-minus",
    "cache -token",
    "NEAR(",
    "NEAR(cache",
    "NEAR(cache token)",
    "NEAR",
    "NEAR/2",
    "AND",
    "OR",
    "NOT",
    "and or not",
    "cache AND",
    "OR token",
    "cache NOT token",
    "(",
    ")",
    "()",
    "(paren)",
    "{title}",
    "{brace}",
    "{title content}: x",
    "title:cache",
    "content:",
    ":",
    "col:on",
    "^",
    "^caret",
    "+",
    "+plus",
    "%",
    "%%",
    "100%",
    "_",
    "__",
    "under_score",
    "\\",
    "\\slash",
    "back\\slash",
    "'; DROP TABLE observations; --",
    '" OR 1=1 --',
    'x" OR "1"="1',
    "*/",
    "/*",
    ";",
    "--",
    "?",
    "?1",
    ":1",
    "@x",
    "$x",
    "café",
    "CAFÉ",
    "über",
    "naÏve",
    "日本語",
    "日本",
    "🦆",
    "🦆🦆🦆",
    "ß",
    "İstanbul",
    "\x00",
    "a\x00b",
    "\x00\x00\x00",
    "\u200b\u200b\u200b",
    "\ud800",
    "ok \udfff",
    "\t\n ",
    "x" * 5000,
]


@pytest.fixture(scope="module")
def literal_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = build_database(tmp_path_factory.mktemp("literal") / "memory.sqlite", 60, seed=3)
    for title, content in LITERAL_ROWS:
        add_observation(path, title=title, content=content, topic_key="odd/near-and-or")
    return path


@pytest.fixture
def literal_db(literal_template: Path, tmp_path: Path) -> Path:
    return copy_database(literal_template, tmp_path / "memory.sqlite")


def test_search_text_is_always_literal(literal_db: Path) -> None:
    rows = read_all(literal_db)
    with ObservationStore(literal_db) as store:
        for text in TORTURE:
            expected = {r.id for r in rows if not r.forgotten and text_matches(r, text)}
            assert set(store.search_ids(text)) == expected, repr(text)
            assert store.count(text) == len(expected), repr(text)
            assert {o.id for o in store.search(text, limit=5)} <= expected, repr(text)
            if text.isprintable():  # filter values come from the data, not the keyboard
                store.search_ids(text, project=text, scope=text, types=(text,), sort="title")
    assert fts_integrity_problem(literal_db) is None
    assert len(read_all(literal_db)) == len(rows)


def test_literal_words_find_their_rows(literal_db: Path) -> None:
    by_title = {r.title: r.id for r in read_all(literal_db)}
    with ObservationStore(literal_db) as store:
        near = by_title['He said "NEAR(cache token)" twice']
        assert store.search_ids('"NEAR(cache') == [near]
        assert store.search_ids("100% a*b") == [near]
        assert store.search_ids("back\\slash -minus") == [near]
        assert store.search_ids("AND OR NOT") == [by_title["AND OR NOT are words here"]]
        assert store.search_ids("DROP TABLE") == [by_title['Quote \' and "" marks']]
        cafe = by_title["Café ÜBER naïve 日本語 text"]
        assert store.search_ids("CAFÉ über") == [cafe]  # 3+ characters fold Unicode case
        assert store.search_ids("🦆") == [cafe]
        assert store.search_ids("_") == [near]  # LIKE wildcards are escaped
        assert store.search_ids("%") == [near]


def test_edit_refuses_text_sqlite_cannot_store(literal_db: Path) -> None:
    with ObservationStore(literal_db) as store:
        id = store.search_ids()[0]
        before = store.get(id)
        with pytest.raises(InvalidInput, match="cannot be stored"):
            store.edit(id, title="bad \ud800 title")
        with pytest.raises(InvalidInput, match="needs a title"):
            store.edit(id, title="   ")
        assert store.get(id) == before
        with pytest.raises(StoreError):
            store.get(10**30)


# ------------------------------------------------------------ wrong files


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_not_an_sqlite_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "memory.sqlite", b"this is a text file, not a database\n" * 200)
    with pytest.raises(StoreError, match="not an SQLite database"):
        ObservationStore(path)
    assert path.read_bytes().startswith(b"this is a text file")


def test_an_empty_file_is_refused_and_left_empty(tmp_path: Path) -> None:
    path = _write(tmp_path / "memory.sqlite", b"")
    with pytest.raises(StoreError, match="no observations table"):
        ObservationStore(path)
    assert path.stat().st_size == 0
    assert [p.name for p in tmp_path.iterdir()] == ["memory.sqlite"]


@pytest.mark.parametrize("keep", [50, 4096, 0.5])
def test_a_truncated_database(tmp_path: Path, keep: float) -> None:
    full = build_database(tmp_path / "full.sqlite", 200)
    data = full.read_bytes()
    cut = int(len(data) * keep) if keep < 1 else int(keep)
    path = _write(tmp_path / "memory.sqlite", data[:cut])
    with pytest.raises(StoreError) as caught:
        store = ObservationStore(path)
        store.search_ids("cache")  # if the damage is only met by a search, it raises there
        store.close()
    assert str(path) in str(caught.value)


def test_another_sqlite_database(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY)")
    conn.close()
    with pytest.raises(StoreError, match="not Alisio's memory database"):
        ObservationStore(path)


def test_an_observations_table_of_another_shape(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE observations (id INTEGER PRIMARY KEY, title TEXT)")
        conn.execute("CREATE VIRTUAL TABLE observations_fts USING fts5(title)")
    conn.close()
    with pytest.raises(StoreError, match="without the columns"):
        ObservationStore(path)


def test_a_folder_or_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="not a file"):
        ObservationStore(tmp_path)
    with pytest.raises(StoreError, match="no file"):
        ObservationStore(tmp_path / "missing.sqlite")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------- broken index

BREAKAGES = {
    "structure record overwritten": "UPDATE observations_fts_data SET block = x'0102' WHERE id = 10",
    "index pages lost": "DELETE FROM observations_fts_data WHERE id > 10",
    "index pages garbled": "UPDATE observations_fts_data SET block = randomblob(length(block))"
    " WHERE id > 10",
    "shadow table dropped": "DROP TABLE observations_fts_idx",
    "rows written without the trigger": "DROP TRIGGER observations_ai;"
    " INSERT INTO observations (type, title, content, project, normalized_hash, created_at,"
    " updated_at) VALUES ('decision', 'ghost', 'ghost', 'p', 'h', 1, 1)",
}


@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_a_broken_index_is_refused_at_open(tmp_path: Path, breakage: str) -> None:
    path = build_database(tmp_path / "memory.sqlite", 150)
    with plugin_connection(path) as conn:
        conn.executescript(BREAKAGES[breakage])
    with pytest.raises(StoreError, match="search index .* is damaged.*rebuild"):
        ObservationStore(path)


def test_an_index_that_breaks_while_open_is_reported_by_search(tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite", 150)
    with ObservationStore(path) as store:
        assert store.search_ids("cache")
        with plugin_connection(path) as conn:
            conn.execute("DELETE FROM observations_fts_data WHERE id > 10")
        with pytest.raises(StoreError, match="search index .* is damaged"):
            store.search_ids("cache")
        assert store.search_ids("db")  # short words do not need the index
        assert store.totals().total == 150


def test_missing_triggers_open_with_a_warning(tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite", 20)
    with plugin_connection(path) as conn:
        conn.execute("DROP TRIGGER observations_au")
    with ObservationStore(path) as store:
        assert any("triggers are missing" in w for w in store.warnings)


# ------------------------------------------------------------ busy agent


def test_a_write_waits_for_the_agents_transaction(tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite", 20)
    with ObservationStore(path) as store:
        ids = store.search_ids()[:3]
        agent = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        agent.execute("BEGIN IMMEDIATE")
        released = threading.Event()

        def release() -> None:
            agent.execute("COMMIT")
            released.set()

        timer = threading.Timer(0.3, release)
        timer.start()
        try:
            assert set(store.pin(ids)) == set(ids)
        finally:
            timer.join()
            agent.close()
        assert released.is_set()


def test_a_write_that_cannot_get_the_lock_raises_store_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Shorten the patience so the test does not wait seconds; the code path is the same.
    monkeypatch.setattr(store_sqlite, "BUSY_TIMEOUT_MS", 20)
    monkeypatch.setattr(store_sqlite, "WRITE_ATTEMPTS", 2)
    path = build_database(tmp_path / "memory.sqlite", 20)
    with ObservationStore(path) as store:
        ids = store.search_ids()[:3]
        agent = sqlite3.connect(path, isolation_level=None)
        agent.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StoreBusy, match="busy"):  # a kind the UI can tell apart
                store.forget(ids)
            assert store.search_ids()[:3] == ids  # reading still works meanwhile
        finally:
            agent.execute("ROLLBACK")
            agent.close()
        assert set(store.forget(ids)) == set(ids)
