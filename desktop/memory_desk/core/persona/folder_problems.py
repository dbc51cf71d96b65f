"""What in the folder itself (not in one entry) stops the agent reading its memory.

The agent reads every ``<name>.md`` of its folder at once and follows links: one item it cannot
read (a folder named like an entry, a link to a folder, a socket, a pipe) fails or hangs its
whole listing, and its prompt then gets no memory section. The fix renames the culprit to a
name without ``.md``, leaving what it holds as it is.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.persona.entry import NAME_RE, os_message

RENAME_ASIDE = "rename-aside"  # the fix of every folder problem: rename it without .md
_SPECIAL_KINDS = (
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)
_CANNOT_READ = "the agent cannot read its memory at all while this is here"
_KEEPS_FILE = " (or give it read permission to keep it as an entry)"


@dataclass(frozen=True)
class FolderProblem:
    """Something in the folder itself (not in one entry) that stops the agent reading its memory.

    The agent reads every ``<name>.md`` of its folder at once, and one that cannot be read (a
    folder named like an entry, a link to a folder, a socket) makes its whole listing fail: its
    prompt then gets no memory section. ``path`` is the culprit; ``fix_id`` (with
    ``fix_label``) the one-click repair :meth:`PersonaFolder.fix_folder_problem` applies, or
    None; ``code`` names the kind of problem.
    """

    message: str
    path: Path
    code: str
    fix_id: str | None = None
    fix_label: str = ""
    hangs: bool = False  # the agent does not fail but waits for ever (a pipe)


@dataclass(frozen=True)
class FolderFix:
    """A folder problem's fix as done, with what :meth:`PersonaFolder.undo_folder_fix` needs:
    the culprit was renamed from ``path`` to ``moved_to`` (same folder, contents untouched)."""

    path: Path
    moved_to: Path


def listing_problems(folder: Path) -> list[FolderProblem]:
    """What in ``folder`` stops the agent reading its memory at all, by file name.

    Cheap (one listing and a stat per entry name the agent reads; no file is read).
    """
    try:
        with os.scandir(folder) as it:
            names = sorted(
                d.name for d in it if _is_agent_file_name(d.name) and _may_stop_listing(d)
            )
    except OSError as exc:
        raise StoreError(f"Could not list “{folder}”: {os_message(exc)}.") from exc
    found = (_listing_problem(folder, name) for name in names)
    return [problem for problem in found if problem is not None]


def _is_agent_file_name(file_name: str) -> bool:
    """Whether the agent reads ``file_name`` as an entry: ``<kebab-case name>.md``."""
    return file_name.endswith(".md") and bool(NAME_RE.fullmatch(file_name[:-3]))


def _may_stop_listing(item: os.DirEntry) -> bool:
    """Whether a folder item may stop the agent's listing: anything but a regular file it may
    read. Most items are such files, told apart by the listing itself and one access check,
    so a folder of thousands of entries is checked in a few milliseconds."""
    try:
        regular = item.is_file(follow_symlinks=False)
    except OSError:
        return True
    return not (regular and os.access(item.path, os.R_OK))


def _listing_problem(folder: Path, file_name: str) -> FolderProblem | None:
    """What ``folder/file_name`` (named like an entry the agent reads) does to the agent's
    listing: None when the agent reads it or skips it, else the problem.

    The agent reads every ``<name>.md`` at once and follows links: a read that finds no file
    (a link to nothing) only drops that entry; any other failure (a folder, a link to a
    folder, a socket, a circle of links, no permission) fails the whole list, and a pipe
    makes the read wait for ever.
    """
    path = folder / file_name
    try:
        lst = os.lstat(path)
        st = os.stat(path) if stat.S_ISLNK(lst.st_mode) else lst
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            what = f"“{file_name}” is a link that leads round in a circle of links"
            return _aside_problem(folder, file_name, what, "link-loop")
        what = f"the agent cannot read “{file_name}” ({os_message(exc)})"
        return _aside_problem(folder, file_name, what, "unreadable-entry", _KEEPS_FILE)
    link = stat.S_ISLNK(lst.st_mode)
    if stat.S_ISDIR(st.st_mode):
        if link:
            what = f"“{file_name}” is a link to a folder ({os.path.realpath(path)})"
            kept = "; the folder it points to stays as it is"
            return _aside_problem(folder, file_name, what, "link-to-folder", kept)
        what = f"“{file_name}” is a folder, which the agent takes for an entry by its name"
        kept = " and leaves everything inside it as it is"
        return _aside_problem(folder, file_name, what, "folder-named-like-entry", kept)
    if stat.S_ISFIFO(st.st_mode):
        what = (
            f"“{file_name}” is a pipe (FIFO), not a file: reading it, the agent waits for ever "
            "and never gets its memory"
        )
        return _aside_problem(folder, file_name, what, "pipe", hangs=True)
    kind = next((name for test, name in _SPECIAL_KINDS if test(st.st_mode)), None)
    if kind is not None:
        what = f"“{file_name}” is {kind}, not a file"
        return _aside_problem(folder, file_name, what, "not-a-file")
    if not os.access(path, os.R_OK):
        what = f"the agent is not allowed to read “{file_name}”"
        return _aside_problem(folder, file_name, what, "unreadable-entry", _KEEPS_FILE)
    return None


def _aside_problem(
    folder: Path,
    file_name: str,
    what: str,
    code: str,
    kept: str = "",
    *,
    hangs: bool = False,
) -> FolderProblem:
    """A problem fixed by renaming the culprit to a name without ``.md`` (which the agent
    never reads), leaving whatever it holds or points to as it is; ``kept`` says so."""
    aside = aside_name(folder, file_name)
    effect = "" if hangs else f": {_CANNOT_READ}"
    return FolderProblem(
        message=(
            f"{what[0].upper()}{what[1:]}{effect}. Renaming it to “{aside}” fixes that{kept}."
        ),
        path=folder / file_name,
        code=code,
        fix_id=RENAME_ASIDE,
        fix_label=f"Rename it to “{aside}”",
        hangs=hangs,
    )


def aside_name(folder: Path, file_name: str) -> str:
    """A free name for ``file_name`` without its ``.md``: ``archive``, else ``archive-2``..."""
    stem = file_name.removesuffix(".md")
    candidate, n = stem, 2
    while os.path.lexists(folder / candidate):
        candidate, n = f"{stem}-{n}", n + 1
    return candidate


def listing_failure(problems: Iterable[FolderProblem]) -> str | None:
    """What the agent gets instead of its memory section while the folder has ``problems``
    (None when it has none): no section at all, so a view must not show a list the agent will
    not get."""
    problems = list(problems)
    if not problems:
        return None
    how = (
        "never ends (it waits on a pipe for ever)"
        if any(p.hangs for p in problems)
        else "fails, and one failed read fails them all (its memory_list tool fails the same way)"
    )
    lines = [
        "The agent gets no memory section at the moment.",
        "",
        f"It reads every entry of its folder at once, and here that read {how}. What stops it:",
        *(f"- {p.message}" for p in problems),
        "",
        "Fix it with the button above the list; the section then shows here again.",
    ]
    return "\n".join(lines)
