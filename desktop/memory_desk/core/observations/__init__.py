"""Alisio's observations as Memory Desk sees them: search, read, pin, forget, edit.

The agent keeps ``memory.sqlite`` open and writes it while Memory Desk runs, so the
store is a polite second client (FORMATS.md, part A): browsing is pure ``SELECT``,
writes are short ``BEGIN IMMEDIATE`` transactions that change only their own columns,
and nothing is ever created beside the file. The package's rooms:

- :mod:`.store`: :class:`ObservationStore`, the public calls;
- :mod:`.rows`: the rows it hands out (:class:`Observation`, :class:`Totals`, ...);
- :mod:`.search`: the person's search and the agent's, as SQL (filters, FTS, order);
- :mod:`.agent_search`: the agent's ``memory_search`` rules and re-scoring;
- :mod:`.writes`: each write's transaction body;
- :mod:`.topics`: one live row per topic, and the person's way out of a clash;
- :mod:`.sqlite`: connections per thread, write transactions, errors in words;
- :mod:`.write_wait`: a worker's writes that wait for the agent until cancelled;
- :mod:`.schema`: the checks made at open, and the warnings they collect;
- :mod:`.fts_index`: the search index's triggers, and the snapshot checks (quick_check,
  FTS5's integrity-check);
- :mod:`.health`: what a check found, and the advice that fits the real cause.

Import from the package itself: the names below are its public API.
"""

from memory_desk.core.errors import StoreDamaged, StoreReplaced, TopicClash, TopicConflict
from memory_desk.core.observations.agent_search import AgentSearch
from memory_desk.core.observations.health import Health
from memory_desk.core.observations.rows import (
    EditResult,
    Observation,
    Totals,
    Undecodable,
    WrittenObservation,
)
from memory_desk.core.observations.search import SORT_KEYS
from memory_desk.core.observations.store import ObservationStore
from memory_desk.core.observations.topics import (
    TOPIC_CHOICES,
    TOPIC_CLEAR_OTHER,
    TOPIC_CLEAR_THIS,
    TOPIC_FORGET_OTHER,
    PreviousDeletedAt,
    TopicChanges,
)
from memory_desk.core.observations.write_wait import WriteCancelled, WriteWait

__all__ = [
    "SORT_KEYS",
    "TOPIC_CHOICES",
    "TOPIC_CLEAR_OTHER",
    "TOPIC_CLEAR_THIS",
    "TOPIC_FORGET_OTHER",
    "AgentSearch",
    "EditResult",
    "Health",
    "Observation",
    "ObservationStore",
    "PreviousDeletedAt",
    "StoreDamaged",
    "StoreReplaced",
    "TopicChanges",
    "TopicClash",
    "TopicConflict",
    "Totals",
    "Undecodable",
    "WriteCancelled",
    "WriteWait",
    "WrittenObservation",
]
