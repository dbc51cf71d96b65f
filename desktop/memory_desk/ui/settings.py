"""Where the window keeps what the person chose (settings) apart from how it looked (UI state).

Settings (folders the person added, live reload paused, the trash's limits) are worth keeping;
UI state (geometry, splitters, columns, sort, last page and source) can be thrown away at any
time. Both are INI files in Memory Desk's own private folders (0700), created 0600 before
QSettings first writes them (it keeps an existing file's mode), whatever the umask.

The trash's limits have no dialog yet (Memory Desk has no settings dialog); the person sets
them in ``settings.ini``::

    [trash]
    max_age_days=30
    max_size_mb=100

The journal's limits ("Since you last looked": its history) are set on the review page and
kept under ``[journal]`` (``enabled``, ``max_age_days``, ``max_size_mb``).
"""

from __future__ import annotations

import contextlib
import math
import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings

from memory_desk.core.appdirs import private_file, settings_dir, state_dir

if TYPE_CHECKING:  # imported where used: settings are read before the first rows, these not
    from memory_desk.core.journal import JournalLimits
    from memory_desk.core.persona import TrashLimits

TRASH_MAX_AGE_KEY = "trash/max_age_days"
TRASH_MAX_SIZE_KEY = "trash/max_size_mb"
JOURNAL_ENABLED_KEY = "journal/enabled"
JOURNAL_MAX_AGE_KEY = "journal/max_age_days"
JOURNAL_MAX_SIZE_KEY = "journal/max_size_mb"
_MB = 1024 * 1024


def _ini(path: str) -> QSettings:
    with contextlib.suppress(OSError):  # a read-only folder: QSettings then reads only
        private_file(path)
    return QSettings(path, QSettings.Format.IniFormat)


def app_settings() -> QSettings:
    return _ini(str(settings_dir() / "settings.ini"))


def ui_state() -> QSettings:
    return _ini(str(state_dir() / "ui-state.ini"))


def sync_private(settings: QSettings) -> None:
    """Write the file now and keep it 0600 (should anything have widened its mode)."""
    settings.sync()
    with contextlib.suppress(OSError):
        os.chmod(settings.fileName(), 0o600)


def trash_limits(settings: QSettings | None = None) -> TrashLimits:
    """How much of Memory Desk's trash is kept (``[trash]`` in settings.ini).

    A missing, unreadable or non-positive value keeps its default (30 days, 100 MB): a typo
    must never empty the trash.
    """
    from memory_desk.core.persona import DEFAULT_TRASH_LIMITS, TrashLimits

    settings = settings if settings is not None else app_settings()
    default = DEFAULT_TRASH_LIMITS
    days = _positive(settings.value(TRASH_MAX_AGE_KEY), default.max_age_days)
    megabytes = _positive(settings.value(TRASH_MAX_SIZE_KEY), default.max_bytes / _MB)
    return TrashLimits(max_age_days=days, max_bytes=int(megabytes * _MB))


def journal_limits(settings: QSettings | None = None) -> JournalLimits:
    """The journal's limits (``[journal]`` in settings.ini); a missing or unreadable value
    keeps its default (on, 90 days, 100 MB)."""
    from memory_desk.core.journal import JournalLimits

    settings = settings if settings is not None else app_settings()
    default = JournalLimits()
    enabled = settings.value(JOURNAL_ENABLED_KEY, default.enabled)
    days = _positive(settings.value(JOURNAL_MAX_AGE_KEY), default.max_age_days)
    megabytes = _positive(settings.value(JOURNAL_MAX_SIZE_KEY), default.max_bytes / _MB)
    return JournalLimits(
        enabled=enabled is True or str(enabled).lower() == "true",
        max_age_days=int(days),
        max_bytes=int(megabytes * _MB),
    )


def save_journal_limits(limits: JournalLimits, settings: QSettings | None = None) -> None:
    """Keep the journal's limits for the next start."""
    settings = settings if settings is not None else app_settings()
    settings.setValue(JOURNAL_ENABLED_KEY, limits.enabled)
    settings.setValue(JOURNAL_MAX_AGE_KEY, limits.max_age_days)
    settings.setValue(JOURNAL_MAX_SIZE_KEY, limits.max_bytes // _MB)
    sync_private(settings)


def _positive(value: object, default: float) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return number if math.isfinite(number) and number > 0 else default
