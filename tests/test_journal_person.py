"""The person's own writes and the journal: never waited for, never listed as the agent's."""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from pathlib import Path

import pytest

from journal_helpers import persona_agent
from memory_desk.core import alisio
from memory_desk.core.journal import ChangeKind, Journal
from memory_desk.core.journal.witness import Witness
from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import PersonaFolder
from memory_desk.core.persona.moves import rename_within


def make_db(path: Path) -> Path:
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    for i in range(3):
        alisio.save_observation(
            conn,
            title=f"Row {i}",
            content=f"Content {i}",
            type="decision",
            project="proj-12345678",
            topic_key="topic/row-0" if i == 0 else None,
        )
    conn.close()
    return path


def make_folder(path: Path) -> Path:
    path.mkdir()
    persona_agent(path, "likes-tea", "user", "Drinks tea", "Green, mostly.")
    return path


@pytest.fixture
def journal(tmp_path: Path):
    made = Journal(tmp_path / "journal" / "journal.sqlite")
    yield made
    made.close()


def test_the_persons_writes_complete_while_the_journal_file_is_locked(journal, tmp_path):
    db = make_db(tmp_path / "memory.sqlite")
    folder = make_folder(tmp_path / "memory")
    journal.scan_observations(db)
    journal.scan_persona(folder, "miyagi")
    locker = sqlite3.connect(journal.path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # another writer holds the journal's write lock
    witness = Witness(journal)
    store = ObservationStore(db, witness=witness)
    try:
        store.edit(2, title="Edited by me", content="My words")
        persona = PersonaFolder(folder, witness=witness)
        entry = persona.read("likes-tea")
        persona.save(dataclasses.replace(entry, body="Black, mostly."))
        assert locker.in_transaction  # both writes completed while the lock was held
    finally:
        store.close()
        locker.execute("ROLLBACK")
        locker.close()
    assert journal.scan_observations(db) == 0
    assert journal.scan_persona(folder, "miyagi") == 0
    assert journal.changes() == []


def test_a_quit_right_after_the_persons_write_still_attributes_it(tmp_path):
    db = make_db(tmp_path / "memory.sqlite")
    folder = make_folder(tmp_path / "memory")
    path = tmp_path / "journal.sqlite"
    first = Journal(path)
    witness = Witness(first)
    try:
        first.scan_observations(db)
        first.scan_persona(folder, "miyagi")
        store = ObservationStore(db, witness=witness)
        store.edit(3, title="Mine", content="Written just before quitting")
        store.close()
        persona = PersonaFolder(folder, witness=witness)
        persona.create(name="mine", type="user", description="Mine", body="Me.")
    finally:
        witness.attach(None)
        first.close()  # no scan in between: the close keeps what waits
    second = Journal(path)
    try:
        assert second.scan_observations(db) == 0
        assert second.scan_persona(folder, "miyagi") == 0
        persona_agent(folder, "mine", "user", "Mine", "The agent's words.")
        assert second.scan_persona(folder, "miyagi") == 1
        (change,) = second.changes()
        assert change.kind == ChangeKind.CHANGED and change.old.body == "Me."
    finally:
        second.close()


def test_two_quick_saves_seen_between_them_are_both_the_persons(journal, tmp_path):
    folder = make_folder(tmp_path / "memory")
    journal.scan_persona(folder, "miyagi")
    persona = PersonaFolder(folder, witness=Witness(journal))
    persona.save(dataclasses.replace(persona.read("likes-tea"), body="First."))
    second = dataclasses.replace(persona.read("likes-tea"), body="Second.")
    assert journal.scan_persona(folder, "miyagi") == 0  # sees the first save
    persona.save(second)
    assert journal.scan_persona(folder, "miyagi") == 0
    assert journal.changes() == []


def test_a_rename_inside_the_folder_is_the_persons(journal, tmp_path):
    folder = make_folder(tmp_path / "memory")
    journal.scan_persona(folder, "miyagi")
    aside = folder / "notes.txt"
    aside.write_text("---\nname: good-name\ndescription: Kept aside\ntype: user\n---\n\nBody.\n")
    witness = Witness(journal)
    rename_within(aside, folder / "good-name.md", witness=witness)  # now the agent lists it
    assert journal.scan_persona(folder, "miyagi") == 0
    rename_within(folder / "good-name.md", aside, witness=witness)  # and its undo
    assert journal.scan_persona(folder, "miyagi") == 0
    assert journal.changes() == []


def test_a_folder_whose_name_is_not_utf8_is_followed(journal, tmp_path):
    folder = make_folder(Path(os.fsdecode(os.path.join(os.fsencode(tmp_path), b"caf\xe9"))))
    agent_name = "caf\udce9"  # the sidebar shows the folder's name
    assert journal.scan_persona(folder, agent_name) == 0
    persona = PersonaFolder(folder, witness=Witness(journal))
    persona.save(dataclasses.replace(persona.read("likes-tea"), body="Mine."))
    persona_agent(folder, "new-rule", "feedback", "Something new", "Body.")
    assert journal.scan_persona(folder, agent_name) == 1
    (change,) = journal.changes(store=str(folder))
    assert change.store == str(folder) and change.target == "new-rule"
    assert change.kind == ChangeKind.NEW and change.agent == "caf\ufffd"
    assert journal.pending_targets(str(folder)) == {"new-rule"}
    journal.mark_all_reviewed(str(folder))
    assert journal.pending_count() == 0


def test_stores_opened_before_the_journal_is_attached_report_to_it(journal, tmp_path):
    """The window opens its stores before the review desk opens the journal: the witness
    they were given hears their writes once the journal is attached to it."""
    db = make_db(tmp_path / "memory.sqlite")
    folder = make_folder(tmp_path / "memory")
    witness = Witness()
    store = ObservationStore(db, witness=witness)
    persona = PersonaFolder(folder, witness=witness)
    journal.scan_observations(db)
    journal.scan_persona(folder, "miyagi")
    witness.attach(journal)
    try:
        store.edit(2, title="Edited by me", content="My words")
        persona.save(dataclasses.replace(persona.read("likes-tea"), body="Black, mostly."))
        persona.forget("likes-tea")
    finally:
        store.close()
    assert journal.scan_observations(db) == 0
    assert journal.scan_persona(folder, "miyagi") == 0
    assert journal.changes() == []


def test_a_store_given_no_witness_is_not_heard_by_another_stores_journal(journal, tmp_path):
    """The journal hears the stores given its witness, not every store of the process: a
    store opened without one (a tool's) writes like any other program."""
    db = make_db(tmp_path / "memory.sqlite")
    folder = make_folder(tmp_path / "memory")
    journal.scan_observations(db)
    journal.scan_persona(folder, "miyagi")
    witness = Witness(journal)
    heard, unheard = ObservationStore(db, witness=witness), ObservationStore(db)
    try:
        heard.edit(1, content="Mine, heard")
        unheard.edit(2, content="A tool's")
    finally:
        heard.close()
        unheard.close()
    PersonaFolder(folder, witness=witness).create(
        name="mine", type="user", description="Mine", body="Me."
    )
    PersonaFolder(folder).create(name="tools", type="user", description="A tool's", body="It.")
    assert journal.scan_observations(db) == 1
    assert journal.scan_persona(folder, "miyagi") == 1
    assert {(c.target, c.kind) for c in journal.changes()} == {
        ("2", ChangeKind.REVISED),
        ("tools", ChangeKind.NEW),
    }
