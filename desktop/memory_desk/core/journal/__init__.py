"""The journal: Memory Desk's private record of what the agents changed in each store.

It keeps, per store, what Memory Desk last saw (a state hash per observation row, a
stat + hash per persona entry, and the text of the current version so that an in-place
rewrite by the agent still has its old text), lists the changes found since, and keeps the
person's review marks. It only ever reads the agents' files. See :class:`Journal`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memory_desk.core.journal.journal import Journal
    from memory_desk.core.journal.model import (
        Change,
        ChangeKind,
        JournalLimits,
        ObservationState,
        Version,
    )

# Loaded on first use: every write path imports ``witness`` from here, and the journal itself
# (numpy, the persona core, its SQLite layer) is not needed before the window's first rows.
_WHERE = {
    "Journal": "memory_desk.core.journal.journal",
    "Change": "memory_desk.core.journal.model",
    "ChangeKind": "memory_desk.core.journal.model",
    "JournalLimits": "memory_desk.core.journal.model",
    "ObservationState": "memory_desk.core.journal.model",
    "Version": "memory_desk.core.journal.model",
}


def __getattr__(name: str) -> object:
    """The public names, imported from their module the first time one is asked for."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Change",
    "ChangeKind",
    "Journal",
    "JournalLimits",
    "ObservationState",
    "Version",
]
