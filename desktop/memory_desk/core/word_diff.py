"""A word-level diff of two texts, for the review page's old-and-new view.

The agent rewrites a memory in place; what a person wants to see is which words it changed,
not which lines (an observation is often one long paragraph). The texts are cut into words,
runs of whitespace and single punctuation marks (whitespace as JavaScript's ``\\s`` has it,
the agents' own rule: :mod:`memory_desk.core.jstext`), and the token lists are compared.

Every segment is ``equal`` (in both texts), ``removed`` (only in the old) or ``added`` (only
in the new), in reading order, so joining the equal and removed segments gives back the old
text exactly, and joining the equal and added ones the new text. Pure Python, no Qt.

Texts with very many tokens are compared line by line instead (a word-level comparison of
two long texts costs time that grows with the square of their length); the segments keep
the same promise.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Literal

from memory_desk.core.jstext import JS_SPACE_CLASS

EQUAL = "equal"
REMOVED = "removed"
ADDED = "added"
SegmentKind = Literal["equal", "removed", "added"]

# Beyond this many tokens on either side, compare lines rather than words.
MAX_WORD_TOKENS = 20_000

_TOKEN_RE = re.compile(rf"{JS_SPACE_CLASS}+|\w+|[^\w]", re.UNICODE)
_LINE_RE = re.compile(r"[^\n]*\n|[^\n]+")


@dataclass(frozen=True)
class Segment:
    """A run of text that is in both texts (``equal``), only in the old (``removed``) or only
    in the new (``added``)."""

    kind: SegmentKind
    text: str


def tokens(text: str) -> list[str]:
    """``text`` cut into words, whitespace runs and single other characters; joined, they
    give ``text`` back."""
    return _TOKEN_RE.findall(text)


def _lines(text: str) -> list[str]:
    return _LINE_RE.findall(text)


def word_diff(old: str, new: str) -> list[Segment]:
    """The segments that turn ``old`` into ``new`` (see the module docstring)."""
    if old == new:
        return [Segment(EQUAL, old)] if old else []
    a, b = tokens(old), tokens(new)
    if max(len(a), len(b)) > MAX_WORD_TOKENS:
        a, b = _lines(old), _lines(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    segments: list[Segment] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            _append(segments, EQUAL, "".join(a[i1:i2]))
            continue
        if tag in ("delete", "replace"):
            _append(segments, REMOVED, "".join(a[i1:i2]))
        if tag in ("insert", "replace"):
            _append(segments, ADDED, "".join(b[j1:j2]))
    return segments


def _append(segments: list[Segment], kind: SegmentKind, text: str) -> None:
    """Add a segment, merged with the previous one of the same kind (fewer, longer runs)."""
    if not text:
        return
    if segments and segments[-1].kind == kind:
        segments[-1] = Segment(kind, segments[-1].text + text)
    else:
        segments.append(Segment(kind, text))


def old_text(segments: list[Segment]) -> str:
    """The old text the segments came from."""
    return "".join(s.text for s in segments if s.kind != ADDED)


def new_text(segments: list[Segment]) -> str:
    """The new text the segments came from."""
    return "".join(s.text for s in segments if s.kind != REMOVED)


def changed(segments: list[Segment]) -> bool:
    """True when the two texts differ."""
    return any(s.kind != EQUAL for s in segments)
