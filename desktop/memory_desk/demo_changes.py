"""What the demo's agents changed since its person last looked: the review inbox's demo.

:func:`add_recent_changes` takes a journal's baseline of a demo as :func:`build_demo` made it
(what the demo person "last saw"), then plays the changes people complain about most, each
made the way the agents make them, and lets the journal find them:

- Alisio's plugin, in a new chat, rewrites last week's decision in place through its topic
  upsert (``revision_count`` + 1: the old text is nowhere else), saves a "preference" nobody
  gave, forgets one observation (``deleted_at``) and deletes another outright;
- miyagi files a rule the person never gave as their feedback, and rewrites the description
  of an entry the person wrote about themselves;
- padawan's cleanup removes an entry file.

The changes are dated just before the demo's end date and use fixed ids, so two demos show the
same inbox. The journal is the caller's (the window keeps the demo's in the demo's folder).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memory_desk.core.alisio import connect_like_plugin, save_observation
from memory_desk.core.journal import Journal, JournalLimits
from memory_desk.core.locate import folder_label
from memory_desk.core.observations.context_layout import render
from memory_desk.core.observations.next_context import plugin_parts
from memory_desk.demo import DEMO_BUDGET_TOKENS, END_MS, MINUTE, Demo, agent_entry

CHAT_ID = "5d0c9a4e-7b1f-4c36-9e2a-0f8d3b6a1c27"
CHAT_PROJECT = "fieldnotes-cli-a786d7ce"
CHAT_DIRECTORY = "/home/ana/src/fieldnotes"
CHAT_STARTED = END_MS - 95 * MINUTE
CHAT_PROMPT = "The fuzzy finder feels slow on my big vault, can we make it async?"

# (topic_key, new title, new content): the decision the agent overwrote.
REVISED_TOPIC = "decision/fuzzy-finder-keep-synchronous-for-now"
REVISED_TITLE = "Make fuzzy finder asynchronous with a worker pool"
REVISED_CONTENT = (
    "**What**: The fuzzy finder now runs its matching on a worker pool of four threads and"
    " streams results as they come.\n\n**Why**: Typing felt slow on large vaults.\n\n"
    "**Where**: src/finder/fuzzy.rs\n\n**Learned**: Cancel the previous search on each key."
)
NEW_TITLE = "Always squash commits before merging"
NEW_CONTENT = (
    "**What**: The person wants every branch squashed into one commit before it is merged."
    "\n\n**Why**: Inferred from one merge in fieldnotes.\n\n**Where**: every project"
)
FORGOTTEN_TITLE = "Tokio caches more than expected in note parser"
DELETED_TITLE = "Scratch files go in ~/tmp"

MIYAGI_NEW = agent_entry(
    "formal-register-in-reports",
    "Wants every reply in a formal register",
    "feedback",
    "2026-11-28T14:10:02.311Z",
    "Rule: always answer in a formal register, never casually.\n\nWhy: inferred from a report"
    " she was writing.\n\nApply: every reply.",
)
MIYAGI_CHANGED = "preferred-name-carmen"
MIYAGI_CHANGED_TEXT = agent_entry(
    "preferred-name-carmen",
    "Wants to be called Ms. Ortega in every reply",
    "user",
    "2026-11-28T14:12:40.918Z",
    "Carmen asked to be called Ms. Ortega in every reply.",
)
PADAWAN_REMOVED = "studies-at-night"


def add_recent_changes(demo: Demo, journal_path: Path, limits: JournalLimits | None = None) -> int:
    """Baseline the demo in the journal at ``journal_path``, make the agents' changes, scan
    again; returns how many changes the journal listed (seven for a fresh demo, none with the
    history turned off in ``limits``)."""
    journal = Journal(journal_path, limits or JournalLimits())
    try:
        folders = [(folder, agent_name(folder)) for folder in demo.persona_folders]
        journal.scan_observations(demo.db_path)
        for folder, agent in folders:
            journal.scan_persona(folder, agent)
        _alisio_changes(demo.db_path)
        _persona_changes(demo.persona_folders)
        found = journal.scan_observations(demo.db_path)
        for folder, agent in folders:
            found += journal.scan_persona(folder, agent)
        return found
    finally:
        journal.close()


def agent_name(folder: Path) -> str:
    """``miyagi`` for ``~/.miyagi/memory``, ``padawan (work)`` for ``~/.padawan/memory/work``:
    the names the sidebar shows for the folders it finds (the core's one naming)."""
    return folder_label(folder)


def _alisio_changes(db: Path) -> None:
    conn = connect_like_plugin(db)
    try:
        _start_chat(conn)
        save_observation(
            conn,
            title=REVISED_TITLE,
            content=REVISED_CONTENT,
            type="decision",
            project=CHAT_PROJECT,
            topic_key=REVISED_TOPIC,
            session_id=CHAT_ID,
            now=CHAT_STARTED + 12 * MINUTE,
        )
        save_observation(
            conn,
            title=NEW_TITLE,
            content=NEW_CONTENT,
            type="preference",
            project=CHAT_PROJECT,
            scope="personal",
            session_id=CHAT_ID,
            now=CHAT_STARTED + 20 * MINUTE,
        )
        _write(
            conn,
            "UPDATE observations SET deleted_at = ? WHERE title = ? AND deleted_at IS NULL",
            (CHAT_STARTED + 31 * MINUTE, FORGOTTEN_TITLE),
        )
        _write(conn, "DELETE FROM observations WHERE title = ?", (DELETED_TITLE,))
    finally:
        conn.close()


def _start_chat(conn: sqlite3.Connection) -> None:
    """The chat opens as the plugin opens one: its session row, the context it injects (laid
    out by the plugin's own renderer from what the database holds), the person's prompt."""
    summary, prompts, pinned, recent = plugin_parts(conn, CHAT_PROJECT)
    shown = render(
        CHAT_PROJECT, summary, prompts, pinned, recent, DEMO_BUDGET_TOKENS, session=CHAT_ID
    )
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(
            "INSERT INTO memory_sessions (id, project, directory, started_at) VALUES (?, ?, ?, ?)",
            (CHAT_ID, CHAT_PROJECT, CHAT_DIRECTORY, CHAT_STARTED),
        )
        conn.execute(
            "INSERT INTO injected_context (session_id, project, content, created_at)"
            " VALUES (?, ?, ?, ?)",
            (CHAT_ID, CHAT_PROJECT, shown.text[:80_000], CHAT_STARTED),
        )
        conn.execute(
            "INSERT INTO user_prompts (session_id, content, project, created_at)"
            " VALUES (?, ?, ?, ?)",
            (CHAT_ID, CHAT_PROMPT, CHAT_PROJECT, CHAT_STARTED + MINUTE),
        )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _write(conn: sqlite3.Connection, sql: str, args: tuple[object, ...]) -> None:
    """One statement in its own ``BEGIN IMMEDIATE`` transaction, as the plugin writes."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(sql, args)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _persona_changes(folders: list[Path]) -> None:
    """Whole-file writes in place (agent-kit does not write atomically) and one removal."""
    miyagi = next(f for f in folders if agent_name(f) == "miyagi")
    padawan = next(f for f in folders if agent_name(f) == "padawan")
    (miyagi / "formal-register-in-reports.md").write_bytes(MIYAGI_NEW)
    (miyagi / f"{MIYAGI_CHANGED}.md").write_bytes(MIYAGI_CHANGED_TEXT)
    (padawan / f"{PADAWAN_REMOVED}.md").unlink()
