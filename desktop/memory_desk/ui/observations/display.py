"""How an observation's values read on screen: relative times, exact times, type colours.

Kept apart from the model so the table, the detail pane and the tests agree on one wording,
and so the model can preformat every cached row once instead of formatting on each paint.
"""

from __future__ import annotations

import re
import time
from datetime import datetime
from functools import cache

from PySide6.QtGui import QColor, QFontDatabase

# One hue per observation type: distinct at a glance, readable with white text.
TYPE_COLOURS: dict[str, str] = {
    "decision": "#2563eb",
    "bugfix": "#dc2626",
    "discovery": "#7c3aed",
    "pattern": "#0d9488",
    "architecture": "#c2410c",
    "config": "#475569",
    "preference": "#db2777",
    "learning": "#16a34a",
}
UNKNOWN_TYPE_COLOUR = "#6b7280"

PIN_EMOJI = "📌"
PIN_FALLBACK = "★"  # in every common font, for systems without an emoji font

_MINUTE = 60_000
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR


def now_ms() -> int:
    """Milliseconds since the epoch, the unit of every timestamp in the store."""
    return time.time_ns() // 1_000_000


@cache
def pin_glyph() -> str:
    """The pin emoji where an emoji font can draw it (else a tofu box), a star otherwise."""
    has_emoji_font = any("emoji" in family.lower() for family in QFontDatabase.families())
    return PIN_EMOJI if has_emoji_font else PIN_FALLBACK


def type_colour(type_name: str) -> QColor:
    """The badge colour of a type; types from a newer plugin get a neutral grey."""
    return QColor(TYPE_COLOURS.get(type_name, UNKNOWN_TYPE_COLOUR))


def relative_time(ms: int | None, now: int) -> str:
    """``5 min ago``-style wording: what a person scanning a list wants to know first."""
    if ms is None:
        return ""
    delta = now - ms
    if delta < _MINUTE:
        return "just now" if delta >= -_MINUTE else exact_date(ms)
    if delta < _HOUR:
        return f"{delta // _MINUTE} min ago"
    if delta < _DAY:
        return f"{delta // _HOUR} h ago"
    days = delta // _DAY
    if days == 1:
        return "yesterday"
    if days < 30:
        return f"{days} days ago"
    return exact_date(ms)


def exact_date(ms: int) -> str:
    """The local calendar date, for times too old for a relative wording."""
    return datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d")


def exact_time(ms: int | None) -> str:
    """Local date and time to the second, for tooltips and the detail pane."""
    if ms is None:
        return "—"
    return datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M:%S")


def when(ms: int | None, now: int) -> str:
    """Exact local time followed by the relative wording (if it adds one), for the detail pane."""
    if ms is None:
        return "—"
    relative = relative_time(ms, now)
    exact = exact_time(ms)
    return exact if exact.startswith(relative) else f"{exact} ({relative})"


def count_noun(count: int, noun: str = "observation") -> str:
    """``1 observation`` / ``3 observations``: messages read naturally for any count."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


_SECTION_LINE = re.compile(r"^\s*\*\*(what|why|where|learned)\*\*", re.IGNORECASE)


def sectioned_markdown(content: str) -> str:
    """Give each **What** / **Why** / **Where** / **Learned** line a paragraph of its own.

    The plugin writes the sections on consecutive lines, which markdown would run together
    into one paragraph; a blank line before each section keeps them apart on screen.
    """
    lines: list[str] = []
    for line in content.splitlines():
        if _SECTION_LINE.match(line) and lines and lines[-1].strip():
            lines.append("")
        lines.append(line)
    return "\n".join(lines)
