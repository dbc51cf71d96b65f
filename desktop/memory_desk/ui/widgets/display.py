"""How an observation's values read on screen: the pin glyph, the content's sections and
the scope's name.

Dates come from :mod:`memory_desk.ui.dates` (one style for the whole window) and colours from
:mod:`memory_desk.ui.theme` at paint time; this module keeps what is particular to
observations, so the table, the detail pane and the tests agree on one wording. Counts are
``i18n.plural`` with whole translated sentences (never an English noun with an "s").
"""

from __future__ import annotations

import re
import time
from functools import cache

from PySide6.QtGui import QFontDatabase

from memory_desk.ui.i18n import translate

PIN_EMOJI = "📌"
PIN_FALLBACK = "★"  # in every common font, for systems without an emoji font


def now_ms() -> int:
    """Milliseconds since the epoch, the unit of every timestamp in the store."""
    return time.time_ns() // 1_000_000


@cache
def pin_glyph() -> str:
    """The pin emoji where an emoji font can draw it (else a tofu box), a star otherwise."""
    has_emoji_font = any("emoji" in family.lower() for family in QFontDatabase.families())
    return PIN_EMOJI if has_emoji_font else PIN_FALLBACK


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


def scope_label(scope: str) -> str:
    """A scope as the filter names it; the stored value stays what the query uses."""
    if scope == "project":
        return translate("FilterBar", "Project")
    if scope == "personal":
        return translate("FilterBar", "Personal")
    return scope  # a scope from a newer plugin: its own name (data)
