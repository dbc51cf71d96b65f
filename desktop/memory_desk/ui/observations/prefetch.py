"""Rows read ahead of the scroll, on a worker thread, so a page jump finds them cached.

Why: a page jump (Page Down, a click in the scroll bar's trough, the benchmark's page per
frame) shows about twenty rows that were never shown. Reading them on the main thread, in the
frame that shows them (``get_many`` about 2 ms, formatting about 3 ms for a block at 100,000
rows), made those frames the slowest: p99 26 ms against the 16 ms a frame may take. After each
paint the table model asks here for the rows within a few pages of the view; one worker reads
and formats them while the window goes on.

The model owns one :class:`ReadAhead`. It runs one read at a time and never queues a second:
the model asks again after the next paint, for the rows near the view then. The answer is not
sent back through a signal: the model takes it when it next needs a row or paints (a slot's
turn might come only after the frame that needed the rows). A row the view needs while its
read runs waits for that read instead of being read twice.

Safety is the model's: each read carries a key (the store, the ids' version and the cache's
epoch when it was asked) and the model drops an answer whose key is no longer its own, so a
reload, a live refresh, new ids or another file since the read began never show what it read.
It runs on the page's one mechanism for worker threads, a :class:`.BackgroundCall` (its
thread lives as long as its owner, so the store gives it one connection); its answer signal
is not used. :meth:`ReadAhead.stop` waits for a running read: call it before the store is
closed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable

from PySide6.QtCore import QObject

from memory_desk.core import StoreError
from memory_desk.ui.observations.background import BackgroundCall


class _Job:
    """One read and its answer, handed over through this object (not a signal), so the owner
    can wait for it; ``done`` is set whatever happens, so no one waits for ever."""

    def __init__(self, ids: Iterable[int], key: Hashable, read: Callable[[], object]) -> None:
        self.ids = frozenset(ids)
        self.key = key
        self.read: Callable[[], object] | None = read
        self.value: object = None
        self.failed = False
        self.done = threading.Event()

    def run(self) -> None:
        """On the worker."""
        try:
            assert self.read is not None
            self.value = self.read()
        except StoreError:
            self.failed = True  # the main thread's own read reports it, in its own words
        finally:
            self.read = None  # its store and ids: held no longer than needed
            self.done.set()


class ReadAhead(QObject):
    """One read of rows at a time on a worker thread, its answer taken by the owner.

    ``reads`` counts the reads started (the tests read it).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._call = BackgroundCall(self)  # created first, so destroyed (and waited for) first
        self._job: _Job | None = None
        self._stopped = False
        self.reads = 0

    def running(self) -> bool:
        """True while a read has been started and its answer is not in yet."""
        return self._job is not None and not self._job.done.is_set()

    def pending(self) -> bool:
        """True while a read's answer (in or not) has not been taken."""
        return self._job is not None

    def covers(self, observation_id: int) -> bool:
        """Is this row among those the read not yet taken was asked for?"""
        return self._job is not None and observation_id in self._job.ids

    def start(self, ids: Iterable[int], key: Hashable, read: Callable[[], object]) -> bool:
        """Run ``read`` (the rows ``ids``) on the worker, unless a read is pending or the owner
        stopped; False when it did not start."""
        if self._stopped or self._job is not None:
            return False
        self._job = job = _Job(ids, key, read)
        self.reads += 1
        # Never superseded (one job at a time) nor submitted after stop, so it always runs.
        self._call.submit(job.run)
        return True

    def take(self, *, wait: bool) -> tuple[Hashable, object] | None:
        """(key, value) of the pending read once it is done (waiting for it with ``wait``),
        then forget it; None when there is none, it is still running, or it failed."""
        job = self._job
        if job is None:
            return None
        if not job.done.is_set():
            if not wait:
                return None
            job.done.wait()
        self._job = None
        return None if job.failed else (job.key, job.value)

    def drop(self) -> None:
        """Forget the pending read (waiting for it if it runs: its answer is nobody's now)."""
        self.take(wait=True)

    def stop(self) -> None:
        """Wait for a running read and start no more: the store may be closed next."""
        self._stopped = True
        self.drop()
        self._call.stop()
