"""One blocking store call at a time, off the main thread, where only the latest answer counts.

The page's query (:mod:`.query`), the agent-search panel and the index health check all call
the store for something that can take from milliseconds to seconds on a big database (every
matching id in order, a bm25 ranking over every match, FTS5's ``integrity-check`` on a
snapshot). The window must keep painting meanwhile, and an answer to a question nobody asks
any more (the person typed on, or opened another database) must never show. So each of them
owns one of these (Anki's way): a private one-thread pool runs the calls in order, each call
carries a generation number, a call already superseded when its turn comes is skipped, and an
answer that is not the latest is dropped on the main thread. The pool's one thread lives as
long as its owner, so the store gives it one SQLite connection, opened once.

A call that fails with a :class:`StoreError` reports the store's message in the person's
language (``i18n.shown``, run on the pool's thread: Qt's ``translate`` is thread-safe), so
whoever listens shows it as is.

The pool is the runner's child, created before anything else it owns, so it is destroyed (and
waited for) first: no thread outlives the runner even if :meth:`BackgroundCall.stop` is not
called.

Signals (BackgroundCall):
    finished(int, object): the generation and the value the latest call returned
    failed(int, str): the generation and the store's message (translated) when the latest
        call raised
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from memory_desk.core import StoreError
from memory_desk.ui import i18n


class _Relay(QObject):
    """Lives on the main thread: signals emitted on it from the pool arrive queued there."""

    finished = Signal(int, object)
    failed = Signal(int, str)


class _Task(QRunnable):
    """One call on the pool's thread; skipped when a newer one was submitted meanwhile."""

    def __init__(self, generation: int, call: Callable[[], object], runner: BackgroundCall) -> None:
        super().__init__()
        self._generation = generation
        self._call = call
        self._runner = runner
        self._relay = runner.relay

    def run(self) -> None:
        if self._generation < self._runner.generation or self._runner.stopped:
            return  # a newer question (or the page closing) made this one useless
        try:
            value = self._call()
        except StoreError as exc:
            self._relay.failed.emit(self._generation, i18n.shown(exc))
            return
        self._relay.finished.emit(self._generation, value)


class BackgroundCall(QObject):
    """Run store calls off the main thread, keep only the latest answer (module docstring).

    Signals:
        finished(int, object): the latest call's generation and return value
        failed(int, str): the latest call's generation and its StoreError message
    """

    finished = Signal(int, object)
    failed = Signal(int, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._generation = 0
        self._answered = 0
        self._stopped = False
        self._pool = QThreadPool(self)  # created first, so destroyed (and waited for) first
        self._pool.setMaxThreadCount(1)
        # One thread for the page's lifetime, so one SQLite connection (see the task's run).
        self._pool.setExpiryTimeout(-1)
        self.relay = _Relay(self)
        self.relay.finished.connect(self._on_finished)
        self.relay.failed.connect(self._on_failed)

    @property
    def generation(self) -> int:
        """The latest call's number (read by the pool's thread: a plain int)."""
        return self._generation

    @property
    def stopped(self) -> bool:
        """True after :meth:`stop` (read by the pool's thread, to skip what is queued)."""
        return self._stopped

    def submit(self, call: Callable[[], object]) -> int:
        """Queue ``call``; answers to earlier calls will be dropped. Returns its generation."""
        if self._stopped:
            return self._generation
        self._generation += 1
        self._pool.start(_Task(self._generation, call, self))
        return self._generation

    def cancel(self) -> None:
        """Drop the answer of whatever is queued or running (it still runs to its end)."""
        self._generation += 1
        self._answered = self._generation
        self._pool.clear()

    def is_busy(self) -> bool:
        """True while the answer to the latest call is still to come."""
        return not self._stopped and self._answered < self._generation

    def wait(self) -> None:
        """Block until the queued and running calls are done (their answers still come)."""
        self._pool.waitForDone()

    def stop(self) -> None:
        """Skip queued calls, wait for the running one, accept no more."""
        self._stopped = True
        self._pool.clear()
        self._pool.waitForDone()

    def _on_finished(self, generation: int, value: object) -> None:
        if generation == self._generation and not self._stopped:
            self._answered = generation
            self.finished.emit(generation, value)

    def _on_failed(self, generation: int, message: str) -> None:
        if generation == self._generation and not self._stopped:
            self._answered = generation
            self.failed.emit(generation, message)
