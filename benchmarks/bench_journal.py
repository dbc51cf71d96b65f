"""How much the journal's scans cost on large stores (memory_desk.core.journal).

Observations: baseline, then re-scans (unchanged; after 100 agent saves) of a COPY of the
cached 10,000- and 100,000-row databases (``perf.dataset``), each beside a raw reference in
the same run: ``SELECT id, updated_at FROM observations``. Persona: 2,000 entries
(``perf.persona_window.build_folder``), beside ``os.scandir`` + ``stat`` of every file.
Each first look also reports a heartbeat: a plain Python thread that ticks every 1 ms (the
window's thread, as far as the GIL is concerned); its longest gap while the first look runs,
beside its longest gap at rest. Not a test: run it on purpose.

    python benchmarks/bench_journal.py [--counts 10000 100000] [--entries 20000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from perf.dataset import DEFAULT_CACHE, ensure_database  # noqa: E402

from memory_desk.core import alisio  # noqa: E402
from memory_desk.core.journal import Journal  # noqa: E402


def timed(work) -> float:  # noqa: ANN001 - any callable
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


class Heartbeat:
    """A thread that sleeps 1 ms at a time and keeps the longest gap between two ticks."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        last = time.perf_counter()
        while not self._stop.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            last = now

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()


def with_heartbeat(work: Callable[[], object]) -> tuple[float, float, float]:
    """(seconds of ``work``, longest heartbeat gap during it, longest gap at rest)."""
    with Heartbeat() as beat:
        seconds = timed(work)
    with Heartbeat() as rest:
        time.sleep(min(max(seconds, 0.2), 2.0))
    return seconds, beat.longest, rest.longest


def first_look(label: str, work: Callable[[], object], reference: float) -> None:
    seconds, busy, rest = with_heartbeat(work)
    line(label, seconds, reference)
    print(
        f"  heartbeat (1 ms ticks): longest gap {busy * 1000:.1f} ms during it,"
        f" {rest * 1000:.1f} ms at rest"
    )


def raw_rows(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("SELECT id, updated_at FROM observations").fetchall()
    conn.close()


def raw_stat(folder: Path) -> None:
    with os.scandir(folder) as it:
        for item in it:
            item.stat()


def agent_saves(db: Path, count: int) -> None:
    conn = alisio.connect_like_plugin(db)
    for i in range(count):
        alisio.save_observation(
            conn,
            title=f"Bench {i}",
            content=f"bench body {i}",
            type="decision",
            project="bench-12345678",
        )
    conn.close()


def line(label: str, seconds: float, reference: float) -> None:
    ratio = seconds / reference if reference else float("inf")
    print(
        f"  {label:<34} {seconds * 1000:9.1f} ms   raw {reference * 1000:8.1f} ms   x{ratio:6.2f}"
    )


def bench_observations(count: int, work: Path) -> None:
    db = work / f"memory-{count}.sqlite"
    shutil.copyfile(ensure_database(count, DEFAULT_CACHE, quiet=True), db)
    journal = Journal(work / f"journal-{count}.sqlite")
    print(f"observations: {count:,} rows")
    reference = min(timed(lambda: raw_rows(db)) for _ in range(3))
    first_look("baseline (first scan)", lambda: journal.scan_observations(db), reference)
    where = journal.last_scan.extra.get("first_look_pid")
    print(f"  first look ran in {'this process' if where == os.getpid() else 'a child process'}")
    waited = journal.last_scan.extra.get("first_look_waited", 0.0)
    print(f"  the child gave way to this process for {waited * 1000:.0f} ms")
    line("re-scan, unchanged", timed(lambda: journal.scan_observations(db)), reference)
    agent_saves(db, 100)
    reference = min(timed(lambda: raw_rows(db)) for _ in range(3))
    line("re-scan after 100 agent saves", timed(lambda: journal.scan_observations(db)), reference)
    print(
        f"  rows read by that re-scan: {journal.last_scan.rows}; journal {journal.size_bytes() / 1e6:.1f} MB"
    )
    # (at 1,000,000 rows the baselines alone were over the size limit, and pruning took every
    # change out as soon as it was recorded)
    print(f"  changes listed after it: {len(journal.changes())} of 100")
    journal.close()


def bench_persona(entries: int, work: Path) -> None:
    from perf.persona_window import build_folder

    folder = work / "persona"
    build_folder(folder, entries, seed=0)
    journal = Journal(work / "journal-persona.sqlite")
    print(f"persona: {entries:,} entries")
    reference = min(timed(lambda: raw_stat(folder)) for _ in range(3))
    first_look("baseline (first scan)", lambda: journal.scan_persona(folder, "bench"), reference)
    line("re-scan, unchanged", timed(lambda: journal.scan_persona(folder, "bench")), reference)
    unchanged = Journal(journal.path)  # a new session: its first re-scan loads the baseline
    line(
        "re-scan, unchanged, new session",
        timed(lambda: unchanged.scan_persona(folder, "bench")),
        reference,
    )
    line("  and again", timed(lambda: unchanged.scan_persona(folder, "bench")), reference)
    unchanged.close()
    journal.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--entries", type=int, default=2_000)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for count in opts.counts:
            bench_observations(count, work)
        if opts.entries:
            bench_persona(opts.entries, work)


if __name__ == "__main__":
    main()
