"""The observations scan: what changed in a ``memory.sqlite`` since the journal last looked.

Cheap by construction (the store has 100,000 rows, the agent changes a few):
1. a stat of the db and its ``-wal`` (identity, sizes, mtimes): unchanged, nothing is read;
2. one pass over a covering index gives every id with its signature (its ``updated_at``)
   and the forgotten ids; numpy compares them with the ids, signatures and forgotten ids
   seen;
3. only the rows that are new, gone, newly forgotten or restored, or whose signature differs
   are read whole.

Changes are found by what must differ, never by what is newer: the agent's clock is not
Memory Desk's (a container, another machine, a clock stepped back) and a save stamped ahead
of the clock must not hide the ones after it. Every write of the plugin sets ``updated_at``
to its own "now" (a revision, a duplicate, a rewrite), a forget sets ``deleted_at``, a new
row has a new id: a signature that is not exactly the one seen is a row to read, whether its
time went forward or back. (``revision_count`` and ``duplicate_count`` are not in the index,
and reading them means reading the whole table: the changes that move them move
``updated_at`` too. ``deleted_at`` is not in the signature: the forgotten ids tell it.)

The store is opened read-only (``mode=ro``): never a write, a journal_mode change or a
checkpoint on the agent's file. The first scan of a store is a silent baseline, read in
batches of ids (short read transactions, so the agent's checkpoints are never held back), by a
child process for a big store (:mod:`.first_look`).
"""

from __future__ import annotations

import hashlib
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
from memory_desk.core.journal.pending import Before, Compare, Pending, PendingWrites, settle
from memory_desk.core.journal.reading import cannot_read, open_read_only

# A journal from before signatures were kept: its first scan reads again the rows updated this
# long before the newest one seen, and every row whose updated_at is not its baseline's.
SLACK_MS = 60_000
SIGNATURE = 1  # numbers per id: its updated_at
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
    signature: np.ndarray | None = None  # (ids, SIGNATURE) beside the sorted ids; None: unknown


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
    """The stored form of ids already sorted (the caller's order is kept, not sorted again)."""
    return np.ascontiguousarray(sorted_ids, dtype="<i8").tobytes()


def from_blob(blob: bytes | None) -> np.ndarray:
    return np.frombuffer(blob or b"", dtype="<i8").astype(np.int64)


def signature_from_blob(blob: bytes | None, count: int) -> np.ndarray | None:
    """The stored signatures, if they match the ids (None: not kept, an older journal)."""
    if blob is None or len(blob) != 8 * SIGNATURE * count:
        return None
    return from_blob(blob).reshape(count, SIGNATURE)


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
    ids = from_blob(store.ids)
    return Seen(
        store, ids, from_blob(store.forgotten), signature_from_blob(store.signature, len(ids))
    )


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
    # Signatures taken before the look: a row written after this pass is read again by the
    # next scan (its signature differs), whatever the look saw of it.
    before_ids, before_signature, _forgotten = _read_signatures(conn)
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
    ids, forgotten = np.sort(np.array(look.ids, np.int64)), np.array(look.forgotten, np.int64)
    signature = np.full((len(ids), SIGNATURE), -1, dtype=np.int64)  # unknown: read again
    at = np.searchsorted(before_ids, ids).clip(0, max(len(before_ids) - 1, 0))
    found = before_ids[at] == ids if len(before_ids) else np.zeros(len(ids), bool)
    signature[found] = before_signature[at[found]]
    return _save_seen(jdb, Seen(store, ids, forgotten, signature))


def _save_seen(jdb: JournalDB, seen: Seen) -> Seen:
    """Write what was seen of the store (its stamp, sorted id lists and the signatures beside
    the ids) and return it."""
    store = seen.store
    sorted_ids, sorted_forgotten = seen.ids, np.sort(seen.forgotten)
    signature = seen.signature
    if signature is None or len(signature) != len(sorted_ids):
        sorted_ids, signature = np.sort(seen.ids), None
    ids, forgotten = as_blob(sorted_ids), as_blob(sorted_forgotten)
    signed = None if signature is None else as_blob(signature.reshape(-1))
    with jdb.write() as jconn:
        jconn.execute(
            "UPDATE stores SET identity = ?, stamp = ?, max_updated = ?, ids = ?, forgotten = ?,"
            " signature = ? WHERE id = ?",
            (store.identity, store.stamp, store.max_updated, ids, forgotten, signed, store.id),
        )
    store.ids, store.forgotten, store.signature = ids, forgotten, signed
    return Seen(store, sorted_ids, sorted_forgotten, signature)


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


def _read_signatures(conn: sqlite3.Connection) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every id, sorted, with its signature beside it, and the forgotten ids: one pass over
    a covering index (in the index's order: sorted here)."""
    row = conn.execute(
        "SELECT group_concat(id), group_concat(updated_at),"
        " group_concat(id) FILTER (WHERE deleted_at IS NOT NULL) FROM observations"
    ).fetchall()[0]
    try:
        ids, signature, forgotten = parse_ids(row[0]), parse_ids(row[1]), parse_ids(row[2])
    except ValueError:  # a time that is not a number (never the plugin's): one by one
        return _read_signatures_slowly(conn)
    if len(ids) != len(signature):  # a NULL updated_at (never the plugin's either)
        return _read_signatures_slowly(conn)
    order = np.argsort(ids)
    return ids[order], signature[order].reshape(-1, SIGNATURE), forgotten


def _read_signatures_slowly(conn: sqlite3.Connection) -> tuple[np.ndarray, ...]:
    rows = conn.execute("SELECT id, updated_at, deleted_at FROM observations ORDER BY id")
    found = [(i, _number(at), gone is not None) for i, at, gone in rows]
    array = np.array(found, dtype=np.int64).reshape(-1, 3)
    forgotten = array[array[:, 2] != 0, 0]
    return array[:, 0].copy(), array[:, 1:2].copy(), forgotten


def _number(value: object) -> int:
    """A column's value as a signature's number: a text (a hand-made store's date) by its hash."""
    if value is None:
        return -2
    if isinstance(value, int):
        return value
    digest = hashlib.blake2b(repr(value).encode("utf-8", "surrogatepass"), digest_size=7)
    return int.from_bytes(digest.digest(), "little")


def _written(writes: PendingWrites, path: str, ids: np.ndarray) -> np.ndarray:
    """The ids the person's writes waiting for this store name, among ``ids``."""
    named = [int(t) for t in writes.targets(path) if t.isdigit()]
    return np.intersect1d(np.array(named, dtype=np.int64), ids, assume_unique=True)


def _differing(seen: Seen, ids: np.ndarray, signature: np.ndarray) -> tuple[np.ndarray, ...]:
    """(ids not seen before, ids whose signature is not the one seen), of sorted ``ids``."""
    if len(seen.ids) == 0:
        return ids, np.empty(0, dtype=np.int64)
    n = len(seen.ids)
    if seen.signature is not None and len(ids) >= n and np.array_equal(ids[:n], seen.ids):
        # (the usual case: rows only added since; no search needed)
        moved = np.any(seen.signature != signature[:n], axis=1)
        return ids[n:], ids[:n][moved]
    at = np.searchsorted(seen.ids, ids).clip(0, len(seen.ids) - 1)
    known = seen.ids[at] == ids
    if seen.signature is None:
        return ids[~known], np.empty(0, dtype=np.int64)
    moved = known & np.any(seen.signature[at] != signature, axis=1)
    return ids[~known], ids[moved]


def _moved_since_baselines(
    jdb: JournalDB, store: rec.StoreRow, ids: np.ndarray, signature: np.ndarray
) -> np.ndarray:
    """A journal that kept no signatures (an older one): the ids whose updated_at is not
    their baseline's, and those updated within the slack of the newest seen."""
    with jdb.read() as jconn:
        rows = jconn.execute(
            "SELECT CAST(target AS INTEGER), CAST(stamp AS INTEGER) FROM targets"
            " WHERE store_id = ?",
            (store.id,),
        ).fetchall()
    stamps = dict(rows)
    updated = signature[:, 0]
    recent = updated >= store.max_updated - SLACK_MS
    moved = [
        int(i)
        for i, at, near in zip(ids.tolist(), updated.tolist(), recent.tolist(), strict=True)
        if near or stamps.get(i) != at
    ]
    return np.array(moved, dtype=np.int64)


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
        all_ids, signature, forgotten = _read_signatures(conn)
        fresh, updated = _differing(seen, all_ids, signature)
        if seen.signature is None:
            updated = _moved_since_baselines(jdb, store, all_ids, signature)
        kept = len(all_ids) >= len(seen.ids) and np.array_equal(all_ids[: len(seen.ids)], seen.ids)
        gone = seen.ids[:0] if kept else seen.ids[~np.isin(seen.ids, all_ids, assume_unique=True)]
        # (ids are unique: the set operations need not sort 100,000 ids to find out)
        still_there = seen.forgotten[np.isin(seen.forgotten, all_ids, assume_unique=True)]
        flipped = np.setxor1d(forgotten, still_there, assume_unique=True)
        wanted = np.union1d(np.union1d(updated, fresh), flipped)
        # The rows the person wrote are read too: a write that put a row back as it was
        # seen (a restore after the agent's forget) still tells what the agent did before.
        wanted = np.union1d(wanted, _written(mine[0], store.path, all_ids))
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
        settle(jconn, store.id, compare.used)
    writes.consume(store.path, compare.used)
    moved = rec.StoreRow(
        store.id, store.path, OBSERVATIONS, store.identity, stamp, max_updated, None, None
    )
    return _save_seen(jdb, Seen(moved, all_ids, forgotten, signature))


def _row_changes(jconn: sqlite3.Connection, store_id: int, row: tuple, compare: Compare) -> int:
    """Compare one row read again with its baseline; record what the agent did to it."""
    target, now = str(row[0]), compare.now
    state = state_of(row)
    digest = state.digest()
    base = compare.known.get(target)
    if compare.match(target, digest, state.forgotten):
        count = _before_mine(jconn, store_id, target, base, compare, compare.matched[target])
        _keep(jconn, store_id, row, now, base.version_id if base else None)
        return count
    if base is not None and base.hash == digest and base.forgotten == state.forgotten:
        moved = rec.Baseline(base.hash, base.forgotten, str(row[7]), base.version_id)
        rec.set_baseline(jconn, store_id, target, moved)  # a duplicate: updated_at only
        return 0
    agent, chat = agent_of(row[9]), row[8]
    old_version = base.version_id if base else None
    mine = compare.replaced(target)
    count = 0 if mine is None else _before_mine(jconn, store_id, target, base, compare, mine)
    if mine is not None and mine.hash is not None and mine.version is not None:
        # The person wrote this row, then the agent wrote it again: the person's text is the
        # one the agent replaced.
        topic = state.topic_key is not None
        old_version = rec.add_version(jconn, store_id, target, mine.version, now, topic)
    previous_hash = mine.hash if mine is not None and mine.hash is not None else None
    previous_hash = previous_hash or (base.hash if base else None)
    previous_forgotten = mine.forgotten if mine is not None else (base.forgotten if base else False)
    new_version = _keep(jconn, store_id, row, now)
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
        count = _before_mine(jconn, store_id, target, base, compare, compare.matched[target])
        if base is not None:
            rec.drop_version_if_unused(jconn, base.version_id)
        return count
    old = base.version_id if base else None
    mine = compare.replaced(target)
    count = 0 if mine is None else _before_mine(jconn, store_id, target, base, compare, mine)
    if mine is not None and mine.version is not None:
        old = rec.add_version(jconn, store_id, target, mine.version, now, False)
    found = rec.Finding(target, ChangeKind.DELETED, now, AGENT, None, old, None)
    rec.add_change(jconn, store_id, found, now)
    return count + 1


def _before_mine(
    jconn: sqlite3.Connection,
    store_id: int,
    target: str,
    base: rec.Baseline | None,
    compare: Compare,
    last: Pending,
) -> int:
    """The agent's changes that landed just before the person's writes of ``target`` (up to
    ``last``): each write's before-state is compared with what preceded it, the journal's
    baseline or the person's previous write; what differs is the agent's, recorded in
    order before the person's write is taken as seen."""
    previous: tuple[str | None, bool, int | Version | None] = (
        (base.hash, base.forgotten, base.version_id) if base else (None, False, None)
    )
    # States the person's writes or the baseline explain: a write noted ahead may never have
    # landed (killed before its COMMIT), so the next one finds the state before it.
    explained = {previous[:2]}
    count = 0
    for item in compare.until(target, last):
        before = item.before
        if before is not None and (before.hash, before.forgotten) not in explained:
            count += _agent_between(jconn, store_id, target, previous, before, compare.now)
        if before is not None:
            explained.add((before.hash, before.forgotten))
        explained.add((item.hash, item.forgotten))
        previous = (item.hash, item.forgotten, item.version)
    return count


def _agent_between(
    jconn: sqlite3.Connection,
    store_id: int,
    target: str,
    previous: tuple[str | None, bool, int | Version | None],
    before: Before,
    now: int,
) -> int:
    """Record the agent's change from ``previous`` (hash, forgotten, version id or text) to
    ``before``, the state the person's write found."""
    was_hash, was_forgotten, was = previous
    topic = before.version.description != ""
    new_version = rec.add_version(jconn, store_id, target, before.version, now, topic)
    old_version = was
    if isinstance(was, Version):
        old_version = rec.add_version(jconn, store_id, target, was, now, topic)
    agent, chat = agent_of(before.version.tool_name), before.version.session_id
    findings = []
    if was_hash is None:
        findings.append((ChangeKind.NEW, before.updated_at or now, agent, None))
    elif was_hash != before.hash:
        findings.append((ChangeKind.REVISED, before.updated_at or now, agent, old_version))
    if before.forgotten and not was_forgotten and was_hash is not None:
        at = before.deleted_at or now  # forgotten by the plugin, by no named tool
        findings.append((ChangeKind.FORGOTTEN, at, AGENT, new_version))
    for kind, at, who, old in findings:
        found = rec.Finding(target, kind, int(at), who, chat, old, new_version)
        rec.add_change(jconn, store_id, found, now)
    rec.drop_version_if_unused(jconn, new_version)
    if isinstance(was, Version):
        rec.drop_version_if_unused(jconn, old_version)
    return len(findings)


def expect(
    writes: PendingWrites,
    db: str,
    states: dict[int, ObservationState | None],
    now: int,
    before: dict[int, tuple] | None = None,
) -> list[tuple[str, Pending]]:
    """Note the person's own writes, before they commit (see :mod:`.witness`); returns them
    to be written ahead. ``before``: (state, updated_at, deleted_at) of the rows as they were
    before the write."""
    before = before or {}
    noted = []
    for row_id, state in states.items():
        if state is None:
            fields: dict = {"hash": None, "forgotten": False}
        else:
            fields = {"hash": state.digest(), "forgotten": state.forgotten}
            fields["version"] = version_of(state)
        was = before.get(row_id)
        if was is not None:
            old, updated_at, deleted_at = was
            fields["before"] = Before(
                old.digest(), old.forgotten, updated_at, deleted_at, version_of(old)
            )
        noted.append((str(row_id), writes.add(db, str(row_id), {**fields, "at_ms": now})))
    return noted
