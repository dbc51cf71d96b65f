"""Writes that are all or nothing: temporary files, fsync, exclusive create, publish.

The agent may read a folder at any moment, so it must never see a half-written entry, and a
file it wrote meanwhile must never be replaced by accident. Memory Desk may also be killed at
any instant: every step here leaves the folder with each entry whole under a name the agent
reads, and at worst a hidden file of Memory Desk's own that the next open removes
(:func:`stale_own_files`).

Memory Desk's own names in an agent folder are hidden, not ``.md``, and short: a dot, 16 hex
digits (or a trash item's id) and a suffix, 33 to 60 bytes whatever the entry's name, so a
name at the file system's limit (255 bytes) still has room for them:

- ``.<hex>.memory-desk.tmp``: a new file being written. Its bytes were never published, so a
  leftover is simply deleted.
- ``.<trash item>.memory-desk.aside``: an entry taken out of the folder on its way to the
  trash, after its copy in the trash was complete. A leftover is deleted when that copy holds
  the same bytes, else kept in the trash too (it may hold a write the agent made meanwhile).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from memory_desk.core import folder_stats
from memory_desk.core.errors import StoreError
from memory_desk.core.messages import msg

if TYPE_CHECKING:
    from memory_desk.core.journal.witness import Witness

TEMP_SUFFIX = ".memory-desk.tmp"
ASIDE_SUFFIX = ".memory-desk.aside"
# A leftover of Memory Desk's is removed only once nothing has touched it for this long (its
# change time: a write, a rename, a link). Writing and fsyncing the largest entry Memory Desk
# opens is done long before this even on a slow disk, and every later step is far shorter:
# no Memory Desk (another instance, another session on a shared folder) can still be using
# a file that old. Shorter would risk deleting a file in use; longer only keeps an invisible
# file a little longer.
STALE_AFTER_S = 15 * 60
# Where the agent's own writeFile would give 0666 & ~umask, a new entry in an empty folder is
# 0600: it is the person's private memory. Once the folder has entries, new ones follow them.
EMPTY_FOLDER_MODE = 0o600


def fsync_dir(folder: Path) -> None:
    """Make a rename or new file in ``folder`` durable (not possible on Windows)."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temp_path(folder: Path) -> Path:
    """A fresh hidden, non-``.md`` name in ``folder``, 33 bytes whatever the entry's name."""
    return folder / f".{secrets.token_hex(8)}{TEMP_SUFFIX}"


def aside_path(folder: Path, item_id: str) -> Path:
    """Where an entry waits, hidden, between its copy in trash item ``item_id`` and its end."""
    return folder / f".{item_id}{ASIDE_SUFFIX}"


def aside_item_id(file_name: str) -> str | None:
    """The trash item an aside file belongs to (None if ``file_name`` is no aside)."""
    if file_name.startswith(".") and file_name.endswith(ASIDE_SUFFIX):
        return file_name[1 : -len(ASIDE_SUFFIX)] or None
    return None


def is_own_temp_name(file_name: str) -> bool:
    """Whether ``file_name`` is one Memory Desk gives its own hidden files in an agent folder
    (also the longer ``.<name>.md.<hex>.memory-desk.tmp`` of earlier versions)."""
    return file_name.startswith(".") and file_name.endswith((TEMP_SUFFIX, ASIDE_SUFFIX))


def write_temp(folder: Path, data: bytes, mode: int) -> tuple[Path, os.stat_result]:
    """Write ``data`` to a new hidden file in ``folder`` with ``mode`` (whatever the umask),
    flushed to disk."""
    tmp = temp_path(folder)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        _write_all(fd, data)
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        os.fsync(fd)
        st = os.fstat(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    return tmp, st


def publish_new(target: Path, data: bytes, mode: int, *, witness: Witness) -> os.stat_result:
    """Create ``target`` holding ``data``, complete at once, never replacing a file there.

    The bytes go to a hidden temporary file that is then hard-linked to ``target`` (which fails
    if ``target`` exists): ``target`` appears whole or not at all. Where hard links are not
    supported, the file is created with O_EXCL and written directly. ``witness`` hears it
    first (the person's write, see :mod:`~memory_desk.core.journal.witness`).
    """
    tmp, st = write_temp(target.parent, data, mode)
    witness.persona_write(target, data)  # the person's own write: not the agent's change
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (
            errno.EPERM,
            errno.ENOTSUP,
            errno.EOPNOTSUPP,
            errno.EXDEV,
            errno.EMLINK,
        ):
            raise
        st = create_exclusive(target, data, mode)
    finally:
        tmp.unlink(missing_ok=True)
    fsync_dir(target.parent)
    return st


def create_exclusive(target: Path, data: bytes, mode: int) -> os.stat_result:
    """Create ``target`` holding ``data`` with ``mode`` (whatever the umask), flushed to disk;
    FileExistsError if it exists."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(target, flags, 0o600)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        _write_all(fd, data)
        os.fsync(fd)
        return os.fstat(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (False when either cannot be reached)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def unlink_if_same(path: Path, st: os.stat_result) -> None:
    """Remove ``path`` if it is still the file ``st`` describes (not one written since)."""
    try:
        now = os.lstat(path)
    except FileNotFoundError:
        return
    if (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
        path.unlink(missing_ok=True)
        fsync_dir(path.parent)


def put_back(aside: Path, path: Path) -> None:
    """Return a file moved aside to its name, never over a file the agent wrote meanwhile."""
    try:
        os.link(aside, path, follow_symlinks=False)
    except FileExistsError as exc:
        raise StoreError(
            msg(
                "Persona",
                "“{name}” was written again while Memory Desk moved it; the previous version is "
                "kept in “{aside}”.",
                name=path.stem,
                aside=str(aside),
            )
        ) from exc
    fsync_dir(path.parent)
    aside.unlink(missing_ok=True)


def new_entry_mode(folder: Path, entry_names: Iterable[str]) -> int:
    """The mode a new entry gets: that of the folder's existing entries.

    The most common permission bits among the regular entry files (ties: the fewest bits),
    always readable and writable by the person, so the agent can update the entry later;
    :data:`EMPTY_FOLDER_MODE` when there are none. Never depends on the umask.
    """
    counts: dict[int, int] = {}
    for name in entry_names:
        try:
            st = os.lstat(folder / name)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            mode = stat.S_IMODE(st.st_mode) & 0o777
            counts[mode] = counts.get(mode, 0) + 1
    if not counts:
        return EMPTY_FOLDER_MODE
    mode = max(counts, key=lambda m: (counts[m], -bin(m).count("1")))
    return mode | 0o600


def stale_own_files(folder: Path, stale_after_s: float) -> list[Path]:
    """Memory Desk's own leftovers in ``folder`` untouched for ``stale_after_s`` seconds.

    Only regular files with Memory Desk's own hidden names (:func:`is_own_temp_name`): never a
    file of the agent's or the person's, never a link or folder. Age is the change time, which
    a write, rename or link renews, so a file in use is never stale.

    The names come from a pass over the folder (:mod:`~memory_desk.core.folder_stats`); each
    candidate's ``lstat`` is taken again before it counts as stale.
    """
    try:
        listing = folder_stats.take(os.path.realpath(folder))
    except OSError:
        return []
    now = time.time_ns()
    found = []
    for name, _st in listing.items:
        if not (name.startswith(".") and is_own_temp_name(name)):
            continue
        try:
            st = os.lstat(folder / name)
        except OSError:
            continue
        touched = max(st.st_mtime_ns, st.st_ctime_ns)
        if stat.S_ISREG(st.st_mode) and now - touched >= stale_after_s * 1e9:
            found.append(folder / name)
    return found
