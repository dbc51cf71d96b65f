"""Running the page's query off the main thread, so typing never waits for SQLite.

The mechanism is :class:`~memory_desk.ui.workers.background.BackgroundCall`'s (Anki's way: a private pool of one
thread serialises every call, each call carries a generation number, a call already
superseded when its turn comes is skipped, and only the latest answer reaches the page).
The store gives each thread its own SQLite connection, so the worker's searches never block
the main thread's row fetches and writes. This module only says what a query is and what
its answer holds.

For a new question on a big database, the worker first reports the newest matches (FTS5 walks
its index backwards, no ranking: quick), then every match in order; a re-run (live
reload, after a write) instead works out the row operations from the table's ids on the
worker, so the main thread only applies them.

Signals (QueryRunner):
    first(QueryResult): the newest matches of a new query, before its whole answer
    finished(QueryResult): the ids, counts and projects of a query, on the main thread
    failed(int, str): the generation and the store's message when a query could not run
"""

from __future__ import annotations

import os
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from PySide6.QtCore import QObject, Signal

from memory_desk.core.lazy_numpy import np
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.search import DateRange
from memory_desk.ui.observations import row_diff
from memory_desk.ui.observations.row_diff import IdIndex, RowPlan
from memory_desk.ui.workers.background import BackgroundCall


@dataclass(frozen=True)
class Query:
    """What the person asked to see: search text, filters and sort."""

    text: str = ""
    types: tuple[str, ...] = ()
    project: str | None = None
    scope: str | None = None
    include_forgotten: bool = False
    pinned_only: bool = False
    created_between: tuple[int, int] | None = None  # a day of the Overview's chart (ms)
    date_range: DateRange | None = None  # the filter bar's date range
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
            "created_between": self.created_between,
            "date_range": self.date_range,
        }


# Below this, a whole answer comes so soon that showing the newest rows first would only make
# the table jump (it is measured on every answer: see QueryRunner.full_ms).
FIRST_ROWS_WORTH_MS = 30.0


@dataclass(frozen=True)
class QueryResult:
    """A query's answer: every matching id in display order (the counts and projects are the
    page's to ask: ``ObservationStore.summary``, after the rows).

    ``first`` marks a first answer (the newest matches only, before every match is read in
    order). A re-run's answer may carry ``plan``:
    the row operations that turn the ids the table held (version ``based_on``) into these,
    worked out on the worker. ``elapsed_ms`` is how long reading the ids took.
    """

    generation: int
    query: Query
    ids: np.ndarray | array = field(repr=False)  # (array('q'): the newest matches, first)
    first: bool = False
    plan: RowPlan | None = field(default=None, repr=False)
    based_on: int | None = None
    elapsed_ms: float = 0.0
    index: IdIndex | None = field(default=None, repr=False)  # row look-up of ``ids``


@dataclass(frozen=True)
class _Answer:
    """What the pool's thread reads; the runner adds the generation on the main thread."""

    query: Query
    ids: np.ndarray | array = field(repr=False)
    first: bool = False
    plan: RowPlan | None = field(default=None, repr=False)
    based_on: int | None = None
    elapsed_ms: float = 0.0
    index: IdIndex | None = field(default=None, repr=False)


Snapshot = tuple[int, "np.ndarray"]  # the table model's ids version and its ids


# Before any answer was measured, a file this big is worth a first look (about 5,000 rows).
FIRST_ROWS_WORTH_BYTES = 32 * 1024 * 1024


def big_file(store: ObservationStore) -> bool:
    """Whether the database is big enough that its first answer may take a while."""
    try:
        return os.stat(store.path).st_size >= FIRST_ROWS_WORTH_BYTES
    except OSError:
        return True


def shows_first_rows(query: Query) -> bool:
    """Whether the newest rows are a fair first look: only for the orders that take the
    longest to compute and that newest-first approximates (ranked, or newest first)."""
    return query.sort is None and query.descending


def _run_query(
    store: ObservationStore,
    query: Query,
    first: bool,
    previous: Snapshot | None,
    report: Callable[[_Answer], None] | None = None,
) -> _Answer:
    """On the pool's thread: (the newest rows first,) every id in order, then the row plan
    against ``previous``."""
    filters = query.filters()
    if first and report is not None:
        # array('q'): at start the model shows it before numpy is imported (core/lazy_numpy).
        report(_Answer(query, array("q", store.first_ids(query.text, **filters)), first=True))
    started = time.perf_counter()
    ids = store.search_id_array(query.text, **filters, sort=query.sort, descending=query.descending)
    elapsed_ms = (time.perf_counter() - started) * 1000
    if previous is None:  # a new question: the table resets to these ids and their index
        # (read before numpy was imported, as at start: the model indexes them when asked)
        index = None if isinstance(ids, array) else IdIndex(ids)
        return _Answer(query, ids, elapsed_ms=elapsed_ms, index=index)
    version, old = previous
    ids = row_diff.as_ids(ids)
    return _Answer(
        query, ids, plan=row_diff.plan(old, ids), based_on=version, elapsed_ms=elapsed_ms
    )


class QueryRunner(QObject):
    """The page's handle on its worker: ``submit`` a query, get ``finished``/``failed``.

    A :class:`BackgroundCall` underneath runs the queries one at a time, interrupts the one
    running when a newer one comes, and keeps only the latest answer; it waits for a running
    query when destroyed, so the page never leaves a thread behind even if ``stop`` is not
    called.

    Signals:
        first(QueryResult): the newest matches of the latest query, before its whole answer
        finished(QueryResult): the latest query's answer
        failed(int, str): the generation and message of a query that could not run
    """

    first = Signal(object)
    finished = Signal(object)
    failed = Signal(int, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._call = BackgroundCall(self)
        self._call.finished.connect(self._on_finished)
        self._call.interim.connect(self._on_interim)
        self._call.failed.connect(self.failed)
        self.full_ms: float | None = None  # how long the last whole answer took to read

    @property
    def generation(self) -> int:
        """The latest request's number."""
        return self._call.generation

    def submit(
        self, store: ObservationStore, query: Query, *, previous: Snapshot | None = None
    ) -> int:
        """Queue a query; answers to earlier ones will be dropped and a running one is
        interrupted. With ``previous`` (the table's ids), the answer carries the row plan
        from them. Returns its generation."""
        first = (
            previous is None
            and shows_first_rows(query)
            and (big_file(store) if self.full_ms is None else self.full_ms >= FIRST_ROWS_WORTH_MS)
        )
        return self._call.submit(
            partial(_run_query, store, query, first, previous),
            interrupt=store.interrupt,
            interim=True,
        )

    def is_busy(self) -> bool:
        """True while an answer to the latest request is still to come."""
        return self._call.is_busy()

    def stop(self) -> None:
        """Skip queued queries, interrupt and wait for the running one, accept no more."""
        self._call.stop()

    def _result(self, generation: int, answer: _Answer) -> QueryResult:
        return QueryResult(
            generation,
            answer.query,
            answer.ids,
            first=answer.first,
            plan=answer.plan,
            based_on=answer.based_on,
            elapsed_ms=answer.elapsed_ms,
            index=answer.index,
        )

    def _on_interim(self, generation: int, answer: _Answer) -> None:
        self.first.emit(self._result(generation, answer))

    def _on_finished(self, generation: int, answer: _Answer) -> None:
        self.full_ms = answer.elapsed_ms
        self.finished.emit(self._result(generation, answer))
