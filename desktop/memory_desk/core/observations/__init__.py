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
- :mod:`.schema`: the checks made at open, and the warnings they collect;
- :mod:`.fts_index`: the search index's triggers and FTS5's integrity check.

Import from the package itself: the names below are its public API.
"""

from memory_desk.core.errors import TopicClash, TopicConflict
from memory_desk.core.observations.agent_search import AgentSearch
from memory_desk.core.observations.rows import EditResult, Observation, Totals, WrittenObservation
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

__all__ = [
    "SORT_KEYS",
    "TOPIC_CHOICES",
    "TOPIC_CLEAR_OTHER",
    "TOPIC_CLEAR_THIS",
    "TOPIC_FORGET_OTHER",
    "AgentSearch",
    "EditResult",
    "Observation",
    "ObservationStore",
    "PreviousDeletedAt",
    "TopicChanges",
    "TopicClash",
    "TopicConflict",
    "Totals",
    "WrittenObservation",
]
