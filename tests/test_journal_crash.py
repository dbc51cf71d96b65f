"""The person's own writes are the person's, even after a crash.

A real process runs Memory Desk's persona save and the review page's rollback with the
journal witnessing (``agents/persona_journal_victim.py``) and is SIGKILLed at a random
instant of its writes, many times; between two kills the agent (a real process too)
sometimes rewrites an entry. After every kill the journal is opened again and scans the
folder, as the next start does: every change it lists is one of the agent's (its bodies start
with "agent"), never one of the person's saves, rollbacks or renames, no entry is left under
two names, and the agent's newest write of each entry it touched is listed.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from journal_helpers import persona_agent
from memory_desk.core.journal import ChangeKind, Journal
from memory_desk.core.persona import PersonaFolder

VICTIM = Path(__file__).parent / "agents" / "persona_journal_victim.py"
KILLS = 30
MAX_DELAY_S = 0.4
SEED = 20261207
ENTRIES = ("likes-tea", "no-fish-puns", "short-answers")
READY_S = 30


def start_victim(folder: Path, journal: Path, seed: int) -> subprocess.Popen:
    victim = subprocess.Popen(
        [sys.executable, str(VICTIM), str(folder), str(journal), str(seed)],
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
    rollbacks = 0
    for kill in range(KILLS):
        if kill % 2 == 0:
            name = rng.choice(ENTRIES)
            newest_agent_body[name] = f"agent {kill}"
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
        missing = {n: b for n, b in newest_agent_body.items() if b not in bodies}
        assert not missing, f"kill {kill}: the agent's writes not listed: {missing}"
    print(f"{KILLS} kills; {rollbacks} rollbacks written before them")
    assert rollbacks > 0  # the rollback's write path was killed around too
