"""Renames a kill left half-way, finished at the next open, so the agent never lists an
entry twice.

A rename publishes the new name whole, then takes the old one out (:mod:`.moves`); its undo
publishes the old name, then takes the new one out. A kill between the two steps leaves the
entry under both names, and the agent would list (and inject) it twice. Both steps are named
before the first one by an intent that survives the kill: the rename's trash item (written
before anything is published: the old bytes, their hash, ``renamed_to``), and for an undo a
mark in that item (:data:`UNDOING`), written before the old name is published.

At the next open (:meth:`~.folder.PersonaFolder.tidy`) each rename item of the folder whose
two names are both there, each still holding exactly the bytes the step wrote, is finished in
the direction its intent names: the undo's when marked, else the rename's. A name that holds
other bytes (the agent wrote it since) is left alone: both stay, nothing is lost.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from memory_desk.core.errors import StoreError
from memory_desk.core.persona.atomic import create_exclusive, fsync_dir
from memory_desk.core.persona.moves import take_out
from memory_desk.core.persona.reading import current_sha, sha256
from memory_desk.core.persona.rewrites import renamed_bytes
from memory_desk.core.persona.trash import read_meta, remove_item, trashed_from

if TYPE_CHECKING:
    from memory_desk.core.journal.witness import Witness

UNDOING = "undoing"  # in a rename's trash item: its undo has started
# A rename this recent may be under way in another Memory Desk: not finished under its feet.
FINISH_AFTER_S = 5.0


def mark_undoing(item: Path) -> None:
    """Say, durably, that the rename kept in ``item`` is being undone (before its first step)."""
    with contextlib.suppress(FileExistsError):
        create_exclusive(item / UNDOING, b"", 0o600)
    fsync_dir(item)


def unmark_undoing(item: Path) -> None:
    """The undo did not happen (refused before its first step)."""
    with contextlib.suppress(FileNotFoundError):
        (item / UNDOING).unlink()


def finish_moves(
    folder: Path, trash: Path, real_folder: Path, min_age_s: float, *, witness: Witness
) -> list[str]:
    """Finish the renames and undos a kill left half-way in ``folder`` (their intent at least
    ``min_age_s`` old); returns the names taken out (``witness`` hears it, as the person's
    write). Errors are ignored (it is tried again at the next open)."""
    taken: list[str] = []
    now = time.time()
    for item in trashed_from(trash, real_folder):
        if item.reason != "rename" or not item.renamed_to:
            continue
        with contextlib.suppress(OSError):
            if now - os.stat(item.path).st_mtime < min_age_s:
                continue
        with contextlib.suppress(OSError, StoreError):
            taken += _finish(folder, item.path, item.name, item.renamed_to, witness)
    return taken


def _finish(folder: Path, item: Path, old_name: str, new_name: str, witness: Witness) -> list[str]:
    meta = read_meta(item)
    old_path, new_path = folder / f"{old_name}.md", folder / f"{new_name}.md"
    undoing = (item / UNDOING).exists()
    old_there, new_there = os.path.lexists(old_path), os.path.lexists(new_path)
    if undoing and old_there and not new_there:
        remove_item(item)  # the undo was done but for forgetting the rename
        return []
    if undoing and not old_there:
        unmark_undoing(item)  # killed before the undo's first step: the rename stands
        return []
    if not (old_there and new_there):
        return []
    old_sha = meta["sha256"]
    old_data = (item / meta["file"]).read_bytes()
    new_sha = sha256(renamed_bytes(old_data, new_name))
    if current_sha(old_path) != old_sha or current_sha(new_path) != new_sha:
        return []  # one of them was written since: both stay
    if undoing:
        take_out(new_path, new_sha, item.name, witness=witness)
        remove_item(item)
        return [new_name]
    take_out(old_path, old_sha, item.name, witness=witness)
    return [old_name]
