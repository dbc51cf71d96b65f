"""An agent-kit agent's memory of the person: a folder of markdown entries (FORMATS.md, part B).

``PersonaFolder`` lists, reads and writes the entries the way the agent does, so what Memory
Desk shows is what the agent sees: the grammar lives in :mod:`memory_desk.core.persona_format`.

Three promises shape this module:

- reading never writes: listing a folder creates, modifies or touches nothing;
- a write changes only what the person changed: untouched header lines stay byte-identical and
  in place, the line breaks stay the file's own, and every file is replaced atomically;
- nothing is lost by accident: a file that changed on disk since it was read is not
  overwritten (:class:`ConflictError`), and renamed or forgotten files go to Memory Desk's own
  trash, outside every agent folder, from where they can be put back.

Pure Python, no Qt.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
import time
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from memory_desk.core.appdirs import trash_dir
from memory_desk.core.errors import ConflictError, StoreError
from memory_desk.core.jstext import utf16_key
from memory_desk.core.persona_format import (
    BOM,
    ISO_UTC_MS_RE,
    ParsedFile,
    agent_type,
    compose,
    js_string,
    js_trim,
    last_field,
    normalize_body,
    parse_text,
    render_new_file,
    rewrite_header,
)

__all__ = [
    "ENTRY_TYPES",
    "FIX_LABELS",
    "LARGE_BODY_BYTES",
    "MAX_NAME_LENGTH",
    "NAME_RE",
    "PROMPT_HEADING",
    "PROMPT_LIMIT",
    "ConflictError",
    "Fingerprint",
    "PersonaEntry",
    "PersonaFolder",
    "Problem",
    "StoreError",
    "TrashedEntry",
    "agent_index",
    "agent_order",
    "default_trash_dir",
    "now_iso",
    "prompt_section",
    "suggest_name",
    "validate_name",
]

NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
ENTRY_TYPES: tuple[str, ...] = ("user", "feedback")
PROMPT_LIMIT = 50
PROMPT_HEADING = "## Your memory of the person"
MAX_NAME_LENGTH = 100
LARGE_BODY_BYTES = 20 * 1024
MAX_FILE_BYTES = 32 * 1024 * 1024
RESERVED_NAMES = frozenset(
    {"con", "prn", "aux", "nul"} | {f"com{i}" for i in range(10)} | {f"lpt{i}" for i in range(10)}
)
ODD_DESCRIPTIONS = frozenset({"|", ">", "|-", ">-", "|+", ">+", "~", "null"})
TEMP_SUFFIX = ".memory-desk.tmp"
RACY_NS = 3_000_000_000

FIX_LABELS: dict[str, str] = {
    "rename": "Rename to a name the agent reads",
    "remove-bom": "Remove the byte-order mark",
    "add-header": "Add a header",
    "set-name": "Set name: to the file name",
    "set-type": "Write the type the agent reads",
    "set-updated": "Set updated to now",
}


@dataclass(frozen=True)
class Problem:
    """Something about an entry the person should know, in plain words.

    ``fix`` is the id of a one-click repair :meth:`PersonaFolder.fix` applies (see
    ``FIX_LABELS``), or None; ``code`` names the kind of problem for code that needs it.
    """

    severity: str  # "warning" | "error"
    message: str
    fix: str | None = None
    code: str = ""


@dataclass(frozen=True)
class Fingerprint:
    """What a file looked like when it was read: a change is a different ``sha256``.

    ``sha256`` hashes the bytes read (for a link that leaves the folder: where it points);
    None means nothing could be read. Size and mtime are kept for display and quick checks.
    """

    sha256: str | None
    size: int = -1
    mtime_ns: int = -1


@dataclass(frozen=True)
class PersonaEntry:
    """One entry as the agent reads it, plus what Memory Desk needs to write it back.

    ``type``, ``description``, ``updated`` and ``body`` are what the agent reads (``body``
    with ``\\n`` line breaks); ``raw_type`` is what the file says. Edit with
    ``dataclasses.replace(entry, body=..., description=..., type=...)`` and :meth:`save`.
    ``source`` is the text the entry was read from: saving compares against it to change only
    what the person changed.
    """

    name: str
    path: Path
    type: str
    raw_type: str | None
    description: str
    updated: str
    body: str
    extra: tuple[tuple[str, str], ...]
    problems: tuple[Problem, ...]
    agent_visible: bool
    editable: bool
    fingerprint: Fingerprint
    source: str = field(default="", repr=False)
    newline: str = "\n"
    link_target: Path | None = None

    @property
    def has_errors(self) -> bool:
        """Whether any problem is an error (the entry cannot be edited)."""
        return any(p.severity == "error" for p in self.problems)


@dataclass(frozen=True)
class TrashedEntry:
    """A file Memory Desk took out of an agent folder, kept in its own trash to undo."""

    folder: Path
    name: str
    path: Path  # the trash item (a folder holding the file and its metadata)
    trashed_at: str
    reason: str  # "forget" | "rename"
    renamed_to: str | None = None


# ----------------------------------------------------------------------------- names


def validate_name(name: str) -> str | None:
    """None if ``name`` is an entry name the agent reads and every OS can store, else why not."""
    if not name:
        return "The name is empty."
    if len(name) > MAX_NAME_LENGTH:
        return f"The name is {len(name)} characters long; keep it to {MAX_NAME_LENGTH}."
    if not NAME_RE.fullmatch(name):
        return (
            "Use lowercase letters a-z, digits and single hyphens between them "
            "(like “prefers-short-answers”): the agent ignores other file names."
        )
    if name in RESERVED_NAMES:
        return f"“{name}” is a reserved device name on Windows; choose another name."
    return None


def suggest_name(stem: str, taken: Iterable[str] = ()) -> str:
    """A kebab-case name close to ``stem`` that is valid and not in ``taken``."""
    ascii_text = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "entry"
    base = base[:MAX_NAME_LENGTH].rstrip("-")
    if base in RESERVED_NAMES:
        base += "-entry"
    taken_names = set(taken)
    candidate, n = base, 2
    while candidate in taken_names:
        suffix = f"-{n}"
        candidate = base[: MAX_NAME_LENGTH - len(suffix)].rstrip("-") + suffix
        n += 1
    return candidate


def now_iso() -> str:
    """Now as the agent writes ``updated``: ISO 8601 UTC with milliseconds and ``Z``."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def default_trash_dir() -> Path:
    """Memory Desk's trash: in its own private data folder, outside every agent folder."""
    return trash_dir(create=False)


# ----------------------------------------------------------------------------- the agent's view


def agent_order(entries: Iterable[PersonaEntry]) -> list[PersonaEntry]:
    """The entries the agent sees, in its order: ``updated`` descending, then name."""
    visible = sorted((e for e in entries if e.agent_visible), key=lambda e: utf16_key(e.name))
    return sorted(visible, key=lambda e: utf16_key(e.updated), reverse=True)


def agent_index(entries: Iterable[PersonaEntry]) -> str:
    """Exactly the list of entries the agent's system prompt shows."""
    ordered = agent_order(entries)
    if not ordered:
        return "Nothing yet."
    lines = [f"- {e.name} ({e.type}): {e.description}" for e in ordered[:PROMPT_LIMIT]]
    older = len(ordered) - PROMPT_LIMIT
    if older > 0:
        lines.append(f"({older} older entries aren't listed here: `memory_list` gives them all.)")
    return "\n".join(lines)


def prompt_section(entries: Iterable[PersonaEntry]) -> str:
    """The memory section of the agent's prompt: its heading and the list."""
    return f"{PROMPT_HEADING}\n{agent_index(entries)}"


# ----------------------------------------------------------------------------- problems


def _name_problems(name: str) -> list[Problem]:
    if NAME_RE.fullmatch(name):
        return []
    return [
        Problem(
            "warning",
            f"The agent never sees this entry: its file name “{name}” is not kebab-case "
            f"(lowercase letters, digits and single hyphens, like “{suggest_name(name)}”). "
            "Rename it so the agent can read it.",
            "rename",
            "name-not-kebab",
        )
    ]


def _header_problems(parsed: ParsedFile) -> list[Problem]:
    if parsed.bom_hides_header:
        return [
            Problem(
                "error",
                "The file starts with an invisible byte-order mark, so the agent does not see "
                "its header: it reads the entry as type user with no description, and the "
                "header as part of the text. Remove the mark to edit the entry.",
                "remove-bom",
                "bom",
            )
        ]
    if parsed.unclosed:
        return [
            Problem(
                "warning",
                "The header is never closed by a line “---”, so the agent reads the whole file "
                "as text, with type user and no description. Add the closing line by hand.",
                None,
                "header-unclosed",
            )
        ]
    if not parsed.header_found:
        return [
            Problem(
                "warning",
                "The file has no header (it must start with a line “---”), so the agent reads "
                "it as type user with no description.",
                "add-header",
                "no-header",
            )
        ]
    return []


def _field_problems(name: str, parsed: ParsedFile) -> list[Problem]:
    if not parsed.header_found:
        return []
    problems: list[Problem] = []
    name_field = parsed.field("name")
    if name_field is not None and js_string(name_field.value) != name:
        problems.append(
            Problem(
                "warning",
                f"The name: line says “{js_string(name_field.value)}”, but an entry's name is "
                f"its file name, “{name}”. The agent ignores the name: line.",
                "set-name",
                "name-mismatch",
            )
        )
    problems += _type_problems(parsed)
    problems += _description_problems(parsed)
    problems += _updated_problems(parsed)
    for key in parsed.duplicate_keys():
        problems.append(
            Problem(
                "warning",
                f"The header has more than one “{key}:” line; the agent reads only the last.",
                None,
                "duplicate-key",
            )
        )
    extra = [f.key for f in parsed.fields if f.key not in _KNOWN_KEYS]
    if extra:
        problems.append(
            Problem(
                "warning",
                "The agent ignores the header lines "
                + ", ".join(f"“{k}”" for k in extra)
                + " and drops them the next time it saves this entry.",
                None,
                "extra-keys",
            )
        )
    return problems


_KNOWN_KEYS = ("name", "description", "type", "updated")


def _type_problems(parsed: ParsedFile) -> list[Problem]:
    type_field = parsed.field("type")
    if type_field is None:
        message = "The entry has no type, so the agent reads it as user."
    elif type_field.value in ENTRY_TYPES:
        return []
    else:
        message = (
            f"The type “{js_string(type_field.value)}” is neither user nor feedback, "
            "so the agent reads it as user."
        )
    return [Problem("warning", message, "set-type", "type")]


def _description_problems(parsed: ParsedFile) -> list[Problem]:
    desc_field = parsed.field("description")
    value = desc_field.value if desc_field else None
    if isinstance(value, tuple):
        message = (
            f"The description is a list; the agent reads it as “{js_string(value)}” in its prompt."
        )
    elif not value:
        message = (
            "The description is empty: the agent's prompt lists this entry with nothing "
            "after its name, so the agent may never open it."
        )
    elif value in ODD_DESCRIPTIONS:
        message = (
            f"The description is “{value}”: the agent does not read YAML, so its prompt shows "
            f"just “{value}” (any lines below it are ignored). Write it on one line."
        )
    else:
        return []
    return [Problem("warning", message, None, "description")]


def _updated_problems(parsed: ParsedFile) -> list[Problem]:
    updated_field = parsed.field("updated")
    if updated_field is None:
        message = "The entry has no updated date, so the agent sorts it after every dated entry."
    elif isinstance(updated_field.value, str) and ISO_UTC_MS_RE.fullmatch(updated_field.value):
        return []
    else:
        message = (
            f"The updated date “{js_string(updated_field.value)}” is not in the agent's format "
            "(like 2026-10-07T13:15:05.678Z), so the entry may sort in the wrong place."
        )
    return [Problem("warning", message, "set-updated", "updated")]


def _body_problems(body: str) -> list[Problem]:
    size = len(body.encode("utf-8"))
    if size <= LARGE_BODY_BYTES:
        return []
    return [
        Problem(
            "warning",
            f"The text is {size / 1024:.0f} KB. The agent reads it whole each time it recalls "
            "this entry, which fills its context; consider shortening it.",
            None,
            "large-body",
        )
    ]


def _beyond_prompt_problem() -> Problem:
    return Problem(
        "warning",
        f"The agent's prompt lists only the {PROMPT_LIMIT} most recent entries; this one is not "
        "among them (the agent still finds it when it lists all its memories).",
        None,
        "beyond-prompt",
    )


# ----------------------------------------------------------------------------- building entries


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _entry_from_bytes(
    name: str, path: Path, data: bytes, st: os.stat_result, link_target: Path | None = None
) -> PersonaEntry:
    """An entry from the bytes of its file, read with the agent's grammar."""
    problems: list[Problem] = _name_problems(name)
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
                "The file is not valid UTF-8 text. It is shown with replacement characters "
                "(as the agent reads it) and Memory Desk will not save it.",
                None,
                "not-utf8",
            )
        )
    problems += _header_problems(parsed)
    problems += _field_problems(name, parsed)
    problems += _body_problems(parsed.body)
    type_field = parsed.field("type") or last_field(parsed.hidden_fields, "type")
    return PersonaEntry(
        name=name,
        path=path,
        type=agent_type(parsed.field("type").value if parsed.field("type") else None),
        raw_type=js_trim(type_field.raw) if type_field else None,
        description=js_string(_value(parsed, "description")),
        updated=js_string(_value(parsed, "updated")),
        body=normalize_body(parsed.body),
        extra=tuple(_extra(parsed)),
        problems=tuple(problems),
        agent_visible=bool(NAME_RE.fullmatch(name)),
        editable=utf8 and not parsed.bom_hides_header,
        fingerprint=Fingerprint(_sha256(data), st.st_size, st.st_mtime_ns),
        source=text,
        newline=parsed.newline,
        link_target=link_target,
    )


def _with_problem(entry: PersonaEntry, problem: Problem) -> PersonaEntry:
    """``entry`` with one more problem; a shallow copy, much cheaper than
    ``dataclasses.replace`` for the thousands of entries beyond the prompt."""
    copied = copy.copy(entry)
    object.__setattr__(copied, "problems", (*entry.problems, problem))
    return copied


def _value(parsed: ParsedFile, key: str) -> str | tuple[str, ...] | None:
    f = parsed.field(key)
    return f.value if f else None


def _extra(parsed: ParsedFile) -> list[tuple[str, str]]:
    """Every header field the agent does not use, as ``(key, raw value)`` in file order."""
    out = []
    for f in parsed.fields:
        if f.key in _KNOWN_KEYS:
            continue
        items = [line.text for line in parsed.header[f.first + 1 : f.stop]]
        out.append((f.key, "\n".join([js_trim(f.raw), *items]) if items else js_trim(f.raw)))
    return out


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
        problems=(*_name_problems(name), Problem("error", message, None, code)),
        agent_visible=agent_visible,
        editable=False,
        fingerprint=fingerprint,
        link_target=link_target,
    )


def _is_entry_file_name(file_name: str) -> bool:
    """Whether a directory entry's name can be a persona entry (hidden/swap/backup excluded)."""
    return not file_name.startswith(".") and file_name.endswith(".md") and len(file_name) > 3


def _check_stem(name: str) -> None:
    """Refuse a name that would point anywhere but a file directly in the folder."""
    bad = not name or name.startswith(".") or any(c in name for c in "/\\\0")
    if bad or not _is_entry_file_name(name + ".md"):
        raise StoreError(f"“{name}” is not the name of an entry file.")


def _read_regular(path: Path) -> tuple[bytes, os.stat_result] | None:
    """The bytes of a regular file, or None if it is gone or not a regular file.

    Opens non-blocking and checks the kind after opening, so a FIFO never hangs a listing.
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
        chunks = []
        while chunk := os.read(fd, max(st.st_size, 65536)):
            chunks.append(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def _stat_key(st: os.stat_result) -> tuple[int, ...]:
    """What identifies one version of a file without reading it."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _settled(st: os.stat_result) -> bool:
    """Whether a file was last changed long enough ago that its stat key identifies its bytes.

    File times have a coarse clock (a few milliseconds, up to seconds on some file systems): a
    second write of the same size within the same tick keeps every time. Like git's "racily
    clean" rule, a file changed within ``RACY_NS`` of being read is never cached.
    """
    return time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > RACY_NS


class _TooLarge(Exception):
    def __init__(self, st: os.stat_result) -> None:
        super().__init__(st.st_size)
        self.st = st


# ----------------------------------------------------------------------------- low-level writes


def _fsync_dir(folder: Path) -> None:
    """Make a rename or new file in ``folder`` durable (not possible on Windows)."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _temp_path(folder: Path, name: str) -> Path:
    """A hidden, non-``.md`` name in ``folder``: neither the agent nor a listing sees it."""
    return folder / f".{name}.{secrets.token_hex(4)}{TEMP_SUFFIX}"


def _write_temp(
    folder: Path, name: str, data: bytes, mode: int | None
) -> tuple[Path, os.stat_result]:
    """Write ``data`` to a new hidden file in ``folder``, flushed to disk."""
    tmp = _temp_path(folder, name)
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


def _publish_new(target: Path, data: bytes, mode: int | None) -> os.stat_result:
    """Create ``target`` holding ``data``, complete at once, never replacing a file there.

    The bytes go to a hidden temporary file that is then hard-linked to ``target`` (which fails
    if ``target`` exists). Where hard links are not supported, the file is created with
    O_EXCL and written directly.
    """
    tmp, st = _write_temp(target.parent, target.name, data, mode)
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
        st = _create_exclusive(target, data, mode)
    finally:
        tmp.unlink(missing_ok=True)
    _fsync_dir(target.parent)
    return st


def _create_exclusive(target: Path, data: bytes, mode: int | None) -> os.stat_result:
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


def _current_sha(path: Path) -> str | None:
    """The hash of what is in ``path`` now, or None if there is no readable file."""
    try:
        read = _read_regular(path)
    except (OSError, _TooLarge):
        return None
    return _sha256(read[0]) if read else None


def _os_message(exc: OSError) -> str:
    return exc.strerror or str(exc)


# ----------------------------------------------------------------------------- the folder


class PersonaFolder:
    """One agent's memory folder, read and written the way the agent does.

    ``trash`` is where renamed and forgotten files go (default: :func:`default_trash_dir`); it
    is created only when something is first put in it.
    """

    def __init__(self, path: str | os.PathLike[str], *, trash: Path | None = None) -> None:
        folder = Path(path).expanduser().absolute()
        if not folder.is_dir():
            raise StoreError(f"“{folder}” is not a folder (or it does not exist).")
        if not os.access(folder, os.R_OK | os.X_OK):
            raise StoreError(f"Memory Desk is not allowed to read the folder “{folder}”.")
        self.path = folder
        self._real = folder.resolve()
        self.trash = trash if trash is not None else default_trash_dir()
        self._cache: dict[str, tuple[tuple[int, ...], PersonaEntry]] = {}

    def __repr__(self) -> str:
        return f"PersonaFolder({str(self.path)!r})"

    # ------------------------------------------------------------------ reading

    def entries(self) -> list[PersonaEntry]:
        """Every entry: the agent's in its order, then those the agent cannot see, by name.

        Entries beyond the first ``PROMPT_LIMIT`` the agent sees carry a warning that its prompt
        does not list them.
        """
        names = self._entry_names()
        loaded = [e for e in (self._load(n, use_cache=True) for n in names) if e is not None]
        self._cache = {n: self._cache[n] for n in names if n in self._cache}
        visible = agent_order(loaded)
        hidden = sorted((e for e in loaded if not e.agent_visible), key=lambda e: e.name)
        beyond = _beyond_prompt_problem()
        visible[PROMPT_LIMIT:] = [_with_problem(e, beyond) for e in visible[PROMPT_LIMIT:]]
        return visible + hidden

    def names(self) -> list[str]:
        """The names of every file that could be an entry (cheap: no file is read)."""
        return sorted(self._entry_names())

    def read(self, name: str) -> PersonaEntry:
        """The entry ``name`` (its file stem) as it is on disk now."""
        _check_stem(name)
        entry = self._load(name)
        if entry is None:
            raise StoreError(f"There is no entry “{name}” in {self.path}.")
        return entry

    def has_changed(self, entry: PersonaEntry) -> bool:
        """Whether the file now differs from what ``entry`` was read from, or is gone."""
        current = self._load(entry.name)
        return current is None or current.fingerprint.sha256 != entry.fingerprint.sha256

    def _entry_names(self) -> list[str]:
        try:
            with os.scandir(self.path) as it:
                return [d.name[:-3] for d in it if _is_entry_file_name(d.name)]
        except OSError as exc:
            raise StoreError(f"Could not list “{self.path}”: {_os_message(exc)}.") from exc

    def _entry_path(self, name: str) -> Path:
        return self.path / f"{name}.md"

    def _load(self, name: str, *, use_cache: bool = False) -> PersonaEntry | None:
        """Read one entry; None when the name is not (or no longer) an entry file.

        With ``use_cache`` (listings only), a regular file whose identity, size and times are
        those of the last read is not read again; :meth:`read` and :meth:`has_changed` always
        read the bytes.
        """
        path = self._entry_path(name)
        try:
            lst = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return self._unreadable(name, path, exc)
        if use_cache and (hit := self._cache.get(name)) and hit[0] == _stat_key(lst):
            return hit[1]
        link_target = None
        if stat.S_ISLNK(lst.st_mode):
            link_target = Path(os.path.realpath(path))
            problem = self._link_problem(path, link_target)
            if problem is not None:
                text_fp = Fingerprint(_sha256(os.fsencode(os.readlink(path))))
                return _error_entry(
                    name, path, problem[0], problem[1], text_fp, link_target=link_target
                )
        elif not stat.S_ISREG(lst.st_mode):
            return None
        try:
            read = _read_regular(path)
        except _TooLarge as big:
            message = (
                f"The file is {big.st.st_size // (1024 * 1024)} MB, too large for Memory Desk "
                "to open."
            )
            fp = Fingerprint(None, big.st.st_size, big.st.st_mtime_ns)
            visible = bool(NAME_RE.fullmatch(name))
            return _error_entry(name, path, message, "too-large", fp, agent_visible=visible)
        except OSError as exc:
            return self._unreadable(name, path, exc)
        if read is None:
            return None
        entry = _entry_from_bytes(name, path, read[0], read[1], link_target)
        if link_target is None and _settled(read[1]):
            self._cache[name] = (_stat_key(read[1]), entry)
        return entry

    def _link_problem(self, path: Path, target: Path) -> tuple[str, str] | None:
        """Why a link cannot be an entry, as (message, code), or None if it is fine."""
        if not target.exists():
            return (f"This is a link to “{target}”, which does not exist.", "broken-link")
        if target.parent != self._real:
            return (
                f"This is a link to “{target}”, outside the folder. The agent ignores it and "
                "Memory Desk never writes through it.",
                "link-outside",
            )
        return None

    @staticmethod
    def _unreadable(name: str, path: Path, exc: OSError) -> PersonaEntry:
        message = f"Memory Desk cannot read this file ({_os_message(exc)}); neither can the agent."
        return _error_entry(name, path, message, "unreadable", Fingerprint(None))

    # ------------------------------------------------------------------ writing

    def save(self, entry: PersonaEntry, *, force: bool = False) -> PersonaEntry:
        """Write the person's edits of ``entry``; ``updated`` becomes now.

        Only what changed is rewritten: a changed description or type replaces its own line,
        a changed body replaces the text after the header; every other byte stays as it is.
        Raises ConflictError, leaving the disk untouched, when the file changed since
        ``entry`` was read (``force=True`` writes anyway).
        """
        self._check_editable(entry)
        if entry.path.name != f"{entry.name}.md":
            raise StoreError("To change an entry's name, rename it; saving keeps the file name.")
        _check_description(entry.description)
        if entry.type not in ENTRY_TYPES:
            raise StoreError(f"The type must be one of {', '.join(ENTRY_TYPES)}.")
        original = parse_text(entry.source)
        if original.header_found:
            changes: dict[str, str] = {}
            if entry.description != js_string(_value(original, "description")):
                changes["description"] = entry.description
            if entry.type != agent_type(_value(original, "type")):
                changes["type"] = entry.type
            changes["updated"] = now_iso()
            body = None if entry.body == normalize_body(original.body) else entry.body
            text = compose(original, rewrite_header(original, changes), body)
        else:
            text = render_new_file(
                name=entry.name,
                description=entry.description,
                type=entry.type,
                updated=now_iso(),
                body=entry.body,
                newline=original.newline,
            )
        return self._replace(entry, text.encode("utf-8"), force=force)

    def create(self, *, name: str, type: str, description: str, body: str) -> PersonaEntry:
        """A new entry, written exactly as the agent writes one; never replaces a file."""
        problem = validate_name(name)
        if problem:
            raise StoreError(problem)
        if type not in ENTRY_TYPES:
            raise StoreError(f"The type must be one of {', '.join(ENTRY_TYPES)}.")
        _check_description(description)
        path = self._entry_path(name)
        if path.resolve().parent != self._real:
            raise StoreError(f"“{name}” would not be stored inside {self.path}.")
        text = render_new_file(
            name=name, description=description, type=type, updated=now_iso(), body=body
        )
        data = text.encode("utf-8")
        try:
            st = _publish_new(path, data, None)
        except FileExistsError as exc:
            raise ConflictError(f"An entry named “{name}” already exists.") from exc
        except OSError as exc:
            raise StoreError(f"Could not create “{name}”: {_os_message(exc)}.") from exc
        return _entry_from_bytes(name, path, data, st)

    def rename(self, entry: PersonaEntry, new_name: str) -> PersonaEntry:
        """Give ``entry`` a new file name; the old file goes to the trash (undo: undo_rename).

        The ``name:`` line follows the new name; everything else stays byte-identical.
        """
        problem = validate_name(new_name)
        if problem:
            raise StoreError(problem)
        if new_name == entry.name:
            return self.read(new_name)
        if entry.link_target is not None or entry.fingerprint.sha256 is None:
            raise StoreError(f"“{entry.name}” cannot be renamed here: {_first_error(entry)}")
        new_path = self._entry_path(new_name)
        if os.path.lexists(new_path) and not _same_file(new_path, entry.path):
            # (the same file: a change of case on a case-insensitive file system)
            raise ConflictError(f"An entry named “{new_name}” already exists.")
        with self._taken_out(entry.name, entry.fingerprint.sha256) as (data, mode):
            new_data = _renamed_bytes(data, new_name)
            trashed = self._put_in_trash(entry.name, data, mode, "rename", renamed_to=new_name)
            try:
                st = _publish_new(new_path, new_data, mode)
            except FileExistsError as exc:
                shutil.rmtree(trashed.path, ignore_errors=True)
                raise ConflictError(f"An entry named “{new_name}” already exists.") from exc
            except OSError as exc:
                shutil.rmtree(trashed.path, ignore_errors=True)
                raise StoreError(f"Could not rename “{entry.name}”: {_os_message(exc)}.") from exc
        return _entry_from_bytes(new_name, new_path, new_data, st)

    def undo_rename(self, renamed: PersonaEntry, old_name: str) -> PersonaEntry:
        """Put a renamed entry back under ``old_name``, byte for byte as it was.

        ConflictError if the renamed file changed since the rename (undoing would lose that
        change) or if ``old_name`` is taken again.
        """
        trashed = next(
            (
                t
                for t in self.trashed()
                if t.reason == "rename" and t.name == old_name and t.renamed_to == renamed.name
            ),
            None,
        )
        if trashed is None:
            raise StoreError(f"Memory Desk has no record of renaming “{old_name}”.")
        if os.path.lexists(self._entry_path(old_name)):
            raise ConflictError(f"An entry named “{old_name}” exists again.")
        meta = _read_meta(trashed.path)
        try:
            old_data = (trashed.path / meta["file"]).read_bytes()
        except OSError as exc:
            raise StoreError(f"The trash copy of “{old_name}” is missing.") from exc
        as_renamed = _sha256(_renamed_bytes(old_data, renamed.name))
        try:
            with self._taken_out(renamed.name, as_renamed):
                return self.unforget(trashed)
        except ConflictError as exc:
            raise ConflictError(
                f"“{renamed.name}” changed since it was renamed, or “{old_name}” exists "
                "again; the rename was not undone."
            ) from exc

    def forget(self, name: str) -> TrashedEntry:
        """Take entry ``name`` out of the folder (the agent forgets it) into the trash."""
        _check_stem(name)
        path = self._entry_path(name)
        try:
            lst = os.lstat(path)
        except FileNotFoundError as exc:
            raise StoreError(f"There is no entry “{name}” in {self.path}.") from exc
        except OSError as exc:
            raise StoreError(f"Could not forget “{name}”: {_os_message(exc)}.") from exc
        if stat.S_ISLNK(lst.st_mode):
            return self._forget_link(name, path)
        if not stat.S_ISREG(lst.st_mode):
            raise StoreError(f"“{name}.md” is not an entry file (it is a folder or a device).")
        with self._taken_out(name, None) as (data, mode):
            return self._put_in_trash(name, data, mode, "forget")

    def unforget(self, trashed: TrashedEntry) -> PersonaEntry:
        """Put a trashed file back in the folder; ConflictError if its name is taken again."""
        meta = _read_meta(trashed.path)
        if Path(meta["folder"]) != self._real:
            raise StoreError(
                f"“{trashed.name}” was forgotten from another folder, {meta['folder']}."
            )
        path = self._entry_path(trashed.name)
        try:
            if meta.get("symlink"):
                os.symlink(meta["symlink"], path)
                _fsync_dir(self.path)
            else:
                data = (trashed.path / meta["file"]).read_bytes()
                _publish_new(path, data, meta.get("mode"))
        except FileExistsError as exc:
            raise ConflictError(
                f"An entry named “{trashed.name}” exists again; rename or forget it first."
            ) from exc
        except OSError as exc:
            raise StoreError(f"Could not put “{trashed.name}” back: {_os_message(exc)}.") from exc
        shutil.rmtree(trashed.path, ignore_errors=True)
        return self.read(trashed.name)

    def trashed(self) -> list[TrashedEntry]:
        """What Memory Desk took out of this folder and still keeps, newest first."""
        if not self.trash.is_dir():
            return []
        items = []
        for item in sorted(self.trash.iterdir(), reverse=True):
            try:
                meta = _read_meta(item)
            except StoreError:
                continue
            if Path(meta["folder"]) == self._real:
                items.append(_trashed_from_meta(item, meta))
        return items

    def fix(self, entry: PersonaEntry, fix_id: str) -> PersonaEntry:
        """Apply a one-click fix to the file ``entry`` was read from (its unsaved edits are not
        written); ConflictError if the file changed since."""
        if fix_id == "rename":
            taken = set(self.names())
            return self.rename(entry, suggest_name(entry.name, taken))
        if entry.fingerprint.sha256 is None or any(
            p.code in ("not-utf8", "link-outside", "broken-link") for p in entry.problems
        ):
            raise StoreError(f"“{entry.name}” cannot be fixed here: {_first_error(entry)}")
        parsed = parse_text(entry.source)
        if fix_id == "remove-bom":
            if not parsed.bom:
                raise StoreError("The file has no byte-order mark.")
            text = entry.source[len(BOM) :]
        elif fix_id == "add-header":
            text = self._with_new_header(entry, parsed)
        elif fix_id in ("set-name", "set-type", "set-updated"):
            if not parsed.header_found:
                raise StoreError("The file has no header the agent reads; add one first.")
            key, value = {
                "set-name": ("name", entry.name),
                "set-type": ("type", agent_type(_value(parsed, "type"))),
                "set-updated": ("updated", now_iso()),
            }[fix_id]
            text = compose(parsed, rewrite_header(parsed, {key: value}), None)
        else:
            raise StoreError(f"Unknown fix “{fix_id}”.")
        return self._replace(entry, text.encode("utf-8"), force=False)

    # ------------------------------------------------------------------ write helpers

    @staticmethod
    def _check_editable(entry: PersonaEntry) -> None:
        if not entry.editable:
            raise StoreError(f"“{entry.name}” cannot be saved: {_first_error(entry)}")

    @staticmethod
    def _with_new_header(entry: PersonaEntry, parsed: ParsedFile) -> str:
        """The file with the agent's header in front of its text, which stays as it is."""
        if parsed.header_found or parsed.bom_hides_header:
            raise StoreError("The file already has a header.")
        nl = parsed.newline
        text = entry.source[len(BOM) :] if parsed.bom else entry.source
        header = render_new_file(
            name=entry.name,
            description=_description_from_body(parsed.body),
            type="user",
            updated=now_iso(),
            body="",
            newline=nl,
        )
        return header[: -len(nl)] + text  # the agent's header and blank line, then the text

    def _replace(self, entry: PersonaEntry, data: bytes, *, force: bool) -> PersonaEntry:
        """Atomically replace ``entry``'s file with ``data`` unless it changed since read."""
        target = entry.link_target or entry.path
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            if not force:
                raise ConflictError(
                    f"“{entry.name}” was deleted or renamed on disk since it was opened."
                ) from None
            mode = None
        except OSError as exc:
            raise StoreError(f"Could not save “{entry.name}”: {_os_message(exc)}.") from exc
        if not force:
            self._check_unchanged(entry, target)
        try:
            tmp, st = _write_temp(target.parent, target.name, data, mode)
        except OSError as exc:
            raise StoreError(f"Could not save “{entry.name}”: {_os_message(exc)}.") from exc
        try:
            if not force:
                self._check_unchanged(entry, target)
            os.replace(tmp, target)
            _fsync_dir(target.parent)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise StoreError(f"Could not save “{entry.name}”: {_os_message(exc)}.") from exc
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return _entry_from_bytes(entry.name, entry.path, data, st, entry.link_target)

    @staticmethod
    def _check_unchanged(entry: PersonaEntry, target: Path) -> None:
        if _current_sha(target) != entry.fingerprint.sha256:
            raise ConflictError(
                f"“{entry.name}” changed on disk since it was opened (perhaps the agent saved "
                "it). Nothing was written."
            )

    @contextlib.contextmanager
    def _taken_out(self, name: str, expected_sha: str | None) -> Iterator[tuple[bytes, int]]:
        """Move entry ``name`` aside under a hidden name, so the agent no longer sees it.

        Yields its bytes and mode. On success the hidden file is deleted; on any error it is
        put back (unless the agent wrote a new file of that name meanwhile: then it raises).
        """
        path = self._entry_path(name)
        aside = _temp_path(self.path, f"{name}.md")
        try:
            os.rename(path, aside)
        except FileNotFoundError as exc:
            raise ConflictError(f"“{name}” is no longer in {self.path}.") from exc
        except OSError as exc:
            raise StoreError(f"Could not move “{name}”: {_os_message(exc)}.") from exc
        try:
            data = aside.read_bytes()
            if expected_sha is not None and _sha256(data) != expected_sha:
                raise ConflictError(
                    f"“{name}” changed on disk since it was opened. Nothing was changed."
                )
            yield data, stat.S_IMODE(os.stat(aside).st_mode)
        except BaseException:
            _put_back(aside, path)
            raise
        aside.unlink(missing_ok=True)
        _fsync_dir(self.path)

    def _forget_link(self, name: str, path: Path) -> TrashedEntry:
        target = os.readlink(path)
        trashed = self._put_in_trash(name, b"", None, "forget", symlink=target)
        try:
            path.unlink()
            _fsync_dir(self.path)
        except OSError as exc:
            shutil.rmtree(trashed.path, ignore_errors=True)
            raise StoreError(f"Could not forget “{name}”: {_os_message(exc)}.") from exc
        return trashed

    def _put_in_trash(
        self,
        name: str,
        data: bytes,
        mode: int | None,
        reason: str,
        *,
        renamed_to: str | None = None,
        symlink: str | None = None,
    ) -> TrashedEntry:
        """Keep a copy of an entry's file in Memory Desk's trash, with what undo needs."""
        trash = self.trash.absolute()
        if trash.resolve().is_relative_to(self._real):
            raise StoreError(
                "Memory Desk's trash would be inside the agent's folder; not using it."
            )
        trashed_at = now_iso()
        stamp = trashed_at.replace(":", "").replace("-", "").replace(".", "")
        item = trash / f"{stamp}-{secrets.token_hex(4)}"
        meta = {
            "version": 1,
            "folder": str(self._real),
            "name": name,
            "file": f"{name}.md",
            "reason": reason,
            "renamed_to": renamed_to,
            "trashed_at": trashed_at,
            "mode": mode,
            "symlink": symlink,
            "sha256": _sha256(data),
        }
        try:
            trash.mkdir(parents=True, exist_ok=True, mode=0o700)
            item.mkdir(mode=0o700)
            _create_exclusive(item / meta["file"], data, 0o600)
            _create_exclusive(item / "trashed.json", json.dumps(meta, indent=1).encode(), 0o600)
            _fsync_dir(item)
            _fsync_dir(trash)
        except OSError as exc:
            shutil.rmtree(item, ignore_errors=True)
            raise StoreError(
                f"Could not keep a copy of “{name}” in Memory Desk's trash ({trash}): "
                f"{_os_message(exc)}. Nothing was changed."
            ) from exc
        return _trashed_from_meta(item, meta)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _put_back(aside: Path, path: Path) -> None:
    """Return a file moved aside to its name, never over a file the agent wrote meanwhile."""
    try:
        os.link(aside, path, follow_symlinks=False)
    except FileExistsError as exc:
        raise StoreError(
            f"“{path.stem}” was written again while Memory Desk moved it; the previous version "
            f"is kept in “{aside}”."
        ) from exc
    aside.unlink(missing_ok=True)


def _renamed_bytes(data: bytes, new_name: str) -> bytes:
    """The file's bytes with its ``name:`` line (if the agent's header has one) renamed."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    bom = BOM if text.startswith(BOM) else ""
    parsed = parse_text(text[len(bom) :])
    if not parsed.header_found or parsed.field("name") is None:
        return data
    return (bom + compose(parsed, rewrite_header(parsed, {"name": new_name}), None)).encode()


def _check_description(description: str) -> None:
    if any(c in description for c in "\r\n\u2028\u2029"):
        raise StoreError("The description must be one line.")


def _description_from_body(body: str) -> str:
    """A first guess at a description: the body's first line, without markdown marks."""
    for line in body.splitlines():
        text = js_trim(line.lstrip("#>*- \t"))
        if text:
            return text[:120]
    return ""


def _first_error(entry: PersonaEntry) -> str:
    errors = [p.message for p in entry.problems if p.severity == "error"]
    return errors[0] if errors else "it cannot be read."


def _read_meta(item: Path) -> dict:
    try:
        meta = json.loads((item / "trashed.json").read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise StoreError(f"The trash item “{item}” is missing or damaged.") from exc
    if not isinstance(meta, dict) or meta.get("version") != 1:
        raise StoreError(f"The trash item “{item}” is missing or damaged.")
    return meta


def _trashed_from_meta(item: Path, meta: dict) -> TrashedEntry:
    return TrashedEntry(
        folder=Path(meta["folder"]),
        name=meta["name"],
        path=item,
        trashed_at=meta["trashed_at"],
        reason=meta["reason"],
        renamed_to=meta.get("renamed_to"),
    )
