"""The :class:`Journal` facade: the one object the app keeps.

Scans run on a worker (they read the stores); the window only calls the short reads
(:meth:`Journal.changes`, counts) and the review marks. The person's own writes are reported
from the writer's thread before they land, noted in memory and written ahead into the file
(:mod:`.pending`): a save waits for the journal only briefly (:data:`WRITE_AHEAD_WAIT_MS`). Every call is thread-safe: one connection per thread on the journal's WAL file,
one lock per store so that two scans of the same store never interleave, and one lock for
what is kept in memory between scans.

A journal file that cannot be opened or read does not stop the app: the journal opens in a
"damaged" state (:attr:`Journal.problem`), every call but :meth:`Journal.clear` (which starts
a new file) and :meth:`Journal.close` raises the StoreError that says so, and the person's
writes are not noted.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from memory_desk.core import appdirs
from memory_desk.core.errors import StoreError
from memory_desk.core.journal import db as db_mod
from memory_desk.core.journal import first_look, observations, persona
from memory_desk.core.journal import limits as limits_mod
from memory_desk.core.journal import pending as pending_mod
from memory_desk.core.journal import records as rec
from memory_desk.core.journal.db import JournalDB, path_key
from memory_desk.core.journal.model import (
    OBSERVATIONS,
    PERSONA,
    Change,
    JournalLimits,
    ObservationState,
)
from memory_desk.core.journal.pending import Pending, PendingWrites
from memory_desk.core.messages import msg

log = logging.getLogger(__name__)

JOURNAL_FILE_NAME = "journal.sqlite"
# How long the person's write waits for the journal's lock to write its intent ahead; past
# that it is noted in memory only (kept if the window closes, not if it is killed).
WRITE_AHEAD_WAIT_MS = 250
DEFAULT_LIMITS = JournalLimits()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def store_key(path: Path | str) -> str:
    """The store's name in the journal: its absolute path, as given (links kept)."""
    return str(Path(path).absolute())


class Journal:
    """Memory Desk's private journal file. Every public call is safe from several threads."""

    def __init__(self, path: Path, limits: JournalLimits = DEFAULT_LIMITS) -> None:
        """Open (or create) the journal; never raises: a file that cannot be used leaves
        the journal damaged (:attr:`problem`)."""
        self._db = JournalDB(Path(path))
        self._limits = limits
        self._lock = threading.Lock()
        self._store_locks: dict[str, threading.Lock] = {}
        self._writes = PendingWrites()
        self._memory: dict[str, object] = {}  # per store, what its scans keep between scans
        self._generation = 0  # bumped when that memory is no longer true (clear, prune)
        self._flushed = -1
        self._error: StoreError | None = None
        self.pause = lambda: time.sleep(observations.PAUSE_S)  # between a first look's batches
        self.looks = first_look.Looks()  # a big store's first look runs in a child process
        self.last_scan = observations.ScanCounts()  # what the last scan read (tests, bench)
        self._restarted = db_mod.found_empty(Path(path))
        self._looked_ms: int | None = None  # when a scan last ended (kept at close)
        self._looked_kept = True
        self._open()

    def _open(self) -> None:
        try:
            self._sync_enabled(self._limits)
            with self._db.read() as conn:
                self._writes.load(conn)
                row = conn.execute("SELECT value FROM meta WHERE key = 'looked_ms'").fetchone()
            if row is not None and str(row[0]).isdigit():
                self._looked_ms = int(row[0])
            self._flushed = self._writes.changed()
        except StoreError as exc:
            self._error = exc
            self._db.close()
        except (ValueError, TypeError) as exc:  # a row this version cannot read
            self._error = StoreError(db_mod.damaged_message(self.path, str(exc)))
            self._db.close()

    @staticmethod
    def default_path() -> Path:
        """``<data dir>/journal.sqlite`` (0600 in a 0700 folder)."""
        return appdirs.data_dir() / JOURNAL_FILE_NAME

    @staticmethod
    def remove_files(path: Path) -> None:
        """Delete the journal file at ``path`` with its WAL (no Journal open on it)."""
        db_mod.remove_files(Path(path))

    @property
    def path(self) -> Path:
        return self._db.path

    @property
    def problem(self) -> str | None:
        """Why the journal cannot be used (a message for the person), or None."""
        return self._error.args[0] if self._error is not None else None

    @property
    def restarted(self) -> str | None:
        """A message for the person when the history had to start again at this open (the
        journal's file was found empty: what the agents changed before is not listed)."""
        if not self._restarted:
            return None
        return msg(
            "Journal",
            "Memory Desk's history of changes had to start again: its file {path} was found"
            " empty (after a crash, or a full disk). What the agents changed before now is not"
            " listed; what they change from now on is.",
            path=str(self.path),
        )

    @property
    def looked_ms(self) -> int | None:
        """When a scan of a store last ended: in this run, else in the last one (kept in the
        file at close), so the review can say when Memory Desk last looked; None: never."""
        with self._lock:
            return self._looked_ms

    def _note_look(self) -> None:
        with self._lock:
            self._looked_ms, self._looked_kept = now_ms(), False

    def _keep_look(self) -> None:
        """Write when the last scan ended (at close: not a write per scan)."""
        with self._lock:
            looked, kept = self._looked_ms, self._looked_kept
        if looked is None or kept:
            return
        with self._db.write() as conn:
            conn.execute(
                "INSERT INTO meta(key, value) VALUES ('looked_ms', ?) ON CONFLICT(key)"
                " DO UPDATE SET value = excluded.value",
                (str(looked),),
            )
        with self._lock:
            self._looked_kept = True

    def _check(self) -> None:
        error = self._error
        if error is not None:
            raise type(error)(*error.args)

    @property
    def limits(self) -> JournalLimits:
        """The limits in force (off: scans and the person's writes record nothing)."""
        return self._limits

    def set_limits(self, limits: JournalLimits) -> None:
        """Apply new limits. Turning the journal back on forgets what was seen (not the
        changes): what happened while it was off, the person's writes included, is unknown,
        so the next scan is a new baseline rather than a list of false changes."""
        self._limits = limits
        self._check()
        if self._sync_enabled(limits):
            self._forget_memory()
        if limits.enabled:
            self.prune()

    def _sync_enabled(self, limits: JournalLimits) -> bool:
        """Record on/off in the file (only when it changes); True when turned back on."""
        wanted = "1" if limits.enabled else "0"
        with self._db.read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'enabled'").fetchone()
        if row is not None and row[0] == wanted:
            return False
        with self._db.write() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'enabled'").fetchone()
            was_on = row is None or row[0] == "1"
            if limits.enabled and not was_on:
                for (store_id,) in conn.execute("SELECT id FROM stores").fetchall():
                    rec.forget_baseline(conn, store_id)
            conn.execute(
                "INSERT INTO meta(key, value) VALUES ('enabled', ?) ON CONFLICT(key)"
                " DO UPDATE SET value = excluded.value",
                (wanted,),
            )
        return limits.enabled and not was_on

    def _store_lock(self, key: str) -> threading.Lock:
        with self._lock:
            return self._store_locks.setdefault(key, threading.Lock())

    def _forget_memory(self, key: str | None = None, writes: bool = True) -> None:
        """What scans kept in memory is no longer true (of one store, or all)."""
        with self._lock:
            self._generation += 1
            if key is None:
                self._memory.clear()
                if writes:
                    self._writes.drop_store()
            else:
                self._memory.pop(key, None)

    def _remember(self, key: str, value: object, generation: int) -> None:
        with self._lock:
            if generation == self._generation:
                self._memory[key] = value

    def _recall(self, key: str) -> tuple[object, int]:
        with self._lock:
            return self._memory.get(key), self._generation

    def scan_observations(self, db: Path) -> int:
        """Compare the observations store with what was last seen; return the changes
        recorded. The first scan of a store (or of a replaced file) is a silent baseline;
        ``last_scan`` tells which, and how much was read."""
        self._check()
        if not self._limits.enabled:
            return 0
        key = store_key(db)
        with self._store_lock(key):
            seen, generation = self._recall(key)
            counts = observations.ScanCounts()
            budget = int(self._limits.max_bytes * first_look.SHARE)
            ctx = observations.ScanContext(
                self._writes, seen, self.pause, looks=self.looks, budget=budget
            )
            try:
                seen = observations.scan(self._db, Path(key), now_ms(), counts, ctx)
            except BaseException:
                self._forget_memory(key)
                raise
            self._remember(key, seen, generation)
            self.last_scan = counts
        self._note_look()
        self._flush()
        if counts.opened:
            self.prune()
        return counts.recorded

    def scan_persona(self, folder: Path, agent: str) -> int:
        """Compare a persona folder with what was last seen; return the changes recorded.
        ``agent`` is the agent's name as the sidebar shows it."""
        self._check()
        if not self._limits.enabled:
            return 0
        key = store_key(folder)
        counts: dict = {}
        with self._store_lock(key):
            known, generation = self._recall(key)
            try:
                mine = (self._writes, known, self.pause)
                known = persona.scan(self._db, Path(key), agent, now_ms(), counts, mine)
            except BaseException:
                self._forget_memory(key)
                raise
            self._remember(key, known, generation)
            self.last_scan = observations.ScanCounts(rows=counts.get("files_read", 0))
        self._note_look()
        self._flush()
        if counts.get("files_read") or counts.get("recorded"):
            self.prune()
        return counts.get("recorded", 0)

    def expect_observations(
        self,
        db: Path,
        states: Mapping[int, ObservationState | None],
        before: Mapping[int, tuple] | None = None,
    ) -> None:
        """The person's own writes: what the next scan will find for these rows (None: the
        row is gone). A scan that finds exactly that takes it as seen and lists nothing.
        ``before``: (state, updated_at, deleted_at) of each row as it was just before the
        write, so that an agent's change that landed in between is still listed.
        Memory only: the writer never waits for the journal's file."""
        if self._limits.enabled and states and self._error is None:
            key = store_key(db)
            self._writes.kind(key, OBSERVATIONS)
            noted = observations.expect(
                self._writes, key, dict(states), now_ms(), dict(before or {})
            )
            self._write_ahead(key, OBSERVATIONS, noted)

    def withdraw_observations(self, db: Path, ids: list[int]) -> None:
        """The person's write did not commit: forget what was expected of it."""
        self._withdraw(db, [str(i) for i in ids])

    def withdraw_persona(self, folder: Path, name: str) -> None:
        """The person's write of the entry ``name`` did not happen: forget it."""
        self._withdraw(folder, [name])

    def _withdraw(self, store: Path, targets: list[str]) -> None:
        if not targets:
            return
        dropped = self._writes.withdraw(store_key(store), targets)
        if dropped and self._error is None:
            with contextlib.suppress(StoreError), self._db.write(WRITE_AHEAD_WAIT_MS) as conn:
                conn.executemany(
                    "DELETE FROM pending WHERE target = ? AND seq = ? AND store_id IN"
                    " (SELECT id FROM stores WHERE path = ?)",
                    [(target, seq, path_key(store_key(store))) for target, seq in dropped],
                )

    def expect_persona(self, folder: Path, name: str, text: str | None) -> None:
        """The person's own write of one entry (``text`` None: removed), before it lands:
        noted in memory and written ahead into the file (:meth:`_write_ahead`)."""
        if self._limits.enabled and self._error is None:
            key = store_key(folder)
            self._writes.kind(key, PERSONA)
            noted = persona.expect(self._writes, key, name, text, now_ms())
            self._write_ahead(key, PERSONA, [(name, noted)])

    def _write_ahead(self, key: str, kind: str, noted: list[tuple[str, Pending]]) -> None:
        """Make the person's writes about to land durable in the journal's file (committed:
        a kill of the window keeps them). A file busy past :data:`WRITE_AHEAD_WAIT_MS`, or
        that cannot be written, leaves them noted in memory only (logged)."""
        if not noted:
            return
        try:
            with self._db.write(WRITE_AHEAD_WAIT_MS) as conn:
                store_id = rec.ensure_store(conn, key, kind)
                rows = [pending_mod.row_of(store_id, target, p) for target, p in noted]
                conn.executemany(pending_mod.INSERT_SQL, rows)
        except StoreError as exc:
            log.warning("journal: the person's write is noted in memory only: %s", exc)

    def _flush(self) -> None:
        """Copy the person's writes still waiting into the file (if they changed)."""
        changed = self._writes.changed()
        if changed == self._flushed:
            return
        with self._db.write() as conn:
            self._writes.flush(conn, lambda key, kind: rec.ensure_store(conn, key, kind))
        self._flushed = changed

    def changes(
        self, *, store: str | None = None, include_reviewed: bool = False, limit: int = 1000
    ) -> list[Change]:
        """Changes, newest first (at_ms, id)."""
        self._check()
        where, params = self._filter(store, include_reviewed)
        sql = f"{rec.CHANGE_SQL}{where} ORDER BY c.at_ms DESC, c.id DESC LIMIT ?"
        with self._db.read() as conn:
            rows = conn.execute(sql, (*params, limit)).fetchall()
        return [rec.to_change(row) for row in rows]

    def change(self, change_id: int) -> Change | None:
        """One change by id, or None once pruned or cleared."""
        self._check()
        with self._db.read() as conn:
            row = conn.execute(f"{rec.CHANGE_SQL} WHERE c.id = ?", (change_id,)).fetchone()
        return rec.to_change(row) if row else None

    def pending_count(self, store: str | None = None) -> int:
        """How many changes wait for review (of one store, or all)."""
        self._check()
        where, params = self._filter(store, False)
        sql = f"SELECT count(*) FROM changes c JOIN stores s ON s.id = c.store_id{where}"
        with self._db.read() as conn:
            return int(conn.execute(sql, params).fetchone()[0])

    def pending_targets(self, store: str) -> set[str]:
        """Targets (entry names, observation ids as text) with an unreviewed change."""
        self._check()
        where, params = self._filter(store, False)
        sql = f"SELECT DISTINCT c.target FROM changes c JOIN stores s ON s.id = c.store_id{where}"
        with self._db.read() as conn:
            return {row[0] for row in conn.execute(sql, params).fetchall()}

    def mark_reviewed(self, change_ids: Iterable[int]) -> None:
        """Mark these changes reviewed (ids pruned meanwhile are ignored)."""
        self._check()
        with self._db.write() as conn:
            conn.executemany(
                "UPDATE changes SET reviewed = 1 WHERE id = ?", [(int(i),) for i in change_ids]
            )

    def mark_all_reviewed(self, store: str | None = None) -> None:
        """Mark every change (of one store) reviewed."""
        self._check()
        with self._db.write() as conn:
            if store is None:
                conn.execute("UPDATE changes SET reviewed = 1 WHERE reviewed = 0")
            else:
                conn.execute(
                    "UPDATE changes SET reviewed = 1 WHERE reviewed = 0 AND store_id IN"
                    " (SELECT id FROM stores WHERE path = ?)",
                    (path_key(store_key(store)),),
                )

    def size_bytes(self) -> int:
        """The journal's real size on disk (database and WAL)."""
        self._check()
        return self._db.size_bytes()

    def clear(self) -> None:
        """Forget everything; the next scan of each store takes a new baseline. Works on a
        damaged journal too: it starts a new file (StoreError if even that fails)."""
        self._forget_memory()
        self.looks.stop_all()  # a first look under way would write into the old file
        with self._lock:
            self._db.remove_files()
            self._error = None
            self._restarted = False  # the person started it again
        self._open()
        self._check()

    def prune(self) -> None:
        """Apply the age and size limits (scans call it after reading a store)."""
        self._check()
        now = now_ms()
        self._writes.expire(now - limits_mod.EXPECTED_FOR_MS)
        if limits_mod.prune(self._db, self._limits, now):
            self._forget_memory(writes=False)  # baselines lost their texts: read them again

    def close(self) -> None:
        """Keep the person's writes still waiting, stop the first looks under way, then close
        the connections (safe twice)."""
        self.looks.close()
        if self._error is None:
            with contextlib.suppress(StoreError):
                self._flush()
                self._keep_look()
        self._db.close()

    @staticmethod
    def _filter(store: str | None, include_reviewed: bool) -> tuple[str, tuple]:
        clauses, params = [], []
        if store is not None:
            clauses.append("s.path = ?")
            params.append(path_key(store_key(store)))
        if not include_reviewed:
            clauses.append("c.reviewed = 0")
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(params)
