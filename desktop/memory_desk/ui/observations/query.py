"""Running the page's query off the main thread, so typing never waits for SQLite.

The mechanism is :class:`~.background.BackgroundCall`'s (Anki's way: a private pool of one
thread serialises every call, each call carries a generation number, a call already
superseded when its turn comes is skipped, and only the latest answer reaches the page).
The store gives each thread its own SQLite connection, so the worker's searches never block
the main thread's row fetches and writes. This module only says what a query is and what
its answer holds.

Signals (QueryRunner):
    finished(QueryResult): the ids, counts and projects of a query, on the main thread
    failed(int, str): the generation and the store's message when a query could not run
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from PySide6.QtCore import QObject, Signal

from memory_desk.core.observations import ObservationStore, Totals
from memory_desk.ui.observations.background import BackgroundCall


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
        }


@dataclass(frozen=True)
class QueryResult:
    """A query's answer: every matching id in display order, the totals and the projects."""

    generation: int
    query: Query
    ids: list[int] = field(repr=False)
    totals: Totals
    projects: list[str]


@dataclass(frozen=True)
class _Answer:
    """What the pool's thread reads; the runner adds the generation on the main thread."""

    query: Query
    ids: list[int] = field(repr=False)
    totals: Totals
    projects: list[str]


def _run_query(store: ObservationStore, query: Query) -> _Answer:
    """On the pool's thread: the ids, then the totals and projects beside them."""
    ids = store.search_ids(
        query.text, **query.filters(), sort=query.sort, descending=query.descending
    )
    return _Answer(query, ids, store.totals(), store.projects())


class QueryRunner(QObject):
    """The page's handle on its worker: ``submit`` a query, get ``finished``/``failed``.

    A :class:`BackgroundCall` underneath runs the queries one at a time and keeps only
    the latest answer; it waits for a running query when destroyed, so the page never
    leaves a thread behind even if ``stop`` is not called.

    Signals:
        finished(QueryResult): the latest query's answer
        failed(int, str): the generation and message of a query that could not run
    """

    finished = Signal(object)
    failed = Signal(int, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._call = BackgroundCall(self)
        self._call.finished.connect(self._on_finished)
        self._call.failed.connect(self.failed)

    @property
    def generation(self) -> int:
        """The latest request's number."""
        return self._call.generation

    def submit(self, store: ObservationStore, query: Query) -> int:
        """Queue a query; answers to earlier ones will be dropped. Returns its generation."""
        return self._call.submit(partial(_run_query, store, query))

    def is_busy(self) -> bool:
        """True while an answer to the latest request is still to come."""
        return self._call.is_busy()

    def stop(self) -> None:
        """Skip queued queries, wait for the running one, accept no more."""
        self._call.stop()

    def _on_finished(self, generation: int, answer: _Answer) -> None:
        self.finished.emit(
            QueryResult(generation, answer.query, answer.ids, answer.totals, answer.projects)
        )
