"""The journal's own robustness: a damaged file, whole versions, first looks in batches,
what it keeps in memory, and several threads at once."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from journal_helpers import alisio_agent, persona_agent
from memory_desk.core import alisio
from memory_desk.core.errors import StoreError
from memory_desk.core.journal import ChangeKind, Journal, ObservationState, observations
from memory_desk.core.journal import persona as persona_scan


def make_db(path: Path, rows: int = 5) -> Path:
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    for i in range(rows):
        alisio.save_observation(
            conn,
            title=f"Row {i}",
            content=f"Content {i}",
            type="decision",
            project="proj-12345678",
            scope="personal" if i == 3 else "project",
            session_id=f"chat-{i}",
            topic_key=f"topic/row-{i}" if i < 2 else None,
        )
    conn.close()
    return path


@pytest.mark.parametrize("damage", ["garbage", "folder"])
def test_a_journal_that_cannot_be_used_opens_damaged_and_clear_recovers(tmp_path, damage):
    path = tmp_path / "journal.sqlite"
    if damage == "garbage":
        path.write_bytes(b"this is not a database at all" * 200)
    else:
        path.mkdir()  # not even a file
    journal = Journal(path)  # never raises
    try:
        assert journal.problem is not None and str(path) in journal.problem
        for call in (
            journal.changes,
            journal.pending_count,
            journal.size_bytes,
            journal.prune,
            lambda: journal.scan_observations(tmp_path / "memory.sqlite"),
            lambda: journal.mark_reviewed([1]),
        ):
            with pytest.raises(StoreError) as raised:
                call()
            assert str(raised.value) == journal.problem
        journal.expect_persona(tmp_path, "likes-tea", "text")  # the person's write: no error
        if damage == "folder":
            path.rmdir()
        journal.clear()
        assert journal.problem is None and journal.changes() == []
        db = make_db(tmp_path / "memory.sqlite")
        assert journal.scan_observations(db) == 0 and journal.last_scan.baseline
    finally:
        journal.close()


def test_remove_files_starts_a_journal_afresh(tmp_path):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"garbage" * 500)
    Journal.remove_files(path)
    journal = Journal(path)
    try:
        assert journal.problem is None and journal.changes() == []
    finally:
        journal.close()


def test_a_deleted_row_can_be_rebuilt_from_its_last_version(tmp_path):
    db = make_db(tmp_path / "memory.sqlite")
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        journal.scan_observations(db)
        alisio_agent(db, "delete", "4")
        assert journal.scan_observations(db) == 1
        (change,) = journal.changes()
        assert change.kind == ChangeKind.DELETED
        old = change.old
        assert (old.title, old.body, old.type, old.description) == (
            "Row 3",
            "Content 3",
            "decision",
            "",
        )
        assert (old.project, old.scope, old.session_id) == ("proj-12345678", "personal", "chat-3")
        assert old.revision == 1 and old.tool_name == alisio_row_tool(db)
    finally:
        journal.close()


def alisio_row_tool(db: Path) -> str | None:
    """What the plugin's save put in tool_name (the fixture's rows are all alike)."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT tool_name FROM observations WHERE id = 1").fetchone()[0]
    finally:
        conn.close()


def test_the_persons_text_replaced_by_the_agent_keeps_its_columns(tmp_path):
    db = make_db(tmp_path / "memory.sqlite")
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        journal.scan_observations(db)
        mine = ObservationState(
            type="decision",
            title="Row 2",
            content="Mine",
            topic_key=None,
            forgotten=False,
            revision_count=1,
            project="proj-12345678",
            scope="project",
            session_id="chat-2",
        )
        journal.expect_observations(db, {3: mine})
        alisio_agent(db, "delete", "3")
        journal.scan_observations(db)
        (change,) = journal.changes()
        assert change.old.body == "Mine" and change.old.project == "proj-12345678"
        assert change.old.session_id == "chat-2"
    finally:
        journal.close()


def test_a_first_look_goes_in_batches_with_a_pause_between(tmp_path, monkeypatch):
    db = make_db(tmp_path / "memory.sqlite", rows=7)
    folder = tmp_path / "memory"
    folder.mkdir()
    for i in range(5):
        persona_agent(folder, f"entry-{i}", "user", f"Entry {i}", "Body.")
    monkeypatch.setattr(observations, "BASELINE_BATCH", 3)
    monkeypatch.setattr(persona_scan, "BATCH", 2)
    journal = Journal(tmp_path / "journal.sqlite")
    pauses = []
    journal.pause = lambda: pauses.append(1)
    try:
        assert journal.scan_observations(db) == 0 and journal.last_scan.rows == 7
        assert len(pauses) == 4  # the 2 topic rows, then 3 + 3 + 1 rows (read again, skipped)
        assert journal.scan_persona(folder, "miyagi") == 0
        assert len(pauses) == 7  # 2 + 2 + 1 files
        alisio_agent(db, "save", "Row 0 again", "New text", "--topic", "topic/row-0")
        persona_agent(folder, "entry-4", "user", "Entry 4", "Changed.")
        assert journal.scan_observations(db) == 1 and journal.scan_persona(folder, "miyagi") == 1
        observation_change, persona_change = sorted(journal.changes(), key=lambda c: c.store_kind)
        assert observation_change.old.body == "Content 0"
        assert observation_change.new.body == "New text"
        assert persona_change.old.body == "Body." and persona_change.new.body == "Changed."
        assert persona_change.old.description == "Entry 4" and persona_change.old.type == "user"
    finally:
        journal.close()


def test_an_unchanged_folder_is_compared_with_memory_not_the_journal_file(tmp_path):
    folder = tmp_path / "memory"
    folder.mkdir()
    persona_agent(folder, "likes-tea", "user", "Drinks tea", "Green.")
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        journal.scan_persona(folder, "miyagi")
        other = sqlite3.connect(journal.path)
        other.execute("DELETE FROM targets")  # the file no longer says what was seen
        other.commit()
        other.close()
        assert journal.scan_persona(folder, "miyagi") == 0
        assert journal.last_scan.rows == 0 and journal.changes() == []
    finally:
        journal.close()


def test_scans_writes_and_reads_on_four_threads(tmp_path):
    db = make_db(tmp_path / "memory.sqlite")
    folder = tmp_path / "memory"
    folder.mkdir()
    persona_agent(folder, "likes-tea", "user", "Drinks tea", "Green.")
    journal = Journal(tmp_path / "journal.sqlite")
    journal.scan_observations(db)
    journal.scan_persona(folder, "miyagi")
    conn = alisio.connect_like_plugin(db)
    for i in range(20):  # the agent's changes, made before the threads start
        alisio.save_observation(
            conn, title=f"New {i}", content=f"n{i}", type="decision", project="proj-12345678"
        )
    conn.close()
    for i in range(20):
        (folder / f"agent-{i}.md").write_text(
            f"---\nname: agent-{i}\ndescription: By the agent\ntype: user\n---\n\nBody {i}.\n"
        )
    errors: list[BaseException] = []
    stop = threading.Event()

    def run(work) -> None:  # noqa: ANN001 - a callable
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    def scan_db() -> None:
        for _ in range(20):
            journal.scan_observations(db)

    def scan_folder() -> None:
        for _ in range(20):
            journal.scan_persona(folder, "miyagi")

    def person() -> None:
        for i in range(200):
            state = ObservationState("decision", f"p{i}", "x", None, False, 1)
            journal.expect_observations(db, {10_000 + i: state})
            journal.expect_persona(folder, f"mine-{i}", f"text {i}")

    def reader() -> None:
        while not stop.is_set():
            journal.changes()
            journal.pending_count()

    threads = [threading.Thread(target=run, args=(w,)) for w in (scan_db, scan_folder, person)]
    listing = threading.Thread(target=run, args=(reader,))
    for thread in [*threads, listing]:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    listing.join()
    try:
        assert errors == []
        journal.scan_observations(db)
        journal.scan_persona(folder, "miyagi")
        found = [(c.store_kind, c.target) for c in journal.changes()]
        assert len(found) == len(set(found)) == 40  # nothing lost, nothing twice
        assert {t for k, t in found if k == "persona"} == {f"agent-{i}" for i in range(20)}
    finally:
        journal.close()
