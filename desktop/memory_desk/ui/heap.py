"""The objects of the window's start, set aside from Python's cyclic garbage collector.

Why: a full collection walks every object the collector tracks. After start that is about
55,000 objects (Qt's wrappers, modules, the window), and one pass costs 40-60 ms of the
main thread here: while the table scrolled, a full pass landed in a frame a few times a
minute and made it 45-250 ms (the scroll's worst frames). ``gc.freeze`` moves the objects
alive at that moment into a generation the collector never walks again, so later passes
cost what was made since (the table's cached rows and texts: 2-6 ms).

Reference counting still frees every object, frozen or not. Only a reference cycle among
the frozen objects that becomes garbage later is never freed; the objects of the start live
as long as the window, so that is next to nothing. It is done once per process, without a
collection first: one would stall the window 40-60 ms, and at this point it found no garbage
(0 objects at 100,000 rows).
"""

from __future__ import annotations

import gc

_frozen = False


def freeze_the_start() -> bool:
    """Freeze what is alive now (once per process); True if it froze now."""
    global _frozen
    if _frozen:
        return False
    _frozen = True
    gc.freeze()
    return True
