"""Alisio's observations as Memory Desk sees them: search, read, pin, forget, edit.

The agent keeps ``memory.sqlite`` open and writes it while Memory Desk runs, so the
store is a polite second client (FORMATS.md, part A):

- Browsing is pure ``SELECT``: no counter or timestamp changes because a person
  looked, and no read transaction stays open between calls (every statement is
  read to the end), so the agent's checkpoints are never held back.
- Writes are short ``BEGIN IMMEDIATE`` transactions, retried while the agent holds
  the write lock, each changing only its own columns with plain UPDATE/DELETE so the
  plugin's FTS triggers keep the search index right.
- The file is opened with a ``mode=rw`` URI (a missing path is never created); the
  store never changes journal_mode, never VACUUMs or checkpoints, never replaces the
  file and creates nothing beside it (the WAL's -wal/-shm belong to SQLite).

A search is literal: every word of the person's text must occur (case-insensitive)
in the title, content or topic_key. Words of three characters or more go through the
FTS5 trigram index as quoted phrases; shorter words, which trigrams cannot match, go
through ``LIKE`` with its wildcards escaped (so, as in the plugin, they fold ASCII
case only). Nothing the person types reaches SQL except as a bound parameter. With
text and no sort key, results are ranked by the plugin's bm25 weights, boosted for
recent rows; without text, newest first; a sort key sorts in SQL, id breaking ties.

Opening checks that the file is an Alisio memory database and that its search index
is sound (shadow tables, indexed-row count, a few rows found by their own titles);
damage met later by a search is reported as a StoreError too.

The store is called from a worker thread (searches) and the main thread (writes):
each thread gets its own SQLite connection, so a long search never blocks a pin.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TypeVar

from memory_desk.core import agent_search as agent
from memory_desk.core import alisio, appdirs, fts_index, topics
from memory_desk.core.agent_search import AgentSearch
from memory_desk.core.errors import ConflictError, StoreError, TopicClash, TopicConflict
from memory_desk.core.topics import (
    NO_TOPIC_CHANGES,
    TOPIC_CHOICES,
    TOPIC_CLEAR_OTHER,
    TOPIC_CLEAR_THIS,
    TOPIC_FORGET_OTHER,
    PreviousDeletedAt,
    RowMove,
    TopicChanges,
)

__all__ = [
    "SORT_KEYS",
    "TOPIC_CHOICES",
    "TOPIC_CLEAR_OTHER",
    "TOPIC_CLEAR_THIS",
    "TOPIC_FORGET_OTHER",
    "AgentSearch",
    "EditResult",
    "Observation",
    "ObservationStore",
    "PreviousDeletedAt",
    "TopicChanges",
    "TopicClash",
    "TopicConflict",
    "Totals",
    "WrittenObservation",
]

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Observation:
    """One row of ``observations``; ``content`` is None when fetched without it."""

    id: int
    session_id: str | None
    type: str
    title: str
    content: str | None
    tool_name: str | None
    project: str
    scope: str
    topic_key: str | None
    normalized_hash: str
    revision_count: int
    duplicate_count: int
    last_seen_at: int | None
    pinned: bool
    access_count: int
    last_accessed_at: int | None
    created_at: int
    updated_at: int
    deleted_at: int | None

    @property
    def forgotten(self) -> bool:
        """Soft-deleted: the agent no longer sees it, but it can be restored."""
        return self.deleted_at is not None


@dataclass(frozen=True)
class Totals:
    """Counts for the status bar; ``pinned`` counts live pinned rows only."""

    total: int
    live: int
    forgotten: int
    pinned: int


@dataclass(frozen=True, slots=True, eq=False)
class WrittenObservation(Observation):
    """A row as a write left it (an Observation), plus what a topic choice changed elsewhere.

    Returned by :meth:`ObservationStore.recreate` and :meth:`ObservationStore.undo_edit`.
    It compares and hashes as the plain Observation with the same columns;
    ``topic_changes`` holds the previous values of the other rows the person's topic
    choice forgot or un-keyed (empty without a choice), for
    :meth:`ObservationStore.put_back_topic_changes`.
    """

    topic_changes: TopicChanges = NO_TOPIC_CHANGES

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return _row_values(self) == _row_values(other)

    def __hash__(self) -> int:
        return hash(_row_values(self))


@dataclass(frozen=True)
class EditResult:
    """An edit as it happened: enough to undo it only if nobody changed the row since.

    ``topic_changes`` holds what the person's topic choice changed on *other* rows (live
    rows holding the new key, forgotten or un-keyed), as previous values; the edited row's
    own change is ``before``/``after``. :meth:`ObservationStore.undo_edit` puts both back.
    """

    before: Observation
    after: Observation
    topic_changes: TopicChanges = NO_TOPIC_CHANGES


SORT_KEYS: tuple[str, ...] = (
    "id",
    "pinned",
    "type",
    "title",
    "project",
    "scope",
    "topic_key",
    "revision_count",
    "duplicate_count",
    "access_count",
    "updated_at",
    "created_at",
)

_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Observation))
_PINNED_INDEX = _COLUMNS.index("pinned")
_SELECT_WITH_CONTENT = ", ".join(f"o.{name}" for name in _COLUMNS)
_SELECT_WITHOUT_CONTENT = ", ".join(
    "NULL" if name == "content" else f"o.{name}" for name in _COLUMNS
)
_SORT_SQL: dict[str, str] = {key: f"o.{key}" for key in SORT_KEYS} | {
    "title": "o.title COLLATE NOCASE",
    "topic_key": "o.topic_key COLLATE NOCASE",
}

# The plugin's bm25 weights, in the FTS column order
# (title, content, tool_name, type, project, topic_key).
_BM25 = "bm25(observations_fts, 5.0, 1.0, 0.5, 0.5, 0.2, 2.0)"
# bm25 is negative (lower is better); a fresh row's score is doubled, a month-old
# row's is multiplied by 1.5, an old row's tends to its plain bm25.
_RECENCY_MS = 30 * 24 * 3600 * 1000
_RANK = f"{_BM25} * (1.0 + 1.0 / (1.0 + max(0, :now - o.updated_at) / {_RECENCY_MS}.0))"
# Only what the person reads is searched, as in the plugin's web tab.
_FTS_COLUMNS = "{title content topic_key}"
_MIN_TRIGRAM_CHARS = 3

# Columns an edit may rewrite, and the ones whose change means "someone else wrote it".
_EDIT_COLUMNS = (
    "title",
    "content",
    "type",
    "topic_key",
    "normalized_hash",
    "revision_count",
    "updated_at",
    "last_seen_at",
)
_CONFLICT_COLUMNS = (*_EDIT_COLUMNS, "session_id", "tool_name", "duplicate_count")

_REQUIRED_TABLES = ("observations", "observations_fts")
# FTS5 names its shadow tables after the FTS table itself: these are SQLite's names.
_FTS_SHADOW_TABLES = ("observations_fts_data", "observations_fts_idx", "observations_fts_config")

# Many ids go into IN (...) lists in chunks, well under SQLite's variable limit.
_CHUNK = 500
# Writes wait at most this long per attempt for the agent's write lock, and try again.
_BUSY_TIMEOUT_MS = 1000
_WRITE_ATTEMPTS = 4

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_READONLY = 8
_SQLITE_IOERR = 10
_SQLITE_CORRUPT = 11
_SQLITE_FULL = 13
_SQLITE_CANTOPEN = 14
_SQLITE_NOTADB = 26
_SQLITE_CORRUPT_VTAB = _SQLITE_CORRUPT | (1 << 8)


@dataclass(frozen=True)
class _Filter:
    """A search translated to SQL: FROM, WHERE and bound parameters."""

    source: str
    where: str
    params: dict[str, object]
    ranked: bool


class ObservationStore:
    """One Alisio ``memory.sqlite``, opened for reading and hand edits beside the agent.

    Thread-safe: every thread that calls the store gets its own connection, created
    on first use and closed by :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser().absolute()
        self.label = self.path.name
        self._uri = self.path.as_uri() + "?mode=rw"
        self._lock = threading.Lock()
        # Each thread's connection, with the thread object: a thread Python started is known
        # to have ended when it is no longer alive; a foreign thread (Qt's pool) never is.
        self._connections: dict[int, tuple[threading.Thread, sqlite3.Connection]] = {}
        self._version_connection: sqlite3.Connection | None = None
        self._closed = False
        self._check_path()
        try:
            with self._translate("open"):
                self.schema_versions, self.warnings = self._inspect(self._connection())
        except BaseException:
            self.close()
            raise

    # ----------------------------------------------------------------- reading

    def search(
        self,
        text: str = "",
        *,
        types: Iterable[str] = (),
        project: str | None = None,
        scope: str | None = None,
        include_forgotten: bool = False,
        pinned_only: bool = False,
        sort: str | None = None,
        descending: bool = True,
        limit: int | None = None,
        offset: int = 0,
        with_content: bool = False,
    ) -> list[Observation]:
        """Matching observations in display order, a page at a time with limit/offset."""
        query = _build_filter(text, types, project, scope, include_forgotten, pinned_only)
        columns = _SELECT_WITH_CONTENT if with_content else _SELECT_WITHOUT_CONTENT
        params = dict(query.params, limit=-1 if limit is None else limit, offset=offset)
        sql = (
            f"SELECT {columns} FROM {query.source} WHERE {query.where}"
            f" ORDER BY {_order_by(query, sort, descending)} LIMIT :limit OFFSET :offset"
        )
        with self._translate("search"):
            rows = self._connection().execute(sql, params).fetchall()
        return [_observation(row) for row in rows]

    def search_ids(
        self,
        text: str = "",
        *,
        types: Iterable[str] = (),
        project: str | None = None,
        scope: str | None = None,
        include_forgotten: bool = False,
        pinned_only: bool = False,
        sort: str | None = None,
        descending: bool = True,
    ) -> list[int]:
        """Every matching id in display order: what a lazily loading table model holds."""
        query = _build_filter(text, types, project, scope, include_forgotten, pinned_only)
        sql = (
            f"SELECT o.id FROM {query.source} WHERE {query.where}"
            f" ORDER BY {_order_by(query, sort, descending)}"
        )
        with self._translate("search"):
            rows = self._connection().execute(sql, query.params).fetchall()
        return [row[0] for row in rows]

    def count(
        self,
        text: str = "",
        *,
        types: Iterable[str] = (),
        project: str | None = None,
        scope: str | None = None,
        include_forgotten: bool = False,
        pinned_only: bool = False,
    ) -> int:
        """How many observations :meth:`search` would return without a limit."""
        query = _build_filter(text, types, project, scope, include_forgotten, pinned_only)
        sql = f"SELECT count(*) FROM {query.source} WHERE {query.where}"
        with self._translate("count"):
            return int(self._connection().execute(sql, query.params).fetchall()[0][0])

    def get(self, id: int) -> Observation | None:
        """One observation with its content, or None if it no longer exists."""
        with self._translate("read"):
            return _fetch_one(self._connection(), id)

    def get_many(self, ids: Sequence[int]) -> dict[int, Observation]:
        """The observations among ``ids`` that still exist, without content (cheap rows)."""
        result: dict[int, Observation] = {}
        with self._translate("read"):
            conn = self._connection()
            for chunk in _chunks(ids):
                marks = ", ".join("?" * len(chunk))
                rows = conn.execute(
                    f"SELECT {_SELECT_WITHOUT_CONTENT} FROM observations o WHERE o.id IN ({marks})",
                    chunk,
                ).fetchall()
                result.update((row[0], _observation(row)) for row in rows)
        return result

    def projects(self) -> list[str]:
        """Every project that has an observation, sorted (for the project filter)."""
        with self._translate("read"):
            rows = (
                self._connection()
                .execute("SELECT DISTINCT project FROM observations ORDER BY project")
                .fetchall()
            )
        return [row[0] for row in rows]

    def totals(self) -> Totals:
        """Total, live, forgotten and live pinned counts, in one consistent read."""
        with self._translate("count"):
            row = (
                self._connection()
                .execute(
                    "SELECT count(*), count(*) FILTER (WHERE deleted_at IS NULL),"
                    " count(*) FILTER (WHERE deleted_at IS NOT NULL),"
                    " count(*) FILTER (WHERE deleted_at IS NULL AND pinned != 0)"
                    " FROM observations"
                )
                .fetchall()[0]
            )
        return Totals(*(int(value) for value in row))

    def data_version(self) -> int:
        """A number that changes whenever any connection commits a change to the file.

        It runs on a connection of its own that never writes, so live reload sees the
        agent's saves and this store's writes alike.
        """
        with self._translate("check for changes"), self._lock:
            self._ensure_open()
            if self._version_connection is None:
                self._version_connection = self._open_connection()
            return int(self._version_connection.execute("PRAGMA data_version").fetchall()[0][0])

    def agent_search(
        self,
        text: str,
        *,
        project: str | None,
        match: str = agent.MATCH_ALL,
        all_projects: bool = False,
        type: str | None = None,
        scope: str | None = None,
        limit: int = agent.DEFAULT_LIMIT,
    ) -> AgentSearch:
        """What the agent's ``memory_search`` would return for ``text``, by its own rules.

        Words under 3 characters are ignored (``ignored_words``), the rest are quoted and
        joined by AND (``match="all"``) or OR (``"any"``) over all six FTS columns; live rows
        of ``project`` or personal ones (``project=None`` or ``all_projects``: every
        project), optionally of one ``type`` and ``scope``; the best 100 by the plugin's bm25,
        re-scored and cut to ``min(max(limit, 1), 20)``. The re-scoring is an **estimate**
        (:mod:`memory_desk.core.agent_search`): which rows can appear is exact, their order
        after bm25 is not. Pure read: no counter or timestamp changes, unlike the agent's
        own ``memory_get``. Rows come without content.
        """
        words, ignored = agent.split_words(alisio.as_written(text))
        query = agent.fts_query(words, match)
        if query is None or "\x00" in query:
            # No word left, or a NUL, which ends SQLite's reading of the query so that the
            # agent's own search fails: either way the agent finds nothing.
            return AgentSearch((), tuple(ignored), query)
        where = ["observations_fts MATCH :match", "o.deleted_at IS NULL"]
        params: dict[str, object] = {"match": query, "candidates": agent.CANDIDATES}
        if project is not None and not all_projects:
            where.append("(o.project = :project OR o.scope = 'personal')")
            params["project"] = project
        if type is not None:
            where.append("o.type = :type")
            params["type"] = type
        if scope is not None:
            where.append("o.scope = :scope")
            params["scope"] = scope
        sql = (
            f"SELECT {_SELECT_WITHOUT_CONTENT}, {agent.BM25} FROM observations_fts"
            " CROSS JOIN observations o ON o.id = observations_fts.rowid"
            f" WHERE {' AND '.join(where)} ORDER BY {agent.BM25} LIMIT :candidates"
        )
        with self._translate("search as the agent"):
            rows = self._connection().execute(sql, params).fetchall()
        ranked = agent.rescore([(_observation(row[:-1]), row[-1]) for row in rows], alisio.now_ms())
        return AgentSearch(tuple(ranked[: agent.result_count(limit)]), tuple(ignored), query)

    def check_index(self) -> str | None:
        """FTS5's own ``integrity-check`` of the search index: None when healthy, else what to do.

        It compares the index with the rows (rank 1), so it finds what the cheap checks at
        open cannot: rows the index misses or still holds, damaged pages. It runs on a
        snapshot (:func:`fts_index.integrity_problem`: the backup API from a read connection
        into memory, or into a temporary file in Memory Desk's cache folder when the
        database is big), so it never takes the agent's write lock nor writes beside its
        file. It takes seconds on a big database and blocks: call it off the main thread.
        Raises StoreError when the check itself cannot run.
        """
        with self._translate("check the search index"):
            self._ensure_open()
            conn = self._open_connection()
            try:
                problem = fts_index.integrity_problem(conn, appdirs.cache_dir(create=False))
            except OSError as exc:
                where = exc.filename or "its cache folder"
                raise StoreError(
                    "Could not check the search index: Memory Desk could not write its"
                    f" scratch copy in {where} ({exc.strerror or exc}); free some space"
                    " there or check that folder's permissions"
                ) from exc
            finally:
                conn.close()
        if problem is None:
            return None
        return self._broken_index_message(problem)

    # ----------------------------------------------------------------- writing

    def pin(self, ids: Iterable[int], pinned: bool = True) -> dict[int, bool]:
        """Set ``pinned`` (and nothing else); returns the previous state of each changed id."""
        target = 1 if pinned else 0

        def change(conn: sqlite3.Connection) -> dict[int, bool]:
            previous: dict[int, bool] = {}
            for chunk in _chunks(ids):
                marks = ", ".join("?" * len(chunk))
                rows = conn.execute(
                    f"SELECT id, pinned FROM observations WHERE id IN ({marks})"
                    " AND (pinned != 0) != ?",
                    (*chunk, target),
                ).fetchall()
                changed = [row[0] for row in rows]
                _update_in(conn, "pinned = ?", (target,), changed)
                previous.update((row[0], bool(row[1])) for row in rows)
            return previous

        return self._write("pin", change)

    def forget(self, ids: Iterable[int], *, at: int | None = None) -> PreviousDeletedAt:
        """Soft-delete live rows (``deleted_at = at or now``); returns their previous deleted_at.

        Forgetting never gives a topic a second live row, so it never asks about topics;
        the result's ``topic_changes`` is always empty.
        """
        when = alisio.now_ms() if at is None else at

        def change(conn: sqlite3.Connection) -> PreviousDeletedAt:
            return PreviousDeletedAt(_set_deleted_at(conn, ids, "deleted_at IS NULL", when))

        return self._write("forget", change)

    def restore(
        self, ids: Iterable[int], *, on_topic_conflict: str | None = None
    ) -> PreviousDeletedAt:
        """Bring forgotten rows back (``deleted_at = NULL``); returns their previous deleted_at.

        A restored row with a topic_key must not become a second live row of its topic
        (against rows live now, or against other rows of this call). Without
        ``on_topic_conflict`` such a call raises TopicConflict listing every clash and writes
        nothing; with one of the ``TOPIC_*`` choices it applies it to every clash in the same
        transaction (see :mod:`memory_desk.core.topics`; with ``TOPIC_FORGET_OTHER`` the
        other restored rows of a clash stay forgotten and are not in the result).

        The result maps each restored row to its previous deleted_at, as always; its
        ``topic_changes`` holds the previous values of everything else the choice changed
        (other rows forgotten, keys taken off, restored rows' keys included). Undo: pass the
        whole result to :meth:`put_back_deleted_at`, which puts all of it back.
        """

        def change(conn: sqlite3.Connection) -> PreviousDeletedAt:
            moves = [
                move
                for move in topics.moves_for_rows(conn, ids).values()
                if move.deleted_before is not None
            ]
            for move in moves:
                move.deleted_after = None
            return topics.settle_and_apply(
                conn, moves, on_topic_conflict, alisio.now_ms(), topics.action_words("Restoring")
            )

        return self._write("restore", change)

    def put_back_deleted_at(
        self, previous: Mapping[int, int | None], *, on_topic_conflict: str | None = None
    ) -> PreviousDeletedAt:
        """Set each row's ``deleted_at`` to the given value: the undo of forget and restore.

        When ``previous`` is a :class:`PreviousDeletedAt` (what forget, restore and this call
        return), its ``topic_changes`` are put back too (rows a topic choice forgot come
        back, keys it took off return), in the same transaction.

        Bringing rows back can give a topic two live rows (the agent may have saved a new
        row on the topic since the forget): then, as for :meth:`restore`, TopicConflict
        without ``on_topic_conflict``, the choice applied with it.

        Returns the values it replaced, for the rows that still exist and differed, with
        ``topic_changes`` for the other rows: passing the result back here redoes it.
        """
        changes = getattr(previous, "topic_changes", NO_TOPIC_CHANGES)

        def change(conn: sqlite3.Connection) -> PreviousDeletedAt:
            moves = topics.moves_for_rows(
                conn, [*previous, *changes.deleted_at, *changes.topic_keys]
            )
            for id, move in moves.items():
                if id in previous:
                    move.deleted_after = previous[id]
                elif id in changes.deleted_at:
                    move.deleted_after = changes.deleted_at[id]
                if id in changes.topic_keys:
                    move.key_after = changes.topic_keys[id]
            return topics.settle_and_apply(
                conn,
                list(moves.values()),
                on_topic_conflict,
                alisio.now_ms(),
                topics.action_words("Putting back"),
                main=set(previous),
            )

        return self._write("undo", change)

    def put_back_topic_changes(
        self, changes: TopicChanges, *, on_topic_conflict: str | None = None
    ) -> TopicChanges:
        """Put back what a topic choice changed (e.g. after deleting a re-created row).

        Returns what it replaced, as TopicChanges (passing that back redoes it). May raise
        TopicConflict like :meth:`put_back_deleted_at`.
        """
        previous = PreviousDeletedAt(topic_changes=changes)
        return self.put_back_deleted_at(previous, on_topic_conflict=on_topic_conflict).topic_changes

    def delete(self, ids: Iterable[int]) -> int:
        """Delete rows for good (the FTS trigger drops them from the index); returns how many."""

        def change(conn: sqlite3.Connection) -> int:
            deleted = 0
            for chunk in _chunks(ids):
                marks = ", ".join("?" * len(chunk))
                deleted += conn.execute(
                    f"DELETE FROM observations WHERE id IN ({marks})", chunk
                ).rowcount
            return deleted

        return self._write("delete", change)

    def edit(
        self,
        id: int,
        *,
        title: str | None = None,
        content: str | None = None,
        type: str | None = None,
        topic_key: str | None = None,
        expected: Observation | None = None,
        on_topic_conflict: str | None = None,
    ) -> EditResult:
        """Rewrite a row as the plugin's topic upsert does, by hand.

        Title and content are stored as the plugin stores them (:func:`alisio.prepare_title`,
        :func:`alisio.prepare_content`: ``<private>`` redacted, JavaScript-trimmed, capped
        in UTF-16 units); an empty result raises StoreError. The hash is recomputed,
        ``revision_count`` + 1 and ``updated_at = last_seen_at = now``. ``topic_key=""``
        clears the topic. With ``expected`` (the row as the person saw it), the edit is
        refused with ConflictError if the agent revised it since. An edit that changes
        nothing writes nothing (``before == after``).

        Giving a live row a topic_key that another live row holds raises TopicConflict
        unless ``on_topic_conflict`` says what to do (``TOPIC_CLEAR_THIS`` saves the edit
        without the key). What the choice changed on other rows is in the result's
        ``topic_changes``; :meth:`undo_edit` puts it back with the edit.
        """
        new_title = None if title is None else _stored_title(title)
        new_content = None if content is None else _stored_content(content)
        _check_type_and_topic(type, topic_key)

        def change(conn: sqlite3.Connection) -> EditResult:
            before = _fetch_existing(conn, id)
            if expected is not None and _differs(before, expected):
                raise ConflictError(
                    f"Observation #{id} was changed by the agent since you opened it;"
                    " reload it and make your edit again"
                )
            values = {
                "title": before.title if new_title is None else new_title,
                "content": before.content if new_content is None else new_content,
                "type": before.type if type is None else type,
                "topic_key": before.topic_key if topic_key is None else (topic_key or None),
            }
            if _unchanged(values, before):
                return EditResult(before, before)
            now = max(alisio.now_ms(), before.updated_at)
            move = _row_move(before, key_after=values["topic_key"], updated_at=now)
            extra = topics.settle(
                conn, [move], on_topic_conflict, now, topics.action_words(f"Saving #{id} with")
            )
            values["topic_key"] = move.key_after
            if _unchanged(values, before):
                return EditResult(before, before)
            values |= {
                "normalized_hash": alisio.normalized_hash(str(values["content"])),
                "revision_count": before.revision_count + 1,
                "updated_at": now,
                "last_seen_at": now,
            }
            _update_columns(conn, id, values)
            changes = topics.apply_moves(conn, extra, main=set()).topic_changes
            return EditResult(before, _fetch_existing(conn, id), changes)

        return self._write("edit", change)

    def recreate(
        self,
        observation: Observation,
        *,
        title: str,
        content: str,
        type: str,
        topic_key: str,
        on_topic_conflict: str | None = None,
    ) -> WrittenObservation:
        """Save the person's version of a row the agent deleted meanwhile, as a new row.

        It is the plugin's plain insert: the deleted row's project, scope, session and tool,
        the person's text (stored as the plugin stores it, refused when empty), counters
        afresh, its pin kept. The deleted row's id cannot be reused safely (AUTOINCREMENT),
        so the new row has its own.

        If another live row holds the topic_key, TopicConflict (``row_id`` None) unless
        ``on_topic_conflict`` says what to do. The returned row's ``topic_changes`` holds
        what the choice changed on other rows; to undo, delete or forget the new row, then
        :meth:`put_back_topic_changes`.
        """
        new_title = _stored_title(title)
        new_content = _stored_content(content)
        _check_type_and_topic(type, topic_key)

        def change(conn: sqlite3.Connection) -> WrittenObservation:
            now = alisio.now_ms()
            move = RowMove(
                None,
                observation.scope,
                observation.project,
                now,
                None,
                None,
                None,
                topic_key or None,
                exists=False,
            )
            extra = topics.settle(
                conn,
                [move],
                on_topic_conflict,
                now,
                topics.action_words("Saving it again as", new=True),
            )
            changes = topics.apply_moves(conn, extra, main=set()).topic_changes
            cursor = conn.execute(
                "INSERT INTO observations (session_id, type, title, content, tool_name, project,"
                " scope, topic_key, normalized_hash, last_seen_at, pinned, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    observation.session_id,
                    type,
                    new_title,
                    new_content,
                    observation.tool_name,
                    observation.project,
                    observation.scope,
                    move.key_after,
                    alisio.normalized_hash(new_content),
                    now,
                    int(observation.pinned),
                    now,
                    now,
                ),
            )
            created = _fetch_existing(conn, int(cursor.lastrowid))
            return _written(created, changes)

        return self._write("save the observation again", change)

    def undo_edit(
        self, result: EditResult, *, on_topic_conflict: str | None = None
    ) -> WrittenObservation:
        """Put back the columns an edit rewrote, if the row is still exactly as it left it.

        The rows the edit's topic choice changed (``result.topic_changes``) are put back
        too. Giving the row its old topic_key back can clash with a row the agent saved on
        that topic since: TopicConflict without ``on_topic_conflict``; with
        ``TOPIC_CLEAR_THIS`` the row comes back without that key. The returned row's
        ``topic_changes`` holds what this undo changed on the other rows (previous values).
        """

        def change(conn: sqlite3.Connection) -> WrittenObservation:
            current = _fetch_existing(conn, result.after.id)
            if _differs(current, result.after):
                raise ConflictError(
                    f"Observation #{current.id} changed after your edit (the agent revised"
                    " it); the edit cannot be undone without losing that change"
                )
            if result.before == result.after and not result.topic_changes:
                return _written(current, NO_TOPIC_CHANGES)
            others = topics.moves_for_rows(
                conn,
                [*result.topic_changes.deleted_at, *result.topic_changes.topic_keys],
            )
            others.pop(current.id, None)
            for other_id, other in others.items():
                other.deleted_after = result.topic_changes.deleted_at.get(
                    other_id, other.deleted_before
                )
                other.key_after = result.topic_changes.topic_keys.get(other_id, other.key_before)
            move = _row_move(
                current, key_after=result.before.topic_key, updated_at=result.before.updated_at
            )
            moves = [move, *others.values()]
            extra = topics.settle(
                conn,
                moves,
                on_topic_conflict,
                alisio.now_ms(),
                topics.action_words("Undoing the edit of"),
            )
            values = {name: getattr(result.before, name) for name in _EDIT_COLUMNS}
            values["topic_key"] = move.key_after
            _update_columns(conn, current.id, values)
            # The row's key went in with its columns; a choice may still have forgotten it.
            liveness = replace(move, key_before=move.key_after)
            changes = topics.apply_moves(
                conn, [liveness, *others.values(), *extra], main=set()
            ).topic_changes
            return _written(_fetch_existing(conn, current.id), changes)

        return self._write("undo the edit", change)

    # ---------------------------------------------------------------- lifetime

    def close(self) -> None:
        """Close every connection; later calls raise StoreError. Safe to call twice."""
        with self._lock:
            self._closed = True
            connections = [conn for _, conn in self._connections.values()]
            if self._version_connection is not None:
                connections.append(self._version_connection)
            self._connections.clear()
            self._version_connection = None
        for conn in connections:
            # Closing is best effort: the file is the agent's either way.
            with suppress(sqlite3.Error):
                conn.close()

    def __enter__(self) -> ObservationStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ObservationStore({str(self.path)!r})"

    # --------------------------------------------------------------- internals

    def _check_path(self) -> None:
        """Explain a missing or unsuitable path before SQLite gives a vaguer message."""
        if not self.path.exists():
            raise StoreError(f"There is no file at {self.path}; check the path")
        if not self.path.is_file():
            raise StoreError(f"{self.path} is not a file; choose Alisio's memory.sqlite")

    def _open_connection(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self._uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
            # Our commits never checkpoint: that is the agent's business.
            conn.execute("PRAGMA wal_autocheckpoint = 0")
        except BaseException:
            conn.close()
            raise
        return conn

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use."""
        ident = threading.get_ident()
        with self._lock:
            self._ensure_open()
            known = self._connections.get(ident)
            if known is not None and known[0].is_alive():
                return known[1]
            self._forget_finished_threads()
            conn = self._open_connection()
            # current_thread() also names a thread Python did not start (a Qt worker): such
            # a thread counts as alive for good, so its connection is never closed under it.
            self._connections[ident] = (threading.current_thread(), conn)
            return conn

    def _forget_finished_threads(self) -> None:
        """Close the connections of the threads Python started that have ended.

        Only a thread known to have ended is forgotten: closing the connection of a thread
        still in a query (a Qt pool thread Python never listed) crashes SQLite.
        """
        for ident in [i for i, (thread, _) in self._connections.items() if not thread.is_alive()]:
            with suppress(sqlite3.Error):
                self._connections.pop(ident)[1].close()

    def _ensure_open(self) -> None:
        if self._closed:
            raise StoreError(f"{self.label} was closed; open it again")

    def _inspect(self, conn: sqlite3.Connection) -> tuple[frozenset[int], tuple[str, ...]]:
        """Check this is an Alisio memory database whose index works; collect warnings."""
        names = {
            row[0]: row[1]
            for row in conn.execute("SELECT name, type FROM sqlite_master").fetchall()
        }
        for table in _REQUIRED_TABLES:
            if table not in names:
                raise StoreError(
                    f"{self.path} is an SQLite file but not Alisio's memory database"
                    f" (it has no {table} table); choose the plugin's memory.sqlite"
                )
        present = {row[1] for row in conn.execute("PRAGMA table_info(observations)").fetchall()}
        missing = [name for name in _COLUMNS if name not in present]
        if missing:
            raise StoreError(
                f"{self.path} has an observations table without the columns "
                + ", ".join(missing)
                + "; it was not written by Alisio's memory plugin"
            )
        warnings: list[str] = []
        versions = self._schema_versions(conn, "schema_migrations" in names, warnings)
        self._check_index(conn, names, warnings)
        if not os.access(self.path, os.W_OK):
            warnings.append("the file is read-only: you can browse, but changes cannot be saved")
        mode = conn.execute("PRAGMA journal_mode").fetchall()[0][0]
        if str(mode).lower() != "wal":
            warnings.append(
                f"the database is in {mode} journal mode, not the plugin's WAL: while the"
                " agent runs, Memory Desk's writes may make it wait"
            )
        return versions, tuple(warnings)

    @staticmethod
    def _schema_versions(
        conn: sqlite3.Connection, has_table: bool, warnings: list[str]
    ) -> frozenset[int]:
        if not has_table:
            warnings.append("no schema_migrations table: the plugin's version is unknown")
            return frozenset()
        versions = frozenset(
            int(row[0]) for row in conn.execute("SELECT version FROM schema_migrations")
        )
        newer = sorted(v for v in versions if v > max(alisio.KNOWN_SCHEMA_VERSIONS))
        if newer:
            warnings.append(
                f"written by a newer plugin (schema {newer[-1]}): Memory Desk shows and"
                " edits only the columns it knows"
            )
        return versions

    def _check_index(
        self, conn: sqlite3.Connection, names: Mapping[str, str], warnings: list[str]
    ) -> None:
        """Check the FTS index cheaply enough to do it at every open.

        FTS5's own ``integrity-check`` takes seconds on 100,000 rows and, being an
        INSERT, holds the write lock all along, so the agent's saves would wait on it.
        Instead: the shadow tables exist, as many rows are indexed as exist, and a few
        rows (first, middle, last) are found by a search for their own title. All in
        one short read transaction, so the agent's concurrent saves cannot make it lie.
        The full check is :meth:`check_index`, on a snapshot, off the main thread. The
        triggers are judged by what they do (:func:`fts_index.missing_triggers`), not by
        their names.
        """
        broken = [name for name in _FTS_SHADOW_TABLES if name not in names]
        if broken:
            raise StoreError(self._broken_index_message("missing " + ", ".join(broken)))
        conn.execute("BEGIN")
        try:
            if "observations_fts_docsize" in names:
                self._check_indexed_count(conn)
            self._check_rows_are_found(conn)
        finally:
            conn.execute("COMMIT")
        missing = fts_index.missing_triggers(conn)
        if missing:
            warnings.append(
                "the search index triggers are missing (" + "; ".join(missing) + "): searches,"
                " the agent's too, will not see those changes to observations. Restore a backup"
                " of memory.sqlite, or recreate the plugin's triggers and rebuild the index"
            )

    def _check_indexed_count(self, conn: sqlite3.Connection) -> None:
        indexed, rows = conn.execute(
            "SELECT (SELECT count(*) FROM observations_fts_docsize),"
            " (SELECT count(*) FROM observations)"
        ).fetchall()[0]
        if indexed != rows:
            raise StoreError(
                self._broken_index_message(f"{indexed} rows indexed for {rows} observations")
            )

    def _check_rows_are_found(self, conn: sqlite3.Connection) -> None:
        samples = conn.execute(
            "SELECT id, title FROM observations WHERE id IN ("
            " (SELECT min(id) FROM observations), (SELECT max(id) FROM observations),"
            " (SELECT id FROM observations WHERE id >= ((SELECT min(id) FROM observations)"
            " + (SELECT max(id) FROM observations)) / 2 ORDER BY id LIMIT 1))"
        ).fetchall()
        for id, title in samples:
            # The index stops reading a value at a NUL; search for what it did read.
            probe = str(title).split("\x00")[0][:12]
            if len(probe) < _MIN_TRIGRAM_CHARS:
                continue
            found = conn.execute(
                "SELECT count(*) FROM observations_fts WHERE observations_fts MATCH ?"
                " AND rowid = ?",
                ('{title} : "' + probe.replace('"', '""') + '"', id),
            ).fetchall()[0][0]
            if not found:
                raise StoreError(
                    self._broken_index_message(f"observation #{id} is missing from it")
                )

    def _broken_index_message(self, detail: str) -> str:
        return (
            f"The search index of {self.path} is damaged ({detail}). With the agent"
            f' stopped, rebuild it with: sqlite3 {shlex.quote(str(self.path))} "INSERT INTO'
            " observations_fts(observations_fts) VALUES('rebuild')\", or restore a backup"
        )

    def _write(self, action: str, change: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``change`` in one short BEGIN IMMEDIATE transaction, retried while busy."""
        with self._translate(action):
            conn = self._connection()
            self._begin_immediate(conn)
            try:
                result = change(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return result

    @staticmethod
    def _begin_immediate(conn: sqlite3.Connection) -> None:
        for attempt in range(_WRITE_ATTEMPTS):
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if _primary_code(exc) not in (_SQLITE_BUSY, _SQLITE_LOCKED):
                    raise
                if attempt == _WRITE_ATTEMPTS - 1:
                    raise
                time.sleep(0.01 * (attempt + 1))

    @contextmanager
    def _translate(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into StoreError with something a person can do about it."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(self._error_message(action, exc)) from exc
        except UnicodeEncodeError as exc:
            raise StoreError(
                f"Could not {action}: the text contains a character that cannot be stored"
                f" ({exc.reason}: {exc.object[exc.start : exc.end]!r}); remove it"
            ) from exc
        except OverflowError as exc:
            raise StoreError(f"Could not {action}: a number is too large for SQLite") from exc

    def _error_message(self, action: str, exc: sqlite3.Error) -> str:
        code = _primary_code(exc)
        where = str(self.path)
        if isinstance(exc, sqlite3.ProgrammingError) and "closed" in str(exc):
            return f"{self.label} was closed; open it again"
        if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return f"Could not {action}: the agent is busy writing {where}; try again in a moment"
        if code == _SQLITE_READONLY:
            return f"Could not {action}: {where} is read-only (check its permissions)"
        if code == _SQLITE_FULL:
            return f"Could not {action}: the disk holding {where} is full"
        if code == _SQLITE_NOTADB:
            return f"{where} is not an SQLite database; choose Alisio's memory.sqlite"
        if getattr(exc, "sqlite_errorcode", 0) == _SQLITE_CORRUPT_VTAB:
            return self._broken_index_message(str(exc))
        if code == _SQLITE_CORRUPT:
            return (
                f"{where} is damaged ({exc}); it may be truncated or half-copied."
                " Restore a backup of memory.sqlite"
            )
        if code == _SQLITE_CANTOPEN:
            return f"Could not open {where}: check that it exists and that you may read it"
        if code == _SQLITE_IOERR:
            return f"Could not {action}: reading or writing {where} failed ({exc})"
        return f"Could not {action} in {where}: {exc}"


# ------------------------------------------------------------------- queries


def _build_filter(
    text: str,
    types: Iterable[str],
    project: str | None,
    scope: str | None,
    include_forgotten: bool,
    pinned_only: bool,
) -> _Filter:
    """Translate a search into SQL; the person's words only ever become parameters."""
    where: list[str] = []
    params: dict[str, object] = {}
    if isinstance(types, str):
        types = (types,)
    # SQLite reads an FTS query up to its first NUL, so a NUL separates words here.
    words = text.replace("\x00", " ").split()
    if not all(_storable(word) for word in words):
        where.append("0")  # a word no UTF-8 database can hold matches nothing
        words = [word for word in words if _storable(word)]
    long_words = [w for w in words if len(w) >= _MIN_TRIGRAM_CHARS]
    short_words = [w for w in words if len(w) < _MIN_TRIGRAM_CHARS]
    if long_words:
        source = "observations_fts CROSS JOIN observations o ON o.id = observations_fts.rowid"
        where.append("observations_fts MATCH :match")
        params["match"] = _fts_query(long_words)
        params["now"] = alisio.now_ms()
    else:
        source = "observations o"
    for i, word in enumerate(short_words):
        where.append(
            f"(o.title LIKE :like{i} ESCAPE '\\' OR o.content LIKE :like{i} ESCAPE '\\'"
            f" OR o.topic_key LIKE :like{i} ESCAPE '\\')"
        )
        params[f"like{i}"] = "%" + _escape_like(word) + "%"
    type_list = list(types)
    if type_list:
        marks = ", ".join(f":type{i}" for i in range(len(type_list)))
        where.append(f"o.type IN ({marks})")
        params.update((f"type{i}", value) for i, value in enumerate(type_list))
    if project is not None:
        where.append("o.project = :project")
        params["project"] = project
    if scope is not None:
        where.append("o.scope = :scope")
        params["scope"] = scope
    if not include_forgotten:
        where.append("o.deleted_at IS NULL")
    if pinned_only:
        where.append("o.pinned != 0")
    return _Filter(source, " AND ".join(where) or "1", params, bool(long_words))


def _fts_query(words: Sequence[str]) -> str:
    """Every word as a quoted FTS5 phrase (quotes doubled), all required, in the read columns."""
    phrases = " AND ".join('"' + word.replace('"', '""') + '"' for word in words)
    return f"{_FTS_COLUMNS} : ({phrases})"


def _storable(word: str) -> bool:
    """False for text with unpaired surrogates, which SQLite's UTF-8 cannot represent."""
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _escape_like(word: str) -> str:
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _order_by(query: _Filter, sort: str | None, descending: bool) -> str:
    direction = "DESC" if descending else "ASC"
    if sort is None:
        if query.ranked:
            # Best match first: bm25 is negative, so "descending" relevance is ASC.
            best = "ASC" if descending else "DESC"
            return f"{_RANK} {best}, o.id {direction}"
        return f"o.updated_at {direction}, o.id {direction}"
    if sort not in _SORT_SQL:
        raise ValueError(f"unknown sort key {sort!r}; expected one of {SORT_KEYS}")
    if sort == "id":
        return f"o.id {direction}"
    return f"{_SORT_SQL[sort]} {direction}, o.id {direction}"


def _observation(row: Sequence[object]) -> Observation:
    values = list(row)
    values[_PINNED_INDEX] = bool(values[_PINNED_INDEX])
    return Observation(*values)  # type: ignore[arg-type]


def _fetch_one(conn: sqlite3.Connection, id: int) -> Observation | None:
    rows = conn.execute(
        f"SELECT {_SELECT_WITH_CONTENT} FROM observations o WHERE o.id = ?", (id,)
    ).fetchall()
    return _observation(rows[0]) if rows else None


def _fetch_existing(conn: sqlite3.Connection, id: int) -> Observation:
    found = _fetch_one(conn, id)
    if found is None:
        raise ConflictError(f"Observation #{id} no longer exists (deleted since it was read)")
    return found


def _differs(current: Observation, seen: Observation) -> bool:
    """Did someone else rewrite the row? Pins, forgets and accesses are not rewrites.

    A row seen without its content is compared by normalized_hash alone.
    """
    return any(
        getattr(current, name) != getattr(seen, name)
        for name in _CONFLICT_COLUMNS
        if not (name == "content" and seen.content is None)
    )


def _refuse_unstorable(text: str) -> None:
    """A lone surrogate half cannot be stored: the plugin would write U+FFFD in its place,
    which is not what the person typed, so the edit is refused instead."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise StoreError(
            "The text contains a character that cannot be stored"
            f" ({exc.reason}: {exc.object[exc.start : exc.end]!r}); remove it"
        ) from exc


def _stored_title(title: str) -> str:
    """The title as the plugin would store it; an empty one is refused, as the plugin does."""
    _refuse_unstorable(title)
    stored = alisio.prepare_title(title)
    if not stored:
        raise StoreError(
            "An observation needs a title (the agent's plugin refuses an empty one);"
            " type one before saving"
        )
    return stored


def _stored_content(content: str) -> str:
    """The content as the plugin would store it; empty content is refused, as it does."""
    _refuse_unstorable(content)
    stored = alisio.prepare_content(content)
    if not stored:
        raise StoreError(
            "An observation needs some content (the agent's plugin refuses an empty one);"
            " write it before saving"
        )
    return stored


def _row_values(row: Observation) -> tuple[object, ...]:
    """The row's columns, without anything a subclass adds."""
    return tuple(getattr(row, name) for name in _COLUMNS)


def _written(row: Observation, changes: TopicChanges) -> WrittenObservation:
    return WrittenObservation(*_row_values(row), topic_changes=changes)


def _unchanged(values: Mapping[str, object], before: Observation) -> bool:
    return all(values[name] == getattr(before, name) for name in values)


def _row_move(row: Observation, *, key_after: str | None, updated_at: int) -> RowMove:
    """The topic side of an edit: same liveness, a new key, the edit's time."""
    return RowMove(
        row.id,
        row.scope,
        row.project,
        updated_at,
        row.deleted_at,
        row.topic_key,
        row.deleted_at,
        key_after,
    )


def _check_type_and_topic(type: str | None, topic_key: str | None) -> None:
    """The plugin's rules for a type and a topic_key (None: not being changed)."""
    if type is not None and not alisio.is_valid_type(type):
        raise StoreError(
            f"“{type}” is not an observation type; use one of: "
            + ", ".join(alisio.OBSERVATION_TYPES)
        )
    if topic_key and not alisio.is_valid_topic_key(topic_key):
        raise StoreError(
            f"“{topic_key}” is not a topic key; use kebab-case words joined by “/”,"
            " e.g. “auth/token-refresh” (or leave it empty for none)"
        )


def _update_columns(conn: sqlite3.Connection, id: int, values: Mapping[str, object]) -> None:
    assignments = ", ".join(f"{name} = :{name}" for name in values)
    conn.execute(f"UPDATE observations SET {assignments} WHERE id = :id", {**values, "id": id})


def _update_in(
    conn: sqlite3.Connection, assignment: str, values: tuple[object, ...], ids: Sequence[int]
) -> None:
    if ids:
        marks = ", ".join("?" * len(ids))
        conn.execute(f"UPDATE observations SET {assignment} WHERE id IN ({marks})", (*values, *ids))


def _set_deleted_at(
    conn: sqlite3.Connection, ids: Iterable[int], condition: str, value: int | None
) -> dict[int, int | None]:
    """Set deleted_at on the rows among ``ids`` that meet ``condition`` (which may bind
    ``value`` once); returns their previous deleted_at."""
    previous: dict[int, int | None] = {}
    bound = (value,) if "?" in condition else ()
    for chunk in _chunks(ids):
        marks = ", ".join("?" * len(chunk))
        rows = conn.execute(
            f"SELECT id, deleted_at FROM observations WHERE id IN ({marks}) AND {condition}",
            (*chunk, *bound),
        ).fetchall()
        _update_in(conn, "deleted_at = ?", (value,), [row[0] for row in rows])
        previous.update((row[0], row[1]) for row in rows)
    return previous


def _chunks(ids: Iterable[int]) -> Iterator[list[int]]:
    """Unique ids in chunks that fit an IN (...) list."""
    unique = list(dict.fromkeys(int(i) for i in ids))
    for start in range(0, len(unique), _CHUNK):
        yield unique[start : start + _CHUNK]


def _primary_code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF
