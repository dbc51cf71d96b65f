"""The person's own writes, noted before they land, until a scan sees them.

Each write of the person's is noted here (memory, a lock-protected structure) and written
ahead, durably, as a row of the journal's table ``pending`` before the store is written
(:meth:`~.journal.Journal.expect_persona`, :meth:`~.journal.Journal.expect_observations`):
the journal is SQLite in WAL mode, and a committed row survives a SIGKILL of the window, so a
crash at any point after the intent leaves the journal knowing whose change it is. The
intent is settled when a scan sees the write (consumed here; the scans and
:meth:`Journal.close` copy what still waits into the table). The person's save never waits
long for it: the write-ahead gives up after a short wait for the journal's lock (another
thread's long write), and the write is then noted in memory only, as before.

Each target keeps a short list of the person's writes, oldest first, numbered (``seq``,
kept across sessions): two quick saves of one entry are two expected texts, and a scan that
reads the store between them finds the first. A scan only uses up the writes reported
before it started reading the store (``seq <= mark``): a later one may not have landed yet.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sqlite3
import threading
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from memory_desk.core.journal.db import pack_json, pack_version, path_text, unpack_version
from memory_desk.core.journal.model import Version

INTENT_LEVEL = 1  # zlib level of what is written ahead: fast, it lives until the next scan
PLAIN_UP_TO = 2048  # characters of an observation written ahead as plain JSON
MAX_PER_TARGET = 16  # a person who saves one entry more often than scans run: the newest kept


@dataclass(frozen=True)
class Before:
    """A row as it was just before the person's write first touched it (observations): if
    it is not what the journal last saw, the agent changed it in between."""

    hash: str
    forgotten: bool
    updated_at: int
    deleted_at: int | None
    version: Version


@dataclass(frozen=True)
class Pending:
    """One write of the person's: ``hash`` None means the target is gone (deleted, removed).

    ``version`` is the text written (for an "old" side if the agent overwrites it), or
    ``text`` for a persona entry (parsed only if it is ever needed); both None when the text
    was too large to keep."""

    seq: int
    hash: str | None
    forgotten: bool
    at_ms: int
    version: Version | None = None
    text: str | None = None
    before: Before | None = None


class PendingWrites:
    """Per store, per target, the person's writes not yet seen by a scan (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seq = itertools.count(1)
        self._last = 0
        self._stores: dict[str, dict[str, list[Pending]]] = {}
        self._changed = 0  # bumped at each change, so a flush knows it has work
        self._kinds: dict[str, str] = {}  # store: "observations" | "persona"

    def kind(self, store: str, kind: str) -> None:
        """Say what kind of store ``store`` is (for the copy in the file)."""
        with self._lock:
            self._kinds[store] = kind

    def add(self, store: str, target: str, pending: dict, seq: int | None = None) -> Pending:
        """Note one write (``pending``: the fields of :class:`Pending` but ``seq``; ``seq``
        given: a write an earlier session numbered) and return it."""
        with self._lock:
            if seq is None:
                seq = next(self._seq)
            elif seq >= self._last:
                self._seq = itertools.count(seq + 1)
            self._last = max(self._last, seq)
            items = self._stores.setdefault(store, {}).setdefault(target, [])
            made = Pending(seq=seq, **pending)
            items.append(made)
            del items[:-MAX_PER_TARGET]
            self._changed += 1
            return made

    def withdraw(self, store: str, targets: Iterable[str]) -> list[tuple[str, int]]:
        """The newest write of each target did not commit: forget it; returns (target, seq)
        of what was forgotten."""
        dropped = []
        with self._lock:
            found = self._stores.get(store, {})
            for target in targets:
                items = found.get(target)
                if items:
                    dropped.append((target, items.pop().seq))
                    if not items:
                        del found[target]
            self._changed += 1
        return dropped

    def mark(self) -> int:
        """The newest write reported so far (a scan takes it before reading the store)."""
        with self._lock:
            return self._last

    def of(self, store: str, targets: Iterable[str]) -> dict[str, list[Pending]]:
        """The writes waiting for these targets (copies)."""
        with self._lock:
            found = self._stores.get(store, {})
            return {t: list(found[t]) for t in targets if t in found}

    def targets(self, store: str) -> list[str]:
        with self._lock:
            return list(self._stores.get(store, {}))

    def consume(self, store: str, used: dict[str, int]) -> None:
        """Drop, for each target, the writes up to ``seq`` (the scan saw them or later)."""
        if not used:
            return
        with self._lock:
            found = self._stores.get(store, {})
            for target, seq in used.items():
                items = [p for p in found.get(target, []) if p.seq > seq]
                if items:
                    found[target] = items
                else:
                    found.pop(target, None)
            self._changed += 1

    def consume_all(self, store: str, mark: int) -> None:
        """Drop every write of the store up to ``mark`` (a first look took them in)."""
        with self._lock:
            found = self._stores.get(store, {})
            for target in list(found):
                found[target] = [p for p in found[target] if p.seq > mark]
                if not found[target]:
                    del found[target]
            self._changed += 1

    def expire(self, before_ms: int) -> None:
        """Forget writes no scan saw within a day (they never will be)."""
        with self._lock:
            for found in self._stores.values():
                for target in list(found):
                    found[target] = [p for p in found[target] if p.at_ms >= before_ms]
                    if not found[target]:
                        del found[target]
            self._changed += 1

    def drop_store(self, store: str | None = None) -> None:
        """Forget the writes of one store, or all (clear, journal turned back on)."""
        with self._lock:
            if store is None:
                self._stores.clear()
            else:
                self._stores.pop(store, None)
            self._changed += 1

    def changed(self) -> int:
        with self._lock:
            return self._changed

    def flush(self, conn: sqlite3.Connection, store_id_of) -> None:  # noqa: ANN001 - a callable
        """Copy what waits into the table ``pending`` (inside the caller's transaction);
        ``store_id_of(path, kind)`` gives the store's row id."""
        with self._lock:
            snapshot = {s: {t: list(i) for t, i in f.items()} for s, f in self._stores.items()}
            kinds = dict(self._kinds)
        rows = []
        for store, found in snapshot.items():
            if not found:
                continue
            store_id = store_id_of(store, kinds.get(store, "observations"))
            for target, items in found.items():
                rows += [row_of(store_id, target, p) for p in items]
        conn.execute("DELETE FROM pending")
        conn.executemany(INSERT_SQL, rows)

    def load(self, conn: sqlite3.Connection) -> None:
        """Take back what an earlier session left waiting."""
        rows = conn.execute(
            "SELECT s.path, s.kind, p.target, p.hash, p.forgotten, p.data, p.at_ms, p.before,"
            " p.seq FROM pending p JOIN stores s ON s.id = p.store_id ORDER BY p.seq"
        ).fetchall()
        for path, kind, target, hash_, forgotten, data, at_ms, before, seq in rows:
            version = _unpack_data(data) if data is not None else None
            fields = {"hash": hash_, "forgotten": bool(forgotten), "at_ms": at_ms}
            fields["before"] = unpack_before(before, version)
            self.kind(path_text(path), kind)
            self.add(path_text(path), target, {**fields, "version": version}, seq=seq)


INSERT_SQL = (
    "INSERT OR REPLACE INTO pending(store_id, target, seq, hash, forgotten, data, at_ms, before)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def settle(conn: sqlite3.Connection, store_id: int, used: dict[str, int]) -> None:
    """Take the writes a scan saw out of the table ``pending``, in the scan's own
    transaction: a kill after it never brings them back as still waiting."""
    conn.executemany(
        "DELETE FROM pending WHERE store_id = ? AND target = ? AND seq <= ?",
        [(store_id, target, seq) for target, seq in used.items()],
    )


def row_of(store_id: int, target: str, p: Pending) -> tuple:
    """One write as the table ``pending`` keeps it."""
    data, before = _data(target, p), pack_before(p.before, p.version)
    return (store_id, target, p.seq, p.hash, int(p.forgotten), data, p.at_ms, before)


@dataclass
class Compare:
    """One scan's comparison: the person's writes waiting for its targets (``mark``: the
    newest reported before the store was read), the targets' baselines (``known``), and
    the writes it used up (``used``, for :meth:`PendingWrites.consume`)."""

    pending: dict[str, list[Pending]]
    mark: int
    now: int
    known: dict = field(default_factory=dict)
    used: dict[str, int] = field(default_factory=dict)
    matched: dict[str, Pending] = field(default_factory=dict)

    def match(self, target: str, digest: str | None, forgotten: bool = False) -> bool:
        """The person wrote exactly this (``digest`` None: removed it): used up; the write
        is kept in ``matched``."""
        for item in reversed(self.pending.get(target, [])):
            if item.hash == digest and (digest is None or item.forgotten == forgotten):
                self.used[target] = max(item.seq, self.used.get(target, 0))
                self.matched[target] = item
                return True
        return False

    def until(self, target: str, last: Pending) -> list[Pending]:
        """The person's writes of ``target`` up to ``last``, oldest first."""
        return [item for item in self.pending.get(target, []) if item.seq <= last.seq]

    def replaced(self, target: str) -> Pending | None:
        """The person's newest write the agent's change replaced (landed before the read)."""
        earlier = [item for item in self.pending.get(target, []) if item.seq <= self.mark]
        if not earlier:
            return None
        self.used[target] = max(earlier[-1].seq, self.used.get(target, 0))
        return earlier[-1]


def _data(target: str, pending: Pending) -> bytes | None:
    if pending.version is not None:
        return _small_or_packed(pending.version)
    if pending.text is not None:  # a persona entry: kept as its file text
        return pack_version(
            Version(title=target, description="", type="", body="", raw=pending.text),
            INTENT_LEVEL,
        )
    return None


def _small_or_packed(version: Version) -> bytes:
    """An observation's text as written ahead: plain JSON when short (a compressor's set-up
    cost more than it saves: a bulk pin writes thousands), else as :func:`pack_version`."""
    if len(version.body) + len(version.title) > PLAIN_UP_TO:
        return pack_version(version, INTENT_LEVEL)
    fields = list(dataclasses.astuple(version))
    return json.dumps(fields, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _unpack_data(data: bytes) -> Version:
    if data[:1] == b"[":  # plain JSON (zlib's output never starts so)
        return Version(*json.loads(data.decode("utf-8", "surrogatepass")))
    return unpack_version(data)


def pack_before(before: Before | None, after: Version | None = None) -> bytes | None:
    """A before-state as the table ``pending`` keeps it (zlib of JSON); its text is left out
    when it is the write's own (``after``: a pin, a forget)."""
    if before is None:
        return None
    head = [before.hash, int(before.forgotten), before.updated_at, before.deleted_at]
    if before.version == after:
        return json.dumps([*head, None]).encode("utf-8")
    version = list(dataclasses.astuple(before.version))
    return pack_json(json.dumps([*head, version], ensure_ascii=False), INTENT_LEVEL)


def unpack_before(data: bytes | None, after: Version | None = None) -> Before | None:
    if data is None:
        return None
    plain = data[:1] == b"["  # (zlib's output never starts so)
    text = (data if plain else zlib.decompress(data)).decode("utf-8", "surrogatepass")
    hash_, forgotten, updated_at, deleted_at, fields = json.loads(text)
    version = after if fields is None else Version(*fields)
    if version is None:
        return None  # (the write's text was not kept either)
    return Before(hash_, bool(forgotten), updated_at, deleted_at, version)
