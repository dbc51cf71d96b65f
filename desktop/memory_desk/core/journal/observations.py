"""The observations scan: what changed in a ``memory.sqlite`` since the journal last looked.

Cheap by construction (the store has 100,000 rows, the agent changes a few):
1. a stat of the db and its ``-wal`` (identity, sizes, mtimes): unchanged, nothing is read;
2. one pass over a covering index gives three id lists (all ids, forgotten ids, ids updated
   since the newest ``updated_at`` seen, minus a slack for a save that waited for the lock);
   numpy compares them with the ids seen;
3. only the rows that are new, updated, newly forgotten or restored are read whole.

The store is opened read-only (``mode=ro``): never a write, a journal_mode change or a
checkpoint on the agent's file. The first scan of a store is a silent baseline, read in
batches of ids (short read transactions, so the agent's checkpoints are never held back), by a
child process for a big store (:mod:`.first_look`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memory_desk.core.errors import StoreError
from memory_desk.core.journal import first_look
from memory_desk.core.journal import records as rec
from memory_desk.core.journal.db import JournalDB
from memory_desk.core.journal.model import (
    OBSERVATIONS,
    ChangeKind,
    ObservationState,
    Version,
)
from memory_desk.core.journal.pending import Compare, PendingWrites
from memory_desk.core.journal.reading import cannot_read, open_read_only

# A save computes updated_at, then may wait up to the plugin's busy_timeout (5 s) for the
# write lock: rows updated this long before the newest one seen are read again.
SLACK_MS = 60_000
BASELINE_BATCH = 1000
PAUSE_S = 0.001  # between a first look's batches: the window's thread gets the GIL
ROW_COLUMNS = (
    "id, type, title, content, topic_key, deleted_at, revision_count, updated_at, session_id,"
    " tool_name, project, scope"
)
AGENT = "Alisio"


@dataclass
class ScanCounts:
    """What a scan read, for tests and the benchmark: rows fetched whole, and whether the
    store was opened at all."""

    opened: bool = False
    rows: int = 0
    baseline: bool = False
    replaced: bool = False
    recorded: int = 0
    extra: dict = field(default_factory=dict)


def stamp_of(db: Path) -> tuple[str, str] | None:
    """(identity, stamp) of the file: device+inode, and sizes+mtimes of the db and its WAL."""
    try:
        st = os.stat(db)
    except OSError:
        return None
    try:
        wal = os.stat(f"{db}-wal")
        # An empty WAL holds nothing: opening a WAL database may create one (even read-only).
        wal_part = f"{wal.st_size}:{wal.st_mtime_ns}:{wal.st_ino}" if wal.st_size else "-"
    except OSError:
        wal_part = "-"
    identity = f"{st.st_dev}:{st.st_ino}"
    return identity, f"{identity}:{st.st_size}:{st.st_mtime_ns}|{wal_part}"


def state_of(row: tuple) -> ObservationState:
    _id, type_, title, content, topic_key, deleted_at, revision, _at, chat, tool, *rest = row
    project, scope = rest if rest else (None, None)
    return ObservationState.from_columns(
        type_, title, content, topic_key, deleted_at, revision, project, scope, chat, tool
    )


def version_of(state: ObservationState) -> Version:
    return Version(
        title=state.title,
        description=state.topic_key or "",
        type=state.type,
        body=state.content,
        revision=state.revision_count,
        project=state.project,
        scope=state.scope,
        session_id=state.session_id,
        tool_name=state.tool_name,
    )


@dataclass
class Seen:
    """What a store's scans keep in memory between scans (the journal file holds it too):
    a re-scan compares the file's stamp and id lists without reading the journal."""

    store: rec.StoreRow
    ids: np.ndarray
    forgotten: np.ndarray


@dataclass
class ScanContext:
    """What a scan shares with the :class:`~.journal.Journal`: the person's writes waiting,
    the store's memory (None: read it from the journal file), a pause between a first look's
    batches in this thread, and the first looks run by child processes."""

    writes: PendingWrites
    seen: Seen | None = None
    pause: Callable[[], None] = field(default=lambda: time.sleep(PAUSE_S))
    writes_mark: int = 0
    looks: first_look.Looks | None = None  # None: every first look in this thread
    budget: int = 2**62  # bytes of the journal a first look may fill with texts


def agent_of(tool_name: str | None) -> str:
    return f"{AGENT} · {tool_name}" if tool_name else AGENT


def parse_ids(joined: str | None) -> np.ndarray:
    if not joined:
        return np.empty(0, dtype=np.int64)
    return np.array(joined.split(","), dtype=np.int64) if len(joined) < 64 else _fast(joined)


def _fast(joined: str) -> np.ndarray:
    return np.fromstring(joined, dtype=np.int64, sep=",")


def as_blob(sorted_ids: np.ndarray) -> bytes:
    """The stored form of ids already sorted (sorting again cost 5 ms at 100,000 ids)."""
    return np.ascontiguousarray(sorted_ids, dtype="<i8").tobytes()


def from_blob(blob: bytes | None) -> np.ndarray:
    return np.frombuffer(blob or b"", dtype="<i8").astype(np.int64)


def fetch_rows(conn: sqlite3.Connection, ids: list[int]) -> list[tuple]:
    rows: list[tuple] = []
    for part in rec.chunks(ids):
        rows += conn.execute(
            f"SELECT {ROW_COLUMNS} FROM observations WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(part),),
        ).fetchall()
    return rows


def scan(jdb: JournalDB, db: Path, now: int, counts: ScanCounts, ctx: ScanContext) -> Seen | None:
    """Record what changed in ``db`` since the last scan (``counts.recorded`` says how
    many); return what to remember of the store for the next scan."""
    path = str(db)
    stamped = stamp_of(db)
    if stamped is None:
        return ctx.seen
    identity, stamp = stamped
    seen = ctx.seen if ctx.seen is not None else _load(jdb, path)
    if seen is not None and seen.store.stamp == stamp:
        return seen
    counts.opened = True
    mark = ctx.writes_mark = ctx.writes.mark()  # the person's writes reported before the read
    conn = open_read_only(db)
    try:
        store = seen.store if seen is not None else None
        if store is None or store.identity != identity or store.ids is None:
            counts.baseline = True
            counts.replaced = store is not None and store.identity not in (None, identity)
            return _baseline(jdb, conn, db, (identity, stamp), now, counts, ctx)
        return _incremental(jdb, conn, seen, stamp, now, counts, (ctx.writes, mark))
    except sqlite3.Error as exc:
        raise StoreError(cannot_read(db, str(exc))) from exc
    finally:
        conn.close()


def _load(jdb: JournalDB, path: str) -> Seen | None:
    with jdb.read() as jconn:
        store = rec.store_row(jconn, path)
    if store is None:
        return None
    return Seen(store, from_blob(store.ids), from_blob(store.forgotten))


def _baseline(
    jdb: JournalDB,
    conn: sqlite3.Connection,
    db: Path,
    stamped: tuple[str, str],
    now: int,
    counts: ScanCounts,
    ctx: ScanContext,
) -> Seen:
    """Take what the store holds as known, silently (see :mod:`.first_look`): a big store
    in a child process, a small one (or when no child can start) in this thread."""
    path = str(db)
    with jdb.write() as jconn:
        store_id = rec.ensure_store(jconn, path, OBSERVATIONS)
        rec.forget_baseline(jconn, store_id)
    look = None
    if ctx.looks is not None and first_look.span(conn) >= first_look.IN_PROCESS_ROWS:
        look = ctx.looks.run(jdb.path, db, store_id, now, BASELINE_BATCH, ctx.budget)
    if look is None:
        look = first_look.take(conn, jdb, store_id, now, BASELINE_BATCH, ctx.pause, ctx.budget)
    counts.rows += look.rows
    counts.extra["first_look_pid"] = look.pid
    counts.extra["first_look_waited"] = round(look.waited, 3)
    identity, stamp = stamped
    ctx.writes.consume_all(path, ctx.writes_mark)  # the person's writes are in the baseline
    store = rec.StoreRow(
        store_id, path, OBSERVATIONS, identity, stamp, look.max_updated, None, None
    )
    ids, forgotten = np.array(look.ids, np.int64), np.array(look.forgotten, np.int64)
    return _save_seen(jdb, Seen(store, ids, forgotten))


def _save_seen(jdb: JournalDB, seen: Seen) -> Seen:
    """Write what was seen of the store (its stamp and id lists) and return it."""
    store = seen.store
    sorted_ids, sorted_forgotten = np.sort(seen.ids), np.sort(seen.forgotten)
    ids, forgotten = as_blob(sorted_ids), as_blob(sorted_forgotten)
    with jdb.write() as jconn:
        jconn.execute(
            "UPDATE stores SET identity = ?, stamp = ?, max_updated = ?, ids = ?, forgotten = ?"
            " WHERE id = ?",
            (store.identity, store.stamp, store.max_updated, ids, forgotten, store.id),
        )
    store.ids, store.forgotten = ids, forgotten
    return Seen(store, sorted_ids, sorted_forgotten)


def _keep(
    jconn: sqlite3.Connection,
    store_id: int,
    row: tuple,
    now: int,
    old_version: int | None = None,
) -> int:
    """Make the row's state its baseline (with its updated_at), its text a new version;
    return that version."""
    target, state = str(row[0]), state_of(row)
    topic = state.topic_key is not None
    version_id = rec.add_version(jconn, store_id, target, version_of(state), now, topic)
    baseline = rec.Baseline(state.digest(), state.forgotten, str(row[7]), version_id)
    rec.set_baseline(jconn, store_id, target, baseline)
    rec.drop_version_if_unused(jconn, old_version)
    return version_id


def _read_lists(conn: sqlite3.Connection, since: int) -> tuple[np.ndarray, np.ndarray, str]:
    """All ids, forgotten ids, and ``id:updated_at`` of the rows updated since ``since``:
    one pass over a covering index."""
    row = conn.execute(
        "SELECT group_concat(id), group_concat(id) FILTER (WHERE deleted_at IS NOT NULL),"
        " group_concat(id || ':' || updated_at) FILTER (WHERE updated_at >= ?)"
        " FROM observations",
        (since,),
    ).fetchall()[0]
    return parse_ids(row[0]), parse_ids(row[1]), row[2] or ""


def _moved(jdb: JournalDB, store_id: int, window: str) -> np.ndarray:
    """The ids of the window whose updated_at is not the one last seen (the slack re-reads
    only rows that moved, not every row of the last minute)."""
    pairs = dict(item.split(":", 1) for item in window.split(",") if item)
    if not pairs:
        return np.empty(0, dtype=np.int64)
    with jdb.read() as jconn:
        seen = rec.baselines(jconn, store_id, list(pairs))
    moved = [int(i) for i, at in pairs.items() if i not in seen or seen[i].stamp != at]
    return np.array(sorted(moved), dtype=np.int64)


def _incremental(
    jdb: JournalDB,
    conn: sqlite3.Connection,
    seen: Seen,
    stamp: str,
    now: int,
    counts: ScanCounts,
    mine: tuple[PendingWrites, int],
) -> Seen:
    store = seen.store
    conn.execute("BEGIN")
    try:
        all_ids, forgotten, window = _read_lists(conn, store.max_updated - SLACK_MS)
        updated = _moved(jdb, store.id, window)
        fresh = np.setdiff1d(all_ids, seen.ids, assume_unique=True)
        gone = np.setdiff1d(seen.ids, all_ids, assume_unique=True)
        # (ids are unique: the set operations need not sort 100,000 ids to find out;
        # intersect1d without assume_unique spent 44 ms per commit on it at 100,000 rows)
        still_there = seen.forgotten[np.isin(seen.forgotten, all_ids, assume_unique=True)]
        flipped = np.setxor1d(forgotten, still_there, assume_unique=True)
        wanted = np.union1d(np.union1d(updated, fresh), flipped)
        rows = fetch_rows(conn, [int(i) for i in wanted])
    finally:
        conn.execute("COMMIT")
    counts.rows += len(rows)
    max_updated = max([store.max_updated] + [int(r[7] or 0) for r in rows])
    writes, mark = mine
    targets = [str(r[0]) for r in rows] + [str(int(i)) for i in gone]
    compare = Compare(writes.of(store.path, targets), mark, now)
    with jdb.write() as jconn:
        compare.known = rec.baselines(jconn, store.id, targets)
        for row in rows:
            counts.recorded += _row_changes(jconn, store.id, row, compare)
        for gone_id in gone:
            counts.recorded += _gone(jconn, store.id, str(int(gone_id)), compare)
    writes.consume(store.path, compare.used)
    moved = rec.StoreRow(
        store.id, store.path, OBSERVATIONS, store.identity, stamp, max_updated, None, None
    )
    return _save_seen(jdb, Seen(moved, all_ids, forgotten))


def _row_changes(jconn: sqlite3.Connection, store_id: int, row: tuple, compare: Compare) -> int:
    """Compare one row read again with its baseline; record what the agent did to it."""
    target, now = str(row[0]), compare.now
    state = state_of(row)
    digest = state.digest()
    base = compare.known.get(target)
    if compare.match(target, digest, state.forgotten):
        _keep(jconn, store_id, row, now, base.version_id if base else None)
        return 0
    if base is not None and base.hash == digest and base.forgotten == state.forgotten:
        moved = rec.Baseline(base.hash, base.forgotten, str(row[7]), base.version_id)
        rec.set_baseline(jconn, store_id, target, moved)  # a duplicate: updated_at only
        return 0
    agent, chat = agent_of(row[9]), row[8]
    old_version = base.version_id if base else None
    mine = compare.replaced(target)
    if mine is not None and mine.hash is not None and mine.version is not None:
        # The person wrote this row, then the agent wrote it again: the person's text is the
        # one the agent replaced.
        topic = state.topic_key is not None
        old_version = rec.add_version(jconn, store_id, target, mine.version, now, topic)
    previous_hash = mine.hash if mine is not None and mine.hash is not None else None
    previous_hash = previous_hash or (base.hash if base else None)
    previous_forgotten = mine.forgotten if mine is not None else (base.forgotten if base else False)
    new_version = _keep(jconn, store_id, row, now)
    count = 0
    if previous_hash is None:
        at = int(row[7] or now)
        found = rec.Finding(target, ChangeKind.NEW, at, agent, chat, None, new_version)
        rec.add_change(jconn, store_id, found, now)
        count += 1
    elif previous_hash != digest:
        at = int(row[7] or now)
        found = rec.Finding(target, ChangeKind.REVISED, at, agent, chat, old_version, new_version)
        rec.add_change(jconn, store_id, found, now)
        count += 1
    if state.forgotten and not previous_forgotten and previous_hash is not None:
        at = int(row[5] or now)
        # The row's tool_name says who saved it, not who forgot it: the plugin, by no named tool.
        found = rec.Finding(target, ChangeKind.FORGOTTEN, at, AGENT, chat, new_version, new_version)
        rec.add_change(jconn, store_id, found, now)
        count += 1
    if old_version is not None:
        rec.drop_version_if_unused(jconn, old_version)
    return count


def _gone(jconn: sqlite3.Connection, store_id: int, target: str, compare: Compare) -> int:
    now = compare.now
    base = compare.known.get(target)
    rec.drop_baseline(jconn, store_id, target)
    if compare.match(target, None, False):
        if base is not None:
            rec.drop_version_if_unused(jconn, base.version_id)
        return 0
    old = base.version_id if base else None
    mine = compare.replaced(target)
    if mine is not None and mine.version is not None:
        old = rec.add_version(jconn, store_id, target, mine.version, now, False)
    found = rec.Finding(target, ChangeKind.DELETED, now, AGENT, None, old, None)
    rec.add_change(jconn, store_id, found, now)
    return 1


def expect(
    writes: PendingWrites, db: str, states: dict[int, ObservationState | None], now: int
) -> None:
    """Note the person's own writes, before they commit (see :mod:`.witness`): memory only."""
    for row_id, state in states.items():
        if state is None:
            fields: dict = {"hash": None, "forgotten": False}
        else:
            fields = {"hash": state.digest(), "forgotten": state.forgotten}
            fields["version"] = version_of(state)
        writes.add(db, str(row_id), {**fields, "at_ms": now})
