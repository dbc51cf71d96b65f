"""The persona store as a package of rooms: the same names as the single module it was, rooms
that import only the rooms above them, and every package of the app shipped by pyproject."""

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
    "_description_from_body",
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
    assert set(SINGLE_MODULE_NAMES) - {"_description_from_body"} <= set(persona.__all__)


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
