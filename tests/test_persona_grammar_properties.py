"""Property tests of the persona header reader against a reference reader.

The reference (``agent_reads``) is agent-kit's ``frontmatter()`` and the memory store's
``read()`` transcribed line by line into Python ``re`` with JavaScript's character classes
(FORMATS.md, part B): no cleverness, no speed, so it is easy to check by eye against the
TypeScript. Memory Desk's reader (``memory_desk.core.persona_format``) is written for speed and
for writing back; these properties hold it to the reference on any text:

(a) any text reads without raising, through the whole entry pipeline (problems and fixes too);
(b) the description, type, updated and body Memory Desk shows are the reference's;
(c) what Memory Desk writes (a new file, a rewritten header, a new body) is read back by the
    reference as exactly what was saved;
and every one-click fix keeps the agent's reading unless changing it is the fix's purpose.
"""

from __future__ import annotations

import dataclasses
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memory_desk.core.jstext import JS_DOT_CLASS, JS_SPACE_CLASS, js_trim, utf16_key
from memory_desk.core.line_endings import as_in_editor
from memory_desk.core.persona import PersonaFolder
from memory_desk.core.persona_format import (
    AgentReading,
    agent_reading,
    compose,
    file_body,
    normalize_body,
    parse_text,
    render_new_file,
    rewrite_header,
)

# ----------------------------------------------------------------------------- the reference

WS, DOT = JS_SPACE_CLASS, JS_DOT_CLASS  # JavaScript's \s and . (no flags)
HEADER_RE = re.compile(r"^---\r?\n([\s\S]*?)\r?\n---\r?\n?")
LINE_BREAK_RE = re.compile(r"\r?\n")
FIELD_RE = re.compile(rf"^([A-Za-z_][A-Za-z0-9_-]*):{WS}*({DOT}*)\Z")
DASH_ITEM_RE = re.compile(rf"^{WS}+-{WS}")
DASH_MARK_RE = re.compile(rf"^{WS}+-{WS}*")
LIST_RE = re.compile(rf"^\[{DOT}*\]\Z")
QUOTE_ENDS_RE = re.compile(r"""^["']|["']\Z""")
MEMORY_TYPES = ("user", "feedback")


def reference_unquote(value: str) -> str:
    """``value.trim().replace(/^["']|["']$/g, "")``."""
    return QUOTE_ENDS_RE.sub("", js_trim(value))


def reference_frontmatter(text: str) -> tuple[dict[str, str | list[str]], str]:
    """agent-kit's ``frontmatter(text)``: ``{fields, body}``."""
    match = HEADER_RE.match(text)
    if not match:
        return {}, text
    fields: dict[str, str | list[str]] = {}
    lines = LINE_BREAK_RE.split(match.group(1))
    i = 0
    while i < len(lines):
        kv = FIELD_RE.match(lines[i])
        if kv:
            key, raw = kv.group(1), kv.group(2)
            if raw == "":
                items = []
                while i + 1 < len(lines) and DASH_ITEM_RE.match(lines[i + 1]):
                    i += 1
                    items.append(DASH_MARK_RE.sub("", lines[i], count=1))
                fields[key] = [reference_unquote(item) for item in items]
            elif LIST_RE.match(raw):
                items = [reference_unquote(item) for item in raw[1:-1].split(",")]
                fields[key] = [item for item in items if item]
            else:
                fields[key] = reference_unquote(raw)
        i += 1
    return fields, js_trim(text[match.end() :])


def agent_reads(text: str) -> tuple[str, str, str, str]:
    """The memory store's ``read()``: (description, type, updated, body)."""
    fields, body = reference_frontmatter(text)

    def field(key: str) -> str:
        value = fields.get(key, "")
        return ", ".join(value) if isinstance(value, list) else value

    type_ = field("type") if field("type") in MEMORY_TYPES else "user"
    return field("description"), type_, field("updated"), js_trim(body)


def reference_one_line(text: str) -> str:
    """The agent's rule for a description it saves: ``text.replace(/\\s+/g, " ").trim()``."""
    return js_trim(re.sub(f"{WS}+", " ", text))


def test_the_reference_reads_the_documented_examples() -> None:
    """The reference itself, on FORMATS.md's examples: a check that it is the agent's reader."""
    iso = "2026-10-07T13:15:05.678Z"
    agent_file = (
        f"---\nname: no-fish-puns\ndescription: Dislikes puns about fish\ntype: feedback\n"
        f"updated: {iso}\n---\n\nRule: never.\n"
    )
    assert agent_reads(agent_file) == ("Dislikes puns about fish", "feedback", iso, "Rule: never.")
    assert agent_reads("---\ntype: [feedback]\ndescription: [a, b]\n--- x\n") == (
        "a, b",
        "feedback",
        "",
        "x",
    )
    assert agent_reads("---\n---\nx: y\n---\nbody")[3] == "body"
    assert agent_reads("---\n---\nbody")[3] == "---\n---\nbody"
    assert agent_reads("---\ndescription: a\rb\ntype:\u2028feedback\n---\n")[:2] == ("", "feedback")
    assert agent_reads("---\ndescription:\r\n  -a\n  - b\n---\n")[0] == ""
    assert agent_reads("---\ndescription: [a] \n---\n")[0] == "[a]"
    assert agent_reads("\ufeff---\ntype: feedback\n---\n")[1] == "user"


# ----------------------------------------------------------------------------- text generators

TOKENS = [
    *"-\n\r:[],\"' \tab_9",
    "\u2028",
    "\u2029",
    "\ufeff",
    "\u00a0",
    "---",
    "\r\n",
    "type",
    "description",
    "updated",
    "name",
    "feedback",
    "user",
    "  - ",
    "x",
    "é",
    "\U0001f41f",
]
# Weighted by repetition: mostly what people and the agent write, often what trips a reader.
LINE_BREAKS = st.sampled_from(["\n"] * 5 + ["\r\n"] * 2 + ["\r", "\u2028", "\n\n"])
OPENINGS = st.sampled_from(
    ["---\n"] * 5 + ["---\r\n"] * 2 + ["--- \n", "\ufeff---\n", "", "---\n---\n"]
)
CLOSINGS = st.sampled_from(
    ["---\n"] * 5 + ["---\r\n", "---", "----\n", "--- body\n", "---  \n", "", "---\r"]
)
VALUES = st.sampled_from(
    [
        "feedback",
        "user",
        "[feedback]",
        "[feedback] ",
        "[user, feedback]",
        "['a', \"b\", , ]",
        "[a,b,c]",
        "[, ]",
        '"quoted"',
        "'feedback'",
        "",
        "",
        "2026-10-07T13:15:05.678Z",
        "[2026-10-07T13:15:05.678Z]",
        "a\rb",
        "a\u2028b",
        "|",
    ]
)
token_soup = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
body_text = st.one_of(st.text(max_size=80), token_soup)


@st.composite
def header_line(draw: st.DrawFn) -> str:
    """One line of a header-ish text: fields, lists, fences and odd spacing."""
    kind = draw(st.sampled_from(["field"] * 4 + ["item"] * 3 + ["fence", "soup"]))
    if kind == "fence":
        return draw(st.sampled_from(["---", "----", "--- ", "--- text", "---\r", "-- -"]))
    if kind == "item":
        lead = draw(st.sampled_from([" ", "  ", "\t", "\u00a0", ""]))
        gap = draw(st.sampled_from([" ", " ", "", "  ", "\u2028"]))
        return f"{lead}-{gap}{draw(st.one_of(VALUES, token_soup))}"
    if kind == "soup":
        return draw(token_soup)
    key = draw(st.sampled_from(["type", "description", "updated", "name", "tags", "_k-2", "9x"]))
    sep = draw(st.sampled_from([": "] * 4 + [":", ":  ", ": \r", ":\u2028", ":\t", " : "]))
    return f"{key}{sep}{draw(st.one_of(VALUES, VALUES, token_soup))}"


@st.composite
def header_like(draw: st.DrawFn) -> str:
    """A text shaped like a persona file: an opening, header lines, a closing, a body."""
    lines = draw(st.lists(header_line(), min_size=1, max_size=8))
    breaks = draw(st.lists(LINE_BREAKS, min_size=len(lines), max_size=len(lines)))
    header = "".join(line + brk for line, brk in zip(lines, breaks, strict=True))
    body = draw(st.one_of(token_soup, st.text(max_size=30)))
    return draw(OPENINGS) + header + draw(CLOSINGS) + body


@st.composite
def agent_like(draw: st.DrawFn) -> str:
    """An agent-written file whose field lines a person then edited: the fields get odd values,
    separators and list items, the frame stays one the agent reads."""
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    keys = draw(st.lists(st.sampled_from(["name", "description", "type", "updated"]), max_size=6))
    lines = []
    for key in keys:
        sep = draw(st.sampled_from([": "] * 4 + [":", ": \r", ":\u2028", ":\t"]))
        lines.append(f"{key}{sep}{draw(st.one_of(VALUES, VALUES, token_soup))}")
        items = draw(st.lists(st.one_of(VALUES, token_soup), max_size=2))
        lines += [draw(st.sampled_from(["  - ", "  -", "\t- "])) + item for item in items]
    closing = draw(CLOSINGS)
    header = "".join(line + newline for line in ["---", *lines]) if lines else "---\n\n"
    return header + closing + draw(body_text)


any_text = st.one_of(
    agent_like(), agent_like(), header_like(), header_like(), token_soup, st.text(max_size=80)
)

# Text a person types on one line: no line terminator (the description is one line).
one_line = st.text(
    alphabet=st.characters(exclude_categories=("Cs",), exclude_characters="\n\r\u2028\u2029"),
    max_size=40,
)
iso_dates = st.sampled_from(["2026-10-07T13:15:05.678Z", "1999-01-01T00:00:00.000Z"])
PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FILE_PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# The corners FORMATS.md names, always tried (hypothesis may not draw them in a short run).
CORNERS = [
    "---\ntype: [feedback]\ndescription: [a, b]\nupdated: [2026-10-07T13:15:05.678Z]\n---\nx",
    "---\ntype: [feedback] \ndescription: [a, b] \n---\n",
    "---\ndescription: ['a', , \"\", b]\ntype:\n  - feedback\n---\n",
    "---\ndescription:\n  -a\n  - b\ntype:\n  -feedback\n---\n",
    "---\ndescription:\n  - ''\n  - b\n---\n",
    "---\ndescription: a\rb\ntype: feedback\u2028\nupdated: x\u2029y\n---\n",
    "---\ndescription:\u2028swallowed\ntype:\r\t\n  - feedback\n---\n",
    "---\n---\ntype: feedback\n---\nbody",
    "---\n---\ntype: feedback\n",
    "---\n\n---\nbody",
    "---\ntype: feedback\n---- tail\r\nbody",
    "---\r\ntype: feedback\r\n---\rbody",
    "--- \ntype: feedback\n---\n",
    "\ufeff---\ntype: feedback\n---\n",
    '---\ntype: \'feedback"\ndescription: ""\n---\n',
    "---\ntype: feedback\ntype: user\n---\n",
]


def _with_corners(test: Callable[[str], None]) -> Callable[[str], None]:
    """Try every corner as an explicit example of a property over one text."""
    for text in CORNERS:
        test = example(text)(test)
    return test


def _ours(text: str) -> AgentReading:
    """Memory Desk's reading (a NamedTuple: it compares equal to the reference's tuple)."""
    return agent_reading(parse_text(text))


# ----------------------------------------------------------------------------- (a) and (b)


@PROPS
@given(any_text)
@_with_corners
def test_any_text_reads_as_the_reference_reads_it(text: str) -> None:
    assert _ours(text) == agent_reads(text)


@FILE_PROPS
@given(any_text)
@_with_corners
def test_any_file_becomes_the_entry_the_agent_reads(text: str) -> None:
    """Through a real file: decoding, problems, the whole entry; nothing raises."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp, "memory")
        folder.mkdir()
        Path(folder, "entry.md").write_bytes(text.encode("utf-8"))
        entry = PersonaFolder(folder, trash=Path(tmp, "trash")).read("entry")
    description, type_, updated, body = agent_reads(text)
    assert (entry.description, entry.type, entry.updated) == (description, type_, updated)
    assert entry.body == normalize_body(body)
    assert all(p.message for p in entry.problems)


# ----------------------------------------------------------------------------- fixes

# Fixes whose stated purpose is to change what the agent reads (their labels say to what).
CHANGE_READING = {"remove-bom", "add-header", "fix-opening", "unbreak-lines", "fill-description"}


@FILE_PROPS
@given(st.one_of(agent_like(), header_like()))
@_with_corners
def test_every_offered_fix_keeps_the_agents_reading_unless_that_is_its_purpose(
    text: str,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder_path = Path(tmp, "memory")
        folder_path.mkdir()
        path = Path(folder_path, "entry.md")
        data = text.encode("utf-8")
        path.write_bytes(data)
        folder = PersonaFolder(folder_path, trash=Path(tmp, "trash"))
        fixes = {p.fix for p in folder.read("entry").problems if p.fix} - {"rename"}
        for fix_id in sorted(fixes):
            path.write_bytes(data)
            fixed = folder.fix(folder.read("entry"), fix_id)
            after = path.read_bytes().decode("utf-8")
            assert (fixed.description, fixed.type) == agent_reads(after)[:2], fix_id
            if fix_id in CHANGE_READING:
                continue
            kept = agent_reads(after)
            before = agent_reads(text)
            assert (kept[0], kept[1], kept[3]) == (before[0], before[1], before[3]), fix_id
            assert fix_id not in {p.fix for p in fixed.problems}, fix_id


# ----------------------------------------------------------------------------- (c) save -> read


@PROPS
@given(
    one_line,
    st.sampled_from(["user", "feedback"]),
    iso_dates,
    body_text,
    st.sampled_from(["\n", "\r\n"]),
)
def test_a_new_file_reads_back_as_saved(
    description: str, type_: str, updated: str, body: str, newline: str
) -> None:
    text = render_new_file(
        name="an-entry",
        description=description,
        type=type_,
        updated=updated,
        body=body,
        newline=newline,
    )
    expected_body = js_trim(normalize_body(body)).replace("\n", newline)
    assert agent_reads(text) == (description, type_, updated, expected_body)


@PROPS
@given(
    header_like(),
    one_line,
    st.sampled_from(["user", "feedback"]),
    iso_dates,
    st.one_of(st.none(), body_text),
)
def test_a_rewritten_header_reads_back_as_saved(
    text: str, description: str, type_: str, updated: str, body: str | None
) -> None:
    parsed = parse_text(text)
    if not parsed.header_found:
        return
    changes = {"description": description, "type": type_, "updated": updated}
    out = compose(parsed, rewrite_header(parsed, changes), body)
    if body is None:
        expected_body = agent_reads(text)[3]
    else:
        expected_body = js_trim(normalize_body(body)).replace("\n", parsed.newline)
    assert agent_reads(out) == (description, type_, updated, expected_body)


@FILE_PROPS
@given(header_like(), one_line, st.sampled_from(["user", "feedback"]), body_text)
def test_saving_an_entry_reads_back_as_saved(
    text: str, description: str, type_: str, body: str
) -> None:
    """Through PersonaFolder.save, on any file Memory Desk lets the person edit."""
    if not js_trim(description):
        description = "A description"  # an entry needs one
    with tempfile.TemporaryDirectory() as tmp:
        folder_path = Path(tmp, "memory")
        folder_path.mkdir()
        Path(folder_path, "entry.md").write_bytes(text.encode("utf-8"))
        folder = PersonaFolder(folder_path, trash=Path(tmp, "trash"))
        entry = folder.read("entry")
        if not entry.editable:
            return
        edited = dataclasses.replace(entry, description=description, type=type_, body=body)
        saved = folder.save(edited)
        after = Path(folder_path, "entry.md").read_bytes().decode("utf-8")
    assert saved.description in (description, reference_one_line(description))
    description_read, type_read, updated_read, body_read = agent_reads(after)
    assert (description_read, type_read, updated_read) == (saved.description, type_, saved.updated)
    newline = parse_text(after).newline
    # Lines kept from the file's body keep their breaks; the others take the file's.
    assert body_read == file_body(body, newline, parse_text(text).body)
    assert as_in_editor(body_read) == as_in_editor(file_body(body, "\n"))
    assert saved.body == normalize_body(body_read)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.one_of(
                st.characters(codec="utf-8"),
                st.sampled_from(
                    ["\ue000", "\uffff", "\U00010000", "\U0001f41f", "\ud83d", "a", "z"]
                ),
            ),
            max_size=6,
        ),
        min_size=2,
        max_size=8,
    )
)
@example(["\U0001f41f", "\ue000"])
@example(["x\U00010000", "x\uffff", "x\ud83d", "x"])
def test_utf16_key_orders_as_utf16_code_units(texts: list[str]) -> None:
    """The agent sorts with JavaScript's ``<``, which compares UTF-16 code units: a character
    beyond U+FFFF (its halves are in U+D800-U+DFFF) comes before U+E000-U+FFFF there, and
    after them by code point. The key must order every text as the UTF-16 bytes do."""
    by_key = sorted(texts, key=utf16_key)
    by_units = sorted(texts, key=lambda t: t.encode("utf-16-be", "surrogatepass"))
    assert by_key == by_units


def test_utf16_key_puts_an_astral_character_before_the_private_use_area() -> None:
    assert utf16_key("\U0001f41f") < utf16_key("\ue000") < utf16_key("\uffff")
    assert utf16_key("a") < utf16_key("\U0001f41f")
    assert utf16_key("plain-name") == "plain-name"
