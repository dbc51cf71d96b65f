"""What runs in watchdog's observer thread, and how observers are made.

The observer thread never touches Qt objects but the :class:`Relay`, which lives in the
main thread: the handlers only emit its signals (queued connections), and
:class:`~memory_desk.ui.live.folders.FolderWatcher` does the rest in the main thread.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileAttribEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)

if TYPE_CHECKING:  # the observers are imported when the first one starts (not before the
    # window's first rows: see FolderWatcher.hold)
    from watchdog.observers.api import BaseObserver

# Only what can change a folder's entries. Opened/closed events (watchdog 7 reports them
# on inotify) are left out, so the app's own reads never wake anything up.
WATCHED_EVENTS: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileAttribEvent,
    FileDeletedEvent,
    FileMovedEvent,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
]
_WATCHED_TYPES = frozenset(cls.event_type for cls in WATCHED_EVENTS)

# watchdog reports an inotify queue overflow only through this logger.
OVERFLOW_LOGGER = "watchdog.observers.inotify_c"

ObserverFactory = Callable[[], "BaseObserver"]


class Relay(QObject):
    """Lives in the main thread; the observer thread only ever emits these signals."""

    event_seen = Signal(str, str, str, str)  # folder, event type, src path, dest path
    overflowed = Signal()
    failed = Signal(str)
    rescanned = Signal(str, object)  # folder, {name: signature} (from the listing thread)


class EventHandler(FileSystemEventHandler):
    """Runs in the observer thread: never raises, never touches Qt objects but the relay."""

    def __init__(self, folder: str, relay: Relay) -> None:
        super().__init__()
        self._folder = folder
        self._relay = relay

    def dispatch(self, event: FileSystemEvent) -> None:
        try:
            if event.event_type not in _WATCHED_TYPES:
                return
            dest = os.fsdecode(event.dest_path) if event.dest_path else ""
            self._relay.event_seen.emit(
                self._folder, event.event_type, os.fsdecode(event.src_path), dest
            )
        except Exception as exc:  # a raise here would kill the observer thread
            with contextlib.suppress(Exception):  # the relay is gone: shutting down
                self._relay.failed.emit(str(exc))  # worded in the main thread (_on_failed)


class OverflowHook(logging.Handler):
    """Turns watchdog's "queue overflowed" log record into a signal (observer thread)."""

    def __init__(self, relay: Relay) -> None:
        super().__init__(logging.WARNING)
        self._relay = relay

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if "overflow" in record.getMessage().lower():
                self._relay.overflowed.emit()
        except Exception:  # a logging handler must not raise either
            pass


def native_observer() -> BaseObserver:
    """watchdog's observer for this system (inotify on Linux)."""
    from watchdog.observers import Observer

    return Observer()


def polling_observer(timeout: float) -> BaseObserver:
    from watchdog.observers.polling import PollingObserver

    return PollingObserver(timeout=timeout)
