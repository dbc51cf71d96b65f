"""The review page's writes: the observations page's own commands, and a persona rollback.

Pin, forget and an observation's rollback are the observations page's commands
(:mod:`memory_desk.ui.workers.commands`: conflict checks, the topic question) run
through :class:`ReviewWriteHost`, which runs them one at a time on the review page's own
write thread (so the wait for the agent's lock, and its Cancel, show on the review page),
asks the topic question over the review page, puts them on the review page's own undo stack
(Ctrl+Z on this page undoes what was done here), reports to this page's message bar, and
lets the observations page's table follow. A hard-deleted observation is written again from
its last version (:func:`deleted_row`, the recreate command's idea of the deleted row). A persona entry's rollback goes through the folder's
safe writes (``PersonaFolder.save``, which refuses when the file changed since it was read,
and ``create``), as an undoable :class:`PersonaRollbackCommand`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import shiboken6
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QWidget

from memory_desk.core import ConflictError, StoreError, TopicConflict
from memory_desk.core.journal import Change, ChangeKind, Version
from memory_desk.core.kinds import StoreKind
from memory_desk.core.observations import Observation, ObservationStore
from memory_desk.core.persona import PersonaEntry, PersonaFolder
from memory_desk.core.persona.reading import sha256
from memory_desk.ui.i18n import shown, translate
from memory_desk.ui.widgets.topic import TopicAction, ask_topic_choice
from memory_desk.ui.workers.commands import step_back_later
from memory_desk.ui.workers.write_runner import Outcome, WriteRunner


class ReviewWriteHost:
    """What the observations page's commands need (their ``WriteHost``), for commands run
    from the review page: the review page's write runner, topic question, undo stack and
    messages; the observations page's table follows the writes."""

    def __init__(
        self,
        observations_page,
        stack: QUndoStack,
        writes: WriteRunner,
        parent: QWidget,
        report: Callable[[str, str], None],
        written: Callable[[], None],
    ) -> None:
        self._page = observations_page
        self._stack = stack
        self._writes = writes
        self._parent = parent  # the topic question is asked over it
        self._report = report  # (kind "info"/"error", text)
        self._written = written  # a write went through: the list reads the journal again

    def run_write(
        self, what: str, step: Callable[[], object], done: Callable[[Outcome], None]
    ) -> bool:
        return self._writes.run(what, step, done)

    def push(self, command: QUndoCommand) -> None:
        self._stack.push(command)

    def drop_from_stack(self, command: QUndoCommand, *, undone: bool) -> None:
        if not shiboken6.isValid(command):
            return
        index = self._stack.index()
        command.setObsolete(True)
        if undone and index < self._stack.count() and self._stack.command(index) is command:
            self._stack.redo()
        elif not undone and index > 0 and self._stack.command(index - 1) is command:
            self._stack.undo()

    def after_write(self, store: ObservationStore, ids: Sequence[int], message: str) -> None:
        self._page.after_write(store, ids, "")  # the table follows, if it shows this store
        if message:
            self._report("info", message)
        self._written()

    def report_error(self, message: str) -> None:
        self._report("error", message)

    def report_conflict(self, observation_id: int, message: str) -> None:
        self._report("error", message)

    def report_cancelled(self, message: str) -> None:
        """The command has already said it (through after_write)."""

    def choose_topic(
        self, store: ObservationStore, conflict: TopicConflict, action: TopicAction
    ) -> str | None:
        """Asked on the main thread over the review page; the write waits for the answer."""
        parent = self._parent
        return self._writes.ask(lambda: ask_topic_choice(store, conflict, action, parent))

    def restore_stack_position(self, command: QUndoCommand, *, undone: bool) -> None:
        step_back_later(self._stack, command, undone=undone, context=self._parent)

    def undo_keys(self) -> str:
        return self._page.undo_keys()


def deleted_row(change: Change) -> Observation | None:
    """The hard-deleted observation as its last version kept it, for the recreate command
    (which writes its chat, tool, project and scope again); None when the journal did not
    keep where the row belonged (an older journal), so nothing can be written back."""
    old = change.old
    if (
        change.kind != ChangeKind.DELETED
        or change.store_kind != StoreKind.OBSERVATIONS
        or old is None
    ):
        return None
    project = getattr(old, "project", None)
    scope = getattr(old, "scope", None)
    if project is None or scope is None:
        return None
    session_id = getattr(old, "session_id", None) or change.chat
    return Observation(
        id=int(change.target),
        session_id=session_id,
        type=old.type,
        title=old.title,
        content=old.body,
        tool_name=getattr(old, "tool_name", None),
        project=project,
        scope=scope,
        topic_key=old.description or None,
        normalized_hash="",
        revision_count=old.revision or 1,
        duplicate_count=1,
        last_seen_at=None,
        pinned=False,
        access_count=0,
        last_accessed_at=None,
        created_at=change.at_ms,
        updated_at=change.at_ms,
        deleted_at=None,
    )


def observation_matches(observation: Observation, version: Version | None) -> bool:
    """True when the row still says what the change's new version says (the agent has not
    changed it again since)."""
    if version is None:
        return False
    return (
        observation.title == version.title
        and (observation.content or "") == version.body
        and observation.type == version.type
        and (observation.topic_key or "") == version.description
    )


def entry_matches(entry: PersonaEntry, version: Version | None) -> bool:
    """True when the entry on disk is the version the change showed (same file text, or the
    same fields the agent reads)."""
    if version is None:
        return False
    if version.raw is not None and sha256(version.raw.encode("utf-8")) == entry.fingerprint.sha256:
        return True
    return (
        entry.description == version.description
        and entry.type == version.type
        and entry.body == version.body
    )


def changed_again(name: str) -> str:
    return translate(
        "ReviewPage",
        "{name} was changed again since this change: review the newer change, or edit it by hand.",
    ).format(name=name)


class PersonaRollbackCommand(QUndoCommand):
    """Put an entry's previous version back (changed: its previous description, type and
    body, through the folder's conflict-checked save; removed: the file again, created as
    the agent creates one); undo puts the agent's version back the same way.

    ``written(folder, name)`` runs after every write so the page can tell the watcher and
    the persona page; ``failed(message)`` reports a StoreError (the command then leaves the
    stack).
    """

    def __init__(
        self,
        folder: PersonaFolder,
        change: Change,
        written: Callable[[PersonaFolder, str], None],
        failed: Callable[[str], None],
    ) -> None:
        super().__init__(translate("ReviewPage", "Roll back {name}").format(name=change.target))
        self._folder = folder
        self._change = change
        self._written = written
        self._failed = failed
        self._trashed = None
        self.ok = False  # the last step was written

    def redo(self) -> None:
        self._run(self._roll_back)

    def undo(self) -> None:
        self._run(self._put_agents_back)

    def _run(self, step: Callable[[], None]) -> None:
        try:
            step()
        except StoreError as exc:
            self.ok = False
            self.setObsolete(True)
            self._failed(shown(exc))
            return
        self.ok = True
        self._written(self._folder, self._change.target)

    def _roll_back(self) -> None:
        change, name = self._change, self._change.target
        old = change.old
        assert old is not None
        if change.kind == ChangeKind.REMOVED:
            if self._trashed is not None:
                self._folder.unforget(self._trashed)
            else:
                self._folder.create(
                    name=name, type=old.type, description=old.description, body=old.body
                )
            return
        current = self._folder.read(name)
        if not entry_matches(current, change.new):
            raise ConflictError(changed_again(name))
        self._folder.save(_with(current, old))

    def _put_agents_back(self) -> None:
        change, name = self._change, self._change.target
        if change.kind == ChangeKind.REMOVED:
            self._trashed = self._folder.forget(name)
            return
        current = self._folder.read(name)
        if not entry_matches(current, change.old):
            raise ConflictError(
                translate(
                    "ReviewPage", "{name} changed on disk since the rollback; nothing was written."
                ).format(name=name)
            )
        self._folder.save(_with(current, change.new))


def _with(entry: PersonaEntry, version: Version | None) -> PersonaEntry:
    assert version is not None
    return dataclasses.replace(
        entry, description=version.description, type=version.type, body=version.body
    )
