"""Memory Desk's own folders (settings, UI state, trash, cache, exports), never inside an agent's.

Every folder Memory Desk creates is 0700 and every file 0600, whatever the umask, so that what
the person trashed or exported stays private, like the stores it came from (memory.sqlite is
0600). Missing parents are created 0700 too, as the XDG base directory specification asks.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import platformdirs

APP_DIR_NAME = "memory-desk"
PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """Create ``path`` (and any missing parent) 0700 whatever the umask; return it.

    An existing parent is left as it is (it is not Memory Desk's); ``path`` itself is made
    0700 even if it existed, unless the file system refuses (a foreign one still works).
    """
    path = Path(path)
    missing = []
    for folder in (path, *path.parents):
        if folder.is_dir():
            break
        missing.append(folder)
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=PRIVATE_DIR_MODE)
        with contextlib.suppress(OSError):  # mkdir's mode is masked by the umask
            os.chmod(folder, PRIVATE_DIR_MODE)
    with contextlib.suppress(OSError):
        os.chmod(path, PRIVATE_DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """Make sure the file ``path`` exists and is 0600 (whatever the umask), so that a writer
    that keeps an existing file's mode (QSettings, QSaveFile) never makes it readable to
    others, not even for a moment; its contents are not touched."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0), PRIVATE_FILE_MODE)
    try:
        if hasattr(os, "fchmod"):
            with contextlib.suppress(OSError):
                os.fchmod(fd, PRIVATE_FILE_MODE)
    finally:
        os.close(fd)
    return path


def settings_dir() -> Path:
    """The person's settings (what they chose): ``~/.config/memory-desk``."""
    return private_dir(Path(platformdirs.user_config_dir(APP_DIR_NAME, appauthor=False)))


def state_dir() -> Path:
    """UI state that can be thrown away (geometry, splitters): ``~/.local/state/memory-desk``."""
    return private_dir(Path(platformdirs.user_state_dir(APP_DIR_NAME, appauthor=False)))


def data_dir() -> Path:
    """Memory Desk's own data (trash, exports): ``~/.local/share/memory-desk``."""
    return private_dir(Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False)))


def cache_dir(*, create: bool = True) -> Path:
    """Scratch files Memory Desk may delete at any time: ``~/.cache/memory-desk``.

    ``create=False`` only names it, for a caller that may not need it.
    """
    path = Path(platformdirs.user_cache_dir(APP_DIR_NAME, appauthor=False))
    return private_dir(path) if create else path


def trash_dir(*, create: bool = True) -> Path:
    """Where forgotten persona entries wait, so a forget can be undone.

    ``create=False`` only names it: merely reading a folder must not create anything.
    """
    if not create:
        return Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False)) / "trash"
    return private_dir(data_dir() / "trash")


def exports_dir() -> Path:
    """Where Memory Desk writes what the person exports: ``~/.local/share/memory-desk/exports``."""
    return private_dir(data_dir() / "exports")
