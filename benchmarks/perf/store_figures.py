"""ObservationStore's calls against the same hand-written queries (bench_observations' way).

Each case is a store call's arguments and the raw SQL for the same rows; the store's call
and the raw query run alternately (so load drift hits both alike), and the store's answer
is checked against the raw one before anything is timed.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_observations import COLUMNS, FTS_JOIN, LIKE3, Case, compare_ms  # noqa: E402

from perf.dataset import SearchWords  # noqa: E402

_FTS = "{title content topic_key} : "
_LIVE = "AND o.deleted_at IS NULL"


def cases(words: SearchWords, project: str) -> list[Case]:
    """The figures' words (common, medium, rare), a short word, and the no-text views."""
    fts_where = f"{FTS_JOIN} WHERE observations_fts MATCH ? {_LIVE}"
    out = [
        Case(f"{label} '{word}'", {"text": word}, fts_where, (f'{_FTS}("{word}")',), "rank")
        for label, word in words.as_dict().items()
    ]
    two = f"{words.common} {words.medium}"
    out.append(
        Case(
            f"two words '{two}'",
            {"text": two},
            fts_where,
            (f'{_FTS}("{words.common}" AND "{words.medium}")',),
            "rank",
        )
    )
    short = words.common[:2]
    out.append(
        Case(
            f"short word '{short}'",
            {"text": short},
            f"observations o WHERE {LIKE3} {_LIVE}",
            (f"%{short}%",) * 3,
            "o.updated_at DESC, o.id DESC",
        )
    )
    out.append(
        Case(
            "no text, newest first",
            {},
            "observations o WHERE o.deleted_at IS NULL",
            (),
            "o.updated_at DESC, o.id DESC",
        )
    )
    out.append(
        Case(
            "no text, title asc, forgotten too",
            {"sort": "title", "descending": False, "include_forgotten": True},
            "observations o WHERE 1",
            (),
            "o.title COLLATE NOCASE ASC, o.id ASC",
        )
    )
    out.append(
        Case(
            "no text, project+pinned, by accesses",
            {"project": project, "pinned_only": True, "sort": "access_count"},
            "observations o WHERE o.project = ? AND o.deleted_at IS NULL AND o.pinned != 0",
            (project,),
            "o.access_count DESC, o.id DESC",
        )
    )
    return out


def measure(db: Path, words: SearchWords, runs: int = 5, page: int = 200) -> dict:
    """Per call kind: the store's and the raw query's median ms of each case, and the ratio."""
    from alisio_fixtures import plugin_connection
    from memory_desk.core.observations import ObservationStore

    out: dict[str, dict[str, list]] = {
        call: {"store": [], "raw": [], "cases": []} for call in ("search_ids", "count", "search")
    }
    with ObservationStore(db) as store, plugin_connection(db) as conn:
        project = conn.execute(
            "SELECT project FROM observations GROUP BY project ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()[0]
        for case in cases(words, project):
            filters = {k: v for k, v in case.kwargs.items() if k not in ("sort", "descending")}
            ids = list(store.search_ids(**case.kwargs))
            raw_ids = [row[0] for row in case.raw(conn, "o.id")]
            same = ids == raw_ids if not case.ranked else sorted(ids) == sorted(raw_ids)
            if not same:
                raise AssertionError(f"{case.name}: the store and the raw query disagree")
            calls = {
                "search_ids": (
                    lambda c=case: store.search_ids(**c.kwargs),
                    lambda c=case: [row[0] for row in c.raw(conn, "o.id")],
                ),
                "count": (
                    lambda f=filters: store.count(**f),
                    lambda c=case: c.raw(conn, "count(*)", ordered=False)[0][0],
                ),
                "search": (
                    lambda c=case: store.search(**c.kwargs, limit=page),
                    lambda c=case: c.raw(conn, COLUMNS, limit=page),
                ),
            }
            for call, (store_fn, raw_fn) in calls.items():
                store_ms, raw_ms = compare_ms(store_fn, raw_fn, runs)
                out[call]["store"].append(store_ms)
                out[call]["raw"].append(raw_ms)
                out[call]["cases"].append({"case": case.name, "rows": len(ids)})
    for call in out.values():
        ratios = [s / r for s, r in zip(call["store"], call["raw"], strict=True) if r > 0]
        call["worst_ratio"] = max(ratios, default=float("nan"))
        call["median_ratio"] = statistics.median(ratios) if ratios else float("nan")
    return out
