"""Shared set-up for the window tests: real stores in a fake home, windows that clean up."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtWidgets import QTableView, QTreeWidget, QTreeWidgetItem

from memory_desk.core import alisio
from memory_desk.ui.main_window import MainWindow

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


def source_rows(window: MainWindow) -> list[tuple[str, str, str]]:
    """(group, label, count) for every source in the sidebar, as a person reads it."""
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
