"""One live row per topic (FORMATS.md A): which writes would break it, and the person's way out.

The plugin's ``memory_save`` with a topic_key rewrites *the newest* live row with that
scope and key (and project, unless personal). Two live rows sharing a key is a state the
plugin never makes: its next save rewrites only the newest and the other lives on, stale,
found by every search. Memory Desk can make that state by restoring a forgotten row,
giving a row a topic_key, re-creating a deleted row or undoing one of those, so every
such write describes the rows it changes as :class:`RowMove` objects and asks
:func:`settle` before it writes, inside its own ``BEGIN IMMEDIATE`` transaction (the
agent cannot slip a row in between the check and the write).

Without a choice, :func:`settle` raises :class:`~memory_desk.core.errors.TopicConflict`
naming every clash. With one, it applies it to every clash of the call:

- ``TOPIC_FORGET_OTHER``: the other rows end forgotten (live ones are forgotten now;
  rows of the same call that were to come back are left forgotten);
- ``TOPIC_CLEAR_OTHER``: the other rows lose the key and stay (or come back) live;
- ``TOPIC_CLEAR_THIS``: this row comes in without the key; the row that holds the key now
  keeps it (when none does, the newest of the others takes it and the rest lose it).

In a bulk call, "this" is the newest row the call brings in (``updated_at``, then id).
What a choice changed on rows besides the call's own is returned as :class:`TopicChanges`
(previous values), so an undo can put every row back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from memory_desk.core import wording
from memory_desk.core.alisio import stored_topic_key
from memory_desk.core.errors import TopicClash, TopicConflict
from memory_desk.core.messages import msg

TOPIC_FORGET_OTHER = "forget_other"
TOPIC_CLEAR_OTHER = "clear_other"
TOPIC_CLEAR_THIS = "clear_this"
TOPIC_CHOICES: tuple[str, ...] = (TOPIC_FORGET_OTHER, TOPIC_CLEAR_OTHER, TOPIC_CLEAR_THIS)

# Ids go into IN (...) lists in chunks, well under SQLite's variable limit.
_CHUNK = 500
# How many clashes a TopicConflict message spells out before "and N more".
_CLASHES_NAMED = 3
_COUNT_WORDS = {
    2: msg("Topics", "two"),
    3: msg("Topics", "three"),
    4: msg("Topics", "four"),
    5: msg("Topics", "five"),
}


@dataclass(frozen=True)
class TopicChanges:
    """What a topic choice changed besides the rows the call was asked to change.

    Both maps hold *previous* values, keyed by row id: ``deleted_at`` for rows whose
    ``deleted_at`` the choice changed (a live row forgotten, or brought back by an undo),
    ``topic_keys`` for every row whose topic_key the call changed (the other rows un-keyed,
    or the call's own rows when they came in without their key). Putting these values back
    (``ObservationStore.put_back_topic_changes``, or the undo calls that take a write's
    result) undoes them. Empty when no choice was needed.
    """

    deleted_at: Mapping[int, int | None] = field(default_factory=dict)
    topic_keys: Mapping[int, str | None] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.deleted_at or self.topic_keys)


NO_TOPIC_CHANGES = TopicChanges()


class PreviousDeletedAt(dict[int, int | None]):
    """The previous ``deleted_at`` of each row a forget/restore/put-back changed.

    A plain ``{id: previous deleted_at}`` dict as these calls always returned, plus
    ``topic_changes``: what a topic choice changed on other rows (and on the topic_key of
    these rows) in the same transaction. Passing the whole object to
    ``ObservationStore.put_back_deleted_at`` puts both back, which is the undo.
    """

    topic_changes: TopicChanges

    def __init__(
        self,
        values: Mapping[int, int | None] | Iterable[tuple[int, int | None]] = (),
        *,
        topic_changes: TopicChanges = NO_TOPIC_CHANGES,
    ) -> None:
        super().__init__(values)
        self.topic_changes = topic_changes

    def __repr__(self) -> str:
        return f"PreviousDeletedAt({dict(self)!r}, topic_changes={self.topic_changes!r})"


@dataclass
class RowMove:
    """One row a write changes, as far as topics care: liveness and topic_key, before/after.

    ``id`` is None for a row the write is about to insert (``exists`` False). ``updated_at``
    is the row's value after the write: it decides which row is "this" in a bulk call.
    The call's own moves may be adjusted by :func:`settle` (a row left forgotten, a key
    taken off); the write then applies whatever the moves say.
    """

    id: int | None
    scope: str
    project: str
    updated_at: int
    deleted_before: int | None
    key_before: str | None
    deleted_after: int | None
    key_after: str | None
    exists: bool = True

    @property
    def live_before(self) -> bool:
        return self.exists and self.deleted_before is None

    @property
    def live_after(self) -> bool:
        return self.deleted_after is None

    @property
    def incoming(self) -> bool:
        """After the write it holds a key live that it did not hold live before."""
        return bool(
            self.live_after
            and stored_topic_key(self.key_after)
            and not (self.live_before and same_topic(self.key_before, self.key_after))
        )

    @property
    def identity(self) -> tuple[str, str, str | None]:
        """The plugin's topic match: scope and normalised key, and project unless personal."""
        return (
            self.scope,
            stored_topic_key(self.key_after) or "",
            None if self.scope == "personal" else self.project,
        )

    def order(self) -> tuple[int, int]:
        """Newest first: a row being inserted is the newest of all."""
        return (self.updated_at, self.id if self.id is not None else 1 << 62)


def same_topic(a: str | None, b: str | None) -> bool:
    """Two keys the plugin's next save of one subject would treat as one topic: equal once
    normalised (a row kept under ``Area/Sub`` and one under ``area/sub`` are one topic)."""
    return a == b or stored_topic_key(a) == stored_topic_key(b)


def moves_for_rows(
    conn: sqlite3.Connection, ids: Iterable[int], chunk: int = _CHUNK
) -> dict[int, RowMove]:
    """A no-op move for each existing row among ``ids``: the caller sets its after-state."""
    moves: dict[int, RowMove] = {}
    unique = list(dict.fromkeys(int(i) for i in ids))
    for start in range(0, len(unique), chunk):
        part = unique[start : start + chunk]
        marks = ", ".join("?" * len(part))
        rows = conn.execute(
            "SELECT id, scope, project, updated_at, deleted_at, topic_key FROM observations"
            f" WHERE id IN ({marks})",
            part,
        ).fetchall()
        for id, scope, project, updated_at, deleted_at, key in rows:
            moves[id] = RowMove(id, scope, project, updated_at, deleted_at, key, deleted_at, key)
    return moves


def settle(
    conn: sqlite3.Connection,
    moves: list[RowMove],
    choice: str | None,
    now: int,
    subject: Callable[[RowMove], str],
) -> list[RowMove]:
    """Check that ``moves`` leave every topic at most one live row; apply ``choice`` if not.

    Raises TopicConflict (nothing written yet: the caller's transaction rolls back) when a
    clash exists and ``choice`` is None. Otherwise adjusts ``moves`` in place and returns
    the moves the choice makes on rows outside the call (live rows forgotten or un-keyed).
    ``subject(move)`` words the action for the message, e.g. "Restoring #12" (one of the
    ``*_subject`` functions below).
    """
    if choice is not None and choice not in TOPIC_CHOICES:
        raise ValueError(f"unknown topic choice {choice!r}; expected one of {TOPIC_CHOICES}")
    groups: dict[tuple[str, str, str | None], list[RowMove]] = {}
    for move in moves:
        if move.incoming:
            groups.setdefault(move.identity, []).append(move)
    if not groups:
        return []
    moved = {move.id for move in moves if move.id is not None}
    odd = _unnormalised_residents(conn, moved)
    found: list[tuple[RowMove, list[RowMove], list[RowMove]]] = []
    for identity, incoming in groups.items():
        residents = (
            _residents(conn, identity, moved)
            + odd.get(identity, [])
            + [
                move
                for move in moves
                if not move.incoming
                and move.live_after
                and move.key_after
                and move.identity == identity
            ]
        )
        if len(incoming) + len(residents) > 1:
            incoming.sort(key=RowMove.order, reverse=True)
            found.append((incoming[0], incoming[1:], residents))
    if not found:
        return []
    if choice is None:
        raise _conflict(found, subject)
    extra: list[RowMove] = []
    for this, others_incoming, residents in found:
        extra += _apply_choice(choice, this, others_incoming, residents, moved, now)
    return extra


# How a TopicConflict message words the action of each write (``settle``'s ``subject``):
# whole phrases, so that each can be translated as one.


def restoring_subject(move: RowMove) -> str:
    return msg("Topics", "Restoring #{id}", id=move.id)


def putting_back_subject(move: RowMove) -> str:
    return msg("Topics", "Putting back #{id}", id=move.id)


def saving_key_subject(move: RowMove) -> str:
    return msg("Topics", "Saving #{id} with this topic key", id=move.id)


def saving_again_subject(move: RowMove) -> str:
    return msg("Topics", "Saving it again as a new observation")


def undoing_edit_subject(move: RowMove) -> str:
    return msg("Topics", "Undoing the edit of #{id}", id=move.id)


def settle_and_apply(
    conn: sqlite3.Connection,
    moves: list[RowMove],
    choice: str | None,
    now: int,
    subject: Callable[[RowMove], str],
    main: set[int] | None = None,
) -> PreviousDeletedAt:
    """Check the moves against one live row per topic (applying ``choice``), then write."""
    extra = settle(conn, moves, choice, now, subject)
    ids = {move.id for move in moves if move.id is not None} if main is None else main
    return apply_moves(conn, [*moves, *extra], main=ids)


def apply_moves(
    conn: sqlite3.Connection, moves: Iterable[RowMove], *, main: set[int]
) -> PreviousDeletedAt:
    """Write each move's deleted_at and topic_key where they change; return previous values.

    The ``main`` rows' previous deleted_at go in the mapping itself, everything else in its
    ``topic_changes``. Rows are updated in groups of equal values, so a bulk restore of
    thousands of rows is a few statements.
    """
    previous: dict[int, int | None] = {}
    other_deleted: dict[int, int | None] = {}
    other_keys: dict[int, str | None] = {}
    by_deleted: dict[int | None, list[int]] = {}
    by_key: dict[str | None, list[int]] = {}
    for move in moves:
        if move.id is None:
            continue
        if move.deleted_after != move.deleted_before:
            target = previous if move.id in main else other_deleted
            target[move.id] = move.deleted_before
            by_deleted.setdefault(move.deleted_after, []).append(move.id)
        if move.key_after != move.key_before:
            other_keys[move.id] = move.key_before
            by_key.setdefault(move.key_after, []).append(move.id)
    for deleted_at, ids in by_deleted.items():
        _update(conn, "deleted_at", deleted_at, ids)
    for key, ids in by_key.items():
        _update(conn, "topic_key", key, ids)
    return PreviousDeletedAt(previous, topic_changes=TopicChanges(other_deleted, other_keys))


def _update(conn: sqlite3.Connection, column: str, value: object, ids: list[int]) -> None:
    for start in range(0, len(ids), _CHUNK):
        part = ids[start : start + _CHUNK]
        marks = ", ".join("?" * len(part))
        conn.execute(f"UPDATE observations SET {column} = ? WHERE id IN ({marks})", (value, *part))


def _residents(
    conn: sqlite3.Connection, identity: tuple[str, str, str | None], moved: set[int | None]
) -> list[RowMove]:
    """Live rows that hold the key now and that the call does not touch."""
    scope, key, project = identity
    rows = conn.execute(
        "SELECT id, scope, project, updated_at, deleted_at, topic_key FROM observations"
        " WHERE deleted_at IS NULL AND scope = ? AND topic_key = ?"
        " AND (scope = 'personal' OR project = ?)",
        (scope, key, project),
    ).fetchall()
    return [RowMove(*row, row[4], row[5]) for row in rows if row[0] not in moved]


# Keys the plugin would not store as they are (a character outside a-z0-9, a third part,
# a dash or slash at an end or doubled): a cheap first sift in SQL, checked in Python after.
_UNNORMALISED_GLOBS = (
    "*[^a-z0-9/-]*",
    "*/*/*",
    "[/-]*",
    "*[/-]",
    "*--*",
    "*-/*",
    "*/-*",
)


def _unnormalised_residents(
    conn: sqlite3.Connection, moved: set[int | None]
) -> dict[tuple[str, str, str | None], list[RowMove]]:
    """Live rows whose stored key is not in the plugin's form (written by hand, or by an
    older writer), by the topic their normalised key names, so that they clash with a row
    brought in on that topic (one scan per write, rows the call touches left out)."""
    sift = " OR ".join("topic_key GLOB ?" for _ in _UNNORMALISED_GLOBS)
    rows = conn.execute(
        "SELECT id, scope, project, updated_at, deleted_at, topic_key FROM observations"
        f" WHERE deleted_at IS NULL AND topic_key IS NOT NULL AND ({sift})",
        _UNNORMALISED_GLOBS,
    ).fetchall()
    found: dict[tuple[str, str, str | None], list[RowMove]] = {}
    for row in rows:
        if row[0] in moved or stored_topic_key(row[5]) in (row[5], None):
            continue
        move = RowMove(*row, row[4], row[5])
        found.setdefault(move.identity, []).append(move)
    return found


def _apply_choice(
    choice: str,
    this: RowMove,
    others_incoming: list[RowMove],
    residents: list[RowMove],
    moved: set[int | None],
    now: int,
) -> list[RowMove]:
    extra: list[RowMove] = []
    if choice == TOPIC_CLEAR_THIS:
        this.key_after = None
        keeper = None if residents else (others_incoming[0] if others_incoming else None)
        for move in others_incoming:
            if move is not keeper:
                move.key_after = None
        return extra
    for move in [*others_incoming, *residents]:
        if choice == TOPIC_FORGET_OTHER:
            move.deleted_after = move.deleted_before if not move.live_before else now
        else:
            move.key_after = None
        if move.id not in moved:
            extra.append(move)
    return extra


def _conflict(
    found: list[tuple[RowMove, list[RowMove], list[RowMove]]],
    subject: Callable[[RowMove], str],
) -> TopicConflict:
    clashes: list[TopicClash] = []
    sentences: list[str] = []
    for this, others_incoming, residents in found:
        others = sorted([*others_incoming, *residents], key=RowMove.order, reverse=True)
        clash = TopicClash(
            row_id=this.id,
            topic_key=this.key_after or "",
            scope=this.scope,
            project=this.project,
            holders=tuple(int(move.id) for move in others if move.id is not None),
        )
        clashes.append(clash)
        if len(sentences) < _CLASHES_NAMED:
            sentences.append(_sentence(subject(this), clash))
    if len(found) > _CLASHES_NAMED:
        more = len(found) - _CLASHES_NAMED
        sentences.append(msg("Topics", "{count} more topics clash the same way.", count=more))
    return TopicConflict(wording.sentences(sentences), tuple(clashes))


def _sentence(subject: str, clash: TopicClash) -> str:
    this = msg("Topics", "the new observation") if clash.row_id is None else f"#{clash.row_id}"
    holders = [f"#{id}" for id in clash.holders]
    count = len(holders) + 1
    values = {
        "subject": subject,
        "topic_key": clash.topic_key,
        "count": _COUNT_WORDS.get(count, str(count)),
        "rows": wording.and_list([this, *holders]),
        "others": wording.and_list(holders),
    }
    if clash.scope == "personal":
        return msg(
            "Topics",
            "{subject} would give the topic “{topic_key}” (personal, shared by every project)"
            " {count} live observations ({rows}); the agent's next save on it would rewrite"
            " only the newest. Choose what happens to {others}.",
            **values,
        )
    return msg(
        "Topics",
        "{subject} would give the topic “{topic_key}” {count} live observations ({rows}); the"
        " agent's next save on it would rewrite only the newest. Choose what happens to"
        " {others}.",
        **values,
    )
