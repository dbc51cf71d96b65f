"""A database missing part of the plugin's schema, or on a read-only mount, says so at open.

What is missing is named, with what the person does without and what still works; a plugin
table that lacks a column Memory Desk reads is read as missing (chats and the next chat's
context do without it) instead of failing at each read. The read-only mount is a real one
(``mount --bind`` then ``remount,ro``, as root).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFrame, QLabel

from alisio_fixtures import build_database, plugin_connection
from memory_desk.core import StoreError
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.chats import chat_detail, list_chats
from memory_desk.core.observations.next_context import estimate_next_context

pytest_plugins = ["window_fixture"]  # the open_window fixture

WORKS = "observations, their search and your edits work as usual"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = build_database(tmp_path / "memory.sqlite", 30, seed=4)
    with plugin_connection(path) as conn:
        conn.execute(
            "INSERT INTO user_prompts (session_id, content, project, created_at)"
            " SELECT session_id, 'Please look at ' || title, project, created_at"
            " FROM observations WHERE session_id IS NOT NULL"
        )
    return path


def live_rows(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        sql = "SELECT count(*) FROM observations WHERE deleted_at IS NULL"
        return conn.execute(sql).fetchall()[0][0]


def project_of(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT project FROM observations LIMIT 1").fetchall()[0][0]


@pytest.mark.parametrize(
    ("table", "loss"),
    [
        ("user_prompts", "chats show no prompts"),
        ("memory_sessions", "chats show no summaries"),
        ("injected_context", "chats cannot show the context the plugin gave them"),
    ],
)
def test_a_missing_plugin_table_is_named_with_what_is_lost_and_what_works(
    db: Path, table: str, loss: str
) -> None:
    with plugin_connection(db) as conn:
        conn.execute(f"DROP TABLE {table}")

    with ObservationStore(db) as store:
        (warning,) = store.warnings
        assert warning.startswith(f"the {table} table is missing: {loss}")
        assert warning.endswith(WORKS)
        assert store.count() == live_rows(db) > 0
        assert list_chats(store)


def test_injected_context_is_not_missed_in_an_older_plugins_database(tmp_path: Path) -> None:
    db = build_database(tmp_path / "memory.sqlite", 5, versions=(100,))
    with plugin_connection(db) as conn:
        conn.execute("DROP TABLE IF EXISTS injected_context")
    with ObservationStore(db) as store:
        assert store.warnings == ()


def test_a_plugin_table_without_a_column_we_read_is_read_as_missing(db: Path) -> None:
    with plugin_connection(db) as conn:
        conn.execute("DROP INDEX user_prompts_recent")
        conn.execute("ALTER TABLE user_prompts DROP COLUMN project")

    with ObservationStore(db) as store:
        (warning,) = store.warnings
        assert warning.startswith(
            "the user_prompts table has no project column, so Memory Desk leaves it unread:"
            " chats show no prompts"
        )
        chats = list_chats(store)  # no "no such column" error: the table is left out
        assert chats
        detail = chat_detail(store, chats[0].id)
        assert detail is not None and detail.prompts == ()
        assert estimate_next_context(store, project_of(db)).text


def test_the_window_says_what_is_missing_when_it_opens_the_database(db: Path, open_window) -> None:
    with plugin_connection(db) as conn:
        conn.execute("DROP TABLE user_prompts")
    window = open_window(["--db", str(db)])

    bar = window.findChild(QFrame, "messageBar")
    words = window.findChild(QLabel, "messageText").text()
    assert bar.isVisible() and bar.kind == "info"
    assert words.startswith(f"{db.parent.name}/memory.sqlite is open, but: the user_prompts")
    assert WORKS in words


# ----------------------------------------------------------------------------- read-only mount


@pytest.fixture
def read_only_mount(tmp_path: Path):
    """``(source, mounted)``: what is written in ``source`` is seen read-only in ``mounted``."""
    if sys.platform != "linux" or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a bind mount needs Linux and root")
    source, mounted = tmp_path / "source", tmp_path / "mounted"
    source.mkdir()
    mounted.mkdir()
    bound = subprocess.run(
        ["mount", "--bind", str(source), str(mounted)], capture_output=True, text=True
    )
    if bound.returncode != 0:  # a container without the right to mount
        pytest.skip(f"cannot mount here: {bound.stderr.strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(mounted)], check=True)
        yield source, mounted
    finally:
        subprocess.run(["umount", str(mounted)], check=True)


def test_a_wal_database_on_a_read_only_mount_is_named_as_such(read_only_mount) -> None:
    source, mounted = read_only_mount
    build_database(source / "memory.sqlite", 5)

    with pytest.raises(StoreError) as refused:
        ObservationStore(mounted / "memory.sqlite")

    words = str(refused.value)
    assert "is on a file system mounted read-only" in words
    assert "Copy memory.sqlite to a folder you can write" in words
    assert "you may read it" not in words


def test_a_rollback_journal_database_on_a_read_only_mount_opens_to_browse(
    read_only_mount,
) -> None:
    source, mounted = read_only_mount
    build_database(source / "memory.sqlite", 5)
    with sqlite3.connect(source / "memory.sqlite") as conn:
        conn.execute("PRAGMA journal_mode = DELETE")

    with ObservationStore(mounted / "memory.sqlite") as store:
        assert store.count() == live_rows(source / "memory.sqlite") > 0
        assert any(
            w.startswith("the file system holding it is mounted read-only: you can browse")
            for w in store.warnings
        )
        with pytest.raises(StoreError, match="mounted read-only; nothing can be written there"):
            store.pin([1])
