"""Memory Desk's observation writes with the journal witnessing, in a process a test SIGKILLs.

It runs the app's own write path (``ObservationStore``: edit, pin, forget, restore, each one
transaction with the journal's triggers) with the journal witnessing as in the window: the
store is opened with a witness, and the journal is attached to it afterwards. It
scans the database first, prints ``ready``, then writes until it is killed, scanning every
few writes as the window's watcher would. Texts it writes start with ``person``.

Usage: python observations_journal_victim.py DB JOURNAL SEED
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.journal import Journal
from memory_desk.core.journal.witness import Witness
from memory_desk.core.observations import ObservationStore

SCAN_EVERY = 4


def main(db: str, journal_path: str, seed: int) -> None:
    rng = random.Random(seed)
    witness = Witness()
    store = ObservationStore(Path(db), witness=witness)  # opened before the journal, as at start
    journal = Journal(Path(journal_path))
    witness.attach(journal)
    journal.scan_observations(Path(db))
    print("ready", flush=True)
    ids = list(range(1, 7))
    for made in range(1, 10**9):
        row = rng.choice(ids)
        try:
            kind = rng.random()
            if kind < 0.5:
                store.edit(row, content=f"person {seed}-{made} " + "words " * rng.randint(5, 500))
            elif kind < 0.7:
                store.pin([row], pinned=rng.random() < 0.5)
            elif kind < 0.85:
                store.forget([row])
            else:
                store.restore([row])
        except StoreError:
            pass  # refused (a topic question, a forgotten row): nothing was written
        if made % SCAN_EVERY == 0:
            journal.scan_observations(Path(db))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
