"""The store's writes, each the body of one ``BEGIN IMMEDIATE`` transaction.

Every function here takes the connection :meth:`Connections.write` opened a transaction
on and changes only its own columns with plain UPDATE/DELETE/INSERT, so the plugin's FTS
triggers keep the search index right. Topic rules (one live row per topic) are asked of
:mod:`.topics` before anything is written, inside the same transaction, so the agent
cannot slip a row in between the check and the write. The text checks that need no
database (:func:`stored_title`, :func:`stored_content`, :func:`check_type_and_topic`)
run before the transaction, so a refused edit never waits for the agent's lock.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from memory_desk.core import alisio, wording
from memory_desk.core.errors import ConflictError, InvalidInput
from memory_desk.core.messages import msg
from memory_desk.core.observations import topics
from memory_desk.core.observations.rows import (
    EditResult,
    Observation,
    WrittenObservation,
    chunks,
    fetch_existing,
    written,
)
from memory_desk.core.observations.topics import (
    NO_TOPIC_CHANGES,
    PreviousDeletedAt,
    RowMove,
    TopicChanges,
)

# Columns an edit may rewrite, and the ones whose change means "someone else wrote it".
_EDIT_COLUMNS = (
    "title",
    "content",
    "type",
    "topic_key",
    "normalized_hash",
    "revision_count",
    "updated_at",
    "last_seen_at",
)
_CONFLICT_COLUMNS = (*_EDIT_COLUMNS, "session_id", "tool_name", "duplicate_count")


# ------------------------------------------------------------ checks before writing


def stored_title(title: str) -> str:
    """The title as the plugin would store it; an empty one is refused, as the plugin does."""
    _refuse_unstorable(title)
    stored = alisio.prepare_title(title)
    if not stored:
        raise InvalidInput(
            msg(
                "Observations",
                "An observation needs a title (the agent's plugin refuses an empty one);"
                " type one before saving",
            )
        )
    return stored


def stored_content(content: str, expected: Observation | None = None) -> str:
    """The content as the plugin would store it; empty content is refused, as it does. An
    edit of an ``expected`` row already over the cap (another writer's) is kept whole
    (:func:`alisio.preview_content`): the cap would drop text the person never removed."""
    _refuse_unstorable(content)
    whole = expected is not None and alisio.over_content_cap(expected.content)
    stored = alisio.prepare_content(content, whole=whole)
    if not stored:
        raise InvalidInput(
            msg(
                "Observations",
                "An observation needs some content (the agent's plugin refuses an empty one);"
                " write it before saving",
            )
        )
    return stored


def check_type_and_topic(type: str | None, topic_key: str | None) -> None:
    """The plugin's rules for a type and a topic_key (None: not being changed).

    Any topic_key is accepted: like the plugin, :func:`edit` and :func:`recreate` store it
    normalised (:func:`alisio.stored_topic_key`), and one that normalises to nothing
    means no topic key.
    """
    if type is not None and not alisio.is_valid_type(type):
        raise InvalidInput(
            msg(
                "Observations",
                "“{type}” is not an observation type; use one of: {types}",
                type=type,
                types=", ".join(alisio.OBSERVATION_TYPES),
            )
        )


# ------------------------------------------------------------------ transactions


def pin(conn: sqlite3.Connection, ids: Iterable[int], pinned: bool) -> dict[int, bool]:
    """Set ``pinned`` on the rows that differ; their previous state."""
    target = 1 if pinned else 0
    previous: dict[int, bool] = {}
    for chunk in chunks(ids):
        marks = ", ".join("?" * len(chunk))
        rows = conn.execute(
            f"SELECT id, pinned FROM observations WHERE id IN ({marks}) AND (pinned != 0) != ?",
            (*chunk, target),
        ).fetchall()
        changed = [row[0] for row in rows]
        _update_in(conn, "pinned = ?", (target,), changed)
        previous.update((row[0], bool(row[1])) for row in rows)
    return previous


def forget(
    conn: sqlite3.Connection, ids: Iterable[int], when: int, keep_pinned: bool = False
) -> PreviousDeletedAt:
    """Soft-delete the live rows among ``ids`` (not the pinned ones with ``keep_pinned``);
    their previous deleted_at."""
    condition = "deleted_at IS NULL AND pinned = 0" if keep_pinned else "deleted_at IS NULL"
    return PreviousDeletedAt(_set_deleted_at(conn, ids, condition, when))


def restore(conn: sqlite3.Connection, ids: Iterable[int], choice: str | None) -> PreviousDeletedAt:
    """Bring the forgotten rows among ``ids`` back, as the topic ``choice`` allows."""
    moves = [
        move
        for move in topics.moves_for_rows(conn, ids).values()
        if move.deleted_before is not None
    ]
    for move in moves:
        move.deleted_after = None
    return topics.settle_and_apply(conn, moves, choice, alisio.now_ms(), topics.restoring_subject)


def put_back_deleted_at(
    conn: sqlite3.Connection,
    previous: Mapping[int, int | None],
    changes: TopicChanges,
    choice: str | None,
) -> PreviousDeletedAt:
    """Give rows their ``previous`` deleted_at, and the other rows ``changes``' values."""
    moves = topics.moves_for_rows(conn, [*previous, *changes.deleted_at, *changes.topic_keys])
    for id, move in moves.items():
        if id in previous:
            move.deleted_after = previous[id]
        elif id in changes.deleted_at:
            move.deleted_after = changes.deleted_at[id]
        if id in changes.topic_keys:
            move.key_after = changes.topic_keys[id]
    return topics.settle_and_apply(
        conn,
        list(moves.values()),
        choice,
        alisio.now_ms(),
        topics.putting_back_subject,
        main=set(previous),
    )


def delete(conn: sqlite3.Connection, ids: Iterable[int]) -> int:
    """Delete rows for good; how many went."""
    deleted = 0
    for chunk in chunks(ids):
        marks = ", ".join("?" * len(chunk))
        deleted += conn.execute(f"DELETE FROM observations WHERE id IN ({marks})", chunk).rowcount
    return deleted


def edit(
    conn: sqlite3.Connection,
    id: int,
    *,
    new_title: str | None,
    new_content: str | None,
    type: str | None,
    topic_key: str | None,
    expected: Observation | None,
    choice: str | None,
) -> EditResult:
    """Rewrite the row as the plugin's topic upsert does (texts already as stored, the
    topic_key stored normalised as the plugin stores it)."""
    before = fetch_existing(conn, id)
    kept = [
        name
        for name, new in (
            ("title", new_title),
            ("content", new_content),
            ("type", type),
            ("topic_key", topic_key),
        )
        if new is None
    ]
    _refuse_unreadable(before, kept, edited=True)
    if expected is not None and _differs(before, expected):
        raise ConflictError(
            msg(
                "Observations",
                "Observation #{id} was changed by the agent since you opened it;"
                " reload it and make your edit again",
                id=id,
            )
        )
    values = {
        "title": before.title if new_title is None else new_title,
        "content": before.content if new_content is None else new_content,
        "type": before.type if type is None else type,
        "topic_key": (
            before.topic_key if topic_key is None else alisio.stored_topic_key(topic_key)
        ),
    }
    if _unchanged(values, before):
        return EditResult(before, before)
    now = max(alisio.now_ms(), before.updated_at)
    move = _row_move(before, key_after=values["topic_key"], updated_at=now)
    extra = topics.settle(conn, [move], choice, now, topics.saving_key_subject)
    values["topic_key"] = move.key_after
    if _unchanged(values, before):
        return EditResult(before, before)
    # The hash is the content's: computed afresh only for new content, as the agent's save
    # does. Unchanged content keeps the stored hash, even one Memory Desk's Unicode tables
    # cannot reproduce (``alisio.normalized_hash``): the agent's own is not "fixed".
    edited_content = values["content"] != before.content
    values |= {
        "normalized_hash": alisio.normalized_hash(str(values["content"]))
        if edited_content
        else before.normalized_hash,
        "revision_count": before.revision_count + 1,
        "updated_at": now,
        "last_seen_at": now,
    }
    _update_columns(conn, id, values)
    changes = topics.apply_moves(conn, extra, main=set()).topic_changes
    return EditResult(before, fetch_existing(conn, id), changes)


def recreate(
    conn: sqlite3.Connection,
    observation: Observation,
    *,
    new_title: str,
    new_content: str,
    type: str,
    topic_key: str,
    choice: str | None,
) -> WrittenObservation:
    """Insert the person's version of a deleted row as the plugin's plain insert does (the
    topic_key normalised, as the plugin stores it)."""
    _refuse_unreadable(observation, ("session_id", "tool_name", "project", "scope"), edited=False)
    now = alisio.now_ms()
    move = RowMove(
        None,
        observation.scope,
        observation.project,
        now,
        None,
        None,
        None,
        alisio.stored_topic_key(topic_key),
        exists=False,
    )
    extra = topics.settle(conn, [move], choice, now, topics.saving_again_subject)
    changes = topics.apply_moves(conn, extra, main=set()).topic_changes
    cursor = conn.execute(
        "INSERT INTO observations (session_id, type, title, content, tool_name, project,"
        " scope, topic_key, normalized_hash, last_seen_at, pinned, created_at,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            observation.session_id,
            type,
            new_title,
            new_content,
            observation.tool_name,
            observation.project,
            observation.scope,
            move.key_after,
            alisio.normalized_hash(new_content),
            now,
            int(observation.pinned),
            now,
            now,
        ),
    )
    created = fetch_existing(conn, int(cursor.lastrowid))
    return written(created, changes)


def undo_edit(
    conn: sqlite3.Connection, result: EditResult, choice: str | None
) -> WrittenObservation:
    """Put back what ``result`` rewrote, if the row is still exactly as the edit left it."""
    current = fetch_existing(conn, result.after.id)
    if _differs(current, result.after):
        raise ConflictError(
            msg(
                "Observations",
                "Observation #{id} changed after your edit (the agent revised it); the edit"
                " cannot be undone without losing that change",
                id=current.id,
            )
        )
    if result.before == result.after and not result.topic_changes:
        return written(current, NO_TOPIC_CHANGES)
    others = topics.moves_for_rows(
        conn, [*result.topic_changes.deleted_at, *result.topic_changes.topic_keys]
    )
    others.pop(current.id, None)
    for other_id, other in others.items():
        other.deleted_after = result.topic_changes.deleted_at.get(other_id, other.deleted_before)
        other.key_after = result.topic_changes.topic_keys.get(other_id, other.key_before)
    move = _row_move(
        current, key_after=result.before.topic_key, updated_at=result.before.updated_at
    )
    moves = [move, *others.values()]
    extra = topics.settle(conn, moves, choice, alisio.now_ms(), topics.undoing_edit_subject)
    values = {name: getattr(result.before, name) for name in _EDIT_COLUMNS}
    values["topic_key"] = move.key_after
    _update_columns(conn, current.id, values)
    # The row's key went in with its columns; a choice may still have forgotten it.
    liveness = replace(move, key_before=move.key_after)
    changes = topics.apply_moves(
        conn, [liveness, *others.values(), *extra], main=set()
    ).topic_changes
    return written(fetch_existing(conn, current.id), changes)


# ---------------------------------------------------------------------- helpers


def _refuse_unstorable(text: str) -> None:
    """A lone surrogate half cannot be stored: the plugin would write U+FFFD in its place,
    which is not what the person typed, so the edit is refused instead."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            msg(
                "Observations",
                "The text contains a character that cannot be stored ({reason}: {character});"
                " remove it",
                reason=exc.reason,
                character=repr(exc.object[exc.start : exc.end]),
            )
        ) from exc


def _refuse_unreadable(row: Observation, names: Sequence[str], *, edited: bool) -> None:
    """A column that could not be read as stored would be written back as shown (U+FFFD
    for its bad bytes, a stand-in for a wrong type): refuse rather than change it silently.
    ``edited``: the row is being edited (else saved again as a new row)."""
    problems = row.unreadable(names)
    if not problems:
        return
    if edited:
        raise InvalidInput(
            msg(
                "Observations",
                "Observation #{id} cannot be edited: {problems}. Saving would store what Memory"
                " Desk shows instead of what is there; retype those fields in the edit form, or"
                " leave the row as it is",
                id=row.id,
                problems=wording.semicolons(problems),
            )
        )
    raise InvalidInput(
        msg(
            "Observations",
            "Observation #{id} cannot be saved again: {problems}. Saving would store what"
            " Memory Desk shows instead of what is there; retype those fields in the edit"
            " form, or leave the row as it is",
            id=row.id,
            problems=wording.semicolons(problems),
        )
    )


def _differs(current: Observation, seen: Observation) -> bool:
    """Did someone else rewrite the row? Pins, forgets and accesses are not rewrites.

    A row seen without its content is compared by normalized_hash alone.
    """
    return any(
        getattr(current, name) != getattr(seen, name)
        for name in _CONFLICT_COLUMNS
        if not (name == "content" and seen.content is None)
    )


def _unchanged(values: Mapping[str, object], before: Observation) -> bool:
    return all(values[name] == getattr(before, name) for name in values)


def _row_move(row: Observation, *, key_after: str | None, updated_at: int) -> RowMove:
    """The topic side of an edit: same liveness, a new key, the edit's time."""
    return RowMove(
        row.id,
        row.scope,
        row.project,
        updated_at,
        row.deleted_at,
        row.topic_key,
        row.deleted_at,
        key_after,
    )


def _update_columns(conn: sqlite3.Connection, id: int, values: Mapping[str, object]) -> None:
    assignments = ", ".join(f"{name} = :{name}" for name in values)
    conn.execute(f"UPDATE observations SET {assignments} WHERE id = :id", {**values, "id": id})


def _update_in(
    conn: sqlite3.Connection, assignment: str, values: tuple[object, ...], ids: Sequence[int]
) -> None:
    if ids:
        marks = ", ".join("?" * len(ids))
        conn.execute(f"UPDATE observations SET {assignment} WHERE id IN ({marks})", (*values, *ids))


def _set_deleted_at(
    conn: sqlite3.Connection, ids: Iterable[int], condition: str, value: int | None
) -> dict[int, int | None]:
    """Set deleted_at on the rows among ``ids`` that meet ``condition`` (which may bind
    ``value`` once); returns their previous deleted_at."""
    previous: dict[int, int | None] = {}
    bound = (value,) if "?" in condition else ()
    for chunk in chunks(ids):
        marks = ", ".join("?" * len(chunk))
        rows = conn.execute(
            f"SELECT id, deleted_at FROM observations WHERE id IN ({marks}) AND {condition}",
            (*chunk, *bound),
        ).fetchall()
        _update_in(conn, "deleted_at = ?", (value,), [row[0] for row in rows])
        previous.update((row[0], row[1]) for row in rows)
    return previous
