"""The :class:`Journal` facade: the one object the app keeps.

Scans run on a worker (they read the stores); the window only calls the short reads
(:meth:`Journal.changes`, counts) and the review marks. Every call is thread-safe: one
connection per thread on the journal's WAL file, and one lock per store so that two scans of
the same store never interleave.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from memory_desk.core import appdirs
from memory_desk.core.errors import StoreError
from memory_desk.core.journal import limits as limits_mod
from memory_desk.core.journal import observations, persona
from memory_desk.core.journal import records as rec
from memory_desk.core.journal.db import JournalDB
from memory_desk.core.journal.model import Change, JournalLimits, ObservationState

JOURNAL_FILE_NAME = "journal.sqlite"
DEFAULT_LIMITS = JournalLimits()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def store_key(path: Path | str) -> str:
    """The store's name in the journal: its absolute path, as given (links kept)."""
    return str(Path(path).absolute())


class Journal:
    """Memory Desk's private journal file. Every public call is safe from several threads."""

    def __init__(self, path: Path, limits: JournalLimits = DEFAULT_LIMITS) -> None:
        self._db = JournalDB(Path(path))
        self._limits = limits
        self._lock = threading.Lock()
        self._store_locks: dict[str, threading.Lock] = {}
        self.last_scan = observations.ScanCounts()  # what the last scan read (tests, bench)
        with contextlib.suppress(StoreError):  # a damaged file: every call says so, clear() works
            self._sync_enabled(limits)

    @staticmethod
    def default_path() -> Path:
        """``<data dir>/journal.sqlite`` (0600 in a 0700 folder)."""
        return appdirs.data_dir() / JOURNAL_FILE_NAME

    @property
    def path(self) -> Path:
        return self._db.path

    @property
    def limits(self) -> JournalLimits:
        """The limits in force (off: scans and the person's writes record nothing)."""
        return self._limits

    def set_limits(self, limits: JournalLimits) -> None:
        """Apply new limits. Turning the journal back on forgets what was seen (not the
        changes): what happened while it was off, the person's writes included, is unknown,
        so the next scan is a new baseline rather than a list of false changes."""
        self._limits = limits
        self._sync_enabled(limits)
        if limits.enabled:
            self.prune()

    def _sync_enabled(self, limits: JournalLimits) -> None:
        with self._db.write() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'enabled'").fetchone()
            was_on = row is None or row[0] == "1"
            if limits.enabled and not was_on:
                for (store_id,) in conn.execute("SELECT id FROM stores").fetchall():
                    rec.forget_baseline(conn, store_id)
            conn.execute(
                "INSERT INTO meta(key, value) VALUES ('enabled', ?) ON CONFLICT(key)"
                " DO UPDATE SET value = excluded.value",
                ("1" if limits.enabled else "0",),
            )

    def _store_lock(self, key: str) -> threading.Lock:
        with self._lock:
            return self._store_locks.setdefault(key, threading.Lock())

    def scan_observations(self, db: Path) -> int:
        """Compare the observations store with what was last seen; return the changes
        recorded. The first scan of a store (or of a replaced file) is a silent baseline;
        ``last_scan`` tells which, and how much was read."""
        if not self._limits.enabled:
            return 0
        key = store_key(db)
        with self._store_lock(key):
            counts = observations.ScanCounts()
            found = observations.scan(self._db, Path(key), now_ms(), counts)
            self.last_scan = counts
        if counts.opened:
            self.prune()
        return found

    def scan_persona(self, folder: Path, agent: str) -> int:
        """Compare a persona folder with what was last seen; return the changes recorded.
        ``agent`` is the agent's name as the sidebar shows it."""
        if not self._limits.enabled:
            return 0
        key = store_key(folder)
        counts: dict = {}
        with self._store_lock(key):
            found = persona.scan(self._db, Path(key), agent, now_ms(), counts)
            self.last_scan = observations.ScanCounts(rows=counts.get("files_read", 0))
        if counts.get("files_read") or found:
            self.prune()
        return found

    def expect_observations(self, db: Path, states: Mapping[int, ObservationState | None]) -> None:
        """The person's own writes: what the next scan will find for these rows (None: the
        row is gone). A scan that finds exactly that takes it as seen and lists nothing."""
        if self._limits.enabled and states:
            observations.expect(self._db, Path(store_key(db)), dict(states), now_ms())

    def withdraw_observations(self, db: Path, ids: list[int]) -> None:
        """The person's write did not commit: forget what was expected of it."""
        if self._limits.enabled and ids:
            observations.withdraw(self._db, Path(store_key(db)), ids)

    def expect_persona(self, folder: Path, name: str, text: str | None) -> None:
        """The person's own write of one entry (``text`` None: removed)."""
        if self._limits.enabled:
            persona.expect(self._db, Path(store_key(folder)), name, text, now_ms())

    def changes(
        self, *, store: str | None = None, include_reviewed: bool = False, limit: int = 1000
    ) -> list[Change]:
        """Changes, newest first (at_ms, id)."""
        where, params = self._filter(store, include_reviewed)
        sql = f"{rec.CHANGE_SQL}{where} ORDER BY c.at_ms DESC, c.id DESC LIMIT ?"
        with self._db.read() as conn:
            rows = conn.execute(sql, (*params, limit)).fetchall()
        return [rec.to_change(row) for row in rows]

    def change(self, change_id: int) -> Change | None:
        """One change by id, or None once pruned or cleared."""
        with self._db.read() as conn:
            row = conn.execute(f"{rec.CHANGE_SQL} WHERE c.id = ?", (change_id,)).fetchone()
        return rec.to_change(row) if row else None

    def pending_count(self, store: str | None = None) -> int:
        """How many changes wait for review (of one store, or all)."""
        where, params = self._filter(store, False)
        sql = f"SELECT count(*) FROM changes c JOIN stores s ON s.id = c.store_id{where}"
        with self._db.read() as conn:
            return int(conn.execute(sql, params).fetchone()[0])

    def pending_targets(self, store: str) -> set[str]:
        """Targets (entry names, observation ids as text) with an unreviewed change."""
        where, params = self._filter(store, False)
        sql = f"SELECT DISTINCT c.target FROM changes c JOIN stores s ON s.id = c.store_id{where}"
        with self._db.read() as conn:
            return {row[0] for row in conn.execute(sql, params).fetchall()}

    def mark_reviewed(self, change_ids: Iterable[int]) -> None:
        """Mark these changes reviewed (ids pruned meanwhile are ignored)."""
        with self._db.write() as conn:
            conn.executemany(
                "UPDATE changes SET reviewed = 1 WHERE id = ?", [(int(i),) for i in change_ids]
            )

    def mark_all_reviewed(self, store: str | None = None) -> None:
        """Mark every change (of one store) reviewed."""
        with self._db.write() as conn:
            if store is None:
                conn.execute("UPDATE changes SET reviewed = 1 WHERE reviewed = 0")
            else:
                conn.execute(
                    "UPDATE changes SET reviewed = 1 WHERE reviewed = 0 AND store_id IN"
                    " (SELECT id FROM stores WHERE path = ?)",
                    (store_key(store),),
                )

    def size_bytes(self) -> int:
        """The journal's real size on disk (database and WAL)."""
        return self._db.size_bytes()

    def clear(self) -> None:
        """Forget everything; the next scan of each store takes a new baseline. Works on a
        damaged journal too: it starts a new file."""
        with self._lock:
            self._db.remove_files()
        self._sync_enabled(self._limits)

    def prune(self) -> None:
        """Apply the age and size limits (scans call it after reading a store)."""
        limits_mod.prune(self._db, self._limits, now_ms())

    def close(self) -> None:
        """Close the journal's connections (safe twice)."""
        self._db.close()

    @staticmethod
    def _filter(store: str | None, include_reviewed: bool) -> tuple[str, tuple]:
        clauses, params = [], []
        if store is not None:
            clauses.append("s.path = ?")
            params.append(store_key(store))
        if not include_reviewed:
            clauses.append("c.reviewed = 0")
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(params)
