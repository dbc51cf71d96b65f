"""What an entry is, and the agent's rules for what it holds: names, descriptions, text.

A :class:`PersonaEntry` is one file read as the agent reads it; its :class:`Problem` s say
what the person should know about it. The rules here (a kebab-case name every OS can store, a
one-line description that is not empty, text that can be stored as UTF-8) are checked before
anything is written, so a refusal always comes before a change.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.hidden_text import is_hidden, placeholder
from memory_desk.core.jstext import JS_SPACE_RUNS_RE
from memory_desk.core.messages import msg
from memory_desk.core.persona_format import js_trim

NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
ENTRY_TYPES: tuple[str, ...] = ("user", "feedback")
MAX_NAME_LENGTH = 252  # "<name>.md" fills a file name at the file systems' limit, 255 bytes
RESERVED_NAMES = frozenset(
    {"con", "prn", "aux", "nul"} | {f"com{i}" for i in range(10)} | {f"lpt{i}" for i in range(10)}
)
KNOWN_KEYS = ("name", "description", "type", "updated")  # the header keys the agent uses


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

    ``sha256`` hashes the bytes read (for a link that cannot be followed: where it points);
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


def read_whole(entry: PersonaEntry) -> bool:
    """Whether ``entry`` was read from its whole file (its fingerprint hashes the file; a
    large file is listed by its start)."""
    return entry.fingerprint.sha256 is not None


# ----------------------------------------------------------------------------- names


def validate_name(name: str) -> str | None:
    """None if ``name`` is an entry name the agent reads and every OS can store, else why not."""
    if not name:
        return msg("Persona", "The name is empty.")
    if len(name) > MAX_NAME_LENGTH:
        return msg(
            "Persona",
            "The name is {length} characters long; keep it to {limit}.",
            length=len(name),
            limit=MAX_NAME_LENGTH,
        )
    if not NAME_RE.fullmatch(name):
        return msg(
            "Persona",
            "Use lowercase letters a-z, digits and single hyphens between them "
            "(like “prefers-short-answers”): the agent ignores other file names.",
        )
    if name in RESERVED_NAMES:
        return msg(
            "Persona",
            "“{name}” is a reserved device name on Windows; choose another name.",
            name=name,
        )
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


def printable_name(name: str) -> str:
    """A file name as it can be shown in a sentence: control characters (C0, C1, DEL, U+2028,
    U+2029) and bytes that are not UTF-8 written as escapes, so a name with a line break
    reads as one line and the person sees that something odd is in it; invisible characters
    (bidi controls, zero-width ones) as the placeholders every text shows them with
    (:mod:`memory_desk.core.hidden_text`)."""
    return "".join(
        ch if ch.isprintable() else placeholder(ch) if is_hidden(ch) else _escape(ch) for ch in name
    )


def _escape(ch: str) -> str:
    """One character that cannot be shown as it is, as an escape a person can read."""
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8 (os.fsdecode's surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch, f"\\u{code:04x}")


def header_name(name: str) -> str:
    """What a ``name:`` line may say for the file ``name``: the name itself when the agent
    reads it, else the kebab name a rename would give (a file name can hold line breaks or
    other control characters, which must never reach a header)."""
    return name if NAME_RE.fullmatch(name) else suggest_name(name)


def os_message(exc: OSError) -> str:
    """The operating system's own words for a failed file operation, for a message."""
    return exc.strerror or str(exc)


# What a failed file operation says: one whole sentence per operation (so that each is
# translated as one), with the operating system's own words as its reason.


def could_not_list(folder: Path, exc: OSError) -> str:
    return msg(
        "Persona",
        "Could not list “{folder}”: {reason}.",
        folder=str(folder),
        reason=os_message(exc),
    )


def could_not_create(name: str, exc: OSError) -> str:
    return msg("Persona", "Could not create “{name}”: {reason}.", name=name, reason=os_message(exc))


def could_not_save(name: str, exc: OSError) -> str:
    return msg("Persona", "Could not save “{name}”: {reason}.", name=name, reason=os_message(exc))


def could_not_rename(name: str, exc: OSError) -> str:
    return msg("Persona", "Could not rename “{name}”: {reason}.", name=name, reason=os_message(exc))


def could_not_move(name: str, exc: OSError) -> str:
    return msg("Persona", "Could not move “{name}”: {reason}.", name=name, reason=os_message(exc))


def could_not_forget(name: str, exc: OSError) -> str:
    return msg("Persona", "Could not forget “{name}”: {reason}.", name=name, reason=os_message(exc))


def could_not_put_back(name: str, exc: OSError) -> str:
    return msg(
        "Persona", "Could not put “{name}” back: {reason}.", name=name, reason=os_message(exc)
    )


def already_exists(name: str) -> str:
    return msg("Persona", "An entry named “{name}” already exists.", name=name)


def no_such_entry(name: str, folder: Path) -> str:
    return msg("Persona", "There is no entry “{name}” in {folder}.", name=name, folder=str(folder))


def bad_type() -> str:
    return msg("Persona", "The type must be one of {types}.", types=", ".join(ENTRY_TYPES))


# ----------------------------------------------------------------------------- what is stored


def agent_description(description: str) -> str:
    """The description as the agent stores it: each run of JavaScript whitespace (line breaks
    included) one space, then trimmed. What Memory Desk writes is what the agent would."""
    return js_trim(JS_SPACE_RUNS_RE.sub(" ", description))


def now_iso() -> str:
    """Now as the agent writes ``updated``: ISO 8601 UTC with milliseconds and ``Z``."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def check_description(description: str) -> str:
    """The description as it will be stored (the agent's one-line rule), or StoreError when
    that leaves nothing: the agent's ``remember`` cannot update an entry without one."""
    check_storable("description", description)
    one_line = agent_description(description)
    if not one_line:
        raise StoreError(
            msg(
                "Persona",
                "The entry needs a description: the agent's prompt lists the entry by it, and "
                "the agent cannot update an entry without one. Type a line saying what it is "
                "about.",
            )
        )
    return one_line


def check_storable(what: str, text: str) -> None:
    """StoreError, before anything is written, for text that cannot be stored as UTF-8: a
    lone surrogate (half of a character outside the BMP) that came from a paste or a bad
    file name. ``what`` is ``"description"`` or ``"text"``: what the message calls it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code, position = f"{ord(text[exc.start]):04X}", exc.start + 1
        if what == "description":
            message = msg(
                "Persona",
                "The description holds a broken character (U+{code}, half of a surrogate "
                "pair) at position {position}, which cannot be stored as text. Remove it and "
                "save again.",
                code=code,
                position=position,
            )
        else:
            message = msg(
                "Persona",
                "The text holds a broken character (U+{code}, half of a surrogate pair) at "
                "position {position}, which cannot be stored as text. Remove it and save "
                "again.",
                code=code,
                position=position,
            )
        raise StoreError(message) from None


def utf8(text: str) -> bytes:
    """``text`` as the bytes to write; StoreError (never UnicodeEncodeError) if it cannot be."""
    check_storable("text", text)
    return text.encode("utf-8")


# ----------------------------------------------------------------------------- refusals


def unreadable_folder(folder: Path) -> str | None:
    """Why ``folder`` cannot be read as an agent's memory folder, or None when it can."""
    if not folder.is_dir():
        return msg(
            "Persona", "“{folder}” is not a folder (or it does not exist).", folder=str(folder)
        )
    if not os.access(folder, os.R_OK | os.X_OK):
        return msg(
            "Persona",
            "Memory Desk is not allowed to read the folder “{folder}”.",
            folder=str(folder),
        )
    return None


def cannot_save(entry: PersonaEntry) -> str:
    """Why ``entry`` is not saved: its first error."""
    name = printable_name(entry.name)
    return msg("Persona", "“{name}” cannot be saved: {why}", name=name, why=first_error(entry))


def cannot_fix(entry: PersonaEntry) -> str:
    """Why ``entry``'s file is not fixed here: its first error."""
    name = printable_name(entry.name)
    return msg("Persona", "“{name}” cannot be fixed here: {why}", name=name, why=first_error(entry))


def cannot_rename(entry: PersonaEntry) -> str:
    """Why ``entry``'s file is not renamed here: a link stays where its file is."""
    name = printable_name(entry.name)
    if entry.link_target is not None and not entry.has_errors:
        return msg(
            "Persona",
            "“{name}” cannot be renamed here: it is a link to “{target}”. Rename that file, or "
            "forget the link and create the entry anew.",
            name=name,
            target=str(entry.link_target),
        )
    return msg(
        "Persona", "“{name}” cannot be renamed here: {why}", name=name, why=first_error(entry)
    )


def first_error(entry: PersonaEntry) -> str:
    """The first error of ``entry``, to say why it cannot be written."""
    errors = [p.message for p in entry.problems if p.severity == "error"]
    return errors[0] if errors else msg("Persona", "it cannot be read.")


def no_rename_record(old_name: str) -> str:
    return msg("Persona", "Memory Desk has no record of renaming “{name}”.", name=old_name)


def changed_since_rename(name: str, old_name: str) -> str:
    return msg(
        "Persona",
        "“{name}” changed since it was renamed, or “{old_name}” exists again; the "
        "rename was not undone.",
        name=name,
        old_name=old_name,
    )


def trash_copy_missing(name: str) -> str:
    return msg("Persona", "The trash copy of “{name}” is missing.", name=name)
