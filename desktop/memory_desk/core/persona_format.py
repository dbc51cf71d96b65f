"""The agent-kit persona file, read exactly as the agent reads it (FORMATS.md, part B).

The agent does not use YAML: it reads a small line grammar of its own (agent-kit's
``frontmatter()``, a few regular expressions), and what Memory Desk shows as an entry's type and
description must be what the agent reads, quirks included. This module is that grammar, as pure
functions over text, plus the few helpers that write a header line back so the agent reads it
as the person typed it. It knows nothing about folders.

The grammar, with JavaScript's character classes (:mod:`memory_desk.core.jstext`):

- the header is ``^---\\r?\\n([\\s\\S]*?)\\r?\\n---\\r?\\n?`` on the whole text: the file must
  start with ``---`` and a line break (a byte-order mark in front hides the header); the header
  ends at the first later line that *starts with* ``---``, but never at the line right after the
  opening one (so a header has at least one line); whatever follows those three dashes on the
  closing line is the start of the body. No such line: no header, the whole text is the body;
- header lines break at ``\\n`` or ``\\r\\n`` (``split(/\\r?\\n/)``);
- a line ``key: value`` (``^([A-Za-z_][\\w-]*):\\s*(.*)$``, ASCII ``\\w``) is one field, the last
  one of a key wins; other lines are skipped. ``.`` stops at a lone CR, U+2028 or U+2029, so a
  line holding one after its value starts is skipped too (``\\s*`` after the colon swallows them);
- the value keeps its trailing spaces: empty, it is the list of the following ``^\\s+-\\s``
  lines; ``[...]`` exactly, it is a list of its comma-separated items, empty ones dropped;
  otherwise it is text. Each item and each text is JS-trimmed and loses one leading and one
  trailing quote (``"`` or ``'``);
- the memory store reads a field as ``[value].flat().join(", ")``: a list is its items joined by
  ``", "``; the type is ``feedback`` or ``user`` when that text is exactly one of them, else
  ``user``;
- the body is everything after what the header match took, JS-trimmed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import NamedTuple

from memory_desk.core.errors import StoreError
from memory_desk.core.jstext import JS_LINE_TERMINATORS, JS_SPACE_CLASS, JS_WHITESPACE, js_trim
from memory_desk.core.line_endings import keep_line_endings
from memory_desk.core.messages import msg

BOM = "\ufeff"
HEADER_FENCE = "---"
QUOTES = "\"'"
KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*:")
LIST_ITEM_RE = re.compile(JS_SPACE_CLASS + "+-" + JS_SPACE_CLASS)
LIST_MARK_RE = re.compile(JS_SPACE_CLASS + "+-" + JS_SPACE_CLASS + "*")
# An indented dash the agent does not take as a list item: no space after it.
DASH_WITHOUT_SPACE_RE = re.compile(JS_SPACE_CLASS + "+-(?!" + JS_SPACE_CLASS + ")")
LINE_TERMINATOR_RE = re.compile("[" + re.escape(JS_LINE_TERMINATORS) + "]")
ISO_UTC_MS_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")
# What the agent's reading of a header line calls the hidden break that makes it skip the line.
HIDDEN_BREAK_NAMES = {
    "\r": msg("PersonaProblems", "a lone carriage return"),
    "\u2028": msg("PersonaProblems", "a LINE SEPARATOR (U+2028)"),
    "\u2029": msg("PersonaProblems", "a PARAGRAPH SEPARATOR (U+2029)"),
}

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


class AgentReading(NamedTuple):
    """What the agent's memory store makes of a file: the four things it uses."""

    description: str
    type: str
    updated: str
    body: str


@dataclass(frozen=True)
class ParsedFile:
    """A persona file split the way the agent splits it.

    ``header_found`` is what the agent sees. When a byte-order mark hides a header that would be
    read without it, ``bom_hides_header`` is true and ``hidden_fields`` holds what it says.
    ``closing`` is the three dashes and the line break the agent takes with them (``""`` when
    text follows the dashes on that line: ``closing_tail`` holds that text, which the agent reads
    as the start of the body). ``fence_after_opening`` tells that the line right after the
    opening one starts with ``---``, which never closes the header.
    """

    text: str
    bom: bool
    header_found: bool
    unclosed: bool  # starts like a header but no line closes it
    opening: Line | None
    header: tuple[Line, ...]
    closing: Line | None
    rest: str  # everything after the closing dashes and their line break; else the whole text
    fields: tuple[Field, ...]
    body: str  # trimmed like the agent trims it, line breaks as in the file
    newline: str
    bom_hides_header: bool = False
    hidden_fields: tuple[Field, ...] = ()
    closing_tail: str = ""
    fence_after_opening: bool = False
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
    """The agent's ``unquote``: JS-trim, then strip one leading and one trailing quote."""
    value = js_trim(value)
    if value[:1] in QUOTES and value:
        value = value[1:]
    if value[-1:] in QUOTES and value:
        value = value[:-1]
    return value


def split_field_line(text: str) -> tuple[str, str] | None:
    """``(key, raw)`` of a header line the agent reads as a field, else None.

    Equivalent to ``^([A-Za-z_][\\w-]*):\\s*(.*)$`` with JavaScript's classes: ``\\s*`` takes
    every whitespace after the colon (line terminators included), and the rest must hold no
    line terminator, which JavaScript's ``.`` never matches. Written without the regex because
    the regex backtracks quadratically on a long run of spaces before a lone CR.
    """
    match = KEY_RE.match(text)
    if match is None:
        return None
    raw = text[match.end() :].lstrip(JS_WHITESPACE)
    if LINE_TERMINATOR_RE.search(raw):
        return None
    return match.group()[:-1], raw


def hidden_break(text: str) -> str | None:
    """The lone CR, U+2028 or U+2029 that makes the agent skip a ``key: value`` line, if any."""
    match = KEY_RE.match(text)
    if match is None:
        return None
    found = LINE_TERMINATOR_RE.search(text[match.end() :].lstrip(JS_WHITESPACE))
    return found.group() if found else None


def read_value(raw: str) -> Value:
    """The value of a field line whose text after ``key:`` is ``raw``, as the agent reads it.

    Leading whitespace is the regex's ``\\s*``; trailing whitespace stays, so ``[a, b] `` is
    text, not a list. An empty value is the list of the lines below it (see
    :func:`parse_fields`); read alone it is ``""``.
    """
    raw = raw.lstrip(JS_WHITESPACE)
    if len(raw) >= 2 and raw.startswith("[") and raw.endswith("]"):
        items = (unquote(item) for item in raw[1:-1].split(","))
        return tuple(item for item in items if item)
    return unquote(raw)


def list_item(text: str) -> str | None:
    """The item of a dash-list line (``^\\s+-\\s``), unquoted; None if it is not one."""
    if not LIST_ITEM_RE.match(text):
        return None
    mark = LIST_MARK_RE.match(text)
    assert mark is not None
    return unquote(text[mark.end() :])


def parse_fields(lines: tuple[Line, ...]) -> tuple[Field, ...]:
    """Read the header lines into fields; lines that are not ``key: value`` are skipped.

    An empty value with no dash lines below it is the agent's empty list; its reading is
    ``""`` either way, so it is kept as ``""``.
    """
    fields: list[Field] = []
    index = 0
    while index < len(lines):
        text = lines[index].text
        parts = split_field_line(text)
        if parts is None:
            index += 1
            continue
        key, raw = parts
        stop = index + 1
        value: Value
        if raw == "":
            items: list[str] = []
            while stop < len(lines) and (item := list_item(lines[stop].text)) is not None:
                items.append(item)
                stop += 1
            value = tuple(items) if items else ""
        else:
            value = read_value(raw)
        fields.append(Field(key, value, text[len(key) + 1 :], index, stop))
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


def _closing_tail(text: str, after_dashes: int) -> str:
    """The text on the closing line after its three dashes, without the line break."""
    nl = text.find("\n", after_dashes)
    if nl == -1:
        return text[after_dashes:]
    tail = text[after_dashes:nl]
    return tail[:-1] if tail.endswith("\r") else tail


def parse_text(text: str) -> ParsedFile:
    """Split ``text`` into header, fields and body exactly as the agent does."""
    newline = detect_newline(text)
    bom = text.startswith(BOM)
    opening = None if bom else _opening_line(text)
    start = len(opening.raw) if opening else 0
    # The lazy [\s\S]*? stops at the first "\n---" after the opening line's break.
    close = text.find("\n" + HEADER_FENCE, start) if opening else -1
    if opening is not None and close != -1:
        lines = tuple(line for line, _ in iter_lines(text[start : close + 1]))
        after_dashes = close + 1 + len(HEADER_FENCE)
        taken = "\r" if text.startswith("\r", after_dashes) else ""
        taken += "\n" if text.startswith("\n", after_dashes + len(taken)) else ""
        rest = text[after_dashes + len(taken) :]
        fields = parse_fields(lines)
        return ParsedFile(
            text=text,
            bom=False,
            header_found=True,
            unclosed=False,
            opening=opening,
            header=lines,
            closing=Line(HEADER_FENCE, taken),
            rest=rest,
            fields=fields,
            body=js_trim(rest),
            newline=newline,
            closing_tail=_closing_tail(text, after_dashes),
            fence_after_opening=lines[0].text.startswith(HEADER_FENCE),
            by_key={f.key: f for f in fields},  # later lines win, as in a JS object
        )
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
        fence_after_opening=opening is not None and text.startswith(HEADER_FENCE, start),
    )


def js_string(value: Value | None) -> str:
    """A field as the memory store reads it: ``[value ?? ""].flat().join(", ")``."""
    if value is None:
        return ""
    if isinstance(value, tuple):
        return ", ".join(value)
    return value


def agent_type(value: Value | None) -> str:
    """The type the agent reads: ``feedback`` only when the field reads exactly that."""
    return "feedback" if js_string(value) == "feedback" else "user"


def agent_reading(parsed: ParsedFile) -> AgentReading:
    """Description, type, updated and body exactly as the agent's memory store reads them."""

    def read(key: str) -> Value | None:
        found = parsed.field(key)
        return found.value if found else None

    return AgentReading(
        description=js_string(read("description")),
        type=agent_type(read("type")),
        updated=js_string(read("updated")),
        body=parsed.body,
    )


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
    """Text to write after ``key: `` so that the agent reads back exactly ``value``.

    A value holding a line break cannot be written on one header line: StoreError.
    """
    if LINE_TERMINATOR_RE.search(value):
        raise StoreError(
            msg(
                "Persona",
                "A header value must be on one line: remove its line breaks (including the "
                "invisible line and paragraph separators).",
            )
        )
    return f'"{value}"' if needs_quotes(value) else value


def header_line(key: str, value: str, end: str) -> Line:
    """A ``key: value`` header line the agent reads back as ``value``."""
    return Line(f"{key}: {encode_value(value)}", end)


def normalize_body(body: str) -> str:
    """A body with ``\\n`` line breaks, as an editor holds it."""
    return body.replace("\r\n", "\n")


def file_body(body: str, newline: str, original: str | None = None) -> str:
    """A body as the agent writes it: trimmed, with the file's line breaks.

    With ``original`` (the body the file holds now, breaks and all), a line kept from it
    keeps the break it had there, and only the other lines take ``newline`` (see
    :func:`~memory_desk.core.line_endings.keep_line_endings`): editing one line of a file
    with mixed breaks changes no other line's bytes.
    """
    if original is not None:
        return js_trim(keep_line_endings(original, body, newline))
    return js_trim(normalize_body(body)).replace("\n", newline)


def render_new_file(
    *,
    name: str,
    description: str,
    type: str,
    updated: str,
    body: str,
    newline: str = "\n",
    original_body: str | None = None,
) -> str:
    """A whole file exactly as the agent writes it: four keys, a blank line, body, newline
    (``original_body``: see :func:`file_body`)."""
    keys = (("name", name), ("description", description), ("type", type), ("updated", updated))
    header = "".join(header_line(key, value, newline).raw for key, value in keys)
    fence = HEADER_FENCE + newline
    text = file_body(body, newline, original_body)
    return f"{fence}{header}{fence}{newline}{text}{newline}"


def rewrite_header(parsed: ParsedFile, changes: dict[str, str]) -> tuple[Line, ...]:
    """The header lines with ``changes`` applied; every other line kept byte-identical.

    A changed key replaces the line the agent reads (the last one of that key, with its list
    items) in place, keeping that line's line break; a key the header lacks is appended at the
    end, in the order given. No written line starts with ``---`` or leaves its value empty, so
    the agent still closes the header where it did and reads every other line as before.
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


def compose(
    parsed: ParsedFile, header: tuple[Line, ...], body: str | None, *, keep_breaks: bool = False
) -> str:
    """Reassemble a file that has a header: new header lines, and the body if it changed.

    ``body=None`` keeps everything from the closing dashes on byte-identical (text after the
    dashes stays the start of the body); a new body is written the way the agent writes it
    (a plain ``---`` line, a blank line, the trimmed body, a final newline), its lines kept
    from the file's body keeping their breaks when ``keep_breaks`` (see :func:`file_body`).
    """
    if parsed.opening is None or parsed.closing is None:
        raise ValueError("compose() needs a file whose header the agent reads")
    nl = parsed.newline
    if body is None:
        closing, rest = parsed.closing.raw, parsed.rest
    else:
        end = parsed.closing.end if parsed.closing.end in ("\n", "\r\n") else nl
        kept = parsed.body if keep_breaks else None
        closing, rest = HEADER_FENCE + end, f"{nl}{file_body(body, nl, kept)}{nl}"
    return parsed.opening.raw + "".join(line.raw for line in header) + closing + rest


def with_plain_opening(text: str) -> str | None:
    """The text with a first line of ``---`` and trailing spaces made exactly ``---``.

    None when the first line is not that. This changes what the agent reads on purpose: it
    needs exactly ``---`` to see a header.
    """
    first = next(iter_lines(text), None)
    if first is None:
        return None
    line, after = first
    if line.text == HEADER_FENCE or not line.text.startswith(HEADER_FENCE) or not line.end:
        return None
    if js_trim(line.text[len(HEADER_FENCE) :]):
        return None
    return HEADER_FENCE + line.end + text[after:]


def split_closing_line(parsed: ParsedFile) -> str:
    """The file with the text after the closing dashes moved to its own line, after a blank one.

    The agent reads the same body (it trims what follows the dashes), and the file now shows
    where the header ends and the body begins.
    """
    if parsed.opening is None or parsed.closing is None:
        raise ValueError("split_closing_line() needs a file whose header the agent reads")
    nl = parsed.newline
    header = "".join(line.raw for line in parsed.header)
    rest = parsed.rest.lstrip(JS_WHITESPACE)
    return f"{parsed.opening.raw}{header}{HEADER_FENCE}{nl}{nl}{rest}"


def without_first_header_line(parsed: ParsedFile) -> str:
    """The file without the header's first line (a stray ``---`` right after the opening).

    That line is never a field nor the closing line, and the header keeps a line after it
    closes where it did, so the agent reads the same; callers check there is such a line.
    """
    if parsed.opening is None or parsed.closing is None or len(parsed.header) < 2:
        raise ValueError("without_first_header_line() needs a header of two lines or more")
    header = "".join(line.raw for line in parsed.header[1:])
    return parsed.opening.raw + header + parsed.closing.raw + parsed.rest


def with_hidden_breaks_as_spaces(parsed: ParsedFile) -> str:
    """The file with every lone CR, U+2028 and U+2029 in its ``key: value`` lines made a space.

    This changes what the agent reads on purpose: those lines become fields it reads.
    """
    if parsed.opening is None or parsed.closing is None:
        raise ValueError("with_hidden_breaks_as_spaces() needs a file whose header is read")
    header = [
        Line(LINE_TERMINATOR_RE.sub(" ", line.text), line.end) if hidden_break(line.text) else line
        for line in parsed.header
    ]
    return compose(parsed, tuple(header), None)
