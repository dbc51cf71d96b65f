"""The errors the core raises: each carries a message a person can act on.

Nothing above the core catches ``sqlite3.Error`` or ``OSError`` directly: the core
translates them into these types, and the UI shows their text. That text is the error's
first argument, a :class:`~memory_desk.core.messages.Msg` (English, still translatable):
the UI shows it with ``i18n.shown(exc)``, and code that quotes one error in another uses
:func:`message_of`, since ``str(exc)`` is plain English.
"""

from __future__ import annotations

from dataclasses import dataclass


class StoreError(Exception):
    """A memory store cannot be read or written as asked (bad file, locked, disk full...)."""


class ConflictError(StoreError):
    """What is on disk changed since it was read; the write was not made."""


class StoreBusy(StoreError):
    """Another program (the agent) holds the database's lock and the read or write could not
    wait for it longer; nothing was written.

    Not a fault: the same call made again in a moment usually succeeds. A watcher simply
    looks again at its next check; the window's thread never waits long (a database in
    rollback-journal mode makes even reads wait while the agent writes): it takes this as
    "not now" and reads again at the agent's next commit; a person is told to try again.
    """


class InvalidInput(StoreError):
    """The store refused what it was asked to write, as the agent's own rules would (an
    empty title, an unknown type, a character that cannot be stored, a row whose columns
    could not be read as stored); nothing was written. The person changes what they
    typed; trying the same again fails the same way."""


class QueryInterrupted(StoreError):
    """A read was cut short on purpose (``ObservationStore.interrupt``): a newer question
    replaced it. Nobody shows this one; whoever asked the newer question gets its answer."""


class StoreReplaced(StoreError):
    """The file at the store's path is no longer the one it has open (deleted, moved, or
    replaced by another file); the write was not made.

    Writing through the old connections would land in a file nobody reads any more (or
    one the agent no longer uses), and the person would be told it was saved. Open the
    path again to work on the file that is there now.
    """


class StoreDamaged(StoreError):
    """The database was found damaged (SQLite's ``quick_check``, FTS5's ``integrity-check``
    or an error met while reading it); the store refuses every write until a check finds
    it healthy again. ``index_only`` is True when only the search index is broken (a
    rebuild repairs it), False when the database itself is."""

    def __init__(self, message: str, *, index_only: bool = False) -> None:
        super().__init__(message)
        self.index_only = index_only

    def __reduce__(self):  # pickles and copies keep index_only (args hold only the message)
        return (_damaged, (self.args[0], self.index_only))


@dataclass(frozen=True)
class TopicClash:
    """One topic that a write would leave with more than one live observation.

    The plugin's next save on the topic rewrites only the newest of them, so the others
    would live on stale; the person has to choose what happens to them first.
    ``row_id`` is the row the write brings in with the key (being restored, edited or put
    back), None for a row not created yet (:meth:`ObservationStore.recreate`); ``holders``
    are the other rows that would then be live with the same key, newest first (rows
    live now, and other rows of the same bulk call). ``project`` is the row's project; a
    personal topic is shared by every project.
    """

    row_id: int | None
    topic_key: str
    scope: str
    project: str
    holders: tuple[int, ...]


class TopicConflict(StoreError):
    """A write would give a topic two live observations; nothing was written.

    ``clashes`` lists every topic of the call that would clash. Run the write again with
    ``on_topic_conflict=`` set to one of the ``TOPIC_*`` choices of
    :mod:`memory_desk.core.observations` to apply that choice to all of them.
    """

    def __init__(self, message: str, clashes: tuple[TopicClash, ...]) -> None:
        super().__init__(message)
        self.clashes = clashes

    def __reduce__(self):  # pickles and copies keep the clashes (args hold only the message)
        return (TopicConflict, (self.args[0], self.clashes))


def _damaged(message: str, index_only: bool) -> StoreDamaged:
    return StoreDamaged(message, index_only=index_only)


def message_of(error: BaseException) -> str:
    """An error's message as it was raised: a Msg stays one (``str(error)`` would not)."""
    first = error.args[0] if error.args else ""
    return first if isinstance(first, str) else str(error)
