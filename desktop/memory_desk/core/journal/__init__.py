"""The journal: Memory Desk's private record of what the agents changed in each store.

It keeps, per store, what Memory Desk last saw (a state hash per observation row, a
stat + hash per persona entry, and the text of the current version so that an in-place
rewrite by the agent still has its old text), lists the changes found since, and keeps the
person's review marks. It only ever reads the agents' files. See :class:`Journal`.
"""

from memory_desk.core.journal.journal import Journal
from memory_desk.core.journal.model import (
    Change,
    ChangeKind,
    JournalLimits,
    ObservationState,
    Version,
)

__all__ = [
    "Change",
    "ChangeKind",
    "Journal",
    "JournalLimits",
    "ObservationState",
    "Version",
]
