"""The demo: a real Alisio database and real agent-kit folders, with every messy case."""

from __future__ import annotations

import re
import sqlite3
import stat
import sys
from pathlib import Path

import pytest

from memory_desk.core.alisio import (
    KNOWN_SCHEMA_VERSIONS,
    OBSERVATION_TYPES,
    SCOPES,
    TRUNCATED_SUFFIX,
    is_valid_topic_key,
    normalized_hash,
)
from memory_desk.core.locate import locate_alisio, locate_persona_folders
from memory_desk.demo import PROJECTS, Demo, build_demo

SUMMARY_SECTIONS = (
    "Goal",
    "Instructions",
    "Discoveries",
    "Accomplished",
    "Next Steps",
    "Relevant Files",
)
AGENT_FORMAT = re.compile(
    rb"---\nname: (?P<name>[a-z0-9]+(?:-[a-z0-9]+)*)\ndescription: [^\n]+\n"
    rb"type: (?:user|feedback)\nupdated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\n---\n\n"
    rb"\S(?:.*\S)?\n",
    re.DOTALL,
)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    return build_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def db(demo: Demo):
    conn = sqlite3.connect(f"file:{demo.db_path}?mode=ro", uri=True)
    yield conn
    conn.close()


def scalar(db: sqlite3.Connection, sql: str) -> object:
    return db.execute(sql).fetchone()[0]


# -- The database -------------------------------------------------------------------------


def test_database_is_a_current_alisio_database(demo: Demo, db: sqlite3.Connection) -> None:
    versions = {row[0] for row in db.execute("SELECT version FROM schema_migrations")}
    assert versions == set(KNOWN_SCHEMA_VERSIONS) == {100, 101}
    assert scalar(db, "PRAGMA journal_mode") == "wal"
    if sys.platform != "win32":
        assert stat.S_IMODE(demo.db_path.stat().st_mode) == 0o600


def test_fts_index_is_consistent(demo: Demo) -> None:
    conn = sqlite3.connect(demo.db_path)
    try:
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")
        hits = scalar(
            conn,
            "SELECT count(*) FROM observations_fts WHERE observations_fts MATCH '\"checkout\"'",
        )
    finally:
        conn.close()
    assert hits > 0


def test_a_few_hundred_observations_across_three_projects(db: sqlite3.Connection) -> None:
    assert 250 <= scalar(db, "SELECT count(*) FROM observations") <= 500
    per_project = dict(db.execute("SELECT project, count(*) FROM observations GROUP BY project"))
    assert set(per_project) == {project.id for project in PROJECTS}
    assert all(count >= 60 for count in per_project.values())


def test_both_scopes_and_every_type(db: sqlite3.Connection) -> None:
    scopes = dict(db.execute("SELECT scope, count(*) FROM observations GROUP BY scope"))
    assert set(scopes) == set(SCOPES)
    assert scopes["personal"] >= 10
    types = dict(db.execute("SELECT type, count(*) FROM observations GROUP BY type"))
    assert set(types) == set(OBSERVATION_TYPES)
    assert min(types.values()) >= 10


def test_rows_follow_the_plugins_rules(db: sqlite3.Connection) -> None:
    rows = db.execute(
        "SELECT title, content, normalized_hash, topic_key, created_at, updated_at, deleted_at"
        " FROM observations"
    ).fetchall()
    for title, content, digest, topic_key, created, updated, deleted in rows:
        assert digest == normalized_hash(content)
        assert len(title) <= 200 and len(content) <= 50_000
        assert re.search(
            r"\*\*What\*\*: .+\n\*\*Why\*\*: .+\n\*\*Where\*\*: .+\n\*\*Learned\*\*: ", content
        )
        assert topic_key is None or is_valid_topic_key(topic_key)
        assert created <= updated
        assert deleted is None or deleted > updated


def test_pins_forgets_and_hard_deletes(db: sqlite3.Connection) -> None:
    assert scalar(db, "SELECT count(*) FROM observations WHERE pinned = 1") >= 5
    assert scalar(db, "SELECT count(*) FROM observations WHERE deleted_at IS NOT NULL") >= 10
    # Rows forgotten for good leave gaps in the ids.
    assert scalar(db, "SELECT max(id) - count(*) FROM observations") >= 2


def test_topic_revisions_and_duplicates(db: sqlite3.Connection) -> None:
    assert scalar(db, "SELECT count(*) FROM observations WHERE revision_count > 1") >= 5
    assert scalar(db, "SELECT max(revision_count) FROM observations") >= 3
    assert scalar(db, "SELECT count(*) FROM observations WHERE duplicate_count > 1") >= 5
    read = scalar(
        db,
        "SELECT count(*) FROM observations WHERE access_count > 0 AND last_accessed_at IS NOT NULL",
    )
    assert read >= 50


def test_private_parts_are_redacted(db: sqlite3.Connection) -> None:
    assert scalar(db, "SELECT count(*) FROM observations WHERE content LIKE '%[REDACTED]%'") >= 3
    assert scalar(db, "SELECT count(*) FROM user_prompts WHERE content LIKE '%[REDACTED]%'") >= 1
    for table in ("observations", "user_prompts", "injected_context", "memory_sessions"):
        column = "summary" if table == "memory_sessions" else "content"
        assert scalar(db, f"SELECT count(*) FROM {table} WHERE {column} LIKE '%<private>%'") == 0


def test_one_body_hit_the_content_cap(db: sqlite3.Connection) -> None:
    capped = db.execute("SELECT content FROM observations WHERE length(content) = 50000").fetchall()
    assert len(capped) == 1
    assert capped[0][0].endswith(TRUNCATED_SUFFIX)


def test_producers_include_compaction_and_session_summary(db: sqlite3.Connection) -> None:
    tools = {row[0] for row in db.execute("SELECT DISTINCT tool_name FROM observations")}
    assert {"memory_save", "compaction", "session_summary"} <= tools


def test_sessions_with_summaries_prompts_and_loaded_context(db: sqlite3.Connection) -> None:
    sessions = db.execute("SELECT id, ended_at, summary FROM memory_sessions").fetchall()
    assert len(sessions) >= 30
    summaries = [summary for _, _, summary in sessions if summary]
    assert len(summaries) >= 20
    for summary in summaries:
        assert [line[3:] for line in summary.splitlines() if line.startswith("## ")] == list(
            SUMMARY_SECTIONS
        )
    assert sum(ended is None for _, ended, _ in sessions) == 1  # a chat still open
    ids = {session_id for session_id, _, _ in sessions}
    observation_sessions = {row[0] for row in db.execute("SELECT session_id FROM observations")}
    assert observation_sessions <= ids
    prompts = db.execute("SELECT session_id, length(content) FROM user_prompts").fetchall()
    assert len(prompts) >= 60
    assert {session_id for session_id, _ in prompts} <= ids
    assert max(length for _, length in prompts) <= 2000
    context = {row[0] for row in db.execute("SELECT session_id FROM injected_context")}
    assert context and context < ids  # chats from before the upgrade have none


def test_demo_is_deterministic(demo: Demo, tmp_path: Path) -> None:
    again = build_demo(tmp_path)
    assert again.db_path.read_bytes() == demo.db_path.read_bytes()
    for first, second in zip(demo.persona_folders, again.persona_folders, strict=True):
        assert folder_bytes(first) == folder_bytes(second)


def test_building_twice_in_one_folder_refuses(tmp_path: Path) -> None:
    build_demo(tmp_path)
    with pytest.raises(FileExistsError):
        build_demo(tmp_path)


# -- Locate finds the demo as it would find a real home ----------------------------------


def test_locate_finds_the_demo_database_and_settings(demo: Demo) -> None:
    location = locate_alisio(env={}, home=demo.home)
    assert location.db_path == demo.db_path and location.exists and location.enabled
    assert location.config_path == demo.config_path
    assert location.settings["injectBudgetTokens"] == 2400
    assert location.problems == ()


def test_locate_finds_the_demo_persona_folders(demo: Demo) -> None:
    found = locate_persona_folders(demo.home)
    assert [f.path for f in found] == demo.persona_folders
    assert [f.label for f in found] == ["miyagi", "padawan", "padawan (evening-class)"]


# -- Persona folders ----------------------------------------------------------------------


def folder_bytes(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}


@pytest.fixture(scope="module")
def miyagi(demo: Demo) -> dict[str, bytes]:
    return folder_bytes(demo.home / ".miyagi" / "memory")


def test_about_twenty_entry_files(demo: Demo) -> None:
    entries = [
        path
        for folder in demo.persona_folders
        for path in folder.glob("*.md")
        if not path.name.startswith(".")
    ]
    assert 16 <= len(entries) <= 24


def test_well_formed_entries_are_byte_exact_agent_output(demo: Demo) -> None:
    well_formed, name_differs = 0, set()
    for folder in demo.persona_folders:
        for name, data in folder_bytes(folder).items():
            match = AGENT_FORMAT.fullmatch(data)
            if match is None or name.startswith(".") or not name.endswith(".md"):
                continue
            well_formed += 1
            if match["name"].decode() + ".md" != name:
                name_differs.add(name)
    assert well_formed >= 10
    assert name_differs == {"prefers-spanish-examples.md", "Exam Ideas.md"}


def test_problem_cases_are_present(miyagi: dict[str, bytes]) -> None:
    assert "Exam Ideas.md" in miyagi  # not kebab-case: the agent never sees it
    assert miyagi["uses-moodle.md"].startswith(b"\xef\xbb\xbf---\n")
    assert not miyagi["lab-safety.md"].startswith(b"---")
    assert b"\nname: prefers-english-examples\n" in miyagi["prefers-spanish-examples.md"]
    assert b"\ntype: habit\n" in miyagi["grading-day.md"]
    assert re.search(rb"\ndescription: ?\n", miyagi["dislikes-emoji.md"])
    assert b"\nupdated: 14/10/2026 09:30\n" in miyagi["school-schedule.md"]
    with pytest.raises(UnicodeDecodeError):
        miyagi["cafe-notes.md"].decode("utf-8")
    assert miyagi["metric-units-only.md"].count(b"\r\n") >= 6
    assert b"\ntags: [class, privacy]\n" in miyagi["calls-students-by-first-name.md"]


def test_files_that_are_not_entries(demo: Demo, miyagi: dict[str, bytes]) -> None:
    assert ".draft-idea.md" in miyagi
    assert miyagi[".short-answers.md.swp"].startswith(b"b0VIM")
    assert "short-answers.md~" in miyagi
    padawan = demo.home / ".padawan" / "memory"
    assert (padawan / "notes.txt").is_file()
    assert (padawan / "evening-class").is_dir()  # an account, not an entry
    assert b"\nsubjects:\n  - maths\n" in (padawan / "quiz-before-summaries.md").read_bytes()
