"""Rewrites of an entry's text: the person's edits, a rename's ``name:`` line, the fixes.

Each rewrite changes only the lines it is about, so every other byte of the file stays as the
agent or the person wrote it. A one-click fix refuses (StoreError) when the file no longer has
the problem it is for: it may have changed since it was read. Writing the result to disk is
:class:`~memory_desk.core.persona.folder.PersonaFolder`'s job.
"""

from __future__ import annotations

import re

from memory_desk.core.errors import StoreError
from memory_desk.core.messages import msg
from memory_desk.core.persona.entry import PersonaEntry, agent_description, header_name, now_iso
from memory_desk.core.persona_format import (
    BOM,
    HEADER_FENCE,
    ParsedFile,
    agent_reading,
    agent_type,
    compose,
    file_body,
    hidden_break,
    js_trim,
    normalize_body,
    parse_text,
    render_new_file,
    rewrite_header,
    split_closing_line,
    with_hidden_breaks_as_spaces,
    with_plain_opening,
    without_first_header_line,
)

FIX_LABELS: dict[str, str] = {
    "rename": msg("PersonaFixes", "Rename to a name the agent reads"),
    "remove-bom": msg(
        "PersonaFixes", "Remove the byte-order mark (the agent then reads the header)"
    ),
    "add-header": msg(
        "PersonaFixes", "Add a header (the agent then reads the first line as the description)"
    ),
    "set-name": msg("PersonaFixes", "Set name: to the file name"),
    "fill-description": msg("PersonaFixes", "Fill the description from the text's first line"),
    "set-type": msg("PersonaFixes", "Write the type the agent reads"),
    "set-updated": msg("PersonaFixes", "Set updated to now"),
    "fix-opening": msg(
        "PersonaFixes", "Make the first line exactly “---” (the agent then reads the header)"
    ),
    "split-closing": msg(
        "PersonaFixes", "Start the text on its own line (the agent reads the same)"
    ),
    "drop-fence-line": msg(
        "PersonaFixes", "Remove the extra “---” line (the agent reads the same)"
    ),
    "unbreak-lines": msg(
        "PersonaFixes", "Make the hidden line breaks spaces (the agent then reads those lines)"
    ),
}

_HEADER_SHAPE_FIXES = ("fix-opening", "split-closing", "drop-fence-line", "unbreak-lines")

DESCRIPTION_GUESS_LIMIT = 120
_FENCE_RE = re.compile(r"(```|~~~)")
_NOT_PROSE_RE = re.compile(r"(-{3,}|\*{3,}|_{3,}|<!--|\||!\[)")  # rules, comments, tables, images
_LINE_MARKS_RE = re.compile(r"^(?:#{1,6}[ \t]+|>[ \t]*|[-*+][ \t]+|\d+[.)][ \t]+|\[[ xX]\][ \t]+)+")
_LINK_RE = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_INLINE_MARKS_RE = re.compile(r"\*\*|__|`|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")


def edited_text(entry: PersonaEntry, description: str) -> str:
    """The file's text with the person's edits of ``entry``, ``updated`` set to now.

    Only what changed is rewritten: a changed description or type replaces its own line, a
    changed body replaces the text after the header (each line kept from the file's body
    with its own line break), and every other byte stays as it is. A
    file without a header the agent reads gets the agent's whole header in front of its text.
    ``description`` is the description as it will be stored (see ``check_description``).
    """
    original = parse_text(entry.source)
    if not original.header_found:
        return render_new_file(
            name=header_name(entry.name),
            description=description,
            type=entry.type,
            updated=now_iso(),
            body=entry.body,
            newline=original.newline,
            original_body=original.body,
        )
    reading = agent_reading(original)
    changes: dict[str, str] = {}
    if entry.description != reading.description:
        changes["description"] = description
    if entry.type != reading.type:
        changes["type"] = entry.type
    changes["updated"] = now_iso()
    # The body's lines keep their own breaks (a body opened and saved as it was: its bytes).
    unchanged = entry.body == normalize_body(reading.body) or (
        file_body(entry.body, original.newline, reading.body) == reading.body
    )
    body = None if unchanged else entry.body
    return compose(original, rewrite_header(original, changes), body, keep_breaks=True)


def renamed_bytes(data: bytes, new_name: str) -> bytes:
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


def fixed_text(entry: PersonaEntry, fix_id: str) -> str:
    """The text of the file ``entry`` was read from once the fix ``fix_id`` is applied (a fix
    that renames the file is the folder's, not a change of text); StoreError for an unknown
    fix or one the file no longer needs."""
    parsed = parse_text(entry.source)
    if fix_id == "remove-bom":
        if not parsed.bom:
            raise StoreError(msg("Persona", "The file has no byte-order mark."))
        return entry.source[len(BOM) :]
    if fix_id == "add-header":
        return _text_with_new_header(entry, parsed)
    if fix_id in ("set-name", "set-type", "set-updated"):
        if not parsed.header_found:
            raise StoreError(
                msg("Persona", "The file has no header the agent reads; add one first.")
            )
        key, value = {
            "set-name": ("name", entry.name),
            "set-type": ("type", agent_type(_value(parsed, "type"))),
            "set-updated": ("updated", now_iso()),
        }[fix_id]
        return compose(parsed, rewrite_header(parsed, {key: value}), None)
    if fix_id in _HEADER_SHAPE_FIXES:
        return _header_shape_fixed(parsed, fix_id)
    if fix_id == "fill-description":
        return _with_description_from_body(parsed)
    raise StoreError(msg("Persona", "Unknown fix “{fix_id}”.", fix_id=fix_id))


def _text_with_new_header(entry: PersonaEntry, parsed: ParsedFile) -> str:
    """The file with the agent's header in front of its text, which stays as it is."""
    if parsed.header_found or parsed.bom_hides_header:
        raise StoreError(msg("Persona", "The file already has a header."))
    nl = parsed.newline
    text = entry.source[len(BOM) :] if parsed.bom else entry.source
    header = render_new_file(
        name=header_name(entry.name),
        description=description_from_body(parsed.body),
        type="user",
        updated=now_iso(),
        body="",
        newline=nl,
    )
    return header[: -len(nl)] + text  # the agent's header and blank line, then the text


def _header_shape_fixed(parsed: ParsedFile, fix_id: str) -> str:
    """The text after a fix of where the header starts or ends (see ``problems.header_problems``).

    Raises StoreError when the file does not have the problem the fix is for (it changed).
    """
    if fix_id == "fix-opening":
        text = with_plain_opening(parsed.text)
        if text is None or not parse_text(text).header_found:
            raise StoreError(
                msg("Persona", "The first line is not “---” followed by spaces; nothing to fix.")
            )
        return text
    if not parsed.header_found:
        raise StoreError(msg("Persona", "The file has no header the agent reads; nothing to fix."))
    if fix_id == "split-closing":
        if not js_trim(parsed.closing_tail):
            raise StoreError(
                msg("Persona", "The line that ends the header has no text after its dashes.")
            )
        return split_closing_line(parsed)
    if fix_id == "drop-fence-line":
        if len(parsed.header) < 2 or js_trim(parsed.header[0].text) != HEADER_FENCE:
            raise StoreError(msg("Persona", "The header has no extra “---” line to remove."))
        return without_first_header_line(parsed)
    if not any(hidden_break(line.text) for line in parsed.header):
        raise StoreError(msg("Persona", "No header line holds a hidden line break."))
    return with_hidden_breaks_as_spaces(parsed)


def _with_description_from_body(parsed: ParsedFile) -> str:
    """The file with its empty description filled from its text's first line; only that
    line of the header changes (``updated`` too stays: the entry keeps its place)."""
    if not parsed.header_found:
        raise StoreError(msg("Persona", "The file has no header the agent reads; add one first."))
    if agent_reading(parsed).description:
        raise StoreError(msg("Persona", "The entry has a description already."))
    description = description_from_body(parsed.body)
    if not description:
        raise StoreError(
            msg("Persona", "The entry's text has no line to take a description from: type one.")
        )
    return compose(parsed, rewrite_header(parsed, {"description": description}), None)


def _value(parsed: ParsedFile, key: str) -> str | tuple[str, ...] | None:
    """What the field ``key`` holds as written (a list stays a list), or None without one."""
    f = parsed.field(key)
    return f.value if f else None


def description_from_body(body: str) -> str:
    """A first guess at a description: the body's first line of prose, without markdown marks,
    on one line as the agent stores a description, cut at a word past
    ``DESCRIPTION_GUESS_LIMIT`` characters; "" when the body has no prose at all.

    Code blocks, rules, tables and images are skipped: the guess must read as a sentence in the
    agent's list, since the agent decides from it whether to recall the entry.
    """
    in_code = False
    for line in re.split(r"\r\n|[\n\r\u2028\u2029]", body):
        text = js_trim(line)
        if _FENCE_RE.match(text):
            in_code = not in_code
            continue
        if in_code or not text or _NOT_PROSE_RE.match(text):
            continue
        text = _INLINE_MARKS_RE.sub("", _LINK_RE.sub(r"\1", _LINE_MARKS_RE.sub("", text)))
        text = agent_description(_CONTROL_RE.sub(" ", text))
        if text:
            return _shortened(text, DESCRIPTION_GUESS_LIMIT)
    return ""


def _shortened(text: str, limit: int) -> str:
    """``text`` cut at the last word that fits in ``limit`` characters, with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:.") + "…"
