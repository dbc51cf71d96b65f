"""What the next chat will be told: the plugin's session-start block, read from real
databases built with the plugin's DDL, beside the context it recorded, and what changed.

Rows go in as the plugin writes them (``save_observation``, plain INSERT/UPDATE for sessions,
prompts, pins, forgets and ``injected_context``); recorded contexts are written in the plugin's
own layout. The golden block was produced by running the plugin's ``renderMemoryContext`` and
``hit`` (``format.ts``, ``store.ts``) under Node on the same rows; the other expected texts are
worked by hand from FORMATS.md ("What a chat is told at its start"): 10 pinned, 20 recent,
5 prompts, and nothing at all when the four parts are empty.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_desk.core import alisio
from memory_desk.core.jstext import utf16_len
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations import context_layout as layout
from memory_desk.core.observations import next_context as nc

ALPHA = "alpha-1a2b3c4d"
BETA = "beta-5e6f7a8b"
T0 = 1_790_000_000_000
MINUTE = 60_000


@pytest.fixture
def path(tmp_path: Path) -> Path:
    db = tmp_path / "state" / "memory.sqlite"
    db.parent.mkdir()
    alisio.create_database(db)
    return db


@pytest.fixture
def plugin(path: Path) -> Iterator[sqlite3.Connection]:
    """The agent's own connection (WAL, busy_timeout, autocommit)."""
    conn = alisio.connect_like_plugin(path)
    yield conn
    conn.close()


@pytest.fixture
def store(path: Path) -> Iterator[ObservationStore]:
    opened = ObservationStore(path)
    yield opened
    opened.close()


def save(conn: sqlite3.Connection, title: str, at: int, **values) -> int:
    values.setdefault("type", "decision")
    values.setdefault("project", ALPHA)
    values.setdefault("content", f"**What**: {title}")
    return alisio.save_observation(conn, title=title, now=at, **values).id


def pin(conn: sqlite3.Connection, row_id: int, pinned: bool = True) -> None:
    """The plugin's memory_pin: sets ``pinned`` only."""
    conn.execute("UPDATE observations SET pinned=? WHERE id=?", (int(pinned), row_id))


def forget(conn: sqlite3.Connection, row_id: int, at: int) -> None:
    conn.execute("UPDATE observations SET deleted_at=? WHERE id=?", (at, row_id))


def summary(conn: sqlite3.Connection, session: str, project: str, text: str, at: int) -> None:
    """The plugin's saveSummary (an upsert of the session row)."""
    conn.execute(
        "INSERT INTO memory_sessions(id,project,started_at,ended_at,summary) VALUES(?,?,?,?,?)"
        " ON CONFLICT(id) DO UPDATE SET summary=excluded.summary, ended_at=excluded.ended_at",
        (session, project, at, at, text),
    )


def prompt(conn: sqlite3.Connection, session: str, project: str, text: str, at: int) -> None:
    """The plugin's recordPrompt."""
    conn.execute(
        "INSERT INTO memory_sessions(id,project,started_at) VALUES(?,?,?)"
        " ON CONFLICT(id) DO NOTHING",
        (session, project, at),
    )
    conn.execute(
        "INSERT INTO user_prompts(session_id,content,project,created_at) VALUES(?,?,?,?)",
        (session, text, project, at),
    )


def record(conn: sqlite3.Connection, session: str, project: str, text: str, at: int) -> None:
    """The plugin's saveInjectedContext."""
    conn.execute(
        "INSERT INTO injected_context(session_id,project,content,created_at) VALUES(?,?,?,?)"
        " ON CONFLICT(session_id) DO UPDATE SET project=excluded.project,"
        " content=excluded.content, created_at=excluded.created_at",
        (session, project, text, at),
    )


def block(*sections: str, project: str = ALPHA, session: str = "5f2c9a1b") -> str:
    """A context in the plugin's layout, as a chat of ``project`` recorded it."""
    head = layout.HEADER + f"### Session\nproject {project} · session {session}\n"
    return (head + "".join(sections)).rstrip()


# -- the parts follow the plugin's queries ---------------------------------------------------


def test_the_parts_are_the_plugins_queries(plugin: sqlite3.Connection, store) -> None:
    old_pinned = save(plugin, "Old pinned decision", T0)
    pin(plugin, old_pinned)
    personal = save(
        plugin, "Prefers short commits", T0 + 1 * MINUTE, project=BETA, scope="personal"
    )
    save(plugin, "Beta-only detail", T0 + 2 * MINUTE, project=BETA)
    gone = save(plugin, "Forgotten advice", T0 + 3 * MINUTE)
    forget(plugin, gone, T0 + 4 * MINUTE)
    gone_pinned = save(plugin, "Forgotten pinned", T0 + 5 * MINUTE)
    pin(plugin, gone_pinned)
    forget(plugin, gone_pinned, T0 + 6 * MINUTE)
    newest = save(plugin, "Newest alpha note", T0 + 7 * MINUTE)
    summary(plugin, "s-old", ALPHA, "## Goal\nold goal", T0 + 10 * MINUTE)
    summary(plugin, "s-new", ALPHA, "## Goal\nnew goal", T0 + 20 * MINUTE)
    summary(plugin, "s-beta", BETA, "## Goal\nbeta goal", T0 + 30 * MINUTE)
    for n in range(7):
        prompt(plugin, "s-new", ALPHA, f"prompt {n}", T0 + n * MINUTE)
    prompt(plugin, "s-beta", BETA, "beta prompt", T0 + 9 * MINUTE)

    estimate = nc.estimate_next_context(store, ALPHA)

    # The newest summary by ended_at of THAT project, not the newer one of another project.
    assert estimate.summary is not None and estimate.summary.session_id == "s-new"
    assert "new goal" in estimate.text and "beta goal" not in estimate.text
    # The five newest prompts of the project, newest first.
    assert [p.content for p in estimate.prompts] == [f"prompt {n}" for n in (6, 5, 4, 3, 2)]
    # Pinned first; personal rows of other projects included; forgotten ones and other
    # projects' project rows excluded; a pinned row is not repeated among the recent ones.
    assert [(c.id, c.section) for c in estimate.observations] == [
        (old_pinned, layout.PINNED),
        (newest, layout.RECENT),
        (personal, layout.RECENT),
    ]
    assert estimate.text.index("### Pinned") < estimate.text.index("### Recent Observations")
    assert f"- #{old_pinned} [decision] **Old pinned decision**" in estimate.text


def test_the_block_is_the_plugins_renderer_to_the_character(plugin, store) -> None:
    first = save(plugin, "Use WAL for the cache", T0, content="**What**: WAL\n\n**Why**:  speed")
    pin(plugin, first)
    save(plugin, "Fixed token refresh race 😀", T0 + MINUTE, type="bugfix", content="a\tb\u00a0 c")
    summary(plugin, "s1", ALPHA, "  ## Goal\nShip it\n", T0 + 2 * MINUTE)
    prompt(plugin, "s1", ALPHA, "  fix   the\n\ncache  ", T0 + 3 * MINUTE)

    estimate = nc.estimate_next_context(store, ALPHA, budget_tokens=1500)

    assert estimate.text == GOLDEN
    assert estimate.estimated_tokens == -(-utf16_len(GOLDEN) // 4)


# Node: renderMemoryContext({project, session: "········", summary, prompts, pinned, recent}, 1500)
GOLDEN = (
    "[Memory context from previous sessions (Alisio memory). Call memory_get with an id for"
    " details.]\n"
    "### Session\n"
    "project alpha-1a2b3c4d · session ········\n"
    "### Last Session Summary\n"
    "## Goal\n"
    "Ship it\n"
    "### Recent User Prompts\n"
    "- fix the cache\n"
    "### Pinned\n"
    "- #1 [decision] **Use WAL for the cache**: **What**: WAL **Why**: speed\n"
    "### Recent Observations\n"
    "- #2 [bugfix] **Fixed token refresh race 😀**: a b c"
)


def test_the_budget_is_respected_and_a_bigger_one_includes_more(plugin, store) -> None:
    for n in range(15):
        save(plugin, f"Observation number {n}", T0 + n * MINUTE, content=f"body {n} " * 120)
    summary(plugin, "s1", ALPHA, "## Goal\n" + "a long line of summary\n" * 400, T0)

    included = []
    for budget in (100, 300, 1500, 20_000):
        estimate = nc.estimate_next_context(store, ALPHA, budget_tokens=budget)
        assert utf16_len(estimate.text) <= budget * 4
        assert estimate.estimated_tokens <= budget
        included.append(len(estimate.included))
        for candidate in estimate.observations:
            assert (f"- #{candidate.id} [" in estimate.text) == candidate.included
    assert included == sorted(included) and included[0] < included[-1]
    small = nc.estimate_next_context(store, ALPHA, budget_tokens=100)
    big = nc.estimate_next_context(store, ALPHA, budget_tokens=20_000)
    assert small.left_out and not big.left_out
    # The summary is clipped at a line end with the plugin's mark when it does not fit.
    assert small.summary is not None and small.summary.clipped
    assert "\n[truncated]" in nc.estimate_next_context(store, ALPHA, budget_tokens=1500).text
    assert big.summary is not None and not big.summary.clipped


def test_rows_lose_their_snippet_before_they_are_left_out(plugin, store) -> None:
    for n in range(6):
        pin(plugin, save(plugin, f"Pinned rule {n}", T0 + n * MINUTE, content="x " * 400))

    estimate = nc.estimate_next_context(store, ALPHA, budget_tokens=100)

    # Not all six fit with their snippets in 40 % of the room: all go by title only.
    assert {c.shown for c in estimate.observations} == {layout.SHOWN_TITLE}
    assert "- #1 [decision] **Pinned rule 0**\n" in estimate.text + "\n"


def test_long_prompts_are_collapsed_and_cut(plugin, store) -> None:
    prompt(plugin, "s1", ALPHA, "word\u3000\u3000" * 150, T0)

    estimate = nc.estimate_next_context(store, ALPHA, budget_tokens=5000)

    line = next(x for x in estimate.text.splitlines() if x.startswith("- word"))
    assert utf16_len(line) == 2 + 200 + 1 and line.endswith("…")


SESSION = "### Session\nproject alpha-1a2b3c4d · session ········\n"


def test_an_empty_project_is_told_nothing_at_all(plugin, store) -> None:
    # Nothing of ALPHA's own, a BETA project row it cannot see, a forgotten ALPHA row, and
    # BETA's summary and prompt: the four parts of ALPHA are empty.
    save(plugin, "Beta-only detail", T0, project=BETA)
    forget(plugin, save(plugin, "Forgotten advice", T0 + MINUTE), T0 + 2 * MINUTE)
    summary(plugin, "s-beta", BETA, "## Goal\nbeta goal", T0)
    prompt(plugin, "s-beta", BETA, "beta prompt", T0)

    nothing = nc.estimate_next_context(store, ALPHA)

    assert nothing.text == "" and nothing.told_nothing
    assert nothing.summary is None and nothing.prompts == () and nothing.observations == ()
    assert nothing.estimated_tokens == 0
    assert nc.estimate_next_context(store, "never-seen-00000000").text == ""

    # A personal row of another project is visible from ALPHA: the block is back.
    personal = save(plugin, "Prefers tabs", T0 + 3 * MINUTE, project=BETA, scope="personal")
    told = nc.estimate_next_context(store, ALPHA)
    assert told.text == (
        layout.HEADER
        + SESSION
        + f"### Recent Observations\n- #{personal} [decision] **Prefers tabs**: **What**:"
        " Prefers tabs"
    )


def test_a_prompt_alone_is_told_with_its_whitespace_runs_collapsed(plugin, store) -> None:
    # JavaScript's whitespace: tab, newline, U+3000 and U+FEFF are runs to collapse; U+0085
    # and U+001C are not whitespace to JavaScript, so they stay.
    prompt(plugin, "s1", ALPHA, " \ufeff fix \t the\n\n cache\u3000now a\u0085b \u001c c  ", T0)

    told = nc.estimate_next_context(store, ALPHA)

    assert told.text == (
        layout.HEADER + SESSION + "### Recent User Prompts\n- fix the cache now a\u0085b \u001c c"
    )


def test_a_summary_row_with_an_empty_summary_still_opens_the_block(plugin, store) -> None:
    summary(plugin, "s1", ALPHA, "", T0)  # lastSummary finds the row: not empty to the glue

    told = nc.estimate_next_context(store, ALPHA)

    assert told.text == (layout.HEADER + SESSION).rstrip()


def test_twenty_recent_rows_are_asked_for(plugin, store) -> None:
    ids = [save(plugin, f"Note {n:02d}", T0 + n * MINUTE, content=f"body {n}") for n in range(25)]

    told = nc.estimate_next_context(store, ALPHA, budget_tokens=20_000)

    newest = list(reversed(ids))[:20]
    lines = [f"- #{i} [decision] **Note {i - 1:02d}**: body {i - 1}" for i in newest]
    assert told.text == layout.HEADER + SESSION + "### Recent Observations\n" + "\n".join(lines)
    assert [c.id for c in told.observations] == newest


def test_a_budget_too_small_for_the_pinned_rows_shows_what_fits_by_title(plugin, store) -> None:
    # 12 pinned rows, the 10 newest asked for. Worked by hand at 100 tokens (400 units):
    # header 97 + session line 54 leave 249; full lines (300-unit snippets) cannot fit in
    # 40 % (99 - 11 for the heading), so titles only in 249 - 11 = 238: three lines of 28 + 1
    # (ids 12, 11, 10) and five of 27 + 1 (ids 9..5) make 227; id 4 would make 255. Nothing
    # is left for the recent heading (24 units): 249 - 11 - 227 = 11.
    for n in range(1, 13):
        pin(plugin, save(plugin, f"Rule {n:02d}", T0 + n * MINUTE, content="x " * 400))

    told = nc.estimate_next_context(store, ALPHA, budget_tokens=100)

    assert told.text == (
        layout.HEADER
        + SESSION
        + "### Pinned\n"
        + "- #12 [decision] **Rule 12**\n"
        + "- #11 [decision] **Rule 11**\n"
        + "- #10 [decision] **Rule 10**\n"
        + "- #9 [decision] **Rule 09**\n"
        + "- #8 [decision] **Rule 08**\n"
        + "- #7 [decision] **Rule 07**\n"
        + "- #6 [decision] **Rule 06**\n"
        + "- #5 [decision] **Rule 05**"
    )
    pinned = [c for c in told.observations if c.section == layout.PINNED]
    assert [c.id for c in pinned] == list(range(12, 2, -1))
    assert [c.shown for c in pinned] == [layout.SHOWN_TITLE] * 8 + [layout.LEFT_OUT] * 2


def test_a_budget_outside_the_plugins_range_is_refused(store) -> None:
    with pytest.raises(ValueError):
        nc.estimate_next_context(store, ALPHA, budget_tokens=99)


# -- the recorded context --------------------------------------------------------------------


def test_the_newest_recorded_context_of_that_project(plugin, store) -> None:
    record(plugin, "chat-a", ALPHA, block("### Pinned\n- #1 [decision] **A**"), T0)
    record(plugin, "chat-b", ALPHA, block("### Pinned\n- #2 [decision] **B**"), T0 + MINUTE)
    record(plugin, "chat-c", BETA, block("### Pinned\n- #3 [decision] **C**"), T0 + 2 * MINUTE)

    recorded = nc.last_recorded_context(store, ALPHA)

    assert isinstance(recorded, nc.RecordedContext)
    assert recorded.session_id == "chat-b" and recorded.created_at == T0 + MINUTE
    assert recorded.content == block("### Pinned\n- #2 [decision] **B**")
    assert [(m.id, m.section, m.exists) for m in recorded.mentioned] == [(2, layout.PINNED, False)]


def test_no_recorded_context_says_why(tmp_path: Path, plugin, store) -> None:
    none_yet = nc.last_recorded_context(store, ALPHA)
    assert isinstance(none_yet, nc.NotRecorded)
    assert "no chat of this project" in none_yet.reason

    old = tmp_path / "old.sqlite"
    alisio.create_database(old, versions=(100,))
    older = ObservationStore(old)
    try:
        preview = nc.preview(older, ALPHA, env={}, home=tmp_path)
    finally:
        older.close()
    assert isinstance(preview.recorded, nc.NotRecorded)
    assert "schema 101" in preview.recorded.reason
    assert preview.changes == () and preview.next.told_nothing  # an empty project


# -- what the person's pins and forgets change -----------------------------------------------


def recorded_now(plugin: sqlite3.Connection, store: ObservationStore, at: int) -> None:
    """The plugin records what it injected at a chat's start: the block as it is now."""
    record(plugin, "chat-1", ALPHA, nc.estimate_next_context(store, ALPHA).text, at)


def test_forgetting_a_recorded_row_shows_it_no_longer_included(plugin, store) -> None:
    kept = save(plugin, "Kept decision", T0)
    gone = save(plugin, "Advice later forgotten", T0 + MINUTE)
    deleted = save(plugin, "Deleted for good", T0 + 2 * MINUTE)
    recorded_now(plugin, store, T0 + 3 * MINUTE)
    forget(plugin, gone, T0 + 4 * MINUTE)
    plugin.execute("DELETE FROM observations WHERE id=?", (deleted,))

    preview = nc.preview(store, ALPHA, env={})

    assert set(preview.changes) == {
        nc.Change(nc.REMOVED, gone, "Advice later forgotten", nc.REASON_FORGOTTEN),
        nc.Change(nc.REMOVED, deleted, "Deleted for good", nc.REASON_DELETED),
    }
    assert kept in {c.id for c in preview.next.included}


def test_pinning_an_old_row_shows_it_added(plugin, store) -> None:
    old = save(plugin, "Old but important", T0)
    for n in range(1, 22):  # the newest 20 leave the old row out of the recent ones
        save(plugin, f"Recent note {n}", T0 + n * MINUTE)
    recorded_now(plugin, store, T0 + 20 * MINUTE)
    assert (
        nc.compare(nc.estimate_next_context(store, ALPHA), nc.last_recorded_context(store, ALPHA))
        == ()
    )

    pin(plugin, old)
    preview = nc.preview(store, ALPHA, env={})

    assert nc.Change(nc.ADDED, old, "Old but important", nc.REASON_PINNED) in preview.changes
    # Pinned rows come on top of the recent ones: nothing else leaves.
    assert [c for c in preview.changes if c.kind == nc.REMOVED] == []


def test_unpinning_and_new_rows_are_named(plugin, store) -> None:
    rule = save(plugin, "Pinned rule", T0)
    pin(plugin, rule)
    for n in range(1, 21):
        save(plugin, f"Note {n}", T0 + n * MINUTE)
    recorded_now(plugin, store, T0 + 30 * MINUTE)
    pin(plugin, rule, False)
    fresh = save(plugin, "Saved after that chat", T0 + 40 * MINUTE)

    changes = nc.preview(store, ALPHA, env={}).changes

    assert nc.Change(nc.ADDED, fresh, "Saved after that chat", nc.REASON_SAVED_SINCE) in changes
    assert nc.Change(nc.REMOVED, rule, "Pinned rule", nc.REASON_UNPINNED) in changes
    # The newest twenty are the recent ones: the oldest note made way for the new one.
    assert nc.Change(nc.REMOVED, rule + 1, "Note 1", nc.REASON_PUSHED_OUT) in changes


def test_a_row_the_budget_no_longer_has_room_for_is_named(plugin, store) -> None:
    titles = [f"Note {n} " + "with a long title " * 8 for n in range(10)]
    ids = [save(plugin, t, T0 + n * MINUTE, content="words " * 60) for n, t in enumerate(titles)]
    recorded_now(plugin, store, T0 + 20 * MINUTE)
    summary(plugin, "s1", ALPHA, "## Goal\n" + "a long summary line\n" * 300, T0 + 30 * MINUTE)

    preview = nc.preview(store, ALPHA, env={})

    left_out = {c.id for c in preview.next.left_out}
    assert left_out and left_out < set(ids)
    assert {c.id for c in preview.changes} == left_out
    assert {c.reason for c in preview.changes} == {nc.REASON_NO_ROOM}


def test_a_row_named_by_its_exact_title_counts_as_recorded(plugin, store) -> None:
    row = save(plugin, "Cache invalidation rule", T0)
    record(plugin, "chat-1", ALPHA, "Loaded: Cache invalidation rule (from an older layout)", T0)

    changes = nc.preview(store, ALPHA, env={}).changes

    assert row not in {c.id for c in changes}


# -- the budget the plugin uses ----------------------------------------------------------------


def test_the_budget_comes_from_alisios_config_for_its_own_database(tmp_path: Path, path) -> None:
    config_home = tmp_path / "config"
    config_home.mkdir()
    env = {"ALISIO_STATE_HOME": str(path.parent), "ALISIO_CONFIG_HOME": str(config_home)}
    assert nc.budget_for(path, env) == nc.Budget(1500, nc.BUDGET_DEFAULT)

    config = {"builtinPlugins": {"memory": {"injectBudgetTokens": 3000}}}
    (config_home / "config.json").write_text(json.dumps(config), encoding="utf-8")
    assert nc.budget_for(path, env) == nc.Budget(3000, nc.BUDGET_CONFIGURED)

    other = tmp_path / "copy.sqlite"
    alisio.create_database(other)
    assert nc.budget_for(other, env) == nc.Budget(1500, nc.BUDGET_NOT_LOCATED)

    config["builtinPlugins"]["memory"]["enabled"] = False
    (config_home / "config.json").write_text(json.dumps(config), encoding="utf-8")
    assert nc.budget_for(path, env).plugin_off

    store = ObservationStore(path)
    try:
        assert nc.preview(store, ALPHA, env).next.budget_tokens == 3000
    finally:
        store.close()


# -- looking changes nothing -------------------------------------------------------------------


def test_the_preview_is_pure_reading(path: Path, plugin, store) -> None:
    first = save(plugin, "Read me", T0)
    pin(plugin, first)
    save(plugin, "And me", T0 + MINUTE, project=BETA, scope="personal")
    summary(plugin, "s1", ALPHA, "## Goal\nx", T0)
    prompt(plugin, "s1", ALPHA, "hello", T0)
    recorded_now(plugin, store, T0 + 2 * MINUTE)
    plugin.execute("PRAGMA wal_checkpoint(PASSIVE)")
    watcher = sqlite3.connect(path)
    try:
        version = watcher.execute("PRAGMA data_version").fetchone()[0]
        counters = watcher.execute(
            "SELECT id, access_count, last_accessed_at, updated_at FROM observations"
        ).fetchall()
        before = path.read_bytes()

        for _ in range(3):
            nc.preview(store, ALPHA, env={})

        assert watcher.execute("PRAGMA data_version").fetchone()[0] == version
        assert (
            watcher.execute(
                "SELECT id, access_count, last_accessed_at, updated_at FROM observations"
            ).fetchall()
            == counters
        )
        assert path.read_bytes() == before
    finally:
        watcher.close()


def test_a_file_without_sessions_or_prompts_tables_is_estimated_without_them(path, store) -> None:
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE memory_sessions")
    conn.execute("DROP TABLE user_prompts")
    conn.close()
    plugin = alisio.connect_like_plugin(path)
    try:
        row = save(plugin, "Only a note", T0)
    finally:
        plugin.close()

    estimate = nc.estimate_next_context(store, ALPHA)

    assert estimate.summary is None and estimate.prompts == ()
    assert [c.id for c in estimate.included] == [row]


def test_a_prompt_that_does_not_fit_is_skipped_and_a_shorter_one_still_goes_in(
    plugin, store
) -> None:
    prompt(plugin, "s1", ALPHA, "short one", T0)
    prompt(plugin, "s1", ALPHA, "a much longer prompt " * 10, T0 + MINUTE)

    estimate = nc.estimate_next_context(store, ALPHA, budget_tokens=100)

    assert [p.included for p in estimate.prompts] == [False, True]
    assert "### Recent User Prompts\n- short one" in estimate.text
