"""What names a chat in the review list: the first thing the person asked in it.

A change carries its chat's id (``session_id``), which says nothing to a person; the chat's
first prompt does ("The fuzzy finder feels slow…"). Read-only, on the caller's thread (the
review page's lister), in one query per few hundred chats.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.journal.reading import open_read_only

PROMPT_UNITS = 80  # UTF-16 units of the prompt shown
_CHUNK = 500


def first_prompts(db: Path, session_ids: Iterable[str]) -> dict[str, str]:
    """Each chat's first prompt on one line (cut at :data:`PROMPT_UNITS`), for the chats of
    ``session_ids`` that have one; a database that cannot be read gives none (the list then
    shows the ids, as before)."""
    from memory_desk.core.observations.chats import excerpt  # (the store imports the journal)

    ids = sorted({sid for sid in session_ids if sid})
    found: dict[str, str] = {}
    if not ids:
        return found
    try:
        conn = open_read_only(db)
    except StoreError:
        return found
    try:
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = conn.execute(
                "SELECT session_id, content FROM user_prompts"
                f" WHERE session_id IN ({marks}) ORDER BY created_at, id",
                chunk,
            )
            for session_id, content in rows:
                if session_id not in found and content:
                    found[session_id] = excerpt(content, PROMPT_UNITS)
    except sqlite3.Error:
        return found  # an older or damaged file: what was found so far
    finally:
        conn.close()
    return found
