"""Progress and cancelling for long core work (near-duplicate search, exports).

The core stays free of Qt: a long job takes a :class:`Progress`, calls :meth:`Progress.step`
as it goes (which raises :class:`Cancelled` once someone asked it to stop) and never knows
who listens. The UI's :class:`memory_desk.ui.progress_task.ProgressTask` runs such a job on a
worker thread, turns the reports into signals and passes the person's Cancel on.

A job that is cancelled must leave nothing half-done behind (an export removes its partial
file); that is the job's own business, done in its ``except Cancelled`` / ``finally``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Cancelled(Exception):  # noqa: N818 (a request, not a failure: callers say "except Cancelled")
    """The person cancelled the job; nothing it was making is kept."""


class Progress:
    """Where a job reports how far it is, and learns whether it should stop. Thread-safe.

    ``listener(done, total)`` is called from the job's thread, at most every
    ``interval`` seconds (and always for the last step), so a job may call :meth:`step`
    for every row without flooding its listener.
    """

    def __init__(
        self,
        listener: Callable[[int, int], None] | None = None,
        *,
        interval: float = 0.05,
    ) -> None:
        self._listener = listener
        self._interval = interval
        self._cancel = threading.Event()
        self._last = 0.0
        self.done = 0
        self.total = 0

    def cancel(self) -> None:
        """Ask the job to stop at its next step (any thread)."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        """Raise :class:`Cancelled` if someone asked the job to stop."""
        if self._cancel.is_set():
            raise Cancelled()

    def step(self, done: int, total: int | None = None) -> None:
        """Report ``done`` of ``total`` (the total may be given once, the first time) and
        raise :class:`Cancelled` if the job should stop."""
        self.check()
        if total is not None:
            self.total = total
        self.done = done
        if self._listener is None:
            return
        now = time.monotonic()
        if done >= self.total or now - self._last >= self._interval:
            self._last = now
            self._listener(done, self.total)
