"""Memory Desk's own trash: where renamed and forgotten entries go, so they can be put back.

It lives in Memory Desk's private data folder, outside every agent folder (the agent must not
read a forgotten entry again), one item per file: a folder holding the file's bytes and a
``trashed.json`` saying which folder it came from, why, and what undo needs.

Whole or absent, even when Memory Desk is killed: an item is built under a hidden name and
renamed into place once both files are on disk, and taken out by renaming it hidden before
it is deleted. Hidden names are never listed; the next tidy removes stale ones.

Never without bound: :func:`prune` removes items older than the age limit, then the oldest
until the total size fits, but never one the current session may still undo (items are
named after the session that made them: what its undo stack can bring back is among those).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from memory_desk.core.appdirs import PRIVATE_FILE_MODE, private_dir, trash_dir
from memory_desk.core.errors import StoreError
from memory_desk.core.messages import msg
from memory_desk.core.persona.atomic import create_exclusive, fsync_dir
from memory_desk.core.persona.entry import now_iso, os_message
from memory_desk.core.persona.reading import sha256

# This process: items it made are the ones its undo stack may still need.
SESSION = secrets.token_hex(4)
_INCOMING = ".incoming"
_LEAVING = ".leaving"
_STAMP_FORMAT = "%Y%m%dT%H%M%S"


@dataclass(frozen=True)
class TrashedEntry:
    """A file Memory Desk took out of an agent folder, kept in its own trash to undo."""

    folder: Path
    name: str
    path: Path  # the trash item (a folder holding the file and its metadata)
    trashed_at: str
    reason: str  # "forget" | "rename" | "recovered"
    renamed_to: str | None = None


@dataclass(frozen=True)
class TrashLimits:
    """How much the trash keeps: items older than ``max_age_days`` go, then the oldest until
    the total is under ``max_bytes``; what the current session can undo always stays."""

    max_age_days: float = 30.0
    max_bytes: int = 100 * 1024 * 1024


DEFAULT_TRASH_LIMITS = TrashLimits()


def default_trash_dir() -> Path:
    """Memory Desk's trash: in its own private data folder, outside every agent folder."""
    return trash_dir(create=False)


def put_in_trash(
    trash: Path,
    folder: Path,
    name: str,
    data: bytes,
    mode: int | None,
    reason: str,
    *,
    renamed_to: str | None = None,
    symlink: str | None = None,
) -> TrashedEntry:
    """Keep a copy of an entry's file in Memory Desk's trash, with what undo needs.

    ``folder`` is the agent folder's real path: the trash must be outside it, and its items
    record it so each folder lists and puts back only its own. The item appears whole (file
    and metadata on disk) or not at all.
    """
    trash = trash.absolute()
    if trash.resolve().is_relative_to(folder):
        raise StoreError(
            msg("Trash", "Memory Desk's trash would be inside the agent's folder; not using it.")
        )
    trashed_at = now_iso()
    item_id = f"{_stamp(trashed_at)}-{SESSION}-{secrets.token_hex(4)}"
    meta = {
        "version": 1,
        "folder": str(folder),
        "name": name,
        "file": f"{name}.md",
        "reason": reason,
        "renamed_to": renamed_to,
        "trashed_at": trashed_at,
        "mode": mode,
        "symlink": symlink,
        "sha256": sha256(data),
        "session": SESSION,
    }
    incoming = trash / f".{item_id}{_INCOMING}"
    try:
        private_dir(trash)
        incoming.mkdir(mode=0o700)
        create_exclusive(incoming / meta["file"], data, PRIVATE_FILE_MODE)
        meta_bytes = json.dumps(meta, indent=1).encode()
        create_exclusive(incoming / "trashed.json", meta_bytes, PRIVATE_FILE_MODE)
        fsync_dir(incoming)
        os.rename(incoming, trash / item_id)
        fsync_dir(trash)
    except OSError as exc:
        shutil.rmtree(incoming, ignore_errors=True)
        raise StoreError(
            msg(
                "Trash",
                "Could not keep a copy of “{name}” in Memory Desk's trash ({trash}): {reason}. "
                "Nothing was changed.",
                name=name,
                trash=str(trash),
                reason=os_message(exc),
            )
        ) from exc
    return _trashed_from_meta(trash / item_id, meta)


def remove_item(item: Path) -> None:
    """Delete a trash item as a whole: hidden first (so it is never listed half-deleted)."""
    leaving = item.with_name(f".{item.name}{_LEAVING}")
    try:
        os.rename(item, leaving)
    except FileNotFoundError:
        return
    except OSError:
        shutil.rmtree(item, ignore_errors=True)
        return
    shutil.rmtree(leaving, ignore_errors=True)


def trashed_from(trash: Path, folder: Path) -> list[TrashedEntry]:
    """What Memory Desk took out of ``folder`` (its real path) and still keeps in ``trash``,
    newest first; damaged items are skipped."""
    items = []
    for item in sorted(_items(trash), reverse=True):
        try:
            meta = read_meta(item)
        except StoreError:
            continue
        if Path(meta["folder"]) == folder:
            items.append(_trashed_from_meta(item, meta))
    return items


def read_meta(item: Path) -> dict:
    """The ``trashed.json`` of a trash item; StoreError when it is missing or not ours."""
    try:
        meta = json.loads((item / "trashed.json").read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise StoreError(
            msg("Trash", "The trash item “{item}” is missing or damaged.", item=str(item))
        ) from exc
    if not isinstance(meta, dict) or meta.get("version") != 1:
        raise StoreError(
            msg("Trash", "The trash item “{item}” is missing or damaged.", item=str(item))
        )
    return meta


def prune(
    trash: Path, limits: TrashLimits, *, stale_after_s: float, now: float | None = None
) -> list[Path]:
    """Keep the trash within ``limits``; return the items removed.

    Items of the current session (what its undo stack can still bring back) are never
    removed, though they count towards the size. Others go when older than the age limit,
    then oldest first while the total exceeds the size limit. Hidden leftovers of a killed
    Memory Desk untouched for ``stale_after_s`` seconds go too. Errors are ignored: pruning
    is housekeeping and is tried again next time.
    """
    now = time.time() if now is None else now
    _remove_stale_leftovers(trash, now, stale_after_s)
    items = sorted(_items(trash))  # oldest first: names start with the time they were made
    sizes = {item: _size(item) for item in items}
    total = sum(sizes.values())
    removed = []
    for item in items:
        if _of_this_session(item):
            continue
        too_old = now - _made_at(item, now) > limits.max_age_days * 86400
        if too_old or total > limits.max_bytes:
            remove_item(item)
            total -= sizes[item]
            removed.append(item)
    return removed


def _items(trash: Path) -> list[Path]:
    """The trash's items (hidden names are items being made or removed)."""
    try:
        with os.scandir(trash) as it:
            return [Path(d.path) for d in it if not d.name.startswith(".") and d.is_dir()]
    except OSError:
        return []


def _remove_stale_leftovers(trash: Path, now: float, stale_after_s: float) -> None:
    try:
        with os.scandir(trash) as it:
            hidden = [d for d in it if d.name.endswith((_INCOMING, _LEAVING))]
    except OSError:
        return
    for d in hidden:
        with contextlib.suppress(OSError):
            st = d.stat(follow_symlinks=False)
            if stat.S_ISDIR(st.st_mode) and now - max(st.st_mtime, st.st_ctime) >= stale_after_s:
                shutil.rmtree(d.path, ignore_errors=True)


def _size(item: Path) -> int:
    total = 0
    with contextlib.suppress(OSError), os.scandir(item) as it:
        for d in it:
            with contextlib.suppress(OSError):
                total += d.stat(follow_symlinks=False).st_size
    return total


def _stamp(iso: str) -> str:
    """``2026-10-07T13:15:05.678Z`` as ``20261007T131505678Z``: names sort by time."""
    return iso.replace(":", "").replace("-", "").replace(".", "")


def _made_at(item: Path, fallback: float) -> float:
    """When ``item`` was made, from its name (no file is read); its mtime for odd names."""
    try:
        made = datetime.strptime(item.name[:15], _STAMP_FORMAT).replace(tzinfo=UTC)
        return made.timestamp()
    except ValueError:
        try:
            return item.stat().st_mtime
        except OSError:
            return fallback


def _of_this_session(item: Path) -> bool:
    parts = item.name.split("-")
    return len(parts) == 3 and parts[1] == SESSION


def _trashed_from_meta(item: Path, meta: dict) -> TrashedEntry:
    """The trash item ``item`` as a :class:`TrashedEntry`, from its ``trashed.json``."""
    return TrashedEntry(
        folder=Path(meta["folder"]),
        name=meta["name"],
        path=item,
        trashed_at=meta["trashed_at"],
        reason=meta["reason"],
        renamed_to=meta.get("renamed_to"),
    )


def rename_record(
    trashed: Iterable[TrashedEntry], old_name: str, new_name: str
) -> TrashedEntry | None:
    """The trash item a rename of ``old_name`` to ``new_name`` left (its undo's copy)."""
    return next(
        (
            t
            for t in trashed
            if t.reason == "rename" and t.name == old_name and t.renamed_to == new_name
        ),
        None,
    )
