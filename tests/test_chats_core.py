"""The chats core against databases built with the plugin's own DDL and writes.

Observations are saved with ``alisio.save_observation`` (the plugin's ``memory_save``);
sessions, prompts and loaded contexts are plain INSERTs shaped as the plugin's
``recordPrompt``, ``saveSummary`` and ``saveInjectedContext`` write them. The saved-in-chat
list and the timeline are checked against references computed here in Python from the rules
(the web tab's ``recordsOfSession``, the plugin's ``timeline``), not from our SQL.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from memory_desk.core import StoreError, alisio
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.chats import (
    EXCERPT_UNITS,
    chat_detail,
    chat_projects,
    excerpt,
    list_chats,
    saved_in_chat,
    summary_sections,
    timeline,
)

T0 = 1_790_000_000_000
MIN = 60_000
ALPHA = "alpha-1a2b3c4d"
BETA = "beta-5e6f7a8b"
SUMMARY = (
    "## Goal\nShip the parser.\n\n## Instructions\nKeep WAL.\n\n**Discoveries**\nTrigram"
    " needs 3 chars.\n\n## Accomplished\n- parser\n\n**Next Steps:**\n- tests\n\n"
    "## Relevant Files\n- src/store.ts"
)
CONTEXT = "## Memory\r\n\t- pinned:  WAL   \r\n😀 café\u00a0x\n\nend  "


def plugin_session(conn, sid, project, *, directory=None, started=None, ended=None, summary=None):
    conn.execute(
        "INSERT INTO memory_sessions(id, project, directory, started_at, ended_at, summary)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (sid, project, directory, started, ended, summary),
    )


def plugin_prompt(conn, sid, project, content, at):
    conn.execute(
        "INSERT INTO user_prompts(session_id, content, project, created_at) VALUES (?, ?, ?, ?)",
        (sid, content, project, at),
    )


def plugin_context(conn, sid, project, content, at):
    conn.execute(
        "INSERT INTO injected_context(session_id, project, content, created_at)"
        " VALUES (?, ?, ?, ?)",
        (sid, project, content, at),
    )


def save(conn, **values):
    values.setdefault("type", "decision")
    values.setdefault("project", ALPHA)
    values.setdefault("content", f"**What** {values['title']}")
    return alisio.save_observation(conn, **values).id


def build(path: Path, versions=(100, 101)) -> dict[str, int]:
    """Four chats, each named by one source only (plus a full one), and a chat-less row."""
    alisio.create_database(path, versions=versions)
    conn = alisio.connect_like_plugin(path)
    ids = {}
    try:
        # chat-a: everything (prompts create the session row, the summary fills it)
        plugin_session(
            conn,
            "chat-a",
            ALPHA,
            directory="/home/ana/alpha",
            started=T0,
            ended=T0 + 50 * MIN,
            summary=SUMMARY,
        )
        plugin_prompt(conn, "chat-a", ALPHA, "second, same time", T0 + 2 * MIN)
        plugin_prompt(conn, "chat-a", ALPHA, "first prompt", T0 + MIN)
        plugin_prompt(conn, "chat-a", ALPHA, "third, same time", T0 + 2 * MIN)
        if 101 in versions:
            plugin_context(conn, "chat-a", ALPHA, CONTEXT, T0)
        ids["a1"] = save(conn, title="Use WAL", session_id="chat-a", now=T0 + 3 * MIN)
        ids["a2"] = save(
            conn, title="Parser bug", type="bugfix", session_id="chat-a", now=T0 + 4 * MIN
        )
        ids["a3"] = save(conn, title="Forgotten one", session_id="chat-a", now=T0 + 5 * MIN)
        conn.execute(
            "UPDATE observations SET deleted_at = ? WHERE id = ?", (T0 + 6 * MIN, ids["a3"])
        )
        # chat-b: only memory_save rows, no session row (memory_save never makes one)
        ids["b1"] = save(
            conn, title="Only saved", project=BETA, session_id="chat-b", now=T0 + 100 * MIN
        )
        # chat-c: only a prompt (its session row is not there)
        plugin_prompt(conn, "chat-c", BETA, "hello from c", T0 + 200 * MIN)
        # chat-d: only the loaded context (recorded at start, before any prompt)
        if 101 in versions:
            plugin_context(conn, "chat-d", ALPHA, "context of d", T0 + 300 * MIN)
        # a row saved outside any chat
        ids["none"] = save(conn, title="No chat", now=T0 + 400 * MIN)
    finally:
        conn.close()
    return ids


@pytest.fixture
def db(tmp_path: Path):
    path = tmp_path / "memory.sqlite"
    ids = build(path)
    store = ObservationStore(path)
    yield path, store, ids
    store.close()


# ----------------------------------------------------------------------------- the list


def test_every_source_names_a_chat_newest_first_with_live_counts(db):
    _path, store, _ids = db
    rows = list_chats(store)
    assert [row.id for row in rows] == ["chat-d", "chat-c", "chat-b", "chat-a"]
    by_id = {row.id: row for row in rows}
    a = by_id["chat-a"]
    assert (a.project, a.directory, a.started_at, a.ended_at) == (
        ALPHA,
        "/home/ana/alpha",
        T0,
        T0 + 50 * MIN,
    )
    assert a.saved == 2  # the forgotten row does not count
    assert a.has_summary and a.has_context
    assert a.summary_excerpt.startswith("Goal: Ship the parser. Instructions:")
    # Without a session row: the project and the time of the first thing recorded.
    assert (by_id["chat-b"].project, by_id["chat-b"].at, by_id["chat-b"].saved) == (
        BETA,
        T0 + 100 * MIN,
        1,
    )
    assert (by_id["chat-c"].project, by_id["chat-c"].at) == (BETA, T0 + 200 * MIN)
    assert by_id["chat-d"].has_context and not by_id["chat-d"].has_summary
    assert rows.missing is None
    assert chat_projects(store) == [ALPHA, BETA]


def test_the_list_is_filtered_by_text_of_any_length_and_by_project(db):
    _path, store, _ids = db
    assert [r.id for r in list_chats(store, text="TRIGRAM")] == ["chat-a"]  # in the summary
    assert [r.id for r in list_chats(store, text="ana/")] == ["chat-a"]  # the directory
    assert [r.id for r in list_chats(store, text="beta")] == ["chat-c", "chat-b"]  # project
    assert [r.id for r in list_chats(store, text="-d")] == ["chat-d"]  # the id, two characters
    assert [r.id for r in list_chats(store, text="  wal  goal ")] == ["chat-a"]  # every word
    assert [r.id for r in list_chats(store, text="%")] == []  # a wildcard is a character
    assert [r.id for r in list_chats(store, project=ALPHA)] == ["chat-d", "chat-a"]
    assert [r.id for r in list_chats(store, project=BETA, text="hello")] == []


def test_the_excerpt_collapses_javascript_whitespace_and_cuts_in_utf16_units():
    assert excerpt("a\u2028\u00a0 b\ufeff\tc ") == "a b c"
    long = "😀" * EXCERPT_UNITS
    cut = excerpt(long)
    assert cut == "😀" * (EXCERPT_UNITS // 2) + "…"
    assert excerpt("short") == "short"


def test_the_listing_is_a_few_statements_whatever_the_number_of_chats(tmp_path: Path):
    """Set-based: the same statements for 3 chats as for 300 (never one query per chat)."""
    counts = []
    for chats in (3, 300):
        path = tmp_path / f"m{chats}.sqlite"
        alisio.create_database(path)
        conn = alisio.connect_like_plugin(path)
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO memory_sessions(id, project, started_at) VALUES (?, ?, ?)",
            [(f"s{i}", ALPHA, T0 + i) for i in range(chats)],
        )
        conn.execute("COMMIT")
        conn.close()
        store = ObservationStore(path)
        statements: list[str] = []
        store.read("trace", lambda c, seen: c.set_trace_callback(seen.append), statements)
        assert len(list_chats(store)) == chats
        store.read("trace", lambda c: c.set_trace_callback(None))
        # statements run, not SQLite's trace of the table_info pragmas inside one ("-- ...")
        counts.append(len([s for s in statements if not s.startswith("-- ")]))
        store.close()
    assert counts[0] == counts[1] <= 3


# ----------------------------------------------------------------------------- one chat


def test_the_detail_holds_the_summary_sections_the_exact_context_and_the_prompts(db):
    _path, store, _ids = db
    found = chat_detail(store, "chat-a")
    assert found.summary == SUMMARY
    assert [s.title for s in found.sections] == [
        "Goal",
        "Instructions",
        "Discoveries",
        "Accomplished",
        "Next Steps",
        "Relevant Files",
    ]
    assert found.sections[2].body == "Trigram needs 3 chars."
    assert not found.text_only
    assert found.context == CONTEXT and found.context_at == T0 and found.context_missing is None
    # created_at order, id breaking the tie (the order they were typed)
    assert [p.content for p in found.prompts] == [
        "first prompt",
        "second, same time",
        "third, same time",
    ]
    assert chat_detail(store, "no-such-chat") is None


def test_a_summary_without_the_plugins_headings_is_text_only():
    assert summary_sections("Just a paragraph.\n**Goals** are not Goal") == ()
    sections = summary_sections("Intro\n### next steps\n- a\n**Goal:**\nb")
    assert [(s.title, s.body) for s in sections] == [
        ("", "Intro"),
        ("next steps", "- a"),
        ("Goal", "b"),
    ]


def test_a_chat_without_a_recorded_context_says_why(db):
    _path, store, _ids = db
    found = chat_detail(store, "chat-b")
    assert found.context is None
    assert "started before the plugin recorded" in found.context_missing
    assert found.summary is None and found.prompts == ()


def test_a_database_without_schema_101_lists_chats_and_says_context_is_not_recorded(
    tmp_path: Path,
):
    path = tmp_path / "old.sqlite"
    build(path, versions=(100,))
    store = ObservationStore(path)
    try:
        assert 101 not in store.schema_versions
        rows = list_chats(store)
        assert [r.id for r in rows] == ["chat-c", "chat-b", "chat-a"]
        assert not any(r.has_context for r in rows) and rows.missing is None
        found = chat_detail(store, "chat-a")
        assert found.context is None and "schema 101" in found.context_missing
        assert len(found.prompts) == 3
    finally:
        store.close()


def test_a_database_missing_the_session_tables_answers_empty_with_a_reason(tmp_path: Path):
    path = tmp_path / "minimal.sqlite"
    build(path)
    conn = sqlite3.connect(path)
    conn.executescript("DROP TABLE memory_sessions; DROP TABLE user_prompts;")
    conn.close()
    store = ObservationStore(path)
    try:
        rows = list_chats(store, text="a")
        assert {r.id for r in rows} == {"chat-a", "chat-b", "chat-d"}
        assert "memory_sessions" in rows.missing and "user_prompts" in rows.missing
        found = chat_detail(store, "chat-a")
        assert found.summary is None and found.prompts == () and found.prompts_missing
        assert found.context == CONTEXT
    finally:
        store.close()


def test_a_closed_store_raises_store_errors(db):
    _path, store, _ids = db
    store.close()
    for call in (
        lambda: list_chats(store),
        lambda: chat_detail(store, "chat-a"),
        lambda: saved_in_chat(store, "chat-a"),
        lambda: timeline(store, 1),
    ):
        with pytest.raises(StoreError):
            call()


# ----------------------------------------------------------------------------- saved in a chat


def _ascii_lower(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)


def saved_reference(path: Path, session: str, kind: str | None, text: str) -> list[int]:
    """recordsOfSession's rules, in Python: that session's live rows, optional type, the
    trimmed text in title/content/topic_key folding ASCII case only (SQLite's LIKE);
    pinned first, then updated_at DESC, id DESC."""
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT id, type, title, content, topic_key, pinned, updated_at, deleted_at,"
        " session_id FROM observations"
    ).fetchall()
    conn.close()
    needle = _ascii_lower(text.strip(alisio_js_space()))
    kept = [
        r
        for r in rows
        if r[8] == session
        and r[7] is None
        and (kind is None or r[1] == kind)
        and (not needle or any(needle in _ascii_lower(v or "") for v in (r[2], r[3], r[4])))
    ]
    kept.sort(key=lambda r: (-r[5], -r[6], -r[0]))
    return [r[0] for r in kept]


def alisio_js_space() -> str:
    from memory_desk.core.jstext import JS_WHITESPACE

    return JS_WHITESPACE


def test_saved_in_chat_follows_the_web_tabs_rules(tmp_path: Path):
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    titles = [
        ("Ñandú notes", "pattern", None),
        ("ñandú lower", "pattern", "birds/nandu"),
        ("100% sure", "decision", None),
        ("snake_case rule", "config", "style/snake-case"),
        ("Back\\slash path", "config", None),
        ("WAL mode", "decision", "db/wal-mode"),
        ("Same time A", "learning", None),
        ("Same time B", "learning", None),
        ("Gone", "decision", None),
    ]
    ids = []
    for n, (title, kind, topic) in enumerate(titles):
        at = T0 + (n if not title.startswith("Same") else 100) * MIN
        ids.append(save(conn, title=title, type=kind, topic_key=topic, session_id="chat-x", now=at))
    save(conn, title="Other chat WAL", session_id="chat-y", now=T0)
    conn.execute("UPDATE observations SET pinned = 1 WHERE id = ?", (ids[0],))
    conn.execute("UPDATE observations SET deleted_at = ? WHERE id = ?", (T0, ids[-1]))
    conn.close()
    store = ObservationStore(path)
    try:
        for kind in (None, "pattern", "decision", "config", "learning", "bugfix"):
            for text in (
                "",
                "wal",
                "W",
                "%",
                "_",
                "\\",
                "ñandú",
                "ÑANDÚ",
                "  100  ",
                "nandu",
                "same time",
                "e",
                "\u00a0mode\ufeff",
            ):
                got = [o.id for o in saved_in_chat(store, "chat-x", type=kind, text=text)]
                assert got == saved_reference(path, "chat-x", kind, text), (kind, text)
        everything = [o.id for o in saved_in_chat(store, "chat-x")]
        assert everything[0] == ids[0]  # pinned first
        assert everything[1:3] == [ids[7], ids[6]]  # same updated_at: id DESC
        assert ids[-1] not in everything
        # ASCII-only folding, as SQLite's LIKE: Ñ does not find ñ
        assert [o.id for o in saved_in_chat(store, "chat-x", text="ÑANDÚ")] == []
    finally:
        store.close()


# ----------------------------------------------------------------------------- timeline


def _reference(
    path: Path, anchor_id: int, before: int, after: int, project: str | None = None
) -> list[int]:
    """The plugin's timeline in Python: same session (the anchor's project without one),
    visible from the viewing ``project`` (None: the anchor's own), (created_at, id) order
    around the anchor, clamped 0..10."""
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT id, session_id, project, scope, created_at, deleted_at FROM observations"
    ).fetchall()
    conn.close()
    anchor = next(r for r in rows if r[0] == anchor_id)
    viewer = anchor[2] if project is None else project
    b, a = min(max(before, 0), 10), min(max(after, 0), 10)
    pool = sorted(
        (
            r
            for r in rows
            if r[5] is None
            and (r[2] == viewer or r[3] == "personal")
            and (r[1] == anchor[1] if anchor[1] else r[2] == anchor[2])
        ),
        key=lambda r: (r[4], r[0]),
    )
    key = (anchor[4], anchor[0])
    older = [r[0] for r in pool if (r[4], r[0]) < key]
    newer = [r[0] for r in pool if (r[4], r[0]) > key]
    return (older[-b:] if b else []) + [anchor_id] + newer[:a]


@pytest.fixture
def timeline_db(tmp_path: Path):
    """One chat with ties on created_at, another project's personal and project rows in the
    same chat, forgotten rows, and rows without a chat in two projects."""
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    plan = []
    for n in range(16):
        at = T0 + (n // 3) * MIN  # three rows per minute: ties broken by id
        project, scope = ALPHA, "project"
        if n % 5 == 1:
            project, scope = BETA, "personal"  # visible from alpha
        if n % 7 == 2:
            project, scope = BETA, "project"  # not visible from alpha
        plan.append((f"row {n}", "chat-t", project, scope, at))
    for n in range(6):
        plan.append((f"loose {n}", None, ALPHA if n % 2 else BETA, "project", T0 + n * MIN))
    ids = []
    for title, session, project, scope, at in plan:
        ids.append(
            save(conn, title=title, session_id=session, project=project, scope=scope, now=at)
        )
    for forgotten in (ids[4], ids[9]):
        conn.execute("UPDATE observations SET deleted_at = ? WHERE id = ?", (T0, forgotten))
    conn.close()
    store = ObservationStore(path)
    yield path, store, ids
    store.close()


def test_the_timeline_is_the_plugins_memory_timeline(timeline_db):
    path, store, ids = timeline_db
    for anchor in ids:
        if anchor in (ids[4], ids[9]):
            continue
        for before, after in ((3, 3), (0, 0), (-5, 99), (10, 1), (2, 11)):
            found = timeline(store, anchor, before, after)
            assert [o.id for o in found.entries] == _reference(path, anchor, before, after), (
                anchor,
                before,
                after,
            )
            assert found.agent_answers
            assert found.by_session == (found.anchor.session_id is not None)


def test_a_personal_row_seen_from_another_project_has_that_projects_timeline(timeline_db):
    path, store, ids = timeline_db
    personal = [oid for n, oid in enumerate(ids[:16]) if n % 5 == 1]  # beta's, in chat-t
    assert personal
    for anchor in personal:
        for viewer in (ALPHA, BETA, "gamma-99999999"):
            for before, after in ((3, 3), (10, 10), (0, 2)):
                found = timeline(store, anchor, before, after, project=viewer)
                expected = _reference(path, anchor, before, after, viewer)
                assert [o.id for o in found.entries] == expected, (anchor, viewer)
                assert found.agent_answers and found.project == viewer


def test_a_timeline_worked_by_hand_from_three_projects(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    plan = [  # title, project, scope: one chat of alpha's, a minute apart
        ("alpha first", ALPHA, "project"),
        ("beta personal", BETA, "personal"),
        ("alpha second", ALPHA, "project"),
        ("beta project", BETA, "project"),
    ]
    first, personal, second, beta_only = (
        save(conn, title=t, session_id="chat-a", project=p, scope=sc, now=T0 + n * MIN)
        for n, (t, p, sc) in enumerate(plan)
    )
    conn.close()
    store = ObservationStore(path)
    try:

        def seen_from(project: str | None) -> list[int]:
            return [o.id for o in timeline(store, personal, project=project).entries]

        assert seen_from(ALPHA) == [first, personal, second]  # the chat's own view
        assert seen_from(BETA) == [personal, beta_only]
        assert seen_from("gamma-99999999") == [personal]
        assert seen_from(None) == seen_from(BETA)  # the row's own project
        # A project row of beta's seen from alpha: the agent there cannot see it.
        from_alpha = timeline(store, beta_only, project=ALPHA)
        assert not from_alpha.agent_answers
        assert [o.id for o in from_alpha.entries] == [first, personal, second, beta_only]
    finally:
        store.close()


def test_a_forgotten_anchor_still_shows_its_neighbours_and_says_the_agent_would_not(
    timeline_db,
):
    path, store, ids = timeline_db
    found = timeline(store, ids[4])
    assert not found.agent_answers and found.anchor.forgotten
    assert [o.id for o in found.entries] == _reference(path, ids[4], 3, 3)
    assert ids[9] not in [o.id for o in found.entries]  # forgotten neighbours stay out
    assert timeline(store, 99_999) is None


# ----------------------------------------------------------------------------- pure reading


def test_reading_every_chat_changes_nothing(db):
    path, store, ids = db
    watcher = sqlite3.connect(path)
    version = watcher.execute("PRAGMA data_version").fetchone()[0]
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in _files(path)}
    access = watcher.execute("SELECT sum(access_count), max(last_accessed_at) FROM observations")
    access = access.fetchone()
    for row in list_chats(store):
        chat_detail(store, row.id)
        saved_in_chat(store, row.id, text="a")
    for oid in ids.values():
        timeline(store, oid, 10, 10)
    chat_projects(store)
    assert watcher.execute("PRAGMA data_version").fetchone()[0] == version
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in _files(path)} == before
    assert (
        watcher.execute(
            "SELECT sum(access_count), max(last_accessed_at) FROM observations"
        ).fetchone()
        == access
    )
    watcher.close()


def _files(path: Path) -> list[Path]:
    return [p for p in (path, Path(f"{path}-wal")) if p.exists()]
