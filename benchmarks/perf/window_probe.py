"""The Memory Desk window, measured in its own process (run by ``benchmarks/run.py``).

    python benchmarks/perf/window_probe.py --db DB --out OUT.json --task start|session
        [--spawn-ns N] [--words a,b,c] [--repeats 2] [--live-changes 20] [--max-frames 3000]

``start``: open the window, record spawn -> first rows painted, ``create_main_window`` ->
first rows painted and the RSS then, and quit. ``session`` (on a copy the probe may write):
the same, then typing, agent commits, scrolling and sorting, writing every raw sample to
OUT. The window is driven only through object names, ``window.observations_page.model``,
the page's ``refreshed`` signal and ``memory_desk.app.create_main_window``, so an older
checkout (``PYTHONPATH=/tmp/before/desktop``) runs the same probe.
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent / "tests"))

from perf import qtwatch  # noqa: E402
from perf.qtwatch import Heartbeat, KeyTyper, TableWatch, now, spin, spin_until  # noqa: E402

STAGES: dict[str, int] = {"qt_imported": now()}  # start stages (monotonic ns), see measure_start
KEY_INTERVAL_MS = 125  # about 8 keys a second
WINDOW_SIZE = (1280, 800)


def open_window(db: Path):  # noqa: ANN201 - a MainWindow
    """The real window on ``db``, shown, with a watch on its table; returns both and times."""
    from PySide6.QtWidgets import QTableView

    from memory_desk.app import create_main_window

    created = now()
    window = create_main_window(["--db", str(db)])
    STAGES["built"] = now()
    window.resize(*WINDOW_SIZE)
    page = window.observations_page
    table = window.findChild(QTableView, "observationsTable")
    watch = TableWatch(table, page.model.id_at)
    window.show()
    return window, page, table, watch, created


def close_window(window, app) -> None:  # noqa: ANN001
    window.close()
    window.shutdown()
    window.deleteLater()
    app.processEvents()


def busy(page) -> bool:  # noqa: ANN001
    is_busy = getattr(page, "is_busy", None)
    return bool(is_busy()) if is_busy else False


def settle(page, watch: TableWatch, quiet_ms: int = 600, timeout_ms: int = 120_000) -> bool:  # noqa: ANN001
    """Wait until no query is pending and the model has been still for ``quiet_ms``."""

    def still() -> bool:
        last = watch.changes[-1] if watch.changes else 0
        return not busy(page) and now() - last > quiet_ms * 1_000_000

    return spin_until(still, timeout_ms, step_ms=20)


def measure_start(window, page, watch: TableWatch, created: int, spawn_ns: int) -> dict:  # noqa: ANN001
    spin_until(lambda: watch.first_paint_with_rows() is not None, 600_000, step_ms=1)
    painted = watch.first_paint_with_rows()
    rss = qtwatch.rss_kb()
    stages = {"created": created, **STAGES, "painted": painted}
    return {
        "spawn_to_paint_ms": (painted - spawn_ns) / 1e6 if spawn_ns else None,
        "create_to_paint_ms": (painted - created) / 1e6,
        "rss_kb": rss,
        "rows": page.model.rowCount(),
        # spawn -> Python and Qt imported -> QApplication -> create_main_window returned
        # (our imports and the window) -> first rows painted (first query, first paint)
        "stages_ms": {name: (stamp - spawn_ns) / 1e6 for name, stamp in stages.items() if spawn_ns},
        "bytecode": "cached" if not sys.flags.dont_write_bytecode else "compiled at each start",
    }


def search_box(window):  # noqa: ANN001, ANN201
    from PySide6.QtWidgets import QLineEdit

    return window.findChild(QLineEdit, "observationsSearch")


def measure_typing(window, page, watch: TableWatch, words: list[str], repeats: int) -> dict:  # noqa: ANN001
    """Type each word letter by letter at 8 keys/s; every key, paint and change is recorded."""
    from PySide6.QtTest import QTest

    box = search_box(window)
    typer = KeyTyper(box, KEY_INTERVAL_MS)
    settled: list[dict] = []
    for _ in range(repeats):
        for word in words:
            box.clear()
            settle(page, watch)
            box.setFocus()
            typer.type_word(word, lambda letter: QTest.keyClick(box, letter))
            ok = settle(page, watch)
            settled.append({"word": word, "ok": ok, "last_change": watch.changes[-1]})
    box.clear()
    settle(page, watch)
    return {"keys": typer.keys, "settled": settled}


def measure_live(db: Path, page, watch: TableWatch, changes: int) -> dict:  # noqa: ANN001
    """A second process commits plugin-style saves, paced; from commit to row and paint."""
    from agents.live_writers import writer_argv

    beat = Heartbeat()
    inserted: list[int] = []
    refreshed: list[int] = []
    page.model.rowsInserted.connect(lambda *_: inserted.append(now()))
    page.refreshed.connect(lambda: refreshed.append(now()))
    writer = subprocess.Popen(
        writer_argv("serve-saves", str(db)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert writer.stdin is not None and writer.stdout is not None
    # The writer's replies are read on a thread: a blocking read on the window's thread froze
    # its event loop for as long as a commit took (46 ms when the writer's commit merged FTS
    # segments), and the heartbeat counted the benchmark's own wait as the window's stall.
    replies: queue.SimpleQueue[str] = queue.SimpleQueue()
    lines = writer.stdout
    threading.Thread(target=lambda: [replies.put(line) for line in lines], daemon=True).start()

    def reply() -> str:
        spin_until(lambda: not replies.empty(), 30_000, step_ms=1)
        return replies.get_nowait()

    assert reply().strip() == "ready"
    samples = []
    beat.start()
    for _ in range(changes):
        spin(random.randint(300, 600))
        inserted.clear()
        refreshed.clear()
        rows = page.model.rowCount()
        writer.stdin.write("go\n")
        writer.stdin.flush()
        committed = int(reply())
        spin_until(lambda r=rows: page.model.rowCount() > r, 10_000, step_ms=1)
        spin_until(lambda: bool(refreshed) and not busy(page), 10_000, step_ms=2)
        spin(30)
        row_at = inserted[0] if inserted else None
        painted = watch.first_paint_after(row_at) if row_at else None
        end = (refreshed[-1] if refreshed else now()) + 20_000_000
        samples.append(
            {
                "to_row_ms": (row_at - committed) / 1e6 if row_at else None,
                "to_paint_ms": (painted - committed) / 1e6 if painted else None,
                "stall_ms": beat.longest_gap_ms(committed, end),
            }
        )
    beat.stop()
    writer.stdin.close()
    writer.wait()
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    raw = []
    for _ in range(7):
        began = time.perf_counter()
        conn.execute(
            "SELECT o.id FROM observations o WHERE o.deleted_at IS NULL"
            " ORDER BY o.updated_at DESC, o.id DESC"
        ).fetchall()
        raw.append((time.perf_counter() - began) * 1000)
    conn.close()
    return {"samples": samples, "raw_ms": raw}


def scroll_positions(maximum: int, step: int, max_frames: int) -> list[int]:
    """Every page top to bottom, or evenly spaced bursts of consecutive pages if too many."""
    pages = list(range(0, maximum + step, step))
    if len(pages) <= max_frames:
        return pages
    bursts, per = 10, max_frames // 10
    positions = []
    for burst in range(bursts):
        first = (len(pages) - per) * burst // (bursts - 1)
        positions.extend(pages[first : first + per])
    return positions


def scroll_frames(app, table, max_frames: int) -> tuple[list[float], list[float]]:  # noqa: ANN001
    """Per-frame ms of page jumps: move the scroll bar a page and process the events that
    posts, among them the one paint of the rows that came in (forced when Qt made none), as
    on screen. Beside it, the frame as the benchmark measured it up to its sixth round: the
    same, then a second, forced paint of the same rows (two paints per frame)."""
    from PySide6.QtCore import QEvent, QObject

    class Paints(QObject):
        seen = 0

        def eventFilter(self, _watched, event) -> bool:  # noqa: ANN001, N802 (Qt's name)
            if event.type() == QEvent.Type.Paint:
                self.seen += 1
            return False

    bar = table.verticalScrollBar()
    viewport = table.viewport()
    paints = Paints()
    viewport.installEventFilter(paints)
    bar.setValue(0)
    app.processEvents()
    frames, two_paints = [], []
    for value in scroll_positions(bar.maximum(), max(1, bar.pageStep()), max_frames):
        paints.seen = 0
        began = time.perf_counter()
        bar.setValue(value)
        app.processEvents()
        if not paints.seen:
            viewport.repaint()
        shown = time.perf_counter()
        viewport.repaint()
        frames.append((shown - began) * 1000)
        two_paints.append((time.perf_counter() - began) * 1000)
    viewport.removeEventFilter(paints)
    bar.setValue(0)
    return frames, two_paints


def wheel_frames(app, table, max_frames: int) -> list[float]:  # noqa: ANN001
    """Per-frame ms of scrolling as a person does with a mouse wheel: one notch (Qt's default
    of 3 rows) per frame, a real ``QWheelEvent`` sent to the viewport, then the events it
    posted (the view moves the pixels already painted and paints only the rows that came in).
    The whole table, or 10 evenly spaced bursts of consecutive notches when it has more."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent

    bar = table.verticalScrollBar()
    viewport = table.viewport()
    centre = QPointF(viewport.width() / 2, viewport.height() / 2)

    def notch() -> float:
        event = QWheelEvent(
            centre,
            viewport.mapToGlobal(centre),
            QPoint(),
            QPoint(0, -120),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        began = time.perf_counter()
        app.sendEvent(viewport, event)
        app.processEvents()
        return (time.perf_counter() - began) * 1000

    bar.setValue(0)
    app.processEvents()
    notch()
    step = max(1, bar.value())  # how far one notch scrolls
    notches = bar.maximum() // step
    bursts = 1 if notches <= max_frames else 10
    per = min(notches, max_frames) // bursts
    frames = []
    for burst in range(bursts):
        bar.setValue((bar.maximum() - per * step) * burst // max(1, bursts - 1))
        app.processEvents()
        frames.extend(notch() for _ in range(per))
    bar.setValue(0)
    return frames


def measure_sorts(app, page, table, watch: TableWatch) -> dict:  # noqa: ANN001
    """Click each visible column's header; the longest stall and click -> sorted rows painted."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    header = table.horizontalHeader()
    beat = Heartbeat()
    stalls, latencies = [], []
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        settle(page, watch, quiet_ms=300)
        x = header.sectionViewportPosition(section) + header.sectionSize(section) // 2
        if not 0 <= x < header.viewport().width():
            continue
        beat.start()
        clicked = now()
        changes_before = len(watch.changes)
        QTest.mouseClick(
            header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2)
        )
        settle(page, watch, quiet_ms=300)
        beat.stop()
        moved = watch.changes[changes_before:]
        painted = watch.first_paint_after(moved[-1]) if moved else None
        stalls.append(beat.longest_gap_ms(clicked, now()))
        latencies.append((painted - clicked) / 1e6 if painted else None)
    header.setSortIndicator(-1, Qt.SortOrder.DescendingOrder)
    settle(page, watch)
    return {"stall_ms": stalls, "latency_ms": latencies}


def plain_reference(app, db: Path, table, max_frames: int) -> dict:  # noqa: ANN001
    """A plain QTableView on a simple model of the same rows, same size, same process."""
    from perf.plain_table import PlainTable

    plain = PlainTable(db, table.viewport().size(), table.verticalHeader().defaultSectionSize())
    frames, two_paints = scroll_frames(app, plain.view, max_frames)
    wheel = wheel_frames(app, plain.view, max_frames)
    sorts = plain.sort_frames(app)
    plain.close()
    return {
        "scroll_ms": frames,
        "scroll_two_paints_ms": two_paints,
        "wheel_ms": wheel,
        "sort_ms": sorts,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--task", choices=("start", "session"), default="start")
    parser.add_argument("--spawn-ns", type=int, default=0)
    parser.add_argument("--words", default="")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--live-changes", type=int, default=20)
    parser.add_argument("--max-frames", type=int, default=3000)
    parser.add_argument("--tasks", default="typing,scroll,sort,live")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="memory-desk-bench-home-") as home:
        qtwatch.private_home(Path(home))
        app = qtwatch.qt_app()
        STAGES["app"] = now()
        window, page, table, watch, created = open_window(args.db)
        result = {"start": measure_start(window, page, watch, created, args.spawn_ns)}
        if args.task == "session":
            settle(page, watch)
            tasks = set(args.tasks.split(","))
            words = [w for w in args.words.split(",") if w]
            if "typing" in tasks:
                result["typing"] = measure_typing(window, page, watch, words, args.repeats)
            if "scroll" in tasks:
                result["scroll_ms"], result["scroll_two_paints_ms"] = scroll_frames(
                    app, table, args.max_frames
                )
                result["wheel_ms"] = wheel_frames(app, table, args.max_frames)
            if "sort" in tasks:
                result["sort"] = measure_sorts(app, page, table, watch)
            if "live" in tasks:
                result["live"] = measure_live(args.db, page, watch, args.live_changes)
            if tasks & {"scroll", "sort"}:
                result["plain"] = plain_reference(app, args.db, table, args.max_frames)
            result["paints"] = watch.paints
            result["changes"] = watch.changes
            result["paint_ms"] = watch.paint_ms
            result["peak_rss_kb"] = qtwatch.rss_kb("VmHWM")
        close_window(window, app)
        qtwatch.write_result(args.out, result)
    os._exit(0)  # skip interpreter teardown: nothing left to save, and it is not measured


if __name__ == "__main__":
    sys.exit(main())
