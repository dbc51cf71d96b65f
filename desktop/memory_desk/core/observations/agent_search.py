"""What the agent's ``memory_search`` returns: its rules, so the person can check recall.

The plugin's search differs from the person's (which finds words of any length). Its tool
(FORMATS.md, "What the agent's ``memory_search`` tool finds") lower-cases the query as
JavaScript does and takes every run of letters, digits and ``_`` (``[\\p{L}\\p{N}_]+``) as a
word, so punctuation separates words (``lock-leak?`` is ``lock`` and ``leak``); it drops words
under 3 UTF-16 units (trigrams cannot match them) and repeated words, keeps the first 16,
quotes each and joins them with AND (``match="all"``) or OR (``"any"``); with no word left it
finds nothing. When the caller gives no ``match``, it searches with ``all`` and, when that
finds nothing, again with ``any``, and says which mode it used.

It matches all six FTS columns, live rows only, of the project or personal (unless
``all_projects``), takes the best 100 by ``bm25(observations_fts, 5.0, 1.0, 0.5, 0.5, 0.2,
2.0)``, re-scores them with the plugin's ``rankScore`` (:func:`rank_score`) and sorts them
stably, best first (rows of equal score keep bm25's SQL order), keeping
``min(max(limit, 1), 20)`` rows, 8 unless asked.

Where this can still differ from the agent: Python's Unicode tables (3.11: Unicode 14) against
the agent's runtime's (newer), in lower-casing and in what a letter or digit is; and the last
bit of ``exp``/``log`` between two maths libraries, which can swap two rows of all but equal
score. Pure Python, no Qt.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory_desk.core import jstext

if TYPE_CHECKING:
    from memory_desk.core.observations.rows import Observation

MATCH_ALL = "all"
MATCH_ANY = "any"
MIN_WORD_UNITS = 3
MAX_WORDS = 16
CANDIDATES = 100
DEFAULT_LIMIT = 8
MAX_LIMIT = 20
BM25 = "bm25(observations_fts, 5.0, 1.0, 0.5, 0.5, 0.2, 2.0)"
_DAY_MS = 86_400_000
_RECENCY_DAYS = 30


@dataclass(frozen=True)
class AgentSearch:
    """The rows the agent's ``memory_search`` returns, best first, and why.

    ``ignored_words`` are the words it drops for being under 3 characters as JavaScript
    counts; ``unused_words`` the ones after the 16th, which it never searches for.
    ``fts_query`` is the FTS5 query of the mode that ran, None when no word is left (then it
    finds nothing). ``match`` is the mode that ran: ``"all"``, or ``"any"`` when asked or when
    ``all`` found nothing and no mode was asked for.
    """

    hits: tuple[Observation, ...]
    ignored_words: tuple[str, ...]
    fts_query: str | None
    match: str = MATCH_ALL
    unused_words: tuple[str, ...] = ()


def _is_word_character(character: str) -> bool:
    """In ``[\\p{L}\\p{N}_]``: a letter or a number by its Unicode category, or ``_``.

    Python's ``\\w`` is not that class (it takes marks and connector punctuation that
    ``\\p{L}`` and ``\\p{N}`` do not), so the categories are asked one by one."""
    return character == "_" or unicodedata.category(character)[0] in "LN"


def _runs(text: str) -> list[str]:
    """Every run of word characters, in the order written."""
    runs: list[str] = []
    start = None
    for index, character in enumerate(text):
        if _is_word_character(character):
            if start is None:
                start = index
        elif start is not None:
            runs.append(text[start:index])
            start = None
    if start is not None:
        runs.append(text[start:])
    return runs


def split_words(text: str) -> tuple[list[str], list[str], list[str]]:
    """The words the agent searches for, the short ones it drops, and the ones after the
    16th it never reaches: each list without repeats, in the order typed."""
    kept: list[str] = []
    short: list[str] = []
    seen: set[str] = set()
    for word in _runs(jstext.js_lower(text)):
        if word in seen:
            continue
        seen.add(word)
        (kept if jstext.utf16_len(word) >= MIN_WORD_UNITS else short).append(word)
    return kept[:MAX_WORDS], short, kept[MAX_WORDS:]


def fts_query(words: Sequence[str], match: str) -> str | None:
    """Each word as a quoted FTS5 phrase, joined by AND (``all``) or OR (``any``)."""
    check_match(match)
    if not words:
        return None
    joiner = " AND " if match == MATCH_ALL else " OR "
    return joiner.join('"' + word.replace('"', '""') + '"' for word in words)


def check_match(match: str | None) -> None:
    """Refuse a mode the tool does not know (None is "not given")."""
    if match not in (None, MATCH_ALL, MATCH_ANY):
        raise ValueError(f"unknown match {match!r}; expected {MATCH_ALL!r} or {MATCH_ANY!r}")


def result_count(limit: int) -> int:
    """How many rows the agent keeps: ``min(max(limit, 1), 20)``."""
    return min(max(int(limit), 1), MAX_LIMIT)


def rank_score(bm25: float, updated_at: int, access_count: int, now: int) -> float:
    """The plugin's ``rankScore``: bm25 (negated, at least 1e-9) weighed by recency and use.

    ``max(-bm25, 1e-9) * (0.6 + 0.4 * exp(-ageDays / 30)) * (1 + 0.05 * ln(1 + access))``
    with ``ageDays = max(0, now - updated_at) / 86,400,000``.
    """
    age_days = max(0, now - updated_at) / _DAY_MS
    recency = 0.6 + 0.4 * math.exp(-age_days / _RECENCY_DAYS)
    use = 1 + 0.05 * math.log(1 + access_count)
    return max(-bm25, 1e-9) * recency * use


def rescore(candidates: Sequence[tuple[Observation, float]], now: int) -> list[Observation]:
    """Order bm25 candidates as the agent does: by :func:`rank_score`, best first, rows of
    equal score in the order they came (JavaScript's sort is stable)."""
    scored = [
        (rank_score(bm25, row.updated_at, max(0, row.access_count), now), row)
        for row, bm25 in candidates
    ]
    return [row for _score, row in sorted(scored, key=lambda item: -item[0])]
