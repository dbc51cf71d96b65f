"""Characters a person cannot see, made visible: one rule for every place text is shown.

An agent's memories are written by programs and by whatever the agent was told. A title can
hold a right-to-left override that shows ``txt.exe`` as ``exe.txt``, a zero-width space that
makes two equal-looking names differ, or tag characters that carry words no one sees but a
model reads. Shown raw, none of that can be noticed. :func:`reveal` writes each such character
as a marked placeholder, ``⟨U+202E⟩``, for text shown on one line (tables, lists, titles,
names); :func:`hidden_characters` lists them, for a note beside an editor, whose text must not
change. Nothing here changes what is stored.

What counts as hidden (:func:`is_hidden`):

- the bidirectional controls: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069;
- every other invisible format character (Unicode category Cf: zero-width space, joiners,
  word joiner, U+FEFF, soft hyphen, invisible operators, tag characters...), except the few
  that draw a visible sign (Arabic number signs and the like);
- invisible fillers that are not Cf: the combining grapheme joiner U+034F and the Hangul
  fillers U+115F, U+1160, U+3164, U+FFA0.

Two exceptions keep ordinary text as it is: a zero-width joiner or non-joiner between two
non-ASCII letters, marks or symbols shapes them (Persian and Indic words, emoji sequences such
as 👩‍💻), and the tag characters that follow a black flag make a subdivision flag (🏴 of
Scotland).
"""

from __future__ import annotations

import re
import unicodedata

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Format characters (Cf) that draw a visible sign: shown as they are.
_VISIBLE_FORMAT = frozenset("\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2")
_VISIBLE_FORMAT |= {"\U000110bd", "\U000110cd"}
_INVISIBLE_FILLERS = frozenset("\u034f\u115f\u1160\u3164\uffa0")
_JOINERS = frozenset("\u200c\u200d")
_BLACK_FLAG = "\U0001f3f4"
_TAGS = range(0xE0000, 0xE0080)

# A quick test before looking at each character: most text has nothing hidden.
_CANDIDATE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb"
    "\U00013430-\U0001345f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
    "\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\U000110bd\U000110cd]"
)
OPEN, CLOSE = "⟨", "⟩"
PLACEHOLDER_RE = re.compile(f"{OPEN}U\\+[0-9A-F]{{4,6}}{CLOSE}")


def is_hidden(ch: str) -> bool:
    """Whether the character ``ch`` shows as nothing (or reorders the text around it),
    regardless of its neighbours (see :func:`hidden_characters` for the exceptions)."""
    if ch in BIDI_CONTROLS or ch in _INVISIBLE_FILLERS:
        return True
    return unicodedata.category(ch) == "Cf" and ch not in _VISIBLE_FORMAT


def hidden_characters(text: str) -> list[tuple[int, str]]:
    """``(index, character)`` of every hidden character of ``text``, in order."""
    if not text or text.isascii() or _CANDIDATE.search(text) is None:  # isascii: no scan
        return []
    found = []
    in_flag = False
    for index, ch in enumerate(text):
        if ord(ch) in _TAGS:
            in_flag = in_flag or (index > 0 and text[index - 1] == _BLACK_FLAG)
            if in_flag:
                continue
        else:
            in_flag = False
        if not is_hidden(ch):
            continue
        if ch in _JOINERS and _shapes(text, index):
            continue
        found.append((index, ch))
    return found


def placeholder(ch: str) -> str:
    """How a hidden character is written where it is shown: ``⟨U+202E⟩``."""
    return f"{OPEN}U+{ord(ch):04X}{CLOSE}"


def reveal(text: str) -> str:
    """``text`` with each hidden character written as its :func:`placeholder`; text with none
    is returned as it is (the same object)."""
    found = hidden_characters(text)
    if not found:
        return text
    parts = []
    start = 0
    for index, ch in found:
        parts.append(text[start:index])
        parts.append(placeholder(ch))
        start = index + 1
    parts.append(text[start:])
    return "".join(parts)


def character_name(ch: str) -> str:
    """A hidden character's Unicode name in lower case ("right-to-left override")."""
    return unicodedata.name(ch, "").lower() or placeholder(ch)


def _shapes(text: str, index: int) -> bool:
    """A joiner between two non-ASCII letters, marks or symbols: it shapes them."""
    if index == 0 or index == len(text) - 1:
        return False
    before, after = text[index - 1], text[index + 1]
    return _joinable(before) and _joinable(after)


def _joinable(ch: str) -> bool:
    if ch.isascii():
        return False
    if ch == "\ufe0f" or 0x1F3FB <= ord(ch) <= 0x1F3FF:  # emoji presentation, skin tones
        return True
    return unicodedata.category(ch)[0] in "LMS"
