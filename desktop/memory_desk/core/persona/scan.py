"""Listing a persona folder in one pass.

A listing reads each entry file once and keeps, per folder object, every entry with its stat
key (identity, size, modification and change times: any write changes the change time, so a
rewritten file is always read again); the next listing of that folder object reads only the
files whose key changed. A listing holds the folder's reading lock while it reads
(:func:`memory_desk.core.folder_stats.reading_lock`): one bulk reader of a folder at a time.

A listing can also show its first entries early: with ``progress``, the newest files (by
modification time) are read first and the caller is told once the first ``first`` are read
(see :meth:`PersonaFolder.entries`).
"""

from __future__ import annotations

import heapq
import os
import stat
from collections.abc import Callable
from pathlib import Path

from memory_desk.core import folder_stats
from memory_desk.core.errors import StoreError
from memory_desk.core.folder_stats import FolderStats, Stat
from memory_desk.core.persona import reading
from memory_desk.core.persona.entry import (
    PersonaEntry,
    could_not_list,
    read_whole,
    unreadable_folder,
)
from memory_desk.core.persona.listing import problem_count
from memory_desk.core.persona.reading import (
    LARGE_ENTRY_BYTES,
    entry_from_bytes,
    is_entry_file_name,
    read_entry,
    read_regular,
    stat_key,
    unreadable_entry,
)

Cache = dict[str, tuple[tuple[int, ...], PersonaEntry]]  # name: (stat key, entry as read)
Progress = Callable[[int, int, list[PersonaEntry]], None]
Stats = FolderStats | None  # a pass over the folder to read from, or none (a fresh one then)


def scan_folder(
    folder: Path,
    real: Path,
    cache: Cache,
    progress: Progress | None = None,
    first: int = 300,
    partial: Callable[[list[PersonaEntry]], list[PersonaEntry]] | None = None,
    listing: Stats = None,
    unsure: set[str] | None = None,
) -> tuple[list[PersonaEntry], Cache]:
    """Every entry of ``folder`` (absolute; its real path is ``real``), in one pass over its
    listing, and the folder's cache for the next pass.

    A file whose stat key is the one in ``cache`` is not read again; the stat comes from the listing itself (no second call per
    file). With ``progress``, the files are read newest first and ``progress(read, total,
    partial(entries read))`` is called once, after the first ``first`` (or all, if fewer).
    ``listing`` is the pass over the folder to read from (:mod:`memory_desk.core.folder_stats`);
    without it, a fresh pass is taken. ``unsure``, if given, receives the file name of every
    file of the pass that was not read whole in the version the pass saw: left out (gone, not
    an entry file), changed while listed, read through a link, unreadable or read in part.
    """
    items = _list(folder, real, listing)
    if unsure is None:
        unsure = set()
    kept: Cache = {}
    loaded: list[PersonaEntry] = []
    if progress is None:
        with folder_stats.reading_lock(real):
            _read_all(items, folder, real, cache, kept, loaded, unsure)
        return loaded, kept
    # The first screen does not wait for another listing of the folder (the sidebar's count
    # may start first and hold the lock): its few hundred files are read without the lock,
    # the rest with it. Only the newest ``first`` are picked out (no sort of every file).
    newest = heapq.nlargest(first, items, key=_mtime_of)
    _read_all(newest, folder, real, cache, kept, loaded, unsure)
    shown = partial(loaded) if partial is not None else list(loaded)
    progress(len(newest), len(items), shown)  # (outside the lock: it may take its time)
    with folder_stats.reading_lock(real):
        taken = {name for name, _lst in newest}
        rest = [item for item in items if item[0] not in taken]
        _read_all(rest, folder, real, cache, kept, loaded, unsure)
    return loaded, kept


def _mtime_of(item: tuple[str, Stat]) -> int:
    lst = item[1]
    return 0 if isinstance(lst, OSError) else lst.st_mtime_ns


def has_at_most(path: str | os.PathLike[str], limit: int) -> bool:
    """Whether the folder at ``path`` holds at most ``limit`` files named like entries: the
    listing stops counting past it, so a folder of any size costs at most ``limit`` names."""
    try:
        with os.scandir(path) as it:
            count = 0
            for item in it:
                count += is_entry_file_name(item.name)
                if count > limit:
                    return False
    except OSError:
        return True  # (the listing itself says what is wrong)
    return True


def folder_counts(path: str | os.PathLike[str]) -> tuple[int, int]:
    """(entries, entries with a problem) of the folder at ``path``, as its listing counts
    them, without building the listing (the sidebar's count); a listing of the folder under
    way is waited for."""
    folder = Path(path).expanduser().absolute()
    refusal = unreadable_folder(folder)
    if refusal is not None:
        raise StoreError(refusal)
    loaded, _kept = scan_folder(folder, folder.resolve(), {})
    return len(loaded), problem_count(loaded)


def _list(folder: Path, real: Path, listing: FolderStats | None) -> list[tuple[str, Stat]]:
    """The folder's entry files and their ``lstat`` (a folder named like an entry is a folder
    problem, left out)."""
    if listing is None:
        try:
            listing = folder_stats.take(real)
        except OSError as exc:
            raise StoreError(could_not_list(folder, exc)) from exc
    return listing.regular_or_link(".md", hidden=False)  # (is_entry_file_name's names)


def _read_all(
    items: list[tuple[str, Stat]],
    folder: Path,
    real: Path,
    cache: Cache,
    kept: Cache,
    loaded: list[PersonaEntry],
    unsure: set[str],
) -> None:
    """Read (or take from ``cache``) the entry file of each ``(file name, lstat)`` of
    ``items``, appending the entries to ``loaded``, what may be cached to ``kept``, and to
    ``unsure`` the file names not read whole in the version listed (see :func:`scan_folder`)."""
    for file_name, lst in items:
        name = file_name[:-3]
        if isinstance(lst, OSError):
            unsure.add(file_name)
            if not isinstance(lst, FileNotFoundError):
                loaded.append(unreadable_entry(name, folder / file_name, lst))
            continue
        key = stat_key(lst)
        hit = cache.get(name)
        if hit is not None and hit[0] == key:
            entry = hit[1]
            if not read_whole(entry):  # (a large file, listed by its start)
                unsure.add(file_name)
        else:
            entry, cacheable, whole = _read_listed(name, folder / file_name, lst, real)
            if not whole:
                unsure.add(file_name)
            if entry is None:
                continue
            if cacheable is None or not reading.settled(cacheable):
                loaded.append(entry)  # (read, but never cached: see settled)
                continue
            key = stat_key(cacheable)
        kept[name] = (key, entry)
        loaded.append(entry)


def _read_listed(
    name: str, path: Path, lst: os.stat_result, real: Path
) -> tuple[PersonaEntry | None, os.stat_result | None, bool]:
    """``read_entry`` for a listing. The third value says whether the entry is the whole file
    in the version ``lst`` names: a small regular file whose stat, once opened, is still
    ``lst``'s (then the second value is that stat, settled or not: the caller checks); a file
    that changed (or failed) while listed is read again with a fresh stat."""
    if stat.S_ISREG(lst.st_mode) and lst.st_size <= LARGE_ENTRY_BYTES:
        read = read_regular(path)
        if read is not None and stat_key(read[1]) == stat_key(lst):
            return entry_from_bytes(name, path, *read), read[1], True
        return (*_read_again(name, path, real), False)
    return (*read_entry(name, path, lst, real, start_only=True), False)


def _read_again(
    name: str, path: Path, real: Path
) -> tuple[PersonaEntry | None, os.stat_result | None]:
    """The full, careful read of a file that changed (or failed) while it was listed."""
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return unreadable_entry(name, path, exc), None
    return read_entry(name, path, lst, real, start_only=True)


def load_entry(
    name: str, path: Path, real: Path, cache: Cache, *, use_cache: bool
) -> PersonaEntry | None:
    """Read the entry ``name`` at ``path``; None when it is not (or no longer) an entry file.

    With ``use_cache`` (listings only), a regular file whose identity, size and times are
    those of the last read (in ``cache``) is not read again, and only the
    start of a large file is read (a start-only entry); without it, all the bytes are read
    (:meth:`PersonaFolder.read` and :meth:`PersonaFolder.has_changed`).
    """
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return unreadable_entry(name, path, exc)
    key = stat_key(lst)
    if use_cache:
        hit = cache.get(name)
        if hit is not None and hit[0] == key:
            return hit[1]
    entry, cacheable = read_entry(name, path, lst, real, start_only=use_cache)
    if cacheable is not None:
        cache[name] = (stat_key(cacheable), entry)
    return entry
