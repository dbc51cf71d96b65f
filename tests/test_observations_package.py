"""The observations store as a package of rooms: the same names as the single module it was,
rooms that import only the rooms below them, each small enough to read."""

from __future__ import annotations

import ast
from pathlib import Path

import memory_desk.core.observations as observations

PACKAGE = Path(observations.__file__).parent
PREFIX = "memory_desk.core.observations"

# Every name the single module core/observations.py exported (its __all__, which is also every
# name desktop/, tests/ and benchmarks/ imported from it): code keeps importing them from here.
SINGLE_MODULE_NAMES = [
    "SORT_KEYS",
    "TOPIC_CHOICES",
    "TOPIC_CLEAR_OTHER",
    "TOPIC_CLEAR_THIS",
    "TOPIC_FORGET_OTHER",
    "AgentSearch",
    "EditResult",
    "Observation",
    "ObservationStore",
    "PreviousDeletedAt",
    "TopicChanges",
    "TopicClash",
    "TopicConflict",
    "Totals",
    "WrittenObservation",
]
# Names added to the package since (issue 9: health checks, replaced and damaged files,
# writes that wait for the agent).
ADDED_SINCE = [
    "Health",
    "StoreDamaged",
    "StoreReplaced",
    "Undecodable",
    "WriteCancelled",
    "WriteWait",
]

# The rooms from the bottom up: each imports only rooms before it (no cycles, and a reader can
# take them in this order). agent_search names the row type for type checkers only.
ROOMS = (
    "data_version",
    "topics",
    "rows",
    "agent_search",
    "search",
    "listing",
    "agent_run",
    "fts_index",
    "schema",
    "write_wait",
    "sqlite",
    "health",
    "writes",
    "store",
    # the read-only views built beside the store, on store.read
    "chat_saved",
    "chats",
    "overview",
    "context_layout",
    "next_context",
)
TYPE_ONLY = {"agent_search": {"rows"}}


def rooms_imported_by(room: str) -> set[str]:
    """Both spellings: ``from PREFIX.room import x`` and ``from PREFIX import room``."""
    tree = ast.parse((PACKAGE / f"{room}.py").read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        if node.module == PREFIX:
            found |= {alias.name for alias in node.names}
        elif node.module.startswith(PREFIX + "."):
            found.add(node.module.removeprefix(PREFIX + "."))
    return found - TYPE_ONLY.get(room, set())


def test_every_name_of_the_single_module_is_still_importable_from_the_package() -> None:
    assert sorted(observations.__all__) == sorted(SINGLE_MODULE_NAMES + ADDED_SINCE)
    assert [name for name in SINGLE_MODULE_NAMES if not hasattr(observations, name)] == []
    namespace: dict[str, object] = {}
    exec(f"from {PREFIX} import *", namespace)
    assert set(SINGLE_MODULE_NAMES) <= set(namespace)


def test_the_package_is_made_of_the_listed_rooms_and_each_stays_small() -> None:
    found = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    assert found == set(ROOMS)
    for room in ROOMS:
        lines = (PACKAGE / f"{room}.py").read_text("utf-8").count("\n")
        assert lines < 450, f"{room}.py has {lines} lines: split it by what it holds"


def test_each_room_imports_only_the_rooms_below_it() -> None:
    for position, room in enumerate(ROOMS):
        assert rooms_imported_by(room) <= set(ROOMS[:position]), room


def test_the_store_holds_only_the_public_calls() -> None:
    """SQL for searches lives in search.py, write transactions in writes.py: the store's
    methods are the public API plus Python's protocol methods."""
    tree = ast.parse((PACKAGE / "store.py").read_text("utf-8"))
    (store,) = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    methods = [node.name for node in store.body if isinstance(node, ast.FunctionDef)]
    private = [name for name in methods if name.startswith("_") and not name.startswith("__")]
    assert private == []
    assert [node for node in tree.body if isinstance(node, ast.FunctionDef)] == []


# The observations page's package (ui/observations/), from the bottom up: each room imports only
# rooms before it. The page is the room at the top; page_* are the rooms it is composed of.
UI_PACKAGE = PACKAGE.parent.parent / "ui" / "observations"
UI_PREFIX = "memory_desk.ui.observations"
UI_ROOMS = (
    "busy",
    "row_diff",
    "row_format",
    "row_marks",
    "query",
    "model",
    "columns",
    "highlight",
    "delegates",
    "table_view",
    "conflict",
    "long_text",
    "stored_note",
    "topic_field",
    "detail",
    "date_range",
    "saved_searches",
    "filters",
    "index_health",
    "agent_search",
    # the page's rooms, then the page
    "page_table",
    "page_reading",
    "page_query",
    "page_writes",
    "page_actions",
    "page",
)
# Lines a room may hold; the two below are older rooms that hold one concern each.
UI_ROOM_LIMIT = 450
UI_LARGER_ROOMS = {"model": 700, "detail": 700}


def ui_rooms_imported_by(room: str) -> set[str]:
    tree = ast.parse((UI_PACKAGE / f"{room}.py").read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        if node.module == UI_PREFIX:
            found |= {alias.name for alias in node.names}
        elif node.module.startswith(UI_PREFIX + "."):
            found.add(node.module.removeprefix(UI_PREFIX + "."))
    return found


def test_the_page_package_is_made_of_the_listed_rooms_and_each_stays_small() -> None:
    found = {path.stem for path in UI_PACKAGE.glob("*.py")} - {"__init__"}
    assert found == set(UI_ROOMS)
    for room in UI_ROOMS:
        lines = (UI_PACKAGE / f"{room}.py").read_text("utf-8").count("\n")
        limit = UI_LARGER_ROOMS.get(room, UI_ROOM_LIMIT)
        assert lines <= limit, f"{room}.py has {lines} lines: split it by what it holds"


def test_each_page_room_imports_only_the_rooms_below_it() -> None:
    for position, room in enumerate(UI_ROOMS):
        assert ui_rooms_imported_by(room) <= set(UI_ROOMS[:position]), room


def test_the_page_keeps_its_names_where_other_code_imports_them() -> None:
    from memory_desk.ui.observations import model, page

    assert callable(page.ObservationsPage) and callable(page.delete_confirmation)
    for name in ("Column", "SORT_KEY_BY_COLUMN", "CELL_ALIGNMENTS", "RowRecord", "format_row"):
        assert hasattr(model, name), name
