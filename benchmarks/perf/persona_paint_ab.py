"""Full-repaint CPU of the persona entry list, the delegate's way against its own, in one process.

    python benchmarks/perf/persona_paint_ab.py FOLDER [--repaints 300] [--rounds 10]

Two ``EntryListView``s on the window's own model, the same size, scroll position and
selection, repainted in turn (interleaved rounds, so load on the machine falls on both alike),
each ``viewport().repaint()`` timed with the main thread's CPU clock (``time.thread_time``):

- ``delegate``: every cell through ``EntryDelegate`` and the style (the path before);
- ``own paint``: the rows painted in one call (``ui/widgets/row_view.py``).

Prints the median and p95 ms of a repaint of each, and the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def measure(views: dict, repaints: int, rounds: int) -> dict[str, list[float]]:
    """Per view: CPU ms of each repaint, taken in interleaved rounds."""
    samples: dict[str, list[float]] = {name: [] for name in views}
    per_round = max(1, repaints // rounds)
    for _round in range(rounds):
        for name, view in views.items():
            viewport = view.viewport()
            for _ in range(per_round):
                began = time.thread_time()
                viewport.repaint()
                samples[name].append((time.thread_time() - began) * 1000)
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--repaints", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--theme", default="light")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from perf import persona_window
    from perf.qtwatch import private_home

    private_home(Path(os.environ.get("TMPDIR", "/tmp")) / "persona-paint-ab-home")
    app = persona_window._app()
    from memory_desk.ui import theme
    from memory_desk.ui.persona.entry_list import EntryListView

    window = persona_window._open(args.folder)
    theme.apply_theme(args.theme)
    source = window.findChild(EntryListView, "personaList")
    model = source.model()
    views = {}
    for name in ("delegate", "own paint"):
        view = EntryListView()
        view.setModel(model)
        view.span_separators()
        view.resize(source.size())
        for column in range(model.columnCount()):
            view.setColumnWidth(column, source.columnWidth(column))
        view.show()
        view.selectRow(3)
        views[name] = view
    views["delegate"].rows_painter.can_paint = lambda: False  # the QTableView path
    app.processEvents()
    for view in views.values():
        view.viewport().repaint()  # the rows on screen enter the caches
    samples = measure(views, args.repaints, args.rounds)
    medians = {name: statistics.median(values) for name, values in samples.items()}
    rows = source.rowAt(source.viewport().height() - 1) - source.rowAt(0) + 1
    print(f"{args.folder}: {model.rowCount()} rows, {rows} on screen, {args.theme}")
    for name, median in medians.items():
        p95 = sorted(samples[name])[int(len(samples[name]) * 0.95) - 1]
        print(f"{name:>10}: median {median:6.2f} ms  p95 {p95:6.2f} ms")
    print(f"own paint ÷ delegate {medians['own paint'] / medians['delegate']:.2f}")
    for view in views.values():
        view.close()
    persona_window._close(window)
    return 0


if __name__ == "__main__":
    sys.exit(main())
