"""Where the window keeps what the person chose (settings) apart from how it looked (UI state).

Settings (folders the person added, live reload paused) are worth keeping; UI state
(geometry, splitters, columns, sort, last page and source) can be thrown away at any time.
Both are INI files in Memory Desk's own private folders, readable by the person only.
"""

from __future__ import annotations

import contextlib
import os

from PySide6.QtCore import QSettings

from memory_desk.core.appdirs import settings_dir, state_dir


def _ini(path: str) -> QSettings:
    return QSettings(path, QSettings.Format.IniFormat)


def app_settings() -> QSettings:
    return _ini(str(settings_dir() / "settings.ini"))


def ui_state() -> QSettings:
    return _ini(str(state_dir() / "ui-state.ini"))


def sync_private(settings: QSettings) -> None:
    """Write the file now and keep it 0600 (QSettings creates it with the umask's mode)."""
    settings.sync()
    with contextlib.suppress(OSError):
        os.chmod(settings.fileName(), 0o600)
