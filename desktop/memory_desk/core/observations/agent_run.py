"""Running the agent's ``memory_search`` on a store: its rules (:mod:`.agent_search`), its
statement (:func:`.search.agent_filter`), its re-scoring. ``ObservationStore.agent_search``
is the public call; this keeps the store's file to its public calls."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from memory_desk.core import alisio
from memory_desk.core.messages import msg
from memory_desk.core.observations import agent_search as agent
from memory_desk.core.observations import search as search_sql
from memory_desk.core.observations.agent_search import AgentSearch
from memory_desk.core.observations.rows import as_observation


def search(
    read: Callable[..., object],
    text: str,
    *,
    project: str | None,
    match: str,
    all_projects: bool,
    type: str | None,
    scope: str | None,
    limit: int,
) -> AgentSearch:
    """What the agent would find for ``text`` (see ``ObservationStore.agent_search``);
    ``read`` is the store's door (``ObservationStore.read``)."""
    words, ignored = agent.split_words(alisio.as_written(text))
    query = agent.fts_query(words, match)
    if query is None or "\x00" in query:
        # No word left, or a NUL, which ends SQLite's reading of the query so that the
        # agent's own search fails: either way the agent finds nothing.
        return AgentSearch((), tuple(ignored), query)
    sql, params = search_sql.agent_filter(
        query, project=project, all_projects=all_projects, type=type, scope=scope
    )
    rows = read(msg("DatabaseAction", "search as the agent"), _fetch, sql, params)
    ranked = agent.rescore([(as_observation(row[:-1]), row[-1]) for row in rows], alisio.now_ms())
    return AgentSearch(tuple(ranked[: agent.result_count(limit)]), tuple(ignored), query)


def _fetch(conn: sqlite3.Connection, sql: str, params: dict[str, object]) -> list[tuple]:
    return conn.execute(sql, params).fetchall()
