"""The one rule for hidden characters (core, no Qt): what is hidden and how it is written."""

from __future__ import annotations

import pytest

from memory_desk.core.hidden_text import hidden_characters, is_hidden, placeholder, reveal
from memory_desk.core.persona import printable_name

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u2062\u180e"


@pytest.mark.parametrize("ch", list(BIDI + ZERO_WIDTH) + ["\U000e0041", "\u034f", "\u3164"])
def test_each_hidden_character_is_written_as_its_code_point(ch: str) -> None:
    assert is_hidden(ch)
    assert reveal(f"a{ch}b") == f"a⟨U+{ord(ch):04X}⟩b"


def test_a_right_to_left_override_no_longer_reorders_what_is_shown() -> None:
    title = "invoice\u202egpj.exe"
    assert reveal(title) == "invoice⟨U+202E⟩gpj.exe"
    assert hidden_characters(title) == [(7, "\u202e")]


@pytest.mark.parametrize(
    "text",
    [
        "plain ASCII",
        "café, naïve, 日本語, עברית, العربية",
        "👩\u200d💻 and 👨\u200d👩\u200d👧",  # emoji sequences are joined by ZWJ
        "👍\U0001f3fd\u200d",  # ends with one: shown (a joiner at the end joins nothing)
        "می\u200cخواهم",  # a Persian word needs its zero-width non-joiner
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland's flag
        "\u0600\u0661",  # an Arabic number sign draws a sign: not hidden
    ],
)
def test_ordinary_text_is_shown_as_it_is(text: str) -> None:
    expected = text.replace("\u200d", "⟨U+200D⟩") if text.endswith("\u200d") else text
    assert reveal(text) == expected


def test_text_without_hidden_characters_is_the_same_object() -> None:
    text = "nothing to see " * 10
    assert reveal(text) is text


def test_a_joiner_beside_ascii_is_hidden() -> None:
    assert reveal("ad\u200dmin") == "ad⟨U+200D⟩min"
    assert reveal("x\U000e0041\U000e0042") == "x⟨U+E0041⟩⟨U+E0042⟩"  # tags with no flag


def test_file_names_use_the_same_placeholders_and_keep_their_escapes() -> None:
    assert printable_name("a\u202eb\nc") == "a⟨U+202E⟩b\\nc"
    assert placeholder("\u200b") == "⟨U+200B⟩"
