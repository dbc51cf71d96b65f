"""What the next chat will be told: the memory context the plugin injects when a chat of a
project starts, built from the database as it is now, beside the last one it recorded.

At a chat's start the plugin's ``memoryContextText`` (``tools.ts``) returns the block, and since
schema 101 it records that text in ``injected_context``. This module builds it the plugin's way
(FORMATS.md, "What a chat is told at its start"), so a person sees what a pin or a forget changes:

- **The parts**: the plugin's own queries (``store.ts``) with the glue's counts: ``lastSummary``,
  ``pinned(project, 10)``, ``recent(project, 20)`` (live rows of the project plus personal rows)
  and ``recentPrompts(project, 5)``, each row as its ``hit`` snippet.
- **Nothing at all** when the four are empty: no header, no block, the text is ``""``.
- **The layout and the budget**: ``renderMemoryContext`` (``format.ts``), in :mod:`.context_layout`.
- The chat's id is not known before it starts: the session line shows a stand-in of the same
  length (``NEXT_SESSION_STAND_IN``). Tokens are the plugin's own estimate, characters / 4.

:func:`compare` names the observations the next chat would gain or lose against the recorded
text (found there by ``#id``, else by exact title), with the reason. Everything is pure
``SELECT`` through :meth:`ObservationStore.read`. Pure Python, no Qt.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from memory_desk.core.locate import locate_alisio
from memory_desk.core.messages import Msg, msg
from memory_desk.core.observations.context_layout import (
    PINNED,
    RECENT,
    Candidate,
    NextContext,
    PromptPart,
    SummaryPart,
    render,
    snippet,
)

# a plugin table without a column read here counts as missing
from memory_desk.core.observations.schema import usable_tables as _tables
from memory_desk.core.observations.store import ObservationStore

# The plugin's ``injectBudgetTokens`` default and range (``config.ts``).
DEFAULT_BUDGET_TOKENS = 1500
MIN_BUDGET_TOKENS = 100
MAX_BUDGET_TOKENS = 20_000
# How many rows the session-start glue (``memoryContextText``) asks for.
PINNED_LIMIT = 10
RECENT_LIMIT = 20
PROMPT_LIMIT = 5
# Where a row of the plugin's block stands (``memoryLine``): "- #12 [type] **Title**: ...".
_MEMORY_LINE = re.compile(
    r"^- #(?P<id>\d+) \[[^\]\n]*\] \*\*(?P<title>[^\n]*?)\*\*(?=: |$)", re.MULTILINE
)
_SECTION_HEADING = re.compile(r"^### (?P<name>[^\n]+)$", re.MULTILINE)

# Where the budget came from (:class:`Budget`).
BUDGET_CONFIGURED = "configured"  # Alisio's config sets injectBudgetTokens
BUDGET_DEFAULT = "default"  # the located database, the config does not set it
BUDGET_NOT_LOCATED = "not located"  # a database Alisio's config does not point to

# Why an observation would be gained or lost (:class:`Change`).
ADDED = "added"
REMOVED = "removed"
REASON_PINNED = "pinned"
REASON_SAVED_SINCE = "saved since"
REASON_MADE_ROOM = "made room"
REASON_FORGOTTEN = "forgotten"
REASON_DELETED = "deleted"
REASON_NOT_VISIBLE = "not visible"
REASON_UNPINNED = "unpinned"
REASON_NO_ROOM = "no room"
REASON_PUSHED_OUT = "pushed out"


@dataclass(frozen=True, slots=True)
class Budget:
    """The budget the block is laid out in, and where it came from (``BUDGET_*``).

    ``plugin_off`` is True when Alisio's config turns the memory plugin off: the next chat is
    then told nothing from this database.
    """

    tokens: int
    source: str
    plugin_off: bool = False


@dataclass(frozen=True, slots=True)
class Mentioned:
    """An observation row of a recorded context, as the database holds it now.

    ``section`` is the block's section it stood in (PINNED, RECENT, or "" elsewhere); ``title``
    is the title written there. ``exists`` is False when the row was deleted for good; the other
    fields then keep what the text said.
    """

    id: int
    section: str
    title: str
    exists: bool = False
    project: str = ""
    scope: str = ""
    pinned: bool = False
    forgotten: bool = False


@dataclass(frozen=True, slots=True)
class RecordedContext:
    """The newest ``injected_context`` row of a project: the exact text a chat started with."""

    session_id: str
    project: str
    content: str
    created_at: int
    mentioned: tuple[Mentioned, ...]


@dataclass(frozen=True, slots=True)
class NotRecorded:
    """No recorded context to show, and why (a message for the person)."""

    reason: Msg


@dataclass(frozen=True, slots=True)
class Change:
    """An observation the next chat would gain (ADDED) or lose (REMOVED), and why (REASON_*)."""

    kind: str
    id: int
    title: str
    reason: str


@dataclass(frozen=True, slots=True)
class Preview:
    """Everything the panel shows for one project, read in one go off the main thread."""

    budget: Budget
    next: NextContext
    recorded: RecordedContext | NotRecorded
    changes: tuple[Change, ...]


# -- the public calls ----------------------------------------------------------------------


def budget_for(
    store_path: str | os.PathLike[str],
    env: Mapping[str, str] = os.environ,
    home: Path | None = None,
) -> Budget:
    """The ``injectBudgetTokens`` the plugin uses for this database.

    Only the database Alisio's config points to is the plugin's: its configured budget (or the
    plugin's default when the config does not set one) applies. Any other file gets the
    default, and the source says so. Reads the config; never raises.
    """
    location = locate_alisio(env, home)
    if not _same_file(Path(store_path), location.db_path):
        return Budget(DEFAULT_BUDGET_TOKENS, BUDGET_NOT_LOCATED)
    tokens = location.settings.get("injectBudgetTokens", DEFAULT_BUDGET_TOKENS)
    source = BUDGET_CONFIGURED if "injectBudgetTokens" in location.configured else BUDGET_DEFAULT
    return Budget(int(tokens), source, plugin_off=not location.enabled)


def estimate_next_context(
    store: ObservationStore, project: str, *, budget_tokens: int = DEFAULT_BUDGET_TOKENS
) -> NextContext:
    """The block the plugin injects if a chat of ``project`` starts now: its
    ``memoryContextText`` but for the new chat's id (``NEXT_SESSION_STAND_IN``), and ``""``
    when the plugin injects nothing (no summary, prompt or visible row: ``told_nothing``).

    Raises ``ValueError`` for a budget outside the plugin's range (its config refuses it).
    """
    if not MIN_BUDGET_TOKENS <= budget_tokens <= MAX_BUDGET_TOKENS:
        raise ValueError(f"injectBudgetTokens must be 100..20000, not {budget_tokens}")
    summary, prompts, pinned, recent = store.read(
        msg("DatabaseAction", "read what the next chat will be told"), plugin_parts, project
    )
    if summary is None and not prompts and not pinned and not recent:
        return NextContext(project, budget_tokens, "", None, (), ())
    return render(project, summary, prompts, pinned, recent, budget_tokens)


def last_recorded_context(store: ObservationStore, project: str) -> RecordedContext | NotRecorded:
    """The newest context the plugin recorded for a chat of ``project``, or why there is none."""
    return store.read(
        msg("DatabaseAction", "read the last recorded context"), _last_recorded, project
    )


def compare(
    next_context: NextContext, recorded: RecordedContext | NotRecorded
) -> tuple[Change, ...]:
    """What the next chat would gain and lose against the recorded context, and why.

    An observation counts as in the recorded text when its ``#id`` row is there or, failing
    that, its exact title is. Gains first (in the block's order), then losses.
    """
    if isinstance(recorded, NotRecorded):
        return ()
    before = {m.id for m in recorded.mentioned}
    gained = [
        Change(ADDED, c.id, c.title, _why_added(c, recorded))
        for c in next_context.included
        if c.id not in before and not (c.title and c.title in recorded.content)
    ]
    now_in = {c.id for c in next_context.included}
    candidates = {c.id: c for c in next_context.observations}
    lost = [
        Change(REMOVED, m.id, m.title, _why_removed(m, next_context.project, candidates))
        for m in recorded.mentioned
        if m.id not in now_in
    ]
    return (*gained, *lost)


def budget_from_settings(settings: Mapping[str, object]) -> Budget:
    """The budget from what the window read of the source's Alisio config (a found
    database's, or the demo's own): its ``enabled``, ``settings`` and ``configured``."""
    tokens = dict(settings.get("settings") or {}).get("injectBudgetTokens", DEFAULT_BUDGET_TOKENS)
    configured = "injectBudgetTokens" in (settings.get("configured") or ())
    source = BUDGET_CONFIGURED if configured else BUDGET_DEFAULT
    return Budget(int(tokens), source, plugin_off=settings.get("enabled") is False)


def preview(
    store: ObservationStore,
    project: str,
    env: Mapping[str, str] = os.environ,
    home: Path | None = None,
    *,
    budget: Budget | None = None,
) -> Preview:
    """The budget (``budget``, else read from Alisio's config), the next context, the last
    recorded context and the changes, for the panel."""
    budget = budget or budget_for(store.path, env, home)
    upcoming = estimate_next_context(store, project, budget_tokens=budget.tokens)
    recorded = last_recorded_context(store, project)
    return Preview(budget, upcoming, recorded, compare(upcoming, recorded))


# -- reading the parts (the plugin's queries, store.ts) ------------------------------------

_VISIBLE = "o.deleted_at IS NULL AND (o.project=? OR o.scope='personal')"
_HIT_COLUMNS = "o.id, o.type, o.title, o.content, o.scope, o.project, o.pinned, o.updated_at"


def plugin_parts(
    conn: sqlite3.Connection, project: str
) -> tuple[SummaryPart | None, list[PromptPart], list[Candidate], list[Candidate]]:
    """What the plugin's session start draws from, with its own queries: the project's last
    summary, recent prompts, pinned and recent rows visible from the project (the demo
    records its chats' loaded context from these too)."""
    tables = _tables(conn)
    summary = []
    if "memory_sessions" in tables:  # the plugin always has it; a minimal file may not
        summary = conn.execute(
            "SELECT id, project, summary, ended_at FROM memory_sessions"
            " WHERE project=? AND summary IS NOT NULL ORDER BY ended_at DESC LIMIT 1",
            (project,),
        ).fetchall()
    prompts = []
    if "user_prompts" in tables:
        prompts = conn.execute(
            "SELECT session_id, content, created_at FROM user_prompts WHERE project=?"
            " ORDER BY created_at DESC, id DESC LIMIT ?",
            (project, PROMPT_LIMIT),
        ).fetchall()
    pinned = conn.execute(
        f"SELECT {_HIT_COLUMNS} FROM observations o WHERE {_VISIBLE} AND pinned=1"
        " ORDER BY updated_at DESC LIMIT ?",
        (project, PINNED_LIMIT),
    ).fetchall()
    recent = conn.execute(
        f"SELECT {_HIT_COLUMNS} FROM observations o WHERE {_VISIBLE}"
        " ORDER BY updated_at DESC, id DESC LIMIT ?",
        (project, RECENT_LIMIT),
    ).fetchall()
    last = None
    if summary:
        session_id, _project, content, ended_at = summary[0]
        last = SummaryPart(_text(session_id), _int_or_none(ended_at), _text(content), True, False)
    return (
        last,
        [PromptPart(_text_or_none(s), _text(c), _int_or_none(t), True) for s, c, t in prompts],
        [_candidate(row, PINNED) for row in pinned],
        [_candidate(row, RECENT) for row in recent],
    )


def _candidate(row: Sequence, section: str) -> Candidate:
    """The plugin's ``hit``: the snippet is the content with whitespace runs collapsed."""
    id_, type_, title, content, scope, project, pinned, updated_at = row
    return Candidate(
        id=int(id_),
        type=_text(type_),
        title=_text(title),
        snippet=snippet(_text(content)),
        scope=_text(scope),
        project=_text(project),
        pinned=bool(pinned),
        updated_at=_int_or_none(updated_at) or 0,
        section=section,
    )


def _text(value: object) -> str:
    """A column as the plugin's JavaScript would print it (NULL as "", numbers as digits)."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _text_or_none(value: object) -> str | None:
    return None if value is None else _text(value)


def _int_or_none(value: object) -> int | None:
    return int(value) if isinstance(value, (int, float)) else None


# -- the recorded context ------------------------------------------------------------------


def _last_recorded(conn: sqlite3.Connection, project: str) -> RecordedContext | NotRecorded:
    if "injected_context" not in _tables(conn):
        return NotRecorded(
            msg(
                "NextContext",
                "this database has no injected_context table (schema 101): the plugin that"
                " wrote it did not record what it told a chat at its start",
            )
        )
    rows = conn.execute(
        "SELECT session_id, project, content, created_at FROM injected_context WHERE project=?"
        " ORDER BY created_at DESC, rowid DESC LIMIT 1",
        (project,),
    ).fetchall()
    if not rows:
        return NotRecorded(
            msg(
                "NextContext",
                "no chat of this project has a recorded context yet (chats that started"
                " before the plugin recorded it have none)",
            )
        )
    session_id, row_project, content, created_at = rows[0]
    text = _text(content)
    return RecordedContext(
        session_id=_text(session_id),
        project=_text(row_project),
        content=text,
        created_at=_int_or_none(created_at) or 0,
        mentioned=_look_up(conn, _mentions(text)),
    )


def _mentions(text: str) -> list[Mentioned]:
    """The observation rows of a recorded block, with the section each stood in."""
    headings = [(m.start(), m.group("name").strip()) for m in _SECTION_HEADING.finditer(text)]
    found: dict[int, Mentioned] = {}
    for match in _MEMORY_LINE.finditer(text):
        section = ""
        for start, name in headings:
            if start > match.start():
                break
            section = {"Pinned": PINNED, "Recent Observations": RECENT}.get(name, "")
        row_id = int(match.group("id"))
        found.setdefault(row_id, Mentioned(row_id, section, match.group("title")))
    return list(found.values())


def _look_up(conn: sqlite3.Connection, mentioned: list[Mentioned]) -> tuple[Mentioned, ...]:
    """Each mentioned row as the database holds it now (forgotten, deleted, moved...)."""
    if not mentioned:
        return ()
    ids = [m.id for m in mentioned]
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT id, title, project, scope, pinned, deleted_at FROM observations"
        f" WHERE id IN ({marks})",
        ids,
    ).fetchall()
    now = {int(row[0]): row for row in rows}
    looked: list[Mentioned] = []
    for m in mentioned:
        row = now.get(m.id)
        if row is None:
            looked.append(m)
            continue
        _id, title, project, scope, pinned, deleted_at = row
        looked.append(
            replace(
                m,
                title=_text(title) or m.title,
                exists=True,
                project=_text(project),
                scope=_text(scope),
                pinned=bool(pinned),
                forgotten=deleted_at is not None,
            )
        )
    return tuple(looked)


# -- why a row comes or goes -----------------------------------------------------------------


def _why_added(c: Candidate, recorded: RecordedContext) -> str:
    if c.section == PINNED:
        return REASON_PINNED
    if c.updated_at > recorded.created_at:
        return REASON_SAVED_SINCE
    return REASON_MADE_ROOM


def _why_removed(m: Mentioned, project: str, candidates: Mapping[int, Candidate]) -> str:
    if not m.exists:
        return REASON_DELETED
    if m.forgotten:
        return REASON_FORGOTTEN
    if m.project != project and m.scope != "personal":
        return REASON_NOT_VISIBLE
    if m.section == PINNED and not m.pinned:
        return REASON_UNPINNED
    if m.id in candidates:
        return REASON_NO_ROOM
    return REASON_PUSHED_OUT


def _same_file(first: Path, second: Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return first.expanduser().absolute() == second.expanduser().absolute()
