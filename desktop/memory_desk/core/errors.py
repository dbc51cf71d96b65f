"""The errors the core raises: each carries a message a person can act on.

Nothing above the core catches ``sqlite3.Error`` or ``OSError`` directly: the core
translates them into these types, and the UI shows their text.
"""


class StoreError(Exception):
    """A memory store cannot be read or written as asked (bad file, locked, disk full...)."""


class ConflictError(StoreError):
    """What is on disk changed since it was read; the write was not made."""
