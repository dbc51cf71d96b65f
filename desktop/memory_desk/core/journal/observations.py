"""The observations scan: what changed in a ``memory.sqlite`` since the journal last looked.

Cheap by construction (the store has 100,000 rows, the agent changes a few):
1. a stat of the db and its ``-wal`` (identity, sizes, mtimes): unchanged, nothing is read;
2. one pass over a covering index gives three id lists (all ids, forgotten ids, ids updated
   since the newest ``updated_at`` seen, minus a slack for a save that waited for the lock);
   numpy compares them with the ids seen;
3. only the rows that are new, updated, newly forgotten or restored are read whole.

The store is opened read-only (``mode=ro``): never a write, a journal_mode change or a
checkpoint on the agent's file. The first scan of a store is a silent baseline, read in
batches of ids (short read transactions, so the agent's checkpoints are never held back).
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memory_desk.core.errors import StoreError
from memory_desk.core.journal import records as rec
from memory_desk.core.journal.db import JournalDB, pack_version
from memory_desk.core.journal.model import OBSERVATIONS, ChangeKind, ObservationState, Version
from memory_desk.core.messages import msg

# A save computes updated_at, then may wait up to the plugin's busy_timeout (5 s) for the
# write lock: rows updated this long before the newest one seen are read again.
SLACK_MS = 60_000
BASELINE_BATCH = 2000
ROW_COLUMNS = (
    "id, type, title, content, topic_key, deleted_at, revision_count, updated_at, session_id,"
    " tool_name"
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


def open_read_only(db: Path) -> sqlite3.Connection:
    """A read-only connection on the agent's file: ``mode=ro``, a short busy wait."""
    try:
        conn = sqlite3.connect(db.as_uri() + "?mode=ro", uri=True, isolation_level=None)
        conn.text_factory = lambda b: b.decode("utf-8", "replace")
        conn.execute("PRAGMA busy_timeout = 1000")
        conn.execute("PRAGMA query_only = 1")
    except sqlite3.Error as exc:
        raise StoreError(cannot_read(db, str(exc))) from exc
    return conn


def cannot_read(db: Path, detail: str) -> str:
    return msg(
        "Journal",
        "Memory Desk could not compare {path} with what it last saw ({detail}); it will try"
        " again at the next change",
        path=str(db),
        detail=detail,
    )


def state_of(row: tuple) -> ObservationState:
    _id, type_, title, content, topic_key, deleted_at, revision, *_ = row
    return ObservationState(
        type=type_ or "",
        title=title or "",
        content=content or "",
        topic_key=topic_key,
        forgotten=deleted_at is not None,
        revision_count=int(revision or 0),
    )


def version_of(state: ObservationState) -> Version:
    return Version(
        title=state.title,
        description=state.topic_key or "",
        type=state.type,
        body=state.content,
        revision=state.revision_count,
    )


def agent_of(tool_name: str | None) -> str:
    return f"{AGENT} · {tool_name}" if tool_name else AGENT


def parse_ids(joined: str | None) -> np.ndarray:
    if not joined:
        return np.empty(0, dtype=np.int64)
    return np.array(joined.split(","), dtype=np.int64) if len(joined) < 64 else _fast(joined)


def _fast(joined: str) -> np.ndarray:
    return np.fromstring(joined, dtype=np.int64, sep=",")


def as_blob(ids: np.ndarray) -> bytes:
    return np.ascontiguousarray(np.sort(ids), dtype="<i8").tobytes()


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


def scan(jdb: JournalDB, db: Path, now: int, counts: ScanCounts | None = None) -> int:
    """Record what changed in ``db`` since the last scan; return how many changes."""
    counts = counts if counts is not None else ScanCounts()
    path = str(db)
    stamped = stamp_of(db)
    if stamped is None:
        return 0
    identity, stamp = stamped
    with jdb.read() as jconn:
        store = rec.store_row(jconn, path)
    if store is not None and store.stamp == stamp:
        return 0
    counts.opened = True
    conn = open_read_only(db)
    try:
        if store is None or store.identity != identity or store.ids is None:
            counts.baseline = True
            counts.replaced = store is not None and store.identity not in (None, identity)
            _baseline(jdb, conn, db, identity, stamp, now, counts)
            return 0
        return _incremental(jdb, conn, store, stamp, now, counts)
    except sqlite3.Error as exc:
        raise StoreError(cannot_read(db, str(exc))) from exc
    finally:
        conn.close()


def _baseline(
    jdb: JournalDB,
    conn: sqlite3.Connection,
    db: Path,
    identity: str,
    stamp: str,
    now: int,
    counts: ScanCounts,
) -> None:
    """Take what the store holds as known, silently, in batches."""
    path = str(db)
    with jdb.write() as jconn:
        store_id = rec.ensure_store(jconn, path, OBSERVATIONS)
        rec.forget_baseline(jconn, store_id)
    all_ids: list[int] = []
    forgotten: list[int] = []
    max_updated, last = 0, -(2**63)
    while True:
        rows = conn.execute(
            f"SELECT {ROW_COLUMNS} FROM observations WHERE id > ? ORDER BY id LIMIT ?",
            (last, BASELINE_BATCH),
        ).fetchall()
        if not rows:
            break
        counts.rows += len(rows)
        last = rows[-1][0]
        with jdb.write() as jconn:
            for row in rows:
                state = state_of(row)
                all_ids.append(row[0])
                if state.forgotten:
                    forgotten.append(row[0])
                max_updated = max(max_updated, int(row[7] or 0))
                _keep(jconn, store_id, row, now)
    with jdb.write() as jconn:
        jconn.execute(
            "UPDATE stores SET identity = ?, stamp = ?, max_updated = ?, ids = ?, forgotten = ?"
            " WHERE id = ?",
            (
                identity,
                stamp,
                max_updated,
                as_blob(np.array(all_ids, dtype=np.int64)),
                as_blob(np.array(forgotten, dtype=np.int64)),
                store_id,
            ),
        )


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
    store: rec.StoreRow,
    stamp: str,
    now: int,
    counts: ScanCounts,
) -> int:
    conn.execute("BEGIN")
    try:
        all_ids, forgotten, window = _read_lists(conn, store.max_updated - SLACK_MS)
        updated = _moved(jdb, store.id, window)
        known, known_forgotten = from_blob(store.ids), from_blob(store.forgotten)
        fresh = np.setdiff1d(all_ids, known, assume_unique=True)
        gone = np.setdiff1d(known, all_ids, assume_unique=True)
        flipped = np.setxor1d(forgotten, np.intersect1d(known_forgotten, all_ids))
        wanted = np.union1d(np.union1d(updated, fresh), flipped)
        rows = fetch_rows(conn, [int(i) for i in wanted])
    finally:
        conn.execute("COMMIT")
    counts.rows += len(rows)
    max_updated = max([store.max_updated] + [int(r[7] or 0) for r in rows])
    recorded = 0
    with jdb.write() as jconn:
        targets = [str(r[0]) for r in rows] + [str(int(i)) for i in gone]
        known_rows = rec.baselines(jconn, store.id, targets)
        expected = rec.expectations(jconn, store.id, targets)
        for row in rows:
            recorded += _row_changes(jconn, store.id, row, known_rows, expected, now)
        for gone_id in gone:
            recorded += _gone(jconn, store.id, str(int(gone_id)), known_rows, expected, now)
        rec.unexpect(jconn, store.id, expected)
        jconn.execute(
            "UPDATE stores SET stamp = ?, max_updated = ?, ids = ?, forgotten = ? WHERE id = ?",
            (stamp, max_updated, as_blob(all_ids), as_blob(forgotten), store.id),
        )
    counts.recorded += recorded
    return recorded


def _row_changes(
    jconn: sqlite3.Connection,
    store_id: int,
    row: tuple,
    known: dict[str, rec.Baseline],
    expected: dict[str, rec.Expected],
    now: int,
) -> int:
    """Compare one row read again with its baseline; record what the agent did to it."""
    target = str(row[0])
    state = state_of(row)
    digest = state.digest()
    base = known.get(target)
    mine = expected.get(target)
    if mine is not None and mine.hash == digest and mine.forgotten == state.forgotten:
        _keep(jconn, store_id, row, now, base.version_id if base else None)
        return 0
    if base is not None and base.hash == digest and base.forgotten == state.forgotten:
        moved = rec.Baseline(base.hash, base.forgotten, str(row[7]), base.version_id)
        rec.set_baseline(jconn, store_id, target, moved)  # a duplicate: updated_at only
        if mine is not None:
            expected.pop(target)  # the person's write has not landed yet: keep waiting
        return 0
    agent, chat = agent_of(row[9]), row[8]
    old_version = base.version_id if base else None
    if mine is not None and mine.hash is not None and mine.data is not None:
        # The person wrote this row, then the agent wrote it again: the person's text is the
        # one the agent replaced.
        topic = state.topic_key is not None
        old_version = rec.add_packed_version(jconn, store_id, target, mine.data, now, topic)
    previous_hash = mine.hash if mine is not None and mine.hash is not None else None
    previous_hash = previous_hash or (base.hash if base else None)
    previous_forgotten = mine.forgotten if mine is not None else (base.forgotten if base else False)
    new_version = _keep(jconn, store_id, row, now)
    count = 0
    if previous_hash is None:
        kind = ChangeKind.NEW
        at = int(row[7] or now)
        rec.add_change(
            jconn, store_id, rec.Finding(target, kind, at, agent, chat, None, new_version), now
        )
        count += 1
    elif previous_hash != digest:
        at = int(row[7] or now)
        found = rec.Finding(target, ChangeKind.REVISED, at, agent, chat, old_version, new_version)
        rec.add_change(jconn, store_id, found, now)
        count += 1
    if state.forgotten and not previous_forgotten and previous_hash is not None:
        at = int(row[5] or now)
        found = rec.Finding(target, ChangeKind.FORGOTTEN, at, agent, chat, new_version, new_version)
        rec.add_change(jconn, store_id, found, now)
        count += 1
    if old_version is not None:
        rec.drop_version_if_unused(jconn, old_version)
    return count


def _gone(
    jconn: sqlite3.Connection,
    store_id: int,
    target: str,
    known: dict[str, rec.Baseline],
    expected: dict[str, rec.Expected],
    now: int,
) -> int:
    base = known.get(target)
    rec.drop_baseline(jconn, store_id, target)
    mine = expected.get(target)
    if mine is not None and mine.hash is None:
        if base is not None:
            rec.drop_version_if_unused(jconn, base.version_id)
        return 0
    old = base.version_id if base else None
    if mine is not None and mine.data is not None:
        old = rec.add_packed_version(jconn, store_id, target, mine.data, now, False)
    found = rec.Finding(target, ChangeKind.DELETED, now, AGENT, None, old, None)
    rec.add_change(jconn, store_id, found, now)
    return 1


def expect(jdb: JournalDB, db: Path, states: dict[int, ObservationState | None], now: int) -> None:
    """Record the person's own writes, before they commit (see :mod:`.witness`)."""
    with jdb.write() as jconn:
        store_id = rec.ensure_store(jconn, str(db), OBSERVATIONS)
        for row_id, state in states.items():
            if state is None:
                mine = rec.Expected(None, False, None)
            else:
                data = pack_version(version_of(state))
                mine = rec.Expected(state.digest(), state.forgotten, data)
            rec.expect(jconn, store_id, str(row_id), mine, now)


def withdraw(jdb: JournalDB, db: Path, row_ids: list[int]) -> None:
    """Forget expectations whose write did not commit."""
    with jdb.write() as jconn:
        store = rec.store_row(jconn, str(db))
        if store is not None:
            rec.unexpect(jconn, store.id, [str(i) for i in row_ids])
