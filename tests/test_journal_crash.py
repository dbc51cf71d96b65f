"""The person's own writes are the person's, even after a crash.

A real process runs Memory Desk's persona save and the review page's rollback with the
journal witnessing (``agents/persona_journal_victim.py``) and is SIGKILLed at a random
instant of its writes, many times; between two kills the agent (a real process too)
sometimes rewrites an entry. After every kill the journal is opened again and scans the
folder, as the next start does: every change it lists is one of the agent's (its bodies start
with "agent"), never one of the person's saves, rollbacks or renames, its old side (what a
rollback writes back) is the text the agent's write replaced, no entry is left under two
names, and the agent's newest write of each entry it touched is listed.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from journal_helpers import alisio_agent, persona_agent
from memory_desk.core import alisio
from memory_desk.core.journal import ChangeKind, Journal
from memory_desk.core.persona import PersonaFolder

VICTIM = Path(__file__).parent / "agents" / "persona_journal_victim.py"
ROWS_VICTIM = Path(__file__).parent / "agents" / "observations_journal_victim.py"
KILLS = 30
MAX_DELAY_S = 0.4
SEED = 20261207
ENTRIES = ("likes-tea", "no-fish-puns", "short-answers")
READY_S = 30


def start_victim(folder: Path, journal: Path, seed: int, script: Path = VICTIM) -> subprocess.Popen:
    victim = subprocess.Popen(
        [sys.executable, str(script), str(folder), str(journal), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = victim.stdout.readline()  # blocks until the victim has scanned and starts writing
    if line.strip() != "ready":
        victim.kill()
        _out, err = victim.communicate(timeout=READY_S)
        raise AssertionError(f"the victim did not start: {line!r} {err}")
    return victim


def listed(journal_path: Path, folder: Path) -> list:
    """The next start: the folder opened (a rename a kill left half-way is finished), then
    the journal's scan."""
    PersonaFolder(folder).tidy(stale_after_s=0)
    journal = Journal(journal_path)
    try:
        assert journal.problem is None, journal.problem
        journal.scan_persona(folder, "miyagi")
        return journal.changes(include_reviewed=True, limit=100_000)
    finally:
        journal.close()


def test_a_kill_at_any_point_of_a_save_or_rollback_never_lists_it_as_the_agents(tmp_path):
    folder = tmp_path / "memory"
    folder.mkdir()
    for name in ENTRIES:
        persona_agent(folder, name, "user", f"About {name}", f"base {name}")
    journal_path = tmp_path / "journal" / "journal.sqlite"
    assert listed(journal_path, folder) == []  # the first look: a silent baseline
    rng = random.Random(SEED)
    newest_agent_body: dict[str, str] = {}
    replaced: dict[str, set[str]] = {}  # per entry, the texts the agent's writes replaced
    rollbacks = 0
    for kill in range(KILLS):
        if kill % 2 == 0:
            name = rng.choice(ENTRIES)
            newest_agent_body[name] = f"agent {kill}"
            if (folder / f"{name}.md").exists():  # what the agent's write replaces
                replaced.setdefault(name, set()).add(PersonaFolder(folder).read(name).body)
            persona_agent(folder, name, "user", f"About {name}", f"agent {kill}")
        victim = start_victim(folder, journal_path, SEED + kill)
        time.sleep(rng.uniform(0, MAX_DELAY_S))  # a random instant of its writes
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=READY_S)
        assert victim.returncode == -signal.SIGKILL, victim.stderr.read()
        rollbacks += victim.stdout.read().count("rolled back")
        victim.stdout.close()
        victim.stderr.close()
        changes = listed(journal_path, folder)
        mine = [c for c in changes if c.new is None or not c.new.body.startswith("agent")]
        shown = [(c.target, c.kind, c.new and c.new.body.splitlines()[0]) for c in mine]
        assert mine == [], f"kill {kill}: the person's writes listed as the agent's: {shown}"
        assert all(c.kind in (ChangeKind.CHANGED, ChangeKind.NEW) for c in changes), changes
        reader = PersonaFolder(folder)
        bodies_now = {p.stem: reader.read(p.stem).body for p in folder.glob("*.md")}
        twice = [n for n, b in bodies_now.items() if bodies_now.get(f"{n}-x") == b]
        assert twice == [], f"kill {kill}: an entry under two names: {twice}"
        bodies = {c.new.body for c in changes}
        wrong_old = [
            (c.target, c.old.body.splitlines()[0])
            for c in changes
            if c.kind == ChangeKind.CHANGED and c.old.body not in replaced.get(c.target, ())
        ]
        # (the old side is what a rollback writes back: the text the agent replaced)
        assert wrong_old == [], f"kill {kill}: not the text the agent replaced: {wrong_old}"
        missing = {n: b for n, b in newest_agent_body.items() if b not in bodies}
        assert not missing, f"kill {kill}: the agent's writes not listed: {missing}"
    print(f"{KILLS} kills; {rollbacks} rollbacks written before them")
    assert rollbacks > 0  # the rollback's write path was killed around too


def kill_at_random(victim: subprocess.Popen, rng: random.Random) -> str:
    """SIGKILL the victim at a random instant of its writes; what it printed."""
    time.sleep(rng.uniform(0, MAX_DELAY_S))
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(timeout=READY_S)
    assert victim.returncode == -signal.SIGKILL, victim.stderr.read()
    printed = victim.stdout.read()
    victim.stdout.close()
    victim.stderr.close()
    return printed


def test_a_kill_at_any_point_of_an_observation_write_never_lists_it_as_the_agents(tmp_path):
    """The same for edits, pins, forgets and restores of observations, the agent revising
    rows on their topics between kills."""
    db = tmp_path / "memory.sqlite"
    alisio.create_database(db)
    conn = alisio.connect_like_plugin(db)
    for i in range(1, 7):
        alisio.save_observation(
            conn,
            title=f"Row {i}",
            content=f"base {i}",
            type="decision",
            project="proj-12345678",
            topic_key=f"topic/row-{i}",
        )
    conn.close()
    journal_path = tmp_path / "journal" / "journal.sqlite"
    first = Journal(journal_path)
    first.scan_observations(db)  # the first look: a silent baseline
    first.close()
    rng = random.Random(SEED + 1)
    agent_texts: set[str] = set()
    for kill in range(KILLS):
        if kill % 2 == 0:
            row = rng.randint(1, 6)
            text = f"agent {kill}"
            agent_texts.add(text)
            alisio_agent(db, "save", f"Row {row}", text, "--topic", f"topic/row-{row}")
        victim = start_victim(db, journal_path, SEED + kill, ROWS_VICTIM)
        kill_at_random(victim, rng)
        journal = Journal(journal_path)
        try:
            journal.scan_observations(db)
            changes = journal.changes(include_reviewed=True, limit=100_000)
        finally:
            journal.close()
        mine = [c for c in changes if c.new is None or not c.new.body.startswith("agent")]
        shown = [(c.target, c.kind, c.new and c.new.body[:30]) for c in mine]
        assert mine == [], f"kill {kill}: the person's writes listed as the agent's: {shown}"
        assert {c.new.body for c in changes} <= agent_texts
    assert {c.new.body for c in changes} == agent_texts  # every agent write was listed
