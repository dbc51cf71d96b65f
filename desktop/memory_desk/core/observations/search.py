"""The person's search and the agent's, translated to SQL: filters, FTS queries, ordering.

A search is literal: every word of the person's text must occur (case-insensitive)
in the title, content or topic_key. Words of three characters or more go through the
FTS5 trigram index as quoted phrases; shorter words, which trigrams cannot match, go
through ``LIKE`` with its wildcards escaped (so, as in the plugin, they fold ASCII
case only). Nothing the person types reaches SQL except as a bound parameter. With
text and no sort key, results are ranked by the plugin's bm25 weights, boosted for
recent rows; without text, newest first; a sort key sorts in SQL, id breaking ties.

A date range (:class:`DateRange`) keeps the rows created, or updated, in a span: bounds on
``created_at`` or ``updated_at`` in the WHERE clause, on the browsing and the searching path
alike. :func:`search_words` gives the words a search requires and :func:`match_spans` finds
them in a text, so what the window highlights is exactly what the search matched.

The agent's ``memory_search`` has its own rules (:mod:`.agent_search`);
:func:`agent_filter` builds its statement. Pure functions: nothing here runs SQL.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from memory_desk.core import alisio
from memory_desk.core.observations import agent_search as agent
from memory_desk.core.observations.rows import SELECT_WITH_CONTENT, SELECT_WITHOUT_CONTENT

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
# Trigrams cannot match shorter words.
MIN_TRIGRAM_CHARS = 3
_FTS_JOIN = "observations_fts CROSS JOIN observations o ON o.id = observations_fts.rowid"


# What a date range bounds: the row's first save or its last change.
DATE_FIELDS: tuple[str, ...] = ("created", "updated")
_DATE_COLUMNS = {"created": "o.created_at", "updated": "o.updated_at"}


@dataclass(frozen=True)
class DateRange:
    """Rows whose ``created_at`` (``field`` "created") or ``updated_at`` ("updated") lies in
    [``start``, ``end``), in ms since the epoch; a bound left None is open."""

    field: str = "created"
    start: int | None = None
    end: int | None = None

    def __post_init__(self) -> None:
        if self.field not in _DATE_COLUMNS:  # a programming mistake, not the person's
            raise ValueError(f"unknown date field {self.field!r}; expected one of {DATE_FIELDS}")

    def is_open(self) -> bool:
        """True when it keeps every row (no bound at all)."""
        return self.start is None and self.end is None


@dataclass(frozen=True)
class Filter:
    """A search translated to SQL: FROM, WHERE and bound parameters."""

    source: str
    where: str
    params: dict[str, object]
    ranked: bool


class FilterArgs(TypedDict, total=False):
    """The filters :meth:`ObservationStore.search`, ``search_ids`` and ``count`` share."""

    types: Iterable[str]
    project: str | None
    scope: str | None
    include_forgotten: bool
    pinned_only: bool
    created_between: tuple[int, int] | None
    date_range: DateRange | None


def search_words(text: str) -> list[str]:
    """The words a search for ``text`` requires, as :func:`build_filter` reads them: runs of
    non-space characters (a NUL separates words too), a word typed twice once; a word no
    UTF-8 database can hold is left out (it matches nothing, and so does the search)."""
    return list(dict.fromkeys(w for w in text.replace("\x00", " ").split() if _storable(w)))


def match_spans(text: str, words: Sequence[str], limit: int) -> list[tuple[int, int]]:
    """Where ``words`` occur in ``text`` ((start, end) character offsets, in order, not
    overlapping, at most ``limit``), case-insensitively as the search matched them; a longer
    word wins over a shorter one starting at the same place."""
    if not words or not text or limit <= 0:
        return []
    spans: list[tuple[int, int]] = []
    for found in _words_pattern(tuple(words)).finditer(text):
        spans.append(found.span())
        if len(spans) >= limit:
            break
    return spans


@functools.lru_cache(maxsize=16)
def _words_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for the words, longest first (compiled once per search, not per cell)."""
    ordered = sorted(dict.fromkeys(words), key=len, reverse=True)
    return re.compile("|".join(map(re.escape, ordered)), re.IGNORECASE)


def build_filter(
    text: str,
    types: Iterable[str] = (),
    project: str | None = None,
    scope: str | None = None,
    include_forgotten: bool = False,
    pinned_only: bool = False,
    created_between: tuple[int, int] | None = None,
    date_range: DateRange | None = None,
) -> Filter:
    """Translate a search into SQL; the person's words only ever become parameters.

    ``created_between`` (ms, start inclusive, end exclusive) keeps the rows saved in that
    span: a day of the Overview's chart. ``date_range`` is the filter bar's date range.
    """
    where: list[str] = []
    params: dict[str, object] = {}
    if isinstance(types, str):
        types = (types,)
    # SQLite reads an FTS query up to its first NUL, so a NUL separates words here.
    if not all(_storable(word) for word in text.replace("\x00", " ").split()):
        where.append("0")  # a word no UTF-8 database can hold matches nothing
    words = search_words(text)
    long_words = [w for w in words if len(w) >= MIN_TRIGRAM_CHARS]
    short_words = [w for w in words if len(w) < MIN_TRIGRAM_CHARS]
    if long_words:
        source = _FTS_JOIN
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
        params[f"like{i}"] = "%" + escape_like(word) + "%"
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
    if created_between is not None:
        where.append("o.created_at >= :created_from AND o.created_at < :created_to")
        params["created_from"], params["created_to"] = created_between
    if date_range is not None:
        column = _DATE_COLUMNS[date_range.field]
        if date_range.start is not None:
            where.append(f"{column} >= :date_from")
            params["date_from"] = int(date_range.start)
        if date_range.end is not None:
            where.append(f"{column} < :date_to")
            params["date_to"] = int(date_range.end)
    return Filter(source, " AND ".join(where) or "1", params, bool(long_words))


def rows_sql(query: Filter, *, with_content: bool, sort: str | None, descending: bool) -> str:
    """The statement for a page of whole rows (binds ``:limit`` and ``:offset``)."""
    columns = SELECT_WITH_CONTENT if with_content else SELECT_WITHOUT_CONTENT
    return (
        f"SELECT {columns} FROM {query.source} WHERE {query.where}"
        f" ORDER BY {order_by(query, sort, descending)} LIMIT :limit OFFSET :offset"
    )


def ids_sql(query: Filter, *, sort: str | None, descending: bool) -> str:
    """The statement for every matching id, in display order."""
    return (
        f"SELECT o.id FROM {query.source} WHERE {query.where}"
        f" ORDER BY {order_by(query, sort, descending)}"
    )


def count_sql(query: Filter) -> str:
    """The statement counting every match."""
    return f"SELECT count(*) FROM {query.source} WHERE {query.where}"


def order_by(query: Filter, sort: str | None, descending: bool) -> str:
    """ORDER BY for a sort key (a ValueError for an unknown one: a programming mistake)."""
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


def agent_filter(
    match_query: str,
    *,
    project: str | None,
    all_projects: bool,
    type: str | None,
    scope: str | None,
) -> tuple[str, dict[str, object]]:
    """The agent's candidate query: live rows matching, best ``agent.CANDIDATES`` by bm25.

    Each selected row is a row without content followed by its bm25 score.
    """
    where = ["observations_fts MATCH :match", "o.deleted_at IS NULL"]
    params: dict[str, object] = {"match": match_query, "candidates": agent.CANDIDATES}
    if project is not None and not all_projects:
        where.append("(o.project = :project OR o.scope = 'personal')")
        params["project"] = project
    if type is not None:
        where.append("o.type = :type")
        params["type"] = type
    if scope is not None:
        where.append("o.scope = :scope")
        params["scope"] = scope
    # The plugin's own join and order (not the person's search's CROSS JOIN): rows of equal
    # bm25 then come in the order the agent's query gives them, which its stable re-sort keeps.
    sql = (
        f"SELECT {SELECT_WITHOUT_CONTENT}, {agent.BM25} AS rank FROM observations_fts"
        f" JOIN observations o ON o.id = observations_fts.rowid"
        f" WHERE {' AND '.join(where)} ORDER BY rank LIMIT :candidates"
    )
    return sql, params


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


def escape_like(word: str) -> str:
    """``word`` for a ``LIKE ... ESCAPE '\\'`` pattern: its wildcards taken literally."""
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
