"""The journal's persona scan: files written exactly as the agent writes them (its own process)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from journal_helpers import PERSONA_AGENT as AGENT
from journal_helpers import persona_agent as agent
from memory_desk.core.journal import ChangeKind, Journal
from memory_desk.core.journal.witness import Witness
from memory_desk.core.persona import PersonaFolder


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "memory"
    made.mkdir()
    agent(made, "no-fish-puns", "feedback", "Dislikes fish puns", "Rule: never.")
    agent(made, "likes-tea", "user", "Drinks tea", "Green, mostly.")
    return made


@pytest.fixture
def journal(tmp_path: Path):
    made = Journal(tmp_path / "journal.sqlite")
    yield made
    made.close()


def test_agent_writes_while_closed_are_listed_once_each(folder, tmp_path):
    path = tmp_path / "j.sqlite"
    first = Journal(path)
    assert first.scan_persona(folder, "miyagi") == 0
    first.close()
    agent(folder, "no-fish-puns", "feedback", "Dislikes fish puns", "Rule: never, ever.")
    agent(folder, "new-rule", "feedback", "Something new", "Body.")
    agent(folder, "likes-tea", "user", "x", "y", "--forget")
    (folder / "Not An Entry.md").write_text("ignored")
    second = Journal(path)
    try:
        assert second.scan_persona(folder, "miyagi") == 3
        assert second.scan_persona(folder, "miyagi") == 0
        found = {(c.target, c.kind): c for c in second.changes()}
        assert set(found) == {
            ("no-fish-puns", ChangeKind.CHANGED),
            ("new-rule", ChangeKind.NEW),
            ("likes-tea", ChangeKind.REMOVED),
        }
        changed = found[("no-fish-puns", ChangeKind.CHANGED)]
        assert changed.old.body == "Rule: never." and changed.new.body == "Rule: never, ever."
        assert changed.new.type == "feedback" and changed.new.raw.startswith("---\nname:")
        assert changed.agent == "miyagi" and changed.chat is None
        assert found[("likes-tea", ChangeKind.REMOVED)].old.description == "Drinks tea"
        assert second.pending_targets(str(folder)) == {"no-fish-puns", "new-rule", "likes-tea"}
    finally:
        second.close()


def test_an_unchanged_folder_reads_no_file(folder, journal):
    journal.scan_persona(folder, "miyagi")
    journal.scan_persona(folder, "miyagi")
    assert journal.last_scan.rows == 0


def test_a_half_written_file_is_one_change(folder, journal):
    journal.scan_persona(folder, "miyagi")
    half = subprocess.Popen(
        [
            sys.executable,
            str(AGENT),
            str(folder),
            "likes-tea",
            "user",
            "Drinks tea",
            "A much longer body " * 50,
            "--split-write",
            "1",
        ],
        stdout=subprocess.PIPE,
    )
    try:
        for _ in range(40):
            journal.scan_persona(folder, "miyagi")
            if half.poll() is not None:
                break
            subprocess.run([sys.executable, "-c", "import time; time.sleep(0.05)"], check=True)
    finally:
        half.wait(timeout=30)
        half.stdout.close()
    journal.scan_persona(folder, "miyagi")
    (change,) = journal.changes()
    assert change.kind == ChangeKind.CHANGED and change.new.body.endswith("body")


def test_the_persons_writes_are_not_listed_even_with_the_agent_right_after(folder, journal):
    journal.scan_persona(folder, "miyagi")
    store = PersonaFolder(folder, witness=Witness(journal))
    entry = store.read("likes-tea")
    store.save(dataclasses.replace(entry, body="Black, mostly."))
    store.create(name="mine", type="user", description="Mine", body="By me.")
    store.forget("no-fish-puns")
    assert journal.scan_persona(folder, "miyagi") == 0
    agent(folder, "mine", "user", "Mine", "The agent's words.")
    assert journal.scan_persona(folder, "miyagi") == 1
    (change,) = journal.changes()
    assert change.kind == ChangeKind.CHANGED and change.old.body == "By me."
