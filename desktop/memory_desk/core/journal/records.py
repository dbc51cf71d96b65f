"""Reading and writing the journal's rows: stores, baselines, versions, changes.

Functions take a connection already inside the caller's transaction, so a scan's findings
land all together or not at all.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

from memory_desk.core.journal.db import pack_version, path_key, path_text, safe_text, unpack_version
from memory_desk.core.journal.model import Change, ChangeKind, Version

CHUNK = 500  # ids per IN (json_each) list


@dataclass
class StoreRow:
    """What the journal knows of one store since its last scan."""

    id: int
    path: str
    kind: str
    identity: str | None
    stamp: str | None
    max_updated: int
    ids: bytes | None
    forgotten: bytes | None
    signature: bytes | None = None


@dataclass(frozen=True)
class Baseline:
    """One target as last seen: its state hash, forgotten flag, stat stamp and text."""

    hash: str
    forgotten: bool
    stamp: str | None
    version_id: int | None


def chunks(items: list, size: int = CHUNK) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def store_row(conn: sqlite3.Connection, path: str) -> StoreRow | None:
    row = conn.execute(
        "SELECT id, path, kind, identity, stamp, max_updated, ids, forgotten, signature"
        " FROM stores WHERE path = ?",
        (path_key(path),),
    ).fetchone()
    if row is None:
        return None
    return StoreRow(row[0], path_text(row[1]), *row[2:])


def ensure_store(conn: sqlite3.Connection, path: str, kind: str) -> int:
    key = path_key(path)
    conn.execute("INSERT INTO stores(path, kind) VALUES (?, ?) ON CONFLICT DO NOTHING", (key, kind))
    return conn.execute("SELECT id FROM stores WHERE path = ?", (key,)).fetchone()[0]


def forget_baseline(conn: sqlite3.Connection, store_id: int) -> None:
    """Drop what was seen of a store (not its changes): the next scan is a new baseline."""
    conn.execute("DELETE FROM targets WHERE store_id = ?", (store_id,))
    conn.execute("DELETE FROM pending WHERE store_id = ?", (store_id,))
    conn.execute(
        "UPDATE stores SET identity = NULL, stamp = NULL, max_updated = 0, ids = NULL,"
        " forgotten = NULL, signature = NULL WHERE id = ?",
        (store_id,),
    )


def baselines(conn: sqlite3.Connection, store_id: int, targets: list[str]) -> dict[str, Baseline]:
    found: dict[str, Baseline] = {}
    for part in chunks(targets):
        rows = conn.execute(
            "SELECT target, hash, forgotten, stamp, version_id FROM targets WHERE store_id = ?"
            " AND target IN (SELECT value FROM json_each(?))",
            (store_id, json.dumps(part)),
        ).fetchall()
        for target, hash_, forgotten, stamp, version_id in rows:
            found[target] = Baseline(hash_, bool(forgotten), stamp, version_id)
    return found


def all_baselines(conn: sqlite3.Connection, store_id: int) -> dict[str, Baseline]:
    rows = conn.execute(
        "SELECT target, hash, forgotten, stamp, version_id FROM targets WHERE store_id = ?",
        (store_id,),
    ).fetchall()
    return {t: Baseline(h, bool(f), s, v) for t, h, f, s, v in rows}


def set_baseline(
    conn: sqlite3.Connection,
    store_id: int,
    target: str,
    state: Baseline,
) -> None:
    conn.execute(
        "INSERT INTO targets(store_id, target, hash, forgotten, stamp, version_id)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(store_id, target) DO UPDATE SET"
        " hash = excluded.hash, forgotten = excluded.forgotten, stamp = excluded.stamp,"
        " version_id = excluded.version_id",
        (store_id, target, state.hash, int(state.forgotten), state.stamp, state.version_id),
    )


def drop_baseline(conn: sqlite3.Connection, store_id: int, target: str) -> None:
    conn.execute("DELETE FROM targets WHERE store_id = ? AND target = ?", (store_id, target))


def add_versions(
    conn: sqlite3.Connection, store_id: int, now: int, rows: list[tuple]
) -> list[int | None]:
    """A first look's texts and baselines in bulk: ``rows`` of (target, hash, forgotten,
    stamp, topic, packed version or None). Version ids are taken after the largest one,
    inside the caller's write transaction (no other writer can take them meanwhile).
    Returns each row's version id."""
    next_id = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM versions").fetchone()[0]
    versions, targets, made = [], [], []
    for target, hash_, forgotten, stamp, topic, data in rows:
        version_id = None
        if data is not None:
            version_id = next_id
            next_id += 1
            versions.append((version_id, store_id, target, now, topic, data))
        targets.append((store_id, target, hash_, forgotten, stamp, version_id))
        made.append(version_id)
    conn.executemany(
        "INSERT INTO versions(id, store_id, target, seen_ms, topic, data)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        versions,
    )
    conn.executemany(
        "INSERT OR REPLACE INTO targets(store_id, target, hash, forgotten, stamp, version_id)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        targets,
    )
    return made


def add_version(
    conn: sqlite3.Connection, store_id: int, target: str, version: Version, now: int, topic: bool
) -> int:
    cur = conn.execute(
        "INSERT INTO versions(store_id, target, seen_ms, topic, data) VALUES (?, ?, ?, ?, ?)",
        (store_id, target, now, int(topic), pack_version(version)),
    )
    return int(cur.lastrowid)


def drop_version_if_unused(conn: sqlite3.Connection, version_id: int | None) -> None:
    """Delete a version no baseline and no change points to any more."""
    if version_id is None:
        return
    conn.execute(
        "DELETE FROM versions WHERE id = :v AND NOT EXISTS (SELECT 1 FROM changes WHERE"
        " old_version = :v OR new_version = :v) AND NOT EXISTS (SELECT 1 FROM targets"
        " WHERE version_id = :v)",
        {"v": version_id},
    )


@dataclass(frozen=True)
class Finding:
    """A change about to be recorded."""

    target: str
    kind: ChangeKind
    at_ms: int
    agent: str
    chat: str | None
    old_version: int | None
    new_version: int | None


def add_change(conn: sqlite3.Connection, store_id: int, found: Finding, now: int) -> None:
    conn.execute(
        "INSERT INTO changes(store_id, target, kind, at_ms, seen_ms, agent, chat, old_version,"
        " new_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            store_id,
            found.target,
            str(found.kind),
            found.at_ms,
            now,
            safe_text(found.agent),
            found.chat,
            found.old_version,
            found.new_version,
        ),
    )


def latest_change(conn: sqlite3.Connection, store_id: int, target: str) -> tuple | None:
    """(id, kind, seen_ms, reviewed, new_version) of the target's newest change."""
    return conn.execute(
        "SELECT id, kind, seen_ms, reviewed, new_version FROM changes WHERE store_id = ?"
        " AND target = ? ORDER BY id DESC LIMIT 1",
        (store_id, target),
    ).fetchone()


CHANGE_SQL = (
    "SELECT c.id, s.path, s.kind, c.target, c.kind, c.at_ms, c.seen_ms, c.agent, c.chat,"
    " o.data, n.data, c.reviewed FROM changes c JOIN stores s ON s.id = c.store_id"
    " LEFT JOIN versions o ON o.id = c.old_version LEFT JOIN versions n ON n.id = c.new_version"
)


def to_change(row: tuple) -> Change:
    cid, path, store_kind, target, kind, at_ms, seen_ms, agent, chat, old, new, reviewed = row
    return Change(
        id=cid,
        store=path_text(path),
        store_kind=store_kind,
        target=target,
        kind=ChangeKind(kind),
        at_ms=at_ms,
        seen_ms=seen_ms,
        agent=agent,
        chat=chat,
        old=unpack_version(old) if old is not None else None,
        new=unpack_version(new) if new is not None else None,
        reviewed=bool(reviewed),
    )
