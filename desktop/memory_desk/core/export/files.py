"""Private output, whole or none: the files and folders an export writes.

Files are created 0600 and folders 0700 from the first byte (``os.open``/``mkdir`` with the
mode, set exactly on the still empty file, so no umask can widen it), under a hidden temporary
name beside the target (Memory Desk's own ``.<hex>.memory-desk.tmp``, which an agent never
reads as an entry), and renamed into place only when complete; a Cancel or an error discards
the partial output. Here too: a failed write in words a person can act on, and the name of a new
dated export folder. Kept apart so that every export shares one way of writing.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path
from typing import BinaryIO

from memory_desk.core.errors import StoreError
from memory_desk.core.messages import msg
from memory_desk.core.persona.atomic import fsync_dir, temp_path
from memory_desk.core.persona.entry import os_message

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700
# fsyncs in flight at once at the end of a folder export (see fsync_files)
_FSYNC_THREADS = 8


@contextlib.contextmanager
def new_file(target: Path) -> Iterator[BinaryIO]:
    """A private file written under a temporary name beside ``target`` and renamed over it
    only when the block ends without error (package docstring)."""
    if target.is_dir():
        raise StoreError(_is_a_folder(target))
    temp = temp_path(target.parent)
    try:
        fd = _create_private(temp)
    except OSError as exc:
        raise _write_error(target, exc) from exc
    out = os.fdopen(fd, "w+b")
    try:
        yield out
        out.flush()
        os.fsync(out.fileno())
        out.close()
        if target.is_dir():  # made meanwhile: os.replace would put the file inside it
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
        os.replace(temp, target)
    except OSError as exc:
        _discard_file(out, temp)
        raise _write_error(target, exc) from exc
    except BaseException:
        _discard_file(out, temp)
        raise
    with contextlib.suppress(OSError):  # the file is in place; this only makes it durable
        fsync_dir(target.parent)


@contextlib.contextmanager
def new_folder(target: Path) -> Iterator[Path]:
    """A private folder filled under a temporary name beside ``target`` (yielded) and renamed
    to ``target`` only when the block ends without error; ``target`` must not exist."""
    if os.path.lexists(target):
        raise StoreError(_exists(target))
    temp = temp_path(target.parent)
    try:
        os.mkdir(temp, PRIVATE_FOLDER)
        os.chmod(temp, PRIVATE_FOLDER)  # still empty: exactly 0700 whatever the umask
    except OSError as exc:
        raise _write_error(target, exc) from exc
    try:
        yield temp
        fsync_files(temp)
        fsync_dir(temp)
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
        os.rename(temp, target)
    except FileExistsError as exc:
        shutil.rmtree(temp, ignore_errors=True)
        raise StoreError(_exists(target)) from exc
    except OSError as exc:
        shutil.rmtree(temp, ignore_errors=True)
        raise _write_error(target, exc) from exc
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    with contextlib.suppress(OSError):
        fsync_dir(target.parent)


def fsync_files(folder: Path) -> None:
    """Make every file directly in ``folder`` durable, and only those: the export flushes what
    it wrote, never the whole system's dirty pages (``os.sync`` waits for every other program's
    writes too, and cannot report a failed write of ours). A few threads at once let the file
    system commit several files' journal entries together; a failure raises its ``OSError``."""
    with os.scandir(folder) as listing:
        names = [entry.path for entry in listing if entry.is_file(follow_symlinks=False)]
    if not names:
        return
    with ThreadPoolExecutor(max_workers=min(_FSYNC_THREADS, len(names))) as pool:
        for _ in pool.map(_fsync_file, names):
            pass


def _fsync_file(path: str) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _create_private(path: Path) -> int:
    """A new file opened for writing, 0600 from its first byte."""
    # read and write: zipfile may read back what it wrote
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, PRIVATE_FILE)
    if hasattr(os, "fchmod"):
        try:
            os.fchmod(fd, PRIVATE_FILE)  # still empty: exactly 0600 whatever the umask
        except OSError:
            os.close(fd)
            path.unlink(missing_ok=True)
            raise
    return fd


def write_private(path: Path, data: bytes) -> None:
    """Write a new file of an export folder, 0600 from its first byte."""
    fd = _create_private(path)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _discard_file(out: BinaryIO, temp: Path) -> None:
    with contextlib.suppress(OSError, ValueError):
        out.close()
    with contextlib.suppress(OSError):
        temp.unlink(missing_ok=True)


def dated_folder(parent: str | os.PathLike[str], stem: str, day: date) -> Path:
    """A new folder's path in ``parent``: ``<stem>-<day>``, or ``-2``, ``-3``... after it when
    that name is taken (so an export never lands in an earlier one)."""
    base = Path(parent) / f"{stem}-{day.isoformat()}"
    candidate, n = base, 1
    while os.path.lexists(candidate):
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate


# ----------------------------------------------------------------------------- messages


def _write_error(target: Path, exc: OSError) -> StoreError:
    """A failed write of the export in words a person can act on; the operating system's own
    words (``reason``) quoted."""
    where, reason = str(target), os_message(exc)
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        text = msg(
            "Export",
            "Could not export to “{path}”: the disk is full ({reason}). Free some space or"
            " choose another place; nothing was written.",
            path=where,
            reason=reason,
        )
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        text = msg(
            "Export",
            "Could not export to “{path}”: Memory Desk may not write there ({reason}). Choose"
            " a folder you can write to; nothing was written.",
            path=where,
            reason=reason,
        )
    elif exc.errno == errno.EISDIR:
        text = _is_a_folder(target)
    elif exc.errno in (errno.ENOENT, errno.ENOTDIR):
        text = msg(
            "Export",
            "Could not export to “{path}”: its folder does not exist ({reason}). Choose"
            " another place; nothing was written.",
            path=where,
            reason=reason,
        )
    else:
        text = msg(
            "Export",
            "Could not export to “{path}”: {reason}. Nothing was written.",
            path=where,
            reason=reason,
        )
    return StoreError(text)


def _is_a_folder(target: Path) -> str:
    return msg(
        "Export",
        "“{path}” is a folder: choose a file name for the export; nothing was written.",
        path=str(target),
    )


def _exists(target: Path) -> str:
    return msg(
        "Export",
        "“{path}” already exists: choose another place; nothing was written.",
        path=str(target),
    )
