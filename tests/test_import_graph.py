"""The package's imports form no circle, and no page imports another page.

Read from the source with ``ast``, not by importing: every ``import memory_desk...`` and
``from memory_desk... import`` counts, at module level, inside functions (lazy imports)
and under ``TYPE_CHECKING`` alike, since each is a dependency a reader has to follow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import memory_desk

PACKAGE = Path(memory_desk.__file__).parent
PAGES = ("observations", "persona", "chats", "overview", "pruning", "review")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for path in PACKAGE.rglob("*.py")
        if "resources" not in path.relative_to(PACKAGE).parts
    }


def imported(path: Path, name: str, known: set[str]) -> set[str]:
    """The package's modules this file imports, anywhere in it. ``from package import
    submodule`` depends on the submodule, not on what the package's ``__init__`` gathers."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            submodules = {f"{source}.{alias.name}" for alias in node.names} & known
            found |= submodules
            if len(submodules) < len(node.names):  # a name the package itself defines
                found.add(source)
    return {target for target in found if target in known and target != name}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imported(path, name, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def page_of(name: str) -> str | None:
    parts = name.split(".")
    if parts[:2] == ["memory_desk", "ui"] and len(parts) > 2 and parts[2] in PAGES:
        return parts[2]
    return None


def test_the_reader_sees_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import memory_desk.app\n"
        "if TYPE_CHECKING:\n"
        "    from memory_desk.ui.review.page import ReviewPage\n"
        "def later():\n"
        "    from memory_desk.core import errors\n"
        "    from memory_desk.core.kinds import SourceKind\n",
        encoding="utf-8",
    )
    known = set(modules())
    assert imported(source, "memory_desk.sample", known) == {
        "memory_desk.app",
        "memory_desk.ui.review.page",
        "memory_desk.core.errors",  # a submodule: not the package's __init__
        "memory_desk.core.kinds",
    }
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle() -> None:
    edges = graph()
    assert "memory_desk.selftest" in edges["memory_desk.launch"]
    assert "memory_desk.app" in edges["memory_desk.selftest"]
    assert cycles(edges) == []


def test_the_core_imports_nothing_above_it() -> None:
    outside = {
        name: sorted(t for t in targets if not t.startswith("memory_desk.core"))
        for name, targets in graph().items()
        if name.startswith("memory_desk.core")
    }
    assert {name: targets for name, targets in outside.items() if targets} == {}


def test_no_page_imports_another_page() -> None:
    crossing = sorted(
        f"{name} -> {target}"
        for name, targets in graph().items()
        for target in targets
        if page_of(name) and page_of(target) and page_of(name) != page_of(target)
    )
    assert crossing == []


def test_the_shared_floors_import_no_page() -> None:
    """ui/widgets/ and ui/workers/ lie below the pages: a page imports them, never the reverse."""
    floors = ("memory_desk.ui.widgets", "memory_desk.ui.workers")
    edges = graph()
    assert {name for name in edges if name.startswith(floors)} >= {
        "memory_desk.ui.widgets.delegates",
        "memory_desk.ui.widgets.row_view",  # the pages' tables paint with it
        "memory_desk.ui.workers.background",
    }
    upward = sorted(
        f"{name} -> {target}"
        for name, targets in edges.items()
        if name.startswith(floors)
        for target in targets
        if page_of(target)
    )
    assert upward == []
