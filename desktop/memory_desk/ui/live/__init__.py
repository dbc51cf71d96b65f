"""Live reload: watchers that turn other programs' writes into Qt signals.

The bridge layer between the agents' files and the pages: :class:`FolderWatcher` for
persona folders (watchdog, debounced in the main thread), :class:`DatabaseWatcher`
for a memory.sqlite (``PRAGMA data_version``, woken early by the folder watcher), and
:func:`read_when_stable` to read a file another program may still be writing.
"""

from memory_desk.ui.live.database import DatabaseWatcher
from memory_desk.ui.live.folders import (
    MODE_NATIVE,
    MODE_OFF,
    MODE_POLLING,
    FolderWatcher,
    WatchTiming,
)
from memory_desk.ui.live.stable import content_digest, file_signature, read_when_stable

__all__ = [
    "MODE_NATIVE",
    "MODE_OFF",
    "MODE_POLLING",
    "DatabaseWatcher",
    "FolderWatcher",
    "WatchTiming",
    "content_digest",
    "file_signature",
    "read_when_stable",
]
