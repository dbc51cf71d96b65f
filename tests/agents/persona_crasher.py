"""Memory Desk's persona writes in a loop, in a process a test kills at random instants.

A small fork server, so each victim starts at once (no interpreter start-up per kill): it
imports Memory Desk's persona store, then for every ``run SEED`` line on stdin forks a child
that opens the folder as Memory Desk does (``tidy``) and then saves, creates, renames,
forgets and undoes (``unforget``, ``undo_rename``) entries until it is killed. The server
prints ``pid <PID>`` when the child starts and ``exit <STATUS>`` once it is gone.

Before each operation the child appends its intent to ``JOURNAL/<seed>.jsonl`` (one JSON line:
the operation, the names and the new body) and after it ``{"ok": n}`` or ``{"failed": n}``, so
the test knows which operation a kill interrupted. Bodies are ``<tag> v<k>``, filler, and
``end <tag> v<k>``: a torn file never reads as a whole version.

Usage: python persona_crasher.py FOLDER TRASH JOURNAL
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import random
import string
import sys
import traceback
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.persona import NAME_RE, PersonaFolder

WEIGHTS = {"save": 30, "create": 15, "rename": 20, "forget": 15}
MIN_ENTRIES = 4


def body(rng: random.Random, tag: str, version: int) -> str:
    """A body that says which version it is at both ends, with 2 to 48 KB between them."""
    filler = "".join(rng.choices(string.ascii_letters + " \n", k=rng.randint(2_000, 48_000)))
    return f"{tag} v{version}\n{filler.strip()}\nend {tag} v{version}"


class Journal:
    """Intent and outcome of every operation, appended with one write each (a SIGKILL keeps
    what the kernel has)."""

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self.count = 0

    def intent(self, **record: str) -> int:
        self.count += 1
        self._line({"n": self.count, **record})
        return self.count

    def outcome(self, n: int, ok: bool) -> None:
        self._line({"ok" if ok else "failed": n})

    def _line(self, record: dict) -> None:
        os.write(self._fd, (json.dumps(record) + "\n").encode())


def run(folder_path: str, trash: str, journal_dir: str, seed: int) -> None:
    """Operate on the folder until killed."""
    rng = random.Random(seed)
    folder = PersonaFolder(folder_path, trash=Path(trash))
    folder.tidy(stale_after_s=0)  # the next open; no other Memory Desk writes this folder
    journal = Journal(Path(journal_dir) / f"{seed}.jsonl")
    undo: dict | None = None  # how to undo the operation just done, when it can be
    for made in itertools.count(1):
        op = undo if undo is not None and rng.random() < 0.5 else next_op(rng, folder, seed, made)
        n = journal.intent(**{k: v for k, v in op.items() if k != "trashed"})
        try:
            undo = perform(folder, op)
        except StoreError:
            journal.outcome(n, ok=False)
            undo = None
        else:
            journal.outcome(n, ok=True)


def next_op(rng: random.Random, folder: PersonaFolder, seed: int, made: int) -> dict:
    """A save, create, rename or forget of a random entry, with fresh names and bodies."""
    names = [n for n in folder.names() if NAME_RE.fullmatch(n)]
    tag = f"s{seed}-{made}"
    kind = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
    if len(names) < MIN_ENTRIES or kind == "create":
        return {"op": "create", "name": f"e-{tag}", "body": body(rng, tag, 0)}
    op = {"op": kind, "name": rng.choice(names)}
    if kind == "save":
        op["body"] = body(rng, tag, 1)
    elif kind == "rename":
        op["new"] = f"r-{tag}"
    return op


def perform(folder: PersonaFolder, op: dict) -> dict | None:
    """Do ``op``; return how to undo it (None when it is an undo itself)."""
    kind, name = op["op"], op["name"]
    if kind == "save":
        folder.save(dataclasses.replace(folder.read(name), body=op["body"]))
    elif kind == "create":
        folder.create(name=name, type="user", description=f"entry {name}", body=op["body"])
    elif kind == "rename":
        folder.rename(folder.read(name), op["new"])
        return {"op": "undo_rename", "name": op["new"], "old": name}
    elif kind == "forget":
        return {"op": "unforget", "name": name, "trashed": folder.forget(name)}
    elif kind == "undo_rename":
        folder.undo_rename(folder.read(name), op["old"])
    else:
        folder.unforget(op["trashed"])
    return None


def serve(folder: str, trash: str, journal_dir: str) -> None:
    """Fork one child per ``run SEED`` line; report its pid, then its end."""
    for line in sys.stdin:
        command, _, arg = line.strip().partition(" ")
        if command != "run":
            break
        pid = os.fork()
        if pid == 0:
            try:
                run(folder, trash, journal_dir, int(arg))
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(1)
        print(f"pid {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {status}", flush=True)


if __name__ == "__main__":
    serve(*sys.argv[1:4])
