"""The persona store as a package of rooms: the same names as the single module it was, rooms
that import only the rooms above them, and every package of the app shipped by pyproject. The
persona page (ui/persona/) is a package of rooms too, each small enough to read."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import memory_desk.core.persona as persona

REPO = Path(__file__).resolve().parent.parent
DESKTOP = REPO / "desktop"
PACKAGE = DESKTOP / "memory_desk" / "core" / "persona"

# Every name the single module core/persona.py offered (its __all__ and the other names code,
# tests and benchmarks use): code outside the package keeps importing them from here.
SINGLE_MODULE_NAMES = [
    "ENTRY_TYPES",
    "FIX_LABELS",
    "LARGE_BODY_BYTES",
    "MAX_NAME_LENGTH",
    "NAME_RE",
    "PROMPT_HEADING",
    "PROMPT_INTRO",
    "PROMPT_LIMIT",
    "PROMPT_RULES",
    "PROMPT_SECTION",
    "ConflictError",
    "Fingerprint",
    "FolderFix",
    "FolderProblem",
    "PersonaEntry",
    "PersonaFolder",
    "Problem",
    "StoreError",
    "TrashedEntry",
    "agent_description",
    "agent_index",
    "agent_order",
    "default_trash_dir",
    "header_name",
    "listing_failure",
    "now_iso",
    "prompt_parts",
    "printable_name",
    "prompt_section",
    "suggest_name",
    "validate_name",
    "DESCRIPTION_GUESS_LIMIT",
    "MAX_FILE_BYTES",
    "ODD_DESCRIPTIONS",
    "PROMPT_INDEX_MARK",
    "RACY_NS",
    "RENAME_ASIDE",
    "RESERVED_NAMES",
    "TEMP_SUFFIX",
]

# The rooms from the bottom up: each may import only rooms before it (no cycles, and a reader
# can take them in this order).
ROOMS = (
    "entry",
    "agent_view",
    "rewrites",
    "problems",
    "reading",
    "listing",
    "scan",
    "atomic",
    "permissions",
    "trash",
    "moves",
    "unfinished",
    "folder_problems",
    "folder",
)


def rooms_imported_by(room: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{room}.py").read_text("utf-8"))
    prefix = "memory_desk.core.persona."
    return {
        node.module.removeprefix(prefix)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(prefix)
    }


def test_every_name_of_the_single_module_is_still_importable_from_the_package() -> None:
    missing = [name for name in SINGLE_MODULE_NAMES if not hasattr(persona, name)]
    assert missing == []
    assert set(persona.__all__) <= set(dir(persona))
    assert set(SINGLE_MODULE_NAMES) <= set(persona.__all__)


def test_the_package_is_made_of_the_listed_rooms_and_each_stays_small() -> None:
    found = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    assert found == set(ROOMS)
    for room in ROOMS:
        lines = (PACKAGE / f"{room}.py").read_text("utf-8").count("\n")
        assert lines < 600, f"{room}.py has {lines} lines: split it by what it holds"


def test_each_room_imports_only_the_rooms_below_it() -> None:
    for position, room in enumerate(ROOMS):
        allowed = set(ROOMS[:position])
        assert rooms_imported_by(room) <= allowed, room


def test_every_package_of_the_app_is_listed_in_pyproject() -> None:
    """A package left out of ``packages`` still lands in the wheel, as data files, with only a
    deprecation warning from setuptools (which a future version turns into a missing module)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    packages = {
        ".".join(init.parent.relative_to(DESKTOP).parts)
        for init in (DESKTOP / "memory_desk").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert "memory_desk.core.persona" in packages
    assert packages - listed == set()


UI_PACKAGE = DESKTOP / "memory_desk" / "ui" / "persona"
UI_PREFIX = "memory_desk.ui.persona."

# The persona page's rooms from the bottom up: each may import only rooms before it. The page
# (``page``) composes the parts above it: the reads of the folder, the open entry and its
# unsaved edits, the entry's actions.
UI_ROOMS = (
    "problems",
    "highlighter",
    "rows",
    "model",
    "list_columns",
    "entry_list",
    "listing",
    "agent_view",
    "conflict",
    "preview",
    "rename",
    "commands",
    "counts",
    "folder_banner",
    "editor",
    "folder_reads",
    "open_entry",
    "entry_actions",
    "page",
)

# The list model and the editor are each one widget's whole behaviour: they stay below the
# house's limit for any file; every other room of the page stays within 600 lines.
LARGER_ROOMS = {"model": 700, "editor": 700}


def ui_rooms_imported_by(room: str) -> set[str]:
    tree = ast.parse((UI_PACKAGE / f"{room}.py").read_text("utf-8"))
    return {
        node.module.removeprefix(UI_PREFIX)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(UI_PREFIX)
    }


def test_the_page_is_made_of_the_listed_rooms_and_each_stays_small() -> None:
    found = {path.stem for path in UI_PACKAGE.glob("*.py")} - {"__init__"}
    assert found == set(UI_ROOMS)
    for room in UI_ROOMS:
        lines = (UI_PACKAGE / f"{room}.py").read_text("utf-8").count("\n")
        limit = LARGER_ROOMS.get(room, 600)
        assert lines <= limit, f"{room}.py has {lines} lines: split it by what it holds"


def test_each_room_of_the_page_imports_only_the_rooms_below_it() -> None:
    for position, room in enumerate(UI_ROOMS):
        allowed = set(UI_ROOMS[:position])
        assert ui_rooms_imported_by(room) <= allowed, room
