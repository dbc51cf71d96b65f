"""The window only composes: read from the source with ``ast``, it never reaches into a page's
children (``self.observations_page.table.selectRow``), never looks a widget up by name, and it
and the rooms that help it stay small."""

from __future__ import annotations

import ast
from pathlib import Path

import memory_desk

UI = Path(memory_desk.__file__).parent / "ui"
WINDOW = UI / "window.py"
HELPERS = (
    "pages.py",
    "page_stack.py",
    "page_status.py",
    "source_switch.py",
    "startup.py",
    "window_menus.py",
    "window_title.py",
    "sources/opener.py",
)
SIGNAL_CALLS = {"connect", "disconnect", "emit"}


def attribute_chain(node: ast.Attribute) -> list[str]:
    """``self.a.b.c`` as ``["self", "a", "b", "c"]`` (empty when it does not start at a name)."""
    names: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        names.append(current.attr)
        current = current.value
    if not isinstance(current, ast.Name):
        return []
    return [current.id, *reversed(names)]


def reaches_into_pages(source: str) -> list[str]:
    """Every ``self.<x>_page.<child>.<member>`` but a signal's connect, disconnect or emit."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        chain = attribute_chain(node)
        page_child = len(chain) == 4 and chain[0] == "self" and chain[1].endswith("_page")
        if page_child and chain[3] not in SIGNAL_CALLS:
            found.append(".".join(chain))
    return sorted(set(found))


def test_the_check_finds_a_reach_into_a_page() -> None:
    source = (
        "class W:\n"
        "    def f(self):\n"
        "        self.observations_page.table.selectRow(0)\n"
        "        self.observations_page.refreshed.connect(self.g)\n"
        "        self.observations_page.check_database()\n"
    )
    assert reaches_into_pages(source) == ["self.observations_page.table.selectRow"]


def test_the_window_never_reaches_into_a_page() -> None:
    source = WINDOW.read_text("utf-8")
    assert reaches_into_pages(source) == []
    calls = {
        node.func.attr
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }
    assert not calls & {"findChild", "findChildren"}  # widgets are asked, not looked up


def test_the_window_and_its_helpers_stay_small() -> None:
    for path in (WINDOW, *(UI / name for name in HELPERS)):
        lines = path.read_text("utf-8").count("\n")
        assert lines <= 450, f"{path.name} has {lines} lines: move out what is not composition"
