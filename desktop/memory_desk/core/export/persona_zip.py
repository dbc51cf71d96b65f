"""A persona folder to a zip: its entry files byte for byte, under the folder's name.

The folder's files are opened read-only and never touched; what is not an entry stays out,
and what could not go in is listed with the reason (:class:`Skipped`).
"""

from __future__ import annotations

import os
import stat
import time
import zipfile
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.export.files import PRIVATE_FILE, new_file
from memory_desk.core.export.result import ExportResult, Skipped
from memory_desk.core.messages import msg
from memory_desk.core.persona.entry import could_not_list, os_message, printable_name
from memory_desk.core.persona.folder import PersonaFolder
from memory_desk.core.persona.reading import is_entry_file_name
from memory_desk.core.progress import Progress

_COPY_BYTES = 1024 * 1024
_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip member can carry


def export_persona_zip(
    folder: PersonaFolder | str | os.PathLike[str],
    path: str | os.PathLike[str],
    progress: Progress,
) -> ExportResult:
    """Write the folder's entry files to the zip ``path``, each byte for byte as the agent
    wrote it, under ``<folder name>/`` (so that unpacking makes one folder).

    What goes in: every ``<name>.md`` the folder lists (Memory Desk's entries: those the
    agent reads and those with another name, which the person sees too), a link included
    when it leads to a file in the folder. What stays out (FORMATS.md part B, "Files in such
    folders that are not entries"): hidden files (editor swap files, Memory Desk's own
    temporary and aside files), backups (``x.md~``), other files the agent never writes,
    subfolders (another account's memory), and links that lead outside the folder (its
    memory is not that file); entry-named items that are not files, and files that cannot be
    read, are listed in ``skipped`` with the reason. Memory Desk's trash is elsewhere and never
    included. ``count`` is how many entries went in.
    """
    source = Path(folder.path if isinstance(folder, PersonaFolder) else folder).absolute()
    target = Path(path)
    names, skipped = _persona_members(source)
    progress.step(0, len(names))
    prefix = _zip_name(source.name) or "memory"
    count = 0
    with new_file(target) as out, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for done, name in enumerate(names, 1):
            reason = _add_entry(archive, source / name, f"{prefix}/{_zip_name(name)}", progress)
            if reason is None:
                count += 1
            else:
                skipped.append(Skipped(printable_name(name), reason))
            progress.step(done)
    return ExportResult(target, count, tuple(skipped))


def _persona_members(folder: Path) -> tuple[list[str], list[Skipped]]:
    """The folder's entry file names (sorted) and the entry-named links left out."""
    try:
        with os.scandir(folder) as it:
            names = sorted(d.name for d in it if is_entry_file_name(d.name))
    except OSError as exc:
        raise StoreError(could_not_list(folder, exc)) from exc
    real = folder.resolve()
    members, skipped = [], []
    for name in names:
        path = folder / name
        if path.is_symlink() and Path(os.path.realpath(path)).parent != real:
            skipped.append(
                Skipped(
                    printable_name(name),
                    msg(
                        "Export",
                        "a link to “{target}”, outside the folder",
                        target=os.path.realpath(path),
                    ),
                )
            )
            continue
        members.append(name)
    return members, skipped


def _add_entry(archive: zipfile.ZipFile, path: Path, member: str, progress: Progress) -> str | None:
    """Copy one entry file into the zip; None when done, else why it was left out.

    Opened non-blocking and checked after opening, so a pipe named like an entry never
    hangs the export; read in slices, so a large entry neither fills memory nor delays
    Cancel.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        return msg("Export", "it cannot be read ({reason})", reason=os_message(exc))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return msg("Export", "it is not a file")
        info = zipfile.ZipInfo(member, date_time=_zip_time(st.st_mtime))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = (stat.S_IFREG | PRIVATE_FILE) << 16
        try:
            first = os.read(fd, _COPY_BYTES)
        except OSError as exc:
            return msg("Export", "it cannot be read ({reason})", reason=os_message(exc))
        with archive.open(info, "w", force_zip64=st.st_size > 2**31) as copy:
            chunk = first
            while chunk:
                copy.write(chunk)
                progress.check()
                chunk = os.read(fd, _COPY_BYTES)
        return None
    finally:
        os.close(fd)


def _zip_name(name: str) -> str:
    """A file name as a zip member name: UTF-8 (a name that is not is shown with U+FFFD)."""
    return os.fsencode(name).decode("utf-8", "replace")


def _zip_time(mtime: float) -> tuple[int, int, int, int, int, int]:
    moment = time.localtime(max(mtime, 0))[:6]
    return max(moment, _ZIP_EPOCH) if moment[0] < 2108 else (2107, 12, 31, 23, 59, 58)
