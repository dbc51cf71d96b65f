"""The word diff behind the review page: joined, the segments give back each text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memory_desk.core.word_diff import (
    ADDED,
    EQUAL,
    MAX_WORD_TOKENS,
    REMOVED,
    Segment,
    changed,
    new_text,
    old_text,
    tokens,
    word_diff,
)

# Words, JavaScript whitespace (U+FEFF included), punctuation, emoji and lone line breaks.
PIECES = st.sampled_from(
    ["cat", "dog", "sat", " ", "  ", "\n", "\ufeff", "\u00a0", ",", ".", "🐟", "ñandú", "x_y", "\t"]
)
TEXTS = st.lists(PIECES, max_size=40).map("".join) | st.text(max_size=60)


@settings(max_examples=300, deadline=None)
@given(TEXTS, TEXTS)
def test_segments_join_back_into_each_text(old: str, new: str) -> None:
    segments = word_diff(old, new)
    assert old_text(segments) == old
    assert new_text(segments) == new
    assert changed(segments) == (old != new)
    assert all(s.text for s in segments)  # no empty runs


@given(TEXTS)
def test_tokens_join_back(text: str) -> None:
    assert "".join(tokens(text)) == text


def test_only_the_changed_word_is_marked() -> None:
    segments = word_diff("Use tabs for indentation.", "Use spaces for indentation.")
    assert [s for s in segments if s.kind != EQUAL] == [
        Segment(REMOVED, "tabs"),
        Segment(ADDED, "spaces"),
    ]


def test_long_texts_fall_back_to_lines_and_keep_the_promise() -> None:
    old = "".join(f"line {n} word\n" for n in range(MAX_WORD_TOKENS // 4))
    new = old.replace("line 7 word\n", "line 7 changed\n")
    segments = word_diff(old, new)
    assert old_text(segments) == old and new_text(segments) == new
    assert [s.text for s in segments if s.kind == ADDED] == ["line 7 changed\n"]
