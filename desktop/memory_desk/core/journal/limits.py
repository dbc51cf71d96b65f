"""Keeping the journal within the person's limits: age first, then size.

Size order (what is least worth keeping goes first): baseline texts of rows without a
topic_key (the plugin never rewrites those in place, so their text exists in the store),
then the oldest changes with their versions, then the texts of rows with a topic_key (the
newest version of a topic row is what a later revision's "old" side needs: it goes last).
Freed pages are given back (``incremental_vacuum``) and the WAL truncated, so
``size_bytes`` is the real size.

The size limit counts what pruning can let go: the changes and the texts. The baselines (a
row per observation or entry the journal knows, about 120 bytes: without it no change can be
told) are counted beside it (:func:`baseline_bytes`): a big store's baselines alone can pass
the limit, and counted in, they would have every change deleted as soon as it is recorded.
"""

from __future__ import annotations

import sqlite3

from memory_desk.core.journal.db import JournalDB
from memory_desk.core.journal.model import JournalLimits

DAY_MS = 86_400_000
EXPECTED_FOR_MS = DAY_MS  # a person's write not seen by a scan within a day never will be
BATCH = 500
# A baseline row and its index entry in the journal's pages, about (SQLite's dbstat, from a
# few thousand to a million rows). Too high, and the journal keeps more than its limit.
ROW_BYTES = 130

ORPHANS_SQL = (
    "DELETE FROM versions WHERE id NOT IN (SELECT version_id FROM targets WHERE version_id"
    " IS NOT NULL) AND id NOT IN (SELECT old_version FROM changes WHERE old_version IS NOT"
    " NULL) AND id NOT IN (SELECT new_version FROM changes WHERE new_version IS NOT NULL)"
)
# Baseline texts no change refers to, oldest first, topic-less before topic rows.
BASELINE_TEXTS_SQL = (
    "SELECT v.id FROM versions v JOIN targets t ON t.version_id = v.id WHERE v.topic = ?"
    " AND NOT EXISTS (SELECT 1 FROM changes c WHERE c.old_version = v.id OR"
    " c.new_version = v.id) ORDER BY v.seen_ms, v.id LIMIT ?"
)


def baseline_bytes(conn: sqlite3.Connection) -> int:
    """About how many bytes of the journal its baselines take: not counted by the limit. The
    stores' id lists and signatures are part of them (24 bytes per observation)."""
    rows = int(conn.execute("SELECT count(*) FROM targets").fetchone()[0])
    lists = conn.execute(
        "SELECT coalesce(sum(length(ids)), 0) + coalesce(sum(length(forgotten)), 0)"
        " + coalesce(sum(length(signature)), 0) FROM stores"
    ).fetchone()[0]
    return ROW_BYTES * rows + int(lists)


def history_bytes(jdb: JournalDB) -> int:
    """The journal's size the limit counts: all of it but its baselines."""
    size = jdb.size_bytes()
    with jdb.read() as conn:
        return max(0, size - baseline_bytes(conn))


def prune(jdb: JournalDB, limits: JournalLimits, now: int) -> bool:
    """Apply the age limit, then the size limit (baselines not counted). True when baseline
    texts were dropped (what a scan keeps in memory of them is then out of date)."""
    cutoff = now - max(0, limits.max_age_days) * DAY_MS
    with jdb.write() as conn:
        conn.execute("DELETE FROM changes WHERE seen_ms < ?", (cutoff,))
        conn.execute("DELETE FROM pending WHERE at_ms < ?", (now - EXPECTED_FOR_MS,))
        conn.execute(ORPHANS_SQL)
    compact(jdb)
    dropped = False
    if jdb.size_bytes() <= limits.max_bytes:  # (the usual case: no count of the baselines)
        return dropped
    with jdb.read() as conn:
        limit = limits.max_bytes + baseline_bytes(conn)
    for step in (_drop_baseline_texts(0), _drop_oldest_changes, _drop_baseline_texts(1)):
        while jdb.size_bytes() > limit:
            with jdb.write() as conn:
                if not step(conn):
                    break
            dropped = dropped or step is not _drop_oldest_changes
            compact(jdb)
    return dropped


def _drop_baseline_texts(topic: int):
    def step(conn: sqlite3.Connection) -> bool:
        ids = [row[0] for row in conn.execute(BASELINE_TEXTS_SQL, (topic, BATCH)).fetchall()]
        if not ids:
            return False
        conn.executemany(
            "UPDATE targets SET version_id = NULL WHERE version_id = ?", [(i,) for i in ids]
        )
        conn.executemany("DELETE FROM versions WHERE id = ?", [(i,) for i in ids])
        return True

    return step


def _drop_oldest_changes(conn: sqlite3.Connection) -> bool:
    ids = [
        row[0]
        for row in conn.execute(
            "SELECT id FROM changes ORDER BY seen_ms, id LIMIT ?", (BATCH,)
        ).fetchall()
    ]
    if not ids:
        return False
    conn.executemany("DELETE FROM changes WHERE id = ?", [(i,) for i in ids])
    conn.execute(ORPHANS_SQL)
    return True


def compact(jdb: JournalDB) -> None:
    """Give freed pages back to the file system and fold the WAL in (our own file)."""
    with jdb.translate():
        conn = jdb.current()
        conn.execute("PRAGMA incremental_vacuum").fetchall()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
