"""Writes that are all or nothing: temporary files, fsync, exclusive create, publish.

The agent may read a folder at any moment, so it must never see a half-written entry, and a
file it wrote meanwhile must never be replaced by accident. Temporary files are hidden and not
``.md``, so neither the agent nor a listing sees them.
"""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

from memory_desk.core.errors import StoreError

TEMP_SUFFIX = ".memory-desk.tmp"


def fsync_dir(folder: Path) -> None:
    """Make a rename or new file in ``folder`` durable (not possible on Windows)."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temp_path(folder: Path, name: str) -> Path:
    """A hidden, non-``.md`` name in ``folder``: neither the agent nor a listing sees it."""
    return folder / f".{name}.{secrets.token_hex(4)}{TEMP_SUFFIX}"


def write_temp(
    folder: Path, name: str, data: bytes, mode: int | None
) -> tuple[Path, os.stat_result]:
    """Write ``data`` to a new hidden file in ``folder``, flushed to disk."""
    tmp = temp_path(folder, name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, 0o600 if mode is not None else 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        os.fsync(fd)
        st = os.fstat(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    return tmp, st


def publish_new(target: Path, data: bytes, mode: int | None) -> os.stat_result:
    """Create ``target`` holding ``data``, complete at once, never replacing a file there.

    The bytes go to a hidden temporary file that is then hard-linked to ``target`` (which fails
    if ``target`` exists). Where hard links are not supported, the file is created with
    O_EXCL and written directly.
    """
    tmp, st = write_temp(target.parent, target.name, data, mode)
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


def create_exclusive(target: Path, data: bytes, mode: int | None) -> os.stat_result:
    """Create ``target`` holding ``data``, flushed to disk; FileExistsError if it exists."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(target, flags, 0o666 if mode is None else mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        return os.fstat(fd)
    finally:
        os.close(fd)


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (False when either cannot be reached)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def put_back(aside: Path, path: Path) -> None:
    """Return a file moved aside to its name, never over a file the agent wrote meanwhile."""
    try:
        os.link(aside, path, follow_symlinks=False)
    except FileExistsError as exc:
        raise StoreError(
            f"“{path.stem}” was written again while Memory Desk moved it; the previous version "
            f"is kept in “{aside}”."
        ) from exc
    aside.unlink(missing_ok=True)
