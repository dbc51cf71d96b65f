"""The Page contract (ui/pages.py): every page of a real window implements it, the window's
menus are gathered from the pages' own actions with shortcuts Qt shows (never copied into the
text), and one page shows another's row through the router."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from memory_desk.ui.observations.model import ID_ROLE
from memory_desk.ui.pages import Page, Router, SelectsById
from window_helpers import make_database, make_persona_folder, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

PAGE_NAMES = ("observations", "persona", "chats", "overview", "pruning", "review")


def test_every_page_implements_the_page_contract(open_window, tmp_path: Path) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    window = open_window(["--db", str(db)])
    pages = {name: getattr(window, f"{name}_page") for name in PAGE_NAMES}
    for name, page in pages.items():
        assert isinstance(page, Page), name
        assert page.may_close(), name  # nothing edited yet
        for item in page.menu_actions():
            assert item is None or isinstance(item, QAction | QMenu), name


def test_the_entry_menu_shows_its_shortcuts_through_qt(open_window, tmp_path: Path) -> None:
    folder = make_persona_folder(tmp_path / "memory", ["alpha"])
    window = open_window(["--persona", str(folder)])
    window.persona_page  # noqa: B018 - built now
    menu = window.findChild(QMenu, "entryMenu")
    actions = {action.objectName(): action for action in menu.actions()}
    save = actions["personaSaveAction"]
    assert "\t" not in save.text()  # Qt prints the keys beside the text
    assert save.shortcut() == QKeySequence(QKeySequence.StandardKey.Save)
    assert actions["personaRenameAction"].shortcut() == QKeySequence("F2")
    assert all("\t" not in action.text() for action in menu.actions())


def test_the_observation_menu_is_the_pages_own_actions(open_window, tmp_path: Path) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    window = open_window(["--db", str(db)])
    page = window.observations_page
    menu = window.findChild(QMenu, "observationMenu")
    shown = [action for action in menu.actions() if not action.isSeparator()]
    assert shown[:4] == [page.pin_action, page.forget_action, page.restore_action, page.edit_action]
    export = window.findChild(QMenu, "exportObservationsMenu")
    assert export.actions() == list(page.export_actions.values())


def test_the_router_shows_a_row_in_its_page(open_window, qtbot, tmp_path: Path) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    window = open_window(["--db", str(db)])
    view = table(window)
    qtbot.waitUntil(lambda: view.model().rowCount() > 1, timeout=10_000)
    assert isinstance(window.router, Router)
    wanted = view.model().index(1, 0).data(ID_ROLE)
    window.show_page("chats")
    window.router.show_observation(int(wanted))
    assert window.current_page_name() == "observations"
    qtbot.waitUntil(lambda: window.observations_page.selected_ids() == [int(wanted)], timeout=5_000)


def test_the_router_shows_a_persona_entry_by_its_name(open_window, qtbot, tmp_path: Path) -> None:
    """Selection by id is one contract method: the persona page selects an entry by its name,
    through the router, with the database shown first; a name not listed says False."""
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    folder = make_persona_folder(tmp_path / "memory", ["alpha", "beta", "gamma"])
    window = open_window(["--persona", str(folder), "--db", str(db)])
    assert window.current_page_name() == "observations"
    for name in ("observations", "chats", "persona"):
        assert isinstance(getattr(window, f"{name}_page"), SelectsById), name
    page = window.persona_page
    qtbot.waitUntil(lambda: page.model.row_of("gamma") >= 0, timeout=10_000)
    assert window.router.show_entry("gamma")
    assert window.current_page_name() == "persona"
    assert window.current_source().kind == "persona"  # the page's kind of source is selected
    qtbot.waitUntil(lambda: page.current_name() == "gamma", timeout=5_000)
    assert not window.router.show_entry("not-there")
    assert page.current_name() == "gamma"
