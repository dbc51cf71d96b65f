"""The demo's inbox: the agents' changes after the demo person last looked, found by the
journal exactly as it finds a real agent's (memory_desk.demo_changes)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memory_desk.core.journal import ChangeKind, Journal
from memory_desk.core.persona.folder import PersonaFolder
from memory_desk.demo import build_demo
from memory_desk.demo_changes import (
    MIYAGI_CHANGED,
    NEW_TITLE,
    REVISED_TITLE,
    REVISED_TOPIC,
    add_recent_changes,
    agent_name,
)


def test_the_journal_lists_each_agent_change_once_with_the_old_text(tmp_path: Path) -> None:
    demo = build_demo(tmp_path / "demo")
    with sqlite3.connect(demo.db_path) as conn:
        old_title, old_content = conn.execute(
            "SELECT title, content FROM observations WHERE topic_key = ? AND deleted_at IS NULL",
            (REVISED_TOPIC,),
        ).fetchone()
    assert add_recent_changes(demo, tmp_path / "journal.sqlite") == 7
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        changes = journal.changes()
        kinds = sorted((c.store_kind, str(c.kind)) for c in changes)
        assert kinds == [
            ("observations", "deleted"),
            ("observations", "forgotten"),
            ("observations", "new"),
            ("observations", "revised"),
            ("persona", "changed"),
            ("persona", "new"),
            ("persona", "removed"),
        ]
        revised = next(c for c in changes if c.kind == ChangeKind.REVISED)
        assert (revised.old.title, revised.old.body) == (old_title, old_content)
        assert revised.new.title == REVISED_TITLE
        new = next(
            c for c in changes if c.kind == ChangeKind.NEW and c.store_kind == "observations"
        )
        assert new.new.title == NEW_TITLE
        changed = next(c for c in changes if c.kind == ChangeKind.CHANGED)
        assert changed.target == MIYAGI_CHANGED and changed.agent == "miyagi"
        assert changed.old.description != changed.new.description
        forgotten = next(c for c in changes if c.kind == ChangeKind.FORGOTTEN)
        assert forgotten.agent == "Alisio"  # not the tool that saved the row
        assert journal.pending_count() == 7
    finally:
        journal.close()


def test_the_agents_files_after_the_changes_read_as_the_agent_reads_them(tmp_path: Path) -> None:
    demo = build_demo(tmp_path / "demo")
    add_recent_changes(demo, tmp_path / "journal.sqlite")
    miyagi = next(f for f in demo.persona_folders if agent_name(f) == "miyagi")
    entry = PersonaFolder(miyagi).read("formal-register-in-reports")
    assert entry is not None and entry.type == "feedback" and not entry.problems
    with sqlite3.connect(demo.db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        # FTS5 raises when its index no longer matches the rows (the triggers kept it).
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")


def test_two_demos_get_the_same_changes(tmp_path: Path) -> None:
    rows = []
    for name in ("a", "b"):
        demo = build_demo(tmp_path / name)
        add_recent_changes(demo, tmp_path / f"{name}.sqlite")
        with sqlite3.connect(demo.db_path) as conn:
            rows.append(conn.execute("SELECT * FROM observations ORDER BY id").fetchall())
    assert rows[0] == rows[1]


def test_agent_names_are_the_sidebars() -> None:
    assert agent_name(Path("/h/.miyagi/memory")) == "miyagi"
    assert agent_name(Path("/h/.padawan/memory/evening-class")) == "padawan (evening-class)"


def test_a_chat_is_named_by_its_first_prompt(tmp_path: Path) -> None:
    from memory_desk.core.journal.chats import first_prompts
    from memory_desk.demo_changes import CHAT_ID, CHAT_PROMPT

    demo = build_demo(tmp_path / "demo")
    add_recent_changes(demo, tmp_path / "journal.sqlite")
    assert first_prompts(demo.db_path, [CHAT_ID, "no-such-chat", ""]) == {CHAT_ID: CHAT_PROMPT}
    not_a_database = tmp_path / "notes.sqlite"
    not_a_database.write_text("plain text, not SQLite")
    assert first_prompts(not_a_database, [CHAT_ID]) == {}  # the list then shows the id
