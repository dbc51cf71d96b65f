"""A realistic, reproducible set of agent memories to try Memory Desk on.

``memory-desk --demo`` (and ``--self-test``, and the tests) need stores that look like
a few weeks of real use, not a handful of rows: a person judges the app by how it
handles the messy cases, so the demo has them all. :func:`build_demo` writes, in a
folder of the caller's choosing (laid out as a fake home, so :mod:`memory_desk.core.locate`
finds everything in it too):

- ``home/.local/state/alisio/memory.sqlite`` built the way Alisio's plugin builds it
  (:mod:`memory_desk.core.alisio`): a few hundred observations across three projects and
  both scopes, all eight types, pins, forgotten and hard-deleted rows, topic revisions,
  duplicates, ``<private>`` parts redacted, a capped body, sessions with summaries, the
  person's prompts and the context injected at each chat start (schema 101);
- ``home/.config/alisio/config.json`` with non-default plugin settings;
- two agents' persona folders (``.miyagi/memory``, ``.padawan/memory`` and an account
  subfolder) written byte for byte as agent-kit writes them, plus every kind of file
  an agent would not read as it expects (FORMATS.md, part B).

Everything is derived from one seeded random generator and a fixed end date, so two
builds are identical row for row and byte for byte.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from memory_desk.core.alisio import connect_like_plugin, create_database
from memory_desk.demo.data import DEMO_BUDGET_TOKENS, END_MS, MINUTE, PROJECTS, SEED
from memory_desk.demo.history import History
from memory_desk.demo.persona import agent_entry, write_persona_folders

__all__ = [
    "DEMO_BUDGET_TOKENS",
    "END_MS",
    "MINUTE",
    "PROJECTS",
    "Demo",
    "agent_entry",
    "build_demo",
]


@dataclass(frozen=True)
class Demo:
    """What :func:`build_demo` made: the database, the persona folders, the fake home."""

    folder: Path
    home: Path
    db_path: Path
    config_path: Path
    persona_folders: list[Path] = field(default_factory=list)


def build_demo(folder: Path, *, end_ms: int = END_MS) -> Demo:
    """Build the demo stores inside ``folder`` (created if needed; must not hold a demo yet).

    ``end_ms`` is the demo's "now" (the newest timestamp); the default keeps two builds
    identical. Raises ``FileExistsError`` if the database is already there.
    """
    folder = Path(folder)
    home = folder / "home"
    state = home / ".local" / "state" / "alisio"
    state.mkdir(parents=True, exist_ok=True)
    db_path = state / "memory.sqlite"
    create_database(db_path)
    conn = connect_like_plugin(db_path)
    try:
        # Per connection only: speeds up the demo's hundreds of commits, changes no file format.
        conn.execute("PRAGMA synchronous=NORMAL")
        History(conn, random.Random(SEED), end_ms).write()
    finally:
        conn.close()
    config_path = _write_alisio_config(home)
    persona_folders = write_persona_folders(home)
    return Demo(folder, home, db_path, config_path, persona_folders)


def _write_alisio_config(home: Path) -> Path:
    config_dir = home / ".config" / "alisio"
    config_dir.mkdir(parents=True, exist_ok=True)
    config = {
        "builtinPlugins": {
            "memory": {
                "enabled": True,
                "injectBudgetTokens": DEMO_BUDGET_TOKENS,
                "recallLimit": 10,
                "autoSummary": True,
                "defaultScope": "project",
            }
        },
        "pluginHooks": {"timeoutMs": 15000, "sessionEndTimeoutMs": 10000},
    }
    path = config_dir / "config.json"
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return path
