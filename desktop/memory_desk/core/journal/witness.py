"""The person's own writes reach the journal here, so that nothing the person did is listed.

A :class:`Witness` is what a store is given when it is opened (``ObservationStore(path,
witness=...)``, ``PersonaFolder(path, witness=...)``); the two write choke points call it:
``Connections.write`` (observations) through :meth:`Witness.watch_observations`, and the
persona folder's file operations through :meth:`Witness.persona_write`. The journal is
attached to the witness, possibly later than the stores were opened (the app makes one
witness when it starts, gives it to every store, and attaches the journal once the review
desk has opened it): until then, and for a store opened without one (core tests, tools),
every call is a no-op. A journal that fails never fails the person's write (the change is
then listed as the agent's, which is the safe side). The journal only notes these writes in
memory: the person's save never waits for the journal's file (see :mod:`.pending`).

Observations: TEMP triggers on the writing connection (they live in its temp schema: the
agent's file is not changed) note the ids the transaction inserted, updated or deleted, and
the state each updated or deleted row had *before* the transaction first touched it (the
triggers run after the change and see ``old.*``); before COMMIT the new states are read in
the same transaction and handed to the journal as expected, each with its before-state; if
COMMIT fails they are withdrawn. The before-state is what keeps an agent's change that landed
just before the person's write: the scan compares it with what it last saw, and lists the
agent's change first instead of taking the person's write as the whole story.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from memory_desk.core.errors import StoreError

if TYPE_CHECKING:
    from memory_desk.core.journal.model import ObservationState

log = logging.getLogger(__name__)

TRIGGERS = (
    """CREATE TEMP TABLE IF NOT EXISTS memory_desk_touched(id INTEGER PRIMARY KEY)""",
    """CREATE TEMP TRIGGER IF NOT EXISTS memory_desk_touched_ai AFTER INSERT ON main.observations
BEGIN INSERT OR IGNORE INTO memory_desk_touched(id) VALUES (new.id); END""",
    """CREATE TEMP TABLE IF NOT EXISTS memory_desk_before(
    id INTEGER PRIMARY KEY, type, title, content, topic_key, deleted_at, revision_count,
    project, scope, session_id, tool_name, updated_at)""",
    """CREATE TEMP TRIGGER IF NOT EXISTS memory_desk_touched_au AFTER UPDATE ON main.observations
BEGIN INSERT OR IGNORE INTO memory_desk_touched(id) VALUES (old.id), (new.id);
  INSERT OR IGNORE INTO memory_desk_before VALUES (old.id, old.type, old.title, old.content,
old.topic_key, old.deleted_at, old.revision_count, old.project, old.scope, old.session_id,
old.tool_name, old.updated_at); END""",
    """CREATE TEMP TRIGGER IF NOT EXISTS memory_desk_touched_ad AFTER DELETE ON main.observations
BEGIN INSERT OR IGNORE INTO memory_desk_touched(id) VALUES (old.id);
  INSERT OR IGNORE INTO memory_desk_before VALUES (old.id, old.type, old.title, old.content,
old.topic_key, old.deleted_at, old.revision_count, old.project, old.scope, old.session_id,
old.tool_name, old.updated_at); END""",
)
PREPARED_SQL = "SELECT 1 FROM temp.sqlite_master WHERE name = 'memory_desk_touched_ad'"
CLEAR_SQL = ("DELETE FROM temp.memory_desk_touched", "DELETE FROM temp.memory_desk_before")
# The first state of each row the transaction updated or deleted (INSERT OR IGNORE keeps it).
BEFORE_SQL = (
    "SELECT id, type, title, content, topic_key, deleted_at, revision_count, project, scope,"
    " session_id, tool_name, updated_at FROM temp.memory_desk_before"
)
STATES_SQL = (
    "SELECT t.id, o.id, o.type, o.title, o.content, o.topic_key, o.deleted_at, o.revision_count,"
    " o.project, o.scope, o.session_id, o.tool_name"
    " FROM temp.memory_desk_touched t LEFT JOIN main.observations o ON o.id = t.id"
)


class _Witnessing(Protocol):
    def expect_observations(self, db: Path, states: dict, before: dict | None = None) -> None: ...
    def expect_persona(self, folder: Path, name: str, text: str | None) -> None: ...
    def withdraw_observations(self, db: Path, ids: list[int]) -> None: ...
    def withdraw_persona(self, folder: Path, name: str) -> None: ...


class _Idle:
    """The watch when no journal is attached: nothing to do."""

    def before_commit(self) -> None:
        pass

    def failed(self) -> None:
        pass


class ObservationWatch:
    """One write transaction on ``memory.sqlite``, watched (see the module's doc)."""

    def __init__(self, journal: _Witnessing, db: Path, conn: sqlite3.Connection) -> None:
        self.journal, self.db, self.conn = journal, db, conn
        self.expected: list[int] = []

    def before_commit(self) -> None:
        states: dict[int, ObservationState | None] = {}
        for row in self.conn.execute(STATES_SQL).fetchall():
            states[row[0]] = None if row[1] is None else _state(row)
        before = {row[0]: _before(row) for row in self.conn.execute(BEFORE_SQL).fetchall()}
        for statement in CLEAR_SQL:
            self.conn.execute(statement)
        if not states:
            return
        try:
            self.journal.expect_observations(self.db, states, before)
            self.expected = list(states)
        except StoreError as exc:  # the journal's trouble never stops the person's write
            log.warning("journal: %s", exc)

    def failed(self) -> None:
        if not self.expected:
            return
        try:
            self.journal.withdraw_observations(self.db, self.expected)
        except StoreError as exc:
            log.warning("journal: %s", exc)


def _state(row: tuple) -> ObservationState:
    from memory_desk.core.journal.model import ObservationState  # only with a journal

    _id, _found, *columns = row  # the columns in from_columns' order (STATES_SQL)
    return ObservationState.from_columns(*columns)


def _before(row: tuple) -> tuple[ObservationState, int, int | None]:
    """A row as it was before the person's transaction: (state, updated_at, deleted_at)."""
    from memory_desk.core.journal.model import ObservationState

    _id, type_, title, content, topic, deleted_at, revision, project, scope, chat, tool, at = row
    state = ObservationState.from_columns(
        type_, title, content, topic, deleted_at, revision, project, scope, chat, tool
    )
    return state, _time(at), None if deleted_at is None else _time(deleted_at)


def _time(value: object) -> int:
    """A time column as a number (a hand-made store may hold text: never in the person's
    way; 0 then, and the scan takes its own time)."""
    return value if isinstance(value, int) else 0


def _is_entry_name(name: str) -> bool:
    """An entry name the agent lists. Imported here, not at the top: every observations
    write path imports this module, and the persona core is not needed for those."""
    from memory_desk.core.persona.entry import NAME_RE

    return NAME_RE.fullmatch(name) is not None


def _entry_name(path: Path) -> str | None:
    """The entry the file ``path`` is, if the agent lists it (the journal follows only those)."""
    name = path.name[:-3] if path.name.endswith(".md") else ""
    return name if _is_entry_name(name) else None


class Witness:
    """Hears the person's own writes to the stores it was given to, and tells the journal
    attached to it (none: nobody is told). See the module's doc.

    Stores share one witness; :meth:`attach` may come after they were opened and is seen by
    their next write (from any thread: the journal is read once per write).
    """

    def __init__(self, journal: _Witnessing | None = None) -> None:
        self._journal = journal

    def attach(self, journal: _Witnessing | None) -> None:
        """Make ``journal`` the one the person's writes are reported to (None: nobody)."""
        self._journal = journal

    def watch_observations(self, db: Path, conn: sqlite3.Connection) -> ObservationWatch | _Idle:
        """Start watching the write transaction open on ``conn`` (call after BEGIN)."""
        journal = self._journal
        if journal is None:
            return _Idle()
        try:
            if not conn.execute(PREPARED_SQL).fetchall():
                for statement in TRIGGERS:
                    conn.execute(statement)
            for statement in CLEAR_SQL:
                conn.execute(statement)
        except sqlite3.Error as exc:  # never in the way of the person's write
            log.warning("journal: cannot watch %s: %s", db, exc)
            return _Idle()
        return ObservationWatch(journal, db, conn)

    def persona_write(self, path: Path, data: bytes | None) -> None:
        """The person is about to put ``data`` at the entry file ``path`` (None: remove it)."""
        journal = self._journal
        if journal is not None:
            _expect(journal, path, data)

    def persona_not_written(self, path: Path) -> None:
        """The person's write of the entry file ``path`` reported by :meth:`persona_write`
        did not happen (the step after it was refused): forget it."""
        journal = self._journal
        name = None if journal is None else _entry_name(path)
        if journal is None or name is None:
            return
        try:
            journal.withdraw_persona(path.parent, name)
        except StoreError as exc:
            log.warning("journal: %s", exc)

    def persona_renamed(self, source: Path, target: Path) -> None:
        """The person is about to rename ``source`` to ``target`` inside a folder (a folder
        problem's fix, or its undo): the entry ``target`` names appears with the file's text,
        the one ``source`` named (if the agent lists it) goes."""
        journal = self._journal
        if journal is None:
            return
        _expect(journal, source, None)
        if _entry_name(target) is None:
            return
        try:
            data = source.read_bytes()  # the file itself (a link: what the agent will read)
        except OSError:
            return  # the rename will fail too, or the next scan lists what is there
        _expect(journal, target, data)


def _expect(journal: _Witnessing, path: Path, data: bytes | None) -> None:
    """Tell ``journal`` the person is about to put ``data`` at ``path`` (None: remove it)."""
    name = _entry_name(path)
    if name is None:
        return  # the journal only follows the entries the agent lists
    text = None if data is None else data.decode("utf-8", "surrogateescape")
    try:
        journal.expect_persona(path.parent, name, text)
    except (StoreError, ValueError) as exc:
        log.warning("journal: %s", exc)
