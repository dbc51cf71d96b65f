"""Reading entry files safely and turning their bytes into entries, as the agent reads them.

Reading never writes and never hangs: files are opened non-blocking and checked after opening
(a pipe named like an entry must not stop a listing), and a file too large to show is an error
entry, not a crash. Listings may cache an entry by its file's stat key, only once the file has
settled (git's "racily clean" rule). A listing reads only the start of a file larger than
``LARGE_ENTRY_BYTES`` (its header is there): a start-only entry is shown, never written, and
:meth:`PersonaFolder.read` reads the whole file when the person asks for it.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import os
import re
import stat
import time
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.jstext import JS_DOT_CLASS, JS_WHITESPACE
from memory_desk.core.messages import msg
from memory_desk.core.persona.entry import (
    KNOWN_KEYS,
    NAME_RE,
    Fingerprint,
    PersonaEntry,
    Problem,
    os_message,
    printable_name,
)
from memory_desk.core.persona.problems import (
    ODD_DESCRIPTIONS,
    body_problems,
    field_problems,
    header_problems,
    name_problems,
)
from memory_desk.core.persona_format import (
    ISO_UTC_MS_RE,
    QUOTES,
    ParsedFile,
    agent_reading,
    js_trim,
    last_field,
    normalize_body,
    parse_text,
)

MAX_FILE_BYTES = 32 * 1024 * 1024  # larger files are shown as an error, never read
RACY_NS = 3_000_000_000  # a file changed this recently (ns) is never cached
# A listing reads only the first START_BYTES of a larger file: reading, hashing and parsing
# a file of many megabytes holds the thread that lists, and the window waits for the listing.
LARGE_ENTRY_BYTES = 1024 * 1024
START_BYTES = 64 * 1024
START_ONLY = "start-only"  # the code of the problem that marks a start-only entry


# ----------------------------------------------------------------------------- files


def sha256(data: bytes) -> str:
    """The fingerprint of a file's bytes: what tells one version from another."""
    return hashlib.sha256(data).hexdigest()


def is_entry_file_name(file_name: str) -> bool:
    """Whether a directory entry's name can be a persona entry (hidden/swap/backup excluded)."""
    return not file_name.startswith(".") and file_name.endswith(".md") and len(file_name) > 3


def check_stem(name: str) -> None:
    """Refuse a name that would point anywhere but a file directly in the folder."""
    bad = not name or name.startswith(".") or any(c in name for c in "/\\\0")
    if bad or not is_entry_file_name(name + ".md"):
        raise StoreError(msg("Persona", "“{name}” is not the name of an entry file.", name=name))


def is_stem(name: str) -> bool:
    """Whether ``name`` can name an entry file directly in the folder (see check_stem)."""
    try:
        check_stem(name)
    except StoreError:
        return False
    return True


def _read_regular(path: Path, *, start_only: bool = False) -> tuple[bytes, os.stat_result] | None:
    """The bytes of a regular file, or None if it is gone or not a regular file.

    Opens non-blocking and checks the kind after opening, so a FIFO never hangs a listing.
    With ``start_only``, a file larger than ``LARGE_ENTRY_BYTES`` (by the stat of the file
    opened) is read only up to ``START_BYTES``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > MAX_FILE_BYTES:
            raise _TooLarge(st)
        limit = START_BYTES if start_only and st.st_size > LARGE_ENTRY_BYTES else None
        return _read_fd(fd, st.st_size, limit), st
    finally:
        os.close(fd)


def _read_fd(fd: int, size: int, limit: int | None) -> bytes:
    """Everything left in ``fd`` (a file of about ``size`` bytes), or at most ``limit`` bytes."""
    chunks, total = [], 0
    while limit is None or total < limit:
        chunk = os.read(fd, max(size, 65536) if limit is None else limit - total)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


class _TooLarge(Exception):
    """A file too large to open; ``st`` says how large."""

    def __init__(self, st: os.stat_result) -> None:
        super().__init__(st.st_size)
        self.st = st


def read_regular(path: Path) -> tuple[bytes, os.stat_result] | None:
    """The bytes of the regular file ``path`` and the stat of the file opened; None if it is
    gone, not a regular file, unreadable or too large to open."""
    try:
        return _read_regular(path)
    except (OSError, _TooLarge):
        return None


def current_sha(path: Path) -> str | None:
    """The hash of what is in ``path`` now, or None if there is no readable file."""
    read = read_regular(path)
    return sha256(read[0]) if read else None


def stat_key(st: os.stat_result) -> tuple[int, ...]:
    """What identifies one version of a file without reading it."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def settled(st: os.stat_result) -> bool:
    """Whether a file was last changed long enough ago that its stat key identifies its bytes.

    File times have a coarse clock (a few milliseconds, up to seconds on some file systems): a
    second write of the same size within the same tick keeps every time. Like git's "racily
    clean" rule, a file changed within ``RACY_NS`` of being read is never cached.
    """
    return time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > RACY_NS


# ----------------------------------------------------------------------------- entries


def read_entry(
    name: str, path: Path, lst: os.stat_result, folder: Path, *, start_only: bool = False
) -> tuple[PersonaEntry | None, os.stat_result | None]:
    """Read the entry file ``path`` (``lst`` is its ``os.lstat``) of the agent folder whose
    real path is ``folder``.

    Returns the entry, or None when it is not (or no longer) an entry file, and the stat of
    the bytes read when a listing may cache the entry under it: only a regular file that has
    settled, never a link (its target may change without the link changing). With
    ``start_only`` (listings), a large file gives a start-only entry (:func:`start_entry`);
    without it, a large file is read whole and never cached, so a listing never shows it whole.
    """
    link_target = None
    if stat.S_ISLNK(lst.st_mode):
        link_target = Path(os.path.realpath(path))
        problem = _link_problem(path, link_target)
        if problem is not None:
            text_fp = Fingerprint(sha256(os.fsencode(os.readlink(path))))
            message, code = problem
            return _error_entry(name, path, message, code, text_fp, link_target=link_target), None
    elif not stat.S_ISREG(lst.st_mode):
        return None, None
    try:
        read = _read_regular(path, start_only=start_only)
    except _TooLarge as big:
        return _too_large_entry(name, path, big.st), None
    except OSError as exc:
        return unreadable_entry(name, path, exc), None
    if read is None:
        return None, None
    data, st = read
    large = st.st_size > LARGE_ENTRY_BYTES
    if large and start_only:
        entry = start_entry(name, path, data, st, link_target)
    else:
        entry = entry_from_bytes(name, path, data, st, link_target)
    if link_target is not None and link_target.parent != folder:
        return _read_only_outside(entry, link_target), None
    cacheable = link_target is None and settled(st) and (start_only or not large)
    return entry, (st if cacheable else None)


def start_entry(
    name: str, path: Path, start: bytes, st: os.stat_result, link_target: Path | None = None
) -> PersonaEntry:
    """An entry read from the first bytes of a large file: its header as the agent reads it,
    the start of its text, and a warning that says how large it is.

    Shown, never written: it is not editable, its problems lose their fixes (both would write
    the file from its start only) and its fingerprint has no hash (nothing hashed the whole
    file). :func:`is_start_only` tells it apart; ``PersonaFolder.read`` gives the whole entry.
    """
    entry = entry_from_bytes(name, path, _whole_characters(start), st, link_target)
    problems = [dataclasses.replace(p, fix=None) for p in entry.problems if p.code != "large-body"]
    size_mb = st.st_size / (1024 * 1024)
    problems.append(
        Problem(
            "warning",
            msg(
                "PersonaProblems",
                "The file is {size} MB. The agent reads all of it each time it recalls this "
                "entry, which fills its context; consider shortening it. Memory Desk shows its "
                "first {start} KB, read-only, until you choose to open it whole.",
                size=f"{size_mb:.1f}",
                start=START_BYTES // 1024,
            ),
            None,
            START_ONLY,
        )
    )
    return dataclasses.replace(
        entry,
        problems=tuple(problems),
        editable=False,
        fingerprint=Fingerprint(None, st.st_size, st.st_mtime_ns),
    )


def _whole_characters(data: bytes) -> bytes:
    """``data`` without the UTF-8 character its end may have cut in two (which would read as
    a file that is not UTF-8)."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return data
        if byte >= 0xC0:  # the first byte of a character of 2, 3 or 4 bytes
            needed = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return data if back >= needed else data[:-back]
    return data


def is_start_only(entry: PersonaEntry) -> bool:
    """Whether ``entry`` holds only the start of its file (see :func:`start_entry`)."""
    return any(p.code == START_ONLY for p in entry.problems)


def entry_from_bytes(
    name: str,
    path: Path,
    data: bytes,
    st: os.stat_result,
    link_target: Path | None = None,
) -> PersonaEntry:
    """An entry from the bytes of its file, read with the agent's grammar.

    A file exactly as the agent writes it takes a short way (:func:`agent_written_entry`);
    any other goes through the whole grammar (:func:`full_entry_from_bytes`). Both give the
    same entry (tested on generated and hostile files).
    """
    entry = agent_written_entry(name, path, data, st, link_target)
    return entry if entry is not None else full_entry_from_bytes(name, path, data, st, link_target)


# The header agent-kit writes: its four keys in this order, one plain value each, LF, and
# "---" alone on the closing line. Values hold no line terminator (JavaScript's "." stops there).
# A description that needs no quotes (``needs_quotes`` is False for it, tested on generated
# text): not empty, neither its first nor its last character JavaScript whitespace or a quote,
# and not bracketed (checked in the match rather than by a call per file).
_BARE = "[^" + re.escape(JS_WHITESPACE + QUOTES) + "]"
_BARE_VALUE = f"(?!\\[{JS_DOT_CLASS}*\\]\n)({_BARE}(?:{JS_DOT_CLASS}*{_BARE})?)"
_KEBAB = NAME_RE.pattern.strip("^$").replace("(-", "(?:-")  # (a name the agent sees)
AGENT_HEADER_RE = re.compile(
    f"---\nname: ({_KEBAB})\ndescription: {_BARE_VALUE}\ntype: (user|feedback)\n"
    f"updated: ({ISO_UTC_MS_RE.pattern})\n---\n"  # (the agent's format: no line terminator)
)


def agent_written_entry(
    name: str,
    path: Path,
    data: bytes,
    st: os.stat_result,
    link_target: Path | None = None,
) -> PersonaEntry | None:
    """The entry of a file written exactly as the agent writes one, or None for any other.

    Most files are written by the agent, and reading them this way is quicker than the whole
    grammar. The file it takes holds nothing the grammar would read differently from what it seems to
    say: UTF-8 with LF; the header of :data:`AGENT_HEADER_RE`; the ``name:`` line equal to the
    file name, a kebab-case name the agent sees (a file it does not see takes the full
    grammar); values that need no quotes (trimmed, not empty, not quoted nor bracketed); a
    description that is not a YAML marker; ``updated`` in the agent's format. So its header
    and fields have no problem, its reading is the values as written, and the body is what
    follows the closing line, trimmed: the entry the full grammar gives.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    found = AGENT_HEADER_RE.match(text)
    if found is None:
        return None
    header_name, description, type_, updated = found.groups()
    if header_name != name or description in ODD_DESCRIPTIONS:
        return None
    body = normalize_body(js_trim(text[found.end() :]))
    return PersonaEntry(
        name=name,
        path=path,
        type=type_,
        raw_type=type_,
        description=description,
        updated=updated,
        body=body,
        extra=(),
        problems=tuple(body_problems(body)),
        agent_visible=True,
        editable=True,
        fingerprint=Fingerprint(sha256(data), st.st_size, st.st_mtime_ns),
        source=text,
        link_target=link_target,
    )


def full_entry_from_bytes(
    name: str,
    path: Path,
    data: bytes,
    st: os.stat_result,
    link_target: Path | None = None,
) -> PersonaEntry:
    """An entry from the bytes of its file, read with the whole of the agent's grammar."""
    problems: list[Problem] = name_problems(name)
    try:
        text = data.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError:
        text = data.decode("utf-8", "replace")
        utf8 = False
    parsed = parse_text(text)
    if not utf8:
        problems.append(
            Problem(
                "error",
                msg(
                    "PersonaProblems",
                    "The file is not valid UTF-8 text. It is shown with replacement characters "
                    "(as the agent reads it) and Memory Desk will not save it.",
                ),
                None,
                "not-utf8",
            )
        )
    problems += header_problems(parsed)
    problems += field_problems(name, parsed)
    problems += body_problems(parsed.body)
    type_field = parsed.field("type") or last_field(parsed.hidden_fields, "type")
    reading = agent_reading(parsed)
    return PersonaEntry(
        name=name,
        path=path,
        type=reading.type,
        raw_type=js_trim(type_field.raw) if type_field else None,
        description=reading.description,
        updated=reading.updated,
        body=normalize_body(reading.body),
        extra=tuple(_extra(parsed)),
        problems=tuple(problems),
        agent_visible=bool(NAME_RE.fullmatch(name)),
        editable=utf8 and not parsed.bom_hides_header,
        fingerprint=Fingerprint(sha256(data), st.st_size, st.st_mtime_ns),
        source=text,
        newline=parsed.newline,
        link_target=link_target,
    )


def _extra(parsed: ParsedFile) -> list[tuple[str, str]]:
    """Every header field the agent does not use, as ``(key, raw value)`` in file order."""
    out = []
    for f in parsed.fields:
        if f.key in KNOWN_KEYS:
            continue
        items = [line.text for line in parsed.header[f.first + 1 : f.stop]]
        out.append((f.key, "\n".join([js_trim(f.raw), *items]) if items else js_trim(f.raw)))
    return out


def _link_problem(path: Path, target: Path) -> tuple[str, str] | None:
    """Why a link cannot be read as an entry, as (message, code), or None if it can.

    A link to a file, inside the folder or outside it, is an entry: the agent follows it.
    A link to nothing is skipped by the agent (its read finds no file).
    """
    try:
        os.stat(path)
    except FileNotFoundError:
        return (
            msg(
                "PersonaProblems",
                "This is a link to “{target}”, which does not exist: the agent skips it.",
                target=str(target),
            ),
            "broken-link",
        )
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return (
                msg(
                    "PersonaProblems",
                    "This link leads round in a circle of links: neither the agent nor Memory "
                    "Desk can read it.",
                ),
                "link-loop",
            )
        return (
            msg(
                "PersonaProblems",
                "This link cannot be followed ({reason}).",
                reason=os_message(exc),
            ),
            "broken-link",
        )
    return None


def _error_entry(
    name: str,
    path: Path,
    message: str,
    code: str,
    fingerprint: Fingerprint,
    *,
    agent_visible: bool = False,
    link_target: Path | None = None,
) -> PersonaEntry:
    """An entry Memory Desk can show but not read or write."""
    return PersonaEntry(
        name=name,
        path=path,
        type="user",
        raw_type=None,
        description="",
        updated="",
        body="",
        extra=(),
        problems=(*name_problems(name), Problem("error", message, None, code)),
        agent_visible=agent_visible,
        editable=False,
        fingerprint=fingerprint,
        link_target=link_target,
    )


def unreadable_entry(name: str, path: Path, exc: OSError) -> PersonaEntry:
    """An entry for a file that cannot be read: shown with why, never written."""
    message = msg(
        "PersonaProblems",
        "Memory Desk cannot read this file ({reason}); neither can the agent.",
        reason=os_message(exc),
    )
    return _error_entry(name, path, message, "unreadable", Fingerprint(None))


def _too_large_entry(name: str, path: Path, st: os.stat_result) -> PersonaEntry:
    """An entry for a file too large to open: shown with its size, never read whole."""
    message = msg(
        "PersonaProblems",
        "The file is {size} MB, too large for Memory Desk to open.",
        size=st.st_size // (1024 * 1024),
    )
    fp = Fingerprint(None, st.st_size, st.st_mtime_ns)
    visible = bool(NAME_RE.fullmatch(name))
    return _error_entry(name, path, message, "too-large", fp, agent_visible=visible)


def _read_only_outside(entry: PersonaEntry, target: Path) -> PersonaEntry:
    """An entry read through a link to a file outside the folder: shown as the agent reads it
    (the agent follows the link and lists it), but read-only, since Memory Desk writes only
    inside the folder. Its other problems lose their fixes: those would write the file."""
    outside = Problem(
        "error",
        msg(
            "PersonaProblems",
            "Not editable here: this entry's file lives outside the folder, at “{target}” "
            "(“{name}.md” is a link to it). The agent reads it like any other entry, but "
            "Memory Desk changes only files inside the folder: edit it there. Forget removes "
            "only the link, never that file.",
            target=str(target),
            name=printable_name(entry.name),
        ),
        None,
        "link-outside",
    )
    unfixable = tuple(dataclasses.replace(p, fix=None) for p in entry.problems)
    return dataclasses.replace(entry, problems=(outside, *unfixable), editable=False)


def with_problem(entry: PersonaEntry, problem: Problem) -> PersonaEntry:
    """``entry`` with one more problem."""
    return dataclasses.replace(entry, problems=(*entry.problems, problem))
