"""One ``lstat`` pass over a folder at a time, shared by everyone who needs one.

At start several readers list the same folder at once: the watcher's baseline, the persona
page, the watcher's rescan at its release and the journal's first look. A pass is one
``lstat`` call per file, each of which gives up the interpreter's lock, so passes running
beside each other slow each other down. Here one pass of a folder runs at a time, and a
reader takes one of three ways, saying what it needs:

- ``fresh=True``: a pass that starts after the call, so it sees every change made before the
  call (a rescan looking for changes, :meth:`PersonaFolder.entries`). A pass already under
  way that started before the call is waited for, and then one new pass serves every reader
  that waited.
- ``fresh=False`` joins a pass under way, or takes the last one if it ended less than
  :data:`REUSE_S` ago, else starts one. For readers whose later changes some other mechanism
  reports anyway: the persona page's first listing (the watcher's baseline is as old as the
  pass or older, so it reports whatever changed since) and the journal (its next look
  compares again).

Beside passes, :func:`reading_lock` lets whoever reads every file of a folder (the persona
listing) keep other bulk readers of it (the watcher's rescan) waiting meanwhile.

Pure Python, no Qt; any thread.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

REUSE_S = 1.0  # a non-fresh reader takes a pass that ended at most this long ago

Stat = os.stat_result | OSError  # the lstat of one name, or why it could not be taken


@dataclass(frozen=True)
class FolderStats:
    """One pass: every name in the folder with its ``lstat`` (or its error), and when the
    pass started (``time.time_ns()``, for the "changed too recently to trust" rule).

    Shared between threads: read it, never change it."""

    items: tuple[tuple[str, Stat], ...]
    started_ns: int

    def regular_or_link(self, suffix: str, *, hidden: bool = True) -> list[tuple[str, Stat]]:
        """The names ending in ``suffix`` that are not folders (errors included); without the
        hidden ones (named with a leading dot) when ``hidden`` is False."""
        return [
            (name, st)
            for name, st in self.items
            if name.endswith(suffix)
            and (hidden or name[:1] != ".")
            and (isinstance(st, OSError) or not stat.S_ISDIR(st.st_mode))
        ]


class _Pass:
    __slots__ = ("generation", "done", "result", "error", "ended")

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self.done = threading.Event()
        self.result: FolderStats | None = None
        self.error: OSError | None = None
        self.ended = 0.0

    def outcome(self) -> FolderStats:
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result


class _Passes:
    """The passes of every folder in this process (by the path string the readers give)."""

    def __init__(self, run: Callable[[str], FolderStats] | None = None) -> None:
        self._pass = run or _pass  # (tests hold a pass open with a gate of their own)
        self.runs = 0  # passes actually run (tests read it to prove readers share them)
        self.waiting = 0  # readers waiting for a pass under way
        self._guard = threading.Lock()
        self._generation = 0
        self._running: dict[str, _Pass] = {}
        self._last: dict[str, _Pass] = {}

    def take(self, path: str | os.PathLike[str], *, fresh: bool) -> FolderStats:
        key = os.fspath(path)
        with self._guard:
            asked = self._generation
        while True:
            mine = False
            with self._guard:
                current = self._running.get(key)
                last = self._last.get(key)
                if last is not None and time.monotonic() - last.ended > REUSE_S:
                    del self._last[key]  # (20,000 stats are megabytes: not kept for long)
                elif (
                    current is None and last is not None and (not fresh or last.generation > asked)
                ):
                    return last.outcome()  # (fresh: it started after the call)
                if current is None:
                    self._generation += 1
                    current = self._running[key] = _Pass(self._generation)
                    self.runs += 1
                    mine = True
            if mine:
                return self._run(key, current)
            with self._guard:
                self.waiting += 1
            current.done.wait()
            with self._guard:
                self.waiting -= 1
            if not fresh or current.generation > asked:
                return current.outcome()
            # It started before we asked: the next pass is ours (or another waiter's).

    def forget(self, path: str | os.PathLike[str] | None = None) -> None:
        """Drop the pass kept for reuse of the folder at ``path`` (None: of every folder;
        tests start from nothing with it)."""
        with self._guard:
            if path is None:
                self._last.clear()
            else:
                self._last.pop(os.fspath(path), None)

    def _run(self, key: str, current: _Pass) -> FolderStats:
        try:
            current.result = self._pass(key)
        except OSError as exc:
            current.error = exc
        finally:
            current.ended = time.monotonic()
            with self._guard:
                del self._running[key]
                if current.error is None:
                    self._last[key] = current
                else:
                    self._last.pop(key, None)
            current.done.set()
        return current.outcome()


def _pass(path: str) -> FolderStats:
    started = time.time_ns()
    items: list[tuple[str, Stat]] = []
    with os.scandir(path) as it:
        for item in it:
            try:
                items.append((item.name, item.stat(follow_symlinks=False)))
            except OSError as exc:
                items.append((item.name, exc))
    return FolderStats(tuple(items), started)


PASSES = _Passes()

_reading_locks: dict[str, threading.RLock] = {}
_reading_locks_guard = threading.Lock()


def reading_lock(path: str | os.PathLike[str]) -> threading.RLock:
    """The lock of whoever reads the folder at ``path`` (its real path) as a whole: one such
    reader at a time. A pass beside a listing that reads every file runs both in a convoy on
    the interpreter's lock (every ``lstat``, ``open`` and ``read`` gives it up and waits for
    it again), so both take longer than one after the other. Reentrant: a reader may hold it across calls that take it."""
    key = os.fspath(path)
    with _reading_locks_guard:
        lock = _reading_locks.get(key)
        if lock is None:
            lock = _reading_locks[key] = threading.RLock()
        return lock


def outdated(path: str | os.PathLike[str]) -> None:
    """The caller changed the folder at ``path`` (its real path): a pass kept for reuse is
    no longer given to anyone."""
    PASSES.forget(path)


def take(path: str | os.PathLike[str], *, fresh: bool = True) -> FolderStats:
    """A pass over the folder at ``path`` (see the module's notes for ``fresh``). Raises the
    ``OSError`` of the listing itself (a missing or unreadable folder)."""
    return PASSES.take(path, fresh=fresh)
