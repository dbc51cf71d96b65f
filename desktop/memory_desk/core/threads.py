"""Background threads give way to the window's thread.

On a machine of two cores, a sort or a live refresh at 1,000,000 rows keeps three or four
threads busy at once (the table's query, the counts, the journal's scan, and the agent's own
process): the window's thread, ready to paint, waited for a core, 20-240 ms stalls with its
own CPU time near zero. A thread that calls :func:`background` runs at a lower priority (on
Linux, the nice value of that thread alone, :data:`NICE` above the process's), so the
scheduler gives the window's thread a core as soon as it wakes; an idle machine runs the
thread as fast as before. Elsewhere nothing changes.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading

NICE = 10  # above the process's (the window's thread's) nice value
_marked = threading.local()


def background() -> None:
    """Lower the calling thread's priority, once per thread (a pool's thread runs many
    tasks)."""
    if getattr(_marked, "done", False):
        return
    _marked.done = True
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        window = os.getpriority(os.PRIO_PROCESS, os.getpid())  # (the main thread's, on Linux)
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), min(19, window + NICE))


def nice_of(native_id: int) -> int | None:
    """A thread's nice value (Linux), None where it cannot be read."""
    try:
        return os.getpriority(os.PRIO_PROCESS, native_id)
    except (OSError, AttributeError):
        return None
