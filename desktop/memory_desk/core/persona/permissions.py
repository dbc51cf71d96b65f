"""Write only what the agent could write.

The agent updates an entry in place (``open(path, 'w')``) and removes files with ``unlink``.
Memory Desk replaces an entry through a temporary file renamed over it, which needs only the
folder's write permission: left alone, it would "save" a read-only entry or another user's
file that the agent itself could not touch, and the new file would be the person's, with the
owner changed behind their back. So, per operation:

- Saving or fixing an entry, and a rename that only changes the case of its name (the same
  file rewritten), rewrite the entry's bytes: allowed only when the person may write that
  file in place, as the agent would, and when it is theirs (a replaced file of another user's
  would become the person's). The superuser may write any file, as an agent run by it would;
  the file keeps its owner (:func:`keep_owner`).
- Renaming, forgetting and their undos create new files and take old ones out by renaming
  them aside: the folder's write permission is what the agent's ``unlink`` needs too (and the
  kernel applies the same rules to both, the sticky bit included), so a read-only file in a
  folder the person may write can be renamed or forgotten, keeping its mode.

Nothing here changes a permission: a refusal says why, and what the person could do.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.messages import msg
from memory_desk.core.mounts import on_read_only_mount


def check_writable_in_place(path: Path, name: str, st: os.stat_result | None) -> None:
    """Refuse (StoreError) to rewrite the file ``path`` (entry ``name``, ``st`` its stat; None:
    there is no file, nothing to check) unless the agent, run by this user, could write it in
    place (module docstring)."""
    if st is None or not hasattr(os, "geteuid") or os.geteuid() == 0:
        return  # Windows has no such modes; the superuser writes anything, as its agent would
    if on_read_only_mount(path):
        raise StoreError(
            msg(
                "Persona",
                "“{name}” is on a read-only file system: nothing can be written there, not "
                "even by the agent. Nothing was written.",
                name=name,
            )
        )
    mine = st.st_uid == os.geteuid()
    if not os.access(path, os.W_OK):
        if mine:
            raise StoreError(
                msg(
                    "Persona",
                    "“{name}” is read-only: its permissions do not let you write it, so the "
                    "agent could not update it either. Nothing was written. If it should be "
                    "editable, make the file writable yourself, then save again.",
                    name=name,
                )
            )
        raise StoreError(
            msg(
                "Persona",
                "“{name}” belongs to another user ({owner}) and you may not write it, so the "
                "agent could not update it either. Nothing was written.",
                name=name,
                owner=owner_name(st.st_uid),
            )
        )
    if not mine:
        raise StoreError(
            msg(
                "Persona",
                "“{name}” belongs to another user ({owner}): saving would replace it with a "
                "file of yours and take it from its owner. Nothing was written.",
                name=name,
                owner=owner_name(st.st_uid),
            )
        )


def keep_owner(new_file: Path, st: os.stat_result | None) -> None:
    """Give the superuser's replacement of a file (``st``: its stat, None if there was none)
    the owner and group the file had, so the person whose file it was (and their agent) may
    still write it."""
    if st is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        os.chown(new_file, st.st_uid, st.st_gid)


def owner_name(uid: int) -> str:
    """A user's login name, or their number when the system has no name for it."""
    with contextlib.suppress(ImportError, KeyError):
        import pwd

        return pwd.getpwuid(uid).pw_name
    return str(uid)
