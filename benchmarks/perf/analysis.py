"""From a probe's raw records (keys, paints, model changes) to keystroke latencies.

A keystroke is answered at the first paint of the table, after a model change that came
after the key, whose visible rows all match the text typed so far (or that shows no row
when nothing matches). The check is made here, afterwards, against the database, so the
probes spend nothing on it while they are timed. A key whose own answer was overtaken by
the next key is answered by the later answer: those rows match its text too (typing on
only narrows), which is when the person first sees rows that fit what they typed.
"""

from __future__ import annotations

import bisect
import sqlite3

from perf import rawsql


def _resolved(paints: list[list]) -> list[tuple[int, int, list[int]]]:
    """Each paint with its visible ids (a paint with none recorded shows the previous ids)."""
    out, ids = [], []
    for stamp, rows, seen in paints:
        if seen is not None:
            ids = seen
        out.append((stamp, rows, ids))
    return out


class Matcher:
    """Answers "do these ids all match this text", cached per (text, ids)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.counts: dict[str, int] = {}
        self._cache: dict[tuple[str, tuple[int, ...]], bool] = {}

    def count(self, text: str) -> int:
        if text not in self.counts:
            self.counts[text] = rawsql.count(self.conn, text)
        return self.counts[text]

    def fits(self, text: str, rows: int, ids: list[int]) -> bool:
        if self.count(text) == 0:
            return rows == 0
        if rows == 0 or not ids:
            return False
        key = (text, tuple(ids))
        if key not in self._cache:
            self._cache[key] = rawsql.matching(self.conn, text, ids) == set(ids)
        return self._cache[key]


def keystrokes(record: dict, matcher: Matcher) -> tuple[list[float], int]:
    """Latency (ms) of each answered keystroke, and how many were never answered."""
    paints = _resolved(record.get("paints", []))
    stamps = [p[0] for p in paints]
    changes = sorted(record.get("changes", []))
    latencies, missed = [], 0
    for key in record.get("typing", {}).get("keys", []):
        pressed = key["scheduled"]
        first_change = bisect.bisect_right(changes, pressed)
        if first_change == len(changes):
            missed += 1
            continue
        start = bisect.bisect_right(stamps, changes[first_change])
        for stamp, rows, ids in paints[start:]:
            if matcher.fits(key["text"], rows, ids):
                latencies.append((stamp - pressed) / 1e6)
                break
        else:
            missed += 1
    return latencies, missed


def settle_times(record: dict) -> list[float]:
    """Last key of each word -> first paint after the word's last model change (ms)."""
    typing = record.get("typing", {})
    keys = typing.get("keys", [])
    stamps = [p[0] for p in record.get("paints", [])]
    out = []
    for settled in typing.get("settled", []):
        word_keys = [k for k in keys if k["word"] == settled["word"]]
        last_key = max(
            (k["scheduled"] for k in word_keys if k["scheduled"] < settled["last_change"]),
            default=None,
        )
        if last_key is None:
            continue
        index = bisect.bisect_right(stamps, settled["last_change"])
        if index < len(stamps):
            out.append((stamps[index] - last_key) / 1e6)
    return out


def raw_keystroke_ms(conn: sqlite3.Connection, texts: list[str], repeats: int = 3) -> list[float]:
    """The raw ranked FTS (or LIKE) id query of each typed text, fetched whole (ms)."""
    out = []
    for text in texts:
        rawsql.time_ids_ms(conn, text)  # warm
        out.extend(rawsql.time_ids_ms(conn, text) for _ in range(repeats))
    return out
