"""The Pruning assistant's core: what could be forgotten, in groups with the reason for each.

- ``candidates``: observation groups (same content, near-duplicates, a topic in both scopes,
  never accessed and old, very large, only ``[REDACTED]``) and the shapes every group has;
- ``persona``: entries of one persona folder that say the same thing twice;
- ``near``: near-duplicate texts with datasketch's MinHash LSH, verified exactly.

Pure reading, pure Python: applying (forgetting, trashing) goes through the stores' own
writes, with undo, in the UI.
"""

from __future__ import annotations

from memory_desk.core.pruning.candidates import (
    DEFAULT_AGE_DAYS,
    DEFAULT_LARGE_UNITS,
    LARGE,
    NEAR_DUPLICATE,
    NEVER_ACCESSED,
    PERSONA_NEAR_DUPLICATE,
    PERSONA_SAME_TEXT,
    REDACTED_ONLY,
    SAME_CONTENT,
    TOPIC_BOTH_SCOPES,
    Findings,
    Group,
    Row,
    Settings,
    find_observation_candidates,
)
from memory_desk.core.pruning.near import DEFAULT_THRESHOLD
from memory_desk.core.pruning.persona import find_persona_duplicates

__all__ = [
    "DEFAULT_AGE_DAYS",
    "DEFAULT_LARGE_UNITS",
    "DEFAULT_THRESHOLD",
    "LARGE",
    "NEAR_DUPLICATE",
    "NEVER_ACCESSED",
    "PERSONA_NEAR_DUPLICATE",
    "PERSONA_SAME_TEXT",
    "REDACTED_ONLY",
    "SAME_CONTENT",
    "TOPIC_BOTH_SCOPES",
    "Findings",
    "Group",
    "Row",
    "Settings",
    "find_observation_candidates",
    "find_persona_duplicates",
]
