"""What both window probes share: a private home, paint and model watchers, a heartbeat.

No QtSql and no Memory Desk import here: the Memory Desk probe and the plain QSqlQueryModel
reference import this module, and each must carry only its own code into its process.

Times are ``time.monotonic_ns()``: one clock for every process on Linux, so a parent's
spawn time and a child's first paint can be subtracted.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QAbstractItemModel, QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QTableView


def private_home(root: Path) -> None:
    """Keep the benchmark's settings and UI state away from the person's own."""
    os.environ["HOME"] = str(root)
    for name, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_STATE_HOME", ".local/state"),
        ("XDG_CACHE_HOME", ".cache"),
    ):
        (root / sub).mkdir(parents=True, exist_ok=True)
        os.environ[name] = str(root / sub)


def rss_kb(field: str = "VmRSS") -> int:
    """This process's resident memory (or ``VmHWM``, its peak) in KiB, from /proc."""
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def now() -> int:
    return time.monotonic_ns()


def spin(ms: int) -> None:
    """Run the event loop for ``ms`` milliseconds."""
    loop = QEventLoop()
    timer = QTimer()
    timer.setSingleShot(True)
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.timeout.connect(loop.quit)
    timer.start(ms)
    loop.exec()


def spin_until(done: Callable[[], bool], timeout_ms: int, step_ms: int = 5) -> bool:
    """Run the event loop until ``done()`` (checked every ``step_ms``) or the timeout."""
    deadline = now() + timeout_ms * 1_000_000
    while not done():
        if now() > deadline:
            return False
        spin(step_ms)
    return True


class TableWatch(QObject):
    """Records each paint of a table's viewport (after painting) and each model change.

    A paint is timed when it has finished: the filter paints the viewport itself (through
    the view's ``viewportEvent``) and swallows the event. After a model change, the next
    paint also records the ids of the visible rows (``row_id(row)``), so the analysis can
    tell afterwards whether the rows painted belonged to the text typed.
    """

    def __init__(self, table: QTableView, row_id: Callable[[int], int]) -> None:
        super().__init__(table)
        self.table = table
        self.model: QAbstractItemModel = table.model()
        self.row_id = row_id
        self.paints: list[list] = []  # [ns, rowCount, ids or None (unchanged)]
        self.changes: list[int] = []
        self.paint_ms: list[float] = []
        self._dirty = True
        self._inside = False
        for signal in (
            self.model.modelReset,
            self.model.rowsInserted,
            self.model.rowsRemoved,
            self.model.rowsMoved,
            self.model.layoutChanged,
        ):
            signal.connect(self.on_change)
        table.viewport().installEventFilter(self)

    def on_change(self, *_args: object) -> None:
        self.changes.append(now())
        self._dirty = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.Paint or self._inside:
            return False
        self._inside = True
        try:
            began = now()
            self.table.viewportEvent(event)
            ended = now()
        finally:
            self._inside = False
        self.paint_ms.append((ended - began) / 1e6)
        rows = self.model.rowCount()
        ids = self.visible_ids(rows) if self._dirty else None
        self._dirty = False
        self.paints.append([ended, rows, ids])
        return True

    def visible_ids(self, rows: int) -> list[int]:
        if rows == 0:
            return []
        first = max(0, self.table.rowAt(0))
        last = self.table.rowAt(self.table.viewport().height() - 1)
        last = rows - 1 if last < 0 else last
        ids = []
        for row in range(first, min(last, first + 60) + 1):
            try:
                ids.append(int(self.row_id(row)))
            except (TypeError, ValueError):
                continue
        return ids

    def first_paint_with_rows(self) -> int | None:
        for stamp, rows, _ids in self.paints:
            if rows > 0:
                return stamp
        return None

    def first_paint_after(self, stamp: int) -> int | None:
        for painted, _rows, _ids in self.paints:
            if painted > stamp:
                return painted
        return None


class Heartbeat(QObject):
    """A 1 ms timer: the gaps between its ticks are the event loop's stalls."""

    def __init__(self, interval_ms: int = 1) -> None:
        super().__init__()
        self.ticks: list[int] = []
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(lambda: self.ticks.append(now()))

    def start(self) -> None:
        self.ticks.clear()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def longest_gap_ms(self, start: int, end: int) -> float:
        """The longest stall between ``start`` and ``end`` (ns): gaps overlapping the span."""
        longest = 0
        previous = None
        for tick in self.ticks:
            if previous is not None and tick > start and previous < end:
                longest = max(longest, tick - previous)
            previous = tick
            if tick > end:
                break
        return longest / 1e6


class KeyTyper(QObject):
    """Types a word into a line edit at a steady pace, from timers (the person's hand).

    Each key's press time is its schedule, not when the event loop got to it: a window that
    blocks its loop makes the person's keys wait, and that wait is part of the latency.
    """

    def __init__(self, edit, interval_ms: int) -> None:  # noqa: ANN001 - a QLineEdit
        super().__init__()
        self.edit = edit
        self.interval_ms = interval_ms
        self.keys: list[dict] = []

    def type_word(self, word: str, send: Callable[[str], None]) -> None:
        """Send each letter at its scheduled time; returns once the last one is sent."""
        start = now() + 50_000_000
        for index, letter in enumerate(word):
            scheduled = start + index * self.interval_ms * 1_000_000
            wait_ms = (scheduled - now()) / 1e6
            if wait_ms > 1:
                spin(int(wait_ms))
            send(letter)
            self.keys.append(
                {"text": self.edit.text(), "scheduled": scheduled, "sent": now(), "word": word}
            )


def qt_app() -> QApplication:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return QApplication.instance() or QApplication(["memory-desk-bench"])


def write_result(path: str, result: dict) -> None:
    Path(path).write_text(json.dumps(result), encoding="utf-8")
