"""What one chat saved, as the plugin's own readers order it: the web tab's "Saved in this
chat" list and the agent's ``memory_timeline`` (an observation's chronological neighbours).

Both are pure ``SELECT`` through :meth:`ObservationStore.read`. The timeline follows the
plugin's ``store.ts`` (``timeline(id, project, before, after)``) to the letter: the anchor and
its neighbours are the rows visible from the *viewing* project (live, of that project or
personal), which for a personal row seen from another project is not the row's own project.
The one exception: an anchor the agent cannot see (forgotten, or another project's) still
shows its neighbours, and :attr:`Timeline.agent_answers` says that the tool answers nothing
for it. Re-exported by :mod:`.chats`, where the rest of a chat is read.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from memory_desk.core.jstext import js_trim
from memory_desk.core.messages import msg
from memory_desk.core.observations.rows import SELECT_WITH_CONTENT, Observation, as_observation
from memory_desk.core.observations.search import escape_like
from memory_desk.core.observations.store import ObservationStore

# memory_timeline clamps before/after to this.
TIMELINE_MAX = 10


@dataclass(frozen=True)
class Timeline:
    """An observation and its chronological neighbours, as ``memory_timeline`` orders them.

    ``by_session`` is False when the anchor has no session: the neighbours are then its
    project's. ``project`` is the project it is seen from (whose visible rows are the
    neighbours). ``agent_answers`` is False for an anchor that project's agent cannot see
    (forgotten, or another project's row): its tool answers nothing at all for it, yet the
    neighbours are shown.
    """

    anchor: Observation
    before: tuple[Observation, ...]
    after: tuple[Observation, ...]
    by_session: bool
    agent_answers: bool
    project: str = ""

    @property
    def entries(self) -> tuple[Observation, ...]:
        """Oldest first, the anchor in its place."""
        return (*self.before, self.anchor, *self.after)


# ----------------------------------------------------------------------------- saved in a chat


def saved_in_chat(
    store: ObservationStore, session_id: str, *, type: str | None = None, text: str = ""
) -> list[Observation]:
    """The web tab's "Saved in this chat": the chat's live rows, pinned first, then
    ``updated_at DESC, id DESC``; ``type`` keeps one type; ``text`` (trimmed as JavaScript
    trims) must occur in the title, content or topic_key, searched in the database.

    The search is SQLite's ``LIKE`` with its wildcards escaped, as the plugin's: it folds ASCII
    letters only (``Ñ`` does not match ``ñ``), and matches text of any length. The tab also
    keeps rows visible from its project; a chat's rows are its project's or personal, so all
    of them are shown here.
    """
    return store.read(
        msg("DatabaseAction", "read what the chat saved"), _saved_in_chat, session_id, type, text
    )


def _saved_in_chat(
    conn: sqlite3.Connection, session_id: str, type: str | None, text: str
) -> list[Observation]:
    where = ["o.session_id = ?", "o.deleted_at IS NULL"]
    params: list[object] = [session_id]
    if type:
        where.append("o.type = ?")
        params.append(type)
    text = js_trim(text)
    if text:
        where.append(
            "(o.title LIKE ? ESCAPE '\\' OR o.content LIKE ? ESCAPE '\\'"
            " OR COALESCE(o.topic_key, '') LIKE ? ESCAPE '\\')"
        )
        params.extend(["%" + escape_like(text) + "%"] * 3)
    rows = conn.execute(
        f"SELECT {SELECT_WITH_CONTENT} FROM observations o WHERE {' AND '.join(where)}"
        " ORDER BY o.pinned DESC, o.updated_at DESC, o.id DESC",
        params,
    ).fetchall()
    return [as_observation(row) for row in rows]


# ----------------------------------------------------------------------------- timeline

_VISIBLE = "o.deleted_at IS NULL AND (o.project = ? OR o.scope = 'personal')"


def timeline(
    store: ObservationStore,
    observation_id: int,
    before: int = 3,
    after: int = 3,
    *,
    project: str | None = None,
) -> Timeline | None:
    """The observation and its neighbours as the plugin's ``memory_timeline`` orders them
    when a chat of ``project`` asks (None: the row's own project); None when the row does
    not exist. Neighbours: the same session (the anchor's project's rows when it has none),
    rows visible from ``project``, by ``created_at, id``; ``before``/``after`` clamped to
    0..10."""
    return store.read(
        msg("DatabaseAction", "read the timeline"),
        _timeline,
        observation_id,
        before,
        after,
        project,
    )


def _timeline(
    conn: sqlite3.Connection, id: int, before: int, after: int, project: str | None
) -> Timeline | None:
    found = conn.execute(
        f"SELECT {SELECT_WITH_CONTENT} FROM observations o WHERE o.id = ?", (id,)
    ).fetchall()
    if not found:
        return None
    anchor = as_observation(found[0])
    viewer = anchor.project if project is None else project
    b = min(max(int(before), 0), TIMELINE_MAX)
    a = min(max(int(after), 0), TIMELINE_MAX)
    same = "o.session_id = ?" if anchor.session_id else "o.project = ?"
    key = anchor.session_id or anchor.project
    params = (viewer, key, anchor.created_at, anchor.created_at, id)
    older = conn.execute(
        f"SELECT {SELECT_WITH_CONTENT} FROM observations o WHERE {_VISIBLE} AND {same}"
        " AND (o.created_at < ? OR (o.created_at = ? AND o.id < ?))"
        " ORDER BY o.created_at DESC, o.id DESC LIMIT ?",
        (*params, b),
    ).fetchall()
    newer = conn.execute(
        f"SELECT {SELECT_WITH_CONTENT} FROM observations o WHERE {_VISIBLE} AND {same}"
        " AND (o.created_at > ? OR (o.created_at = ? AND o.id > ?))"
        " ORDER BY o.created_at, o.id LIMIT ?",
        (*params, a),
    ).fetchall()
    return Timeline(
        anchor=anchor,
        before=tuple(as_observation(row) for row in reversed(older)),
        after=tuple(as_observation(row) for row in newer),
        by_session=bool(anchor.session_id),
        agent_answers=not anchor.forgotten
        and (anchor.project == viewer or anchor.scope == "personal"),
        project=viewer,
    )
