"""The persona page's reading of its folder, off the window's thread.

Opening a folder parses every file in it, which the window's thread must not wait for. The
page lists on a worker (:func:`list_folder`, through a ``BackgroundCall``) with the folder
object it shows: nothing else uses that object until the listing is done, and the page shows
the newest entries as soon as the core has read them (``progress``), then all of them.

After that, the agent's writes are found by comparing the stat keys of the folder's files
(:func:`scan_keys`, also on a worker: one ``stat`` call per file) with those of the
scan before: only the files that changed are read again, on the window's thread, by the folder
itself. A file changed within ``RACY_NS`` of a scan may change again without its stat key
changing (file times have a coarse clock): it counts as changed at the next scan too.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from memory_desk.core import StoreError, folder_stats
from memory_desk.core.folder_stats import FolderStats
from memory_desk.core.persona import FolderProblem, PersonaEntry, PersonaFolder, reading
from memory_desk.core.persona.entry import could_not_list
from memory_desk.core.persona.folder_problems import listing_problems
from memory_desk.core.persona.reading import is_entry_file_name, stat_key
from memory_desk.core.persona.scan import Progress, has_at_most
from memory_desk.ui.persona.rows import order_key

FIRST_SCREEN = 300  # entries the page shows before the rest are read
SMALL_FOLDER = 300  # a folder with at most this many entry files is listed at once, in place
# A file that looks half-written but was left alone this long is taken as it is (a person may
# leave a file that way); changed more recently, its read is not shown (see half_written).
HALF_WRITTEN_QUIET_NS = 1_000_000_000

# file name: (stat key, or None when it could not be taken; whether it was changed so recently
# that the same key may hide a newer version; (size, mtime_ns))
StatKeys = dict[str, tuple[tuple[int, ...] | None, bool, tuple[int, int]]]


@dataclass(frozen=True)
class FirstScreen:
    """The entries read first (the newest files), in the final listing's order."""

    read: int
    total: int
    entries: list[PersonaEntry]


@dataclass(frozen=True)
class Listed:
    """A whole listing, with what the page needs beside it, all made on the worker.

    ``stat_keys`` gives the stat keys of the folder's files as the listing saw them; they are
    made the first time they are asked for (by the page's first scan, on its worker), not
    before the listing is shown. ``unsure``: a file was not read in the version its key says
    (see :func:`list_folder`): the page scans again at once. ``held``: the names of the
    entries whose read caught the agent in the middle of a write: the page does not show them
    until a later read finds them whole."""

    entries: list[PersonaEntry]
    problems: list[FolderProblem]
    stat_keys: Callable[[], StatKeys] = field(repr=False)
    unsure: bool = False
    held: frozenset[str] = frozenset()  # entries read half-written (:func:`half_written`)

    @property
    def keys(self) -> StatKeys:
        return self.stat_keys()


class LazyKeys:
    """The stat keys of one pass over a folder (:func:`keys_of`), with those of ``unsure``
    marked as changed: made once, on the first call from any thread (the page need not wait
    for them to show a listing)."""

    def __init__(self, listing: FolderStats, unsure: frozenset[str]) -> None:
        self._listing: FolderStats | None = listing  # (let go once the keys are made)
        self._unsure = unsure
        self._keys: StatKeys | None = None
        self._lock = threading.Lock()

    def __call__(self) -> StatKeys:
        with self._lock:
            if self._keys is None:
                assert self._listing is not None
                keys = keys_of(self._listing)
                for file_name in self._unsure & keys.keys():
                    keys[file_name] = (None, True, keys[file_name][2])
                self._keys, self._listing = keys, None
            return self._keys


class _ReadWhole:
    """The file names a listing read whole in the version of its pass (for
    :func:`listing_problems`): every entry file name but the ``unsure`` ones."""

    def __init__(self, unsure: set[str]) -> None:
        self._unsure = unsure

    def __contains__(self, file_name: object) -> bool:
        return (
            isinstance(file_name, str)
            and is_entry_file_name(file_name)
            and file_name not in self._unsure
        )


def is_small(path: Path, limit: int = SMALL_FOLDER) -> bool:
    """Whether ``path`` holds at most ``limit`` entry files (at most ``limit`` names looked
    at, whatever the folder's size)."""
    return has_at_most(path, limit)


def list_folder(folder: PersonaFolder, report: Callable[[FirstScreen], None] | None) -> Listed:
    """Every entry of ``folder`` (its listing order), telling ``report`` of the first screen.

    Called on a worker that alone uses ``folder`` meanwhile. The entries are read from one
    pass over the folder (:mod:`memory_desk.core.folder_stats`), joined with the watcher's
    baseline when that is under way or just done: the watcher then reports whatever changed
    since. The page's stat keys come from the same pass: a file read in a version other than
    the pass saw, or that the pass saw but the listing left out, is marked as changed, so the
    next reload reads it again. The filter's texts are not made here
    (:func:`~memory_desk.ui.persona.rows.haystacks`): the page has them made once the listing
    is shown. Entries read half-written are left out of the first screen and named in
    ``Listed.held``.

    The worker holds the folder's reading lock to the end (what is made of the entries
    included): a rescan's pass waits, instead of running beside it. It takes the lock at once
    if it is free, else (another reader of the folder holds it) from the first screen on: the
    first screen waits for no one. Taken only from the first screen on, the lock could go to
    the watcher's rescan first, and the listing would wait for its pass."""
    real = os.path.realpath(folder.path)
    lock = folder_stats.reading_lock(real)
    held = lock.acquire(blocking=False)
    progress = None
    if report is not None:

        def progress(read: int, total: int, entries: list[PersonaEntry]) -> None:
            nonlocal held
            cut = half_written(entries)  # (not shown: the whole listing reads them again)
            report(FirstScreen(read, total, [e for e in entries if e.name not in cut]))
            if not held:
                lock.acquire()
                held = True

    try:
        return _list_whole(folder, real, progress)
    finally:
        if held:
            lock.release()


def _list_whole(folder: PersonaFolder, real: str, progress: Progress | None) -> Listed:
    try:
        listing = folder_stats.take(real)
    except OSError:
        listing = None  # (the folder's own listing says what is wrong)
    unsure: set[str] = set()
    entries = folder.entries(progress=progress, first=FIRST_SCREEN, stats=listing, unsure=unsure)
    held = half_written(entries)
    if listing is None:
        keys = scan_keys(folder.path)
        return Listed(entries, folder.problems(), lambda: keys, True, held)
    problems = listing_problems(folder.path, listing, readable=_ReadWhole(unsure))
    return Listed(entries, problems, LazyKeys(listing, frozenset(unsure)), bool(unsure), held)


def looks_half_written(entry: PersonaEntry) -> bool:
    """Whether the read may have caught the agent in the middle of rewriting the file.

    The agent truncates the file and writes it whole, always ending with a line break: an empty
    file, a last line without its break, or a header never closed is what a reader sees between
    the truncation and the last write (or a file a person left that way, which a second read
    then confirms). The text is looked at first: the hash of an entry read the short way is
    made only for one that looks cut.
    """
    text = entry.source
    cut = (
        not text
        or not text.endswith(("\n", "\r"))
        or any(p.code == "header-unclosed" for p in entry.problems)
    )
    return cut and entry.fingerprint.sha256 is not None and entry.link_target is None


def half_written(entries: Iterable[PersonaEntry | None]) -> frozenset[str]:
    """The names of ``entries`` (None: an entry gone, skipped) whose read may have caught the
    agent in the middle of a write: they look half-written (:func:`looks_half_written`) and
    their file changed within ``HALF_WRITTEN_QUIET_NS``. Shown, such a read would put a torn
    file on screen (an empty description, a body cut short)."""
    now = time.time_ns()
    return frozenset(
        e.name
        for e in entries
        if e is not None
        and looks_half_written(e)
        and now - e.fingerprint.mtime_ns < HALF_WRITTEN_QUIET_NS
    )


def scan_keys(path: Path) -> StatKeys:
    """The stat key of every file of ``path`` named like an entry, from a fresh pass."""
    try:
        return keys_of(folder_stats.take(os.path.realpath(path)))
    except OSError as exc:
        raise StoreError(could_not_list(path, exc)) from exc


def keys_of(listing: folder_stats.FolderStats) -> StatKeys:
    """The stat keys of the files named like an entry in one pass over a folder (a folder
    named so too: it comes and goes as one of the folder's problems)."""
    keys: StatKeys = {}
    racy_after = listing.started_ns - reading.RACY_NS  # (the core's rule, as set now)
    for name, st in listing.items:
        if not is_entry_file_name(name):
            continue
        if isinstance(st, OSError):
            keys[name] = (None, True, (-1, -1))
            continue
        racy = max(st.st_mtime_ns, st.st_ctime_ns) > racy_after
        keys[name] = (stat_key(st), racy, (st.st_size, st.st_mtime_ns))
    return keys


def scan_changes(
    path: Path, before: StatKeys | Callable[[], StatKeys]
) -> tuple[StatKeys, list[str]]:
    """The folder's stat keys now, and the files changed since ``before`` (the keys of the
    scan before, or what makes them: a listing's :class:`LazyKeys`). A scan of its own, which
    no one changes: every key is compared here, on the worker."""
    if callable(before):
        before = before()
    after = scan_keys(path)
    return after, changed_files(before, after)


def changed_files(before: StatKeys, after: StatKeys) -> list[str]:
    """The file names that came, went or changed between two scans (sorted)."""
    changed = before.keys() ^ after.keys()
    for name, (key, _racy, _size) in after.items():
        old = before.get(name)
        if old is not None and (key is None or old[0] != key or old[1]):
            changed.add(name)
    return sorted(changed)


def held_as_shown(
    listing: list[PersonaEntry],
    held: Iterable[str],
    shown: Callable[[str], PersonaEntry | None],
) -> list[PersonaEntry]:
    """``listing`` (the folder's) with each entry named in ``held`` as the list shows it
    (``shown(name)``; left out where the list shows none): what the list is brought up to while
    those reads are held back as half-written, so that a change of the person's (a save, a
    rename) does not show them with it."""
    held = set(held)
    if not held:
        return listing
    out = [e for e in listing if e.name not in held]
    for name in held:
        entry = shown(name)
        if entry is not None:
            out.insert(_place(out, entry), entry)
    return out


def _place(entries: list[PersonaEntry], entry: PersonaEntry) -> int:
    """Where ``entry`` goes in a listing's order: the agent's entries first, newest first, then
    the others by name."""
    if entry.agent_visible:
        updated, name = order_key(entry)
        for at, other in enumerate(entries):
            if not other.agent_visible:
                return at
            other_updated, other_name = order_key(other)
            if other_updated < updated or (other_updated == updated and other_name > name):
                return at
        return len(entries)
    return next(
        (at for at, o in enumerate(entries) if not o.agent_visible and o.name > entry.name),
        len(entries),
    )
