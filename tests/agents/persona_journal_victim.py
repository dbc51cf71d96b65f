"""Memory Desk's persona writes with the journal witnessing, in a process a test SIGKILLs.

It runs the app's own write paths with the journal witnessing as in the window (the folder
is opened with a witness, and the journal is attached to it afterwards): the folder's
conflict-checked save, and the review page's rollback
command (``PersonaRollbackCommand``, the same object the "Roll back" action pushes), marking
the change reviewed after it as the page does, and the folder's rename and its undo. It scans the folder first (as the window's
first look does), prints ``ready``, then saves and rolls back until it is killed, scanning
every few writes as the window's watcher would. Bodies it writes start with ``person``;
it prints ``rolled back NAME`` after each rollback written.

Usage: python persona_journal_victim.py FOLDER JOURNAL SEED
"""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.journal import ChangeKind, Journal
from memory_desk.core.journal.witness import Witness
from memory_desk.core.persona import PersonaFolder
from memory_desk.ui.review.writes import PersonaRollbackCommand

AGENT = "miyagi"
SCAN_EVERY = 4


def roll_back_one(journal: Journal, folder: PersonaFolder) -> None:
    """Roll back the newest unreviewed change of the agent's, as the review page does."""
    waiting = [c for c in journal.changes() if c.kind == ChangeKind.CHANGED]
    if not waiting:
        return
    change = waiting[0]
    done: list[bool] = []
    command = PersonaRollbackCommand(
        folder, change, lambda *_: done.append(True), lambda _text: None
    )
    command.redo()
    if command.ok:
        print(f"rolled back {change.target}", flush=True)
        journal.mark_reviewed([change.id])


def rename_and_undo(folder: PersonaFolder, rng: random.Random) -> None:
    """Rename an entry of the agent's and undo it (or undo a rename a kill left done)."""
    names = set(folder.names())
    for name in sorted(names):
        if name.endswith("-x") and name[:-2] not in names:
            folder.undo_rename(folder.read(name), name[:-2])
            return
    name = rng.choice(sorted(n for n in names if not n.endswith("-x")))
    if f"{name}-x" not in names:
        renamed = folder.rename(folder.read(name), f"{name}-x")
        folder.undo_rename(renamed, name)


def main(folder_path: str, journal_path: str, seed: int) -> None:
    rng = random.Random(seed)
    witness = Witness()
    folder = PersonaFolder(folder_path, witness=witness)  # opened before the journal, as at start
    journal = Journal(Path(journal_path))
    witness.attach(journal)
    journal.scan_persona(folder.path, AGENT)
    print("ready", flush=True)
    for made in range(1, 10**9):
        try:
            if made == 1 or rng.random() < 0.2:
                roll_back_one(journal, folder)
            elif rng.random() < 0.2:
                rename_and_undo(folder, rng)
            else:
                name = rng.choice(sorted(folder.names()))
                body = f"person {seed}-{made}\n" + "words " * rng.randint(10, 3000)
                folder.save(dataclasses.replace(folder.read(name), body=body))
        except StoreError:
            pass  # a conflict with the agent's write: nothing of the person's was written
        if made % SCAN_EVERY == 0:
            journal.scan_persona(folder.path, AGENT)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
