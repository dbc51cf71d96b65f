"""Whether a path lies on a file system mounted read-only.

A read-only mount refuses every write whatever the file's permissions say, so a message that
tells the person to "check the permissions" sends them the wrong way: this names the mount.
"""

from __future__ import annotations

import os
from pathlib import Path


def on_read_only_mount(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` (or, when it does not exist, its folder) is on a read-only mount;
    False when that cannot be told (no ``statvfs``, nothing there)."""
    if not hasattr(os, "statvfs"):
        return False
    for candidate in (Path(path), Path(path).parent):
        try:
            return bool(os.statvfs(candidate).f_flag & os.ST_RDONLY)
        except OSError:
            continue
    return False
