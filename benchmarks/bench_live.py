"""Live reload: how fast another process's write reaches the main thread, and what idling costs.

Run: ``python benchmarks/bench_live.py [--changes 30] [--idle-seconds 20]``.

Measures, with both watchers sharing one observer as the app runs them:

- latency from a commit by another process (the plugin's ``memory_save``) to
  ``DatabaseWatcher.changed`` in the main thread, with the folder watcher waking the
  check and, for comparison, with the timer alone;
- latency from a whole-file rewrite of a persona entry by another process to
  ``FolderWatcher.paths_changed`` (this includes the 150 ms trailing debounce);
- the cost of one change check (``PRAGMA data_version``) against a raw ``SELECT 1``;
- the CPU use of the idle process (all threads) with both watchers on.

Times are taken with ``time.monotonic_ns()``, which is one clock for every process on
Linux. Aims (issue 4): median latency under 300 ms, idle CPU under 1%.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer, SignalInstance
from watchdog.observers.polling import PollingObserver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from agents.live_writers import writer_argv  # noqa: E402
from memory_desk.core import alisio  # noqa: E402
from memory_desk.ui.live import DatabaseWatcher, FolderWatcher  # noqa: E402


def spin(ms: int) -> None:
    """Run the event loop for ``ms`` milliseconds (the app idling)."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def wait_for(signal: SignalInstance, timeout_ms: int = 5_000) -> None:
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    signal.disconnect(loop.quit)


def measure_latencies(command: list[str], signal: SignalInstance, changes: int) -> list[float]:
    """Ask a writer process for ``changes`` writes; milliseconds from each write to the signal."""
    arrivals: list[int] = []
    signal.connect(lambda *args: arrivals.append(time.monotonic_ns()))
    writer = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert writer.stdin is not None and writer.stdout is not None
    assert writer.stdout.readline().strip() == "ready"
    latencies: list[float] = []
    for _ in range(changes):
        spin(random.randint(300, 600))  # spread writes over the poll phase, avoid coalescing
        arrivals.clear()
        writer.stdin.write("go\n")
        wait_for(signal)
        written = int(writer.stdout.readline())
        if arrivals:
            latencies.append((arrivals[0] - written) / 1e6)
    writer.stdin.close()
    writer.wait()
    return latencies


def describe(name: str, latencies: list[float], changes: int) -> None:
    ordered = sorted(latencies)
    p90 = ordered[max(0, round(0.9 * len(ordered)) - 1)]
    missed = changes - len(latencies)
    print(
        f"{name:<44} median {statistics.median(ordered):6.1f} ms   p90 {p90:6.1f} ms"
        f"   max {ordered[-1]:6.1f} ms   (n={len(ordered)}, missed {missed})"
    )


def cost_per_call(call: Callable[[], object], repeat: int = 20_000) -> float:
    """Microseconds per call."""
    start = time.perf_counter()
    for _ in range(repeat):
        call()
    return (time.perf_counter() - start) / repeat * 1e6


def measure_check_cost(db: Path, watcher: DatabaseWatcher) -> None:
    conn = sqlite3.connect(db.as_uri() + "?mode=ro", uri=True, isolation_level=None)
    raw = cost_per_call(lambda: conn.execute("SELECT 1").fetchall())
    version = cost_per_call(lambda: conn.execute("PRAGMA data_version").fetchall())
    check = cost_per_call(watcher.check_now)
    conn.close()
    print(f"{'raw SELECT 1':<44} {raw:6.1f} µs")
    print(f"{'PRAGMA data_version':<44} {version:6.1f} µs   ({version / raw:.2f}x SELECT 1)")
    print(
        f"{'DatabaseWatcher.check_now() (no change)':<44} {check:6.1f} µs"
        f"   = {check * 4 / 1e4:.4f}% of one core at 4 checks/s"
    )


def measure_idle_cpu(seconds: float) -> None:
    wall, cpu = time.monotonic(), time.process_time()
    spin(int(seconds * 1000))
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    print(
        f"{'idle CPU, both watchers on (all threads)':<44} {100 * cpu / wall:6.3f} %"
        f"   ({cpu * 1000:.0f} ms CPU over {wall:.1f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    args = parser.parse_args()
    app = QCoreApplication.instance() or QCoreApplication(sys.argv)

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp, "state", "memory.sqlite")
        db.parent.mkdir()
        alisio.create_database(db)
        persona = Path(tmp, "persona")
        persona.mkdir()
        entry = persona / "live.md"
        entry.write_text("---\nname: live\n---\n\nFirst\n", encoding="utf-8")

        folders = FolderWatcher()
        folders.watch(persona)
        database = DatabaseWatcher(db, folder_watcher=folders)
        database.start()
        print(f"observer mode: {folders.mode}; {args.changes} changes per figure\n")

        describe(
            "commit -> DatabaseWatcher.changed",
            measure_latencies(writer_argv("serve-saves", str(db)), database.changed, args.changes),
            args.changes,
        )
        describe(
            "file rewrite -> FolderWatcher.paths_changed",
            measure_latencies(
                writer_argv("serve-writes", str(entry)), folders.paths_changed, args.changes
            ),
            args.changes,
        )
        deaf = FolderWatcher(observer_factory=lambda: PollingObserver(timeout=3600))
        timer_only = DatabaseWatcher(db, folder_watcher=deaf)
        database.pause()
        timer_only.start()
        describe(
            "commit -> changed, 250 ms timer alone",
            measure_latencies(
                writer_argv("serve-saves", str(db)), timer_only.changed, args.changes
            ),
            args.changes,
        )
        timer_only.stop()
        deaf.stop()
        database.resume()
        spin(500)  # past the resume's report and its quiet window: every check queries
        print()
        measure_check_cost(db, database)
        measure_idle_cpu(args.idle_seconds)

        database.stop()
        folders.stop()
    del app


if __name__ == "__main__":
    main()
