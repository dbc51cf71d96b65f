"""Taking entries out of an agent folder without ever losing one, even when killed.

Rename, forget and their undos all follow one order: a whole copy first (in the trash, or
under the new name), then the old file goes. The old file is first renamed aside (hidden) and
compared with the copy, so a write the agent made meanwhile is put back rather than lost.
A kill at any instant leaves each entry in the folder under its old or new name, or whole in
the trash; what a kill leaves of Memory Desk's own is settled by :func:`settle_leftover` at
the next open.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from memory_desk.core.errors import ConflictError, StoreError
from memory_desk.core.messages import msg
from memory_desk.core.persona.atomic import (
    aside_item_id,
    aside_path,
    fsync_dir,
    publish_new,
    put_back,
    stale_own_files,
    unlink_if_same,
    write_temp,
)
from memory_desk.core.persona.entry import (
    already_exists,
    could_not_forget,
    could_not_move,
    could_not_rename,
    printable_name,
)
from memory_desk.core.persona.permissions import check_writable_in_place, keep_owner
from memory_desk.core.persona.reading import current_sha, sha256
from memory_desk.core.persona.trash import TrashedEntry, put_in_trash, read_meta, remove_item

if TYPE_CHECKING:
    from memory_desk.core.journal.witness import Witness


def read_for_move(path: Path, expected_sha: str | None) -> tuple[bytes, int]:
    """The bytes and mode of the entry file ``path``, to copy before it moves; ConflictError
    if it is gone or no longer what was read (``expected_sha``)."""
    name = path.stem
    try:
        data = path.read_bytes()
        mode = stat.S_IMODE(os.lstat(path).st_mode)
    except FileNotFoundError as exc:
        raise ConflictError(
            msg("Persona", "“{name}” is no longer in {folder}.", name=name, folder=str(path.parent))
        ) from exc
    except OSError as exc:
        raise StoreError(could_not_move(name, exc)) from exc
    if expected_sha is not None and sha256(data) != expected_sha:
        raise ConflictError(
            msg(
                "Persona",
                "“{name}” changed on disk since it was opened. Nothing was changed.",
                name=name,
            )
        )
    return data, mode


def take_out(
    path: Path,
    expected_sha: str,
    item_id: str,
    *,
    witness: Witness,
    published: tuple[Path, os.stat_result] | None = None,
) -> None:
    """Remove the entry file ``path``, whose copy is already whole (trash item ``item_id``).

    The file is first renamed aside (hidden) and checked: if it is not the copy's bytes (the
    agent wrote it meanwhile), it is put back and what was ``published`` for this move is
    removed (ConflictError). A kill at any point leaves the entry in the folder or in the
    trash; an aside left behind is settled by :func:`settle_leftover`. ``witness`` hears
    it first (the person's write, as every write of this module's).
    """
    name, folder = path.stem, path.parent
    aside = aside_path(folder, item_id)
    witness.persona_write(path, None)
    try:
        os.rename(path, aside)
    except OSError as exc:
        if published is not None:
            unlink_if_same(*published)
        if isinstance(exc, FileNotFoundError):
            raise ConflictError(
                msg("Persona", "“{name}” is no longer in {folder}.", name=name, folder=str(folder))
            ) from exc
        raise StoreError(could_not_move(name, exc)) from exc
    try:
        same = sha256(aside.read_bytes()) == expected_sha
    except OSError:
        same = False
    if not same:
        put_back(aside, path)
        if published is not None:
            unlink_if_same(*published)
        raise ConflictError(
            msg(
                "Persona",
                "“{name}” changed on disk while Memory Desk moved it (perhaps the agent saved "
                "it). Nothing was changed.",
                name=name,
            )
        )
    aside.unlink(missing_ok=True)
    fsync_dir(folder)


def rename_in_place(
    old_path: Path, new_path: Path, data: bytes, mode: int, sha: str, *, witness: Witness
) -> None:
    """A change of case on a case-insensitive file system, where both names are one file:
    replace its bytes atomically, then rename it (one atomic step each)."""
    try:
        on_disk = os.stat(old_path)
    except OSError as exc:
        raise StoreError(could_not_rename(old_path.stem, exc)) from exc
    check_writable_in_place(old_path, old_path.stem, on_disk)  # rewritten, as by a save
    try:
        tmp, _ = write_temp(old_path.parent, data, mode)
    except OSError as exc:
        raise StoreError(could_not_rename(old_path.stem, exc)) from exc
    try:
        keep_owner(tmp, on_disk)
        if current_sha(old_path) != sha:
            raise ConflictError(
                msg(
                    "Persona",
                    "“{name}” changed on disk since it was opened. Nothing was changed.",
                    name=old_path.stem,
                )
            )
        witness.persona_write(old_path, None)
        witness.persona_write(new_path, data)
        os.replace(tmp, old_path)
        os.rename(old_path, new_path)
        fsync_dir(old_path.parent)
    except OSError as exc:
        raise StoreError(could_not_rename(old_path.stem, exc)) from exc
    finally:
        tmp.unlink(missing_ok=True)


def move_renamed(
    old_path: Path,
    new_path: Path,
    data: bytes,
    new_data: bytes,
    mode: int,
    item_id: str,
    witness: Witness,
) -> os.stat_result:
    """A rename's two steps, once the old bytes ``data`` are whole in trash item ``item_id``:
    ``new_data`` is published whole under ``new_path``, then ``old_path`` is taken out.
    ``witness`` hears both names' writes before either happens. Returns the new file's stat."""
    sha = sha256(data)
    if os.path.lexists(new_path):  # the same file under another case
        rename_in_place(old_path, new_path, new_data, mode, sha, witness=witness)
        return os.stat(new_path)
    witness.persona_write(old_path, None)  # both names' intents before either
    try:
        st = publish_renamed(old_path.stem, new_path, new_data, mode, witness=witness)
    except BaseException:
        witness.persona_not_written(old_path)
        raise
    take_out(old_path, sha, item_id, witness=witness, published=(new_path, st))
    return st


def settle_leftover(leftover: Path, trash: Path, real_folder: Path) -> None:
    """Remove one of Memory Desk's own stale files from an agent folder, never losing an entry.

    A temporary file's bytes were never published: it goes. An aside goes once the trash holds
    its bytes: if its trash item holds others (the agent wrote the entry while it was being
    moved) or is gone, it is first put in the trash itself, as "recovered".
    """
    item_id = aside_item_id(leftover.name)
    if item_id is not None:
        data = leftover.read_bytes()
        try:
            meta: dict | None = read_meta(trash / item_id)
        except StoreError:
            meta = None
        if meta is None or meta.get("sha256") != sha256(data):
            name = meta["name"] if meta else f"recovered-{item_id.lower()}"
            mode = stat.S_IMODE(os.lstat(leftover).st_mode)
            put_in_trash(trash, real_folder, name, data, mode, "recovered")
    leftover.unlink()
    fsync_dir(leftover.parent)


def settle_leftovers(
    folder: Path, trash: Path, real_folder: Path, stale_after_s: float
) -> list[Path]:
    """:func:`settle_leftover` for each of :func:`stale_own_files`; returns those settled.
    Errors are ignored (it is tried again at the next open)."""
    handled = []
    for leftover in stale_own_files(folder, stale_after_s):
        with contextlib.suppress(OSError, StoreError):
            settle_leftover(leftover, trash, real_folder)
            handled.append(leftover)
    return handled


def publish_renamed(
    name: str, new_path: Path, data: bytes, mode: int, *, witness: Witness
) -> os.stat_result:
    """Publish a renamed file whole under its new name, never over another file."""
    try:
        return publish_new(new_path, data, mode, witness=witness)
    except FileExistsError as exc:
        raise ConflictError(already_exists(new_path.stem)) from exc
    except OSError as exc:
        raise StoreError(could_not_rename(name, exc)) from exc


def forget_link(
    trash: Path, real: Path, name: str, path: Path, *, witness: Witness
) -> TrashedEntry:
    """Forget an entry that is a link: the trash keeps where it pointed; its target stays."""
    target = os.readlink(path)
    trashed = put_in_trash(trash, real, name, b"", None, "forget", symlink=target)
    try:
        witness.persona_write(path, None)
        path.unlink()
        fsync_dir(path.parent)
    except OSError as exc:
        remove_item(trashed.path)
        raise StoreError(could_not_forget(name, exc)) from exc
    return trashed


def rename_within(source: Path, target: Path, *, witness: Witness) -> None:
    """Rename inside the folder (a folder problem's fix and its undo), never over something
    already there."""
    if os.path.lexists(target):
        name = printable_name(target.name)
        raise ConflictError(msg("Persona", "“{name}” exists; nothing was renamed.", name=name))
    witness.persona_renamed(source, target)  # the agent may list the file under its new name
    try:
        os.rename(source, target)
        fsync_dir(source.parent)
    except OSError as exc:
        raise StoreError(could_not_rename(printable_name(source.name), exc)) from exc
