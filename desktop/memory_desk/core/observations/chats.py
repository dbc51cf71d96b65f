"""Alisio's chats as its web tab shows them: every session, what it saved, its summary, the
context it started with, the person's prompts, and an observation's chronological neighbours.

A chat is a session id, wherever the plugin wrote one: ``memory_sessions`` holds a row only
for chats that recorded a prompt or a summary (``memory_save`` never creates one), so the list
is the union of the ids in ``memory_sessions``, ``observations``, ``user_prompts`` and
``injected_context``. Each listing is one set-based statement (a ``GROUP BY`` per source, the
observations' through their ``(session_id, created_at)`` index), never a query per chat: the
list must stay fast at 10,000 chats and 100,000 observations.

Everything here is pure ``SELECT`` through :meth:`ObservationStore.read`: the plugin's web tab
is read-only by contract and so is this (no access counter or timestamp moves because a person
looked). A database without ``memory_sessions``, ``user_prompts`` or ``injected_context`` (an
older plugin, a minimal file) is valid: what it lacks is answered empty, with the reason.

What a chat saved and an observation's timeline are read in :mod:`.chat_saved` (re-exported
here).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from memory_desk.core.jstext import JS_SPACE_RUNS_RE, js_trim, utf16_len, utf16_slice
from memory_desk.core.messages import msg
from memory_desk.core.observations import schema
from memory_desk.core.observations.chat_saved import (  # noqa: F401 (re-exported)
    Timeline,
    saved_in_chat,
    timeline,
)
from memory_desk.core.observations.search import escape_like
from memory_desk.core.observations.store import ObservationStore

# The excerpt shown in the list: whitespace collapsed, cut at this many UTF-16 units.
EXCERPT_UNITS = 200
# What is read of each summary for the excerpt (a summary may be 50,000 characters); enough
# for the excerpt unless the summary starts with hundreds of blank characters.
_EXCERPT_READ = 2 * EXCERPT_UNITS
# The plugin's session-summary sections, in its order.
SUMMARY_SECTIONS = (
    "Goal",
    "Instructions",
    "Discoveries",
    "Accomplished",
    "Next Steps",
    "Relevant Files",
)
_SECTION_NAMES = "|".join(re.escape(name) for name in SUMMARY_SECTIONS).replace(r"\ ", r"\s+")
# "## Goal", "**Goal**", "**Goal:**", "**Goal**:" alone on their line.
_SECTION_LINE = re.compile(
    rf"^[ \t]*(?:#{{1,6}}[ \t]+(?P<heading>{_SECTION_NAMES})[ \t]*:?[ \t]*#*"
    rf"|\*\*(?P<bold>{_SECTION_NAMES})[ \t]*:?[ \t]*\*\*[ \t]*:?)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class ChatRow:
    """One chat in the list. ``at`` is when it began as far as the database knows: its
    ``started_at``, else its ``ended_at``, else the first thing it recorded (an observation,
    a prompt, its loaded context); the list is newest ``at`` first."""

    id: str
    project: str
    directory: str | None
    started_at: int | None
    ended_at: int | None
    at: int | None
    saved: int  # live observations whose session_id is this chat
    summary_start: str  # the summary's first characters, as stored ("" without one)
    has_summary: bool
    has_context: bool

    @cached_property
    def summary_excerpt(self) -> str:
        """The summary's start on one line (:func:`excerpt`), made when first shown: the
        list holds thousands of chats and a view paints a few dozen. Markdown's heading
        and bold marks go (``## Goal`` reads ``Goal:``): one line has no room for them."""
        return excerpt(_MARKS.sub("", _HEADING.sub(r"\1:", self.summary_start)))


class ChatRows(list[ChatRow]):
    """The chats found, newest first; ``missing`` says which sources the database lacks
    (None when it has them all), so an empty list is never a mystery."""

    missing: str | None = None


@dataclass(frozen=True, slots=True)
class SummarySection:
    """One section of a session summary: its name as written ("" for text before the first
    heading) and its body, trimmed."""

    title: str
    body: str


@dataclass(frozen=True, slots=True)
class Prompt:
    """One of the person's prompts, as the plugin recorded it (capped at 2,000 characters)."""

    id: int
    created_at: int
    content: str


@dataclass(frozen=True)
class ChatDetail:
    """Everything the chat's three web-tab sections show, plus its prompts.

    ``summary`` is the whole stored text (None: no summary); ``sections`` are its Goal /
    Instructions / ... parts, empty when it has none of them (text only). ``context`` is the
    exact text the plugin injected at the start (None: not recorded, ``context_missing`` says
    why).
    """

    row: ChatRow
    summary: str | None
    sections: tuple[SummarySection, ...]
    context: str | None
    context_at: int | None
    context_missing: str | None
    prompts: tuple[Prompt, ...]
    prompts_missing: str | None = None

    @property
    def text_only(self) -> bool:
        """A summary without any of the plugin's section headings."""
        return self.summary is not None and not self.sections


# ----------------------------------------------------------------------------- the list


def list_chats(store: ObservationStore, *, text: str = "", project: str | None = None) -> ChatRows:
    """Every chat, newest first; ``text`` keeps those whose id, project, directory or summary
    hold every word of it, ``project`` those of that project.

    The text search folds case with SQLite's ``LIKE``, which folds ASCII letters only (``É``
    and ``é`` differ), as the plugin's own short-word searches do; words of any length match.
    """
    return store.read(msg("DatabaseAction", "read the chats"), _list_chats, text, project)


def chat_projects(store: ObservationStore) -> list[str]:
    """The projects that have at least one chat, sorted: the project filter's choices."""
    return store.read(msg("DatabaseAction", "read the chats"), _chat_projects)


def _tables(conn: sqlite3.Connection) -> frozenset[str]:
    return schema.usable_tables(conn)  # a plugin table without a column we read: as missing


def _missing_sources(tables: frozenset[str]) -> str | None:
    # injected_context is only schema 101's: without it the list is whole (the detail says so).
    absent = [name for name in ("memory_sessions", "user_prompts") if name not in tables]
    if not absent:
        return None
    return msg(
        "Chats",
        "This database has no {tables} table (an older or partial Alisio memory): chats are"
        " listed from what it has",
        tables=", ".join(absent),
    )


def _inner_sql(tables: frozenset[str], *, one: bool = False) -> str:
    """One row per chat id over the sources the database has, its columns named for the
    listing (``sid``, ``chat_project``, ... ``summary_text`` for the search). With ``one``,
    only the chat bound to ``:sid`` (each source read through its key, not in whole)."""
    chosen = "= :sid" if one else "IS NOT NULL"
    has_sessions = "memory_sessions" in tables
    has_prompts = "user_prompts" in tables
    has_context = "injected_context" in tables
    # Through the observations_session index: one pass, grouped by chat.
    ctes = [
        "obs AS (SELECT session_id, sum(deleted_at IS NULL) AS saved, min(created_at) AS first,"
        f" min(project) AS project FROM observations WHERE session_id {chosen}"
        " GROUP BY session_id)"
    ]
    ids = ["SELECT session_id AS sid FROM obs"]
    joins = ["LEFT JOIN obs ON obs.session_id = ids.sid"]
    firsts = ["obs.first"]
    projects = ["obs.project"]
    if has_prompts:
        ctes.append(
            "prm AS (SELECT session_id, min(created_at) AS first, min(project) AS project"
            f" FROM user_prompts WHERE session_id {chosen} GROUP BY session_id)"
        )
        ids.append("SELECT session_id FROM prm")
        joins.append("LEFT JOIN prm ON prm.session_id = ids.sid")
        firsts.append("prm.first")
        projects.append("prm.project")
    if has_context:
        ids.append(f"SELECT session_id FROM injected_context WHERE session_id {chosen}")
        joins.append("LEFT JOIN injected_context c ON c.session_id = ids.sid")
        firsts.append("c.created_at")
        projects.insert(0, "c.project")
    if has_sessions:
        ids.append(f"SELECT id FROM memory_sessions WHERE id {chosen}")
        joins.append("LEFT JOIN memory_sessions s ON s.id = ids.sid")
        projects.insert(0, "s.project")
    first = _earliest(firsts)
    started = "s.started_at" if has_sessions else "NULL"
    ended = "s.ended_at" if has_sessions else "NULL"
    summary = "s.summary" if has_sessions else "NULL"
    columns = (
        ("ids.sid", "sid"),
        (f"COALESCE({', '.join(projects)}, '')", "chat_project"),
        ("s.directory" if has_sessions else "NULL", "directory"),
        (started, "started_at"),
        (ended, "ended_at"),
        (f"COALESCE({started}, {ended}, {first})", "at"),
        ("COALESCE(obs.saved, 0)", "saved"),
        (f"substr({summary}, 1, {_EXCERPT_READ})", "excerpt"),
        (f"{summary} IS NOT NULL", "has_summary"),
        ("c.session_id IS NOT NULL" if has_context else "0", "has_context"),
        (summary, "summary_text"),
    )
    select = ", ".join(f"{expression} AS {name}" for expression, name in columns)
    return (
        "WITH "
        + ", ".join(ctes)
        + ", ids AS ("
        + " UNION ".join(ids)
        + f") SELECT {select} FROM ids "
        + " ".join(joins)
    )


def _earliest(values: list[str]) -> str:
    """The smallest non-NULL of these SQL values (SQLite's ``min(a, b)`` is NULL if any is):
    each argument falls back to the others, so only an all-NULL row gives NULL."""
    if len(values) == 1:
        return values[0]
    rotations = (values[i:] + values[:i] for i in range(len(values)))
    return "min(" + ", ".join(f"COALESCE({', '.join(r)})" for r in rotations) + ")"


_SEARCHED = ("sid", "chat_project", "directory", "summary_text")
_LISTED = (
    "sid, chat_project, directory, started_at, ended_at, at, saved, excerpt, has_summary,"
    " has_context"
)


def _list_chats(conn: sqlite3.Connection, text: str, project: str | None) -> ChatRows:
    tables = _tables(conn)
    result = ChatRows()
    result.missing = _missing_sources(tables)
    if "observations" not in tables:
        return result
    where: list[str] = []
    params: list[object] = []
    for word in JS_SPACE_RUNS_RE.split(js_trim(text)):
        if word:
            like = " OR ".join(f"COALESCE({c}, '') LIKE ? ESCAPE '\\'" for c in _SEARCHED)
            where.append(f"({like})")
            params.extend(["%" + escape_like(word) + "%"] * len(_SEARCHED))
    if project is not None:
        where.append("chat_project = ?")
        params.append(project)
    sql = f"SELECT {_LISTED} FROM ({_inner_sql(tables)})"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY at IS NULL, at DESC, sid DESC"
    result.extend(_chat_row(row) for row in conn.execute(sql, params).fetchall())
    return result


def _chat_row(row: Sequence[object]) -> ChatRow:
    sid, project, directory, started, ended, at, saved, summary, has_summary, has_context = row
    return ChatRow(
        id=str(sid),
        project=str(project or ""),
        directory=None if directory is None else str(directory),
        started_at=_int_or_none(started),
        ended_at=_int_or_none(ended),
        at=_int_or_none(at),
        saved=int(saved or 0),
        summary_start=summary if isinstance(summary, str) else "",
        has_summary=bool(has_summary),
        has_context=bool(has_context),
    )


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) else None


_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$", re.MULTILINE)
_MARKS = re.compile(r"\*\*|__")


def excerpt(text: str, units: int = EXCERPT_UNITS) -> str:
    """The start of ``text`` on one line: JavaScript whitespace runs become one space, and
    past ``units`` UTF-16 units it is cut and ends with ``…``."""
    flat = js_trim(JS_SPACE_RUNS_RE.sub(" ", text))
    if utf16_len(flat) <= units:
        return flat
    return js_trim(utf16_slice(flat, units)) + "…"


def _chat_projects(conn: sqlite3.Connection) -> list[str]:
    tables = _tables(conn)
    selects = []
    if "observations" in tables:
        selects.append("SELECT DISTINCT project FROM observations WHERE session_id IS NOT NULL")
    for table in ("memory_sessions", "user_prompts", "injected_context"):
        if table in tables:
            selects.append(f"SELECT DISTINCT project FROM {table}")
    if not selects:
        return []
    rows = conn.execute(" UNION ".join(selects)).fetchall()
    return sorted({row[0] for row in rows if isinstance(row[0], str)})


# ----------------------------------------------------------------------------- one chat


def chat_detail(store: ObservationStore, session_id: str) -> ChatDetail | None:
    """The chat's row, whole summary and its sections, loaded context (or why there is none)
    and prompts in the order typed; None when no source names this chat."""
    return store.read(
        msg("DatabaseAction", "read the chat"), _chat_detail, session_id, store.schema_versions
    )


def _chat_detail(
    conn: sqlite3.Connection, session_id: str, versions: frozenset[int]
) -> ChatDetail | None:
    tables = _tables(conn)
    rows = conn.execute(
        f"SELECT {_LISTED} FROM ({_inner_sql(tables, one=True)})", {"sid": session_id}
    ).fetchall()
    if not rows:
        return None
    row = _chat_row(rows[0])
    summary = None
    if "memory_sessions" in tables:
        found = conn.execute(
            "SELECT summary FROM memory_sessions WHERE id = ?", (session_id,)
        ).fetchall()
        summary = found[0][0] if found and isinstance(found[0][0], str) else None
    context, context_at, missing = _loaded_context(conn, tables, versions, session_id)
    prompts, prompts_missing = _prompts(conn, tables, session_id)
    return ChatDetail(
        row=row,
        summary=summary,
        sections=summary_sections(summary or ""),
        context=context,
        context_at=context_at,
        context_missing=missing,
        prompts=prompts,
        prompts_missing=prompts_missing,
    )


def _loaded_context(
    conn: sqlite3.Connection, tables: frozenset[str], versions: frozenset[int], session_id: str
) -> tuple[str | None, int | None, str | None]:
    """(text, when, None), or (None, None, why it is not recorded)."""
    if 101 not in versions or "injected_context" not in tables:
        return (
            None,
            None,
            msg(
                "Chats",
                "Not recorded: this database predates loaded-context records (schema 101);"
                " an Alisio update will record them for new chats",
            ),
        )
    found = conn.execute(
        "SELECT content, created_at FROM injected_context WHERE session_id = ?", (session_id,)
    ).fetchall()
    if not found or not isinstance(found[0][0], str):
        return (
            None,
            None,
            msg(
                "Chats",
                "Not recorded: this chat started before the plugin recorded loaded context,"
                " or the plugin injected nothing when it started",
            ),
        )
    return found[0][0], _int_or_none(found[0][1]), None


def _prompts(
    conn: sqlite3.Connection, tables: frozenset[str], session_id: str
) -> tuple[tuple[Prompt, ...], str | None]:
    if "user_prompts" not in tables:
        return (), msg("Chats", "This database has no user_prompts table: no prompts recorded")
    rows = conn.execute(
        "SELECT id, created_at, content FROM user_prompts WHERE session_id = ?"
        " ORDER BY created_at, id",
        (session_id,),
    ).fetchall()
    prompts = tuple(
        Prompt(int(i), _int_or_none(at) or 0, text if isinstance(text, str) else str(text or ""))
        for i, at, text in rows
    )
    return prompts, None


def summary_sections(summary: str) -> tuple[SummarySection, ...]:
    """The summary cut at the plugin's section headings (``## Goal`` or a ``**Goal**`` line);
    empty when it has none (text only). Text before the first heading is a section titled
    ""."""
    marks = list(_SECTION_LINE.finditer(summary))
    if not marks:
        return ()
    sections: list[SummarySection] = []
    lead = js_trim(summary[: marks[0].start()])
    if lead:
        sections.append(SummarySection("", lead))
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(summary)
        title = " ".join((mark.group("heading") or mark.group("bold")).split())
        sections.append(SummarySection(title, js_trim(summary[mark.end() : end])))
    return tuple(sections)
