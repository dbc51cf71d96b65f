"""Exports the person asks for: observations to JSON or Markdown, one chat to Markdown, a
persona folder to a zip. Pure Python; the UI runs them off the window's thread.

Two promises:

- **Pure reading of the stores.** The database is read with ``SELECT`` only, through
  :meth:`ObservationStore.read` (no counter or timestamp moves because a person exported), in
  chunks of ids so that neither memory nor a read transaction grows with the database; the
  persona folder's files are opened read-only and never touched.
- **Whole, private output or none.** Files are created 0600 and folders 0700 from the first
  byte (``os.open``/``mkdir`` with the mode, set exactly on the still empty file, so no umask
  can widen it), under a hidden temporary name beside the target (Memory Desk's own
  ``.<hex>.memory-desk.tmp``, which an agent never reads as an entry), and renamed into place
  only when complete. A Cancel (:class:`~memory_desk.core.progress.Cancelled` from
  ``progress.step``) or an error removes the partial output and leaves a file already at the
  target as it was. Write failures become :class:`StoreError` in words a person can act on.

The files' own words (headings such as "Session summary") are English, like the plugin's
section names they sit beside; the person's data is written as stored.

Formats (read back by the tests):

- JSON: one object ``{"export": {format, version, exported_at, database, columns, count},
  "observations": [...]}``; each observation holds every column of the plugin's table
  (``columns``, as stored: times in milliseconds) plus ``forgotten``. A value SQLite holds as
  bytes is ``{"base64": ...}``.
- Markdown: a folder with ``index.md`` and one ``<id>-<slug>.md`` per observation: a front
  matter block (one ``key: value`` per line, each value a JSON scalar, which YAML reads too;
  times ISO 8601 UTC), a blank line, then the content exactly as stored and one newline.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import json
import math
import os
import re
import shutil
import sqlite3
import stat
import time
import unicodedata
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import BinaryIO

from memory_desk.core.errors import StoreError
from memory_desk.core.messages import msg
from memory_desk.core.observations.chats import ChatDetail, chat_detail, saved_in_chat
from memory_desk.core.observations.rows import CHUNK, Observation
from memory_desk.core.observations.store import ObservationStore
from memory_desk.core.persona.atomic import fsync_dir, temp_path
from memory_desk.core.persona.entry import could_not_list, os_message, printable_name
from memory_desk.core.persona.folder import PersonaFolder
from memory_desk.core.persona.reading import is_entry_file_name
from memory_desk.core.progress import Progress

FORMAT_NAME = "memory-desk-observations"
FORMAT_VERSION = 1
PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700
SLUG_MAX = 60
# The JSON header's count is written before the rows and set once they are all written (a
# row the agent deletes meanwhile is not exported): this many characters are kept for it.
_COUNT_WIDTH = 20
_COPY_BYTES = 1024 * 1024
_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip member can carry


@dataclass(frozen=True)
class Skipped:
    """A file of the folder left out of the export, and why (a message)."""

    name: str
    reason: str


@dataclass(frozen=True)
class ExportResult:
    """What an export made: where, how many observations (or entries), what it left out."""

    path: Path
    count: int
    skipped: tuple[Skipped, ...] = ()


# ----------------------------------------------------------------------------- observations


def export_observations_json(
    store: ObservationStore,
    ids: Sequence[int] | None,
    path: str | os.PathLike[str],
    progress: Progress,
) -> ExportResult:
    """Write the observations ``ids`` (None: every row, forgotten included) to the JSON file
    ``path`` (module docstring), in the order given (None: by id)."""
    target = Path(path)
    planned = _planned_ids(store, ids)
    columns = store.read(_READ, _columns)
    progress.step(0, len(planned))
    with _new_file(target) as out:
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
    every row, forgotten included) and an ``index.md`` listing them (module docstring)."""
    target = Path(folder)
    planned = _planned_ids(store, ids)
    columns = store.read(_READ, _columns)
    progress.step(0, len(planned))
    lines: list[str] = []
    forgotten = 0
    with _new_folder(target) as work:
        for row in _rows(store, planned):
            values = dict(zip(columns, row, strict=True))
            name = observation_file_name(values["id"], values.get("title"))
            _write_private(work / name, observation_markdown(values).encode("utf-8"))
            lines.append(_index_line(name, values))
            forgotten += values.get("deleted_at") is not None
            progress.step(len(lines))
        index = _index_markdown(store, lines, forgotten)
        _write_private(work / "index.md", index.encode("utf-8", "replace"))
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
    return f"- [{_md_text(title if isinstance(title, str) else '')}]({name}) · {' · '.join(marks)}"


def _index_markdown(store: ObservationStore, lines: list[str], forgotten: int) -> str:
    head = [
        f"# Observations from {_md_text(store.path.name)}",
        "",
        f"- Database: {_md_text(str(store.path))}",
        f"- Exported: {iso_utc(_now_ms())}",
        f"- Observations: {len(lines)} ({forgotten} forgotten)",
        "",
    ]
    return "\n".join([*head, *lines, ""])


# ----------------------------------------------------------------------------- one chat


def export_chat_markdown(
    store: ObservationStore, session_id: str, path: str | os.PathLike[str], progress: Progress
) -> ExportResult:
    """Write one chat to the Markdown file ``path``: its project, directory and dates, its
    summary, its loaded context (the exact recorded text, in a fence no backtick run inside
    it can close), the person's prompts and the observations it saved (the web tab's "Saved
    in this chat": live rows, pinned first, newest first). ``count`` is how many of those.

    Reads through :mod:`memory_desk.core.observations.chats`, so the export says what the
    Chats page shows.
    """
    target = Path(path)
    progress.step(0, 2)
    detail = chat_detail(store, session_id)
    if detail is None:
        raise StoreError(
            msg(
                "Export",
                "There is no chat “{chat}” in {path} any more; nothing was exported.",
                chat=session_id,
                path=str(store.path),
            )
        )
    progress.step(1, 2)
    saved = saved_in_chat(store, session_id)
    progress.step(2, 2)
    text = chat_markdown(detail, saved)
    with _new_file(target) as out:
        out.write(text.encode("utf-8"))
    return ExportResult(target, len(saved))


def chat_markdown(detail: ChatDetail, saved: Sequence[Observation]) -> str:
    """The chat's Markdown document (see :func:`export_chat_markdown`)."""
    row = detail.row
    parts = [
        f"# Chat {_md_text(row.id)}",
        "",
        f"- Project: {_md_text(row.project)}",
        f"- Directory: {_md_text(row.directory or 'not recorded')}",
        f"- Started: {iso_utc(row.started_at) or 'not recorded'}",
        f"- Ended: {iso_utc(row.ended_at) or 'not recorded'}",
        f"- Saved observations: {len(saved)}",
        f"- Prompts: {len(detail.prompts)}",
        "",
        "## Session summary",
        "",
        detail.summary if detail.summary is not None else "_No summary recorded._",
        "",
        "## Loaded context",
        "",
    ]
    if detail.context is not None:
        recorded = iso_utc(detail.context_at)
        if recorded:
            parts += [f"Recorded {recorded}, exactly as the plugin injected it:", ""]
        parts += [fenced(detail.context), ""]
    else:
        parts += [f"_{detail.context_missing}_", ""]
    parts += ["## Prompts", ""]
    if not detail.prompts:
        parts += [f"_{detail.prompts_missing or 'No prompts recorded.'}_", ""]
    for number, prompt in enumerate(detail.prompts, 1):
        parts += [f"### {number} · {iso_utc(prompt.created_at)}", "", fenced(prompt.content), ""]
    parts += ["## Saved in this chat", ""]
    if not saved:
        parts += ["_Nothing saved._", ""]
    for obs in saved:
        marks = [obs.type, f"id {obs.id}", f"updated {iso_utc(obs.updated_at)}"]
        if obs.pinned:
            marks.append("pinned")
        if obs.topic_key:
            marks.append(f"topic {_md_text(obs.topic_key)}")
        parts += [f"### {_md_text(obs.title)}", "", " · ".join(marks), "", obs.content or "", ""]
    return "\n".join(parts)


def fenced(text: str, info: str = "text") -> str:
    """``text`` in a Markdown code fence longer than any run of backticks inside it, so that
    nothing in the text can close the block: it reads back exactly (up to the fence's lines)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


# ----------------------------------------------------------------------------- persona folder


def export_persona_zip(
    folder: PersonaFolder | str | os.PathLike[str],
    path: str | os.PathLike[str],
    progress: Progress,
) -> ExportResult:
    """Write the folder's entry files to the zip ``path``, each byte for byte as the agent
    wrote it, under ``<folder name>/`` (so that unpacking makes one folder).

    What goes in: every ``<name>.md`` the folder lists (Memory Desk's entries: those the
    agent reads and those with another name, which the person sees too), a link included
    when it leads to a file in the folder. What stays out (FORMATS.md part B, "Files in such
    folders that are not entries"): hidden files (editor swap files, Memory Desk's own
    temporary and aside files), backups (``x.md~``), other files the agent never writes,
    subfolders (another account's memory), and links that lead outside the folder (its
    memory is not that file); entry-named items that are not files, and files that cannot be
    read, are listed in ``skipped`` with the reason. Memory Desk's trash is elsewhere and never
    included. ``count`` is how many entries went in.
    """
    source = Path(folder.path if isinstance(folder, PersonaFolder) else folder).absolute()
    target = Path(path)
    names, skipped = _persona_members(source)
    progress.step(0, len(names))
    prefix = _zip_name(source.name) or "memory"
    count = 0
    with _new_file(target) as out, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for done, name in enumerate(names, 1):
            reason = _add_entry(archive, source / name, f"{prefix}/{_zip_name(name)}", progress)
            if reason is None:
                count += 1
            else:
                skipped.append(Skipped(printable_name(name), reason))
            progress.step(done)
    return ExportResult(target, count, tuple(skipped))


def _persona_members(folder: Path) -> tuple[list[str], list[Skipped]]:
    """The folder's entry file names (sorted) and the entry-named links left out."""
    try:
        with os.scandir(folder) as it:
            names = sorted(d.name for d in it if is_entry_file_name(d.name))
    except OSError as exc:
        raise StoreError(could_not_list(folder, exc)) from exc
    real = folder.resolve()
    members, skipped = [], []
    for name in names:
        path = folder / name
        if path.is_symlink() and Path(os.path.realpath(path)).parent != real:
            skipped.append(
                Skipped(
                    printable_name(name),
                    msg(
                        "Export",
                        "a link to “{target}”, outside the folder",
                        target=os.path.realpath(path),
                    ),
                )
            )
            continue
        members.append(name)
    return members, skipped


def _add_entry(archive: zipfile.ZipFile, path: Path, member: str, progress: Progress) -> str | None:
    """Copy one entry file into the zip; None when done, else why it was left out.

    Opened non-blocking and checked after opening, so a pipe named like an entry never
    hangs the export; read in slices, so a large entry neither fills memory nor delays
    Cancel.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        return msg("Export", "it cannot be read ({reason})", reason=os_message(exc))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return msg("Export", "it is not a file")
        info = zipfile.ZipInfo(member, date_time=_zip_time(st.st_mtime))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = (stat.S_IFREG | PRIVATE_FILE) << 16
        try:
            first = os.read(fd, _COPY_BYTES)
        except OSError as exc:
            return msg("Export", "it cannot be read ({reason})", reason=os_message(exc))
        with archive.open(info, "w", force_zip64=st.st_size > 2**31) as copy:
            chunk = first
            while chunk:
                copy.write(chunk)
                progress.check()
                chunk = os.read(fd, _COPY_BYTES)
        return None
    finally:
        os.close(fd)


def _zip_name(name: str) -> str:
    """A file name as a zip member name: UTF-8 (a name that is not is shown with U+FFFD)."""
    return os.fsencode(name).decode("utf-8", "replace")


def _zip_time(mtime: float) -> tuple[int, int, int, int, int, int]:
    moment = time.localtime(max(mtime, 0))[:6]
    return max(moment, _ZIP_EPOCH) if moment[0] < 2108 else (2107, 12, 31, 23, 59, 58)


# ----------------------------------------------------------------------------- names


def dated_folder(parent: str | os.PathLike[str], stem: str, day: date) -> Path:
    """A new folder's path in ``parent``: ``<stem>-<day>``, or ``-2``, ``-3``... after it when
    that name is taken (so an export never lands in an earlier one)."""
    base = Path(parent) / f"{stem}-{day.isoformat()}"
    candidate, n = base, 1
    while os.path.lexists(candidate):
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate


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
    a time, no ``indent``: the pure-Python encoder ``indent`` needs is several times slower
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


def _md_text(text: str) -> str:
    """Text on one Markdown line, its markup characters escaped (a title, a path)."""
    one_line = " ".join(text.splitlines())
    return re.sub(r"([\\`*_\[\]<>#|!~])", r"\\\1", one_line)


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


@contextlib.contextmanager
def _new_file(target: Path) -> Iterator[BinaryIO]:
    """A private file written under a temporary name beside ``target`` and renamed over it
    only when the block ends without error (module docstring)."""
    if target.is_dir():
        raise StoreError(_is_a_folder(target))
    temp = temp_path(target.parent)
    try:
        fd = _create_private(temp)
    except OSError as exc:
        raise _write_error(target, exc) from exc
    out = os.fdopen(fd, "w+b")
    try:
        yield out
        out.flush()
        os.fsync(out.fileno())
        out.close()
        if target.is_dir():  # made meanwhile: os.replace would put the file inside it
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
        os.replace(temp, target)
    except OSError as exc:
        _discard_file(out, temp)
        raise _write_error(target, exc) from exc
    except BaseException:
        _discard_file(out, temp)
        raise
    with contextlib.suppress(OSError):  # the file is in place; this only makes it durable
        fsync_dir(target.parent)


@contextlib.contextmanager
def _new_folder(target: Path) -> Iterator[Path]:
    """A private folder filled under a temporary name beside ``target`` (yielded) and renamed
    to ``target`` only when the block ends without error; ``target`` must not exist."""
    if os.path.lexists(target):
        raise StoreError(_exists(target))
    temp = temp_path(target.parent)
    try:
        os.mkdir(temp, PRIVATE_FOLDER)
        os.chmod(temp, PRIVATE_FOLDER)  # still empty: exactly 0700 whatever the umask
    except OSError as exc:
        raise _write_error(target, exc) from exc
    try:
        yield temp
        if hasattr(os, "sync"):
            os.sync()  # one flush for every file written (an fsync each would take minutes)
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
        os.rename(temp, target)
    except FileExistsError as exc:
        shutil.rmtree(temp, ignore_errors=True)
        raise StoreError(_exists(target)) from exc
    except OSError as exc:
        shutil.rmtree(temp, ignore_errors=True)
        raise _write_error(target, exc) from exc
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    with contextlib.suppress(OSError):
        fsync_dir(target.parent)


def _create_private(path: Path) -> int:
    """A new file opened for writing, 0600 from its first byte."""
    # read and write: zipfile may read back what it wrote
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, PRIVATE_FILE)
    if hasattr(os, "fchmod"):
        try:
            os.fchmod(fd, PRIVATE_FILE)  # still empty: exactly 0600 whatever the umask
        except OSError:
            os.close(fd)
            path.unlink(missing_ok=True)
            raise
    return fd


def _write_private(path: Path, data: bytes) -> None:
    """Write a new file of an export folder, 0600 from its first byte."""
    fd = _create_private(path)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _discard_file(out: BinaryIO, temp: Path) -> None:
    with contextlib.suppress(OSError, ValueError):
        out.close()
    with contextlib.suppress(OSError):
        temp.unlink(missing_ok=True)


# ----------------------------------------------------------------------------- messages


def _write_error(target: Path, exc: OSError) -> StoreError:
    """A failed write of the export in words a person can act on; the operating system's own
    words (``reason``) quoted."""
    where, reason = str(target), os_message(exc)
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        text = msg(
            "Export",
            "Could not export to “{path}”: the disk is full ({reason}). Free some space or"
            " choose another place; nothing was written.",
            path=where,
            reason=reason,
        )
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        text = msg(
            "Export",
            "Could not export to “{path}”: Memory Desk may not write there ({reason}). Choose"
            " a folder you can write to; nothing was written.",
            path=where,
            reason=reason,
        )
    elif exc.errno == errno.EISDIR:
        text = _is_a_folder(target)
    elif exc.errno in (errno.ENOENT, errno.ENOTDIR):
        text = msg(
            "Export",
            "Could not export to “{path}”: its folder does not exist ({reason}). Choose"
            " another place; nothing was written.",
            path=where,
            reason=reason,
        )
    else:
        text = msg(
            "Export",
            "Could not export to “{path}”: {reason}. Nothing was written.",
            path=where,
            reason=reason,
        )
    return StoreError(text)


def _is_a_folder(target: Path) -> str:
    return msg(
        "Export",
        "“{path}” is a folder: choose a file name for the export; nothing was written.",
        path=str(target),
    )


def _exists(target: Path) -> str:
    return msg(
        "Export",
        "“{path}” already exists: choose another place; nothing was written.",
        path=str(target),
    )
