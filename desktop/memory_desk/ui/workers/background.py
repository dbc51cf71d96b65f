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

A call can be *interrupted* when a newer one is submitted (``submit(..., interrupt=f)``: the
runner calls ``f(thread_ident)`` from the main thread, which for a store read is
``ObservationStore.interrupt``: SQLite stops the statement and the call raises
QueryInterrupted, which nobody hears about), so typing on a million rows never waits for a
search nobody wants any more. A call submitted with ``interim=True`` gets a function to report
a first answer before its last (the table's newest rows, shown while every match is ranked).

Signals (BackgroundCall):
    finished(int, object): the generation and the value the latest call returned
    interim(int, object): a first answer the latest call reported before finishing
    failed(int, str): the generation and the store's message (translated) when the latest
        call raised
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from memory_desk.core import StoreError
from memory_desk.core.errors import QueryInterrupted
from memory_desk.ui import i18n


class _Relay(QObject):
    """Lives on the main thread: signals emitted on it from the pool arrive queued there."""

    finished = Signal(int, object)
    failed = Signal(int, str)
    interim = Signal(int, object)


Interrupt = Callable[[int], None]  # stops what the thread with this ident is reading


class _Task(QRunnable):
    """One call on the pool's thread; skipped when a newer one was submitted meanwhile."""

    # An interrupt meant for the call before may reach this one (it lands as the thread goes
    # on to the next call): the newest call then simply runs again.
    ATTEMPTS = 3

    def __init__(
        self,
        generation: int,
        call: Callable[..., object],
        runner: BackgroundCall,
        interrupt: Interrupt | None,
        interim: bool,
    ) -> None:
        super().__init__()
        self._generation = generation
        self._call = call
        self._runner = runner
        self._relay = runner.relay
        self._interrupt = interrupt
        self._interim = interim

    def _superseded(self) -> bool:
        return self._generation < self._runner.generation or self._runner.stopped

    def run(self) -> None:
        if self._superseded():
            return  # a newer question (or the page closing) made this one useless
        self._runner.started(self._generation, threading.get_ident(), self._interrupt)
        try:
            self._run()
        finally:
            self._runner.ended(self._generation)

    def _run(self) -> None:
        for _attempt in range(self.ATTEMPTS):
            try:
                value = self._call(self._report) if self._interim else self._call()
            except QueryInterrupted:
                if self._superseded():
                    return
                continue
            except StoreError as exc:
                self._relay.failed.emit(self._generation, i18n.shown(exc))
                return
            self._relay.finished.emit(self._generation, value)
            return

    def _report(self, value: object) -> None:
        if not self._superseded():
            self._relay.interim.emit(self._generation, value)


class BackgroundCall(QObject):
    """Run store calls off the main thread, keep only the latest answer (module docstring).

    Signals:
        finished(int, object): the latest call's generation and return value
        failed(int, str): the latest call's generation and its StoreError message
    """

    finished = Signal(int, object)
    failed = Signal(int, str)
    interim = Signal(int, object)

    INTERRUPT_AGAIN_MS = 20

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._generation = 0
        self._running_lock = threading.Lock()
        # The call on the pool's thread: (generation, thread ident, how to interrupt it).
        self._running: tuple[int, int, Interrupt | None] | None = None
        self._answered = 0
        self._stopped = False
        self._pool = QThreadPool(self)  # created first, so destroyed (and waited for) first
        self._pool.setMaxThreadCount(1)
        # One thread for the page's lifetime, so one SQLite connection (see the task's run).
        self._pool.setExpiryTimeout(-1)
        self.relay = _Relay(self)
        self.relay.finished.connect(self._on_finished)
        self.relay.failed.connect(self._on_failed)
        self.relay.interim.connect(self._on_interim)
        self._interrupt_timer = QTimer(self)
        self._interrupt_timer.setInterval(self.INTERRUPT_AGAIN_MS)
        self._interrupt_timer.timeout.connect(self._interrupt_again)

    @property
    def generation(self) -> int:
        """The latest call's number (read by the pool's thread: a plain int)."""
        return self._generation

    @property
    def stopped(self) -> bool:
        """True after :meth:`stop` (read by the pool's thread, to skip what is queued)."""
        return self._stopped

    def submit(
        self,
        call: Callable[..., object],
        *,
        interrupt: Interrupt | None = None,
        interim: bool = False,
    ) -> int:
        """Queue ``call``; answers to earlier calls will be dropped, and the running one is
        interrupted if it was submitted with ``interrupt``. With ``interim``, ``call`` is
        called with a function that reports a first answer (signal ``interim``). Returns
        its generation."""
        if self._stopped:
            return self._generation
        self._generation += 1
        self._interrupt_running()
        self._pool.start(_Task(self._generation, call, self, interrupt, interim))
        return self._generation

    def cancel(self) -> None:
        """Drop the answer of whatever is queued or running (interrupting it if it can be)."""
        self._generation += 1
        self._answered = self._generation
        self._pool.clear()
        self._interrupt_running()

    def started(self, generation: int, thread_ident: int, interrupt: Interrupt | None) -> None:
        """The pool's thread begins a call (so a newer submit can interrupt it)."""
        with self._running_lock:
            self._running = (generation, thread_ident, interrupt)

    def ended(self, generation: int) -> None:
        """The pool's thread is done with a call."""
        with self._running_lock:
            if self._running is not None and self._running[0] == generation:
                self._running = None

    def _interrupt_running(self) -> bool:
        """Interrupt the running call if a newer one superseded it; True if it was asked.

        An interrupt that lands before the call's statement starts is lost (SQLite only stops
        statements that run), so the runner asks again every INTERRUPT_AGAIN_MS until that
        call is over."""
        with self._running_lock:
            running = self._running
        if running is None or running[2] is None or running[0] >= self._generation:
            return False
        running[2](running[1])
        if not self._interrupt_timer.isActive():
            self._interrupt_timer.start()
        return True

    def _interrupt_again(self) -> None:
        if not self._interrupt_running():
            self._interrupt_timer.stop()

    def is_busy(self) -> bool:
        """True while the answer to the latest call is still to come."""
        return not self._stopped and self._answered < self._generation

    def wait(self) -> None:
        """Block until the queued and running calls are done (their answers still come)."""
        self._pool.waitForDone()

    def stop(self) -> None:
        """Skip queued calls, interrupt the running one if it can be and wait for it,
        accept no more."""
        self._stopped = True
        self._interrupt_timer.stop()
        self._pool.clear()
        while not self._pool.waitForDone(self.INTERRUPT_AGAIN_MS):
            with self._running_lock:
                running = self._running
            if running is not None and running[2] is not None:
                running[2](running[1])

    def _on_finished(self, generation: int, value: object) -> None:
        if generation == self._generation and not self._stopped:
            self._answered = generation
            self.finished.emit(generation, value)

    def _on_interim(self, generation: int, value: object) -> None:
        if generation == self._generation and not self._stopped:
            self.interim.emit(generation, value)

    def _on_failed(self, generation: int, message: str) -> None:
        if generation == self._generation and not self._stopped:
            self._answered = generation
            self.failed.emit(generation, message)
