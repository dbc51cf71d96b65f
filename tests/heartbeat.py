"""The freeze meter the window tests share: a 10 ms ``QTimer`` on the main thread.

The longest gap between two of its beats is the longest time the event loop could not run,
i.e. the worst freeze the person would have seen. A figure, never an absolute time to assert
alone: tests compare it with a limit far above a healthy loop's gaps and far below a freeze.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QObject, Qt, QTimer


class Heartbeat:
    """Beats every 10 ms from :meth:`start`; :meth:`stop` returns the longest gap (seconds)."""

    def __init__(self, parent: QObject | None = None) -> None:
        self.longest = 0.0
        self.gaps: list[float] = []  # every gap over 50 ms, in order
        self._last = time.perf_counter()
        self._timer = QTimer(parent)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._beat)

    def start(self) -> Heartbeat:
        # What earlier tests of the run left for the garbage collector is not the measured
        # action's doing: a full collection landing inside it paused the window 100-400 ms in
        # CI runs of the whole suite (the same tests alone: 30-100 ms). Collected, then frozen
        # for the measure, as the app freezes what its start made (ui/heap.py): a collection
        # inside the measure looks only at what the measured action made.
        gc.collect()
        gc.freeze()
        self._last = time.perf_counter()
        self._timer.start()
        return self

    def stop(self) -> float:
        self._beat()
        self._timer.stop()
        gc.unfreeze()
        return self.longest

    def _beat(self) -> None:
        now = time.perf_counter()
        gap = now - self._last
        self.longest = max(self.longest, gap)
        if gap > 0.050:
            self.gaps.append(gap)
        self._last = now
