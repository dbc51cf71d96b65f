"""The journal never loses an agent's change: not under the person's write that follows it,
not behind a save stamped ahead of the clock, not when the agent's clock is behind ours.

The agent is a real second process (``agents/alisio_one_write.py``, its clock moved with
``--clock-offset-ms``); the person writes through the app's own store, with the journal
witnessing, after the agent's commit and before the next scan.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from journal_helpers import alisio_agent as agent
from memory_desk.core import alisio
from memory_desk.core.journal import ChangeKind, Journal
from memory_desk.core.journal.witness import Witness
from memory_desk.core.observations import ObservationStore

MINUTE_MS = 60_000


def topic_db(path: Path, rows: int) -> Path:
    """``rows`` decisions saved as the plugin saves them, each on its own topic."""
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    for i in range(1, rows + 1):
        alisio.save_observation(
            conn,
            title=f"Row {i}",
            content=f"Content {i}",
            type="decision",
            project="proj-12345678",
            topic_key=f"topic/row-{i}",
        )
    conn.close()
    return path


def revise(db: Path, row: int, *more: str) -> None:
    """The agent rewrites row ``row`` on its topic (the plugin's revision)."""
    done = agent(
        db, "save", f"Agent row {row}", f"Agent text {row}", "--topic", f"topic/row-{row}", *more
    )
    assert done == {"id": row, "action": "revised"}


@pytest.fixture
def journal(tmp_path: Path):
    made = Journal(tmp_path / "journal" / "journal.sqlite")
    yield made
    made.close()


def listed(journal: Journal) -> dict[tuple[str, ChangeKind], object]:
    return {(c.target, c.kind): c for c in journal.changes()}


def the_persons_writes_after_the_agents(db: Path, journal: Journal) -> None:
    """The agent revised rows 1-5 and forgot row 6; the person then pins, edits (title, then
    type), forgets, deletes and restores them (``journal`` witnessing), before any scan."""
    for row in range(1, 6):
        revise(db, row)
    agent(db, "forget", "6")
    store = ObservationStore(db, witness=Witness(journal))
    try:
        store.pin([1])
        store.edit(2, title="My title")
        store.forget([3])
        store.delete([4])
        store.edit(5, type="bugfix")
        store.restore([6])
    finally:
        store.close()


def assert_the_agents_changes_are_listed(journal: Journal) -> None:
    found = listed(journal)
    assert set(found) == {(str(r), ChangeKind.REVISED) for r in range(1, 6)} | {
        ("6", ChangeKind.FORGOTTEN)
    }
    for row in range(1, 6):
        change = found[(str(row), ChangeKind.REVISED)]
        assert (change.old.title, change.old.body) == (f"Row {row}", f"Content {row}")
        assert (change.new.title, change.new.body) == (f"Agent row {row}", f"Agent text {row}")
        assert change.agent == "Alisio · memory_save" and change.chat == "chat-1"
    assert found[("6", ChangeKind.FORGOTTEN)].new.body == "Content 6"


def test_the_persons_write_right_after_the_agents_does_not_swallow_it(journal, tmp_path):
    db = topic_db(tmp_path / "memory.sqlite", 6)
    journal.scan_observations(db)
    the_persons_writes_after_the_agents(db, journal)
    assert journal.scan_observations(db) == 6
    assert_the_agents_changes_are_listed(journal)
    assert journal.scan_observations(db) == 0  # and the person's writes are never listed
    assert len(journal.changes()) == 6


def test_the_agents_change_under_the_persons_write_survives_a_quit(tmp_path):
    db = topic_db(tmp_path / "memory.sqlite", 6)
    path = tmp_path / "journal.sqlite"
    first = Journal(path)
    try:
        first.scan_observations(db)
        the_persons_writes_after_the_agents(db, first)
    finally:
        first.close()  # no scan: what the person's writes found is kept in the file
    second = Journal(path)
    try:
        assert second.scan_observations(db) == 6
        assert_the_agents_changes_are_listed(second)
    finally:
        second.close()


def test_two_agent_revisions_between_the_persons_two_writes_are_both_kept(journal, tmp_path):
    db = topic_db(tmp_path / "memory.sqlite", 1)
    journal.scan_observations(db)
    revise(db, 1)
    store = ObservationStore(db, witness=Witness(journal))
    try:
        store.pin([1])
        done = agent(db, "save", "Agent again", "Second text", "--topic", "topic/row-1")
        assert done["action"] == "revised"
        store.pin([1], pinned=False)
    finally:
        store.close()
    assert journal.scan_observations(db) == 2
    first, second = sorted(journal.changes(), key=lambda c: c.id)
    assert (first.old.body, first.new.body) == ("Content 1", "Agent text 1")
    assert (second.old.body, second.new.body) == ("Agent text 1", "Second text")


def test_a_save_stamped_ahead_of_the_clock_hides_no_later_revision(journal, tmp_path):
    db = topic_db(tmp_path / "memory.sqlite", 3)
    journal.scan_observations(db)
    revise(db, 1, "--clock-offset-ms", str(60 * MINUTE_MS))  # another machine, an hour ahead
    assert journal.scan_observations(db) == 1
    revise(db, 2)  # this machine's agent, on time: older than the newest updated_at seen
    assert journal.scan_observations(db) == 1
    agent(db, "save", "Row 1 once more", "Third text", "--topic", "topic/row-1")
    new = agent(db, "save", "A new one", "Brand new")
    agent(db, "forget", "3")
    assert journal.scan_observations(db) == 3
    found = listed(journal)
    assert ("2", ChangeKind.REVISED) in found and ("3", ChangeKind.FORGOTTEN) in found
    assert (str(new["id"]), ChangeKind.NEW) in found
    revisions = [c for c in journal.changes() if c.target == "1"]
    assert [c.new.body for c in sorted(revisions, key=lambda c: c.id)] == [
        "Agent text 1",
        "Third text",
    ]


@pytest.mark.parametrize("behind_ms", [2 * MINUTE_MS, 24 * 60 * MINUTE_MS])
def test_an_agent_whose_clock_is_behind_has_every_change_listed(journal, tmp_path, behind_ms):
    db = topic_db(tmp_path / "memory.sqlite", 6)
    journal.scan_observations(db)
    clock = ("--clock-offset-ms", str(-behind_ms))
    expected = set()
    for row in range(1, 6):  # five revisions, five new rows, four forgets: 14 changes
        revise(db, row, *clock)
        expected.add((str(row), ChangeKind.REVISED))
        assert journal.scan_observations(db) == 1
        new = agent(db, "save", f"New {row}", f"New text {row}", *clock)
        expected.add((str(new["id"]), ChangeKind.NEW))
        assert journal.scan_observations(db) == 1
        if row < 5:
            agent(db, "forget", str(new["id"]), *clock)
            expected.add((str(new["id"]), ChangeKind.FORGOTTEN))
            assert journal.scan_observations(db) == 1
    assert set(listed(journal)) == expected and len(expected) == 14


def test_a_journal_that_kept_no_signatures_still_finds_a_late_clocks_revision(tmp_path):
    """A journal file from before signatures: its first scan compares every row's
    updated_at with its baseline's, then keeps signatures."""
    db = topic_db(tmp_path / "memory.sqlite", 3)
    path = tmp_path / "journal.sqlite"
    first = Journal(path)
    first.scan_observations(db)
    first.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE stores SET signature = NULL")
    conn.commit()
    conn.close()
    revise(db, 2, "--clock-offset-ms", str(-30 * MINUTE_MS))
    second = Journal(path)
    try:
        assert second.scan_observations(db) == 1
        assert set(listed(second)) == {("2", ChangeKind.REVISED)}
        revise(db, 3, "--clock-offset-ms", str(-30 * MINUTE_MS))
        assert second.scan_observations(db) == 1
    finally:
        second.close()
