"""Importing what the window's held-back parts need, on a thread of its own.

The persona page, the review desk (with the journal and numpy) and the folder watcher are
built after the first paint, one per turn of the event loop. Built on the window's thread
with their modules not yet imported, those turns would freeze the window right when the
person starts to click; with the modules imported, they are short. :class:`WarmUp` imports
them first on a thread (the window's thread gets the interpreter back meanwhile), then says
``done`` on the window's
thread, where the parts are built. An import that fails here is left for the part's own
import, on the window's thread, to report as it always did.

Before each import it gives way to the window's thread (:mod:`memory_desk.core.give_way`):
a C extension's initialisation (numpy's above all) holds the interpreter's lock throughout,
and a person scrolling at once would see a frame wait for it. While the window's thread
works, the next import waits until it has been quiet for
:data:`QUIET_S` (at most :data:`MOST_WAIT_S` each); a part asked for meanwhile is built at
once, importing what it needs on the window's thread.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
from collections.abc import Iterable

from PySide6.QtCore import QObject, Signal

from memory_desk.core.give_way import GiveWay, thread_cpu

THREAD_NAME = "md-warm-up"
QUIET_S = 0.2  # the window's thread quiet this long before the next import
MOST_WAIT_S = 2.0  # a window that never rests still gets its parts this soon


class WarmUp(QObject):
    """Imports ``modules`` in order on a daemon thread, then emits ``done`` (queued to this
    object's thread). Signals: done()."""

    done = Signal()

    def __init__(self, modules: Iterable[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.modules = tuple(modules)
        self.waited = 0.0  # seconds given way to the window's thread, in all

    def start(self) -> None:
        """Start importing; call it on the window's thread (the one it gives way to)."""
        cpu = thread_cpu(threading.get_ident())
        give_way = GiveWay(cpu, quiet_s=QUIET_S, most_wait_s=MOST_WAIT_S)
        threading.Thread(target=self._run, args=(give_way,), name=THREAD_NAME, daemon=True).start()

    def _run(self, give_way: GiveWay) -> None:
        for name in self.modules:
            if name not in sys.modules:
                give_way()
            with contextlib.suppress(Exception):  # (reported by the part's own import)
                importlib.import_module(name)
        self.waited = give_way.waited
        with contextlib.suppress(RuntimeError):  # the window closed meanwhile
            self.done.emit()
