"""The person's persona work survives a crash: a real process saving, creating, renaming,
forgetting and undoing is SIGKILLed at random instants, many times, and after every kill and
the next open each entry is whole under its old or its new name, never both (a rename or its
undo left half-way is finished), or whole in the trash, for a forget; never torn, never
missing; the trash holds only whole files; the next open removes what the kills left.
"""

from __future__ import annotations

import collections
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from memory_desk.core import folder_stats
from memory_desk.core.persona import ASIDE_SUFFIX, TEMP_SUFFIX, PersonaFolder, atomic

CRASHER = Path(__file__).parent / "agents" / "persona_crasher.py"
KILLS = 300  # at least; more (up to MAX_KILLS) until every operation was interrupted 3 times
MAX_KILLS = 6 * KILLS  # (unforget, quick and only after a forget, is the rarest hit)
MAX_DELAY_S = 0.03
SEED = 20261007
OPS = ("save", "create", "rename", "forget", "unforget", "undo_rename")


class Crasher:
    """The fork server of ``agents/persona_crasher.py``: starts victims, reports their end."""

    def __init__(self, folder: Path, trash: Path, journal: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(CRASHER), str(folder), str(trash), str(journal)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def start(self, seed: int) -> int:
        self.proc.stdin.write(f"run {seed}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line.startswith("pid "), f"the crasher did not start a victim: {line!r}"
        return int(line.split()[1])

    def wait_end(self) -> int:
        line = self.proc.stdout.readline()
        assert line.startswith("exit "), f"the crasher did not report its victim's end: {line!r}"
        return int(line.split()[1])

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()


def read_journal(path: Path) -> tuple[list[dict], dict | None]:
    """The operations that completed (in order) and the one a kill interrupted, if any."""
    intents: dict[int, dict] = {}
    outcomes: dict[int, bool] = {}
    if path.exists():
        for line in path.read_text("utf-8").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue  # the kill cut this line: the operation had not started
            if "op" in record:
                intents[record["n"]] = record
            elif "ok" in record:
                outcomes[record["ok"]] = True
            else:
                outcomes[record["failed"]] = False
    done = [intents[n] for n in sorted(outcomes) if outcomes[n]]
    last = max(intents, default=None)
    pending = intents[last] if last is not None and last not in outcomes else None
    return done, pending


def apply(model: dict[str, str], forgotten: dict[str, str], op: dict) -> None:
    """What a completed operation does to the folder: names to bodies."""
    kind, name = op["op"], op["name"]
    if kind in ("save", "create"):
        model[name] = op["body"]
    elif kind == "rename":
        model[op["new"]] = model.pop(name)
    elif kind == "undo_rename":
        model[op["old"]] = model.pop(name)
    elif kind == "forget":
        forgotten[name] = model.pop(name)
    else:  # unforget
        model[name] = forgotten[name]


def acceptable(model: dict[str, str], forgotten: dict[str, str], pending: dict | None) -> list:
    """Every state the folder may be in when a kill interrupted ``pending``, once the next
    open has settled it: before or after, never both names of a rename (or its undo), never
    neither."""
    if pending is None:
        return [model]
    after = dict(model)
    apply(after, dict(forgotten), pending)
    return [model, after]


def folder_state(path: Path, trash: Path) -> dict[str, str]:
    """Every entry file in the folder, read as Memory Desk reads it: name to body."""
    folder = PersonaFolder(path, trash=trash)
    return {name: folder.read(name).body for name in folder.names()}


def trash_items(trash: Path) -> list[Path]:
    return [p for p in trash.iterdir() if not p.name.startswith(".")] if trash.is_dir() else []


def check_whole(item: Path) -> bytes:
    """A trash item's file, checked whole against the hash its metadata recorded."""
    meta = json.loads((item / "trashed.json").read_text("utf-8"))
    data = (item / meta["file"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == meta["sha256"], f"torn trash item {item.name}"
    return data


def describe(actual: dict[str, str], expected: dict[str, str]) -> str:
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    torn = sorted(n for n in set(actual) & set(expected) if actual[n] != expected[n])
    return f"missing {missing}, unexpected {extra}, other text in {torn}"


def test_every_entry_survives_kills_at_random_points_of_every_write(tmp_path: Path) -> None:
    folder, trash, journal = tmp_path / "memory", tmp_path / "trash", tmp_path / "journal"
    folder.mkdir()
    journal.mkdir()
    rng = random.Random(SEED)
    crasher = Crasher(folder, trash, journal)
    interrupted: collections.Counter[str] = collections.Counter()
    model: dict[str, str] = {}
    forgotten: dict[str, str] = {}
    seen_items: set[str] = set()
    started = time.monotonic()
    try:
        for kill in range(MAX_KILLS):
            if kill >= KILLS and all(interrupted[op] >= 3 for op in OPS):
                break  # (a quick operation, such as unforget, is hit by few random kills)
            seed = SEED + kill
            pid = crasher.start(seed)
            time.sleep(rng.uniform(0, MAX_DELAY_S))
            os.kill(pid, signal.SIGKILL)
            status = crasher.wait_end()
            assert os.WIFSIGNALED(status), f"victim {kill} ended by itself (status {status})"

            done, pending = read_journal(journal / f"{seed}.jsonl")
            for op in done:
                apply(model, forgotten, op)
            PersonaFolder(folder, trash=trash).tidy(stale_after_s=0)  # the next open
            actual = folder_state(folder, trash)
            states = acceptable(model, forgotten, pending)
            assert actual in states, f"kill {kill} during {pending}: {describe(actual, states[-1])}"
            for item in trash_items(trash):
                if item.name not in seen_items:
                    check_whole(item)
                    seen_items.add(item.name)
            if pending is not None:
                interrupted[pending["op"]] += 1
                if pending["op"] == "forget" and pending["name"] not in actual:
                    body = model[pending["name"]]
                    assert any(body.encode() in check_whole(item) for item in trash_items(trash))
                    forgotten[pending["name"]] = body
            model = actual  # the next victim starts from what is on disk
    finally:
        crasher.close()
    elapsed = time.monotonic() - started
    print(f"{kill} kills in {elapsed:.1f} s; interrupted: {dict(interrupted)}")
    assert all(interrupted[op] >= 3 for op in OPS), interrupted

    # the next open removes what the kills left of Memory Desk's own, and nothing else
    before = folder_state(folder, trash)
    PersonaFolder(folder, trash=trash).tidy(stale_after_s=0)
    assert folder_state(folder, trash) == before
    leftovers = [n for n in os.listdir(folder) if n.endswith((TEMP_SUFFIX, ASIDE_SUFFIX))]
    assert leftovers == []
    assert [n for n in os.listdir(trash) if n.startswith(".")] == []
    for item in trash_items(trash):
        check_whole(item)


# -- what a kill leaves behind is removed at the next open, and nothing else --------------------


def agent_entry(name: str, body: str = "Something worth remembering.") -> bytes:
    """An entry exactly as agent-kit writes it."""
    return (
        f"---\nname: {name}\ndescription: About {name}\ntype: user\n"
        f"updated: 2026-10-02T17:03:11.532Z\n---\n\n{body}\n"
    ).encode()


def killed_leftovers(folder: Path, trash: Path) -> dict[str, Path]:
    """What kills leave in a folder: a half-written save, an entry set aside after its trash copy
    was made (a killed forget), and one set aside that the agent rewrote meanwhile."""
    for name in ("likes-tea", "gone-one", "rewritten"):
        (folder / f"{name}.md").write_bytes(agent_entry(name))
    half = atomic.temp_path(folder)
    half.write_bytes(agent_entry("likes-tea", "The person's new text")[:40])
    persona = PersonaFolder(folder, trash=trash)
    forgotten = persona.forget("gone-one")
    aside = atomic.aside_path(folder, forgotten.path.name)
    aside.write_bytes(agent_entry("gone-one"))  # set aside, then killed before it went
    copy = persona.forget("rewritten")
    rewritten = atomic.aside_path(folder, copy.path.name)
    rewritten.write_bytes(agent_entry("rewritten", "The agent's newer words."))
    return {"half": half, "aside": aside, "rewritten": rewritten}


def not_ours(folder: Path) -> dict[str, bytes]:
    """Files of the agent's and the person's that look a little like Memory Desk's."""
    files = {
        ".likes-tea.md.swp": b"vim swap",
        "likes-tea.md~": b"backup",
        "notes.memory-desk.tmp": b"not hidden: not ours",
        ".memory-desk.tmp.md": b"ends in .md",
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    (folder / ".a1b2.memory-desk.tmp").mkdir()  # a folder, not a file of ours
    os.symlink(folder / "likes-tea.md", folder / ".c3d4.memory-desk.tmp")
    return files


def test_a_killed_saves_leftovers_are_never_listed(tmp_path: Path) -> None:
    folder, trash = tmp_path / "memory", tmp_path / "trash"
    folder.mkdir()
    killed_leftovers(folder, trash)
    persona = PersonaFolder(folder, trash=trash)
    assert [e.name for e in persona.entries()] == ["likes-tea"]
    assert persona.problems() == []
    assert all(not e.problems for e in persona.entries())


def test_the_next_open_removes_stale_leftovers_and_keeps_what_the_agent_wrote(
    tmp_path: Path,
) -> None:
    folder, trash = tmp_path / "memory", tmp_path / "trash"
    folder.mkdir()
    left = killed_leftovers(folder, trash)
    theirs = not_ours(folder)
    persona = PersonaFolder(folder, trash=trash)
    before = {n: persona.read(n).source for n in persona.names()}

    handled = persona.tidy(stale_after_s=0)

    assert sorted(handled) == sorted(left.values())
    assert not any(path.exists() for path in left.values())
    assert {n: persona.read(n).source for n in persona.names()} == before
    assert {name: (folder / name).read_bytes() for name in theirs} == theirs
    assert (folder / ".a1b2.memory-desk.tmp").is_dir()
    assert (folder / ".c3d4.memory-desk.tmp").is_symlink()
    # the aside the agent rewrote is kept, whole, in the trash: never lost
    recovered = [t for t in persona.trashed() if t.reason == "recovered"]
    assert [t.name for t in recovered] == ["rewritten"]
    assert (recovered[0].path / "rewritten.md").read_bytes() == agent_entry(
        "rewritten", "The agent's newer words."
    )
    assert persona.unforget(recovered[0]).body == "The agent's newer words."


def test_leftovers_another_memory_desk_may_still_be_writing_are_kept(tmp_path: Path) -> None:
    folder, trash = tmp_path / "memory", tmp_path / "trash"
    folder.mkdir()
    left = killed_leftovers(folder, trash)
    assert PersonaFolder(folder, trash=trash).tidy() == []  # just written: not stale
    assert all(path.exists() for path in left.values())


def test_tidying_removes_a_stale_leftover_and_a_pass_after_it_shows_the_folder_clean(
    tmp_path: Path,
) -> None:
    folder, trash = tmp_path / "memory", tmp_path / "trash"
    folder.mkdir()
    (folder / "tea.md").write_bytes(agent_entry("tea", "Green."))
    leftover = atomic.temp_path(folder)
    leftover.write_bytes(b"half a save")
    time.sleep(1.2)  # (older than a second: stale for a tidy that allows one)
    assert PersonaFolder(folder, trash=trash).tidy(stale_after_s=1.0) == [leftover]
    assert not leftover.exists()
    names = [name for name, _st in folder_stats.take(os.path.realpath(folder)).items]
    assert names == ["tea.md"]


def test_temporary_and_aside_names_are_short_whatever_the_entry_name(tmp_path: Path) -> None:
    for path in (atomic.temp_path(tmp_path), atomic.aside_path(tmp_path, "x" * 37)):
        assert len(path.name.encode()) <= 60
        assert atomic.is_own_temp_name(path.name)
    assert not atomic.is_own_temp_name("likes-tea.md")
