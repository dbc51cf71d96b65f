"""The search index's health, judged by what exists and what it does, never by names.

Triggers count when they are on ``observations`` and write ``observations_fts``, whatever
they are called; ``check_index`` runs FTS5's own integrity-check on a snapshot, so it never
takes the agent's write lock and never writes beside the agent's file.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from alisio_fixtures import build_database, copy_database, plugin_connection
from memory_desk.core import StoreError, alisio
from memory_desk.core.observations import ObservationStore, fts_index

AI = """CREATE TRIGGER {name} AFTER INSERT ON observations BEGIN
    INSERT INTO observations_fts(rowid, title, content, tool_name, type, project, topic_key)
    VALUES (new.id, new.title, new.content, new.tool_name, new.type, new.project, new.topic_key);
END"""


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_database(tmp_path_factory.mktemp("health") / "memory.sqlite", 400, seed=4)


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return copy_database(template, tmp_path / "memory.sqlite")


def neighbours(db: Path) -> list[str]:
    """What is beside the agent's file, SQLite's own -wal/-shm aside."""
    return sorted(p.name for p in db.parent.iterdir() if not p.name.endswith(("-wal", "-shm")))


# ---------------------------------------------------------------------- triggers


def test_a_healthy_plugin_database_gets_no_warning(db: Path) -> None:
    with plugin_connection(db) as conn:
        alisio.save_observation(conn, title="Fresh", content="fresh", type="decision", project="p")
    with ObservationStore(db) as store:
        assert store.warnings == ()
        assert store.check_index() is None


def test_triggers_under_other_names_that_do_the_job_get_no_warning(db: Path) -> None:
    with plugin_connection(db) as conn:
        conn.execute("DROP TRIGGER observations_ai")
        conn.execute(AI.format(name='"index new observations"'))
    with ObservationStore(db) as store:
        assert store.warnings == ()


@pytest.mark.parametrize(
    ("trigger", "missing"),
    [
        ("observations_ai", "after insert"),
        ("observations_ad", "after delete"),
        ("observations_au", "after update"),
    ],
)
def test_a_dropped_trigger_gets_a_clear_warning(db: Path, trigger: str, missing: str) -> None:
    with plugin_connection(db) as conn:
        conn.execute(f"DROP TRIGGER {trigger}")
    with ObservationStore(db) as store:
        (warning,) = store.warnings
    assert "triggers are missing" in warning and f"({missing})" in warning
    assert "Restore a backup" in warning


def test_a_trigger_with_the_right_name_that_does_nothing_is_missing(db: Path) -> None:
    with plugin_connection(db) as conn:
        conn.execute("DROP TRIGGER observations_ai")
        conn.execute(
            "CREATE TRIGGER observations_ai AFTER INSERT ON observations BEGIN SELECT 1; END"
        )
    with ObservationStore(db) as store:
        assert any("(after insert)" in w for w in store.warnings)


def test_an_update_trigger_that_skips_indexed_columns_is_reported(db: Path) -> None:
    with plugin_connection(db) as conn:
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'observations_au'")
        body = sql.fetchone()[0]
        conn.execute("DROP TRIGGER observations_au")
        conn.execute(
            body.replace("title, content, tool_name, type, project, topic_key", "title, content")
        )
    with ObservationStore(db) as store:
        assert any(
            "after update of tool_name, type, project, topic_key" in w for w in store.warnings
        )


# ------------------------------------------------------------------- check_index


def test_check_index_finds_rows_changed_without_the_trigger(db: Path) -> None:
    with plugin_connection(db) as conn:
        conn.execute("DROP TRIGGER observations_au")
        conn.execute("UPDATE observations SET content = 'rewritten behind the index' WHERE id = 7")
    with ObservationStore(db) as store:  # the cheap checks at open cannot see it
        message = store.check_index()
    assert message is not None
    assert str(db) in message and "damaged" in message and "rebuild" in message


def test_check_index_finds_rows_inserted_without_the_trigger(db: Path) -> None:
    with ObservationStore(db) as store:
        assert store.check_index() is None
        with plugin_connection(db) as conn:
            conn.execute("DROP TRIGGER observations_ai")
            alisio.save_observation(
                conn, title="Ghost", content="ghost", type="decision", project="p"
            )
        assert "damaged" in (store.check_index() or "")


def test_check_index_finds_a_damaged_index(db: Path) -> None:
    with ObservationStore(db) as store:
        with plugin_connection(db) as conn:
            conn.execute(
                "UPDATE observations_fts_data SET block = randomblob(length(block)) WHERE id > 10"
            )
        assert "damaged" in (store.check_index() or "")


def test_check_index_never_blocks_the_agents_saves(db: Path) -> None:
    """The agent commits while checks run back to back, without waiting: no busy timeout.

    The checker never pauses, so every save lands in the middle of some check; a check that
    held the write lock (as the integrity-check on the live file does) fails them at once.
    """
    with ObservationStore(db) as store:
        results: list[str | None] = []
        stop = threading.Event()

        def check_repeatedly() -> None:
            while not stop.is_set():
                results.append(store.check_index())

        checker = threading.Thread(target=check_repeatedly)
        agent = alisio.connect_like_plugin(db)
        agent.execute("PRAGMA busy_timeout=0")  # a lock held by the check would fail at once
        try:
            checker.start()
            for n in range(30):
                alisio.save_observation(
                    agent,
                    title=f"Saved while checking {n}",
                    content="agent",
                    type="decision",
                    project="p",
                )
                time.sleep(0.002)
        finally:
            stop.set()
            checker.join()
            agent.close()
    assert results and set(results) == {None}


def test_check_index_writes_nothing_beside_the_agents_file(db: Path) -> None:
    with ObservationStore(db) as store:
        before = neighbours(db)
        version = store.data_version()
        assert store.check_index() is None
        assert neighbours(db) == before
        assert store.data_version() == version


def test_a_big_database_is_copied_into_the_cache_folder_and_cleaned_up(
    db: Path, private_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fts_index, "SNAPSHOT_IN_MEMORY_MAX", 0)  # every database is "big"
    cache = private_home / ".cache" / "memory-desk"
    with ObservationStore(db) as store:
        before = neighbours(db)
        assert store.check_index() is None
        assert neighbours(db) == before
        assert cache.is_dir() and list(cache.iterdir()) == []
        assert oct(cache.stat().st_mode & 0o777) == "0o700"
        # Where the copy goes is the cache folder: without one, the check says so.
        blocker = private_home / "not-a-folder"
        blocker.write_text("")
        monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
        with pytest.raises(StoreError, match="scratch copy"):
            store.check_index()
        monkeypatch.setattr(fts_index, "SNAPSHOT_IN_MEMORY_MAX", 1 << 40)
        assert store.check_index() is None  # a small one needs no cache folder


def test_check_index_on_a_closed_store_raises_store_error(db: Path) -> None:
    store = ObservationStore(db)
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.check_index()
