"""``ObservationStore``: the public calls on one ``memory.sqlite`` (search, read, pin, forget,
edit), each a thin layer over the package's parts.

Browsing is pure ``SELECT``: no counter or timestamp changes because a person looked, and no
read transaction stays open between calls, so the agent's checkpoints are never held back.
SQL is built in :mod:`.search`, written in :mod:`.writes`, run on :mod:`.sqlite`'s connections.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar, Unpack

from memory_desk.core import alisio, appdirs
from memory_desk.core.errors import StoreDamaged, message_of
from memory_desk.core.lazy_numpy import np
from memory_desk.core.messages import msg
from memory_desk.core.observations import agent_run, health, listing, schema, search, writes
from memory_desk.core.observations import agent_search as agent
from memory_desk.core.observations.agent_search import AgentSearch
from memory_desk.core.observations.health import Health
from memory_desk.core.observations.listing import Summary
from memory_desk.core.observations.rows import (
    EditResult,
    Observation,
    Totals,
    WrittenObservation,
    as_observation,
    fetch_many,
    fetch_one,
)
from memory_desk.core.observations.search import FilterArgs
from memory_desk.core.observations.sqlite import Connections, Witness
from memory_desk.core.observations.topics import (
    NO_TOPIC_CHANGES,
    PreviousDeletedAt,
    TopicChanges,
)

_T = TypeVar("_T")


class ObservationStore:
    """One Alisio ``memory.sqlite``, opened for reading and hand edits beside the agent.

    Thread-safe: each calling thread gets its own connection, closed by :meth:`close`.
    ``witness`` hears the person's writes, so the journal never lists them as the agent's.
    """

    def __init__(self, path: str | os.PathLike[str], *, witness: Witness | None = None) -> None:
        self.path = Path(path).expanduser().absolute()
        self.label = self.path.name
        self._db = Connections(self.path, witness)
        self._summary = listing.SummaryCache()
        schema.check_path(self.path)
        try:
            with self._db.translate(msg("DatabaseAction", "open")):
                self.schema_versions, self.warnings = schema.inspect(self._db.current(), self.path)
        except BaseException:
            self.close()
            raise

    # ----------------------------------------------------------------- reading

    def search(
        self,
        text: str = "",
        *,
        sort: str | None = None,
        descending: bool = True,
        limit: int | None = None,
        offset: int = 0,
        with_content: bool = False,
        **filters: Unpack[FilterArgs],
    ) -> list[Observation]:
        """Matching observations in display order, a page at a time with limit/offset."""
        query = search.build_filter(text, **filters)
        sql = search.rows_sql(query, with_content=with_content, sort=sort, descending=descending)
        params = dict(query.params, limit=-1 if limit is None else limit, offset=offset)
        with self._db.translate(msg("DatabaseAction", "search")):
            rows = self._db.current().execute(sql, params).fetchall()
        return [as_observation(row) for row in rows]

    def search_ids(
        self,
        text: str = "",
        *,
        sort: str | None = None,
        descending: bool = True,
        **filters: Unpack[FilterArgs],
    ) -> list[int]:
        """Every matching id in display order, as a list (see :meth:`search_id_array`)."""
        ids = self.search_id_array(text, sort=sort, descending=descending, **filters)
        return ids.tolist()

    def search_id_array(
        self,
        text: str = "",
        *,
        sort: str | None = None,
        descending: bool = True,
        **filters: Unpack[FilterArgs],
    ) -> np.ndarray | array:
        """Every matching id in display order, as int64: what a lazily loading table holds,
        read as one row (:mod:`.listing`; an ``array('q')`` until numpy is imported)."""
        query = search.build_filter(text, **filters)
        sql = search.ids_sql(query, sort=sort, descending=descending)
        with self._db.translate(msg("DatabaseAction", "search")):
            return listing.id_array(self._db.current(), sql, query.params)

    def first_ids(
        self, text: str = "", *, limit: int = listing.FIRST_ROWS, **filters: Unpack[FilterArgs]
    ) -> list[int]:
        """Up to ``limit`` of the newest matches, highest id first, without ranking: what
        the table shows while :meth:`search_id_array` reads every match in order."""
        query = search.build_filter(text, **filters)
        with self._db.translate(msg("DatabaseAction", "search")):
            return listing.first_ids(self._db.current(), query, limit)

    def interrupt(self, thread_ident: int) -> None:
        """Stop the read running on that thread's connection: it raises QueryInterrupted."""
        self._db.interrupt(thread_ident)

    def count(self, text: str = "", **filters: Unpack[FilterArgs]) -> int:
        """How many observations :meth:`search` would return without a limit."""
        query = search.build_filter(text, **filters)
        with self._db.translate(msg("DatabaseAction", "count")):
            rows = self._db.current().execute(search.count_sql(query), query.params).fetchall()
        return int(rows[0][0])

    def read(self, action: str, query: Callable[..., _T], *args: object) -> _T:
        """Run ``query(conn, *args)`` on this thread's connection, SQLite errors turned into
        StoreError naming ``action``: the door for the read-only views beside the store
        (chats, overview, pruning, exports), which keep their SQL in their own modules.
        ``query`` must only SELECT and read each statement to its end.
        """
        with self._db.translate(action):
            return query(self._db.current(), *args)

    def get(self, id: int) -> Observation | None:
        """One observation with its content, or None if it no longer exists."""
        with self._db.translate(msg("DatabaseAction", "read")):
            return fetch_one(self._db.current(), id)

    def get_many(self, ids: Sequence[int]) -> dict[int, Observation]:
        """The observations among ``ids`` that still exist, without content (cheap rows)."""
        with self._db.translate(msg("DatabaseAction", "read")):
            return fetch_many(self._db.current(), ids)

    def projects(self) -> list[str]:
        """Every project that has an observation, sorted (for the project filter)."""
        with self._db.translate(msg("DatabaseAction", "read")):
            return listing.read_projects(self._db.current())

    def totals(self) -> Totals:
        """Total, live, forgotten and live pinned counts, in one consistent read."""
        with self._db.translate(msg("DatabaseAction", "count")):
            return listing.read_totals(self._db.current())

    def summary(self) -> Summary:
        """Totals and projects, read again only if the file changed since the last call
        (``PRAGMA data_version``): what the table's worker asks with every query."""
        version = self.data_version()
        with self._db.translate(msg("DatabaseAction", "count")):
            return self._summary.get(version, self._db.current())

    def last_summary(self) -> Summary | None:
        """The last :meth:`summary` read (perhaps older than the file), or None; no query."""
        return self._summary.last()

    def data_version(self) -> int:
        """A number that changes whenever any connection commits a change to the file.

        It runs on a connection of its own that never writes, so live reload sees the
        agent's saves and this store's writes alike.
        """
        with self._db.translate(msg("DatabaseAction", "check for changes")):
            return self._db.data_version()

    def agent_search(
        self,
        text: str,
        *,
        project: str | None,
        match: str | None = None,
        all_projects: bool = False,
        type: str | None = None,
        scope: str | None = None,
        limit: int = agent.DEFAULT_LIMIT,
    ) -> AgentSearch:
        """What the agent's ``memory_search`` returns for ``text``, by its own rules
        (:mod:`memory_desk.core.observations.agent_search`): its words, AND (``match="all"``)
        or OR (``"any"``) over all six FTS columns; live rows of ``project`` or personal ones
        (``project=None`` or ``all_projects``: every project), optionally of one ``type`` and
        ``scope``; the best 100 by its bm25, re-sorted by its ``rankScore``, cut to
        ``min(max(limit, 1), 20)``. ``match=None`` is the tool asked without a mode: all
        words, then any word when that finds nothing; the result's ``match`` says which ran.
        Pure read: no counter or timestamp changes, unlike the agent's ``memory_get``. Rows
        come without content."""
        return agent_run.search(
            self.read,
            text,
            project=project,
            match=match,
            all_projects=all_projects,
            type=type,
            scope=scope,
            limit=limit,
        )

    def check_index(self) -> str | None:
        """:meth:`check_database`'s message: None when healthy, else what to do."""
        return self.check_database().message

    def check_database(self) -> Health:
        """SQLite's ``quick_check`` and FTS5's ``integrity-check``, on one snapshot.

        ``quick_check`` finds damage in the file itself (pages, records); the integrity
        check compares the search index with the rows (rank 1), which the cheap checks at
        open cannot: rows the index misses or still holds. Both run on a snapshot
        (:func:`health.check`), so it never takes the agent's write lock nor writes
        beside its file.

        A damaged result makes the store refuse every write (StoreDamaged) until a later
        check finds it healthy (after the person rebuilt the index or restored a backup):
        that check lifts it. Takes seconds on a big database and blocks: call it off the
        main thread. Raises StoreError when the check itself cannot run.
        """
        result = health.check(self._db, appdirs.cache_dir(create=False))
        self._db.set_damage(result.as_error())
        return result

    @property
    def damage(self) -> StoreDamaged | None:
        """Why writes are refused (the database was found damaged), or None."""
        return self._db.damage

    @property
    def read_only_reason(self) -> str | None:
        """The damage's message when writes are refused, else None."""
        damage = self._db.damage
        return None if damage is None else message_of(damage)

    # ---------------------------------------------------------------- identity

    @property
    def identity(self) -> tuple[int, int] | None:
        """(device, inode) of the file this store has open."""
        return self._db.identity

    def replaced(self) -> str | None:
        """None while the path still holds the open file; else what happened, in words
        (deleted, moved away, or replaced by another file). Costs one ``stat``."""
        return self._db.replaced()

    def check_identity(self) -> None:
        """Raise StoreReplaced unless the path still holds the open file (writes do this
        themselves, holding the write lock)."""
        self._db.check_identity(msg("DatabaseAction", "write"))

    # ----------------------------------------------------------------- writing

    def pin(self, ids: Iterable[int], pinned: bool = True) -> dict[int, bool]:
        """Set ``pinned`` (and nothing else); returns the previous state of each changed id."""
        return self._db.write(msg("DatabaseAction", "pin"), writes.pin, ids, pinned)

    def forget(
        self, ids: Iterable[int], *, at: int | None = None, keep_pinned: bool = False
    ) -> PreviousDeletedAt:
        """Soft-delete live rows (``deleted_at = at or now``; pinned ones stay live with
        ``keep_pinned``, checked in the write's transaction); their previous deleted_at.
        Forgetting never gives a topic a second live row: ``topic_changes`` stays empty."""
        args = (ids, alisio.now_ms() if at is None else at, keep_pinned)
        return self._db.write(msg("DatabaseAction", "forget"), writes.forget, *args)

    def restore(
        self, ids: Iterable[int], *, on_topic_conflict: str | None = None
    ) -> PreviousDeletedAt:
        """Bring forgotten rows back (``deleted_at = NULL``); returns their previous deleted_at.

        A restored row with a topic_key must not become a second live row of its topic
        (against rows live now, or against other rows of this call). Without
        ``on_topic_conflict`` such a call raises TopicConflict listing every clash and writes
        nothing; with one of the ``TOPIC_*`` choices it applies it to every clash in the same
        transaction (see :mod:`memory_desk.core.observations.topics`; with
        ``TOPIC_FORGET_OTHER`` the other restored rows of a clash stay forgotten and are not
        in the result).

        The result maps each restored row to its previous deleted_at, as always; its
        ``topic_changes`` holds the previous values of everything else the choice changed
        (other rows forgotten, keys taken off, restored rows' keys included). Undo: pass the
        whole result to :meth:`put_back_deleted_at`, which puts all of it back.
        """
        return self._db.write(
            msg("DatabaseAction", "restore"), writes.restore, ids, on_topic_conflict
        )

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
        return self._db.write(
            msg("DatabaseAction", "undo"),
            lambda conn: writes.put_back_deleted_at(conn, previous, changes, on_topic_conflict),
        )

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
        return self._db.write(msg("DatabaseAction", "delete"), writes.delete, ids)

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
        :func:`alisio.prepare_content`: ``<private>`` redacted, JavaScript-trimmed, capped in
        UTF-16 units, but an ``expected`` row already over the cap keeps its edit whole); an
        empty result raises StoreError. Only new content gets a new hash; ``revision_count``
        + 1 and ``updated_at = last_seen_at = now``. ``topic_key=""`` clears the topic; any
        other key is stored as the plugin stores it (:func:`alisio.stored_topic_key`:
        ``Area/Sub/Leaf`` is ``area/sub-leaf``, and a key that normalises to nothing clears the
        topic). With ``expected`` (the row as the person saw it), the edit is refused with
        ConflictError if the agent revised it since. An edit that changes nothing writes
        nothing (``before == after``).

        Giving a live row a topic_key that another live row holds raises TopicConflict
        unless ``on_topic_conflict`` says what to do (``TOPIC_CLEAR_THIS`` saves the edit
        without the key). What the choice changed on other rows is in the result's
        ``topic_changes``; :meth:`undo_edit` puts it back with the edit.
        """
        new_title = None if title is None else writes.stored_title(title)
        new_content = None if content is None else writes.stored_content(content, expected)
        writes.check_type_and_topic(type, topic_key)
        return self._db.write(
            msg("DatabaseAction", "edit"),
            lambda conn: writes.edit(
                conn,
                id,
                new_title=new_title,
                new_content=new_content,
                type=type,
                topic_key=topic_key,
                expected=expected,
                choice=on_topic_conflict,
            ),
        )

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
        new_title = writes.stored_title(title)
        new_content = writes.stored_content(content)
        writes.check_type_and_topic(type, topic_key)
        return self._db.write(
            msg("DatabaseAction", "save the observation again"),
            lambda conn: writes.recreate(
                conn,
                observation,
                new_title=new_title,
                new_content=new_content,
                type=type,
                topic_key=topic_key,
                choice=on_topic_conflict,
            ),
        )

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
        action = msg("DatabaseAction", "undo the edit")
        return self._db.write(action, writes.undo_edit, result, on_topic_conflict)

    # ---------------------------------------------------------------- lifetime

    def close(self) -> None:
        """Close every connection; later calls raise StoreError. Safe to call twice."""
        self._db.close()

    def __enter__(self) -> ObservationStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ObservationStore({str(self.path)!r})"
