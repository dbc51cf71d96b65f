"""A store's first look: every row's text and hash taken as known, in batches.

Why a process of its own: a first look at a big store is long per-row Python (a hash, a
compressed text, a journal row). On a worker thread of the window's process it would hold
the interpreter's lock in turn with the window's thread, and every scroll frame, sort and
live refresh would wait behind it. A store of more than :data:`IN_PROCESS_ROWS` ids is
looked at by a child process (``memory-desk --journal-first-look``, lowered priority) that
writes the journal's rows itself; the scan's thread only waits for it, its lock released. A
small store, or a machine where the child cannot be started, is looked at in the scan's
thread.

What the look read comes back as :class:`Look`: the ids seen, the forgotten ids among them,
the newest ``updated_at`` and how many rows. The child prints it on its standard output (a
JSON line, then the two id arrays as raw native int64). A child that fails says why on its
standard error; one that is killed (the journal closed, or cleared, or a crash) leaves a
partial baseline that the next scan starts again (the store's stamp is written only after).
The child ends by itself when the window's process is gone (its parent changes).

The child also gives way to the window (:class:`GiveWay`): between two batches it looks at
how much CPU the window's process used since the last batch, and while the window works it
waits until the window has been quiet for :data:`QUIET_S`. On a machine of two cores the
child's batches slow the window's Python even at a lower priority (the cores share their
caches), and a person scrolling or typing should not wait for a look that nobody is
waiting for.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory_desk.core import give_way
from memory_desk.core.errors import StoreError
from memory_desk.core.journal import records as rec
from memory_desk.core.journal.db import JournalDB, pack_json
from memory_desk.core.journal.limits import history_bytes
from memory_desk.core.journal.model import row_digest
from memory_desk.core.journal.reading import cannot_read, open_read_only
from memory_desk.core.messages import msg

FLAG = "--journal-first-look"  # memory_desk.app.main hands argv after it to child_main
IN_PROCESS_ROWS = 5000  # a store with fewer ids than this is looked at in the scan's thread
CHILD_NICE = 10  # the child gives way to the window's process
BASELINE_LEVEL = 1  # zlib level of a first look's texts (fast; a change's texts use 6)
# A version as :func:`~.db.pack_version` writes it, built by SQLite while it reads the row
# (in C, the GIL released).
VERSION_JSON = (
    "json_array(coalesce(title, ''), coalesce(topic_key, ''), coalesce(type, ''),"
    " coalesce(content, ''), NULL, coalesce(revision_count, 0), project, scope, session_id,"
    " tool_name)"
)
COLUMNS = "id, type, title, content, topic_key, deleted_at, revision_count, updated_at"
# Newest first: the texts kept when the journal's budget runs out are the newest.
NEWEST_SQL = "SELECT {columns}, {text} FROM observations WHERE id < ? ORDER BY id DESC LIMIT ?"
BY_ID_SQL = (
    "SELECT {columns}, {text} FROM observations WHERE id IN (SELECT value FROM json_each(?))"
)
TOPIC_IDS_SQL = "SELECT id FROM observations WHERE topic_key IS NOT NULL"
SHARE = 0.9  # of the journal's size limit a first look may fill with texts (room for changes)
# A text's bytes in the journal's pages (its row, its index entry, the pages' free space) per
# byte of compressed text: SQLite's dbstat gives 1.17 at 100,000 rows. Counting the texts
# alone, a first look would write past its limit.
TEXT_ON_DISK = 1.2
# Giving way to the window (:class:`GiveWay`):
QUIET_S = 0.5  # the window quiet this long before a look goes on
STEP_S = 0.05  # how often a waiting look looks again
MOST_WAIT_S = 5.0  # a window that never rests still gets a batch this often
SPAN_SQL = (
    "SELECT coalesce((SELECT max(id) FROM observations), 0)"
    " - coalesce((SELECT min(id) FROM observations), 0) + 1"
)


@dataclass
class Look:
    """What a first look read: ids (in no order), forgotten ids, newest ``updated_at``, rows,
    and the pid that did the work (this process's, or a child's)."""

    ids: array = field(default_factory=lambda: array("q"))
    forgotten: array = field(default_factory=lambda: array("q"))
    max_updated: int = 0
    rows: int = 0
    pid: int = 0
    spent: int = 0  # the journal's bytes, about: its size at the start and what was written
    waited: float = 0.0  # seconds the child gave way to the window (:class:`GiveWay`)


def span(conn: sqlite3.Connection) -> int:
    """How many ids the store's id range spans (two index look-ups, not a count)."""
    return int(conn.execute(SPAN_SQL).fetchone()[0] or 0)


def take(
    conn: sqlite3.Connection,
    jdb: JournalDB,
    store_id: int,
    now: int,
    batch: int,
    pause: Callable[[], None],
    budget: int,
) -> Look:
    """The first look itself, in this process: each batch is one read (its texts built by
    SQLite), one bulk write, then ``pause``.

    Texts are kept while the journal's history (what the size limit counts: all but the
    baselines, :mod:`.limits`) is under ``budget`` bytes, in the order the size limit keeps
    them: rows with a topic_key first, then the others, newest first in each. Beyond the
    budget a row is taken with its hash and no text, instead of writing texts that pruning
    would delete again (for a big store, many times the limit, at great cost)."""
    look = Look(pid=os.getpid(), spent=history_bytes(jdb))
    topics = sorted((row[0] for row in conn.execute(TOPIC_IDS_SQL)), reverse=True)
    for start in range(0, len(topics), batch):
        part = json.dumps(topics[start : start + batch])
        _take_rows(conn, jdb, store_id, now, look, budget, BY_ID_SQL, (part,))
        pause()
    with_topic = frozenset(topics)
    last = 2**63 - 1
    while rows := _take_rows(
        conn, jdb, store_id, now, look, budget, NEWEST_SQL, (last, batch), skip=with_topic
    ):
        last = rows[-1][0]
        pause()
    return look


def _take_rows(
    conn: sqlite3.Connection,
    jdb: JournalDB,
    store_id: int,
    now: int,
    look: Look,
    budget: int,
    sql: str,
    params: tuple,
    skip: frozenset = frozenset(),
) -> list[tuple]:
    """Read one batch and write its baselines (texts while under ``budget``); returns the
    rows read, the skipped ones included. The budget counts the bytes written, not the
    file's size: the WAL grows by whole pages until a checkpoint, and the file only then."""
    text = VERSION_JSON if look.spent < budget else "NULL"
    rows = conn.execute(sql.format(columns=COLUMNS, text=text), params).fetchall()
    taken = [row for row in rows if row[0] not in skip] if skip else rows
    if taken:
        look.rows += len(taken)
        look.ids.extend(row[0] for row in taken)
        look.forgotten.extend(row[0] for row in taken if row[5] is not None)
        look.max_updated = max(look.max_updated, max(int(row[7] or 0) for row in taken))
        made = [_baseline_row(row) for row in taken]
        texts = sum(len(row[5]) for row in made if row[5] is not None)
        look.spent += int(texts * TEXT_ON_DISK)
        with jdb.write() as jconn:
            rec.add_versions(jconn, store_id, now, made)
    return rows


def _baseline_row(row: tuple) -> tuple:
    """(target, hash, forgotten, stamp, topic, packed text or None) of a row a batch read."""
    id_, type_, title, content, topic_key, deleted_at, revision, updated_at, text = row
    digest = row_digest(type_ or "", title or "", content or "", topic_key, int(revision or 0))
    forgotten, topic = int(deleted_at is not None), int(topic_key is not None)
    data = pack_json(text, BASELINE_LEVEL) if text is not None else None
    return (str(id_), digest, forgotten, str(updated_at), topic, data)


def command() -> list[str]:
    """How to start this program again as a first look's child (a bundle is its own
    interpreter)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, FLAG]
    return [sys.executable, "-m", "memory_desk", FLAG]


class Looks:
    """The first looks under way in child processes: :meth:`stop_all` kills them (the
    journal being cleared; a look started after that runs as usual), :meth:`close` kills
    them and starts no more (the journal or the window closing)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[int, subprocess.Popen] = {}
        self._closed = False

    @property
    def pids(self) -> list[int]:
        with self._lock:
            return list(self._running)

    def run(
        self, journal: Path, db: Path, store_id: int, now: int, batch: int, budget: int
    ) -> Look | None:
        """The first look of ``db`` by a child; None when no child could be started (the
        caller looks in its own thread). StoreError when the child failed or was killed."""
        numbers = (store_id, now, batch, budget, os.getpid())
        argv = [*command(), str(journal), str(db), *(str(n) for n in numbers)]
        with self._lock:  # (held while starting: close() then finds the child, or none starts)
            if self._closed:
                raise StoreError(_failed(db, -int(signal.SIGTERM), b""))
            try:
                child = subprocess.Popen(
                    argv,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    close_fds=True,
                )
            except OSError:
                return None
            self._running[child.pid] = child
        try:
            out, err = child.communicate()
        finally:
            with self._lock:
                self._running.pop(child.pid, None)
        if child.returncode != 0:
            raise StoreError(_failed(db, child.returncode, err))
        return _parse(out, child.pid, db)

    def close(self) -> None:
        """Kill every child under way and start no more: a window closing would otherwise
        wait for a look of a big store before it can end."""
        with self._lock:
            self._closed = True
        self.stop_all()

    def stop_all(self) -> None:
        """Kill every child under way (their scans raise StoreError; the scans reap them)."""
        with self._lock:
            children = list(self._running.values())
        for child in children:
            with contextlib.suppress(OSError):
                child.kill()


def _failed(db: Path, code: int, err: bytes) -> str:
    said = err.decode("utf-8", "replace").strip().splitlines()
    if code > 0 and said:
        return said[-1]
    detail = f"signal {-code}" if code < 0 else f"exit {code}"
    return msg(
        "Journal",
        "Memory Desk's first look at {path} stopped before its end ({detail}); it will look"
        " again at the next change",
        path=str(db),
        detail=detail,
    )


def _parse(out: bytes, pid: int, db: Path) -> Look:
    header, _, rest = out.partition(b"\n")
    try:
        head = json.loads(header)
        n_ids, n_forgotten = int(head["ids"]), int(head["forgotten"])
        ids, forgotten = array("q"), array("q")
        ids.frombytes(rest[: 8 * n_ids])
        forgotten.frombytes(rest[8 * n_ids : 8 * (n_ids + n_forgotten)])
        if len(ids) != n_ids or len(forgotten) != n_forgotten:
            raise ValueError("short output")
        look = Look(ids, forgotten, int(head["max_updated"]), int(head["rows"]), pid)
        look.waited = float(head.get("waited", 0.0))
        return look
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreError(_failed(db, 1, str(exc).encode())) from exc


class GiveWay(give_way.GiveWay):
    """A first look's pause between batches in the child: while the window's process
    (``pid``) is working, wait until it has been quiet for :data:`QUIET_S`, at most
    :data:`MOST_WAIT_S` at a time (:mod:`memory_desk.core.give_way`)."""

    def __init__(self, pid: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.pid = pid
        super().__init__(
            lambda: give_way.process_cpu_ns(pid),
            quiet_s=QUIET_S,
            most_wait_s=MOST_WAIT_S,
            step_s=STEP_S,
            clock=clock,
        )


def child_main(argv: list[str]) -> int:
    """``memory-desk --journal-first-look JOURNAL DB STORE_ID NOW BATCH BUDGET PARENT_PID``: the
    child's side. Prints the :class:`Look` (see the module's docstring); 1 on an error, 3
    when the parent went away."""
    journal, db, store_id, now, batch, budget, parent = argv
    with contextlib.suppress(OSError, AttributeError):
        os.nice(CHILD_NICE)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    parent_pid = int(parent)

    giving_way = GiveWay(parent_pid)

    def pause() -> None:
        if os.getppid() != parent_pid:
            raise SystemExit(3)
        giving_way()
        if os.getppid() != parent_pid:  # (it may have died while the look waited)
            raise SystemExit(3)

    jdb = JournalDB(Path(journal))
    try:
        conn = open_read_only(Path(db))
        try:
            numbers = int(store_id), int(now), int(batch)
            look = take(conn, jdb, *numbers, pause, int(budget))
        finally:
            conn.close()
    except StoreError as exc:
        print(exc.args[0], file=sys.stderr)
        return 1
    except sqlite3.Error as exc:
        print(cannot_read(Path(db), str(exc)), file=sys.stderr)
        return 1
    finally:
        jdb.close()
    head = {"ids": len(look.ids), "forgotten": len(look.forgotten)}
    head |= {"max_updated": look.max_updated, "rows": look.rows, "waited": giving_way.waited}
    out = sys.stdout.buffer
    out.write(json.dumps(head).encode() + b"\n")
    out.write(look.ids.tobytes())
    out.write(look.forgotten.tobytes())
    out.flush()
    return 0
