"""Running the page's query off the main thread, so typing never waits for SQLite.

A private pool of one thread serialises every query (Anki's way). The store gives each thread its own
SQLite connection, so the worker's searches never block the main thread's row fetches and
writes. Requests carry a generation number; the worker skips a request already superseded when it
gets to it, and the page drops any answer that is not the latest.

Signals (QueryRunner):
    finished(QueryResult): the ids, counts and projects of a query, on the main thread
    failed(int, str): the generation and the store's message when a query could not run
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from memory_desk.core import StoreError
from memory_desk.core.observations import ObservationStore, Totals


@dataclass(frozen=True)
class Query:
    """What the person asked to see: search text, filters and sort."""

    text: str = ""
    types: tuple[str, ...] = ()
    project: str | None = None
    scope: str | None = None
    include_forgotten: bool = False
    pinned_only: bool = False
    sort: str | None = None
    descending: bool = True

    def filters(self) -> dict[str, object]:
        """The keyword arguments ``search_ids`` and ``count`` share."""
        return {
            "types": self.types,
            "project": self.project,
            "scope": self.scope,
            "include_forgotten": self.include_forgotten,
            "pinned_only": self.pinned_only,
        }


@dataclass(frozen=True)
class QueryRequest:
    generation: int
    store: ObservationStore
    query: Query


@dataclass(frozen=True)
class QueryResult:
    generation: int
    query: Query
    ids: list[int] = field(repr=False)
    totals: Totals
    projects: list[str]


class _Relay(QObject):
    """Lives on the main thread: signals emitted on it from the pool arrive queued there."""

    finished = Signal(object)
    failed = Signal(int, str)


class _QueryTask(QRunnable):
    """One query on the pool's thread; skipped if a newer one was submitted meanwhile."""

    def __init__(self, request: QueryRequest, runner: QueryRunner) -> None:
        super().__init__()
        self._request = request
        self._runner = runner
        self._relay = runner.relay

    def run(self) -> None:
        request = self._request
        if request.generation < self._runner.generation:
            return  # the person already asked for something newer
        try:
            store = request.store
            ids = store.search_ids(
                request.query.text,
                **request.query.filters(),
                sort=request.query.sort,
                descending=request.query.descending,
            )
            result = QueryResult(
                request.generation, request.query, ids, store.totals(), store.projects()
            )
        except StoreError as exc:
            self._relay.failed.emit(request.generation, str(exc))
            return
        self._relay.finished.emit(result)


class QueryRunner(QObject):
    """The main thread's handle on the worker: ``submit`` a query, get ``finished``/``failed``.

    A private one-thread pool serialises the queries; its destructor waits for a running
    query, so the page never leaves a thread behind even if ``stop`` is not called.

    Signals:
        finished(QueryResult): the latest query's answer
        failed(int, str): the generation and message of a query that could not run
    """

    finished = Signal(object)
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
        """The latest request's number (read by the pool's thread: a plain int)."""
        return self._generation

    def submit(self, store: ObservationStore, query: Query) -> int:
        """Queue a query; answers to earlier ones will be dropped. Returns its generation."""
        if self._stopped:
            return self._generation
        self._generation += 1
        self._pool.start(_QueryTask(QueryRequest(self._generation, store, query), self))
        return self._generation

    def is_busy(self) -> bool:
        """True while an answer to the latest request is still to come."""
        return not self._stopped and self._answered < self._generation

    def stop(self) -> None:
        """Skip queued queries, wait for the running one, accept no more."""
        self._stopped = True
        self._pool.clear()
        self._pool.waitForDone()

    def _on_finished(self, result: QueryResult) -> None:
        if result.generation == self._generation and not self._stopped:
            self._answered = result.generation
            self.finished.emit(result)

    def _on_failed(self, generation: int, message: str) -> None:
        if generation == self._generation and not self._stopped:
            self._answered = generation
            self.failed.emit(generation, message)
