"""The demo's data: the person's projects, what their agent saved about them, and its clock.

Observations are written as paragraphs (:func:`_paragraphs`) rather than tuples of
strings: one line per field reads like the memory it becomes.
"""

from __future__ import annotations

from dataclasses import dataclass

SEED = 20261127
# 2026-11-27T17:40:00Z: the demo's "now"; the history runs over the eight weeks before.
END_MS = 1_795_801_200_000
MINUTE = 60_000
HOUR = 60 * MINUTE
DAY = 24 * HOUR
HISTORY_DAYS = 56
# Sessions started after this day got "Loaded context" rows (plugin upgraded to schema 101).
INJECTED_CONTEXT_SINCE = END_MS - 24 * DAY
DEMO_BUDGET_TOKENS = 2400  # the demo config's injectBudgetTokens (not the default 1500)


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


def _paragraphs(text: str, fields: int) -> tuple[tuple[str, ...], ...]:
    """Blank-line separated paragraphs of ``fields`` lines each, as tuples of lines."""
    table = tuple(tuple(block.split("\n")) for block in text.strip().split("\n\n"))
    if any(len(row) != fields for row in table):
        raise ValueError("a paragraph of the demo's data has a missing or extra line")
    return table


def _template(head: str, *lines: str) -> tuple[str, str, str, str, str, str | None]:
    type_, family = head.split(": ")
    title, what, why, learned = lines
    return (type_, title, what, why, learned, None if family == "-" else family)


# (type, title, What, Why, Learned, topic family or None), written as paragraphs whose first
# line is "type: family" ("-" for none). Placeholders: {comp} {file} {lib} {cmd} {var} {n}.
# Each template is used with a few components of every project.
TEMPLATES: tuple[tuple[str, str, str, str, str, str | None], ...] = tuple(
    _template(*paragraph)
    for paragraph in _paragraphs(
        """
decision: decision
Use {lib} for {comp}
{comp} now goes through {lib} instead of the hand-written code it had.
The hand-rolled version had drifted from what the rest of the code expects and nobody wanted to own it.
Reach for the maintained library first; write our own only when it blocks us.

decision: decision
Keep {comp} synchronous for now
{comp} stays synchronous; no background worker or queue yet.
p95 is {n} ms, well inside the budget, and a queue would add another thing to deploy and watch.
Measure before adding concurrency; revisit if p95 doubles.

decision: -
Split {comp} out of its old module
{comp} moved into its own module with a small public API.
Every change to it touched unrelated code and the tests took {n} s to set up.
A module you can name by what it holds is easier to review.

decision: decision
Feature flag for the new {comp}
The new {comp} ships behind the `{var}` flag, off by default.
Ana wants to try it on staging for a week before anyone else sees it.
Flags need an owner and a removal date or they stay forever.

bugfix: bug
Fix off-by-one in {comp} pagination
The last page of {comp} repeated the first item of the next page.
The offset was computed from a 1-based page number.
Test the boundary pages, not only the first one.

bugfix: bug
{comp} crashed on empty input
{comp} raised on an empty list instead of returning nothing.
A `max()` without a default on a sequence that can be empty.
Every collection that comes from the outside can be empty; add the empty case to the tests.

bugfix: bug
Timezone bug in {comp} timestamps
{comp} showed times one hour off after the DST change.
Naive datetimes were compared with aware ones and the local zone leaked in.
Store UTC, convert at the edge, and test a date in each DST period.

bugfix: -
Race between {comp} and the cache
Two requests could both miss the cache and rebuild {comp} at once.
The check and the fill were not one step; under load they interleaved.
Make the fill idempotent or take a short lock; a retry alone hides the race.

bugfix: bug
Flaky test for {comp} fixed
The {comp} test failed about one run in {n} on CI.
It depended on dict ordering from a fixture shared with another test.
Flaky tests are real bugs in the test; fix the shared state, do not add retries.

discovery: -
{lib} caches more than expected in {comp}
{lib} keeps results for {comp} between calls unless told otherwise.
This explains why the stale values only showed up after a second request.
Read the library's defaults before assuming there is no cache.

discovery: -
{comp} is called twice per request
Tracing showed {comp} running twice on every request.
A decorator and the router both registered it.
When something is slow, count calls before optimising the call.

discovery: -
CI runs `{cmd}` without the lockfile
The CI job for {comp} resolves dependencies fresh instead of using the lockfile.
That is why CI broke on a new minor release while local runs passed.
Make CI install exactly what the lockfile says.

discovery: -
{comp} already retries on failure
{comp} retries {n} times with backoff inside {lib}; our own retry doubled it.
Found while reading the logs of a slow failure.
Look for retries in the layer below before adding one.

pattern: pattern
Tests for {comp} build data with factories
Tests around {comp} create their data with the factory helpers, never by hand.
Hand-built objects went stale every time the model gained a field.
One place to change when the shape changes.

pattern: pattern
Errors in {comp} are mapped at the boundary
{comp} raises domain errors; only the HTTP/CLI layer turns them into messages.
Messages were formatted in three places and disagreed.
Keep the core free of presentation.

pattern: -
Name {comp} handlers after the event
Handlers in {comp} are named `on_<event>` and live next to the event they handle.
Searching for an event now finds its handler in one go.
Names that read as sentences save a search.

architecture: architecture
{comp} owns its own tables
Only {comp} writes its tables; other modules go through its functions.
Two modules writing the same rows caused the inventory mismatch last month.
One writer per table; readers can be many.

architecture: architecture
{comp} talks to the rest through events
{comp} publishes events instead of calling the other modules directly.
It had grown a dependency on half of the code base.
Events are cheaper than they look if the payloads stay small.

architecture: architecture
How a request flows through {comp}
Request → validation → {comp} → repository → response; {lib} sits at the edge.
Needed a map before changing the error handling.
Write the flow down once; it is the first thing everyone asks.

config: config
`{var}` controls {comp}
`{var}` switches {comp}; unset means the safe default.
Staging and production differ only in this value.
Document every variable next to where it is read.

config: config
Run `{cmd}` before pushing
`{cmd}` must pass locally before a push; CI runs the same command.
Pushing without it cost two red builds this week.
Same command locally and in CI, or they drift.

config: config
{lib} pinned to a known-good version
{lib} is pinned to the last version where {comp} works.
The next minor release changed a default that {comp} relies on.
Pin with a comment that says why and when to retry.

preference: -
Small pull requests for {comp}
Changes to {comp} go in small pull requests, one concern each.
Ana reviews on her phone between meetings; big diffs wait days.
Split refactors from behaviour changes.

preference: -
Explain {comp} changes in the commit body
Commits touching {comp} say why in the body, not only what.
The history is where Ana looks first when something breaks.
A commit message is a note to the next person, often yourself.

learning: -
How {lib} resolves settings for {comp}
{lib} reads explicit arguments first, then `{var}`, then its defaults.
Needed to know why the staging value was ignored.
Check the precedence order before debugging the value.

learning: -
`{cmd}` is much faster with a warm cache
`{cmd}` takes {n} s cold and a few seconds warm.
The cold run happens on every new CI runner.
Cache the build directory between CI runs.
""",
        5,
    )
)

# Personal-scope memories: about the person, visible from every project. Each paragraph is
# type, title, What, Why, Learned.
PERSONAL: tuple[tuple[str, ...], ...] = _paragraphs(
    """
preference
Answers in English, code comments in English
Reply in English and write code comments in English, even when Ana writes in Spanish.
Her teams are international.
Ask before translating anything she pastes.

preference
Prefers pytest over unittest
Use plain pytest functions and fixtures; no unittest.TestCase classes.
She finds the class boilerplate noisy.
Parametrize instead of copying tests.

preference
Imperative commit subjects under 60 characters
Commit subjects are imperative ("Add", "Fix") and short.
They read well in `git log --oneline`.
Put the why in the body.

preference
No emoji in code or commit messages
Keep emoji out of code, comments and commit messages.
She said they look unprofessional in the history.
Applies to docs too.

preference
Rebase feature branches, never merge main into them
Update feature branches with `git rebase main`.
She wants a linear history.
Force-push with `--force-with-lease` only.

preference
Short answers first, details on request
Lead with the answer in a sentence or two; offer detail after.
She skims between meetings.
Code blocks only when they help.

config
Uses fish shell
Shell snippets should work in fish: `set -x VAR value`, no `export`.
Her terminal runs fish.
Say when a snippet is bash-only.

config
Editor is Helix
Suggest Helix keybindings and config (`~/.config/helix/config.toml`).
She switched from Vim last year.
No VS Code-specific instructions.

config
Works on a 2020 MacBook and a Linux desktop
Commands must work on macOS (BSD tools) and Linux (GNU tools).
She moves between both daily.
Watch `sed -i` and `date` differences.

learning
Ana is learning Rust
She is learning Rust through the fieldnotes project; explain borrow errors.
She asked for explanations, not just fixes.
Point to the Rust book chapter.

learning
Prefers worked examples to abstract explanations
Show a small worked example before the general rule.
She said examples stick better.
Keep examples runnable.

decision
Personal projects use the MIT license
New personal repositories get an MIT LICENSE file.
She wants the least friction for people who reuse them.
Add it in the first commit.

preference
Dates as YYYY-MM-DD
Write dates as 2026-11-27, never 11/27/2026.
She works with people from many countries.
Times in UTC with the zone.

pattern
Scratch files go in ~/tmp
Throwaway scripts and notes go in `~/tmp`, never inside a repository.
She once committed a scratch file with a token in it.
Check `git status` before committing.

architecture
Prefers SQLite for small tools
For single-user tools, default to SQLite over a database server.
One file is easier to back up and move.
Use WAL and a busy timeout.

discovery
Her CI minutes run out near the end of the month
The free CI minutes are usually gone by the 25th.
Seen on the billing page.
Batch pushes late in the month.
""",
    5,
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
