"""The journal's observations scan, against plugin-made databases and a real agent process."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest

from journal_helpers import alisio_agent as agent
from memory_desk.core import alisio
from memory_desk.core.errors import StoreError
from memory_desk.core.journal import ChangeKind, Journal, JournalLimits
from memory_desk.core.journal.witness import Witness
from memory_desk.core.observations import ObservationStore


def plugin_db(path: Path, rows: int, content, topic) -> Path:  # noqa: ANN001 (functions of i)
    """``rows`` decisions saved as the plugin saves them, titled ``Row i``."""
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    for i in range(rows):
        alisio.save_observation(
            conn,
            title=f"Row {i}",
            content=content(i),
            type="decision",
            project="proj-12345678",
            topic_key=topic(i),
        )
    conn.close()
    return path


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return plugin_db(
        tmp_path / "memory.sqlite",
        5,
        content=lambda i: f"Content {i}",
        topic=lambda i: f"topic/row-{i}" if i < 2 else None,
    )


@pytest.fixture
def journal(tmp_path: Path):
    made = Journal(tmp_path / "journal" / "journal.sqlite")
    yield made
    made.close()


def test_first_scan_is_a_silent_baseline_and_an_unchanged_store_is_not_read(db, journal):
    assert journal.scan_observations(db) == 0
    assert journal.last_scan.baseline and journal.last_scan.rows == 5
    assert journal.changes() == []
    assert journal.scan_observations(db) == 0
    assert not journal.last_scan.opened and journal.last_scan.rows == 0


def test_agent_writes_while_closed_are_listed_once_each(db, tmp_path):
    path = tmp_path / "j.sqlite"
    first = Journal(path)
    first.scan_observations(db)
    first.close()
    revised = agent(db, "save", "Row 0 again", "New text", "--topic", "topic/row-0")
    assert revised["action"] == "revised"
    new = agent(db, "save", "Brand new", "Fresh", "--session", "chat-9")
    agent(db, "forget", "3")
    agent(db, "delete", "4")
    second = Journal(path)
    try:
        assert second.scan_observations(db) == 4
        assert second.scan_observations(db) == 0
        found = {(c.target, c.kind): c for c in second.changes()}
        assert set(found) == {
            (str(revised["id"]), ChangeKind.REVISED),
            (str(new["id"]), ChangeKind.NEW),
            ("3", ChangeKind.FORGOTTEN),
            ("4", ChangeKind.DELETED),
        }
        rev = found[(str(revised["id"]), ChangeKind.REVISED)]
        assert (rev.old.title, rev.old.body, rev.old.revision) == ("Row 0", "Content 0", 1)
        assert (rev.new.title, rev.new.body, rev.new.revision) == ("Row 0 again", "New text", 2)
        assert rev.agent == "Alisio · memory_save" and rev.chat == "chat-1"
        assert found[(str(new["id"]), ChangeKind.NEW)].chat == "chat-9"
        assert found[("4", ChangeKind.DELETED)].old.body == "Content 3"
        assert found[("4", ChangeKind.DELETED)].new is None
        assert second.pending_count(str(db)) == 4
    finally:
        second.close()


def test_a_duplicate_save_is_not_a_change(db, journal):
    journal.scan_observations(db)
    assert agent(db, "save", "Row 2", "Content 2")["action"] == "duplicate"
    assert journal.scan_observations(db) == 0


def test_a_rescan_after_a_save_reads_only_the_rows_it_needs(db, journal):
    journal.scan_observations(db)
    agent(db, "save", "Another", "One more")
    journal.scan_observations(db)
    assert journal.last_scan.opened and journal.last_scan.rows == 1


def test_a_replaced_file_takes_a_new_baseline(db, journal, tmp_path):
    journal.scan_observations(db)
    other = tmp_path / "other.sqlite"
    alisio.create_database(other)
    os.replace(other, db)
    assert journal.scan_observations(db) == 0
    assert journal.last_scan.replaced and journal.changes() == []


def test_the_persons_writes_are_not_listed_even_with_the_agent_right_after(db, journal):
    journal.scan_observations(db)
    store = ObservationStore(db, witness=Witness(journal))
    try:
        store.edit(3, title="Edited by me", content="My words")
        store.pin([1])
        store.forget([2])
        store.delete([5])
        assert journal.scan_observations(db) == 0
        store.edit(1, content="Person's text")
        agent(db, "save", "Row 0", "Agent's text", "--topic", "topic/row-0")
    finally:
        store.close()
    assert journal.scan_observations(db) == 1
    (change,) = journal.changes()
    assert change.kind == ChangeKind.REVISED and change.target == "1"
    assert change.old.body == "Person's text" and change.new.body == "Agent's text"


def test_a_rolled_back_write_leaves_nothing_expected(db, journal):
    journal.scan_observations(db)
    store = ObservationStore(db, witness=Witness(journal))
    try:
        with pytest.raises(RuntimeError):
            store._db.write("test", _edit_then_fail)
    finally:
        store.close()
    conn = alisio.connect_like_plugin(db)
    conn.execute(
        "UPDATE observations SET title = 'Mine?', updated_at = ? WHERE id = 3", (alisio.now_ms(),)
    )
    conn.close()
    assert journal.scan_observations(db) == 1


def _edit_then_fail(conn):
    conn.execute("UPDATE observations SET title = 'Mine?' WHERE id = 3")
    raise RuntimeError("the write fails before COMMIT")


def test_off_records_nothing_and_clear_starts_a_new_baseline(db, journal):
    journal.scan_observations(db)
    journal.set_limits(JournalLimits(enabled=False))
    agent(db, "save", "While off", "x")
    assert journal.scan_observations(db) == 0
    journal.set_limits(JournalLimits())
    assert journal.scan_observations(db) == 0 and journal.last_scan.baseline
    agent(db, "save", "After", "y")
    assert journal.scan_observations(db) == 1
    journal.clear()
    assert journal.changes() == [] and journal.scan_observations(db) == 0
    assert journal.last_scan.baseline


def test_the_journal_file_is_private(db, journal):
    journal.scan_observations(db)
    assert stat.S_IMODE(os.stat(journal.path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(journal.path.parent).st_mode) == 0o700


def test_a_long_run_stays_within_the_size_limit(db, tmp_path):
    limit = 400 * 1024
    journal = Journal(tmp_path / "small.sqlite", JournalLimits(max_bytes=limit))
    try:
        journal.scan_observations(db)
        conn = alisio.connect_like_plugin(db)
        for i in range(150):
            alisio.save_observation(
                conn,
                title=f"Rev {i}",
                content=os.urandom(2000).hex(),
                type="decision",
                project="proj-12345678",
                topic_key="topic/row-0",
            )
            if i % 10 == 0:
                journal.scan_observations(db)
        conn.close()
        journal.scan_observations(db)
        assert journal.size_bytes() <= limit
        assert journal.changes()  # the newest changes are kept
    finally:
        journal.close()


def test_age_pruning_drops_old_changes(db, journal):
    journal.scan_observations(db)
    agent(db, "save", "Old news", "z")
    journal.scan_observations(db)
    assert journal.changes()
    journal.set_limits(JournalLimits(max_age_days=0))
    assert journal.changes() == []


def test_review_marks(db, journal):
    journal.scan_observations(db)
    agent(db, "forget", "2")
    agent(db, "forget", "3")
    journal.scan_observations(db)
    first, second = journal.changes()
    assert journal.pending_targets(str(db)) == {"2", "3"}
    journal.mark_reviewed([first.id])
    assert journal.pending_count() == 1 and journal.change(first.id).reviewed
    assert len(journal.changes(include_reviewed=True)) == 2
    journal.mark_all_reviewed(str(db))
    assert journal.pending_count(str(db)) == 0


def test_a_damaged_journal_is_a_store_error_and_clear_recovers(db, tmp_path):
    path = tmp_path / "bad.sqlite"
    path.write_bytes(b"this is not a database at all" * 200)
    journal = Journal(path)
    try:
        with pytest.raises(StoreError, match="Clear the journal"):
            journal.changes()
        journal.clear()
        assert journal.scan_observations(db) == 0 and journal.changes() == []
    finally:
        journal.close()


def test_a_store_whose_baselines_fill_the_size_limit_still_keeps_its_changes(tmp_path):
    """The limit counts what pruning can let go (changes and texts), not the baselines: a
    1,000,000-row store's baselines (126 MB) are over the default 100 MB, and counted in,
    every change was deleted as soon as it was recorded."""
    from memory_desk.core.journal import limits as journal_limits

    path = plugin_db(
        tmp_path / "memory.sqlite",
        3000,
        content=lambda i: f"Content {i} " + "x" * 200,
        topic=lambda i: f"topic/row-{i}",
    )
    limit = 160 * 1024  # the 3,000 baselines alone: about 250 KB
    journal = Journal(tmp_path / "journal.sqlite", JournalLimits(max_bytes=limit))
    try:
        journal.scan_observations(db=path)
        agent(path, "save", "Row 2999 again", "Revised text", "--topic", "topic/row-2999")
        agent(path, "forget", "5")
        assert journal.scan_observations(path) == 2
        kinds = sorted(change.kind.value for change in journal.changes())
        assert kinds == sorted([ChangeKind.REVISED.value, ChangeKind.FORGOTTEN.value])
        (revised,) = [c for c in journal.changes() if c.kind == ChangeKind.REVISED]
        assert revised.old.body.startswith("Content 2999")  # the newest topic text was kept
        assert journal.size_bytes() > limit  # the baselines are beside the limit...
        jdb = journal._db  # noqa: SLF001 (the file's own accounting)
        assert journal_limits.history_bytes(jdb) <= limit  # ...and the rest within it
    finally:
        journal.close()


def test_the_size_estimates_match_the_journals_own_pages(tmp_path):
    """The limit's estimates (a baseline row, a text on disk) against what SQLite's dbstat
    says the pages hold, within 15-20 %: too high, and the journal keeps more than its limit;
    too low, and it drops what it could keep."""
    from memory_desk.core.journal import first_look
    from memory_desk.core.journal import limits as journal_limits

    path = plugin_db(
        tmp_path / "memory.sqlite",
        4000,
        content=lambda i: f"**What**: {os.urandom(120).hex()}\n**Why**: reason {i % 13}",
        topic=lambda i: f"topic/row-{i}" if i % 5 == 0 else None,
    )
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        journal.scan_observations(path)
    finally:
        journal.close()
    check = sqlite3.connect(tmp_path / "journal.sqlite")
    try:
        pages = dict(check.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"))
        rows = check.execute("SELECT count(*) FROM targets").fetchone()[0]
        texts = check.execute("SELECT sum(length(data)) FROM versions").fetchone()[0]
    except sqlite3.OperationalError as exc:
        pytest.skip(
            f"this SQLite was built without the dbstat table, which the check reads ({exc})"
        )
    finally:
        check.close()
    per_row = (pages["targets"] + pages["targets_version"]) / rows
    on_disk = (pages["versions"] + pages["versions_seen"]) / texts
    assert 0.85 <= journal_limits.ROW_BYTES / per_row <= 1.2, per_row
    assert 0.85 <= first_look.TEXT_ON_DISK / on_disk <= 1.2, on_disk
