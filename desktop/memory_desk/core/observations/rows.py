"""The rows the store hands out: an observation, the status-bar totals, what a write left.

Also the column list every ``SELECT`` of a whole row uses, and the few helpers that turn
SQLite's tuples into these objects, so the readers (:mod:`.store`, :mod:`.search`) and the
writers (:mod:`.writes`) agree on one shape.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields

from memory_desk.core.errors import ConflictError
from memory_desk.core.messages import msg
from memory_desk.core.observations.topics import NO_TOPIC_CHANGES, TopicChanges

# Many ids go into IN (...) lists in chunks, well under SQLite's variable limit.
CHUNK = 500


@dataclass(frozen=True, slots=True)
class Observation:
    """One row of ``observations``; ``content`` is None when fetched without it."""

    id: int
    session_id: str | None
    type: str
    title: str
    content: str | None
    tool_name: str | None
    project: str
    scope: str
    topic_key: str | None
    normalized_hash: str
    revision_count: int
    duplicate_count: int
    last_seen_at: int | None
    pinned: bool
    access_count: int
    last_accessed_at: int | None
    created_at: int
    updated_at: int
    deleted_at: int | None
    # What could not be read as stored (text that is not UTF-8, a value of the wrong type),
    # one sentence per column; the values above then hold a stand-in (see as_observation).
    problems: tuple[str, ...] = ()

    @property
    def forgotten(self) -> bool:
        """Soft-deleted: the agent no longer sees it, but it can be restored."""
        return self.deleted_at is not None

    def unreadable(self, names: Iterable[str]) -> list[str]:
        """The problems of these columns: writing their shown values back would change
        what is stored, so a write that would do so refuses instead."""
        wanted = tuple(f"{name}:" for name in names)
        return [problem for problem in self.problems if problem.startswith(wanted)]


@dataclass(frozen=True)
class Totals:
    """Counts for the status bar; ``pinned`` counts live pinned rows only."""

    total: int
    live: int
    forgotten: int
    pinned: int


@dataclass(frozen=True, slots=True, eq=False)
class WrittenObservation(Observation):
    """A row as a write left it (an Observation), plus what a topic choice changed elsewhere.

    Returned by :meth:`ObservationStore.recreate` and :meth:`ObservationStore.undo_edit`.
    It compares and hashes as the plain Observation with the same columns;
    ``topic_changes`` holds the previous values of the other rows the person's topic
    choice forgot or un-keyed (empty without a choice), for
    :meth:`ObservationStore.put_back_topic_changes`.
    """

    topic_changes: TopicChanges = NO_TOPIC_CHANGES

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return row_values(self) == row_values(other)

    def __hash__(self) -> int:
        return hash(row_values(self))


@dataclass(frozen=True)
class EditResult:
    """An edit as it happened: enough to undo it only if nobody changed the row since.

    ``topic_changes`` holds what the person's topic choice changed on *other* rows (live
    rows holding the new key, forgotten or un-keyed), as previous values; the edited row's
    own change is ``before``/``after``. :meth:`ObservationStore.undo_edit` puts both back.
    """

    before: Observation
    after: Observation
    topic_changes: TopicChanges = NO_TOPIC_CHANGES


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Observation) if f.name != "problems")
_PINNED_INDEX = COLUMNS.index("pinned")
SELECT_WITH_CONTENT = ", ".join(f"o.{name}" for name in COLUMNS)
SELECT_WITHOUT_CONTENT = ", ".join("NULL" if name == "content" else f"o.{name}" for name in COLUMNS)


class Undecodable(str):
    """Text stored as bytes that are not valid UTF-8, decoded with U+FFFD in their place."""


def decode_text(raw: bytes) -> str:
    """The connections' ``text_factory``: UTF-8, or an :class:`Undecodable` stand-in.

    Python's default raises on the first invalid byte, which would make every query that
    reads the row fail (the whole list, the open checks): one bad row must stay one row.
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return Undecodable(raw.decode("utf-8", "replace"))


# What the plugin stores in each column: text or integer, and whether NULL is normal.
_TEXT_COLUMNS = frozenset(
    ("session_id", "type", "title", "content", "tool_name", "project", "scope", "topic_key")
    + ("normalized_hash",)
)
_NULLABLE = frozenset(
    ("session_id", "content", "tool_name", "topic_key", "last_seen_at", "last_accessed_at")
    + ("deleted_at",)
)
_KINDS = {
    int: msg("Observations", "a number"),
    float: msg("Observations", "a decimal number"),
    str: msg("Observations", "text"),
    bytes: msg("Observations", "binary data"),
}


def as_observation(row: Sequence[object]) -> Observation:
    """An Observation from a row selected with :data:`SELECT_WITH_CONTENT` (or without).

    A value the plugin would never store (text that is not UTF-8, a value of the wrong type,
    a NULL where it always writes one) becomes a stand-in of the right type, and the row's
    ``problems`` say so: one such row must not break the list, the detail or the counts.
    """
    values = list(row)
    problems: list[str] = []
    for index, name in enumerate(COLUMNS):
        value = values[index]
        if name in _TEXT_COLUMNS:
            good = type(value) is str or (value is None and name in _NULLABLE)
        else:
            good = type(value) is int or (value is None and name in _NULLABLE)
        if not good:
            values[index] = _stand_in(name, value, problems)
    values[_PINNED_INDEX] = bool(values[_PINNED_INDEX])
    return Observation(*values, problems=tuple(problems))  # type: ignore[arg-type]


def _stand_in(name: str, value: object, problems: list[str]) -> object:
    """A value of the column's type for one the plugin would not store; notes the problem."""
    if isinstance(value, Undecodable):
        problems.append(
            msg(
                "Observations",
                "{column}: not valid UTF-8 text (the unreadable bytes show as �)",
                column=name,
            )
        )
        return value
    found = _KINDS.get(type(value)) or msg("Observations", "nothing (NULL)")
    if name in _TEXT_COLUMNS:
        problems.append(
            msg(
                "Observations",
                "{column}: {found} where the plugin stores text",
                column=name,
                found=found,
            )
        )
        if isinstance(value, bytes):
            return decode_text(value)
        return "" if value is None else str(value)
    problems.append(
        msg(
            "Observations",
            "{column}: {found} where the plugin stores a whole number",
            column=name,
            found=found,
        )
    )
    if isinstance(value, float) and value == value and abs(value) < 2**63:
        return int(value)
    return None if name in _NULLABLE else 0


def fetch_one(conn: sqlite3.Connection, id: int) -> Observation | None:
    """One row with its content, or None when it no longer exists."""
    rows = conn.execute(
        f"SELECT {SELECT_WITH_CONTENT} FROM observations o WHERE o.id = ?", (id,)
    ).fetchall()
    return as_observation(rows[0]) if rows else None


def fetch_many(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, Observation]:
    """The rows among ``ids`` that still exist, without content (cheap rows)."""
    result: dict[int, Observation] = {}
    for chunk in chunks(ids):
        marks = ", ".join("?" * len(chunk))
        rows = conn.execute(
            f"SELECT {SELECT_WITHOUT_CONTENT} FROM observations o WHERE o.id IN ({marks})", chunk
        ).fetchall()
        result.update((row[0], as_observation(row)) for row in rows)
    return result


def fetch_existing(conn: sqlite3.Connection, id: int) -> Observation:
    """One row with its content; a row deleted since the person read it is a conflict."""
    found = fetch_one(conn, id)
    if found is None:
        raise ConflictError(
            msg(
                "Observations",
                "Observation #{id} no longer exists (deleted since it was read)",
                id=id,
            )
        )
    return found


def row_values(row: Observation) -> tuple[object, ...]:
    """The row's columns, without anything a subclass adds."""
    return tuple(getattr(row, name) for name in COLUMNS)


def written(row: Observation, changes: TopicChanges) -> WrittenObservation:
    """``row`` as a write returns it, with what its topic choice changed elsewhere."""
    return WrittenObservation(*row_values(row), row.problems, topic_changes=changes)


def chunks(ids: Iterable[int]) -> Iterator[list[int]]:
    """Unique ids in chunks that fit an IN (...) list."""
    unique = list(dict.fromkeys(int(i) for i in ids))
    for start in range(0, len(unique), CHUNK):
        yield unique[start : start + CHUNK]
