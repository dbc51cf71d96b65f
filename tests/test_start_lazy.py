"""A start builds only the pages a person starts on; the others come when first needed.

Chats, Overview and the Pruning assistant (and their modules, and the export code) cost a
third of a start at 100,000 observations although a person starts on the observations or
the persona page. These tests prove that a real start imports none of them (in a separate
process, as a person's start is), and that each page, built late, gets everything it would
have had if built at start: the shown store, the persona folders, the pruning source, its
messages, the widget state saved at the last close, and nothing missing from Help.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QSplitter, QTableView, QWidget

from memory_desk.ui.shortcuts import collect_shortcuts
from window_helpers import agent_save, make_database, make_persona_folder, run_python_json, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

LAZY_PACKAGES = (
    "memory_desk.ui.chats",
    "memory_desk.ui.overview",
    "memory_desk.ui.pruning",
    "memory_desk.core.export",  # the export code, imported when the person exports
)
PAGES = (  # (View action, page object name, window attribute)
    ("showChatsAction", "chatsPage", "chats_page"),
    ("showOverviewAction", "overviewPage", "overview_page"),
    ("showPruningAction", "pruningPage", "pruning_page"),
)

# A start as `memory-desk --db … --persona …` makes it, up to the first rows listed; then
# which of the lazy packages are loaded, and which pages exist.
START = """
import json, sys, time
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication([])
from memory_desk.app import create_main_window
window = create_main_window(sys.argv[1:])
window.show()
deadline = time.monotonic() + 20
def ready():
    db = window.observations_page.model.rowCount() > 0 or "--db" not in sys.argv
    persona = "--persona" not in sys.argv or bool(window.persona_page.entries())
    return db and persona
while not ready() and time.monotonic() < deadline:
    app.processEvents()
    time.sleep(0.005)
print(json.dumps({
    "ready": ready(),
    "loaded": sorted(m for m in sys.modules if m.startswith(%r)),
    "pages": [n for n in ("chatsPage", "overviewPage", "pruningPage")
              if window.findChild(QWidget, n) is not None],
}))
window.close()
window.shutdown()
"""


def start_in_own_process(args: list[str]) -> dict:
    return run_python_json(START % (LAZY_PACKAGES,), args)


@pytest.mark.parametrize("what", ["db", "persona", "both"])
def test_a_start_imports_and_builds_none_of_the_later_pages(tmp_path: Path, what: str) -> None:
    args: list[str] = []
    if what in ("db", "both"):
        args += ["--db", str(make_database(tmp_path / "alisio" / "memory.sqlite"))]
    if what in ("persona", "both"):
        args += ["--persona", str(make_persona_folder(tmp_path / "persona"))]
    started = start_in_own_process(args)
    assert started["ready"]  # the window really opened its stores
    assert started["loaded"] == []
    assert started["pages"] == []


def test_a_database_start_imports_no_persona_code(tmp_path: Path) -> None:
    """The persona code (a tenth of a start's own imports) waits for a persona folder: the
    sidebar imports its counting only to count one."""
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    started = run_python_json(START % (("memory_desk.core.persona",),), ["--db", str(db)])
    assert started["ready"]
    assert started["loaded"] == []
    folder = make_persona_folder(tmp_path / "persona")
    both = ["--db", str(db), "--persona", str(folder)]
    started = run_python_json(START % (("memory_desk.core.persona",),), both)
    assert "memory_desk.core.persona.scan" in started["loaded"]  # (the check can fail)


def test_a_start_imports_the_pages_once_asked_for(tmp_path: Path) -> None:
    """The check above can fail: the same script sees the modules once a page is built."""
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    script = START.replace("print(json.dumps", "window.show_page('chats')\nprint(json.dumps")
    result = subprocess.run(
        [sys.executable, "-c", script % (LAZY_PACKAGES,), "--db", str(db)],
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    started = json.loads(result.stdout.strip().splitlines()[-1])
    assert "memory_desk.ui.chats.page" in started["loaded"]
    assert started["pages"] == ["chatsPage"]


@pytest.mark.parametrize(("action_name", "page_name", "attribute"), PAGES)
def test_each_page_is_built_when_its_view_action_shows_it(
    open_window, tmp_path: Path, qtbot, action_name: str, page_name: str, attribute: str
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 2)
    assert window.findChild(QWidget, page_name) is None
    action = window.findChild(QAction, action_name)
    assert action.isEnabled() and not action.shortcut().isEmpty()  # there before the page
    action.trigger()
    page = window.findChild(QWidget, page_name)
    assert page is not None and page is getattr(window, attribute)
    assert window.pages.currentWidget() is page and page.isVisible()
    assert page.page_actions.isEnabled()  # its actions work while it is in front
    window.findChild(QAction, "showObservationsAction").trigger()
    assert not page.page_actions.isEnabled()
    assert window.findChildren(QWidget, page_name) == [page]  # built once


def test_chats_built_late_list_the_database_shown_and_what_the_agent_saved_since(
    open_window, tmp_path: Path, qtbot
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 2)
    agent_save(db, title="From another chat", content="**What** x", session_id="session-2")
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 3)  # the refresh skipped it
    window.findChild(QAction, "showChatsAction").trigger()
    page = window.chats_page
    assert page.store is window.current_source().store
    chats = window.findChild(QTableView, "chatsTable")
    qtbot.waitUntil(lambda: chats.model().rowCount() == 2)


def test_overview_built_late_has_the_database_and_every_persona_folder(
    open_window, tmp_path: Path, qtbot
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    first = make_persona_folder(tmp_path / "one")
    second = make_persona_folder(tmp_path / "two", ("works-late",))
    window = open_window(["--db", str(db), "--persona", str(first), "--persona", str(second)])
    window.sidebar.select(window.registry.find("db", db))
    page = window.overview_page  # built on first use, as a caller reaching it would
    assert page.store is window.registry.find("db", db).store
    assert [f.path for f in page.folders] == [first, second]
    window.findChild(QAction, "showOverviewAction").trigger()
    qtbot.waitUntil(lambda: page.shown is not None and not page.is_loading())
    assert page.shown_folders is not None and len(page.shown_folders) == 2


def test_pruning_built_late_prunes_the_source_shown_and_follows_the_next(
    open_window, tmp_path: Path, qtbot
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    folder = make_persona_folder(tmp_path / "persona")
    window = open_window(["--db", str(db), "--persona", str(folder)])
    persona = window.registry.find("persona", folder)
    window.sidebar.select(persona)
    assert window.findChild(QWidget, "pruningPage") is None
    window.findChild(QAction, "showPruningAction").trigger()
    assert window.pruning_page.source is persona.store  # not the database shown first
    window.sidebar.select(window.registry.find("db", db))
    assert window.current_page_name() == "pruning"
    assert window.pruning_page.source is window.registry.find("db", db).store
    qtbot.waitUntil(lambda: not window.pruning_page.is_busy())


def test_a_page_built_late_reports_its_status_and_messages(
    open_window, tmp_path: Path, qtbot
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    window = open_window(["--db", str(db)])
    window.show_page("chats")
    qtbot.waitUntil(lambda: window.status_label.text() == "1 chat")
    window.chats_page.error_raised.emit("Something the person must read")
    assert window.message_bar.isVisible()
    assert window.message_bar.text() == "Something the person must read"


def test_a_page_built_late_gets_the_widget_state_saved_at_the_last_close(
    open_window, tmp_path: Path, qtbot
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    first = open_window(["--db", str(db)])
    first.resize(1200, 800)
    first.show_page("chats")
    splitter = first.findChild(QSplitter, "chatsSplitter")
    splitter.setSizes([300, 600])
    saved = splitter.sizes()
    first.close()  # saves the state
    second = open_window(["--db", str(db)])
    second.resize(1200, 800)
    assert second.findChild(QSplitter, "chatsSplitter") is None
    second.show_page("chats")
    qtbot.waitUntil(lambda: second.findChild(QSplitter, "chatsSplitter").sizes() == saved)


def test_help_lists_the_same_keys_before_and_after_every_page_is_built(
    open_window, tmp_path: Path
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    window = open_window(["--db", str(db)])
    before = collect_shortcuts(window)
    for name in ("chats", "overview", "pruning", "observations"):
        window.show_page(name)
    assert collect_shortcuts(window) == before
    assert any(row[2] == "Chats" for row in before)  # the View action, there from the start


# A start up to the held-back parts built; which thread imported their modules.
WARM_UP = """
import json, sys, threading, time
importers = {}
def hook(event, args):
    if event == "import" and args[0] in %r:
        importers.setdefault(args[0], threading.current_thread().name)
sys.addaudithook(hook)
from PySide6.QtWidgets import QApplication
app = QApplication([])
from memory_desk.app import create_main_window
window = create_main_window(sys.argv[1:])
window.show()
deadline = time.monotonic() + 30
def built():
    return window.startup.done and not window.startup.held_back
while not built() and time.monotonic() < deadline:
    app.processEvents()
    time.sleep(0.005)
print(json.dumps({"built": built(), "importers": importers,
                  "review": window.review is not None}))
window.close()
window.shutdown()
"""


def test_the_held_back_parts_modules_are_imported_off_the_windows_thread(tmp_path: Path) -> None:
    """The persona page, the review desk and numpy cost 69 + 201 ms of the window's thread
    right after the first paint when imported there; a thread imports them first."""
    from memory_desk.ui import startup, warm_up

    # (modules that the held-back ones import with an import statement: the audit event
    # "import" comes from those, not from importlib.import_module)
    watched = ("memory_desk.ui.persona.editor", "memory_desk.ui.review.page", "numpy")
    held_back = ("memory_desk.ui.persona.page", "memory_desk.ui.review.desk", "numpy")
    assert set(held_back) <= set(startup.HELD_BACK_MODULES)
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    started = run_python_json(WARM_UP % (watched,), ["--db", str(db)])
    assert started["built"] and started["review"]
    importers = started["importers"]
    assert importers["memory_desk.ui.persona.editor"] == warm_up.THREAD_NAME
    assert importers["memory_desk.ui.review.page"] == warm_up.THREAD_NAME
    assert importers["numpy"] != "MainThread"  # (a query's worker may need it first)
