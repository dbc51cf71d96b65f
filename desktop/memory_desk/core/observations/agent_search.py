"""What the agent's ``memory_search`` would return: its rules, so the person can check recall.

The plugin's search differs from the person's (which finds words of any length): it
splits the text into words on JavaScript's whitespace, **ignores words under 3 UTF-16
units** (trigrams cannot match them), quotes each remaining word (quotes doubled) and joins
them with AND (``match="all"``, the default) or OR (``"any"``); with no word left it returns
nothing. It matches all six FTS columns, live rows only, of the project or personal
(unless ``all_projects``), takes the best 100 by ``bm25(observations_fts, 5.0, 1.0, 0.5,
0.5, 0.2, 2.0)``, then re-scores them in JavaScript with recency and access count and keeps
``min(max(limit, 1), 20)`` rows.

The re-scoring formula is not public, so :func:`rescore` is an **estimate**: the recency
boost the person's search already uses (a fresh row's bm25 counts double, a month-old
row's 1.5 times) times ``1 + 0.1 * log(1 + access_count)``. The set of rows among the 100
candidates is exact; their order after bm25 is our estimate. Pure Python, no Qt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory_desk.core import jstext

if TYPE_CHECKING:
    from memory_desk.core.observations.rows import Observation

MATCH_ALL = "all"
MATCH_ANY = "any"
MIN_WORD_UNITS = 3
CANDIDATES = 100
DEFAULT_LIMIT = 10
MAX_LIMIT = 20
BM25 = "bm25(observations_fts, 5.0, 1.0, 0.5, 0.5, 0.2, 2.0)"
_RECENCY_MS = 30 * 24 * 3600 * 1000
_ACCESS_WEIGHT = 0.1


@dataclass(frozen=True)
class AgentSearch:
    """The rows the agent's ``memory_search`` would return, best first, and why.

    ``ignored_words`` are the words it drops (under 3 characters as JavaScript counts);
    ``fts_query`` is the FTS5 query it would run, None when no word is left (then it finds
    nothing). The order of ``hits`` after bm25 is an estimate (see the module docstring).
    """

    hits: tuple[Observation, ...]
    ignored_words: tuple[str, ...]
    fts_query: str | None


def split_words(text: str) -> tuple[list[str], list[str]]:
    """The words the agent searches for, and the ones it ignores, in the order typed."""
    words = [word for word in jstext.JS_SPACE_RUNS_RE.split(text) if word]
    kept = [word for word in words if jstext.utf16_len(word) >= MIN_WORD_UNITS]
    ignored = [word for word in words if jstext.utf16_len(word) < MIN_WORD_UNITS]
    return kept, ignored


def fts_query(words: Sequence[str], match: str) -> str | None:
    """Each word as a quoted FTS5 phrase, joined by AND (``all``) or OR (``any``)."""
    if match not in (MATCH_ALL, MATCH_ANY):
        raise ValueError(f"unknown match {match!r}; expected {MATCH_ALL!r} or {MATCH_ANY!r}")
    if not words:
        return None
    joiner = " AND " if match == MATCH_ALL else " OR "
    return joiner.join('"' + word.replace('"', '""') + '"' for word in words)


def result_count(limit: int) -> int:
    """How many rows the agent keeps: ``min(max(limit, 1), 20)``."""
    return min(max(int(limit), 1), MAX_LIMIT)


def rescore(candidates: Sequence[tuple[Observation, float]], now: int) -> list[Observation]:
    """Order bm25 candidates as the agent would, by our estimate of its re-scoring."""

    def score(item: tuple[Observation, float]) -> tuple[float, int]:
        row, bm25 = item
        age = max(0, now - row.updated_at)
        recency = 1.0 + 1.0 / (1.0 + age / _RECENCY_MS)
        access = 1.0 + _ACCESS_WEIGHT * math.log1p(max(0, row.access_count))
        return (-bm25 * recency * access, row.id)

    return [row for row, _ in sorted(candidates, key=score, reverse=True)]
