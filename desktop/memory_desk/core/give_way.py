"""Background work that steps aside while the window works.

Work nobody is waiting for (the journal's first look of a big store, in a child process; the
imports of the window's held-back parts, on a thread) slows what the person is doing when it
runs beside it: on few cores the first look's batches take the window's CPU, and importing
numpy (a C extension's initialisation holds the interpreter's lock throughout) delays the
window's frames. :class:`GiveWay` is the pause
such work takes between two steps: while the window used more than :data:`BUSY_SHARE` of a
core since the last step, it waits until the window has been quiet for ``quiet_s``, at most
``most_wait_s`` at a time (a window that never rests still sees the work done). Where the
window's CPU time cannot be read, it does not wait.

Pure Python, no Qt.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable

BUSY_SHARE = 0.15  # of one core: the window using this much CPU is working

CpuClock = Callable[[], int | None]  # CPU time used so far (ns), None when it cannot be read


class GiveWay:
    """Call it between two steps of background work (see the module's notes)."""

    def __init__(
        self,
        cpu: CpuClock,
        *,
        quiet_s: float,
        most_wait_s: float,
        step_s: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cpu = cpu
        self.quiet_s = quiet_s
        self.most_wait_s = most_wait_s
        self.step_s = step_s
        self.clock = clock
        self.waited = 0.0  # seconds, in all
        self._mark = (clock(), cpu())

    def _busy(self) -> bool | None:
        """Whether the window worked since the last mark (None: unknown); moves the mark."""
        when, used = self.clock(), self.cpu()
        (then, before), self._mark = self._mark, (when, used)
        if used is None or before is None or when <= then:
            return None
        return (used - before) / 1e9 > BUSY_SHARE * (when - then)

    def __call__(self) -> None:
        # A span of a few microseconds says nothing of the window (a step called right after
        # the mark): measure over one step at least.
        short = self.step_s - (self.clock() - self._mark[0])
        if short > 0:
            time.sleep(short)
        if not self._busy():
            return
        began = quiet_since = self.clock()
        while self.clock() - began < self.most_wait_s:
            time.sleep(self.step_s)
            if self._busy():
                quiet_since = self.clock()
            elif self.clock() - quiet_since >= self.quiet_s:
                break
        self.waited += self.clock() - began
        self._mark = (self.clock(), self.cpu())


def process_cpu_ns(pid: int) -> int | None:
    """The CPU time (ns) every thread of process ``pid`` has used, from Linux's
    ``/proc/PID/task/*/schedstat``; None where there is no such file (another system, or
    the process is gone)."""
    total = 0
    try:
        for task in os.scandir(f"/proc/{pid}/task"):
            # (a thread that just ended has no file any more)
            with contextlib.suppress(FileNotFoundError), open(f"{task.path}/schedstat", "rb") as f:
                total += int(f.read().split(maxsplit=1)[0])
    except (OSError, ValueError, IndexError):
        return None
    return total


def thread_cpu(ident: int) -> CpuClock:
    """A clock of the CPU time (ns) of the thread ``ident`` (``threading.get_ident()``) of this
    process; it reads None where the system has no such clock, or the thread is gone."""
    try:
        clock_id = time.pthread_getcpuclockid(ident)
    except (AttributeError, OSError):
        return lambda: None

    def read() -> int | None:
        try:
            return time.clock_gettime_ns(clock_id)
        except OSError:
            return None

    return read
