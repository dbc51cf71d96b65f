"""The person's search as hand-written SQL: the raw references the window is compared with.

Written here on purpose rather than imported from the store, so a change in the store
cannot change its own yardstick, and so the harness runs against an older checkout. The
rules are the store's (FORMATS.md): every word must occur in title, content or topic_key;
words of 3+ characters through the FTS5 trigram index as quoted phrases, shorter ones
through LIKE; live rows only; ranked by the plugin's bm25 weights with the recency boost
when there is FTS text, newest first otherwise.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

BM25 = "bm25(observations_fts, 5.0, 1.0, 0.5, 0.5, 0.2, 2.0)"
RANK = f"{BM25} * (1.0 + 1.0 / (1.0 + max(0, :now - o.updated_at) / 2592000000.0))"
FTS_JOIN = "observations_fts CROSS JOIN observations o ON o.id = observations_fts.rowid"
COLUMNS = (
    "o.id, o.pinned, o.type, o.title, o.project, o.scope, o.topic_key, o.revision_count,"
    " o.duplicate_count, o.access_count, o.updated_at, o.created_at"
)
NEWEST = "o.updated_at DESC, o.id DESC"


def connect(path: Path) -> sqlite3.Connection:
    """A read-only connection: the references never write."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def where(text: str) -> tuple[str, dict[str, object], bool]:
    """FROM ... WHERE ..., its parameters, and whether it ranks (has FTS words)."""
    words = text.split()
    long_words = [w for w in words if len(w) >= 3]
    clauses: list[str] = []
    params: dict[str, object] = {}
    if long_words:
        phrases = " AND ".join('"' + w.replace('"', '""') + '"' for w in long_words)
        clauses.append("observations_fts MATCH :match")
        params["match"] = f"{{title content topic_key}} : ({phrases})"
        params["now"] = int(time.time() * 1000)
        source = FTS_JOIN
    else:
        source = "observations o"
    for i, word in enumerate(w for w in words if len(w) < 3):
        escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        clauses.append(
            f"(o.title LIKE :like{i} ESCAPE '\\' OR o.content LIKE :like{i} ESCAPE '\\'"
            f" OR o.topic_key LIKE :like{i} ESCAPE '\\')"
        )
        params[f"like{i}"] = f"%{escaped}%"
    clauses.append("o.deleted_at IS NULL")
    return f"{source} WHERE {' AND '.join(clauses)}", params, bool(long_words)


def ids_query(text: str, order: str | None = None) -> tuple[str, dict[str, object]]:
    """Every matching id in the window's order (ranked with FTS words, else newest first)."""
    source, params, ranked = where(text)
    order = order or (f"{RANK} ASC, o.id DESC" if ranked else NEWEST)
    return f"SELECT o.id FROM {source} ORDER BY {order}", params


def rows_query(text: str) -> tuple[str, dict[str, object]]:
    """The same, with the columns a table shows (the QSqlQueryModel reference's statement)."""
    source, params, ranked = where(text)
    order = f"{RANK} ASC, o.id DESC" if ranked else NEWEST
    return f"SELECT {COLUMNS} FROM {source} ORDER BY {order}", params


def time_ids_ms(conn: sqlite3.Connection, text: str, order: str | None = None) -> float:
    """One run of the full ranked id query, fetched to the last row, in ms."""
    sql, params = ids_query(text, order)
    began = time.perf_counter()
    conn.execute(sql, params).fetchall()
    return (time.perf_counter() - began) * 1000


def count(conn: sqlite3.Connection, text: str) -> int:
    source, params, _ranked = where(text)
    return conn.execute(f"SELECT count(*) FROM {source}", params).fetchone()[0]


def matching(conn: sqlite3.Connection, text: str, ids: list[int]) -> set[int]:
    """Which of ``ids`` match ``text`` (live rows only)."""
    if not ids:
        return set()
    source, params, _ranked = where(text)
    marks = ", ".join(str(int(i)) for i in ids)
    sql = f"SELECT o.id FROM {source} AND o.id IN ({marks})"
    return {row[0] for row in conn.execute(sql, params)}
