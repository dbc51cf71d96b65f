"""How values read in the exported files: times as ISO 8601 UTC, text on one Markdown line.

Shared by the observations' and the chat's exports, so both write a time or a title the same
way. Pure functions.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime


def iso_utc(ms: object) -> str | None:
    """Milliseconds since the epoch as ISO 8601 UTC with milliseconds (``…Z``), as agent-kit
    writes times; None for None; a value no calendar holds is given as it is."""
    if ms is None:
        return None
    if not isinstance(ms, int) or isinstance(ms, bool):
        return str(ms)
    try:
        moment = datetime.fromtimestamp(ms / 1000, UTC)
    except (OverflowError, OSError, ValueError):
        return str(ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def md_text(text: str) -> str:
    """Text on one Markdown line, its markup characters escaped (a title, a path)."""
    one_line = " ".join(text.splitlines())
    return re.sub(r"([\\`*_\[\]<>#|!~])", r"\\\1", one_line)
