"""The agent-kit persona file, read exactly as the agent reads it (FORMATS.md, part B).

The agent does not use YAML: it reads a small line grammar of its own, and what Memory Desk
shows as an entry's type and description must be what the agent reads, quirks included. This
module is that grammar, as pure functions over text, plus the few helpers that write a header
line back so the agent reads it as the person typed it. It knows nothing about folders.

The grammar:

- the file must start with ``---`` and a line break (a byte-order mark in front hides the
  header from the agent); the header ends at the next line that is exactly ``---``;
- lines break at ``\\n`` or ``\\r\\n`` (JavaScript's ``split(/\\r?\\n/)``);
- a header line ``key: value`` (key ``[A-Za-z_][\\w-]*``, ASCII) is one field, the last one
  of a key wins; other lines are skipped;
- a value is trimmed; ``[a, b]`` is a list; an empty value followed by indented ``- item`` lines
  is a list; otherwise one leading and one trailing quote (``"`` or ``'``) are stripped;
- the body is everything after the closing line, trimmed like JavaScript's ``trim()``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import NamedTuple

from memory_desk.core.jstext import js_trim

BOM = "\ufeff"
HEADER_FENCE = "---"
QUOTES = "\"'"
KEY_LINE_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(.*)", re.DOTALL)
LIST_ITEM_RE = re.compile(r"[ \t]+-(?:[ \t]+(.*))?", re.DOTALL)
ISO_UTC_MS_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")

Value = str | tuple[str, ...]


class Line(NamedTuple):
    """One line of a file: its text and the line break that ended it (``""`` at the end).

    Tuples, not dataclasses: a listing builds tens of thousands of them.
    """

    text: str
    end: str

    @property
    def raw(self) -> str:
        """The line exactly as it is in the file."""
        return self.text + self.end


class Field(NamedTuple):
    """One header field as the agent reads it, and where its lines are in the header."""

    key: str
    value: Value
    raw: str  # what follows "key:" on its line, untouched
    first: int  # index of the key line among the header lines
    stop: int  # index just after its last line (block list items included)


@dataclass(frozen=True)
class ParsedFile:
    """A persona file split the way the agent splits it.

    ``header_found`` is what the agent sees. When a byte-order mark hides a header that would be
    read without it, ``bom_hides_header`` is true and ``hidden_fields`` holds what it says.
    """

    text: str
    bom: bool
    header_found: bool
    unclosed: bool  # starts like a header but no line closes it
    opening: Line | None
    header: tuple[Line, ...]
    closing: Line | None
    rest: str  # everything after the closing line; the whole text when there is no header
    fields: tuple[Field, ...]
    body: str  # trimmed like the agent trims it, line breaks as in the file
    newline: str
    bom_hides_header: bool = False
    hidden_fields: tuple[Field, ...] = ()
    by_key: dict[str, Field] = dataclass_field(default_factory=dict, compare=False, repr=False)

    def field(self, key: str) -> Field | None:
        """The field the agent reads for ``key``: the last line with that key."""
        return self.by_key.get(key)

    def duplicate_keys(self) -> tuple[str, ...]:
        """Keys that appear more than once (the agent reads only the last)."""
        seen: list[str] = []
        dupes: list[str] = []
        for f in self.fields:
            if f.key in seen and f.key not in dupes:
                dupes.append(f.key)
            seen.append(f.key)
        return tuple(dupes)


def last_field(fields: tuple[Field, ...], key: str) -> Field | None:
    """The last field named ``key`` (later lines override earlier ones, as in a JS object)."""
    for f in reversed(fields):
        if f.key == key:
            return f
    return None


def iter_lines(text: str, start: int = 0) -> Iterator[tuple[Line, int]]:
    """Lines from ``start``, split at ``\\n`` / ``\\r\\n`` (a lone ``\\r`` stays in the line),
    each with the offset just after it. Lazy, so reading a header never splits the body."""
    pos = start
    size = len(text)
    while pos < size:
        nl = text.find("\n", pos)
        if nl == -1:
            yield Line(text[pos:], ""), size
            return
        if nl > pos and text[nl - 1] == "\r":
            yield Line(text[pos : nl - 1], "\r\n"), nl + 1
        else:
            yield Line(text[pos:nl], "\n"), nl + 1
        pos = nl + 1


def unquote(value: str) -> str:
    """Strip one leading and one trailing quote character, as the agent does."""
    if value[:1] in QUOTES and value:
        value = value[1:]
    if value[-1:] in QUOTES and value:
        value = value[:-1]
    return value


def read_value(raw: str) -> str | tuple[str, ...]:
    """The value of ``key: raw`` as the agent reads it (a one-line list or a string)."""
    value = js_trim(raw)
    if len(value) >= 2 and value.startswith("[") and value.endswith("]"):
        items = (unquote(js_trim(item)) for item in value[1:-1].split(","))
        return tuple(item for item in items if item)
    return unquote(value)


def parse_fields(lines: tuple[Line, ...]) -> tuple[Field, ...]:
    """Read the header lines into fields; lines that are not ``key: value`` are skipped."""
    fields: list[Field] = []
    index = 0
    while index < len(lines):
        match = KEY_LINE_RE.fullmatch(lines[index].text)
        if not match:
            index += 1
            continue
        key, raw = match.group(1), match.group(2)
        value: Value = read_value(raw)
        stop = index + 1
        if js_trim(raw) == "":
            items: list[str] = []
            while stop < len(lines) and (item := LIST_ITEM_RE.fullmatch(lines[stop].text)):
                items.append(unquote(js_trim(item.group(1) or "")))
                stop += 1
            if items:
                value = tuple(items)
        fields.append(Field(key, value, raw, index, stop))
        index = stop
    return tuple(fields)


def _opening_line(text: str) -> Line | None:
    """The opening ``---`` line, if the text starts with one the agent accepts."""
    if text.startswith(HEADER_FENCE + "\r\n"):
        return Line(HEADER_FENCE, "\r\n")
    if text.startswith(HEADER_FENCE + "\n"):
        return Line(HEADER_FENCE, "\n")
    return None


def detect_newline(text: str) -> str:
    """The file's line break style: the one that ends its first line (``\\n`` if none)."""
    nl = text.find("\n")
    return "\r\n" if nl > 0 and text[nl - 1] == "\r" else "\n"


def parse_text(text: str) -> ParsedFile:
    """Split ``text`` into header, fields and body exactly as the agent does."""
    newline = detect_newline(text)
    bom = text.startswith(BOM)
    opening = None if bom else _opening_line(text)
    if opening is not None:
        header: list[Line] = []
        for line, end in iter_lines(text, len(opening.raw)):
            if line.text == HEADER_FENCE:
                lines = tuple(header)
                fields = parse_fields(lines)
                rest = text[end:]
                return ParsedFile(
                    text=text,
                    bom=False,
                    header_found=True,
                    unclosed=False,
                    opening=opening,
                    header=lines,
                    closing=line,
                    rest=rest,
                    fields=fields,
                    body=js_trim(rest),
                    newline=newline,
                    by_key={f.key: f for f in fields},  # later lines win, as in a JS object
                )
            header.append(line)
    hidden = parse_text(text[1:]) if bom else None
    return ParsedFile(
        text=text,
        bom=bom,
        header_found=False,
        unclosed=opening is not None,
        opening=None,
        header=(),
        closing=None,
        rest=text,
        fields=(),
        body=js_trim(text),
        newline=newline,
        bom_hides_header=bool(hidden and hidden.header_found),
        hidden_fields=hidden.fields if hidden else (),
    )


def js_string(value: Value | None) -> str:
    """A value as JavaScript turns it into text (a list joins with commas; missing is empty)."""
    if value is None:
        return ""
    if isinstance(value, tuple):
        return ",".join(value)
    return value


def agent_type(value: Value | None) -> str:
    """The type the agent reads: ``feedback`` only when the file says exactly that."""
    return "feedback" if value == "feedback" else "user"


def needs_quotes(value: str) -> bool:
    """Whether ``value`` written bare would be read back differently by the agent.

    An empty value is quoted too: bare, the indented lines below it would become a list.
    """
    if value == "" or value != js_trim(value):
        return True
    if value[0] in QUOTES or value[-1] in QUOTES:
        return True
    return value.startswith("[") and value.endswith("]")


def encode_value(value: str) -> str:
    """Text to write after ``key: `` so that the agent reads back exactly ``value``."""
    return f'"{value}"' if needs_quotes(value) else value


def header_line(key: str, value: str, end: str) -> Line:
    """A ``key: value`` header line the agent reads back as ``value``."""
    return Line(f"{key}: {encode_value(value)}", end)


def normalize_body(body: str) -> str:
    """A body with ``\\n`` line breaks, as an editor holds it."""
    return body.replace("\r\n", "\n")


def file_body(body: str, newline: str) -> str:
    """A body as the agent writes it: trimmed, with the file's line breaks."""
    return js_trim(normalize_body(body)).replace("\n", newline)


def render_new_file(
    *, name: str, description: str, type: str, updated: str, body: str, newline: str = "\n"
) -> str:
    """A whole file exactly as the agent writes it: four keys, a blank line, body, newline."""
    keys = (("name", name), ("description", description), ("type", type), ("updated", updated))
    header = "".join(header_line(key, value, newline).raw for key, value in keys)
    fence = HEADER_FENCE + newline
    return f"{fence}{header}{fence}{newline}{file_body(body, newline)}{newline}"


def rewrite_header(parsed: ParsedFile, changes: dict[str, str]) -> tuple[Line, ...]:
    """The header lines with ``changes`` applied; every other line kept byte-identical.

    A changed key replaces the line the agent reads (the last one of that key, with its list
    items) in place, keeping that line's line break; a key the header lacks is appended at the
    end, in the order given.
    """
    lines = list(parsed.header)
    appended: list[Line] = []
    replaced: list[tuple[Field, Line]] = []
    for key, value in changes.items():
        current = parsed.field(key)
        if current is None:
            appended.append(header_line(key, value, parsed.newline))
        else:
            end = lines[current.first].end or parsed.newline
            replaced.append((current, header_line(key, value, end)))
    for current, line in sorted(replaced, key=lambda pair: pair[0].first, reverse=True):
        lines[current.first : current.stop] = [line]
    return tuple(lines + appended)


def compose(parsed: ParsedFile, header: tuple[Line, ...], body: str | None) -> str:
    """Reassemble a file that has a header: new header lines, and the body if it changed.

    ``body=None`` keeps everything after the closing line byte-identical; a new body is written
    the way the agent writes it (blank line, trimmed body, final newline).
    """
    assert parsed.opening is not None and parsed.closing is not None
    nl = parsed.newline
    closing = parsed.closing.raw
    if body is None:
        rest = parsed.rest
    else:
        closing = parsed.closing.text + (parsed.closing.end or nl)
        rest = f"{nl}{file_body(body, nl)}{nl}"
    return parsed.opening.raw + "".join(line.raw for line in header) + closing + rest
