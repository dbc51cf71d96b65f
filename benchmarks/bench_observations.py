"""How much does ObservationStore cost over hand-written SQLite? Run on purpose, not in CI.

    /work/venv/bin/python benchmarks/bench_observations.py [--rows 100000] [--db PATH]

Builds (or reuses) a memory database with the plugin's schema and triggers, then times
each store call against the equivalent raw ``sqlite3`` query in the same run and prints
the ratio (median of several alternating runs). Also prints what a full check of the
FTS index would cost at open (seconds, under the write lock), which is why the store
only checks the index's structure and spot-checks a few rows when it opens.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from alisio_fixtures import build_database, plugin_connection  # noqa: E402
from memory_desk.core import alisio  # noqa: E402
from memory_desk.core.observations import ObservationStore  # noqa: E402

BM25 = "bm25(observations_fts, 5.0, 1.0, 0.5, 0.5, 0.2, 2.0)"
RANK = f"{BM25} * (1.0 + 1.0 / (1.0 + max(0, ? - o.updated_at) / 2592000000.0))"
FTS_JOIN = "observations_fts CROSS JOIN observations o ON o.id = observations_fts.rowid"
LIKE3 = (
    "(o.title LIKE ? ESCAPE '\\' OR o.content LIKE ? ESCAPE '\\' OR o.topic_key LIKE ? ESCAPE '\\')"
)
COLUMNS = (
    "o.id, o.session_id, o.type, o.title, NULL, o.tool_name, o.project, o.scope, o.topic_key,"
    " o.normalized_hash, o.revision_count, o.duplicate_count, o.last_seen_at, o.pinned,"
    " o.access_count, o.last_accessed_at, o.created_at, o.updated_at, o.deleted_at"
)


class Case:
    """A store call's kwargs and the raw SQL a person would write for the same rows."""

    def __init__(self, name: str, kwargs: dict, where: str, params: tuple, order: str) -> None:
        self.name, self.kwargs, self.where, self.params, self.order = (
            name,
            kwargs,
            where,
            params,
            order,
        )
        self.ranked = order == "rank"

    def raw(
        self, conn: sqlite3.Connection, select: str, ordered: bool = True, limit: int | None = None
    ) -> list:
        sql = f"SELECT {select} FROM {self.where}"
        params: tuple = self.params
        if ordered and self.ranked:
            sql += f" ORDER BY {RANK} ASC, o.id DESC"
            params = (*params, alisio.now_ms())
        elif ordered:
            sql += f" ORDER BY {self.order}"
        if limit is not None:
            sql += f" LIMIT {limit}"
        return conn.execute(sql, params).fetchall()


def cases() -> list[Case]:
    fts = "{title content topic_key} : "
    like = ("%db%",) * 3
    return [
        Case(
            "short word 'db'",
            {"text": "db"},
            f"observations o WHERE {LIKE3} AND o.deleted_at IS NULL",
            like,
            "o.updated_at DESC, o.id DESC",
        ),
        Case(
            "long word 'refresh'",
            {"text": "refresh"},
            f"{FTS_JOIN} WHERE observations_fts MATCH ? AND o.deleted_at IS NULL",
            (fts + '("refresh")',),
            "rank",
        ),
        Case(
            "two words 'rollback journal'",
            {"text": "rollback journal"},
            f"{FTS_JOIN} WHERE observations_fts MATCH ? AND o.deleted_at IS NULL",
            (fts + '("rollback" AND "journal")',),
            "rank",
        ),
        Case(
            "3 words 'token cache ui' + 2 types",
            {"text": "token cache ui", "types": ("bugfix", "decision")},
            f"{FTS_JOIN} WHERE observations_fts MATCH ? AND {LIKE3} AND o.type IN (?, ?)"
            " AND o.deleted_at IS NULL",
            (fts + '("token" AND "cache")', "%ui%", "%ui%", "%ui%", "bugfix", "decision"),
            "rank",
        ),
        Case(
            "rare 'sqlite-db' (no row)",
            {"text": "sqlite-db"},
            f"{FTS_JOIN} WHERE observations_fts MATCH ? AND o.deleted_at IS NULL",
            (fts + '("sqlite-db")',),
            "rank",
        ),
        Case(
            "no text, default order",
            {},
            "observations o WHERE o.deleted_at IS NULL",
            (),
            "o.updated_at DESC, o.id DESC",
        ),
        Case(
            "no text, title asc, forgotten too",
            {"sort": "title", "descending": False, "include_forgotten": True},
            "observations o WHERE 1",
            (),
            "o.title COLLATE NOCASE ASC, o.id ASC",
        ),
        Case(
            "no text, project+pinned, by accesses",
            {"project": "alpha-1a2b3c4d", "pinned_only": True, "sort": "access_count"},
            "observations o WHERE o.project = ? AND o.deleted_at IS NULL AND o.pinned != 0",
            ("alpha-1a2b3c4d",),
            "o.access_count DESC, o.id DESC",
        ),
    ]


def compare_ms(
    store_fn: Callable[[], object], raw_fn: Callable[[], object], runs: int
) -> tuple[float, float]:
    """Median milliseconds of each, run alternately so load drift hits both alike."""
    store_fn(), raw_fn()  # warm the page cache and the statement caches
    store_times, raw_times = [], []
    for _ in range(runs):
        for fn, times in ((store_fn, store_times), (raw_fn, raw_times)):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(store_times), statistics.median(raw_times)


def run_queries(
    store: ObservationStore, conn: sqlite3.Connection, runs: int, page: int
) -> list[float]:
    ratios: list[float] = []
    print(f"{'query':38} {'call':11} {'rows':>7} {'store ms':>9} {'raw ms':>8} {'ratio':>6}")
    for case in cases():
        filters = {k: v for k, v in case.kwargs.items() if k not in ("sort", "descending")}
        ids = store.search_ids(**case.kwargs)
        raw_ids = [row[0] for row in case.raw(conn, "o.id")]
        agree = ids == raw_ids if not case.ranked else sorted(ids) == sorted(raw_ids)
        assert agree, f"{case.name}: the store and the raw query disagree"
        calls = (
            (
                "search_ids",
                lambda c=case: store.search_ids(**c.kwargs),
                lambda c=case: [row[0] for row in c.raw(conn, "o.id")],
                len(ids),
            ),
            (
                "count",
                lambda f=filters: store.count(**f),
                lambda c=case: c.raw(conn, "count(*)", ordered=False)[0][0],
                len(ids),
            ),
            (
                f"search({page})",
                lambda c=case: store.search(**c.kwargs, limit=page),
                lambda c=case: c.raw(conn, COLUMNS, limit=page),
                min(page, len(ids)),
            ),
        )
        for call, store_fn, raw_fn, rows in calls:
            store_ms, raw_ms = compare_ms(store_fn, raw_fn, runs)
            ratio = store_ms / raw_ms if raw_ms else float("nan")
            ratios.append(ratio)
            print(f"{case.name:38} {call:11} {rows:7d} {store_ms:9.2f} {raw_ms:8.2f} {ratio:6.2f}")
    return ratios


def time_checks(path: Path) -> None:
    opens = []
    for _ in range(5):
        start = time.perf_counter()
        ObservationStore(path).close()
        opens.append((time.perf_counter() - start) * 1000)
    print(f"{'open (structure + spot checks):':38}{statistics.median(opens):9.1f} ms")
    with plugin_connection(path) as conn:
        for label, sql in (
            ("PRAGMA quick_check", "PRAGMA quick_check"),
            (
                "FTS integrity-check (write lock!)",
                "INSERT INTO observations_fts(observations_fts, rank) VALUES('integrity-check', 1)",
            ),
        ):
            start = time.perf_counter()
            conn.execute(sql).fetchall()
            print(f"{label + ':':38}{(time.perf_counter() - start) * 1000:9.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--db", type=Path, help="reuse (or create) this database file")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--page", type=int, default=200, help="rows per search() page")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.db or Path(folder) / "memory.sqlite"
        if not path.exists():
            start = time.perf_counter()
            build_database(path, args.rows, seed=1)
            print(f"built {args.rows} observations in {time.perf_counter() - start:.1f} s")
        print(f"database: {path} ({path.stat().st_size / 1e6:.1f} MB)")
        time_checks(path)
        with ObservationStore(path) as store, plugin_connection(path) as conn:
            print(f"totals: {store.totals()}")
            ratios = run_queries(store, conn, args.runs, args.page)
        print(f"ratio store/raw: median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}")


if __name__ == "__main__":
    main()
