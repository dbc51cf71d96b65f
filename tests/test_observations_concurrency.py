"""Memory Desk and a running agent on the same memory.sqlite, in two real processes.

The agent (tests/agents/alisio_agent.py) saves observations with the plugin's own
semantics, topic upserts, duplicates and counted reads included, while the store searches, pins,
forgets, restores and edits in a loop. Neither side may see an error, every save the
agent reports must be in the database as it said, and the FTS index must still pass
its integrity check.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from alisio_fixtures import PROJECTS, build_database, fts_integrity_problem, read_all
from memory_desk.core import TopicConflict
from memory_desk.core.observations import TOPIC_CHOICES, ObservationStore

AGENT = Path(__file__).parent / "agents" / "alisio_agent.py"
AGENT_PROJECT = "agent-0badc0de"
SAVES = 360


def start_agent(db: Path, out: Path) -> subprocess.Popen[bytes]:
    args = [
        sys.executable, str(AGENT), "--db", str(db), "--count", str(SAVES),
        "--topic-every", "3", "--topics", "6", "--duplicate-every", "40", "--access-every", "7",
        "--interval-ms", "2", "--seed", "5", "--project", AGENT_PROJECT, "--progress",
    ]  # fmt: skip
    # Output goes to a file: a full pipe would stall the agent while the test loops.
    return subprocess.Popen(args, stdout=out.open("wb"), stderr=subprocess.STDOUT)


def browse_and_write(store: ObservationStore, rng: random.Random) -> int:
    """One round of what a person does in the window; returns how many writes it made."""
    agent_ids = store.search_ids("agentsave", include_forgotten=True)
    store.count("agent note")
    store.search("agent note cache", limit=40)
    store.search_ids("db", sort="updated_at")
    store.totals()
    store.projects()
    store.data_version()
    store.get_many(agent_ids[:60])
    if not agent_ids:
        return 0
    store.get(rng.choice(agent_ids))
    store.pin(rng.sample(agent_ids, min(3, len(agent_ids))), pinned=rng.random() < 0.7)
    forgotten = store.forget(rng.sample(agent_ids, min(2, len(agent_ids))))
    if forgotten and rng.random() < 0.5:
        asking_about_topics(rng, store.put_back_deleted_at, forgotten)  # undo of the forget
    asking_about_topics(rng, store.restore, rng.sample(agent_ids, 1))
    own = store.search_ids(project=PROJECTS[0])[:20]
    edit = store.edit(rng.choice(own), title=f"Edited while the agent runs {rng.random()}")
    store.undo_edit(edit)
    return 6


def asking_about_topics(rng: random.Random, write: Callable[..., object], *args: object) -> None:
    """Bringing a row back may clash with the agent's newer row on its topic: the person
    then picks one of the choices, as the window asks them to."""
    try:
        write(*args)
    except TopicConflict:
        write(*args, on_topic_conflict=rng.choice(TOPIC_CHOICES))


def test_the_agent_and_the_store_write_the_same_file(tmp_path: Path) -> None:
    db = build_database(tmp_path / "memory.sqlite", 150, seed=11)
    out = tmp_path / "agent.jsonl"
    rng = random.Random(3)
    rounds = writes = 0
    with ObservationStore(db) as store:
        agent = start_agent(db, out)
        try:
            while agent.poll() is None:
                writes += browse_and_write(store, rng)
                rounds += 1
        finally:
            if agent.poll() is None:
                agent.kill()
            agent.wait(timeout=60)
        writes += browse_and_write(store, rng)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    summary = records[-1]
    assert agent.returncode == 0, out.read_text()[-2000:]
    assert summary["event"] == "done" and summary["errors"] == []
    assert summary["saved"] == SAVES
    assert rounds >= 3 and writes >= 12, "the store barely ran while the agent saved"
    saves = [r for r in records if r["event"] == "saved"]
    accessed = Counter({int(id): n for id, n in summary["accessed"].items()})
    check_every_save_is_accounted_for(saves, accessed, db)
    assert fts_integrity_problem(db) is None


def check_every_save_is_accounted_for(saves: list[dict], accessed: Counter[int], db: Path) -> None:
    assert [s["seq"] for s in saves] == list(range(SAVES))
    rows = {r.id: r for r in read_all(db)}
    agent_rows = {id for id, r in rows.items() if r.project == AGENT_PROJECT}
    created = {s["id"] for s in saves if s["action"] == "created"}
    assert created == agent_rows
    revisions = Counter(s["id"] for s in saves if s["action"] == "revised")
    duplicates = Counter(s["id"] for s in saves if s["action"] == "duplicate")
    assert duplicates and revisions, "the run should exercise upserts and duplicates"
    # (a save that repeats the agent's previous one carries no new token: "" in its record.
    # The plugin may revise a row with it rather than count a duplicate, when its topic's
    # row is found first; the row's text is then still the earlier save's, with its token.)
    latest_token = {s["id"]: s["token"] for s in saves if s["action"] != "duplicate" and s["token"]}
    with ObservationStore(db) as store:
        for id in agent_rows:
            row = rows[id]
            assert row.revision_count == 1 + revisions[id]
            assert row.duplicate_count == 1 + duplicates[id]
            assert row.access_count == accessed[id]  # only the agent counts accesses
            token = latest_token[id]
            assert token in row.content.split()
            assert id in store.search_ids(token, include_forgotten=True)
        topic_rows = [rows[id] for id in agent_rows if rows[id].topic_key]
        assert {r.topic_key for r in topic_rows} == {f"agent/topic-{i}" for i in range(6)}
