"""A row's stored ``normalized_hash`` is the agent's: Memory Desk flags one it cannot reproduce
and never rewrites it for content it did not change.

The agent lower-cases with its runtime's Unicode tables, which may know letters Python 3.11's
do not: U+A7CB (LATIN CAPITAL LETTER RAMS HORN, Unicode 16) lower-cases to U+0264 in a recent
Node and stays as it is in Python. The row goes in with the plugin's own INSERT (store.ts) and
the hash the agent computes, worked out here by hand.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore

ALPHA = "alpha-1a2b3c4d"
T0 = 1_790_000_000_000
RAMS_HORN, RAMS_HORN_SMALL = "\ua7cb", "\u0264"
CONTENT = f"**What** the {RAMS_HORN} glyph  breaks the font"
# The agent's normalize(): toLowerCase (Ɤ → ɤ in Unicode 16), /\s+/g → " ", trim().
AGENT_HASH = hashlib.sha256(
    f"**what** the {RAMS_HORN_SMALL} glyph breaks the font".encode()
).hexdigest()

# The plugin's insert (store.ts ``save``), column for column.
PLUGIN_INSERT = (
    "INSERT INTO observations(session_id,type,title,content,tool_name,project,scope,topic_key,"
    "normalized_hash,last_seen_at,created_at,updated_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)"
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    try:
        conn.execute(
            PLUGIN_INSERT,
            (
                "s1",
                "bugfix",
                "Font glyph",
                CONTENT,
                "memory_save",
                ALPHA,
                "project",
                "fonts/glyphs",
                AGENT_HASH,
                T0,
                T0,
                T0,
            ),
        )
        alisio.save_observation(
            conn,
            title="Plain",
            content="**What** plain text",
            type="decision",
            project=ALPHA,
            now=T0,
        )
    finally:
        conn.close()
    return path


def stored_hash(path: Path, row_id: int) -> str:
    conn = alisio.connect_like_plugin(path)
    try:
        return conn.execute(
            "SELECT normalized_hash FROM observations WHERE id=?", (row_id,)
        ).fetchone()[0]
    finally:
        conn.close()


def test_memory_desk_knows_when_it_cannot_reproduce_a_stored_hash(db: Path) -> None:
    with ObservationStore(db) as store:
        odd, plain = store.get(1), store.get(2)
    assert alisio.normalized_hash(CONTENT) != AGENT_HASH  # Python's tables are older
    assert not alisio.reproduces_hash(odd.content, odd.normalized_hash)
    assert alisio.reproduces_hash(plain.content, plain.normalized_hash)


@pytest.mark.parametrize(
    "change",
    [{"title": "Font glyph breaks"}, {"type": "discovery"}, {"topic_key": "fonts/rams-horn"}],
)
def test_editing_anything_but_the_content_keeps_the_agents_hash(db: Path, change) -> None:
    with ObservationStore(db) as store:
        result = store.edit(1, **change)
        store.pin([1])
        assert result.after.revision_count == 2  # it was an edit
    assert stored_hash(db, 1) == AGENT_HASH


def test_new_content_gets_a_fresh_hash_and_undo_puts_the_agents_back(db: Path) -> None:
    with ObservationStore(db) as store:
        result = store.edit(1, content=CONTENT + " on Linux")
        assert stored_hash(db, 1) == alisio.normalized_hash(CONTENT + " on Linux")
        store.undo_edit(result)
    assert stored_hash(db, 1) == AGENT_HASH


def test_the_same_content_saved_again_is_no_content_edit(db: Path) -> None:
    with ObservationStore(db) as store:
        store.edit(1, title="Renamed", content=CONTENT)
    assert stored_hash(db, 1) == AGENT_HASH
