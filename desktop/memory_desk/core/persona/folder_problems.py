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
from collections.abc import Callable, Iterable, Set
from dataclasses import dataclass
from pathlib import Path

from memory_desk.core import wording
from memory_desk.core.errors import StoreError
from memory_desk.core.folder_stats import FolderStats, Stat
from memory_desk.core.messages import msg
from memory_desk.core.persona.entry import NAME_RE, could_not_list, os_message

RENAME_ASIDE = "rename-aside"  # the fix of every folder problem: rename it without .md
_SPECIAL_KINDS = (
    (stat.S_ISSOCK, msg("PersonaFolderProblems", "a socket")),
    (stat.S_ISCHR, msg("PersonaFolderProblems", "a device")),
    (stat.S_ISBLK, msg("PersonaFolderProblems", "a device")),
)


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


def listing_problems(
    folder: Path, listing: FolderStats | None = None, *, readable: Set[str] = frozenset()
) -> list[FolderProblem]:
    """What in ``folder`` stops the agent reading its memory at all, by file name.

    Cheap (one listing and a stat per entry name the agent reads; no file is read). With
    ``listing`` (a pass over the folder just taken, :mod:`memory_desk.core.folder_stats`),
    the folder is not listed again; the regular files of ``readable`` (file names a listing
    just read whole) are not asked about again (an ``access`` call per file).
    """
    if listing is not None:
        names = sorted(
            name
            for name, lst in listing.items
            if not (name in readable and _is_regular(lst))
            and _is_agent_file_name(name)
            and _may_stop(str(folder), name, lst)
        )
    else:
        try:
            with os.scandir(folder) as it:
                names = sorted(
                    d.name for d in it if _is_agent_file_name(d.name) and _may_stop_listing(d)
                )
        except OSError as exc:
            raise StoreError(could_not_list(str(folder), exc)) from exc
    found = (_listing_problem(folder, name) for name in names)
    return [problem for problem in found if problem is not None]


def _is_regular(lst: Stat) -> bool:
    return not isinstance(lst, OSError) and stat.S_ISREG(lst.st_mode)


def _may_stop(folder: str, name: str, lst: Stat) -> bool:
    """:func:`_may_stop_listing` from a pass's ``lstat``."""
    if isinstance(lst, OSError) or not stat.S_ISREG(lst.st_mode):
        return True
    return not os.access(os.path.join(folder, name), os.R_OK)


def problems_of(folder: Path, file_names: Iterable[str]) -> list[FolderProblem]:
    """What :func:`listing_problems` says about these file names of ``folder`` only (after a
    change to them), by file name; nothing else is looked at."""
    names = sorted({n for n in file_names if _is_agent_file_name(n)})
    found = (_listing_problem(folder, name) for name in names)
    return [problem for problem in found if problem is not None]


def _is_agent_file_name(file_name: str) -> bool:
    """Whether the agent reads ``file_name`` as an entry: ``<kebab-case name>.md``."""
    return file_name.endswith(".md") and bool(NAME_RE.fullmatch(file_name[:-3]))


def _may_stop_listing(item: os.DirEntry) -> bool:
    """Whether a folder item may stop the agent's listing: anything but a regular file it may
    read. Most items are such files, told apart by the listing itself and one access check,
    so a folder of thousands of entries is checked without reading any file."""
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
    makes the read wait for ever. Each kind has a whole sentence of its own, so it can be
    translated as one.
    """
    path = folder / file_name
    try:
        lst = os.lstat(path)
        st = os.stat(path) if stat.S_ISLNK(lst.st_mode) else lst
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _aside_problem(folder, file_name, "link-loop", _link_loop)
        reason = os_message(exc)
        return _aside_problem(
            folder, file_name, "unreadable-entry", lambda f, a: _cannot_read(f, a, reason)
        )
    link = stat.S_ISLNK(lst.st_mode)
    if stat.S_ISDIR(st.st_mode):
        if link:
            target = os.path.realpath(path)
            return _aside_problem(
                folder, file_name, "link-to-folder", lambda f, a: _link_to_folder(f, a, target)
            )
        return _aside_problem(folder, file_name, "folder-named-like-entry", _folder_named)
    if stat.S_ISFIFO(st.st_mode):
        return _aside_problem(folder, file_name, "pipe", _pipe, hangs=True)
    kind = next((name for test, name in _SPECIAL_KINDS if test(st.st_mode)), None)
    if kind is not None:
        return _aside_problem(folder, file_name, "not-a-file", lambda f, a: _not_a_file(f, a, kind))
    if not os.access(path, os.R_OK):
        return _aside_problem(folder, file_name, "unreadable-entry", _not_allowed)
    return None


def _aside_problem(
    folder: Path,
    file_name: str,
    code: str,
    message: Callable[[str, str], str],
    *,
    hangs: bool = False,
) -> FolderProblem:
    """A problem fixed by renaming the culprit to a name without ``.md`` (which the agent
    never reads), leaving whatever it holds or points to as it is. ``message(file_name,
    aside)`` says what it is, what it does to the agent and what the rename leaves."""
    aside = aside_name(folder, file_name)
    return FolderProblem(
        message=message(file_name, aside),
        path=folder / file_name,
        code=code,
        fix_id=RENAME_ASIDE,
        fix_label=msg("PersonaFolderProblems", "Rename it to “{aside}”", aside=aside),
        hangs=hangs,
    )


# One sentence per kind of culprit: ``(file_name, aside) -> message``.


def _link_loop(file_name: str, aside: str) -> str:
    return msg(
        "PersonaFolderProblems",
        "“{file}” is a link that leads round in a circle of links: the agent cannot read its "
        "memory at all while this is here. Renaming it to “{aside}” fixes that.",
        file=file_name,
        aside=aside,
    )


def _cannot_read(file_name: str, aside: str, reason: str) -> str:
    return msg(
        "PersonaFolderProblems",
        "The agent cannot read “{file}” ({reason}): the agent cannot read its memory at all "
        "while this is here. Renaming it to “{aside}” fixes that (or give it read permission "
        "to keep it as an entry).",
        file=file_name,
        reason=reason,
        aside=aside,
    )


def _not_allowed(file_name: str, aside: str) -> str:
    return msg(
        "PersonaFolderProblems",
        "The agent is not allowed to read “{file}”: the agent cannot read its memory at all "
        "while this is here. Renaming it to “{aside}” fixes that (or give it read permission "
        "to keep it as an entry).",
        file=file_name,
        aside=aside,
    )


def _link_to_folder(file_name: str, aside: str, target: str) -> str:
    return msg(
        "PersonaFolderProblems",
        "“{file}” is a link to a folder ({target}): the agent cannot read its memory at all "
        "while this is here. Renaming it to “{aside}” fixes that; the folder it points to "
        "stays as it is.",
        file=file_name,
        target=target,
        aside=aside,
    )


def _folder_named(file_name: str, aside: str) -> str:
    return msg(
        "PersonaFolderProblems",
        "“{file}” is a folder, which the agent takes for an entry by its name: the agent "
        "cannot read its memory at all while this is here. Renaming it to “{aside}” fixes "
        "that and leaves everything inside it as it is.",
        file=file_name,
        aside=aside,
    )


def _pipe(file_name: str, aside: str) -> str:
    return msg(
        "PersonaFolderProblems",
        "“{file}” is a pipe (FIFO), not a file: reading it, the agent waits for ever and never "
        "gets its memory. Renaming it to “{aside}” fixes that.",
        file=file_name,
        aside=aside,
    )


def _not_a_file(file_name: str, aside: str, kind: str) -> str:
    return msg(
        "PersonaFolderProblems",
        "“{file}” is {kind}, not a file: the agent cannot read its memory at all while this "
        "is here. Renaming it to “{aside}” fixes that.",
        file=file_name,
        kind=kind,
        aside=aside,
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
    if any(p.hangs for p in problems):
        how = msg("PersonaFolderProblems", "never ends (it waits on a pipe for ever)")
    else:
        how = msg(
            "PersonaFolderProblems",
            "fails, and one failed read fails them all (its memory_list tool fails the same way)",
        )
    items = [msg("PersonaFolderProblems", "- {problem}", problem=p.message) for p in problems]
    return msg(
        "PersonaFolderProblems",
        "The agent gets no memory section at the moment.\n"
        "\n"
        "It reads every entry of its folder at once, and here that read {how}. What stops it:\n"
        "{problems}\n"
        "\n"
        "Fix it with the button above the list; the section then shows here again.",
        how=how,
        problems=wording.lines(items),
    )
