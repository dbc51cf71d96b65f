"""A long job (near-duplicate search, an export) on a worker thread, with progress and Cancel.

The job is a plain function of a :class:`memory_desk.core.progress.Progress` (the core knows
no Qt); this object runs it on a private one-thread pool, relays its reports as signals on
the main thread and passes the person's Cancel to it. One job at a time: starting another
cancels the one running and drops its answer, so a page that asks again (another source, new
settings) only ever hears about the latest job.

A job that raises :class:`~memory_desk.core.StoreError` (or ``OSError``, which a job writing
files may meet) reports its message in the person's language through ``failed``; any other
exception is a bug and is raised again on the main thread, never swallowed.

Signals (ProgressTask):
    progress(int, int): done and total of the running job (total 0: not known yet)
    finished(object): the job's return value
    failed(str): the job's error, in words a person can act on
    cancelled(): the job stopped because the person cancelled it
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from memory_desk.core import StoreError
from memory_desk.core.progress import Cancelled, Progress
from memory_desk.ui import i18n


class _Relay(QObject):
    """Lives on the main thread: signals emitted on it from the pool arrive queued there."""

    progress = Signal(int, int, int)  # generation, done, total
    finished = Signal(int, object)
    failed = Signal(int, str)
    cancelled = Signal(int)
    crashed = Signal(int, object)


class _Job(QRunnable):
    def __init__(
        self, generation: int, job: Callable[[Progress], object], relay: _Relay, progress: Progress
    ) -> None:
        super().__init__()
        self._generation = generation
        self._job = job
        self._relay = relay
        self._progress = progress

    def run(self) -> None:
        generation, relay = self._generation, self._relay
        try:
            if self._progress.cancelled:
                raise Cancelled()
            value = self._job(self._progress)
        except Cancelled:
            relay.cancelled.emit(generation)
        except StoreError as exc:
            relay.failed.emit(generation, i18n.shown(exc))
        except OSError as exc:
            relay.failed.emit(generation, exc.strerror or str(exc))
        except BaseException as exc:  # a bug: shown on the main thread, not lost here
            relay.crashed.emit(generation, exc)
        else:
            relay.finished.emit(generation, value)


class ProgressTask(QObject):
    """Run one long job at a time off the main thread (module docstring).

    Signals:
        progress(int, int): done, total
        finished(object): the job's value
        failed(str): its error message
        cancelled(): it stopped on the person's Cancel
    """

    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)  # created first, so destroyed (and waited for) first
        self._pool.setMaxThreadCount(1)
        self._generation = 0
        self._running: Progress | None = None
        self._relay = _Relay(self)
        self._relay.progress.connect(self._on_progress)
        self._relay.finished.connect(self._on_finished)
        self._relay.failed.connect(self._on_failed)
        self._relay.cancelled.connect(self._on_cancelled)
        self._relay.crashed.connect(self._on_crashed)

    def start(self, job: Callable[[Progress], object]) -> None:
        """Run ``job(progress)``; a job still running is cancelled and its answer dropped."""
        if self._running is not None:
            self._running.cancel()
        self._generation += 1
        generation = self._generation
        relay = self._relay
        progress = Progress(lambda done, total: relay.progress.emit(generation, done, total))
        self._running = progress
        self._pool.start(_Job(generation, job, relay, progress))

    def cancel(self) -> None:
        """Ask the running job to stop; ``cancelled`` comes once it has."""
        if self._running is not None:
            self._running.cancel()

    def is_busy(self) -> bool:
        return self._running is not None

    def wait(self) -> None:
        """Block until the job is over (its signals still come through the event loop)."""
        self._pool.waitForDone()

    def stop(self) -> None:
        """Cancel the job, wait for it, drop its answer (the owner is closing)."""
        self.cancel()
        self._generation += 1
        self._running = None
        self._pool.waitForDone()

    def _latest(self, generation: int) -> bool:
        return generation == self._generation and self._running is not None

    def _on_progress(self, generation: int, done: int, total: int) -> None:
        if self._latest(generation):
            self.progress.emit(done, total)

    def _on_finished(self, generation: int, value: object) -> None:
        if self._latest(generation):
            self._running = None
            self.finished.emit(value)

    def _on_failed(self, generation: int, message: str) -> None:
        if self._latest(generation):
            self._running = None
            self.failed.emit(message)

    def _on_cancelled(self, generation: int) -> None:
        if self._latest(generation):
            self._running = None
            self.cancelled.emit()

    def _on_crashed(self, generation: int, exc: object) -> None:
        if self._latest(generation):
            self._running = None
        raise exc  # type: ignore[misc]  # a bug in the job: let the excepthook show it
