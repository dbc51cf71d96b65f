"""Observations to JSON or to a folder of Markdown files (formats: the package docstring).

The rows are read with ``SELECT`` only, through :meth:`ObservationStore.read`, in chunks of ids
so that neither memory nor a read transaction grows with the database. Kept together because
both formats plan the same ids and read the same whole rows.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import sqlite3
import time
import unicodedata
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from memory_desk.core.export.files import new_file, new_folder, write_private
from memory_desk.core.export.result import ExportResult
from memory_desk.core.export.text import iso_utc, md_text
from memory_desk.core.messages import msg
from memory_desk.core.observations.rows import CHUNK
from memory_desk.core.observations.store import ObservationStore
from memory_desk.core.progress import Progress

FORMAT_NAME = "memory-desk-observations"
FORMAT_VERSION = 1
SLUG_MAX = 60
# The JSON header's count is written before the rows and set once they are all written (a
# row the agent deletes meanwhile is not exported): this many characters are kept for it.
_COUNT_WIDTH = 20


def export_observations_json(
    store: ObservationStore,
    ids: Sequence[int] | None,
    path: str | os.PathLike[str],
    progress: Progress,
) -> ExportResult:
    """Write the observations ``ids`` (None: every row, forgotten included) to the JSON file
    ``path`` (package docstring), in the order given (None: by id)."""
    target = Path(path)
    planned = _planned_ids(store, ids)
    columns = store.read(_READ, _columns)
    progress.step(0, len(planned))
    with new_file(target) as out:
        count_at = _write_json_head(out, store, columns)
        keys = [f"      {json.dumps(name, ensure_ascii=False)}: " for name in columns]
        deleted_at = columns.index("deleted_at") if "deleted_at" in columns else None
        written = 0
        for row in _rows(store, planned):
            out.write((",\n" if written else "\n").encode())
            out.write(_json_object(keys, row, deleted_at).encode("utf-8"))
            written += 1
            progress.step(written)
        out.write(("\n  ]\n" if written else "]\n").encode() + b"}\n")
        out.seek(count_at)
        out.write(str(written).ljust(_COUNT_WIDTH).encode())
    return ExportResult(target, written)


def export_observations_markdown(
    store: ObservationStore,
    ids: Sequence[int] | None,
    folder: str | os.PathLike[str],
    progress: Progress,
) -> ExportResult:
    """Make the new folder ``folder`` holding one ``<id>-<slug>.md`` per observation (None:
    every row, forgotten included) and an ``index.md`` listing them (package docstring)."""
    target = Path(folder)
    planned = _planned_ids(store, ids)
    columns = store.read(_READ, _columns)
    progress.step(0, len(planned))
    lines: list[str] = []
    forgotten = 0
    with new_folder(target) as work:
        for row in _rows(store, planned):
            values = dict(zip(columns, row, strict=True))
            name = observation_file_name(values["id"], values.get("title"))
            write_private(work / name, observation_markdown(values).encode("utf-8"))
            lines.append(_index_line(name, values))
            forgotten += values.get("deleted_at") is not None
            progress.step(len(lines))
        index = _index_markdown(store, lines, forgotten)
        write_private(work / "index.md", index.encode("utf-8", "replace"))
    return ExportResult(target, len(lines))


def observation_file_name(id: object, title: object) -> str:
    """``<id>-<slug>.md``: the title in lower-case ASCII words joined by dashes (accents
    dropped, at most ``SLUG_MAX`` characters), ``observation`` when none is left."""
    return f"{id}-{slug(title if isinstance(title, str) else '')}.md"


def slug(text: str) -> str:
    """``text`` as a file-name-safe kebab word list (see :func:`observation_file_name`)."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    words = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")
    return words[:SLUG_MAX].rstrip("-") or "observation"


def observation_markdown(values: dict[str, object]) -> str:
    """One observation's Markdown file: its metadata as front matter, then its content."""
    fields = (
        ("id", values.get("id")),
        ("type", values.get("type")),
        ("title", values.get("title")),
        ("project", values.get("project")),
        ("scope", values.get("scope")),
        ("topic_key", values.get("topic_key")),
        ("session", values.get("session_id")),
        ("tool", values.get("tool_name")),
        ("pinned", bool(values.get("pinned"))),
        ("forgotten", values.get("deleted_at") is not None),
        ("revision_count", values.get("revision_count")),
        ("duplicate_count", values.get("duplicate_count")),
        ("access_count", values.get("access_count")),
        ("created", iso_utc(values.get("created_at"))),
        ("updated", iso_utc(values.get("updated_at"))),
        ("last_seen", iso_utc(values.get("last_seen_at"))),
        ("last_accessed", iso_utc(values.get("last_accessed_at"))),
        ("forgotten_at", iso_utc(values.get("deleted_at"))),
    )
    head = "".join(
        f"{key}: {json.dumps(_json_value(value), ensure_ascii=False)}\n" for key, value in fields
    )
    content = values.get("content")
    body = content if isinstance(content, str) else json.dumps(_json_value(content))
    return f"---\n{head}---\n\n{body}\n"


def _index_line(name: str, values: dict[str, object]) -> str:
    marks = [str(values.get("type")), str(values.get("project"))]
    marks.append(f"updated {iso_utc(values.get('updated_at'))}")
    if values.get("pinned"):
        marks.append("pinned")
    if values.get("deleted_at") is not None:
        marks.append("forgotten")
    title = values.get("title")
    return f"- [{md_text(title if isinstance(title, str) else '')}]({name}) · {' · '.join(marks)}"


def _index_markdown(store: ObservationStore, lines: list[str], forgotten: int) -> str:
    head = [
        f"# Observations from {md_text(store.path.name)}",
        "",
        f"- Database: {md_text(str(store.path))}",
        f"- Exported: {iso_utc(_now_ms())}",
        f"- Observations: {len(lines)} ({forgotten} forgotten)",
        "",
    ]
    return "\n".join([*head, *lines, ""])


# ----------------------------------------------------------------------------- reading

_READ = msg("DatabaseAction", "read the observations to export")


def _planned_ids(store: ObservationStore, ids: Sequence[int] | None) -> list[int]:
    """The ids to export: those given (without repeats, in their order) that exist, or every
    row's by id."""
    if ids is None:
        return store.read(_READ, _all_ids)
    wanted = list(dict.fromkeys(int(i) for i in ids))
    found: set[int] = set()
    for start in range(0, len(wanted), CHUNK):
        found |= store.read(_READ, _existing_ids, wanted[start : start + CHUNK])
    return [i for i in wanted if i in found]


def _all_ids(conn: sqlite3.Connection) -> list[int]:
    return [row[0] for row in conn.execute("SELECT id FROM observations ORDER BY id").fetchall()]


def _existing_ids(conn: sqlite3.Connection, chunk: list[int]) -> set[int]:
    marks = ", ".join("?" * len(chunk))
    sql = f"SELECT id FROM observations WHERE id IN ({marks})"
    return {row[0] for row in conn.execute(sql, chunk).fetchall()}


def _columns(conn: sqlite3.Connection) -> list[str]:
    """Every column of the plugin's table, in its order (a newer plugin's too)."""
    return [d[0] for d in conn.execute("SELECT * FROM observations LIMIT 0").description]


def _rows(store: ObservationStore, ids: list[int]) -> Iterator[tuple]:
    """Whole rows (every column) for ``ids`` in their order, a chunk per read (so memory
    never holds more than a chunk of contents); a row deleted since it was listed is left
    out."""
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        by_id = {row[0]: row for row in store.read(_READ, _whole_rows, chunk)}
        yield from (by_id[i] for i in chunk if i in by_id)


def _whole_rows(conn: sqlite3.Connection, chunk: list[int]) -> list[tuple]:
    marks = ", ".join("?" * len(chunk))
    return conn.execute(f"SELECT * FROM observations WHERE id IN ({marks})", chunk).fetchall()


# ----------------------------------------------------------------------------- writing


def _write_json_head(out: BinaryIO, store: ObservationStore, columns: list[str]) -> int:
    """Write the document's start up to its array of observations; return where the count's
    characters are, to be filled in once the rows are written."""
    head = [
        "{",
        '  "export": {',
        f'    "format": {json.dumps(FORMAT_NAME)},',
        f'    "version": {FORMAT_VERSION},',
        f'    "exported_at": {json.dumps(iso_utc(_now_ms()))},',
        f'    "database": {json.dumps(str(store.path))},',
        f'    "columns": {json.dumps(columns, ensure_ascii=False)},',
        '    "count": ',
    ]
    out.write("\n".join(head).encode("utf-8"))
    count_at = out.tell()
    out.write(b" " * _COUNT_WIDTH + b'\n  },\n  "observations": [')
    return count_at


def _json_object(keys: list[str], row: Sequence[object], deleted_at: int | None) -> str:
    """One row as an indented JSON object: each value through the C encoder (one value at
    a time, no ``indent``: the pure-Python encoder ``indent`` needs is slower
    and makes the objects whose garbage collection would hold up the window)."""
    lines = [
        key + json.dumps(_json_value(value), ensure_ascii=False)
        for key, value in zip(keys, row, strict=True)
    ]
    forgotten = deleted_at is not None and row[deleted_at] is not None
    lines.append(f'      "forgotten": {"true" if forgotten else "false"}')
    return "    {\n" + ",\n".join(lines) + "\n    }"


def _json_value(value: object) -> object:
    """A column's value as JSON can hold it: bytes as base64, a non-finite number as text."""
    if isinstance(value, bytes):
        return {"base64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    return value


def _now_ms() -> int:
    return time.time_ns() // 1_000_000
