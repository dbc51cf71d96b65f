"""A database's ``PRAGMA data_version`` on a connection of its own, for a watcher.

The value changes exactly when another connection committed. The connection is
read-only (``mode=ro``) and autocommit with a zero busy timeout: it never holds a read
transaction between looks, never waits, never changes the journal mode and never
checkpoints. SQLite's errors come out as the core's types, so the watcher above decides
by class: :class:`StoreBusy` (a writer is recovering the WAL: look again later) or
:class:`StoreError` (the database cannot be watched now, and why).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memory_desk.core.errors import StoreBusy, StoreError
from memory_desk.core.messages import msg

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6


class DataVersionReader:
    """One read-only connection that only ever reads ``PRAGMA data_version``."""

    def __init__(self, path: Path) -> None:
        """Open ``path`` read-only and read the version once (:attr:`first`)."""
        self._path = Path(path)
        self._conn: sqlite3.Connection | None = None
        try:
            self._conn = sqlite3.connect(
                self._path.as_uri() + "?mode=ro", uri=True, isolation_level=None, timeout=0
            )
            self.first = self.read()
        except sqlite3.Error as exc:
            self.close()
            raise self._error(exc) from exc
        except StoreError:
            self.close()
            raise

    def read(self) -> int:
        """The connection's data_version now; StoreBusy when a writer holds it up."""
        if self._conn is None:
            raise StoreError(
                msg("Database", "{name} was closed; open it again", name=self._path.name)
            )
        try:
            return self._conn.execute("PRAGMA data_version").fetchall()[0][0]
        except sqlite3.Error as exc:
            raise self._error(exc) from exc

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def _error(self, exc: sqlite3.Error) -> StoreError:
        """SQLite's error as the core's type, by its code; SQLite's text is quoted as is."""
        code = (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF
        kind = StoreBusy if code in (_SQLITE_BUSY, _SQLITE_LOCKED) else StoreError
        return kind(
            msg(
                "DatabaseWatcher",
                "Cannot watch {path} for changes: {reason}",
                path=str(self._path),
                reason=str(exc),
            )
        )
