"""Shared set-up for the window tests: real stores in a fake home, windows that clean up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QTableView, QTreeWidget, QTreeWidgetItem

from memory_desk.core import alisio
from memory_desk.ui.window import MainWindow

NOW = 1_790_000_000_000


def make_database(path: Path, titles: Sequence[str] = ("First note", "Second note")) -> Path:
    """A memory.sqlite built by the plugin's own rules, one saved observation per title."""
    path.parent.mkdir(parents=True, exist_ok=True)
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    try:
        for minute, title in enumerate(titles):
            alisio.save_observation(
                conn,
                title=title,
                content=f"**What** {title.lower()}",
                type="decision",
                project="alpha-1a2b3c4d",
                scope="project",
                session_id="session-1",
                now=NOW + minute * 60_000,
            )
    finally:
        conn.close()
    return path


def entry_bytes(name: str, body: str = "Something worth remembering.") -> bytes:
    """One persona entry exactly as agent-kit writes it."""
    return (
        f"---\nname: {name}\ndescription: About {name}\ntype: user\n"
        f"updated: 2026-10-02T17:03:11.532Z\n---\n\n{body}\n"
    ).encode()


def make_persona_folder(path: Path, names: Sequence[str] = ("likes-tea", "name-carmen")) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for name in names:
        (path / f"{name}.md").write_bytes(entry_bytes(name))
    return path


def write_alisio_config(home: Path, memory: dict) -> Path:
    """``$XDG_CONFIG_HOME/alisio/config.json`` (conftest points XDG_CONFIG_HOME at ~/.config)."""
    path = home / ".config" / "alisio" / "config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"builtinPlugins": {"memory": memory}}), encoding="utf-8")
    return path


def run_events(ms: int) -> None:
    """Run the event loop for ``ms`` milliseconds, as the app's own loop runs it.

    Not ``QTest.qWait``: it sleeps between its rounds of events holding the interpreter's
    lock, so every worker thread stood still meanwhile (6,000 ``os.stat`` calls on a thread
    took 0.6 s beside it instead of 0.02 s, and a 2,000-entry folder's count seconds)."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def wait_until(condition, timeout_s: float = 10.0, what: str = "") -> None:
    """Run the event loop until ``condition()`` holds; fail the test if it never does."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout_s} s in vain for {what or condition}")
        run_events(5)


def wait_persona_read(window: MainWindow, timeout_s: float = 20.0) -> None:
    """Wait until the persona page has read its folder (the listing runs on a worker, and so
    does a reload's look at the files) and the sidebar has counted it."""
    page = window.persona_page
    wait_until(lambda: not page.is_reading() and not window.sidebar.is_counting(), timeout_s)
    assert not page.is_reading(), "the persona page did not finish reading its folder"


def source_rows(window: MainWindow) -> list[tuple[str, str, str]]:
    """(group, label, count) for every source in the sidebar, as a person reads it (once the
    databases' counts, read in the background, are in)."""
    wait_until(lambda: not window.sidebar.is_counting())
    tree = window.findChild(QTreeWidget, "sourcesList")
    rows = []
    for g in range(tree.topLevelItemCount()):
        group: QTreeWidgetItem = tree.topLevelItem(g)
        for r in range(group.childCount()):
            item = group.child(r)
            rows.append((group.text(0), item.text(0), item.text(1)))
    return rows


def table(window: MainWindow) -> QTableView:
    return window.findChild(QTableView, "observationsTable")


# -- the plugin's writes, for tests that play the agent in this process --------------------------


def agent_save(path: Path, **values) -> alisio.SaveResult:
    """The plugin's ``memory_save`` on its own connection (topic upsert, duplicate or insert)."""
    values.setdefault("type", "decision")
    values.setdefault("project", "alpha-1a2b3c4d")
    conn = alisio.connect_like_plugin(path)
    try:
        return alisio.save_observation(conn, **values)
    finally:
        conn.close()


def agent_forget(path: Path, observation_id: int, at: int | None = None) -> None:
    """The plugin's ``memory_forget``: ``deleted_at = now`` on a live row."""
    _agent_execute(
        path,
        "UPDATE observations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
        (alisio.now_ms() if at is None else at, observation_id),
    )


def agent_delete(path: Path, observation_id: int) -> None:
    """The plugin's hard forget: DELETE (its trigger drops the row from the index)."""
    _agent_execute(path, "DELETE FROM observations WHERE id = ?", (observation_id,))


def _agent_execute(path: Path, sql: str, params: tuple) -> None:
    conn = alisio.connect_like_plugin(path)
    try:
        conn.execute(sql, params)
    finally:
        conn.close()


def stored_row(path: Path, observation_id: int) -> dict | None:
    """One row of ``observations`` as a dict of its columns, read on a fresh connection."""
    conn = alisio.connect_like_plugin(path)
    try:
        cursor = conn.execute("SELECT * FROM observations WHERE id = ?", (observation_id,))
        found = cursor.fetchone()
        if found is None:
            return None
        return dict(zip([d[0] for d in cursor.description], found, strict=True))
    finally:
        conn.close()


def live_topic_rows(path: Path, topic_key: str) -> list[int]:
    """The live rows holding ``topic_key`` (any scope or project), newest first."""
    conn = alisio.connect_like_plugin(path)
    try:
        rows = conn.execute(
            "SELECT id FROM observations WHERE topic_key = ? AND deleted_at IS NULL"
            " ORDER BY updated_at DESC, id DESC",
            (topic_key,),
        ).fetchall()
    finally:
        conn.close()
    return [row[0] for row in rows]


def writes_done(window: MainWindow, timeout_s: float = 10.0) -> None:
    """Wait until the observations page's background write (if any) is done and reported."""
    deadline = time.monotonic() + timeout_s
    while window.observations_page.is_writing():
        assert time.monotonic() < deadline, "a background write did not finish"
        run_events(2)


def run_python_json(code: str, args: list[str]) -> dict:
    """Run ``code`` in a Python process of its own (offscreen; HOME and XDG are the test's)
    with ``args``, and return the JSON object its last line of output prints."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
