"""The pure-Python core: stores, formats and errors. Imports no Qt."""

from memory_desk.core.errors import (
    ConflictError,
    InvalidInput,
    StoreBusy,
    StoreDamaged,
    StoreError,
    StoreReplaced,
    TopicClash,
    TopicConflict,
)
from memory_desk.core.kinds import SourceKind, StoreKind

__all__ = [
    "ConflictError",
    "InvalidInput",
    "SourceKind",
    "StoreBusy",
    "StoreDamaged",
    "StoreError",
    "StoreKind",
    "StoreReplaced",
    "TopicClash",
    "TopicConflict",
]
