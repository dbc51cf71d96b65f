"""A damaged database is read-only, and the message names the real cause.

``check_database`` runs SQLite's ``quick_check`` and FTS5's ``integrity-check`` on one
snapshot. A broken index alone is rebuilt from the rows (the message gives the command); a
damaged file is not repaired by a rebuild (the message says to restore a backup). Either way
the store refuses every write until a later check finds it healthy. One row that cannot be
decoded (invalid UTF-8, a wrong type) is shown as such and never makes the database
unopenable.

Damage is made the way it happens: a write that bypassed the plugin's update trigger (the
index keeps the old text), and a file whose header's freelist count no longer matches its
pages (a torn copy or a faulty disk).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from alisio_fixtures import plugin_connection
from memory_desk.core import StoreError
from memory_desk.core.observations import ObservationStore, StoreDamaged
from window_helpers import make_database, stored_row

TITLES = ("First note", "Second note", "Third note")
_FREELIST_COUNT_OFFSET = 36  # the header's "total number of freelist pages"


def break_index(path: Path) -> Path:
    """Row 2 rewritten while the update trigger was missing: the index holds the old text."""
    with plugin_connection(path) as conn:
        sql = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'observations_au'"
        ).fetchone()[0]
        conn.execute("DROP TRIGGER observations_au")
        conn.execute("UPDATE observations SET content = '**What** rewritten' WHERE id = 2")
        conn.execute(sql)
    return path


def rebuild_index(path: Path) -> None:
    """What the person runs, agent stopped, when told to rebuild the index."""
    with plugin_connection(path) as conn:
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('rebuild')")


def damage_file(path: Path) -> Path:
    """The header claims freelist pages the file does not have: quick_check finds it, the
    open checks (which only read rows and the index) do not."""
    with path.open("r+b") as raw:
        raw.seek(_FREELIST_COUNT_OFFSET)
        raw.write((7).to_bytes(4, "big"))
    return path


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_database(tmp_path / "memory.sqlite", TITLES)


def test_a_healthy_database_is_writable_and_says_so(db: Path) -> None:
    with ObservationStore(db) as store:
        health = store.check_database()
        assert health.ok and health.message is None and store.damage is None
        store.pin([1])
    assert stored_row(db, 1)["pinned"] == 1


def test_a_broken_index_alone_advises_the_rebuild_and_refuses_writes(db: Path) -> None:
    break_index(db)
    with ObservationStore(db) as store:
        health = store.check_database()
        assert health.index_only and not health.ok
        assert "search index" in health.message and "damaged" in health.message
        assert "VALUES('rebuild')" in health.message and "agent stopped" in health.message
        assert "Check database" in health.message
        before = db.read_bytes()
        for write in (lambda: store.pin([1]), lambda: store.forget([3])):
            with pytest.raises(StoreDamaged, match="does not write to a damaged database"):
                write()
        assert db.read_bytes() == before

        rebuild_index(db)  # done outside, by the person
        assert store.check_database().ok  # checking again lifts the read-only state
        store.pin([1])
    assert stored_row(db, 1)["pinned"] == 1


def test_a_damaged_file_says_restore_a_backup_not_rebuild(db: Path) -> None:
    damage_file(db)
    with ObservationStore(db) as store:  # it opens: the rows can still be read
        assert [o.title for o in store.search(sort="id", descending=False)] == list(TITLES)
        health = store.check_database()
        assert health.database is not None and not health.index_only
        assert "is damaged" in health.message and "restore a backup" in health.message
        assert "VALUES('rebuild')" not in health.message
        assert "would not repair" in health.message
        before = db.read_bytes()
        with pytest.raises(StoreDamaged):
            store.edit(1, title="Mine")
        with pytest.raises(StoreDamaged):
            store.delete([2])
        assert db.read_bytes() == before
        assert store.read_only_reason == health.message


def test_check_index_still_answers_with_the_message(db: Path) -> None:
    break_index(db)
    with ObservationStore(db) as store:
        assert "rebuild" in (store.check_index() or "")


# ---------------------------------------------------------------- rows that cannot be read


def spoil_row(path: Path, id: int, assignment: str) -> None:
    with plugin_connection(path) as conn:
        conn.execute(f"UPDATE observations SET {assignment} WHERE id = ?", (id,))


def test_a_row_with_invalid_utf8_is_shown_as_such_and_the_rest_opens(db: Path) -> None:
    # Row 1 is one the open checks probe (first, middle, last): it must not stop the open.
    spoil_row(db, 1, "title = CAST(X'426164FF207469746C65' AS TEXT)")
    spoil_row(db, 3, "content = CAST(X'C328' AS TEXT)")
    with ObservationStore(db) as store:
        rows = {o.id: o for o in store.search(with_content=True)}
        assert set(rows) == {1, 2, 3}
        assert rows[1].title == "Bad\ufffd title"
        assert rows[1].problems and rows[1].problems[0].startswith("title: not valid UTF-8")
        assert rows[2].problems == ()
        assert rows[3].unreadable(["content"])
        assert store.get(1).problems == rows[1].problems
        assert store.totals().live == 3 and store.projects() == ["alpha-1a2b3c4d"]
        # Writing the title back would store U+FFFD for the bytes: refused, nothing written.
        with pytest.raises(StoreError, match="cannot be edited: title"):
            store.edit(1, content="new content")
        store.edit(1, title="Readable again")  # retyping the bad field is fine
        store.pin([3])  # writes that do not touch text go through
    with plugin_connection(db) as conn:
        conn.text_factory = bytes  # row 3's content cannot be read as text
        assert conn.execute("SELECT title FROM observations WHERE id = 1").fetchone() == (
            b"Readable again",
        )
        assert conn.execute("SELECT pinned FROM observations WHERE id = 3").fetchone() == (1,)


def test_a_value_of_the_wrong_type_is_a_problem_of_its_row_only(db: Path) -> None:
    spoil_row(db, 2, "created_at = 'yesterday', revision_count = X'00', tool_name = X'41'")
    with ObservationStore(db) as store:
        row = store.get(2)
        assert row.created_at == 0 and row.revision_count == 0 and row.tool_name == "A"
        assert any(p.startswith("created_at: text where") for p in row.problems)
        assert any(p.startswith("revision_count: binary data") for p in row.problems)
        assert any(p.startswith("tool_name: binary data") for p in row.problems)
        assert len(store.search()) == 3
        assert store.get(1).problems == ()


def test_without_lenient_decoding_sqlite_would_fail_the_whole_list(db: Path) -> None:
    """What the store guards against: Python's default decoder fails the whole query."""
    spoil_row(db, 2, "title = CAST(X'FF' AS TEXT)")
    conn = sqlite3.connect(db)
    try:
        with pytest.raises(sqlite3.OperationalError, match="decode"):
            conn.execute("SELECT title FROM observations").fetchall()
    finally:
        conn.close()
