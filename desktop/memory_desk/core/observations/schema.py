"""Is this Alisio's memory database, in a shape Memory Desk can work on? Checked at open.

Opening refuses a file that is not the plugin's database (no ``observations`` or
``observations_fts`` table, missing columns) or whose search index is visibly damaged
(shadow tables, indexed-row count, a few rows found by their own titles), and collects
warnings for what the person should know but can work with: an unknown or newer plugin
version, one of the plugin's other tables missing or without a column Memory Desk reads (it
is then read as missing: :func:`usable_tables`), missing index triggers, a read-only file or
file system, a journal mode other than WAL.
Everything here only reads; damage met later by a search is reported as a StoreError
too (:mod:`.sqlite`).
"""

from __future__ import annotations

import os
import shlex
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from memory_desk.core import alisio
from memory_desk.core.errors import StoreError
from memory_desk.core.messages import Msg, msg
from memory_desk.core.mounts import on_read_only_mount
from memory_desk.core.observations import fts_index
from memory_desk.core.observations.rows import COLUMNS
from memory_desk.core.observations.search import MIN_TRIGRAM_CHARS

_REQUIRED_TABLES = ("observations", "observations_fts")
# FTS5 names its shadow tables after the FTS table itself: these are SQLite's names.
_FTS_SHADOW_TABLES = ("observations_fts_data", "observations_fts_idx", "observations_fts_config")


# The plugin's tables beside observations (FORMATS.md, part A) and the columns Memory Desk
# reads from each; a table without one of them is read as missing. injected_context is schema
# 101's: a database without that version is simply older.
PLUGIN_TABLES: dict[str, tuple[str, ...]] = {
    "memory_sessions": ("id", "project", "directory", "started_at", "ended_at", "summary"),
    "user_prompts": ("id", "session_id", "content", "project", "created_at"),
    "injected_context": ("session_id", "project", "content", "created_at"),
}


def usable_tables(conn: sqlite3.Connection) -> frozenset[str]:
    """The database's tables, less those of :data:`PLUGIN_TABLES` that lack a column Memory
    Desk reads: the readers (chats, the next chat's context) then do without them, as they do
    without a table an older plugin never made. One statement, whatever the tables."""
    marks = ",".join("?" * len(PLUGIN_TABLES))
    rows = conn.execute(
        f"SELECT name, CASE WHEN name IN ({marks}) THEN (SELECT group_concat(p.name, char(31))"
        " FROM pragma_table_info(m.name) AS p) END FROM sqlite_master AS m WHERE type = 'table'",
        tuple(PLUGIN_TABLES),
    ).fetchall()
    return frozenset(
        name
        for name, columns in rows
        if not set(PLUGIN_TABLES.get(name, ())) - set((columns or "").split("\x1f"))
    )


def _missing_columns(conn: sqlite3.Connection, table: str, needed: tuple[str, ...]) -> list[str]:
    present = {row[1] for row in conn.execute(f'PRAGMA table_info("{table}")').fetchall()}
    return [name for name in needed if name not in present]


def check_path(path: Path) -> None:
    """Explain a missing or unsuitable path before SQLite gives a vaguer message."""
    if not path.exists():
        raise StoreError(
            msg("Database", "There is no file at {path}; check the path", path=str(path))
        )
    if not path.is_file():
        raise StoreError(
            msg("Database", "{path} is not a file; choose Alisio's memory.sqlite", path=str(path))
        )


def inspect(conn: sqlite3.Connection, path: Path) -> tuple[frozenset[int], tuple[str, ...]]:
    """Check this is an Alisio memory database whose index works; return versions, warnings."""
    names = {
        row[0]: row[1] for row in conn.execute("SELECT name, type FROM sqlite_master").fetchall()
    }
    for table in _REQUIRED_TABLES:
        if table not in names:
            raise StoreError(
                msg(
                    "Database",
                    "{path} is an SQLite file but not Alisio's memory database"
                    " (it has no {table} table); choose the plugin's memory.sqlite",
                    path=str(path),
                    table=table,
                )
            )
    present = {row[1] for row in conn.execute("PRAGMA table_info(observations)").fetchall()}
    missing = [name for name in COLUMNS if name not in present]
    if missing:
        raise StoreError(
            msg(
                "Database",
                "{path} has an observations table without the columns {columns}; it was not"
                " written by Alisio's memory plugin",
                path=str(path),
                columns=", ".join(missing),
            )
        )
    warnings: list[str] = []
    versions = _schema_versions(conn, "schema_migrations" in names, warnings)
    _check_plugin_tables(conn, names, versions, warnings)
    _check_index(conn, path, names, warnings)
    if on_read_only_mount(path):
        warnings.append(
            msg(
                "Database",
                "the file system holding it is mounted read-only: you can browse, but changes"
                " cannot be saved",
            )
        )
    elif not os.access(path, os.W_OK):
        warnings.append(
            msg("Database", "the file is read-only: you can browse, but changes cannot be saved")
        )
    mode = conn.execute("PRAGMA journal_mode").fetchall()[0][0]
    if str(mode).lower() != "wal":
        warnings.append(
            msg(
                "Database",
                "the database is in {mode} journal mode, not the plugin's WAL: while the"
                " agent runs, Memory Desk's writes may make it wait",
                mode=str(mode),
            )
        )
    return versions, tuple(warnings)


def broken_index_message(path: Path, detail: str) -> str:
    """What to tell the person when the search index of ``path`` is damaged."""
    return msg(
        "Database",
        "The search index of {path} is damaged ({detail}). With the agent stopped, rebuild it"
        ' with: sqlite3 {quoted_path} "INSERT INTO observations_fts(observations_fts)'
        " VALUES('rebuild')\", or restore a backup",
        path=str(path),
        detail=detail,
        quoted_path=shlex.quote(str(path)),
    )


def read_only_mount_message(action: str, path: Path, *, opening: bool) -> str | None:
    """SQLite's "cannot open" (``opening``) or "read-only" when ``path`` is on a file system
    mounted read-only (else None): the mount, not the file's permissions, is what the person
    has to change."""
    if not on_read_only_mount(path):
        return None
    if opening:
        return msg(
            "Database",
            "Could not open {path}: it is on a file system mounted read-only, where SQLite"
            " cannot open a database kept in the plugin's WAL mode (it must create its -shm"
            " file beside it). Copy memory.sqlite to a folder you can write and open the copy,"
            " or mount the file system read-write",
            path=str(path),
        )
    return msg(
        "Database",
        "Could not {action}: {path} is on a file system mounted read-only; nothing can be"
        " written there",
        action=action,
        path=str(path),
    )


def _schema_versions(
    conn: sqlite3.Connection, has_table: bool, warnings: list[str]
) -> frozenset[int]:
    if not has_table:
        warnings.append(
            msg("Database", "no schema_migrations table: the plugin's version is unknown")
        )
        return frozenset()
    versions = frozenset(
        int(row[0]) for row in conn.execute("SELECT version FROM schema_migrations")
    )
    newer = sorted(v for v in versions if v > max(alisio.KNOWN_SCHEMA_VERSIONS))
    if newer:
        warnings.append(
            msg(
                "Database",
                "written by a newer plugin (schema {version}): Memory Desk shows and"
                " edits only the columns it knows",
                version=newer[-1],
            )
        )
    return versions


def _check_plugin_tables(
    conn: sqlite3.Connection,
    names: Mapping[str, str],
    versions: frozenset[int],
    warnings: list[str],
) -> None:
    """A warning for each of the plugin's other tables that is missing, or that lacks a column
    Memory Desk reads: what is missing, what the person does without, and that the rest
    works."""
    for table, columns in PLUGIN_TABLES.items():
        if table == "injected_context" and 101 not in versions:
            continue  # an older plugin never made it: nothing is missing
        if names.get(table) != "table":
            what = msg("Database", "the {table} table is missing", table=table)
        else:
            missing = _missing_columns(conn, table, columns)
            if not missing:
                continue
            what = msg(
                "Database",
                "the {table} table has no {columns} column, so Memory Desk leaves it unread",
                table=table,
                columns=", ".join(missing),
            )
        warnings.append(
            msg(
                "Database",
                "{what}: {loss}; observations, their search and your edits work as usual",
                what=what,
                loss=_LOSS[table](),
            )
        )


def _sessions_loss() -> Msg:
    return msg(
        "Database",
        "chats show no summaries and the next chat's context is previewed without the last summary",
    )


def _prompts_loss() -> Msg:
    return msg(
        "Database",
        "chats show no prompts and the next chat's context is previewed without recent prompts",
    )


def _context_loss() -> Msg:
    return msg("Database", "chats cannot show the context the plugin gave them at their start")


_LOSS = {
    "memory_sessions": _sessions_loss,
    "user_prompts": _prompts_loss,
    "injected_context": _context_loss,
}


def _check_index(
    conn: sqlite3.Connection, path: Path, names: Mapping[str, str], warnings: list[str]
) -> None:
    """Check the FTS index cheaply enough to do it at every open.

    FTS5's own ``integrity-check`` grows with the database and, being an
    INSERT, holds the write lock all along, so the agent's saves would wait on it.
    Instead: the shadow tables exist, as many rows are indexed as exist, and a few
    rows (first, middle, last) are found by a search for their own title. All in
    one short read transaction, so the agent's concurrent saves cannot make it lie.
    The full check is ``ObservationStore.check_index``, on a snapshot, off the main
    thread. The triggers are judged by what they do (:func:`fts_index.missing_triggers`),
    not by their names.
    """
    broken = [name for name in _FTS_SHADOW_TABLES if name not in names]
    if broken:
        missing_tables = msg("Database", "missing {tables}", tables=", ".join(broken))
        raise StoreError(broken_index_message(path, missing_tables))
    conn.execute("BEGIN")
    try:
        if "observations_fts_docsize" in names:
            _check_indexed_count(conn, path)
        _check_rows_are_found(conn, path)
    finally:
        conn.execute("COMMIT")
    missing = fts_index.missing_triggers(conn)
    if missing:
        warnings.append(
            msg(
                "Database",
                "the search index triggers are missing ({triggers}): searches, the agent's"
                " too, will not see those changes to observations. Restore a backup of"
                " memory.sqlite, or recreate the plugin's triggers and rebuild the index",
                triggers="; ".join(missing),
            )
        )


def _check_indexed_count(conn: sqlite3.Connection, path: Path) -> None:
    indexed, rows = conn.execute(
        "SELECT (SELECT count(*) FROM observations_fts_docsize),"
        " (SELECT count(*) FROM observations)"
    ).fetchall()[0]
    if indexed != rows:
        detail = msg(
            "Database",
            "{indexed} rows indexed for {rows} observations",
            indexed=indexed,
            rows=rows,
        )
        raise StoreError(broken_index_message(path, detail))


def _check_rows_are_found(conn: sqlite3.Connection, path: Path) -> None:
    samples = conn.execute(
        "SELECT id, title FROM observations WHERE id IN ("
        " (SELECT min(id) FROM observations), (SELECT max(id) FROM observations),"
        " (SELECT id FROM observations WHERE id >= ((SELECT min(id) FROM observations)"
        " + (SELECT max(id) FROM observations)) / 2 ORDER BY id LIMIT 1))"
    ).fetchall()
    for id, title in samples:
        # The index stops reading a value at a NUL; search for what it did read.
        probe = str(title).split("\x00")[0][:12]
        if len(probe) < MIN_TRIGRAM_CHARS:
            continue
        found = conn.execute(
            "SELECT count(*) FROM observations_fts WHERE observations_fts MATCH ? AND rowid = ?",
            ('{title} : "' + probe.replace('"', '""') + '"', id),
        ).fetchall()[0][0]
        if not found:
            detail = msg("Database", "observation #{id} is missing from it", id=id)
            raise StoreError(broken_index_message(path, detail))
