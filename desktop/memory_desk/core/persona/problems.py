"""What is odd about one entry, in plain words: the per-entry problem finders.

Each finder compares what the file seems to say with what the agent reads from it (the
grammar is :mod:`memory_desk.core.persona_format`'s), and names the one-click fix from
:mod:`memory_desk.core.persona.rewrites` when there is one.
"""

from __future__ import annotations

import functools

from memory_desk.core import wording
from memory_desk.core.messages import msg
from memory_desk.core.persona.agent_view import PROMPT_LIMIT
from memory_desk.core.persona.entry import (
    ENTRY_TYPES,
    KNOWN_KEYS,
    NAME_RE,
    Problem,
    printable_name,
    suggest_name,
)
from memory_desk.core.persona.rewrites import description_from_body
from memory_desk.core.persona_format import (
    DASH_WITHOUT_SPACE_RE,
    HEADER_FENCE,
    HIDDEN_BREAK_NAMES,
    ISO_UTC_MS_RE,
    JS_WHITESPACE,
    Field,
    ParsedFile,
    agent_reading,
    hidden_break,
    js_string,
    js_trim,
    parse_text,
    with_plain_opening,
)

LARGE_BODY_BYTES = 20 * 1024
ODD_DESCRIPTIONS = frozenset({"|", ">", "|-", ">-", "|+", ">+", "~", "null"})
_READ_KEYS = ("description", "type", "updated")  # what the agent's memory store reads back


def name_problems(name: str) -> list[Problem]:
    """A file name the agent does not read (it lists only ``<kebab-case>.md``)."""
    if NAME_RE.fullmatch(name):
        return []
    return [
        Problem(
            "warning",
            msg(
                "PersonaProblems",
                "The agent never sees this entry: its file name “{name}” is not kebab-case "
                "(lowercase letters, digits and single hyphens, like “{suggestion}”). Rename "
                "it so the agent can read it.",
                name=printable_name(name),
                suggestion=suggest_name(name),
            ),
            "rename",
            "name-not-kebab",
        )
    ]


def header_problems(parsed: ParsedFile) -> list[Problem]:
    """Where the agent's header starts and ends, when that is not what the file seems to say."""
    if parsed.bom_hides_header:
        return [
            Problem(
                "error",
                msg(
                    "PersonaProblems",
                    "The file starts with an invisible byte-order mark, so the agent does not "
                    "see its header: it reads the entry as type user with no description, and "
                    "the header as part of the text. Remove the mark to edit the entry.",
                ),
                "remove-bom",
                "bom",
            )
        ]
    if parsed.unclosed and parsed.fence_after_opening:
        return [
            Problem(
                "warning",
                msg(
                    "PersonaProblems",
                    "The file starts with two “---” lines, but the agent never ends a header on "
                    "the line right after the opening one (a header has at least one line), and "
                    "no later line starts with “---”. So it reads the whole file as text, dashes "
                    "included, with type user and no description. Write the header lines "
                    "between the two “---” lines by hand.",
                ),
                None,
                "header-empty",
            )
        ]
    if parsed.unclosed:
        return [
            Problem(
                "warning",
                msg(
                    "PersonaProblems",
                    "The header is never closed: no line after it starts with “---”, so the "
                    "agent reads the whole file as text, with type user and no description. "
                    "Add the closing line by hand.",
                ),
                None,
                "header-unclosed",
            )
        ]
    if not parsed.header_found:
        return [_no_header_problem(parsed)]
    return _header_shape_problems(parsed)


def _no_header_problem(parsed: ParsedFile) -> Problem:
    """No header: a first line ``--- `` is one space away from one, else offer a new header."""
    opened = with_plain_opening(parsed.text)
    if opened is not None and parse_text(opened).header_found:
        return Problem(
            "warning",
            msg(
                "PersonaProblems",
                "The first line has spaces after its “---”: the agent needs exactly “---” "
                "there, so it sees no header and reads the whole file as text, with type user "
                "and no description.",
            ),
            "fix-opening",
            "no-header",
        )
    return Problem(
        "warning",
        msg(
            "PersonaProblems",
            "The file has no header (it must start with a line “---”), so the agent reads it "
            "as type user with no description.",
        ),
        "add-header",
        "no-header",
    )


def _header_shape_problems(parsed: ParsedFile) -> list[Problem]:
    """A header the agent reads, but not where a person would think it starts or ends."""
    problems: list[Problem] = []
    tail = js_trim(parsed.closing_tail)
    if tail:
        problems.append(
            Problem(
                "warning",
                msg(
                    "PersonaProblems",
                    "The line that ends the header has text after its three dashes: the agent "
                    "reads “{excerpt}” as the start of the entry's text.",
                    excerpt=_excerpt(tail),
                ),
                "split-closing",
                "closing-text",
            )
        )
    if parsed.fence_after_opening:
        droppable = len(parsed.header) > 1 and js_trim(parsed.header[0].text) == HEADER_FENCE
        problems.append(
            Problem(
                "warning",
                msg(
                    "PersonaProblems",
                    "The line right after the opening “---” starts with “---” too, but the "
                    "agent never ends the header there: it reads the header on to line "
                    "{line}, the next line that starts with “---”.",
                    line=len(parsed.header) + 2,
                ),
                "drop-fence-line" if droppable else None,
                "fence-after-opening",
            )
        )
    broken = [(line.text, mark) for line in parsed.header if (mark := hidden_break(line.text))]
    if broken:
        problems.append(_hidden_break_problem(parsed, broken))
    return problems


def _hidden_break_problem(parsed: ParsedFile, broken: list[tuple[str, str]]) -> Problem:
    """The agent skips a ``key: value`` line holding a lone CR, U+2028 or U+2029: say which."""
    sentences = []
    for text, mark in broken:
        key = text.split(":", 1)[0]
        if key in _READ_KEYS:
            sentence = msg(
                "PersonaProblems",
                "The “{key}:” line holds {hidden_break} inside its value; the agent reads the "
                "{key} as {reading}.",
                key=key,
                hidden_break=HIDDEN_BREAK_NAMES[mark],
                reading=_reads_as(parsed, key),
            )
        else:
            sentence = msg(
                "PersonaProblems",
                "The “{key}:” line holds {hidden_break} inside its value.",
                key=key,
                hidden_break=HIDDEN_BREAK_NAMES[mark],
            )
        sentences.append(sentence)
    return Problem(
        "warning",
        msg(
            "PersonaProblems",
            "The agent skips header lines with a hidden line break inside their value (its "
            "pattern stops there), so it reads nothing from them. {lines}",
            lines=wording.sentences(sentences),
        ),
        "unbreak-lines",
        "hidden-break",
    )


def _reads_as(parsed: ParsedFile, key: str) -> str:
    """How the agent reads ``key`` (description, type or updated), quoted for a sentence."""
    reading = getattr(agent_reading(parsed), key)
    return f"“{reading}”" if reading else msg("PersonaProblems", "empty")


def _excerpt(text: str, limit: int = 60) -> str:
    """The start of ``text`` on one line, short enough for a sentence."""
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= limit and line == text else line[:limit].rstrip() + "…"


def field_problems(name: str, parsed: ParsedFile) -> list[Problem]:
    """What the header's lines say that the agent reads differently, or not at all."""
    if not parsed.header_found:
        return []
    problems: list[Problem] = []
    name_field = parsed.field("name")
    if name_field is not None and js_string(name_field.value) != name:
        problems.append(
            Problem(
                "warning",
                msg(
                    "PersonaProblems",
                    "The name: line says “{header_name}”, but an entry's name is its file "
                    "name, “{name}”. The agent ignores the name: line.",
                    header_name=printable_name(js_string(name_field.value)),
                    name=printable_name(name),
                ),
                "set-name",
                "name-mismatch",
            )
        )
    problems += _type_problems(parsed)
    problems += _description_problems(parsed)
    problems += _bracket_text_problems(parsed)
    problems += _dash_item_problems(parsed)
    problems += _updated_problems(parsed)
    for key in parsed.duplicate_keys():
        problems.append(
            Problem(
                "warning",
                msg(
                    "PersonaProblems",
                    "The header has more than one “{key}:” line; the agent reads only the last.",
                    key=key,
                ),
                None,
                "duplicate-key",
            )
        )
    extra = [f.key for f in parsed.fields if f.key not in KNOWN_KEYS]
    if extra:
        problems.append(
            Problem(
                "warning",
                msg(
                    "PersonaProblems",
                    "The agent ignores the header lines {keys} and drops them the next time it "
                    "saves this entry.",
                    keys=", ".join(f"“{k}”" for k in extra),
                ),
                None,
                "extra-keys",
            )
        )
    return problems


def _type_problems(parsed: ParsedFile) -> list[Problem]:
    type_field = parsed.field("type")
    value = type_field.value if type_field else None
    reading = js_string(value)
    if type_field is None:
        message = msg("PersonaProblems", "The entry has no type, so the agent reads it as user.")
    elif isinstance(value, tuple) and reading in ENTRY_TYPES:
        message = msg(
            "PersonaProblems",
            "The type is written as a list; the agent reads it as {reading} (a list reads as "
            "its items joined by commas). Writing it as a plain value keeps that reading.",
            reading=reading,
        )
    elif isinstance(value, tuple):
        message = msg(
            "PersonaProblems",
            "The type is a list, which the agent reads as “{reading}”: neither user nor "
            "feedback, so it reads the type as user.",
            reading=reading,
        )
    elif value in ENTRY_TYPES:
        return []
    elif value == "":
        message = msg("PersonaProblems", "The type is empty, so the agent reads it as user.")
    elif _brackets_read_as_text(type_field):
        message = msg(
            "PersonaProblems",
            "The type “{reading}” is text to the agent, not a list (something follows its "
            "“]”): neither user nor feedback, so it reads the type as user.",
            reading=reading,
        )
    else:
        message = msg(
            "PersonaProblems",
            "The type “{reading}” is neither user nor feedback, so the agent reads it as user.",
            reading=reading,
        )
    return [Problem("warning", message, "set-type", "type")]


def _brackets_read_as_text(found: Field) -> bool:
    """Whether a value like ``[a, b] `` reads as text: a list must end the line with ``]``."""
    raw = found.raw.lstrip(JS_WHITESPACE)
    trimmed = js_trim(raw)
    return raw != trimmed and len(trimmed) >= 2 and trimmed[0] == "[" and trimmed[-1] == "]"


def _dash_item_problems(parsed: ParsedFile) -> list[Problem]:
    """A list of ``- item`` lines ends at the first dash without a space after it."""
    problems = []
    for found in parsed.fields:
        if found.key not in _READ_KEYS or found.raw.lstrip(JS_WHITESPACE) != "":
            continue
        if parsed.field(found.key) is not found or found.stop >= len(parsed.header):
            continue
        below = parsed.header[found.stop].text
        if not DASH_WITHOUT_SPACE_RE.match(below):
            continue
        problems.append(
            Problem(
                "warning",
                msg(
                    "PersonaProblems",
                    "The agent does not read the line “{line}” as part of the {key}: a list "
                    "item needs a space after its dash. It reads the {key} as {reading}.",
                    line=_excerpt(js_trim(below)),
                    key=found.key,
                    reading=_reads_as(parsed, found.key),
                ),
                None,
                "dash-no-space",
            )
        )
    return problems


def _bracket_text_problems(parsed: ParsedFile) -> list[Problem]:
    desc_field = parsed.field("description")
    if desc_field is None or not _brackets_read_as_text(desc_field):
        return []
    return [
        Problem(
            "warning",
            msg(
                "PersonaProblems",
                "The description “{description}” is read as text, brackets included, not as a "
                "list: the agent reads “[…]” as a list only when nothing follows the “]” on its "
                "line, and here spaces do.",
                description=js_string(desc_field.value),
            ),
            None,
            "bracket-text",
        )
    ]


def _description_problems(parsed: ParsedFile) -> list[Problem]:
    desc_field = parsed.field("description")
    value = desc_field.value if desc_field else None
    if js_string(value) == "":
        return [_empty_description_problem(parsed)]
    if isinstance(value, tuple):
        message = msg(
            "PersonaProblems",
            "The description is a list; the agent reads it as “{reading}” in its prompt.",
            reading=js_string(value),
        )
    elif value in ODD_DESCRIPTIONS:
        message = msg(
            "PersonaProblems",
            "The description is “{value}”: the agent does not read YAML, so its prompt shows "
            "just “{value}” (any lines below it are ignored). Write it on one line.",
            value=value,
        )
    else:
        return []
    return [Problem("warning", message, None, "description")]


def _empty_description_problem(parsed: ParsedFile) -> Problem:
    """The agent's ``remember`` refuses to update an entry without a description (it answers
    that there is no such entry), and its prompt lists the entry with nothing after its name."""
    fillable = bool(description_from_body(parsed.body))
    if fillable:
        message = msg(
            "PersonaProblems",
            "The agent cannot update this entry: it needs a description. (The agent's prompt "
            "lists it with nothing after its name, and when the agent tries to change it, it is "
            "told there is no such entry.)",
        )
    else:
        message = msg(
            "PersonaProblems",
            "The agent cannot update this entry: it needs a description. (The agent's prompt "
            "lists it with nothing after its name, and when the agent tries to change it, it is "
            "told there is no such entry.) Type one above and save.",
        )
    return Problem(
        "warning",
        message,
        "fill-description" if fillable else None,
        "description",
    )


def _updated_problems(parsed: ParsedFile) -> list[Problem]:
    updated_field = parsed.field("updated")
    value = updated_field.value if updated_field else None
    reading = js_string(value)
    if updated_field is None:
        message = msg(
            "PersonaProblems",
            "The entry has no updated date, so the agent sorts it after every dated entry.",
        )
    elif ISO_UTC_MS_RE.fullmatch(reading) and isinstance(value, str):
        return []
    elif ISO_UTC_MS_RE.fullmatch(reading):
        message = msg(
            "PersonaProblems",
            "The updated date is written as a list; the agent reads it as “{reading}”.",
            reading=reading,
        )
    else:
        message = msg(
            "PersonaProblems",
            "The updated date “{reading}” is not in the agent's format "
            "(like 2026-10-07T13:15:05.678Z), so the entry may sort in the wrong place.",
            reading=reading,
        )
    return [Problem("warning", message, "set-updated", "updated")]


def body_problems(body: str) -> list[Problem]:
    """A text so long that recalling it fills the agent's context."""
    size = len(body.encode("utf-8"))
    if size <= LARGE_BODY_BYTES:
        return []
    return [
        Problem(
            "warning",
            msg(
                "PersonaProblems",
                "The text is {size} KB. The agent reads it whole each time it recalls this "
                "entry, which fills its context; consider shortening it.",
                size=f"{size / 1024:.0f}",
            ),
            None,
            "large-body",
        )
    ]


@functools.cache
def beyond_prompt_problem() -> Problem:
    """For an entry the agent sees but its prompt does not list (see ``PROMPT_LIMIT``).

    One object for every such entry: a listing marks thousands of them.
    """
    return Problem(
        "warning",
        msg(
            "PersonaProblems",
            "The agent's prompt lists only the {limit} most recent entries; this one is not "
            "among them (the agent still finds it when it lists all its memories).",
            limit=PROMPT_LIMIT,
        ),
        None,
        "beyond-prompt",
    )
