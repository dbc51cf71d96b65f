"""The agent's header grammar, as pure functions (memory_desk.core.persona_format)."""

from __future__ import annotations

import pytest

from memory_desk.core.errors import StoreError
from memory_desk.core.jstext import JS_WHITESPACE
from memory_desk.core.persona_format import (
    agent_type,
    compose,
    encode_value,
    js_string,
    js_trim,
    parse_text,
    read_value,
    render_new_file,
    rewrite_header,
)


def test_js_trim_removes_what_javascript_removes_and_nothing_else() -> None:
    assert js_trim("\ufeff\u00a0\u2028 x \u3000\u2029\u202f") == "x"
    assert js_trim("\x1cx\x85") == "\x1cx\x85"  # Python's strip() would remove these
    assert js_trim(JS_WHITESPACE) == ""


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        (" plain ", "plain"),
        ('"quoted"', "quoted"),
        ("'single'", "single"),
        ("'mixed\"", "mixed"),
        ('"only leading', "only leading"),
        ('""', ""),
        ('"', ""),
        ('"a "b" c"', 'a "b" c'),
        ("[a, 'b' , \"c\"]", ("a", "b", "c")),
        ("[]", ()),
        ("[a, , '', b]", ("a", "b")),
        ("[a, b] ", "[a, b]"),  # trailing space: text, trimmed by unquote
        (" \u2028[a]", ("a",)),  # leading whitespace is the regex's \s*
        ("[", "["),
        ("[not a list", "[not a list"),
        ("|", "|"),
        ("a: b", "a: b"),
    ],
)
def test_read_value(raw: str, value: object) -> None:
    assert read_value(raw) == value


def test_header_needs_the_first_line_to_be_exactly_the_fence() -> None:
    assert parse_text("---\nname: a\n---\n").header_found
    assert parse_text("---\r\nname: a\r\n---\r\n").header_found
    assert not parse_text("--- \nname: a\n---\n").header_found
    assert not parse_text("\n---\nname: a\n---\n").header_found
    assert not parse_text("\ufeff---\nname: a\n---\n").header_found
    assert parse_text("\ufeff---\nname: a\n---\n").bom_hides_header


def test_header_ends_at_the_first_fence_line_and_the_rest_is_body() -> None:
    parsed = parse_text("---\ntype: feedback\n---\n\nBody\n---\nmore: text\n")
    assert parsed.field("type").value == "feedback"
    assert parsed.field("more") is None
    assert parsed.body == "Body\n---\nmore: text"


def test_a_lone_carriage_return_neither_ends_a_line_nor_leaves_it_a_field() -> None:
    parsed = parse_text("---\ntype: feedback\r---\n---\nx")
    assert [line.text for line in parsed.header] == ["type: feedback\r---"]
    assert parsed.fields == () and parsed.body == "x"


def test_the_closing_line_only_needs_to_start_with_the_dashes() -> None:
    parsed = parse_text("---\ntype: feedback\n---- more\r\nBody\n")
    assert parsed.field("type").value == "feedback"
    assert parsed.closing == ("---", "") and parsed.closing_tail == "- more"
    assert parsed.body == "- more\r\nBody"


def test_the_line_after_the_opening_never_closes() -> None:
    assert [line.text for line in parse_text("---\n---\nx: y\n---\n").header] == ["---", "x: y"]
    assert [line.text for line in parse_text("---\n\n---\n").header] == [""]
    lone = parse_text("---\n---\nx: y\n")
    assert lone.unclosed and lone.fence_after_opening and lone.body == "---\n---\nx: y"


def test_lists_read_as_their_items_joined_by_comma_and_space() -> None:
    assert js_string(("a", "b")) == "a, b" and js_string(()) == "" and js_string(None) == ""
    assert agent_type(("feedback",)) == "feedback" and agent_type(("user", "feedback")) == "user"


def test_encode_value_refuses_what_cannot_stay_on_one_line() -> None:
    for value in ("a\nb", "a\rb", "a\u2028b", "a\u2029b"):
        with pytest.raises(StoreError):
            encode_value(value)


def test_keys_follow_the_agent_pattern() -> None:
    parsed = parse_text("---\n_ok-key: 1\n9bad: 2\nbad key: 3\n  indented: 4\nk2:5\n---\n")
    assert [f.key for f in parsed.fields] == ["_ok-key", "k2"]
    assert parsed.field("k2").value == "5"


def test_block_list_needs_an_empty_value_and_indented_items() -> None:
    parsed = parse_text("---\ntags:\n  - a\n\t- 'b'\nnot: indented\n- c\n---\n")
    assert parsed.field("tags").value == ("a", "b")
    assert parsed.field("not").value == "indented"
    quoted_empty = parse_text('---\ntags: ""\n  - a\n---\n')
    assert quoted_empty.field("tags").value == ""


@pytest.mark.parametrize(
    "value",
    ["plain", "", " spaced ", '"quoted"', "'a", 'b"', "[a, b]", "[draft] notes", "x: y", "|"],
)
def test_encode_value_reads_back_as_written(value: str) -> None:
    assert read_value(encode_value(value)) == value


def test_render_new_file_is_the_agents_format() -> None:
    text = render_new_file(
        name="no-fish-puns",
        description="Dislikes puns about fish; avoid fish-themed jokes",
        type="feedback",
        updated="2026-10-07T13:15:05.678Z",
        body="\n  Rule: never.\n\n",
    )
    assert text == (
        "---\nname: no-fish-puns\ndescription: Dislikes puns about fish; avoid fish-themed jokes\n"
        "type: feedback\nupdated: 2026-10-07T13:15:05.678Z\n---\n\nRule: never.\n"
    )


def test_rewrite_header_replaces_the_line_the_agent_reads_in_place() -> None:
    source = "---\r\ntype: user\r\nx: 1\r\ntype: feedback\r\ntags:\r\n  - a\r\n---\r\nbody\r\n"
    parsed = parse_text(source)
    header = rewrite_header(parsed, {"type": "user", "tags": "b", "updated": "now"})
    out = compose(parsed, header, None)
    assert out == (
        "---\r\ntype: user\r\nx: 1\r\ntype: user\r\ntags: b\r\nupdated: now\r\n---\r\nbody\r\n"
    )


def test_compose_with_a_new_body_keeps_the_file_line_breaks() -> None:
    parsed = parse_text("---\r\ntype: user\r\n---")
    assert compose(parsed, parsed.header, "a\nb") == "---\r\ntype: user\r\n---\r\n\r\na\r\nb\r\n"


def test_compose_keeps_text_after_the_closing_dashes_or_writes_a_plain_closing_line() -> None:
    source = "---\ntype: user\n--- Old start\nmore\n"
    parsed = parse_text(source)
    assert compose(parsed, parsed.header, None) == source
    assert compose(parsed, parsed.header, "New") == "---\ntype: user\n---\n\nNew\n"
