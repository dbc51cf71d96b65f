"""Reading an agent's database for the journal: read-only, and what to say when it cannot.

Its own module (no numpy, no scan logic) so that a first look's child process
(:mod:`.first_look`) imports only what it uses.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.messages import msg


def open_read_only(db: Path) -> sqlite3.Connection:
    """A read-only connection on the agent's file: ``mode=ro``, a short busy wait."""
    try:
        conn = sqlite3.connect(db.as_uri() + "?mode=ro", uri=True, isolation_level=None)
        conn.text_factory = lambda b: b.decode("utf-8", "replace")
        conn.execute("PRAGMA busy_timeout = 1000")
        conn.execute("PRAGMA query_only = 1")
    except sqlite3.Error as exc:
        raise StoreError(cannot_read(db, str(exc))) from exc
    return conn


def cannot_read(db: Path, detail: str) -> str:
    return msg(
        "Journal",
        "Memory Desk could not compare {path} with what it last saw ({detail}); it will try"
        " again at the next change",
        path=str(db),
        detail=detail,
    )
