"""A text edited in a plain-text editor, given back the line breaks it was loaded with.

Qt's text editors hold lines, not line breaks: ``\\r\\n``, a lone ``\\r``, ``\\n``, U+2029
and Qt's frame marks U+FDD0/U+FDD1 all become the same break between two lines, and the
text comes back with ``\\n`` alone. A body saved from the editor as it comes back would lose
every ``\\r`` of a Windows file even where the person changed nothing. So the original text
is kept, and the edited lines are mapped back onto it: a line matched to an original line
(unchanged, or changed in place) keeps the break that followed it there; a new line takes the
original's most common break (``\\r\\n`` or ``\\n``; the default when it has none). The
matching is difflib's (the standard library), on the lines left once the common start and
end are set aside, so a one-line edit of a long text costs one pass over it.

Pure Python, no Qt: the observation form maps its text before saving, the persona folder maps
a new body onto the file's body when it writes it.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from os.path import commonprefix

# Where Qt's editors start a new line when given text (QTextCursor::insertText).
EDITOR_BREAKS_RE = re.compile("\r\n|[\n\r\u2029\ufdd0\ufdd1]")
_EDITOR_BREAKS_SPLIT_RE = re.compile(f"({EDITOR_BREAKS_RE.pattern})")
# The breaks an edited text hands back: an editor's ``\n``, or ``\r\n`` from a caller.
_EDITED_BREAKS_RE = re.compile("\r?\n")
_MARK_BREAKS = ("\u2029", "\ufdd0", "\ufdd1")
_TYPED_BREAKS = ("\r\n", "\n")  # what a new line may take (never a lone CR or a mark)
# How much of a line must stay (difflib's ratio) for it to count as edited in place.
SAME_LINE_RATIO = 0.5


def as_in_editor(text: str) -> str:
    """``text`` as a plain-text editor gives it back untouched: every break it knows is ``\\n``.

    (``str.replace`` per kind of break: a regular expression's substitution makes one call
    per line, too slow for a body of megabytes on the window's thread.)"""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for mark in _MARK_BREAKS:
        if mark in text:
            text = text.replace(mark, "\n")
    return text


def split_lines(text: str) -> tuple[list[str], list[str]]:
    """The lines of ``text`` and the break after each but the last (one fewer than lines)."""
    parts = _EDITOR_BREAKS_SPLIT_RE.split(text)
    return parts[0::2], parts[1::2]


def dominant_break(breaks: list[str], default: str = "\n") -> str:
    """The original's most common ``\\r\\n`` or ``\\n`` (``default`` when neither, or tied)."""
    counts = {kind: breaks.count(kind) for kind in _TYPED_BREAKS}
    best = max(counts.values())
    if best == 0 or counts.get(default) == best:
        return default
    return max(_TYPED_BREAKS, key=counts.__getitem__)


def keep_line_endings(original: str, edited: str, default: str = "\n") -> str:
    """``edited`` (lines broken by ``\\n`` or ``\\r\\n``) with ``original``'s line breaks.

    Returns ``original`` itself when the edit changed nothing an editor shows. A line matched
    to a line of ``original`` keeps the break that followed that line (when it was not the
    last); every other break is the original's dominant one (:func:`dominant_break`).
    """
    if edited == original or edited == as_in_editor(original):
        return original
    old, old_breaks = split_lines(original)
    new = _EDITED_BREAKS_RE.split(edited) if "\r" in edited else edited.split("\n")
    typed = dominant_break(old_breaks, default)
    matched = _match_lines(old, new)

    def after(index: int) -> str:
        source = matched[index]
        if source is not None and source < len(old_breaks):
            kept = old_breaks[source]
            # A lone CR or a mark only where the line itself is as it was.
            if kept in _TYPED_BREAKS or old[source] == new[index]:
                return kept
        return typed

    pieces: list[str] = []
    for index, line in enumerate(new):
        pieces.append(line)
        if index < len(new) - 1:
            pieces.append(after(index))
    return "".join(pieces)


def _match_lines(old: list[str], new: list[str]) -> list[int | None]:
    """For each new line, the original line it stands for (None: a new line).

    Equal lines are matched by difflib; in a block of lines replaced one for one, a line
    still much like the one in its place (an edit in place) is matched to it; the common
    start and end are matched first.
    """
    matched: list[int | None] = [None] * len(new)
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        matched[head] = head
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        matched[len(new) - 1 - tail] = len(old) - 1 - tail
        tail += 1
    old_middle = old[head : len(old) - tail]
    new_middle = new[head : len(new) - tail]
    matcher = SequenceMatcher(None, old_middle, new_middle, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for offset in range(j2 - j1):
                before, after = old_middle[i1 + offset], new_middle[j1 + offset]
                if tag == "equal" or _edited_in_place(before, after):
                    matched[head + j1 + offset] = head + i1 + offset
    return matched


def _edited_in_place(before: str, after: str) -> bool:
    """``after`` is ``before`` edited, not another line: the start and end they share are at
    least half of the shorter one (text typed at the end or in the middle), or difflib finds
    half of them alike."""
    start = len(commonprefix([before, after]))
    end = len(commonprefix([before[start:][::-1], after[start:][::-1]]))
    if 2 * (start + end) >= min(len(before), len(after)):
        return True
    return SequenceMatcher(None, before, after, autojunk=False).ratio() >= SAME_LINE_RATIO
