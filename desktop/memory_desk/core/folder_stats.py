"""One ``lstat`` pass over a folder, and the lock of whoever reads a whole folder.

A pass is one ``lstat`` per name (:class:`FolderStats`), taken when asked: every reader of a
folder (the watcher's baseline and rescans, the persona page's listing, the journal, the
leftover check) takes its own. :func:`reading_lock` lets whoever reads every file of a folder
(the persona listing) keep other bulk readers of it (the watcher's rescan) waiting meanwhile.

Pure Python, no Qt; any thread.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from dataclasses import dataclass

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


def take(path: str | os.PathLike[str]) -> FolderStats:
    """A pass over the folder at ``path``, started now. Raises the ``OSError`` of the listing
    itself (a missing or unreadable folder)."""
    return _pass(os.fspath(path))
