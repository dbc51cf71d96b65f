"""The objects of the window's start, set aside from Python's cyclic garbage collector.

Why: a full collection walks every object the collector tracks. After start that is tens of
thousands of objects (Qt's wrappers, modules, the window): a full pass landing in a frame
while the table scrolls makes it the scroll's worst frame.
``gc.freeze`` moves the objects alive at that moment into a generation the collector never
walks again, so later passes cost only what was made since (the table's cached rows and
texts).

Reference counting still frees every object, frozen or not. Only a reference cycle among
the frozen objects that becomes garbage later is never freed; the objects of the start live
as long as the window, so that is next to nothing. It is done once per process, without a
collection first: one would stall the window, and at this point it finds no garbage.
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
