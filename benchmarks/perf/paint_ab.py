"""Full-repaint CPU of the observations table, old way against new, in one process.

    python benchmarks/perf/paint_ab.py --db DB [--repaints 300] [--rounds 10]

Three views of the same rows at 1400 × 900, repainted in turn (interleaved rounds, so load
on the machine falls on all three alike), each ``viewport().repaint()`` timed with the main
thread's CPU clock (``time.thread_time``):

- ``delegates``: a ``QTableView`` with the table's delegates (the path before: each cell
  through the delegate and the style);
- ``own paint``: the window's ``ObservationsTableView``;
- ``plain``: a ``QTableView`` on a simple model holding the same strings (Qt's C++ delegate).

Prints the median ms a repaint of each and the ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QHeaderView, QTableView

SIZE = (1400, 900)


class SameStrings(QAbstractTableModel):
    """The window's rows as plain strings: what a plain table would show."""

    def __init__(self, rows: list[list[str]]) -> None:
        super().__init__()
        self.rows = rows

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows[0])

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole:
            return self.rows[index.row()][index.column()]
        return None


def like(view: QTableView, source: QTableView) -> QTableView:
    """``view`` set up as the window's table: sizes, rows, selection, shown."""
    for setting in ("alternatingRowColors", "showGrid", "wordWrap", "textElideMode"):
        getattr(view, "set" + setting[0].upper() + setting[1:])(getattr(source, setting)())
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    rows = view.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(source.verticalHeader().defaultSectionSize())
    for column in range(source.model().columnCount()):
        view.setColumnHidden(column, source.isColumnHidden(column))
        view.setColumnWidth(column, source.columnWidth(column))
    view.resize(*SIZE)
    view.show()
    view.selectRow(2)
    return view


def measure(views: dict[str, QTableView], repaints: int, rounds: int) -> dict[str, list[float]]:
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
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--repaints", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--theme", default="light")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication.instance() or QApplication(sys.argv[:1])

    from memory_desk.app import create_main_window
    from memory_desk.ui.observations.delegates import install_delegates
    from memory_desk.ui.observations.table_view import ObservationsTableView

    window = create_main_window(["--db", str(args.db), "--theme", args.theme])
    window.resize(*SIZE)
    window.show()
    page = window.observations_page
    source = window.findChild(QTableView, "observationsTable")
    deadline = time.monotonic() + 60
    while page.model.rowCount() == 0 and time.monotonic() < deadline:
        app.processEvents()
    model = page.model
    old = QTableView()
    old.setModel(model)
    install_delegates(old)
    new = ObservationsTableView()
    new.setModel(model)
    install_delegates(new)
    shown = 60
    strings = [list(model.record_at(row).display) for row in range(min(shown, model.rowCount()))]
    plain = QTableView()
    plain.setModel(SameStrings(strings))
    views = {"delegates": like(old, source), "own paint": like(new, source)}
    views["plain"] = like(plain, source)
    app.processEvents()
    for view in views.values():
        view.viewport().repaint()  # the rows on screen enter the cache
    cells = {name: _cells(view) for name, view in views.items()}
    samples = measure(views, args.repaints, args.rounds)
    medians = {name: statistics.median(values) for name, values in samples.items()}
    for name, median in medians.items():
        p95 = sorted(samples[name])[int(len(samples[name]) * 0.95) - 1]
        print(f"{name:>10}: median {median:6.2f} ms  p95 {p95:6.2f} ms  cells {cells[name]}")
    print(f"own paint ÷ plain {medians['own paint'] / medians['plain']:.2f}", end="  ")
    print(f"delegates ÷ plain {medians['delegates'] / medians['plain']:.2f}")
    for view in views.values():
        view.close()
    window.close()
    window.shutdown()
    return 0


def _cells(view: QTableView) -> int:
    rows = view.rowAt(view.viewport().height() - 1) - view.rowAt(0) + 1
    columns = [
        c
        for c in range(view.model().columnCount())
        if not view.isColumnHidden(c) and view.columnViewportPosition(c) < view.viewport().width()
    ]
    return rows * len(columns)


if __name__ == "__main__":
    sys.exit(main())
