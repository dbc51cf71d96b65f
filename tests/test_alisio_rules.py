"""The plugin's write rules as memory_desk.core.alisio reproduces them (FORMATS.md, part A)."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest

from alisio_fixtures import build_database
from memory_desk.core import alisio


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    return path


def fts_integrity_ok(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")


def test_database_is_created_as_the_plugin_does(db: Path) -> None:
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    conn = alisio.connect_like_plugin(db)
    versions = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
    assert versions == {100, 101}
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    triggers = {
        row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")
    }
    assert len(triggers) == 3


# The plugin's own names (src/store.ts), written out here rather than read from alisio.py,
# so a fixture built from anything else fails.
PLUGIN_OBJECTS = {
    ("table", "schema_migrations", "schema_migrations"),
    ("table", "observations", "observations"),
    ("index", "observations_recent", "observations"),
    ("index", "observations_topic", "observations"),
    ("index", "observations_hash", "observations"),
    ("index", "observations_session", "observations"),
    ("table", "observations_fts", "observations_fts"),
    ("trigger", "observations_ai", "observations"),
    ("trigger", "observations_ad", "observations"),
    ("trigger", "observations_au", "observations"),
    ("table", "memory_sessions", "memory_sessions"),
    ("index", "memory_sessions_recent", "memory_sessions"),
    ("table", "user_prompts", "user_prompts"),
    ("index", "user_prompts_recent", "user_prompts"),
    ("table", "injected_context", "injected_context"),
}
# What SQLite itself adds: FTS5's shadow tables, AUTOINCREMENT's counter, the indexes of
# TEXT primary keys.
SQLITE_OBJECTS = {
    ("table", f"observations_fts_{shadow}", f"observations_fts_{shadow}")
    for shadow in ("data", "idx", "docsize", "config")
} | {
    ("table", "sqlite_sequence", "sqlite_sequence"),
    ("index", "sqlite_autoindex_memory_sessions_1", "memory_sessions"),
    ("index", "sqlite_autoindex_injected_context_1", "injected_context"),
}
INDEX_COLUMNS = {
    "observations_recent": ["project", "deleted_at", "updated_at"],
    "observations_topic": ["scope", "topic_key", "project"],
    "observations_hash": ["normalized_hash", "project"],
    "observations_session": ["session_id", "created_at"],
    "memory_sessions_recent": ["project", "ended_at"],
    "user_prompts_recent": ["project", "created_at"],
}


def schema_objects(path: Path) -> set[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT type, name, tbl_name FROM sqlite_master").fetchall()
    conn.close()
    return set(rows)


def test_the_ddl_creates_exactly_the_plugins_objects(db: Path) -> None:
    assert schema_objects(db) == PLUGIN_OBJECTS | SQLITE_OBJECTS
    conn = sqlite3.connect(db)
    for index, columns in INDEX_COLUMNS.items():
        assert [row[2] for row in conn.execute(f"PRAGMA index_info({index})")] == columns
    partial = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'observations_topic'")
    assert "WHERE topic_key IS NOT NULL" in partial.fetchone()[0]
    triggers = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))
    assert "AFTER INSERT ON observations" in triggers["observations_ai"]
    assert "AFTER DELETE ON observations" in triggers["observations_ad"]
    assert (
        "AFTER UPDATE OF title, content, tool_name, type, project, topic_key ON observations"
        in triggers["observations_au"]
    )
    conn.close()


def test_the_test_fixtures_build_the_plugins_schema(tmp_path: Path) -> None:
    built = build_database(tmp_path / "fixture.sqlite", 5)
    assert schema_objects(built) == PLUGIN_OBJECTS | SQLITE_OBJECTS


def test_the_migration_runs_again_without_error(db: Path) -> None:
    """Every statement is ``IF NOT EXISTS`` / ``OR IGNORE``, as the plugin's are."""
    conn = alisio.connect_like_plugin(db)
    conn.executescript(alisio.SCHEMA_PREAMBLE)
    conn.executescript("BEGIN;" + alisio.SCHEMA_100 + alisio.SCHEMA_101 + "COMMIT;")
    conn.close()
    assert schema_objects(db) == PLUGIN_OBJECTS | SQLITE_OBJECTS


def test_older_plugin_database_has_no_injected_context(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    alisio.create_database(path, versions=(100,))
    conn = sqlite3.connect(path)
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "injected_context" not in tables
    assert "observations" in tables


def test_normalized_hash_ignores_case_and_whitespace_runs() -> None:
    assert alisio.normalized_hash("  Hello \n\t World ") == alisio.normalized_hash("hello world")
    assert alisio.normalized_hash("hello world") != alisio.normalized_hash("hello  worlds")


def test_private_spans_are_redacted_across_lines() -> None:
    text = "key <private>sk-123\nsecret</private> and <PRIVATE>x</PRIVATE> end"
    assert alisio.redact(text) == "key [REDACTED] and [REDACTED] end"


def test_caps_keep_the_plugin_limits() -> None:
    assert alisio.cap_title("t" * 500) == "t" * 185 + "... [truncated]"
    capped = alisio.cap_content("c" * 60_000)
    assert len(capped) == alisio.CONTENT_CAP and capped.endswith("... [truncated]")
    assert alisio.cap_content("short") == "short"


@pytest.mark.parametrize(
    ("key", "valid"),
    [
        ("auth/jwt-rotation", True),
        ("family/sub/deeper", False),  # stored as family/sub-deeper
        ("Auth/x", False),
        ("nofamily", True),  # a family-only key is a key
        ("a//b", False),
        ("a/b-", False),
        ("", False),
    ],
)
def test_topic_key_validation(key: str, valid: bool) -> None:
    """Valid: the plugin stores the key as it is."""
    assert alisio.is_valid_topic_key(key) is valid


def test_project_id_is_basename_and_hash_of_realpath(tmp_path: Path) -> None:
    project = tmp_path / "my-app"
    project.mkdir()
    name = alisio.project_id(project)
    assert name.startswith("my-app-") and len(name) == len("my-app-") + 8


def test_save_topic_upsert_revision_and_duplicate(db: Path) -> None:
    conn = alisio.connect_like_plugin(db)
    first = alisio.save_observation(
        conn,
        title="JWT",
        content="**What** rotate",
        type="decision",
        project="p-1",
        topic_key="auth/jwt",
        now=1_000,
    )
    assert first.action == "created"
    revised = alisio.save_observation(
        conn,
        title="JWT v2",
        content="**What** rotate daily",
        type="decision",
        project="p-1",
        topic_key="auth/jwt",
        now=2_000,
    )
    assert revised == alisio.SaveResult(first.id, "revised")
    same = alisio.save_observation(
        conn,
        title="JWT v2",
        content="**what**   ROTATE daily",
        type="decision",
        project="p-1",
        topic_key="auth/jwt",
        now=3_000,
    )
    assert same == alisio.SaveResult(first.id, "duplicate")
    row = conn.execute(
        "SELECT revision_count, duplicate_count, updated_at, last_seen_at, created_at"
        " FROM observations WHERE id = ?",
        (first.id,),
    ).fetchone()
    assert row == (2, 2, 3_000, 3_000, 1_000)
    fts_integrity_ok(conn)


def test_exact_duplicate_counts_within_fifteen_minutes_only(db: Path) -> None:
    conn = alisio.connect_like_plugin(db)
    fields = dict(title="Flaky test", content="body", type="bugfix", project="p-1")
    a = alisio.save_observation(conn, **fields, now=0)
    b = alisio.save_observation(conn, **fields, now=alisio.DUPLICATE_WINDOW_MS - 1)
    assert b == alisio.SaveResult(a.id, "duplicate")
    c = alisio.save_observation(conn, **fields, now=3 * alisio.DUPLICATE_WINDOW_MS)
    assert c.action == "created" and c.id != a.id


def test_personal_topic_upserts_across_projects(db: Path) -> None:
    conn = alisio.connect_like_plugin(db)
    a = alisio.save_observation(
        conn,
        title="Tabs",
        content="likes tabs",
        type="preference",
        project="p-1",
        scope="personal",
        topic_key="style/indent",
    )
    b = alisio.save_observation(
        conn,
        title="Spaces",
        content="likes spaces",
        type="preference",
        project="p-2",
        scope="personal",
        topic_key="style/indent",
    )
    assert b == alisio.SaveResult(a.id, "revised")


def test_saved_content_is_redacted_and_indexed(db: Path) -> None:
    conn = alisio.connect_like_plugin(db)
    saved = alisio.save_observation(
        conn,
        title="Token",
        content="use <private>sk-live-42</private> here",
        type="config",
        project="p-1",
    )
    content = conn.execute("SELECT content FROM observations WHERE id=?", (saved.id,)).fetchone()[0]
    assert content == "use [REDACTED] here"
    hits = conn.execute(
        "SELECT rowid FROM observations_fts WHERE observations_fts MATCH ?", ('"REDACTED"',)
    ).fetchall()
    assert hits == [(saved.id,)]
    assert (
        conn.execute(
            "SELECT count(*) FROM observations_fts WHERE observations_fts MATCH ?", ('"sk-live"',)
        ).fetchone()[0]
        == 0
    )
