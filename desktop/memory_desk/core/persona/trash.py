"""Memory Desk's own trash: where renamed and forgotten entries go, so they can be put back.

It lives in Memory Desk's private data folder, outside every agent folder (the agent must not
read a forgotten entry again), one item per file: the file's bytes and a ``trashed.json``
saying which folder it came from, why, and what undo needs.
"""

from __future__ import annotations

import json
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from memory_desk.core.appdirs import trash_dir
from memory_desk.core.errors import StoreError
from memory_desk.core.persona.atomic import create_exclusive, fsync_dir
from memory_desk.core.persona.entry import now_iso, os_message
from memory_desk.core.persona.reading import sha256


@dataclass(frozen=True)
class TrashedEntry:
    """A file Memory Desk took out of an agent folder, kept in its own trash to undo."""

    folder: Path
    name: str
    path: Path  # the trash item (a folder holding the file and its metadata)
    trashed_at: str
    reason: str  # "forget" | "rename"
    renamed_to: str | None = None


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
    record it so each folder lists and puts back only its own.
    """
    trash = trash.absolute()
    if trash.resolve().is_relative_to(folder):
        raise StoreError("Memory Desk's trash would be inside the agent's folder; not using it.")
    trashed_at = now_iso()
    stamp = trashed_at.replace(":", "").replace("-", "").replace(".", "")
    item = trash / f"{stamp}-{secrets.token_hex(4)}"
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
    }
    try:
        trash.mkdir(parents=True, exist_ok=True, mode=0o700)
        item.mkdir(mode=0o700)
        create_exclusive(item / meta["file"], data, 0o600)
        create_exclusive(item / "trashed.json", json.dumps(meta, indent=1).encode(), 0o600)
        fsync_dir(item)
        fsync_dir(trash)
    except OSError as exc:
        shutil.rmtree(item, ignore_errors=True)
        raise StoreError(
            f"Could not keep a copy of “{name}” in Memory Desk's trash ({trash}): "
            f"{os_message(exc)}. Nothing was changed."
        ) from exc
    return _trashed_from_meta(item, meta)


def trashed_from(trash: Path, folder: Path) -> list[TrashedEntry]:
    """What Memory Desk took out of ``folder`` (its real path) and still keeps in ``trash``,
    newest first; damaged items are skipped."""
    if not trash.is_dir():
        return []
    items = []
    for item in sorted(trash.iterdir(), reverse=True):
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
        raise StoreError(f"The trash item “{item}” is missing or damaged.") from exc
    if not isinstance(meta, dict) or meta.get("version") != 1:
        raise StoreError(f"The trash item “{item}” is missing or damaged.")
    return meta


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
