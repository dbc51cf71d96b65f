"""The table's reads at 100,000 rows: every matching id in one row, the first screen at once,
and the counts and projects read once per change of the file.

- **Ids in bulk.** Fetching every id as a Python row costs a Python object per id and takes
  the GIL once per row, which a busy window's thread waits for. SQLite joins them into one
  string (``group_concat``, with the GIL released) and numpy parses it in C: one row, one
  array of int64.
- **The first screen at once.** Ranking every match (bm25 over all of them) or sorting every
  live row by ``updated_at`` (the plugin has no index for it) takes time that grows with the
  data. The newest matches come without either: FTS5 walks its index by rowid backwards,
  and the table its primary key, stopping after ``limit`` rows. The table shows those while
  the whole answer is read.
- **Counts and projects per change.** ``PRAGMA data_version`` changes with every commit to
  the file (the agent's and ours); the totals and the project list are read again only when
  it did, on whichever thread asks first (the query's worker), never on the main thread.

Pure Python (numpy for the parse); every function takes a connection, the store runs them.
"""

from __future__ import annotations

import sqlite3
import threading
from array import array
from dataclasses import dataclass

from memory_desk.core import lazy_numpy
from memory_desk.core.lazy_numpy import np
from memory_desk.core.observations.rows import Totals
from memory_desk.core.observations.search import Filter

FIRST_ROWS = 200  # about five screens: enough to show, scroll a little and pick a row


def id_array(conn: sqlite3.Connection, sql: str, params: dict[str, object]) -> np.ndarray | array:
    """The ids ``sql`` (selecting one column of ids, in order) returns, as an int64 array
    (see :func:`parse_ids`)."""
    row = conn.execute(f"SELECT group_concat(id, ',') FROM ({sql})", params).fetchall()[0]
    return parse_ids(row[0])


def parse_ids(joined: str | None) -> np.ndarray | array:
    """``"3,1,2"`` as ``array([3, 1, 2])``; None (no row) as an empty array.

    numpy's array, parsed in C (splitting into a Python string per id holds the GIL the
    window needs to paint far longer). Until numpy is imported, an
    ``array('q')`` parsed in Python instead: at start the window paints its first rows
    before numpy's import and imports it right after (core/lazy_numpy); an answer read
    meanwhile costs a little more than with numpy.
    """
    if not lazy_numpy.loaded():
        return array("q", map(int, joined.split(","))) if joined else array("q")
    if not joined:
        return np.empty(0, dtype=np.int64)
    return np.fromstring(joined, dtype=np.int64, sep=",")


def first_ids(conn: sqlite3.Connection, query: Filter, limit: int) -> list[int]:
    """The newest matches (highest ids first), up to ``limit`` of them, without ranking or
    sorting: FTS5 walks its index by rowid backwards, the table its primary key."""
    newest = "observations_fts.rowid" if query.ranked else "o.id"
    sql = f"SELECT o.id FROM {query.source} WHERE {query.where} ORDER BY {newest} DESC LIMIT :first"
    return [row[0] for row in conn.execute(sql, dict(query.params, first=limit)).fetchall()]


TOTALS_SQL = (
    "SELECT count(*), count(*) FILTER (WHERE deleted_at IS NULL),"
    " count(*) FILTER (WHERE deleted_at IS NOT NULL),"
    " count(*) FILTER (WHERE deleted_at IS NULL AND pinned != 0)"
    " FROM observations"
)
PROJECTS_SQL = "SELECT DISTINCT project FROM observations ORDER BY project"


def read_totals(conn: sqlite3.Connection) -> Totals:
    """Total, live, forgotten and live pinned counts, in one statement (one snapshot)."""
    row = conn.execute(TOTALS_SQL).fetchall()[0]
    return Totals(*(int(value) for value in row))


def read_projects(conn: sqlite3.Connection) -> list[str]:
    """Every project that has an observation, sorted."""
    return [row[0] for row in conn.execute(PROJECTS_SQL).fetchall()]


@dataclass(frozen=True)
class Summary:
    """The counts and projects of the file as it was at ``data_version``."""

    version: int
    totals: Totals
    projects: tuple[str, ...]


class SummaryCache:
    """The last :class:`Summary`, read again only when the file changed since (thread-safe).

    ``version`` is read *before* the counts: a commit landing between the two makes the
    next call read again, never keeps a stale summary.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._summary: Summary | None = None

    def last(self) -> Summary | None:
        """The last summary read, whatever changed since (no query: the main thread's)."""
        return self._summary

    def get(self, version: int, conn: sqlite3.Connection) -> Summary:
        """The summary at ``version``: the cached one if nothing committed since."""
        summary = self._summary
        if summary is not None and summary.version == version:
            return summary
        with self._lock:
            summary = self._summary
            if summary is not None and summary.version == version:
                return summary
            summary = Summary(version, read_totals(conn), tuple(read_projects(conn)))
            self._summary = summary
            return summary
