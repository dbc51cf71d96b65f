"""The demo's Alisio database: eight weeks of agent activity, played through the plugin's
own writes (:mod:`memory_desk.core.alisio`) in time order."""

from __future__ import annotations

import heapq
import random
import re
import sqlite3
import uuid
from dataclasses import dataclass, field

from memory_desk.core.alisio import redact, save_observation
from memory_desk.core.observations.context_layout import SummaryPart, render
from memory_desk.core.observations.next_context import plugin_parts
from memory_desk.demo.data import (
    DAY,
    DEMO_BUDGET_TOKENS,
    GOALS,
    HISTORY_DAYS,
    HOUR,
    INJECTED_CONTEXT_SINCE,
    MINUTE,
    PERSONAL,
    PROJECTS,
    PROMPTS,
    SECRETS,
    TEMPLATES,
    UPDATES,
    Project,
)

_PLACEHOLDER_RE = re.compile(r"\{\w+\}")


@dataclass
class _Session:
    id: str
    project: Project
    started_at: int
    ended_at: int | None
    components: list[tuple[str, str]]
    goal: str
    has_summary: bool
    saved: list[tuple[str, str]] = field(default_factory=list)  # (type, title) in order


@dataclass(order=True)
class _Event:
    at: int
    order: int
    action: str = field(compare=False)
    payload: dict = field(compare=False, default_factory=dict)


class History:
    """Plans eight weeks of agent activity, then plays it in time order through the plugin."""

    def __init__(self, conn: sqlite3.Connection, rng: random.Random, end_ms: int) -> None:
        self.conn = conn
        self.rng = rng
        self.end_ms = end_ms
        self.start_ms = end_ms - HISTORY_DAYS * DAY
        self.events: list[_Event] = []
        self.sessions: list[_Session] = []
        self._order = 0

    def write(self) -> None:
        self._plan_sessions()
        self._plan_project_observations()
        self._plan_personal_observations()
        self._plan_revisions_and_duplicates()
        self._plan_capped_log()
        self._plan_prompts_and_context()
        heapq.heapify(self.events)
        while self.events:
            event = heapq.heappop(self.events)
            getattr(self, f"_do_{event.action}")(event.at, **event.payload)
        self._write_sessions()
        self._mark_reads_and_hard_forgets()

    # planning --------------------------------------------------------------------------

    def _add(self, at: int, action: str, **payload: object) -> None:
        self._order += 1
        heapq.heappush(self.events, _Event(at, self._order, action, payload))

    def _plan_save(
        self,
        at: int,
        session: _Session,
        title: str,
        content: str,
        type_: str,
        *,
        scope: str = "project",
        topic_key: str | None = None,
        tool: str = "memory_save",
    ) -> None:
        """A memory_save (or compaction) the agent makes in ``session``'s project."""
        self._add(
            at,
            "save",
            title=title,
            content=content,
            type=type_,
            project=session.project.id,
            scope=scope,
            topic_key=topic_key,
            session=session,
            tool_name=tool,
        )

    def _uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _plan_sessions(self) -> None:
        for project in PROJECTS:
            for _ in range(14):
                day = self.rng.randrange(HISTORY_DAYS)
                start = self.start_ms + day * DAY + self.rng.randrange(8 * HOUR, 19 * HOUR)
                start -= start % MINUTE
                length = self.rng.randrange(20, 180) * MINUTE
                components = self.rng.sample(list(project.components), 3)
                goal = self._fill(self.rng.choice(GOALS), project, components[0])
                self.sessions.append(
                    _Session(
                        self._uuid(),
                        project,
                        start,
                        start + length,
                        components,
                        goal,
                        has_summary=self.rng.random() < 0.85,
                    )
                )
        self.sessions.sort(key=lambda session: session.started_at)
        newest = self.sessions[-1]
        newest.ended_at = None  # a chat still open: no end, no summary yet
        newest.has_summary = False

    def _fill(self, text: str, project: Project, component: tuple[str, str]) -> str:
        return text.format(
            comp=component[0],
            file=component[1],
            lib=self.rng.choice(project.libraries),
            cmd=self.rng.choice(project.commands),
            var=self.rng.choice(project.variables),
            n=self.rng.choice((3, 4, 5, 8, 12, 20, 40, 90, 140, 250)),
        )

    def _session_for(self, project: Project) -> _Session:
        return self.rng.choice([s for s in self.sessions if s.project is project])

    def _time_in(self, session: _Session) -> int:
        end = session.ended_at or min(session.started_at + 2 * HOUR, self.end_ms)
        return self.rng.randrange(session.started_at + MINUTE, end)

    def _plan_project_observations(self) -> None:
        for project in PROJECTS:
            for template in TEMPLATES:
                for component in self.rng.sample(list(project.components), 4):
                    self._plan_template(project, template, component)

    def _plan_template(self, project: Project, template: tuple, component: tuple[str, str]) -> None:
        type_, title, what, why, learned, family = template
        session = self._session_for(project)
        body_parts = [what, why, f"`{component[1]}`", learned]
        if self.rng.random() < 0.04:
            body_parts[1] += " Note: " + self.rng.choice(SECRETS) + "."
        content = _body(*(self._fill(part, project, component) for part in body_parts))
        title_text = self._fill(title, project, component)
        title_text = title_text[0].upper() + title_text[1:]
        topic_key = None
        if family and self.rng.random() < 0.6:
            slug = "-".join(_kebab(_PLACEHOLDER_RE.sub("", title)).split("-")[:4])
            topic_key = f"{family}/{_kebab(component[0])}-{slug}"
        tool = self.rng.choices(("memory_save", "compaction", "session_summary"), (8, 2, 1))[0]
        at = self._time_in(session)
        self._plan_save(at, session, title_text, content, type_, topic_key=topic_key, tool=tool)
        if topic_key and self.rng.random() < 0.2:
            self._plan_topic_updates(project, at, title_text, content, type_, topic_key)

    def _plan_topic_updates(
        self, project: Project, at: int, title: str, content: str, type_: str, topic_key: str
    ) -> None:
        """The same topic saved again in later chats: the plugin revises the row in place."""
        later = [s for s in self.sessions if s.project is project and s.started_at > at]
        for number, session in enumerate(self.rng.sample(later, min(len(later), 3)), start=1):
            note = self.rng.choice(UPDATES)
            content = content.replace("\n**Why**", f" Update {number}: {note}\n**Why**", 1)
            if self.rng.random() < 0.3:
                title = f"{title} (revised)" if "(revised)" not in title else title
            self._plan_save(
                self._time_in(session), session, title, content, type_, topic_key=topic_key
            )

    def _plan_personal_observations(self) -> None:
        for type_, title, what, why, learned in PERSONAL:
            session = self.rng.choice(self.sessions)
            content = _body(what, why, "(about Ana, any project)", learned)
            self._plan_save(
                self._time_in(session), session, title, content, type_, scope="personal"
            )

    def _plan_revisions_and_duplicates(self) -> None:
        """Topic keys saved again days later (revisions) and saves repeated within minutes."""
        for project in PROJECTS:
            component = project.components[0]
            topic = f"config/{_kebab(component[0])}-ci-matrix"
            sessions = sorted(
                self.rng.sample([s for s in self.sessions if s.project is project], 4),
                key=lambda s: s.started_at,
            )
            for version, session in zip(project.ci_targets, sessions, strict=True):
                content = _body(
                    f"CI tests {component[0]} on {version}.",
                    "Matches what production and the oldest supported install run.",
                    ".github/workflows/ci.yml",
                    "Drop a version only after production has.",
                )
                title = f"CI matrix for {component[0]}"
                at = self._time_in(session)
                self._plan_save(at, session, title, content, "config", topic_key=topic)
        for _ in range(12):
            session = self.rng.choice(self.sessions[:-1])
            project = session.project
            component = self.rng.choice(project.components)
            at = self._time_in(session)
            title = f"Retry budget for {component[0]}"
            content = _body(
                f"{component[0]} gives up after 3 attempts.",
                "More attempts only delayed the error the person sees.",
                f"`{component[1]}`",
                "A retry budget belongs next to the call it limits.",
            )
            for repeat in range(self.rng.randrange(2, 4)):
                repeat_at = at + repeat * self.rng.randrange(1, 6) * MINUTE
                self._plan_save(repeat_at, session, title, content, "decision")

    def _plan_capped_log(self) -> None:
        """One body over the plugin's 50,000-character cap, stored with ``... [truncated]``."""
        session = self._session_for(PROJECTS[0])
        lines = [
            f"tests/test_checkout.py::test_total[{i}] {'PASSED' if i % 97 else 'FAILED'}"
            for i in range(1200)
        ]
        content = _body(
            "The whole log of the failing run, kept for comparison.",
            "The failure only happens on CI.",
            "CI job 4812",
            "\n".join(lines),
        )
        title = "Full pytest log of the flaky checkout run"
        at = self._time_in(session)
        self._plan_save(at, session, title, content, "discovery", tool="compaction")

    def _plan_prompts_and_context(self) -> None:
        for session in self.sessions:
            for _ in range(self.rng.randrange(2, 6)):
                text = self._fill(
                    self.rng.choice(PROMPTS), session.project, self.rng.choice(session.components)
                )
                self._add(self._time_in(session), "prompt", session=session, text=text)
            if session.started_at >= INJECTED_CONTEXT_SINCE:
                self._add(session.started_at, "context", session=session)

    # playing ---------------------------------------------------------------------------

    def _do_save(self, at: int, *, session: _Session, **fields: object) -> None:
        result = save_observation(self.conn, session_id=session.id, now=at, **fields)  # type: ignore[arg-type]
        session.saved.append((str(fields["type"]), str(fields["title"])))
        if result.action != "created":
            return
        # Later in the history the person pins some rows and forgets others.
        roll = self.rng.random()
        if roll < 0.045:
            self._add(self._later(at), "pin", row_id=result.id)
        elif roll < 0.13:
            self._add(self._later(at), "forget", row_id=result.id)

    def _later(self, at: int) -> int:
        return self.rng.randrange(at + MINUTE, max(at + 2 * MINUTE, self.end_ms))

    def _do_pin(self, at: int, *, row_id: int) -> None:
        self.conn.execute("UPDATE observations SET pinned = 1 WHERE id = ?", (row_id,))

    def _do_forget(self, at: int, *, row_id: int) -> None:
        self.conn.execute(
            "UPDATE observations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
            (max(at, self._updated_at(row_id) + MINUTE), row_id),
        )

    def _do_prompt(self, at: int, *, session: _Session, text: str) -> None:
        self.conn.execute(
            "INSERT INTO user_prompts (session_id, content, project, created_at) VALUES (?,?,?,?)",
            (session.id, redact(text)[:2000], session.project.id, at),
        )

    def _do_context(self, at: int, *, session: _Session) -> None:
        """The block the plugin injected at chat start, from what the database held then,
        laid out by the plugin's own renderer (``context_layout``) within the demo config's
        budget."""
        project = session.project.id
        _none, prompts, pinned, recent = plugin_parts(self.conn, project)
        shown = render(
            project,
            self._summary_before(session.project, at),
            prompts,
            pinned,
            recent,
            DEMO_BUDGET_TOKENS,
            session=session.id,
        )
        self.conn.execute(
            "INSERT INTO injected_context (session_id, project, content, created_at)"
            " VALUES (?,?,?,?)",
            (session.id, project, shown.text[:80_000], at),
        )

    def _summary_before(self, project: Project, at: int) -> SummaryPart | None:
        """The project's last summary at ``at`` (the demo writes memory_sessions at the end,
        so the summaries are taken from the sessions that had ended by then)."""
        ended = [
            s
            for s in self.sessions
            if s.project is project and s.has_summary and s.ended_at is not None and s.ended_at < at
        ]
        if not ended:
            return None
        last = max(ended, key=lambda s: s.ended_at or 0)
        return SummaryPart(last.id, last.ended_at, self._summary(last), True, False)

    def _write_sessions(self) -> None:
        for session in self.sessions:
            summary = self._summary(session) if session.has_summary else None
            self.conn.execute(
                "INSERT INTO memory_sessions (id, project, directory, started_at, ended_at,"
                " summary) VALUES (?,?,?,?,?,?)",
                (
                    session.id,
                    session.project.id,
                    session.project.directory,
                    session.started_at,
                    session.ended_at,
                    summary,
                ),
            )

    def _summary(self, session: _Session) -> str:
        discoveries = [t for kind, t in session.saved if kind in ("discovery", "learning")]
        done = [t for kind, t in session.saved if kind not in ("discovery", "learning")]
        files = sorted({file for _, file in session.components})
        return "\n".join(
            [
                "## Goal",
                session.goal,
                "",
                "## Instructions",
                "- Keep changes small and run the tests before committing.",
                "- Ask before touching the public API.",
                "",
                "## Discoveries",
                *([f"- {t}" for t in discoveries[:4]] or ["- Nothing new."]),
                "",
                "## Accomplished",
                *([f"- {t}" for t in done[:5]] or ["- Investigation only."]),
                "",
                "## Next Steps",
                f"- Follow up on {session.components[1][0]}.",
                f"- Check {session.components[2][0]} after the next deploy.",
                "",
                "## Relevant Files",
                *[f"- `{file}`" for file in files],
            ]
        )

    def _mark_reads_and_hard_forgets(self) -> None:
        """Rows the agent opened (memory_get counts them) and two forgotten for good."""
        ids = [row[0] for row in self.conn.execute("SELECT id FROM observations ORDER BY id")]
        self.conn.execute("BEGIN")
        for row_id in self.rng.sample(ids, len(ids) // 3):
            read_at = self.rng.randrange(self._updated_at(row_id) + MINUTE, self.end_ms + MINUTE)
            self.conn.execute(
                "UPDATE observations SET access_count = ?, last_accessed_at = ? WHERE id = ?",
                (self.rng.randrange(1, 13), read_at, row_id),
            )
        unpinned = [
            row[0]
            for row in self.conn.execute(
                "SELECT id FROM observations WHERE pinned = 0 AND deleted_at IS NULL ORDER BY id"
            )
        ]
        for row_id in self.rng.sample(unpinned, 2):
            self.conn.execute("DELETE FROM observations WHERE id = ?", (row_id,))
        self.conn.execute("COMMIT")

    def _updated_at(self, row_id: int) -> int:
        return self.conn.execute(
            "SELECT updated_at FROM observations WHERE id = ?", (row_id,)
        ).fetchone()[0]


def _body(what: str, why: str, where: str, learned: str) -> str:
    return f"**What**: {what}\n**Why**: {why}\n**Where**: {where}\n**Learned**: {learned}"


def _kebab(text: str) -> str:
    words = "".join(ch if ch.isalnum() else " " for ch in text.lower()).split()
    return "-".join(words)
