"""ObservationStore against real plugin-built databases: reading, searching, writing, undo.

Expected results come from an oracle written in plain Python over every row (read with
a plugin-like connection), so the store's SQL is checked against what the issue asks,
not against itself.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from alisio_fixtures import (
    BASE_NOW,
    PROJECTS,
    add_observation,
    agent_columns,
    build_database,
    copy_database,
    fts_integrity_problem,
    plugin_connection,
    populate,
    read_all,
    text_matches,
)
from memory_desk.core import ConflictError, StoreError, alisio
from memory_desk.core.observations import (
    SORT_KEYS,
    EditResult,
    Observation,
    ObservationStore,
    Totals,
)

ROWS = 240


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_database(tmp_path_factory.mktemp("template") / "memory.sqlite", ROWS, seed=7)


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return copy_database(template, tmp_path / "memory.sqlite")


@pytest.fixture
def store(db: Path):
    with ObservationStore(db) as opened:
        yield opened


def oracle_ids(
    path: Path,
    text: str = "",
    *,
    types: tuple[str, ...] = (),
    project: str | None = None,
    scope: str | None = None,
    include_forgotten: bool = False,
    pinned_only: bool = False,
) -> set[int]:
    return {
        r.id
        for r in read_all(path)
        if text_matches(r, text)
        and (not types or r.type in types)
        and (project is None or r.project == project)
        and (scope is None or r.scope == scope)
        and (include_forgotten or not r.forgotten)
        and (not pinned_only or r.pinned)
    }


# ----------------------------------------------------------------- opening


def test_opens_a_plugin_database_without_warnings(store: ObservationStore, db: Path) -> None:
    assert store.path == db
    assert store.label == "memory.sqlite"
    assert store.schema_versions == frozenset({100, 101})
    assert store.warnings == ()


def test_schema_100_without_101_opens(tmp_path: Path) -> None:
    path = build_database(tmp_path / "old.sqlite", 20, versions=(100,))
    with ObservationStore(path) as store:
        assert store.schema_versions == frozenset({100})
        assert store.warnings == ()
        assert store.count() == len(oracle_ids(path))


def test_newer_schema_with_extra_columns_opens_with_a_warning_and_writes(tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite", 20)
    with plugin_connection(path) as conn:
        conn.execute("ALTER TABLE observations ADD COLUMN importance REAL NOT NULL DEFAULT 0.5")
        conn.execute("INSERT INTO schema_migrations(version) VALUES (102)")
    with ObservationStore(path) as store:
        assert store.schema_versions == frozenset({100, 101, 102})
        assert any("newer plugin (schema 102)" in w for w in store.warnings)
        first = store.search_ids()[0]
        store.pin([first])
        store.edit(first, title="Edited under schema 102")
        assert store.get(first).title == "Edited under schema 102"
    with plugin_connection(path) as conn:
        assert (
            conn.execute("SELECT importance FROM observations WHERE id = ?", (first,)).fetchone()[0]
            == 0.5
        )
    assert fts_integrity_problem(path) is None


# ------------------------------------------------------------------ search


def test_without_text_lists_live_rows_newest_first(store: ObservationStore, db: Path) -> None:
    live = sorted(
        (r for r in read_all(db) if not r.forgotten),
        key=lambda r: (r.updated_at, r.id),
        reverse=True,
    )
    assert store.search_ids() == [r.id for r in live]
    assert store.search_ids(descending=False) == [r.id for r in reversed(live)]
    assert store.count() == len(live)


@pytest.mark.parametrize(
    "text",
    [
        "refresh",
        "TOKEN cache",
        "db",
        "Db ui",
        "sqlite db",
        "rollback journal commit",
        "src/",
        "**Learned** revised",
        "#1",
        "nothing-like-this",
        "   ",
        "",
    ],
)
def test_every_word_must_match_in_title_content_or_topic(
    store: ObservationStore, db: Path, text: str
) -> None:
    expected = oracle_ids(db, text)
    assert set(store.search_ids(text)) == expected
    assert store.count(text) == len(expected)


@pytest.mark.parametrize(
    "filters",
    [
        {"types": ("bugfix",)},
        {"types": ("decision", "pattern", "config")},
        {"project": PROJECTS[1]},
        {"scope": "personal"},
        {"include_forgotten": True},
        {"pinned_only": True},
        {"pinned_only": True, "include_forgotten": True},
        {"types": ("learning",), "project": PROJECTS[0], "scope": "project"},
        {"types": ("no-such-type",)},
    ],
)
def test_filters_combine_with_text(store: ObservationStore, db: Path, filters: dict) -> None:
    for text in ("", "cache", "db"):
        expected = oracle_ids(db, text, **filters)
        assert set(store.search_ids(text, **filters)) == expected, (text, filters)
        assert store.count(text, **filters) == len(expected)
        assert {o.id for o in store.search(text, **filters)} == expected


def test_search_only_reads_title_content_and_topic_key(store: ObservationStore, db: Path) -> None:
    # tool_name, type and project are in the FTS index too, but the person does not read them.
    assert store.search_ids("compaction") == []
    assert store.search_ids("session_summary") == []
    assert store.search_ids("alpha-1a2b") == []
    topic_id = add_observation(db, title="plain", content="plain", topic_key="auth/zebra-stripe")
    assert store.search_ids("zebra-stri") == [topic_id]


def _sort_value(row: Observation, key: str) -> object:
    value = getattr(row, key)
    if key in ("title", "topic_key") and value is not None:
        return value.lower()  # COLLATE NOCASE: ASCII letters fold
    return value


@pytest.mark.parametrize("key", SORT_KEYS)
def test_every_sort_key_sorts_in_sql_with_id_as_tie_breaker(
    store: ObservationStore, db: Path, key: str
) -> None:
    rows = [r for r in read_all(db) if not r.forgotten]

    def order(row: Observation) -> tuple:
        value = _sort_value(row, key)
        return (value is not None, value if value is not None else 0, row.id)

    expected = [r.id for r in sorted(rows, key=order)]
    assert store.search_ids(sort=key, descending=False) == expected
    assert store.search_ids(sort=key) == expected[::-1]


def test_sort_with_text_keeps_the_text_filter(store: ObservationStore, db: Path) -> None:
    ids = store.search_ids("cache", sort="created_at", descending=False)
    by_id = {r.id: r for r in read_all(db)}
    assert set(ids) == oracle_ids(db, "cache")
    assert ids == sorted(ids, key=lambda i: (by_id[i].created_at, i))


def test_unknown_sort_key_is_a_programming_error(store: ObservationStore) -> None:
    with pytest.raises(ValueError):
        store.search_ids(sort="content; DROP TABLE observations")


def test_text_ranks_title_matches_first_then_recent_rows(tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite")
    old_title = add_observation(
        path, title="Flamingo colours", content="unrelated", created_at=BASE_NOW - 400 * 86_400_000
    )
    body = add_observation(
        path,
        title="Birds",
        content="a flamingo stood there and more words here",
        created_at=BASE_NOW,
    )
    topic = add_observation(
        path, title="Birds again", content="nothing", topic_key="zoo/flamingo", created_at=BASE_NOW
    )
    with ObservationStore(path) as store:
        ranked = store.search_ids("flamingo")
        assert ranked[0] == old_title  # title weighs 5.0 against content's 1.0
        assert ranked.index(topic) < ranked.index(body)  # topic_key weighs 2.0
        assert store.search_ids("flamingo", descending=False) == ranked[::-1]
    path2 = build_database(tmp_path / "recency.sqlite")
    older = add_observation(path2, title="Same words kiwi", created_at=BASE_NOW - 200 * 86_400_000)
    newer = add_observation(path2, title="Same words kiwi", created_at=alisio.now_ms())
    with ObservationStore(path2) as store:
        assert store.search_ids("kiwi") == [newer, older]


def test_pages_with_limit_and_offset_follow_search_ids(store: ObservationStore) -> None:
    for text, sort in (("", None), ("cache", None), ("db", "title"), ("", "access_count")):
        ids = store.search_ids(text, sort=sort)
        pages = [
            o.id
            for offset in range(0, len(ids) + 50, 50)
            for o in store.search(text, sort=sort, limit=50, offset=offset)
        ]
        assert pages == ids


def test_search_brings_content_only_when_asked(store: ObservationStore, db: Path) -> None:
    without = store.search("cache", limit=5)
    with_content = store.search("cache", limit=5, with_content=True)
    assert [o.id for o in without] == [o.id for o in with_content]
    assert all(o.content is None for o in without)
    by_id = {r.id: r for r in read_all(db)}
    assert all(o == by_id[o.id] for o in with_content)


# ---------------------------------------------------------------- reading


def test_get_returns_the_whole_row_or_none(store: ObservationStore, db: Path) -> None:
    rows = read_all(db)
    for row in rows[:20]:
        assert store.get(row.id) == row
    assert store.get(10**9) is None
    assert isinstance(store.get(rows[0].id).pinned, bool)


def test_get_many_returns_rows_without_content(store: ObservationStore, db: Path) -> None:
    rows = {r.id: r for r in read_all(db)}
    wanted = [*rows, 10**9, 10**9 + 1, *list(rows)[:10]]  # more than one IN chunk with repeats
    found = store.get_many(wanted * 3)
    assert set(found) == set(rows)
    for id, obs in found.items():
        assert obs.content is None
        assert obs == Observation(**{**_as_dict(rows[id]), "content": None})
    assert store.get_many([]) == {}


def _as_dict(row: Observation) -> dict:
    return {name: getattr(row, name) for name in Observation.__slots__}


def test_projects_and_totals(store: ObservationStore, db: Path) -> None:
    rows = read_all(db)
    assert store.projects() == sorted({r.project for r in rows})
    live = [r for r in rows if not r.forgotten]
    assert store.totals() == Totals(
        total=len(rows),
        live=len(live),
        forgotten=len(rows) - len(live),
        pinned=sum(r.pinned for r in live),
    )


def test_forgotten_property(store: ObservationStore) -> None:
    forgotten = store.search(include_forgotten=True, sort="id")
    assert any(o.forgotten for o in forgotten) and any(not o.forgotten for o in forgotten)
    assert all(o.forgotten == (o.deleted_at is not None) for o in forgotten)


# --------------------------------------------------------- browsing is pure


def test_browsing_changes_no_counter_timestamp_or_file(store: ObservationStore, db: Path) -> None:
    before = agent_columns(db)
    files_before = sorted(p.name for p in db.parent.iterdir())
    ids = store.search_ids(include_forgotten=True)
    for text in ("", "cache", "db token", '"quoted'):
        store.search(text, with_content=True, limit=30)
        store.search_ids(text, sort="title")
        store.count(text)
    for id in ids:
        store.get(id)
    store.get_many(ids)
    store.projects()
    store.totals()
    store.data_version()
    assert agent_columns(db) == before
    assert sorted(p.name for p in db.parent.iterdir()) == files_before
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600


def test_no_read_transaction_stays_open_between_calls(store: ObservationStore, db: Path) -> None:
    store.search("cache", limit=3)
    store.search_ids()
    store.get(store.search_ids()[0])
    store.get_many(store.search_ids()[:5])
    store.totals()
    store.data_version()
    with plugin_connection(db) as conn:
        conn.execute("UPDATE observations SET access_count = access_count + 1 WHERE id = 1")
        # A reader holding a snapshot would make a full checkpoint report "busy" (1).
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    assert busy == 0


def test_a_missing_path_is_never_created(tmp_path: Path) -> None:
    missing = tmp_path / "nope" / "memory.sqlite"
    with pytest.raises(StoreError, match="no file"):
        ObservationStore(missing)
    assert not missing.exists()
    missing2 = tmp_path / "memory.sqlite"
    with pytest.raises(StoreError):
        ObservationStore(missing2)
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ writes


def _columns_except(path: Path, *changed: str) -> dict[int, dict]:
    return {
        r.id: {k: v for k, v in _as_dict(r).items() if k not in changed} for r in read_all(path)
    }


def test_pin_changes_only_pinned_and_reports_previous_state(
    store: ObservationStore, db: Path
) -> None:
    rows = read_all(db)
    unpinned = [r.id for r in rows if not r.pinned][:5]
    pinned = [r.id for r in rows if r.pinned][:2]
    rest = _columns_except(db, "pinned")
    assert store.pin([*unpinned, *pinned, 10**9]) == {id: False for id in unpinned}
    assert _columns_except(db, "pinned") == rest
    assert all(store.get(id).pinned for id in unpinned + pinned)
    assert store.pin(unpinned, pinned=False) == {id: True for id in unpinned}
    assert not any(store.get(id).pinned for id in unpinned)
    assert store.pin([]) == {}
    assert fts_integrity_problem(db) is None


def test_forget_restore_and_put_back(store: ObservationStore, db: Path) -> None:
    rows = read_all(db)
    live = [r.id for r in rows if not r.forgotten][:4]
    gone = [r for r in rows if r.forgotten][:2]
    rest = _columns_except(db, "deleted_at")
    forgotten = store.forget([*live, *(r.id for r in gone)], at=BASE_NOW + 5)
    assert forgotten == {id: None for id in live}  # already forgotten rows keep their time
    assert all(store.get(id).deleted_at == BASE_NOW + 5 for id in live)
    assert all(store.get(r.id).deleted_at == r.deleted_at for r in gone)
    assert not set(live) & set(store.search_ids())
    assert set(live) <= set(store.search_ids(include_forgotten=True))

    restored = store.restore([*live, gone[0].id])
    assert restored == {**{id: BASE_NOW + 5 for id in live}, gone[0].id: gone[0].deleted_at}
    assert store.get(gone[0].id).deleted_at is None
    # Undo of restore puts each row's own forget time back.
    assert store.put_back_deleted_at(restored) == {id: None for id in restored}
    assert store.get(gone[0].id).deleted_at == gone[0].deleted_at
    assert _columns_except(db, "deleted_at") == rest
    assert fts_integrity_problem(db) is None


def test_forget_keeping_pinned_rows_leaves_them_live(store: ObservationStore) -> None:
    """The pruning assistant's forget: a row pinned since it was proposed stays live."""
    live = store.search_ids()[:3]
    store.pin([live[1]], pinned=True)
    forgotten = store.forget(live, keep_pinned=True)
    assert set(forgotten) == {live[0], live[2]}
    assert store.get(live[1]).deleted_at is None
    assert store.forget([live[1]]) == {live[1]: None}  # (without the flag, pinned goes too)


def test_forget_uses_now_by_default(store: ObservationStore) -> None:
    id = store.search_ids()[0]
    before = alisio.now_ms()
    store.forget([id])
    assert before <= store.get(id).deleted_at <= alisio.now_ms()


def test_delete_removes_rows_and_their_index_entries(store: ObservationStore, db: Path) -> None:
    token_id = add_observation(db, title="Unique platypus note", content="platypus")
    victims = [token_id, *store.search_ids(include_forgotten=True)[-3:]]
    total = store.totals().total
    assert store.delete([*victims, token_id, 10**9]) == len(set(victims))
    assert store.totals().total == total - len(set(victims))
    assert store.get_many(victims) == {}
    assert store.search_ids("platypus", include_forgotten=True) == []
    assert fts_integrity_problem(db) is None


def test_edit_follows_the_plugins_upsert_rules(store: ObservationStore, db: Path) -> None:
    id = add_observation(db, title="Old title", content="old body wombat", topic_key="zoo/old")
    before = store.get(id)
    start = alisio.now_ms()
    result = store.edit(
        id,
        title="T" * 250,
        content="new body echidna <private>secret key</private> " + "x" * 60_000,
        type="bugfix",
        topic_key="",
    )
    after = store.get(id)
    assert result == EditResult(before, after)
    # The plugin's cap keeps its suffix inside the 200 units, for titles too.
    assert after.title == "T" * (alisio.TITLE_CAP - 15) + alisio.TRUNCATED_SUFFIX
    assert "secret key" not in after.content and "[REDACTED]" in after.content
    assert len(after.content) == alisio.CONTENT_CAP
    assert after.content.endswith(alisio.TRUNCATED_SUFFIX)
    assert after.normalized_hash == alisio.normalized_hash(after.content)
    assert after.type == "bugfix"
    assert after.topic_key is None
    assert after.revision_count == before.revision_count + 1
    assert after.updated_at == after.last_seen_at >= start
    unchanged = (
        "session_id",
        "tool_name",
        "project",
        "scope",
        "duplicate_count",
        "pinned",
        "access_count",
        "last_accessed_at",
        "created_at",
        "deleted_at",
    )
    assert all(getattr(after, k) == getattr(before, k) for k in unchanged)
    assert store.search_ids("echidna") == [id]
    assert store.search_ids("wombat") == []
    assert fts_integrity_problem(db) is None


def test_edit_of_one_field_keeps_the_others(store: ObservationStore, db: Path) -> None:
    id = add_observation(db, title="Keep me", content="body", topic_key="zoo/keep", type="pattern")
    result = store.edit(id, topic_key="zoo/new-key")
    assert (result.after.title, result.after.content, result.after.type) == (
        "Keep me",
        "body",
        "pattern",
    )
    assert result.after.topic_key == "zoo/new-key"
    assert store.search_ids("new-key") == [id]


def test_edit_that_changes_nothing_writes_nothing(store: ObservationStore, db: Path) -> None:
    id = add_observation(db, title="Same", content="same")
    version = store.data_version()
    result = store.edit(id, title="Same", content="same")
    assert result.before == result.after == store.get(id)
    assert store.data_version() == version


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"type": "opinion"}, "not an observation type"),
        ({"title": "   "}, "needs a title"),
    ],
)
def test_edit_validates_like_the_plugin(
    store: ObservationStore, db: Path, changes: dict, message: str
) -> None:
    id = store.search_ids()[0]
    before = store.get(id)
    with pytest.raises(StoreError, match=message):
        store.edit(id, **changes)
    assert store.get(id) == before


def test_edit_conflicts(store: ObservationStore, db: Path) -> None:
    id = add_observation(db, title="Seen", content="seen", topic_key="zoo/seen")
    seen = store.get(id)
    with plugin_connection(db) as conn:  # the agent revises the row by topic upsert
        alisio.save_observation(
            conn,
            title="Agent",
            content="agent text",
            type="decision",
            project=seen.project,
            topic_key="zoo/seen",
        )
    with pytest.raises(ConflictError, match="changed by the agent"):
        store.edit(id, title="Mine", expected=seen)
    assert store.get(id).title == "Agent"
    store.pin([id])  # a pin is not a rewrite
    seen_row = store.get_many([id])[id]  # the table's row, without content
    assert store.edit(id, title="Mine", expected=seen_row).after.title == "Mine"
    with pytest.raises(ConflictError):
        store.edit(id, title="Stale", expected=seen_row)
    store.delete([id])
    with pytest.raises(ConflictError, match="no longer exists"):
        store.edit(id, title="Gone")


def test_undo_edit_puts_back_exactly_the_columns_it_changed(
    store: ObservationStore, db: Path
) -> None:
    id = add_observation(
        db, title="Before", content="before gecko", topic_key="zoo/gecko", updated_at=BASE_NOW + 1
    )
    original = store.get(id)
    result = store.edit(id, title="After", content="after iguana", type="config", topic_key="")
    store.pin([id])  # other actions in between do not block the undo
    undone = store.undo_edit(result)
    assert undone == Observation(**{**_as_dict(original), "pinned": True})
    assert store.search_ids("gecko") == [id]
    assert store.search_ids("iguana") == []
    assert fts_integrity_problem(db) is None


def test_undo_edit_refuses_when_the_agent_revised_since(store: ObservationStore, db: Path) -> None:
    id = add_observation(db, title="Before", content="before", topic_key="zoo/undo")
    result = store.edit(id, content="mine")
    with plugin_connection(db) as conn:
        alisio.save_observation(
            conn,
            title="Agent",
            content="agent's",
            type="decision",
            project=result.after.project,
            topic_key="zoo/undo",
        )
    with pytest.raises(ConflictError):
        store.undo_edit(result)
    assert store.get(id).title == "Agent"
    store.delete([id])
    with pytest.raises(ConflictError):
        store.undo_edit(result)


def test_writes_keep_the_file_mode_and_create_nothing_new(
    store: ObservationStore, db: Path
) -> None:
    store.search_ids()  # the connection (and SQLite's -wal/-shm) exists before the writes
    files = sorted(p.name for p in db.parent.iterdir())
    ids = store.search_ids()[:3]
    store.pin(ids)
    store.forget(ids)
    store.restore(ids)
    store.edit(ids[0], title="Mode check")
    store.delete(ids[1:2])
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    assert sorted(p.name for p in db.parent.iterdir()) == files
    with plugin_connection(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_data_version_follows_commits_of_any_connection(store: ObservationStore, db: Path) -> None:
    first = store.data_version()
    assert store.data_version() == first
    store.search_ids("cache")
    assert store.data_version() == first
    with plugin_connection(db) as conn:
        alisio.save_observation(conn, title="New", content="new", type="decision", project="p")
    second = store.data_version()
    assert second != first
    store.pin(store.search_ids()[:1])
    assert store.data_version() != second


# --------------------------------------------------------- threads, lifetime


def test_searches_on_a_worker_thread_while_the_main_thread_writes(store: ObservationStore) -> None:
    errors: list[BaseException] = []
    stop = threading.Event()

    def search_loop() -> None:
        try:
            while not stop.is_set():
                ids = store.search_ids("cache")
                store.get_many(ids[:40])
                store.count("db")
                store.totals()
        except BaseException as exc:  # noqa: BLE001 - reported to the main thread
            errors.append(exc)

    worker = threading.Thread(target=search_loop)
    worker.start()
    try:
        ids = store.search_ids()[:20]
        for _ in range(15):
            store.pin(ids)
            store.forget(ids)
            store.restore(ids)
            store.pin(ids, pinned=False)
    finally:
        stop.set()
        worker.join()
    assert errors == []


def test_closed_store_raises_store_error(db: Path) -> None:
    store = ObservationStore(db)
    store.search_ids()
    store.close()
    store.close()
    for call in (store.search_ids, store.totals, store.data_version, lambda: store.pin([1])):
        with pytest.raises(StoreError, match="closed"):
            call()


def test_populate_on_top_of_existing_rows_keeps_ids_unique(tmp_path: Path) -> None:
    path = build_database(tmp_path / "memory.sqlite", 10)
    more = populate(path, 10, seed=3)
    assert more.ids == list(range(11, 21))
    assert fts_integrity_problem(path) is None


def test_put_back_deleted_at_undoes_a_forget(store: ObservationStore) -> None:
    ids = store.search_ids()[:4]
    forgotten = store.forget(ids, at=BASE_NOW + 9)
    assert forgotten == {id: None for id in ids}
    assert store.put_back_deleted_at(forgotten) == {id: BASE_NOW + 9 for id in ids}
    assert all(store.get(id).deleted_at is None for id in ids)
    assert store.put_back_deleted_at(forgotten) == {}  # nothing left to change


def test_recreate_saves_a_deleted_row_again_as_the_plugin_inserts(
    store: ObservationStore, db: Path
) -> None:
    gone = store.get(read_all(db)[0].id)
    store.delete([gone.id])
    created = store.recreate(
        gone,
        title="Kept by hand",
        content="**What** mine <private>token</private>",
        type="decision",
        topic_key="",
    )
    assert created.id != gone.id and store.get(gone.id) is None
    assert (created.project, created.scope, created.session_id, created.pinned) == (
        gone.project,
        gone.scope,
        gone.session_id,
        gone.pinned,
    )
    assert created.content == "**What** mine [REDACTED]" and created.topic_key is None
    assert created.revision_count == 1 and created.access_count == 0
    assert created.normalized_hash == alisio.normalized_hash(created.content)
    assert store.search_ids("Kept by hand") == [created.id]
    assert fts_integrity_problem(db) is None
    with pytest.raises(StoreError):
        store.recreate(gone, title="x", content="y", type="nonsense", topic_key="")
