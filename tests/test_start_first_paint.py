"""The first rows are painted before anything the first screen does not need is loaded.

A start on a database shows the observations table: the persona page, the review desk and
its journal (with numpy's id lists and the persona core behind them), the folder watcher's
observer thread (watchdog's observers), the export code and the "Search as the agent"
dialog cost a third of a start and show nothing there. The window builds them right after
the table first paints rows (``StartUp.after_first_paint`` in ui/startup.py), or when something asks for
them earlier. These tests prove it in a process of its own (a person's start imports
everything afresh): which modules are loaded when the first rows are painted, and that
everything held back is there right after, working (the Entry menu's actions, the review
page, the folder watcher reporting an agent's write made while it was held).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu

from memory_desk.ui.live import FolderWatcher
from window_helpers import entry_bytes, make_database, make_persona_folder, run_python_json, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

HELD_BACK = (
    "memory_desk.ui.persona.page",
    "memory_desk.ui.review.desk",
    "memory_desk.ui.review.page",
    "memory_desk.core.journal.journal",
    "memory_desk.ui.observations.agent_search",
    "memory_desk.ui.export",
    "watchdog.observers",
)

# `memory-desk --db DB` up to the first paint of the table with rows, watched as the
# benchmark's probe watches it (an event filter on the viewport, installed after the window
# is made); then what was loaded at that paint, and what is there once the events after it
# have run. The window's fallback (build anyway after a while) is set out of reach, so only
# the paint can trigger the build.
START = """
import json, sys, time
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QTableView, QMenu
app = QApplication([])
from memory_desk.ui import startup
startup.AFTER_FIRST_PAINT_LATEST_MS = 600_000
from memory_desk.app import create_main_window
window = create_main_window(sys.argv[1:])
view = window.findChild(QTableView, "observationsTable")
seen = {}

class Watch(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and view.model().rowCount() and not seen:
            seen["loaded"] = sorted(m for m in %(held)r if m in sys.modules)
            seen["rows"] = view.model().rowCount()
            seen["persona_page_built"] = window.pages.built("persona") is not None
            seen["watcher"] = window.folder_watcher.mode
            seen["entry_actions"] = len(window.findChild(QMenu, "entryMenu").actions())
        return False

watch = Watch()
view.viewport().installEventFilter(watch)
window.show()
deadline = time.monotonic() + 60
def after() -> bool:
    return bool(seen) and window.pages.built("persona") is not None and window.folder_watcher.mode != "off"
while not after() and time.monotonic() < deadline:
    app.processEvents()
    time.sleep(0.002)
entry_menu = window.findChild(QMenu, "entryMenu")
print(json.dumps({
    "at_first_paint": seen,
    "after": {
        "loaded": sorted(m for m in %(held)r if m in sys.modules),
        "entry_actions": len(entry_menu.actions()),
        "review_page": window.findChild(QObject, "reviewPage") is not None,
        "watcher": window.folder_watcher.mode,
    },
}))
window.close()
window.shutdown()
"""


def start_in_own_process(
    args: list[str], held: tuple[str, ...] = HELD_BACK, setup: str = ""
) -> dict:
    script = START % {"held": held}
    if setup:  # (after the window module's import, before the window is made)
        anchor = "from memory_desk.app import create_main_window\n"
        script = script.replace(anchor, setup + "\n" + anchor, 1)
    return run_python_json(script, args)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_database(tmp_path / "alisio" / "memory.sqlite")


def test_the_first_rows_are_painted_before_the_held_back_parts_load(db: Path) -> None:
    started = start_in_own_process(["--db", str(db)])
    first = started["at_first_paint"]
    assert first["rows"] == 2
    assert first["loaded"] == []  # none of the held-back modules
    assert first["persona_page_built"] is False
    assert first["watcher"] == "off"  # no observer thread yet
    assert first["entry_actions"] == 0  # the persona page brings them
    after = started["after"]
    built_after = set(HELD_BACK) - {"memory_desk.ui.observations.agent_search"}  # when asked
    assert built_after - {"memory_desk.ui.export"} <= set(after["loaded"])  # the persona page
    assert "memory_desk.ui.observations.agent_search" not in after["loaded"]  # brings export
    assert after["review_page"] is True
    assert after["watcher"] != "off"
    assert after["entry_actions"] > 0


def test_the_newest_rows_of_a_big_file_are_painted_before_numpy_is_imported(db: Path) -> None:
    """A big file's first answer (its newest rows) comes as a plain array and is painted
    before numpy (100 ms of a start) is imported; the whole answer then brings it."""
    started = start_in_own_process(
        ["--db", str(db)],
        held=("numpy",),
        setup="from memory_desk.ui.observations import query\nquery.FIRST_ROWS_WORTH_BYTES = 0",
    )
    assert started["at_first_paint"]["rows"] == 2
    assert started["at_first_paint"]["loaded"] == []
    assert started["after"]["loaded"] == ["numpy"]


def test_the_held_back_parts_are_built_once_the_rows_are_painted(open_window, qtbot, db):
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 2, timeout=10_000)
    qtbot.waitUntil(lambda: window.folder_watcher.mode != "off", timeout=10_000)  # the last
    entry_menu = window.findChild(QMenu, "entryMenu")
    page_actions = list(window.persona_page.entry_actions.values())
    assert page_actions and [a for a in entry_menu.actions() if not a.isSeparator()] == [
        a for a in page_actions if not a.isSeparator()
    ]
    assert window.review_page.objectName() == "reviewPage"
    assert window.folder_watcher.mode != "off"
    assert window.pages.indexOf(window.persona_page) >= 0
    assert window.pages.indexOf(window.review_page) >= 0


def test_asking_for_a_held_back_page_builds_it_at_once(qtbot, db) -> None:
    """Before the first paint (the window not even shown), the pages come when asked for."""
    from memory_desk.app import create_main_window

    window = create_main_window(["--db", str(db)])
    try:
        assert window.pages.built("persona") is None and window.pages.built("review") is None
        window.show_page("review")
        assert window.pages.currentWidget() is window.review_page
        assert window.pages.built("persona") is not None  # the desk marks its entries
        window.show_page("persona")
        assert window.current_page_name() == "persona"
    finally:
        window.close()
        window.shutdown()
        window.deleteLater()


def test_a_held_watcher_starts_no_thread_and_reports_what_changed_meanwhile(
    qtbot, tmp_path: Path
) -> None:
    folder = make_persona_folder(tmp_path / "memory")
    folder = Path(os.path.realpath(folder))
    watcher = FolderWatcher()
    try:
        watcher.hold()
        key = watcher.watch(folder)
        assert watcher.mode == "off"  # no observer: nothing imported, no thread
        (folder / "likes-sushi.md").write_bytes(entry_bytes("likes-sushi"))  # while held
        with qtbot.waitSignal(watcher.paths_changed, timeout=5_000) as reported:
            watcher.release()
        assert watcher.mode != "off"
        assert reported.args == [key, [str(folder / "likes-sushi.md")]]
    finally:
        watcher.stop()


def test_the_held_back_parts_come_one_per_turn_of_the_event_loop(qtbot, db) -> None:
    """Each part costs tens of milliseconds: their modules imported on a thread first, then
    built one at a time, with the window answering (its events handled) in between, never
    as one long freeze right after the first rows."""
    from memory_desk.app import create_main_window

    window = create_main_window(["--db", str(db)])
    try:
        states = []  # what was built when each step began
        real_step = window.startup.build_next

        def step() -> None:
            built = window.pages.built("persona"), window.pages.built("review")
            states.append((*(part is not None for part in built), window.folder_watcher.mode))
            real_step()

        window.startup.build_next = step  # (the timers look the step up when they fire)
        window.startup.after_first_paint()  # what the first paint triggers
        assert window.pages.built("persona") is None and states == []  # the imports come first
        qtbot.waitUntil(lambda: window.folder_watcher.mode != "off", timeout=10_000)
        qtbot.waitUntil(lambda: not window.startup.held_back, timeout=5_000)
        assert states[:3] == [(False, False, "off"), (True, False, "off"), (True, True, "off")]
    finally:
        window.close()
        window.shutdown()
        window.deleteLater()


IDS_BEFORE_NUMPY = """
import json, sys
from memory_desk.core import lazy_numpy
from memory_desk.core.observations import ObservationStore, listing
from memory_desk.ui.observations.model import ObservationTableModel
from PySide6.QtWidgets import QApplication
app = QApplication([])
store = ObservationStore(sys.argv[1])
before = store.search_id_array()
model = ObservationTableModel()
model.set_store(store)
model.reset_ids(before)
out = {"numpy_before": "numpy" in sys.modules, "kind_before": type(before).__name__,
       "ids_before": before.tolist(), "empty": listing.parse_ids(None).tolist()}
out["rows"] = [model.row_of(oid) for oid in before]  # a numpy operation: numpy comes now
out["applied"] = model.apply_ids(list(reversed(before.tolist())))
lazy_numpy.load()
after = store.search_id_array()
out.update(kind_after=type(after).__name__, ids_after=after.tolist(), shown=model.ids())
store.close()
print(json.dumps(out))
"""


def test_ids_read_before_numpy_is_imported_are_the_same_and_work_as_numpy_arrays(
    db: Path,
) -> None:
    """Until numpy is imported, the ids come as an ``array('q')`` parsed in Python: the same
    ids, and every numpy operation of the table works on them (numpy is imported then)."""
    out = run_python_json(IDS_BEFORE_NUMPY, [str(db)])
    assert out["numpy_before"] is False and out["kind_before"] == "array"
    assert out["kind_after"] == "ndarray" and out["ids_after"] == out["ids_before"]
    assert out["empty"] == [] and out["rows"] == [0, 1]
    assert out["applied"] is True and out["shown"] == list(reversed(out["ids_before"]))


def test_a_start_on_a_persona_folder_builds_the_held_back_parts_once_its_listing_is_shown(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    """A folder too big to list at once is listed on a worker: the review desk, numpy and the
    folder watcher's start wait until every entry is shown (built during the listing, they
    took its time, in one interpreter); an agent's write made while they waited is reported
    all the same (the watcher's first look after its start)."""
    from memory_desk.app import create_main_window
    from memory_desk.ui import startup
    from memory_desk.ui.persona.listing import SMALL_FOLDER

    monkeypatch.setattr(startup, "AFTER_FIRST_PAINT_LATEST_MS", 600_000)
    folder = make_persona_folder(
        tmp_path / "memory", [f"entry-{n}" for n in range(SMALL_FOLDER + 50)]
    )
    window = create_main_window(["--persona", str(folder)])
    seen: dict[str, object] = {}

    def on_listed() -> None:
        seen.setdefault("watcher", window.folder_watcher.mode)
        seen.setdefault("review", window.pages.built("review") is not None)
        (folder / "entry-1.md").write_bytes(entry_bytes("entry-1", "The agent's new words."))

    try:
        assert window.persona_page.is_listing()
        window.persona_page.listed.connect(on_listed)
        window.show()
        qtbot.waitUntil(lambda: bool(seen), timeout=20_000)
        assert seen == {"watcher": "off", "review": False}
        qtbot.waitUntil(
            lambda: window.startup.done and not window.startup.held_back, timeout=20_000
        )
        assert window.pages.built("review") is not None and window.folder_watcher.mode != "off"
        page = window.persona_page
        qtbot.waitUntil(
            lambda: page.model.entry("entry-1").body == "The agent's new words.", timeout=20_000
        )
    finally:
        window.close()
        window.shutdown()
        window.deleteLater()
