"""The pure-Python core: stores, formats and errors. Imports no Qt."""

from memory_desk.core.errors import ConflictError, StoreBusy, StoreError, TopicClash, TopicConflict

__all__ = ["ConflictError", "StoreBusy", "StoreError", "TopicClash", "TopicConflict"]
