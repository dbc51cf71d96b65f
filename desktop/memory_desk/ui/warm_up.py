"""Importing what the window's held-back parts need, on a thread of its own.

The persona page, the review desk (with the journal and numpy) and the folder watcher are
built after the first paint, one per turn of the event loop. Built on the window's thread
with their modules not yet imported, those turns froze the window for 69 ms and 201 ms at
100,000 rows, right when the person starts to click; with the modules imported, they take
13 and 22 ms. :class:`WarmUp` imports them first on a thread (the window's thread gets the
interpreter back every few milliseconds meanwhile), then says ``done`` on the window's
thread, where the parts are built. An import that fails here is left for the part's own
import, on the window's thread, to report as it always did.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
from collections.abc import Iterable

from PySide6.QtCore import QObject, Signal

THREAD_NAME = "md-warm-up"


class WarmUp(QObject):
    """Imports ``modules`` in order on a daemon thread, then emits ``done`` (queued to this
    object's thread). Signals: done()."""

    done = Signal()

    def __init__(self, modules: Iterable[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.modules = tuple(modules)

    def start(self) -> None:
        threading.Thread(target=self._run, name=THREAD_NAME, daemon=True).start()

    def _run(self) -> None:
        for name in self.modules:
            with contextlib.suppress(Exception):  # (reported by the part's own import)
                importlib.import_module(name)
        with contextlib.suppress(RuntimeError):  # the window closed meanwhile
            self.done.emit()
