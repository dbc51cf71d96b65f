"""The page's writes, one at a time on a thread of their own, so the window never waits.

The agent may hold ``memory.sqlite``'s write lock for seconds (a long save, a migration,
a checkpoint). So that the window never waits for it, each write runs on a private
one-thread pool, inside a :class:`~memory_desk.core.observations.WriteWait`: it waits as
long as the agent holds the lock, says so once (``waiting``, for the page's banner), and
gives up with nothing written when the person cancels. Unlike the page's queries
(:mod:`.background`), every write counts
and none is skipped; there is at most one at a time, so a write's effect (the undo stack,
the selection after a forget) is in place before the next is asked for.

A write may need the person's answer half-way (which row keeps a topic): :meth:`ask` runs
the question on the main thread while the worker waits for the answer, and a question
nobody can answer any more (the window closing) is answered "cancel".

The thread is the page's one background mechanism, a :class:`~.background.BackgroundCall`
(its pool is destroyed, and waited for, with the runner). Its "only the latest answer
counts" never drops a write here: a write starts only once the previous one has answered.
The call it runs never raises: every outcome, a bug included, comes back as an
:class:`Outcome`. :meth:`stop` gives up a waiting write before waiting for it, so closing
the window never hangs on the agent's lock.

Signals (WriteRunner):
    waiting(str): the running write found the agent's write lock taken (its description)
    finished(): the running write is over, whatever its outcome (just before its callback)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from PySide6.QtCore import QObject, Signal

from memory_desk.core.observations import WriteWait
from memory_desk.ui.workers.background import BackgroundCall

_T = TypeVar("_T")


@dataclass(frozen=True)
class Outcome:
    """How a write ended: its return value, or the exception it raised (raised again on the
    main thread by whoever does not expect it, so a bug is never swallowed)."""

    value: object = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class _Question:
    """A call the worker needs answered on the main thread."""

    def __init__(self, call: Callable[[], object]) -> None:
        self.call = call
        self.answer: object = None
        self.error: BaseException | None = None
        self.answered = threading.Event()


class _Job:
    """One write: what it does, who hears the outcome, how it waits."""

    def __init__(
        self, what: str, step: Callable[[], object], done: Callable[[Outcome], None]
    ) -> None:
        self.what = what
        self.step = step
        self.done = done
        self.wait: WriteWait  # set by the runner, whose relay it reports through

    def __call__(self) -> Outcome:
        """On the worker: the step inside its WriteWait; never raises."""
        try:
            with self.wait:
                value = self.step()
        except BaseException as exc:  # every outcome goes back to the main thread, bugs too
            return Outcome(error=exc)
        return Outcome(value)


class _Relay(QObject):
    """Lives on the main thread: signals emitted on it from the worker arrive queued there."""

    waiting = Signal(object)
    ask = Signal(object)


class WriteRunner(QObject):
    """Run the page's writes off the main thread, one at a time (module docstring).

    Signals:
        waiting(str): the running write waits for the agent's write lock
        finished(): the running write is over (emitted before its callback runs)
    """

    waiting = Signal(str)
    finished = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # Created first, so destroyed (and its thread waited for) first. Its one thread lives
        # as long as the page, so the store opens one connection for writes.
        self._call = BackgroundCall(self)
        self._call.finished.connect(self._on_done)
        self._relay = _Relay(self)
        self._relay.waiting.connect(self._on_waiting)
        self._relay.ask.connect(self._on_ask)
        self._lock = threading.Lock()
        self._job: _Job | None = None
        self._question: _Question | None = None
        self._no_questions = False  # the running write is being given up: ask nobody
        self._stopped = False
        self._owner = threading.get_ident()  # the thread that answers questions

    def is_busy(self) -> bool:
        """True from :meth:`run` until the write's outcome has been handed over."""
        return self._job is not None

    def is_waiting(self) -> bool:
        """True while the running write waits for the agent's write lock."""
        return self._job is not None and self._job.wait.waited

    @property
    def running(self) -> str | None:
        """The running write's description, or None."""
        return None if self._job is None else self._job.what

    def run(self, what: str, step: Callable[[], object], done: Callable[[Outcome], None]) -> bool:
        """Start ``step`` on the worker; ``done(outcome)`` follows on the main thread.

        False (nothing started) while another write runs, or after :meth:`stop`.
        """
        if self._job is not None or self._stopped:
            return False
        job = _Job(what, step, done)
        job.wait = WriteWait(on_wait=lambda: self._relay.waiting.emit(job))
        with self._lock:
            self._no_questions = False
        self._job = job
        self._call.submit(job)
        return True

    def cancel(self) -> bool:
        """Cancel the running write if nothing of it is written yet; False when too late (it
        is being written and will finish) or when no write runs."""
        job = self._job
        return job is not None and job.wait.cancel()

    def ask(self, call: Callable[[], _T]) -> _T | None:
        """``call()`` run on the main thread; from the worker, wait for its answer there.

        None when the runner stops (or abandons the write) before it is answered.
        """
        if threading.get_ident() == self._owner:
            return call()
        question = _Question(call)
        with self._lock:
            if self._stopped or self._no_questions:
                return None
            self._question = question
        self._relay.ask.emit(question)
        question.answered.wait()
        with self._lock:
            self._question = None
        if question.error is not None:
            raise question.error
        return question.answer  # type: ignore[return-value]

    def abandon(self) -> None:
        """Give the running write up now (its store is going away): cancel it, or make it
        fail at its next wait; answer a pending question "cancel"; wait for the thread.
        The outcome is still handed over, later, on the main thread."""
        job = self._job
        if job is not None:
            job.wait.give_up()
        self._release_question()
        self._call.wait()

    def stop(self) -> None:
        """Give up the running write, wait for the thread, accept no more writes."""
        with self._lock:
            self._stopped = True
        job = self._job
        if job is not None:
            job.wait.give_up()
        self._release_question()
        self._call.stop()
        self._job = None

    def _release_question(self) -> None:
        with self._lock:
            self._no_questions = True
            question = self._question
        if question is not None:
            question.answered.set()  # answered None: the write takes it as "cancel"

    def _on_waiting(self, job: _Job) -> None:
        if job is self._job:
            self.waiting.emit(job.what)

    def _on_ask(self, question: _Question) -> None:
        if question.answered.is_set():
            return  # released meanwhile: nobody waits for this answer any more
        try:
            question.answer = question.call()
        except BaseException as exc:  # raised again on the worker, then back here as outcome
            question.error = exc
        finally:
            question.answered.set()

    def _on_done(self, _generation: int, outcome: Outcome) -> None:
        job = self._job
        if self._stopped or job is None:
            return
        self._job = None
        self.finished.emit()
        job.done(outcome)
