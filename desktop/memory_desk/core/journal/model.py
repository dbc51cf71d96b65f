"""What the journal records and hands out: plain frozen values, no I/O.

The window (helper U's review page) only ever sees these; the SQLite file behind them is
the journal's business (:mod:`.db`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum


class ChangeKind(StrEnum):
    """What happened to one target of a store since Memory Desk last looked.

    Observations: ``NEW``, ``REVISED`` (revision_count went up, or title/content/type/topic
    changed), ``FORGOTTEN`` (deleted_at set), ``DELETED`` (the row is gone). Persona entries:
    ``NEW``, ``CHANGED``, ``REMOVED``.
    """

    NEW = "new"
    REVISED = "revised"
    FORGOTTEN = "forgotten"
    DELETED = "deleted"
    CHANGED = "changed"
    REMOVED = "removed"


@dataclass(frozen=True)
class Version:
    """One version of a target, as the review diff shows it (and a rollback writes back).

    ``title``: the observation's title, or the persona entry's name. ``description``: the
    persona entry's description, or the observation's topic_key ("" without one). ``body``:
    the observation's content, or the entry's body after its header. ``raw``: a persona
    entry's whole file text (what a rollback puts back). ``revision``: the observation's
    revision_count. ``project``, ``scope``, ``session_id``, ``tool_name``: the observation's
    other columns, so that a row the agent deleted can be written back whole (None for a
    persona entry, and for versions kept before they were recorded).
    """

    title: str
    description: str
    type: str
    body: str
    raw: str | None = None
    revision: int | None = None
    project: str | None = None
    scope: str | None = None
    session_id: str | None = None
    tool_name: str | None = None


@dataclass(frozen=True)
class Change:
    """One change the journal found, with what it knew before and after.

    ``store`` is the scanned path (the db file or the persona folder, absolute);
    ``target`` the observation id as text, or the entry name. ``at_ms`` is when the store
    says it happened (updated_at, deleted_at, file mtime), else when it was seen
    (``seen_ms``). ``old`` is None for a new target, or when the older text was not kept;
    ``new`` is None for a deleted or removed one.
    """

    id: int
    store: str
    store_kind: str
    target: str
    kind: ChangeKind
    at_ms: int
    seen_ms: int
    agent: str
    chat: str | None
    old: Version | None
    new: Version | None
    reviewed: bool


@dataclass(frozen=True)
class JournalLimits:
    """The person's settings: off records nothing; age and size bound what is kept."""

    enabled: bool = True
    max_age_days: int = 90
    max_bytes: int = 100 * 1024 * 1024


@dataclass(frozen=True)
class ObservationState:
    """What a row holds after a write, for :meth:`Journal.expect_observations`.

    Only the fields whose change the journal lists (a pin or an access count is not an
    agent's change of what the row says). ``None`` in place of a state means "the row is
    gone" (a hard delete).
    """

    type: str
    title: str
    content: str
    topic_key: str | None
    forgotten: bool
    revision_count: int
    project: str | None = None
    scope: str | None = None
    session_id: str | None = None
    tool_name: str | None = None

    @classmethod
    def from_columns(
        cls,
        type_: str | None,
        title: str | None,
        content: str | None,
        topic_key: str | None,
        deleted_at: int | None,
        revision: int | None,
        project: str | None = None,
        scope: str | None = None,
        session_id: str | None = None,
        tool_name: str | None = None,
    ) -> ObservationState:
        """The state of a row from its columns as SQLite gives them (NULLs read as the plugin
        would never write them: empty text, revision 0)."""
        return cls(
            type=type_ or "",
            title=title or "",
            content=content or "",
            topic_key=topic_key,
            forgotten=deleted_at is not None,
            revision_count=int(revision or 0),
            project=project,
            scope=scope,
            session_id=session_id,
            tool_name=tool_name,
        )

    def digest(self) -> str:
        """A stable hash of what the row says (forgotten is kept beside it, so that a forget
        is told from a revision)."""
        return row_digest(self.type, self.title, self.content, self.topic_key, self.revision_count)


def row_digest(type_: str, title: str, content: str, topic_key: str | None, revision: int) -> str:
    """The hash of what an observation row says: the same for the person's writes
    (:meth:`ObservationState.digest`) and for the scans, which call it on plain columns."""
    topic = topic_key if topic_key is not None else "\x00"
    joined = f"{type_}\x1f{title}\x1f{content}\x1f{topic}\x1f{revision}"
    return hashlib.blake2b(joined.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


# The store kinds are the core's enum (memory_desk.core.kinds); these names stay for the
# journal's modules. Imported here, beside them, to keep the aliasing in one place.
from memory_desk.core.kinds import StoreKind  # noqa: E402

OBSERVATIONS = StoreKind.OBSERVATIONS
PERSONA = StoreKind.PERSONA
