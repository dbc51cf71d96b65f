"""Running the agent's ``memory_search`` on a store: its rules (:mod:`.agent_search`), its
statement (:func:`.search.agent_filter`), its re-scoring, and its fall-back from all words
to any word. ``ObservationStore.agent_search`` is the public call; this keeps the store's file
to its public calls."""

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
    match: str | None,
    all_projects: bool,
    type: str | None,
    scope: str | None,
    limit: int,
) -> AgentSearch:
    """What the agent finds for ``text`` (see ``ObservationStore.agent_search``); ``read`` is
    the store's door (``ObservationStore.read``). ``match`` None is the tool called without
    one: ``all``, then ``any`` when that finds nothing."""
    agent.check_match(match)
    words, ignored, unused = agent.split_words(alisio.as_written(text))
    filters = {"project": project, "all_projects": all_projects, "type": type, "scope": scope}
    mode = match or agent.MATCH_ALL
    query, hits = _run(read, words, mode, limit, filters)
    if not hits and match is None:
        mode = agent.MATCH_ANY
        query, hits = _run(read, words, mode, limit, filters)
    return AgentSearch(hits, tuple(ignored), query, mode, tuple(unused))


def _run(
    read: Callable[..., object],
    words: list[str],
    match: str,
    limit: int,
    filters: dict[str, object],
) -> tuple[str | None, tuple]:
    query = agent.fts_query(words, match)
    if query is None:  # no word left: the agent finds nothing
        return query, ()
    sql, params = search_sql.agent_filter(query, **filters)
    rows = read(msg("DatabaseAction", "search as the agent"), _fetch, sql, params)
    ranked = agent.rescore([(as_observation(row[:-1]), row[-1]) for row in rows], alisio.now_ms())
    return query, tuple(ranked[: agent.result_count(limit)])


def _fetch(conn: sqlite3.Connection, sql: str, params: dict[str, object]) -> list[tuple]:
    return conn.execute(sql, params).fetchall()
