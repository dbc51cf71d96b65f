"""Memory Desk's own folders (settings, UI state, trash, exports), never inside an agent's.

Every folder is created 0700 so that what the person trashed or exported stays private,
like the stores it came from (memory.sqlite is 0600).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import platformdirs

APP_DIR_NAME = "memory-desk"


def _private_dir(path: Path) -> Path:
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # a folder we cannot chmod (foreign filesystem) still works
        os.chmod(path, 0o700)
    return path


def settings_dir() -> Path:
    """The person's settings (what they chose): ``~/.config/memory-desk``."""
    return _private_dir(Path(platformdirs.user_config_dir(APP_DIR_NAME, appauthor=False)))


def state_dir() -> Path:
    """UI state that can be thrown away (geometry, splitters): ``~/.local/state/memory-desk``."""
    return _private_dir(Path(platformdirs.user_state_dir(APP_DIR_NAME, appauthor=False)))


def data_dir() -> Path:
    """Memory Desk's own data (trash, exports): ``~/.local/share/memory-desk``."""
    return _private_dir(Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False)))


def cache_dir(*, create: bool = True) -> Path:
    """Scratch files Memory Desk may delete at any time: ``~/.cache/memory-desk``.

    ``create=False`` only names it, for a caller that may not need it.
    """
    path = Path(platformdirs.user_cache_dir(APP_DIR_NAME, appauthor=False))
    return _private_dir(path) if create else path


def trash_dir(*, create: bool = True) -> Path:
    """Where forgotten persona entries wait, so a forget can be undone.

    ``create=False`` only names it: merely reading a folder must not create anything.
    """
    if not create:
        return Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False)) / "trash"
    return _private_dir(data_dir() / "trash")
