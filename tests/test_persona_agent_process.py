"""The agent as a real second process (tests/agents/persona_agent.py) and Memory Desk."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from memory_desk.core import ConflictError
from memory_desk.core.persona import PersonaFolder, agent_index

AGENT = Path(__file__).parent / "agents" / "persona_agent.py"


def run_agent(folder: Path, *args: str) -> list[str]:
    """Run the agent script to completion; returns the lines it printed."""
    done = subprocess.run(
        [sys.executable, str(AGENT), str(folder), *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout.splitlines()


def test_memory_desk_reads_what_the_agent_wrote(tmp_path: Path) -> None:
    out = run_agent(
        tmp_path, "no-fish-puns", "feedback", "Dislikes fish puns", "\n Rule: never. \n"
    )
    updated = out[0].split()[-1]
    entry = PersonaFolder(tmp_path).read("no-fish-puns")
    assert (entry.type, entry.description, entry.updated, entry.body) == (
        "feedback",
        "Dislikes fish puns",
        updated,
        "Rule: never.",
    )
    assert entry.problems == () and entry.editable
    assert agent_index([entry]) == "- no-fish-puns (feedback): Dislikes fish puns"


def test_create_writes_the_same_bytes_as_the_agent(tmp_path: Path) -> None:
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    created = PersonaFolder(ours).create(
        name="prefers-tea", type="user", description="Tea, not coffee", body="Since 2020.\n"
    )
    run_agent(
        theirs,
        "prefers-tea",
        "user",
        "Tea, not coffee",
        "Since 2020.",
        "--updated",
        created.updated,
    )
    assert created.path.read_bytes() == (theirs / "prefers-tea.md").read_bytes()


def test_the_agent_saving_in_between_is_a_conflict(tmp_path: Path) -> None:
    run_agent(
        tmp_path,
        "short-answers",
        "feedback",
        "Short answers",
        "v1",
        "--updated",
        "2026-01-01T00:00:00.000Z",
    )
    folder = PersonaFolder(tmp_path)
    entry = folder.read("short-answers")
    run_agent(
        tmp_path,
        "short-answers",
        "feedback",
        "Short answers",
        "v2",
        "--updated",
        "2026-01-01T00:00:00.000Z",
    )
    theirs = entry.path.read_bytes()
    with pytest.raises(ConflictError):
        folder.save(dataclasses.replace(entry, body="mine"))
    assert entry.path.read_bytes() == theirs and folder.has_changed(entry)


def test_the_agent_drops_extra_keys_and_memory_desk_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "with-extra.md"
    path.write_text("---\nname: with-extra\nsource: chat\ndescription: d\ntype: user\n---\nx\n")
    folder = PersonaFolder(tmp_path)
    saved = folder.save(dataclasses.replace(folder.read("with-extra"), body="y"))
    assert saved.extra == (("source", "chat"),)
    run_agent(tmp_path, "with-extra", "user", "d", "z")
    assert folder.read("with-extra").extra == ()


@pytest.mark.parametrize("mode", [[], ["--atomic"]])
def test_repeated_writes_and_forget(tmp_path: Path, mode: list[str]) -> None:
    out = run_agent(tmp_path, "counter", "user", "Write {n}", "Body {n}", "--repeat", "3", *mode)
    assert len(out) == 3
    entry = PersonaFolder(tmp_path).read("counter")
    assert (entry.description, entry.body) == ("Write 3", "Body 3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counter.md"]
    run_agent(tmp_path, "counter", "--forget")
    assert PersonaFolder(tmp_path).entries() == []
