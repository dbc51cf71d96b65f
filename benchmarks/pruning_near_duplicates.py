"""How long the Pruning assistant's full search takes at 10,000 and 100,000 rows.

Prints the time of :func:`find_observation_candidates` (every reason, the near-duplicate
pass included) and, as a yardstick measured in the same run, a raw SQLite full scan reading
the same content; the ratio is what this machine's speed does not change much.
Two kinds of text: "rich" (a real vocabulary) and "dense" (the test fixture's 50 words,
where every note looks like every other: the worst case for near-duplicate search).
Run on purpose: ``.venv/bin/python benchmarks/pruning_near_duplicates.py``.
"""

from __future__ import annotations

import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from alisio_fixtures import build_database  # noqa: E402
from memory_desk.core.observations import ObservationStore  # noqa: E402
from memory_desk.core.progress import Progress  # noqa: E402
from memory_desk.core.pruning import Settings, find_observation_candidates  # noqa: E402


def raw_scan(path: Path) -> float:
    start = time.perf_counter()
    conn = sqlite3.connect(path)
    total = 0
    for (content,) in conn.execute("SELECT content FROM observations WHERE deleted_at IS NULL"):
        total += len(content)
    conn.close()
    return time.perf_counter() - start


def enrich(path: Path, seed: int) -> None:
    """Rewrite every content with words from a 20,000-word Zipf vocabulary, as real notes
    are (the fixture's 50-word vocabulary makes every note look like every other)."""
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(20_000)]
    weights = [1 / (i + 1) for i in range(len(vocab))]
    conn = sqlite3.connect(path)
    ids = [r[0] for r in conn.execute("SELECT id FROM observations")]
    rows = [("**What** " + " ".join(rng.choices(vocab, weights, k=80)), i) for i in ids]
    conn.executemany("UPDATE observations SET content = ? WHERE id = ?", rows)
    conn.commit()
    conn.close()


def main() -> None:
    import datasketch  # noqa: F401  (its import, about a second, is not the search's cost)

    for count, kind in ((10_000, "rich"), (100_000, "rich"), (10_000, "dense"), (100_000, "dense")):
        with tempfile.TemporaryDirectory() as folder:
            path = build_database(Path(folder) / "memory.sqlite", count, seed=1)
            if kind == "rich":
                enrich(path, seed=1)
            scan = raw_scan(path)
            with ObservationStore(path) as store:
                start = time.perf_counter()
                found = find_observation_candidates(store, Settings(), Progress())
                took = time.perf_counter() - start
            print(
                f"{count:>7} rows ({kind}): search {took:6.2f} s, raw scan {scan:6.3f} s,"
                f" ratio {took / scan:6.1f}x, {len(found.groups)} groups"
            )


if __name__ == "__main__":
    main()
