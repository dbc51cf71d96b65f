"""Text as JavaScript handles it: the agents are JavaScript programs, Memory Desk is not.

Both agents measure, trim, split and compare strings with JavaScript's rules, which differ
from Python's in small ways that change what ends up on disk: ``String.prototype.trim`` and the
regular-expression class ``\\s`` include U+FEFF but not U+001C..U+001F nor U+0085 (Python's
``str.strip`` and ``\\s`` are the other way round); ``.length`` and ``.slice`` count UTF-16
code units, so an emoji outside the BMP counts 2 and a cut can fall between its halves; and
``<`` compares strings by UTF-16 code units. This module is the one place that knows those
rules; the persona grammar and the plugin's rules both build on it. Pure Python, no Qt.
"""

from __future__ import annotations

import re

# JavaScript's WhiteSpace and LineTerminator code points: what trim() removes and \s matches.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
# JavaScript's LineTerminator code points: where its regular-expression "." stops.
JS_LINE_TERMINATORS = "\n\r\u2028\u2029"

JS_SPACE_CLASS = "[" + re.escape(JS_WHITESPACE) + "]"
JS_SPACE_RUNS_RE = re.compile(JS_SPACE_CLASS + "+")
JS_DOT_CLASS = "[^" + re.escape(JS_LINE_TERMINATORS) + "]"


# Where Python's whitespace (``str.split()``) and JavaScript's differ: the four information
# separators and NEL are Python's only, the BOM JavaScript's only.
_SPACES_THAT_DIFFER = "\x1c\x1d\x1e\x1f\x85\ufeff"


def js_collapse_spaces(text: str) -> str:
    """``text.replace(/\\s+/g, " ").trim()`` as JavaScript computes it.

    Python's ``split()`` does the same where the two agree on what whitespace is, many times
    faster than the regular expression on a long text (which holds the interpreter
    throughout, so the window waited for a save of megabytes on the writing thread)."""
    if any(space in text for space in _SPACES_THAT_DIFFER):
        return js_trim(JS_SPACE_RUNS_RE.sub(" ", text))
    return " ".join(text.split())


def js_trim(text: str) -> str:
    """Trim ``text`` exactly as JavaScript's ``String.prototype.trim`` does."""
    return text.strip(JS_WHITESPACE)


def js_lower(text: str) -> str:
    """``text.toLowerCase()`` in JavaScript.

    Both apply Unicode's full default lower-casing, SpecialCasing and the final sigma
    included, and agree on every code point their Unicode versions share. They differ where
    the agent's runtime knows letters newer than Python's tables (Python 3.11 has Unicode 14;
    a recent Node has 16 or 17): such a capital stays as it is here and is lowered there.
    """
    return text.lower()


def utf16_len(text: str) -> int:
    """``text.length`` in JavaScript: UTF-16 code units (a character outside the BMP is 2)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_slice(text: str, stop: int) -> str:
    """``text.slice(0, stop)`` in JavaScript, as it reaches a UTF-8 file.

    A cut between the two halves of a surrogate pair leaves a lone half in JavaScript, which
    Node writes to UTF-8 as U+FFFD; the same happens here, so the result is always storable.
    """
    if stop <= 0:
        return ""
    units = text.encode("utf-16-le", "surrogatepass")[: 2 * stop]
    return units.decode("utf-16-le", "replace")


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _halves(match: re.Match[str]) -> str:
    offset = ord(match.group()) - 0x10000
    return chr(0xD800 | offset >> 10) + chr(0xDC00 | offset & 0x3FF)


def utf16_key(text: str) -> str:
    """A sort key that orders strings as JavaScript's ``<`` does (UTF-16 code units).

    Code points and UTF-16 code units order alike except a character beyond U+FFFF, which
    JavaScript sees as two halves in U+D800-U+DFFF (before U+E000-U+FFFF): such a character
    becomes its two halves; any other text is its own key (most are ASCII)."""
    if text.isascii() or max(text) < "\U00010000":
        return text
    return _ASTRAL.sub(_halves, text)
