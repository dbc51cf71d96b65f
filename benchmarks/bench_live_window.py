"""Live reload end to end: from another process's commit to the row in the real window.

Run: ``python benchmarks/bench_live_window.py [--rows 10000] [--changes 30] [--idle-seconds 20]``.

The real main window (offscreen) opens a memory database of ``--rows`` observations, with
its own DatabaseWatcher and folder watcher, as a person would run it. A second process
(``tests/agents/live_writers.py serve-saves``: the plugin's ``memory_save``) commits one
observation per request, paced 300-600 ms apart so no two commits share a check. Printed:

- latency from the commit (the writer prints ``time.monotonic_ns()`` right after COMMIT;
  one clock for every process on Linux) to the row being in the table model
  (``rowsInserted``), and to the page's ``refreshed`` (status bar and detail pane updated);
- one ``refresh()`` round trip on this database against the raw SQLite query it runs;
- the app's CPU use while idle with the watchers on (process CPU time / wall time).

Aims (issue 4): median latency under 300 ms, idle CPU under 1%.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QModelIndex, QTimer, SignalInstance  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from perf.qtwatch import private_home  # noqa: E402

from agents.live_writers import writer_argv  # noqa: E402
from alisio_fixtures import build_database  # noqa: E402


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


def percentiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p90 = ordered[max(0, round(0.9 * len(ordered)) - 1)]
    return statistics.median(ordered), p90, ordered[-1]


def describe(name: str, values: list[float], expected: int) -> None:
    if not values:
        print(f"{name:<44} no measurement (missed {expected})")
        return
    median, p90, worst = percentiles(values)
    print(
        f"{name:<44} median {median:6.1f} ms   p90 {p90:6.1f} ms   max {worst:6.1f} ms"
        f"   (n={len(values)}, missed {expected - len(values)})"
    )


def measure_latency(window, db: Path, changes: int) -> tuple[list[float], list[float]]:
    """Milliseconds from each commit to rowsInserted, and to the page's refreshed."""
    page = window.observations_page
    inserted: list[int] = []
    refreshed: list[int] = []

    def on_inserted(_parent: QModelIndex, _first: int, _last: int) -> None:
        inserted.append(time.monotonic_ns())

    page.model.rowsInserted.connect(on_inserted)
    page.refreshed.connect(lambda: refreshed.append(time.monotonic_ns()))
    writer = subprocess.Popen(
        writer_argv("serve-saves", str(db)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert writer.stdin is not None and writer.stdout is not None
    assert writer.stdout.readline().strip() == "ready"
    to_row: list[float] = []
    to_refreshed: list[float] = []
    for _ in range(changes):
        spin(random.randint(300, 600))
        inserted.clear()
        refreshed.clear()
        rows = page.model.rowCount()
        writer.stdin.write("go\n")
        wait_for(page.model.rowsInserted)
        if inserted and not refreshed:
            wait_for(page.refreshed)
        committed = int(writer.stdout.readline())
        if inserted and page.model.rowCount() == rows + 1:
            to_row.append((inserted[0] - committed) / 1e6)
            if refreshed:
                to_refreshed.append((refreshed[0] - committed) / 1e6)
    writer.stdin.close()
    writer.wait()
    return to_row, to_refreshed


def measure_refresh(window, db: Path, repeat: int = 20) -> None:
    """One refresh (query on the worker, diff, reload of the visible rows) vs the raw query."""
    page = window.observations_page
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        page.refresh()
        wait_for(page.refreshed)
        times.append((time.perf_counter() - start) * 1000)
    conn = sqlite3.connect(db.as_uri() + "?mode=ro", uri=True)
    raw: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        conn.execute(
            "SELECT id FROM observations WHERE deleted_at IS NULL ORDER BY updated_at DESC, id DESC"
        ).fetchall()
        raw.append((time.perf_counter() - start) * 1000)
    conn.close()
    ours, theirs = statistics.median(times), statistics.median(raw)
    print(
        f"{'refresh() round trip (no change)':<44} median {ours:6.1f} ms"
        f"   raw id query {theirs:5.1f} ms   ({ours / theirs:.1f}x)"
    )


def measure_idle_cpu(seconds: float) -> None:
    wall, cpu = time.monotonic(), time.process_time()
    spin(int(seconds * 1000))
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    print(
        f"{'idle CPU, window + watchers on (all threads)':<44} {100 * cpu / wall:6.3f} %"
        f"   ({cpu * 1000:.0f} ms CPU over {wall:.1f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        private_home(Path(tmp, "home"))
        app = QApplication.instance() or QApplication(sys.argv[:1])
        from memory_desk.app import create_main_window

        db = Path(tmp, "state", "memory.sqlite")
        db.parent.mkdir()
        start = time.perf_counter()
        build_database(db, args.rows, seed=11)
        print(f"built {args.rows:,} rows in {time.perf_counter() - start:.1f} s")

        window = create_main_window(["--db", str(db)])
        window.show()
        page = window.observations_page
        while page.model.rowCount() == 0:
            wait_for(page.refreshed)
        print(
            f"window shows {page.model.rowCount():,} rows; watcher mode"
            f" {window.folder_watcher.mode}; {args.changes} commits\n"
        )

        to_row, to_refreshed = measure_latency(window, db, args.changes)
        describe("commit -> row in the table model", to_row, args.changes)
        describe("commit -> page refreshed (status, detail)", to_refreshed, args.changes)
        measure_refresh(window, db)
        spin(1000)  # let the last change's follow-up checks finish
        measure_idle_cpu(args.idle_seconds)

        window.close()
        window.shutdown()
        window.deleteLater()
        spin(50)
    del app


if __name__ == "__main__":
    main()
