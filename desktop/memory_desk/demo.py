"""A realistic, reproducible set of agent memories to try Memory Desk on.

``memory-desk --demo`` (and ``--self-test``, and the tests) need stores that look like
a few weeks of real use, not a handful of rows: a person judges the app by how it
handles the messy cases, so the demo has them all. :func:`build_demo` writes, in a
folder of the caller's choosing (laid out as a fake home, so :mod:`memory_desk.core.locate`
finds everything in it too):

- ``home/.local/state/alisio/memory.sqlite`` built the way Alisio's plugin builds it
  (:mod:`memory_desk.core.alisio`): a few hundred observations across three projects and
  both scopes, all eight types, pins, forgotten and hard-deleted rows, topic revisions,
  duplicates, ``<private>`` parts redacted, a capped body, sessions with summaries, the
  person's prompts and the context injected at each chat start (schema 101);
- ``home/.config/alisio/config.json`` with non-default plugin settings;
- two agents' persona folders (``.miyagi/memory``, ``.padawan/memory`` and an account
  subfolder) written byte for byte as agent-kit writes them, plus every kind of file
  an agent would not read as it expects (FORMATS.md, part B).

Everything is derived from one seeded random generator and a fixed end date, so two
builds are identical row for row and byte for byte.
"""

from __future__ import annotations

import heapq
import json
import random
import re
import sqlite3
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from memory_desk.core.alisio import (
    connect_like_plugin,
    create_database,
    redact,
    save_observation,
)
from memory_desk.core.observations.context_layout import SummaryPart, render
from memory_desk.core.observations.next_context import plugin_parts

SEED = 20261127
# 2026-11-27T17:40:00Z: the demo's "now"; the history runs over the eight weeks before.
END_MS = 1_795_801_200_000
MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
HISTORY_DAYS = 56
_PLACEHOLDER_RE = re.compile(r"\{\w+\}")
# Sessions started after this day got "Loaded context" rows (plugin upgraded to schema 101).
INJECTED_CONTEXT_SINCE = END_MS - 24 * DAY
DEMO_BUDGET_TOKENS = 2400  # the demo config's injectBudgetTokens (not the default 1500)


@dataclass(frozen=True)
class Demo:
    """What :func:`build_demo` made: the database, the persona folders, the fake home."""

    folder: Path
    home: Path
    db_path: Path
    config_path: Path
    persona_folders: list[Path] = field(default_factory=list)


@dataclass(frozen=True)
class Project:
    """One of the person's code projects, as the plugin names it (``project_id``)."""

    id: str
    directory: str
    components: tuple[tuple[str, str], ...]  # (component, a file it lives in)
    libraries: tuple[str, ...]
    commands: tuple[str, ...]
    variables: tuple[str, ...]
    ci_targets: tuple[str, ...]  # what CI tested, successive versions of one topic


# Ids computed with memory_desk.core.alisio.project_id on these directories (fixed here so
# the demo does not depend on how this machine resolves /home).
PROJECTS: tuple[Project, ...] = (
    Project(
        id="shop-api-12307d9a",
        directory="/home/ana/src/shop-api",
        components=(
            ("checkout", "src/shop/checkout/service.py"),
            ("cart", "src/shop/cart/models.py"),
            ("payment webhooks", "src/shop/payments/webhooks.py"),
            ("order export", "src/shop/orders/export.py"),
            ("inventory sync", "src/shop/inventory/sync.py"),
            ("auth middleware", "src/shop/http/auth.py"),
            ("price rules", "src/shop/pricing/rules.py"),
            ("email receipts", "src/shop/notify/receipts.py"),
            ("search endpoint", "src/shop/catalog/search.py"),
            ("migrations", "migrations/versions/"),
        ),
        libraries=("FastAPI", "SQLAlchemy", "Alembic", "pydantic", "httpx", "Celery"),
        commands=("make test", "alembic upgrade head", "uv run pytest -x", "docker compose up db"),
        variables=("DATABASE_URL", "STRIPE_WEBHOOK_SECRET", "SHOP_CURRENCY", "CELERY_BROKER_URL"),
        ci_targets=(
            "Python 3.11",
            "Python 3.11 and 3.12",
            "Python 3.11, 3.12 and 3.13",
            "Python 3.12 and 3.13",
        ),
    ),
    Project(
        id="garden-planner-bbd98ac3",
        directory="/home/ana/src/garden-planner",
        components=(
            ("bed editor", "web/src/beds/BedEditor.tsx"),
            ("planting calendar", "web/src/calendar/PlantingCalendar.tsx"),
            ("frost dates", "web/src/climate/frostDates.ts"),
            ("plant catalogue", "web/src/catalog/plants.json"),
            ("companion rules", "web/src/rules/companions.ts"),
            ("offline storage", "web/src/storage/idb.ts"),
            ("share links", "web/src/share/encode.ts"),
            ("print layout", "web/src/print/PrintView.tsx"),
            ("service worker", "web/public/sw.js"),
        ),
        libraries=("React", "Vite", "Zustand", "date-fns", "Vitest", "Playwright"),
        commands=("pnpm test", "pnpm build", "pnpm exec playwright test", "pnpm lint --fix"),
        variables=("VITE_TILE_URL", "VITE_SENTRY_DSN", "NODE_OPTIONS", "CI"),
        ci_targets=("Node 18", "Node 18 and 20", "Node 20 and 22", "Node 22 on Linux and macOS"),
    ),
    Project(
        id="fieldnotes-cli-a786d7ce",
        directory="/home/ana/src/fieldnotes-cli",
        components=(
            ("note parser", "src/parse.rs"),
            ("sync command", "src/cmd/sync.rs"),
            ("tag index", "src/index/tags.rs"),
            ("config loader", "src/config.rs"),
            ("export to HTML", "src/export/html.rs"),
            ("git backend", "src/store/git.rs"),
            ("fuzzy finder", "src/ui/finder.rs"),
            ("release workflow", ".github/workflows/release.yml"),
        ),
        libraries=("clap", "serde", "tokio", "gix", "pulldown-cmark", "insta"),
        commands=(
            "cargo test",
            "cargo clippy -- -D warnings",
            "cargo insta review",
            "just release",
        ),
        variables=("FIELDNOTES_HOME", "RUST_LOG", "GIT_AUTHOR_NAME", "FIELDNOTES_EDITOR"),
        ci_targets=(
            "Rust 1.80",
            "Rust 1.80 and stable",
            "Rust 1.82 and stable",
            "stable and beta on three OSes",
        ),
    ),
)

# (type, title, What, Why, Learned, topic family or None). Placeholders: {comp} {file}
# {lib} {cmd} {var} {n}. Each template is used with a few components of every project.
TEMPLATES: tuple[tuple[str, str, str, str, str, str | None], ...] = (
    (
        "decision",
        "Use {lib} for {comp}",
        "{comp} now goes through {lib} instead of the hand-written code it had.",
        "The hand-rolled version had drifted from what the rest of the code expects and nobody wanted to own it.",
        "Reach for the maintained library first; write our own only when it blocks us.",
        "decision",
    ),
    (
        "decision",
        "Keep {comp} synchronous for now",
        "{comp} stays synchronous; no background worker or queue yet.",
        "p95 is {n} ms, well inside the budget, and a queue would add another thing to deploy and watch.",
        "Measure before adding concurrency; revisit if p95 doubles.",
        "decision",
    ),
    (
        "decision",
        "Split {comp} out of its old module",
        "{comp} moved into its own module with a small public API.",
        "Every change to it touched unrelated code and the tests took {n} s to set up.",
        "A module you can name by what it holds is easier to review.",
        None,
    ),
    (
        "decision",
        "Feature flag for the new {comp}",
        "The new {comp} ships behind the `{var}` flag, off by default.",
        "Ana wants to try it on staging for a week before anyone else sees it.",
        "Flags need an owner and a removal date or they stay forever.",
        "decision",
    ),
    (
        "bugfix",
        "Fix off-by-one in {comp} pagination",
        "The last page of {comp} repeated the first item of the next page.",
        "The offset was computed from a 1-based page number.",
        "Test the boundary pages, not only the first one.",
        "bug",
    ),
    (
        "bugfix",
        "{comp} crashed on empty input",
        "{comp} raised on an empty list instead of returning nothing.",
        "A `max()` without a default on a sequence that can be empty.",
        "Every collection that comes from the outside can be empty; add the empty case to the tests.",
        "bug",
    ),
    (
        "bugfix",
        "Timezone bug in {comp} timestamps",
        "{comp} showed times one hour off after the DST change.",
        "Naive datetimes were compared with aware ones and the local zone leaked in.",
        "Store UTC, convert at the edge, and test a date in each DST period.",
        "bug",
    ),
    (
        "bugfix",
        "Race between {comp} and the cache",
        "Two requests could both miss the cache and rebuild {comp} at once.",
        "The check and the fill were not one step; under load they interleaved.",
        "Make the fill idempotent or take a short lock; a retry alone hides the race.",
        None,
    ),
    (
        "bugfix",
        "Flaky test for {comp} fixed",
        "The {comp} test failed about one run in {n} on CI.",
        "It depended on dict ordering from a fixture shared with another test.",
        "Flaky tests are real bugs in the test; fix the shared state, do not add retries.",
        "bug",
    ),
    (
        "discovery",
        "{lib} caches more than expected in {comp}",
        "{lib} keeps results for {comp} between calls unless told otherwise.",
        "This explains why the stale values only showed up after a second request.",
        "Read the library's defaults before assuming there is no cache.",
        None,
    ),
    (
        "discovery",
        "{comp} is called twice per request",
        "Tracing showed {comp} running twice on every request.",
        "A decorator and the router both registered it.",
        "When something is slow, count calls before optimising the call.",
        None,
    ),
    (
        "discovery",
        "CI runs `{cmd}` without the lockfile",
        "The CI job for {comp} resolves dependencies fresh instead of using the lockfile.",
        "That is why CI broke on a new minor release while local runs passed.",
        "Make CI install exactly what the lockfile says.",
        None,
    ),
    (
        "discovery",
        "{comp} already retries on failure",
        "{comp} retries {n} times with backoff inside {lib}; our own retry doubled it.",
        "Found while reading the logs of a slow failure.",
        "Look for retries in the layer below before adding one.",
        None,
    ),
    (
        "pattern",
        "Tests for {comp} build data with factories",
        "Tests around {comp} create their data with the factory helpers, never by hand.",
        "Hand-built objects went stale every time the model gained a field.",
        "One place to change when the shape changes.",
        "pattern",
    ),
    (
        "pattern",
        "Errors in {comp} are mapped at the boundary",
        "{comp} raises domain errors; only the HTTP/CLI layer turns them into messages.",
        "Messages were formatted in three places and disagreed.",
        "Keep the core free of presentation.",
        "pattern",
    ),
    (
        "pattern",
        "Name {comp} handlers after the event",
        "Handlers in {comp} are named `on_<event>` and live next to the event they handle.",
        "Searching for an event now finds its handler in one go.",
        "Names that read as sentences save a search.",
        None,
    ),
    (
        "architecture",
        "{comp} owns its own tables",
        "Only {comp} writes its tables; other modules go through its functions.",
        "Two modules writing the same rows caused the inventory mismatch last month.",
        "One writer per table; readers can be many.",
        "architecture",
    ),
    (
        "architecture",
        "{comp} talks to the rest through events",
        "{comp} publishes events instead of calling the other modules directly.",
        "It had grown a dependency on half of the code base.",
        "Events are cheaper than they look if the payloads stay small.",
        "architecture",
    ),
    (
        "architecture",
        "How a request flows through {comp}",
        "Request → validation → {comp} → repository → response; {lib} sits at the edge.",
        "Needed a map before changing the error handling.",
        "Write the flow down once; it is the first thing everyone asks.",
        "architecture",
    ),
    (
        "config",
        "`{var}` controls {comp}",
        "`{var}` switches {comp}; unset means the safe default.",
        "Staging and production differ only in this value.",
        "Document every variable next to where it is read.",
        "config",
    ),
    (
        "config",
        "Run `{cmd}` before pushing",
        "`{cmd}` must pass locally before a push; CI runs the same command.",
        "Pushing without it cost two red builds this week.",
        "Same command locally and in CI, or they drift.",
        "config",
    ),
    (
        "config",
        "{lib} pinned to a known-good version",
        "{lib} is pinned to the last version where {comp} works.",
        "The next minor release changed a default that {comp} relies on.",
        "Pin with a comment that says why and when to retry.",
        "config",
    ),
    (
        "preference",
        "Small pull requests for {comp}",
        "Changes to {comp} go in small pull requests, one concern each.",
        "Ana reviews on her phone between meetings; big diffs wait days.",
        "Split refactors from behaviour changes.",
        None,
    ),
    (
        "preference",
        "Explain {comp} changes in the commit body",
        "Commits touching {comp} say why in the body, not only what.",
        "The history is where Ana looks first when something breaks.",
        "A commit message is a note to the next person, often yourself.",
        None,
    ),
    (
        "learning",
        "How {lib} resolves settings for {comp}",
        "{lib} reads explicit arguments first, then `{var}`, then its defaults.",
        "Needed to know why the staging value was ignored.",
        "Check the precedence order before debugging the value.",
        None,
    ),
    (
        "learning",
        "`{cmd}` is much faster with a warm cache",
        "`{cmd}` takes {n} s cold and a few seconds warm.",
        "The cold run happens on every new CI runner.",
        "Cache the build directory between CI runs.",
        None,
    ),
)

# Personal-scope memories: about the person, visible from every project.
PERSONAL: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "preference",
        "Answers in English, code comments in English",
        "Reply in English and write code comments in English, even when Ana writes in Spanish.",
        "Her teams are international.",
        "Ask before translating anything she pastes.",
    ),
    (
        "preference",
        "Prefers pytest over unittest",
        "Use plain pytest functions and fixtures; no unittest.TestCase classes.",
        "She finds the class boilerplate noisy.",
        "Parametrize instead of copying tests.",
    ),
    (
        "preference",
        "Imperative commit subjects under 60 characters",
        'Commit subjects are imperative ("Add", "Fix") and short.',
        "They read well in `git log --oneline`.",
        "Put the why in the body.",
    ),
    (
        "preference",
        "No emoji in code or commit messages",
        "Keep emoji out of code, comments and commit messages.",
        "She said they look unprofessional in the history.",
        "Applies to docs too.",
    ),
    (
        "preference",
        "Rebase feature branches, never merge main into them",
        "Update feature branches with `git rebase main`.",
        "She wants a linear history.",
        "Force-push with `--force-with-lease` only.",
    ),
    (
        "preference",
        "Short answers first, details on request",
        "Lead with the answer in a sentence or two; offer detail after.",
        "She skims between meetings.",
        "Code blocks only when they help.",
    ),
    (
        "config",
        "Uses fish shell",
        "Shell snippets should work in fish: `set -x VAR value`, no `export`.",
        "Her terminal runs fish.",
        "Say when a snippet is bash-only.",
    ),
    (
        "config",
        "Editor is Helix",
        "Suggest Helix keybindings and config (`~/.config/helix/config.toml`).",
        "She switched from Vim last year.",
        "No VS Code-specific instructions.",
    ),
    (
        "config",
        "Works on a 2020 MacBook and a Linux desktop",
        "Commands must work on macOS (BSD tools) and Linux (GNU tools).",
        "She moves between both daily.",
        "Watch `sed -i` and `date` differences.",
    ),
    (
        "learning",
        "Ana is learning Rust",
        "She is learning Rust through the fieldnotes project; explain borrow errors.",
        "She asked for explanations, not just fixes.",
        "Point to the Rust book chapter.",
    ),
    (
        "learning",
        "Prefers worked examples to abstract explanations",
        "Show a small worked example before the general rule.",
        "She said examples stick better.",
        "Keep examples runnable.",
    ),
    (
        "decision",
        "Personal projects use the MIT license",
        "New personal repositories get an MIT LICENSE file.",
        "She wants the least friction for people who reuse them.",
        "Add it in the first commit.",
    ),
    (
        "preference",
        "Dates as YYYY-MM-DD",
        "Write dates as 2026-11-27, never 11/27/2026.",
        "She works with people from many countries.",
        "Times in UTC with the zone.",
    ),
    (
        "pattern",
        "Scratch files go in ~/tmp",
        "Throwaway scripts and notes go in `~/tmp`, never inside a repository.",
        "She once committed a scratch file with a token in it.",
        "Check `git status` before committing.",
    ),
    (
        "architecture",
        "Prefers SQLite for small tools",
        "For single-user tools, default to SQLite over a database server.",
        "One file is easier to back up and move.",
        "Use WAL and a busy timeout.",
    ),
    (
        "discovery",
        "Her CI minutes run out near the end of the month",
        "The free CI minutes are usually gone by the 25th.",
        "Seen on the billing page.",
        "Batch pushes late in the month.",
    ),
)

GOALS = (
    "Fix the {comp} bug reported by a customer",
    "Refactor {comp} before adding the next feature",
    "Speed up the {comp} tests",
    "Add logging around {comp}",
    "Review the open pull request for {comp}",
    "Upgrade {lib} and fix what breaks",
    "Document how {comp} works",
)
PROMPTS = (
    "why does {comp} fail on the last page?",
    "can you look at {file} and tell me what it does",
    "run `{cmd}` and fix whatever fails",
    "let's move {comp} into its own module",
    "is there a simpler way to do this with {lib}?",
    "write a test for the empty case in {comp}",
    "what does `{var}` do here?",
    "ok, commit that. short message please",
    "remember: we keep {comp} synchronous for now",
    "undo the last change, it broke {comp}",
    "explain the flow through {comp} like I'm new to the codebase",
    "the staging key is <private>demo-staging-key-0000</private>, use it for the webhook test",
)
UPDATES = (
    "confirmed again after the last release.",
    "the numbers changed after the upgrade; still the right call.",
    "a second case showed up in production, same cause.",
    "the team agreed in the weekly review.",
    "simplified after the refactor.",
)
SECRETS = (
    "the staging password is <private>hunter2-staging-2026</private>",
    "the API token is <private>demo-token-not-real-1234</private>",
    "the customer's email is <private>marta.lopez@example.com</private>",
    "use the webhook secret <private>demo-webhook-secret-5678</private> only on staging",
)


def build_demo(folder: Path, *, end_ms: int = END_MS) -> Demo:
    """Build the demo stores inside ``folder`` (created if needed; must not hold a demo yet).

    ``end_ms`` is the demo's "now" (the newest timestamp); the default keeps two builds
    identical. Raises ``FileExistsError`` if the database is already there.
    """
    folder = Path(folder)
    home = folder / "home"
    state = home / ".local" / "state" / "alisio"
    state.mkdir(parents=True, exist_ok=True)
    db_path = state / "memory.sqlite"
    create_database(db_path)
    conn = connect_like_plugin(db_path)
    try:
        # Per connection only: speeds up the demo's hundreds of commits, changes no file format.
        conn.execute("PRAGMA synchronous=NORMAL")
        _History(conn, random.Random(SEED), end_ms).write()
    finally:
        conn.close()
    config_path = _write_alisio_config(home)
    persona_folders = _write_persona_folders(home)
    return Demo(folder, home, db_path, config_path, persona_folders)


# -- Observations --------------------------------------------------------------------------


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


class _History:
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
        self._add(
            at,
            "save",
            title=title_text,
            content=content,
            type=type_,
            project=project.id,
            scope="project",
            topic_key=topic_key,
            session=session,
            tool_name=tool,
        )
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
            self._add(
                self._time_in(session),
                "save",
                title=title,
                content=content,
                type=type_,
                project=project.id,
                scope="project",
                topic_key=topic_key,
                session=session,
                tool_name="memory_save",
            )

    def _plan_personal_observations(self) -> None:
        for type_, title, what, why, learned in PERSONAL:
            session = self.rng.choice(self.sessions)
            content = _body(what, why, "(about Ana, any project)", learned)
            self._add(
                self._time_in(session),
                "save",
                title=title,
                content=content,
                type=type_,
                project=session.project.id,
                scope="personal",
                topic_key=None,
                session=session,
                tool_name="memory_save",
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
                self._add(
                    self._time_in(session),
                    "save",
                    title=f"CI matrix for {component[0]}",
                    content=_body(
                        f"CI tests {component[0]} on {version}.",
                        "Matches what production and the oldest supported install run.",
                        ".github/workflows/ci.yml",
                        "Drop a version only after production has.",
                    ),
                    type="config",
                    project=project.id,
                    scope="project",
                    topic_key=topic,
                    session=session,
                    tool_name="memory_save",
                )
        for _ in range(12):
            session = self.rng.choice(self.sessions[:-1])
            project = session.project
            component = self.rng.choice(project.components)
            at = self._time_in(session)
            payload = dict(
                title=f"Retry budget for {component[0]}",
                content=_body(
                    f"{component[0]} gives up after 3 attempts.",
                    "More attempts only delayed the error the person sees.",
                    f"`{component[1]}`",
                    "A retry budget belongs next to the call it limits.",
                ),
                type="decision",
                project=project.id,
                scope="project",
                topic_key=None,
                session=session,
                tool_name="memory_save",
            )
            for repeat in range(self.rng.randrange(2, 4)):
                self._add(at + repeat * self.rng.randrange(1, 6) * MINUTE, "save", **payload)

    def _plan_capped_log(self) -> None:
        """One body over the plugin's 50,000-character cap, stored with ``... [truncated]``."""
        session = self._session_for(PROJECTS[0])
        lines = [
            f"tests/test_checkout.py::test_total[{i}] {'PASSED' if i % 97 else 'FAILED'}"
            for i in range(1200)
        ]
        self._add(
            self._time_in(session),
            "save",
            title="Full pytest log of the flaky checkout run",
            content=_body(
                "The whole log of the failing run, kept for comparison.",
                "The failure only happens on CI.",
                "CI job 4812",
                "\n".join(lines),
            ),
            type="discovery",
            project=PROJECTS[0].id,
            scope="project",
            topic_key=None,
            session=session,
            tool_name="compaction",
        )

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


def _write_alisio_config(home: Path) -> Path:
    config_dir = home / ".config" / "alisio"
    config_dir.mkdir(parents=True, exist_ok=True)
    config = {
        "builtinPlugins": {
            "memory": {
                "enabled": True,
                "injectBudgetTokens": DEMO_BUDGET_TOKENS,
                "recallLimit": 10,
                "autoSummary": True,
                "defaultScope": "project",
            }
        },
        "pluginHooks": {"timeoutMs": 15000, "sessionEndTimeoutMs": 10000},
    }
    path = config_dir / "config.json"
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return path


# -- Persona folders -----------------------------------------------------------------------


def _entry(name: str, description: str, type_: str, updated: str, body: str) -> bytes:
    """An entry exactly as agent-kit writes it: four keys, blank line, body, newline."""
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n"
        f"updated: {updated}\n---\n\n{body}\n"
    ).encode()


agent_entry = _entry  # for the demo's later changes (memory_desk.demo_changes)

MIYAGI_FILES: dict[str, bytes] = {
    "preferred-name-carmen.md": _entry(
        "preferred-name-carmen",
        "Wants to be called Carmen, not Ms. Ortega",
        "user",
        "2026-11-20T08:12:44.105Z",
        "Carmen asked to be called by her first name in every reply.",
    ),
    "teaches-physics.md": _entry(
        "teaches-physics",
        "Teaches physics and chemistry to 15-16 year olds",
        "user",
        "2026-10-02T17:03:11.532Z",
        "Two physics groups and one chemistry group, fourth year of secondary school.",
    ),
    "no-fish-puns.md": _entry(
        "no-fish-puns",
        "Dislikes puns about fish; avoid fish-themed jokes",
        "feedback",
        "2026-10-07T13:15:05.678Z",
        "Rule: never tell jokes or puns about fish to this person.\n\nWhy: she said \"I can't"
        ' stand puns about fish."\n\nApply: any light-hearted remark, including examples in'
        " worksheets.",
    ),
    "short-answers.md": _entry(
        "short-answers",
        "Keep answers under ten lines unless she asks for detail",
        "feedback",
        "2026-11-25T19:40:00.001Z",
        "Rule: answer in ten lines or fewer.\n\nWhy: she reads between classes on her phone."
        "\n\nApply: offer a longer version at the end instead of writing it.",
    ),
    "rubrics-as-tables.md": _entry(
        "rubrics-as-tables",
        "Present grading rubrics as tables with four levels",
        "feedback",
        "2026-11-11T10:21:37.250Z",
        "Rule: rubrics are Markdown tables: criteria as rows, four levels as columns"
        " (Excellent, Good, Fair, Needs work).\n\nWhy: she pastes them into the school's"
        " platform.\n\nApply: every rubric, even short ones.",
    ),
    # CRLF line endings and quoted values: accepted by the agent.
    "metric-units-only.md": (
        b'---\r\nname: metric-units-only\r\ndescription: "Use SI units in every example"\r\n'
        b"type: 'feedback'\r\nupdated: 2026-10-19T09:00:12.900Z\r\n---\r\n\r\nRule: SI units"
        b" only, no miles or pounds.\r\nWhy: the curriculum requires it.\r\n"
    ),
    # An extra key (the agent drops it on its next save) and a list value.
    "calls-students-by-first-name.md": (
        b"---\nname: calls-students-by-first-name\ndescription: Refers to students by first"
        b" name only\ntype: user\nupdated: 2026-11-02T12:00:00.000Z\ntags: [class, privacy]\n"
        b"---\n\nNever use surnames in generated feedback for students.\n"
    ),
    # Problem: the agent ignores stems that are not kebab-case.
    "Exam Ideas.md": _entry(
        "exam-ideas",
        "Exam question ideas for the optics unit",
        "user",
        "2026-11-15T16:45:09.333Z",
        "- A periscope built from two mirrors\n- Why a straw looks bent in water",
    ),
    # Problem: a byte-order mark, so the agent sees no header at all.
    "uses-moodle.md": "\ufeff".encode()
    + _entry(
        "uses-moodle",
        "Her school uses Moodle for assignments",
        "user",
        "2026-10-28T11:30:00.000Z",
        "Quizzes should be exportable to Moodle XML.",
    ),
    # Problem: no header.
    "lab-safety.md": (
        b"# Lab safety\n\nCarmen wants every practical to start with a two-line safety note.\n"
    ),
    # Problem: the name: line disagrees with the file name (the file name wins).
    "prefers-spanish-examples.md": _entry(
        "prefers-english-examples",
        "Wants worked examples in Spanish",
        "feedback",
        "2026-11-05T08:00:31.010Z",
        "Rule: worked examples in Spanish, explanations may be in English.",
    ),
    # Problem: an unknown type (read as user).
    "grading-day.md": _entry(
        "grading-day",
        "Grades on Sunday evenings",
        "habit",
        "2026-10-12T20:15:00.000Z",
        "Do not suggest deadlines on Mondays; she grades the night before.",
    ),
    # Problem: an empty description.
    "dislikes-emoji.md": _entry(
        "dislikes-emoji",
        "",
        "feedback",
        "2026-11-18T07:55:42.600Z",
        "Rule: no emoji in anything meant for students.",
    ),
    # Problem: `updated` is not ISO 8601.
    "school-schedule.md": _entry(
        "school-schedule",
        "Teaches mornings; free after 14:00",
        "user",
        "14/10/2026 09:30",
        "Suggest meetings only after 14:00 on weekdays.",
    ),
    # Problem: not UTF-8 (Latin-1 bytes from an old editor).
    "cafe-notes.md": (
        "---\nname: cafe-notes\ndescription: Prefers the café next to school for meetings\n"
        "type: user\nupdated: 2026-10-22T15:00:00.000Z\n---\n\nCafé Ñandú, near the gym.\n"
    ).encode("latin-1"),
    # Not entries at all: a hidden draft, an editor swap file and a backup copy.
    ".draft-idea.md": _entry(
        "draft-idea",
        "Half-written idea",
        "user",
        "2026-11-26T10:00:00.000Z",
        "Maybe...",
    ),
    ".short-answers.md.swp": b"b0VIM 9.0\x00\x00\x00\x00\x10\x00\x00" + bytes(range(32)) * 8,
    "short-answers.md~": _entry(
        "short-answers",
        "Keep answers short",
        "feedback",
        "2026-11-01T09:00:00.000Z",
        "Rule: short answers.",
    ),
}

PADAWAN_FILES: dict[str, bytes] = {
    "studies-at-night.md": _entry(
        "studies-at-night",
        "Studies late in the evening, after work",
        "user",
        "2026-11-21T22:41:03.777Z",
        "Plan study sessions for 21:00-23:00.",
    ),
    "explain-with-analogies.md": _entry(
        "explain-with-analogies",
        "Likes new ideas explained with an everyday analogy first",
        "feedback",
        "2026-11-09T21:12:55.040Z",
        'Rule: start with an analogy, then the definition.\n\nWhy: he said "analogies are'
        ' what make it click for me."\n\nApply: every new concept.',
    ),
    # A list written with indented items: valid for the agent.
    "quiz-before-summaries.md": (
        b"---\nname: quiz-before-summaries\ndescription: Wants a short quiz before each"
        b" summary\ntype: feedback\nupdated: 2026-11-24T20:30:00.500Z\nsubjects:\n  - maths\n"
        b"  - history\n---\n\nRule: three questions first, then the summary.\n"
    ),
    "notes.txt": b"Not a memory entry: the agent only reads *.md files.\n",
}

PADAWAN_ACCOUNT = "evening-class"
PADAWAN_ACCOUNT_FILES: dict[str, bytes] = {
    "learning-french.md": _entry(
        "learning-french",
        "Learning French at B1 level",
        "user",
        "2026-11-26T19:05:17.222Z",
        "Evening class twice a week; exam in June.",
    ),
    "correct-gently.md": _entry(
        "correct-gently",
        "Wants mistakes corrected one at a time",
        "feedback",
        "2026-11-19T18:44:00.010Z",
        "Rule: point out one mistake per answer, the most important one.\n\nWhy: a list of"
        " corrections discourages him.",
    ),
}


def _write_persona_folders(home: Path) -> list[Path]:
    miyagi = home / ".miyagi" / "memory"
    padawan = home / ".padawan" / "memory"
    account = padawan / PADAWAN_ACCOUNT
    for folder, files in (
        (miyagi, MIYAGI_FILES),
        (padawan, PADAWAN_FILES),
        (account, PADAWAN_ACCOUNT_FILES),
    ):
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)
    return [miyagi, padawan, account]
