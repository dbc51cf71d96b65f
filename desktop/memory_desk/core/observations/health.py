"""Is the database sound? What a check found, and what to tell the person about it.

Two checks, both on one snapshot (:func:`fts_index.snapshot_problems`): SQLite's
``quick_check`` (the file's b-trees and records) and FTS5's ``integrity-check`` (the search
index against the rows). Their answers lead to different advice, so the message names the
real cause: a broken index alone is rebuilt from the rows (the exact command, the agent
stopped); a damaged database is not repaired by a rebuild, and the person restores a
backup. Either way the store refuses writes until a later check finds it healthy
(:class:`~memory_desk.core.errors.StoreDamaged`). Pure Python, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memory_desk.core.errors import StoreDamaged, StoreError, message_of
from memory_desk.core.messages import msg
from memory_desk.core.observations import fts_index
from memory_desk.core.observations.schema import broken_index_message
from memory_desk.core.observations.sqlite import Connections

CHECK_AGAIN = msg("Database", "After repairing it, use Tools ▸ Check database to check again.")


@dataclass(frozen=True)
class Health:
    """What one check of a database found.

    ``database``: SQLite's complaint about the file itself (None: sound);
    ``index``: FTS5's complaint about the search index (None: agrees with the rows, or not
    checked because the database itself is damaged); ``message``: what to tell the person
    (None when healthy).
    """

    database: str | None = None
    index: str | None = None
    message: str | None = None

    @property
    def ok(self) -> bool:
        return self.database is None and self.index is None

    @property
    def index_only(self) -> bool:
        """Only the search index is broken: rebuilding it from the rows repairs it."""
        return self.database is None and self.index is not None

    def as_error(self) -> StoreDamaged | None:
        """The StoreDamaged a write on this database raises, or None when healthy."""
        if self.message is None:
            return None
        return StoreDamaged(self.message, index_only=self.index_only)


def check(db: Connections, cache: Path) -> Health:
    """Both checks on one snapshot of ``db``'s file (:func:`fts_index.snapshot_problems`:
    the backup API from a read connection into memory, or into a temporary file in
    ``cache`` when the database is big). Raises StoreError when the check cannot run."""
    try:
        with db.translate(msg("DatabaseAction", "check the database")):
            conn = db.private()
            try:
                database, index = fts_index.snapshot_problems(conn, cache)
            finally:
                conn.close()
    except StoreDamaged as exc:
        # Opening the file for the snapshot met the damage itself.
        database = str(exc.__cause__) if exc.__cause__ is not None else message_of(exc)
        index = None
    except OSError as exc:
        where = str(exc.filename) if exc.filename else msg("Database", "its cache folder")
        raise StoreError(
            msg(
                "Database",
                "Could not check the database: Memory Desk could not write its scratch copy in"
                " {where} ({reason}); free some space there or check that folder's permissions",
                where=where,
                reason=exc.strerror or str(exc),
            )
        ) from exc
    return judge(db.path, database, index)


def judge(path: Path, database: str | None, index: str | None) -> Health:
    """The Health of ``path`` from the two checks' complaints, with the advice that fits."""
    if database is not None:
        return Health(database, None, damaged_database_message(path, database))
    if index is not None:
        return Health(
            None,
            index,
            msg(
                "Database",
                "{broken_index}. Until then Memory Desk will not write to it (the agent's"
                " searches miss or misreport rows, and every write would go through the broken"
                " index). After rebuilding, use Tools ▸ Check database to check again.",
                broken_index=broken_index_message(path, index),
            ),
        )
    return Health()


def damaged_database_message(path: Path, detail: str) -> str:
    """What to tell the person when the file itself is damaged (not only its index)."""
    return msg(
        "Database",
        "{path} is damaged: SQLite's check found {detail}. Memory Desk shows what it can read"
        " but will not write to it. Rebuilding the search index would not repair this: stop"
        " the agent and restore a backup of memory.sqlite (or recover it with sqlite3's"
        ' ".recover"). {check_again}',
        path=str(path),
        detail=detail,
        check_again=CHECK_AGAIN,
    )
