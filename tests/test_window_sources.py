"""The window opens by itself on what the agents keep, or on the welcome page, or on what it is given."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from memory_desk.app import create_main_window
from memory_desk.core.appdirs import settings_dir
from memory_desk.ui.widgets.message_bar import MessageBar
from window_helpers import (
    make_database,
    make_persona_folder,
    source_rows,
    table,
    write_alisio_config,
)

pytest_plugins = ["window_fixture"]  # the open_window fixture


def current_page(window) -> str:
    return window.current_page_name()


def source_info(window) -> str:
    """The sidebar's words about the source and, behind "Details", its technical lines."""
    return "\n".join(
        window.findChild(QLabel, name).text() for name in ("sourceInfo", "sourceDetails")
    )


def current_path(window) -> Path | None:
    source = window.current_source()
    return source.path if source is not None else None


def error_text(window) -> str:
    bar = window.findChild(MessageBar)
    return " ".join(label.text() for label in bar.findChildren(QLabel) if label.isVisibleTo(bar))


@pytest.fixture
def found_home(private_home: Path) -> Path:
    """A home where Alisio and miyagi (own folder and a ``work`` account) keep memory."""
    make_database(private_home / ".local/state/alisio/memory.sqlite", ("One", "Two", "Three"))
    make_persona_folder(private_home / ".miyagi/memory", ("likes-tea", "name-carmen"))
    make_persona_folder(private_home / ".miyagi/memory/work", ("uses-vim",))
    return private_home


# -- the welcome page -----------------------------------------------------------------------


def test_empty_home_shows_the_welcome_page(open_window) -> None:
    window = open_window([])
    assert window.pages.currentWidget().objectName() == "welcomePage"
    assert source_rows(window) == []
    for name in ("welcomeDemo", "welcomeOpenDatabase", "welcomeOpenFolder"):
        assert window.findChild(QPushButton, name).isVisible()
    assert window.findChild(QWidget, "liveIndicator").isHidden()  # nothing to follow yet


def test_welcome_text_is_shown_whole(open_window) -> None:
    """A word-wrapped label squeezed to one line's height once cut the text mid-sentence."""
    window = open_window([])
    window.resize(1280, 800)
    text = window.findChild(QLabel, "welcomeText")
    QApplication.processEvents()
    assert text.height() >= text.heightForWidth(text.width())
    assert "~/.&lt;agent&gt;/memory" in text.text()
    # The person's words; the variables and the config's setting only in the tooltip.
    assert "$ALISIO_STATE_HOME" not in text.text() and "dbPath" not in text.text()
    assert "$ALISIO_STATE_HOME" in text.toolTip() and "dbPath" in text.toolTip()


def test_welcome_demo_opens_the_demo(open_window, qtbot) -> None:
    window = open_window([])
    qtbot.mouseClick(window.findChild(QPushButton, "welcomeDemo"), Qt.MouseButton.LeftButton)
    assert current_page(window) == "observations"
    groups = [group for group, _label, _count in source_rows(window)]
    assert groups.count("Alisio observations") == 1
    assert groups.count("Memory of the person") >= 2
    qtbot.waitUntil(lambda: table(window).model().rowCount() > 100)
    assert "Demo data" in source_info(window)
    # The demo as built, then its agents' changes since (memory_desk.demo_changes): one new,
    # one forgotten, one deleted.
    assert "311 live · 31 forgotten · 14 pinned" in source_info(window)
    assert not window.findChild(QWidget, "liveIndicator").isHidden()


def test_welcome_open_database_asks_for_a_file(open_window, qtbot, tmp_path, monkeypatch) -> None:
    db = make_database(tmp_path / "picked" / "memory.sqlite")
    asked = []

    def pick(*args, **kwargs):
        asked.append(args)
        return str(db), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(pick))
    window = open_window([])
    qtbot.mouseClick(
        window.findChild(QPushButton, "welcomeOpenDatabase"), Qt.MouseButton.LeftButton
    )
    assert asked
    assert current_path(window) == db
    assert current_page(window) == "observations"
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 2)


def test_cancelled_file_dialog_changes_nothing(open_window, qtbot, monkeypatch) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    window = open_window([])
    window.findChild(QPushButton, "welcomeOpenDatabase").click()
    window.findChild(QPushButton, "welcomeOpenFolder").click()
    assert current_page(window) == "welcome"
    assert source_rows(window) == []


def test_opened_folder_is_remembered_for_the_next_start(
    open_window, qtbot, tmp_path, monkeypatch, private_home
) -> None:
    folder = make_persona_folder(tmp_path / "notes")
    monkeypatch.setattr(
        QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(folder))
    )
    window = open_window([])
    qtbot.mouseClick(window.findChild(QPushButton, "welcomeOpenFolder"), Qt.MouseButton.LeftButton)
    assert current_path(window) == folder
    assert current_page(window) == "persona"

    settings_file = settings_dir() / "settings.ini"
    assert settings_file.is_file()
    assert settings_file.is_relative_to(private_home)  # never the real home
    assert str(folder) in settings_file.read_text(encoding="utf-8")

    again = open_window([])
    assert ("Memory of the person", "notes", "2") in source_rows(again)
    assert current_page(again) == "persona"


def test_file_menu_actions_open_stores(open_window, tmp_path, monkeypatch) -> None:
    db = make_database(tmp_path / "a.sqlite")
    folder = make_persona_folder(tmp_path / ".padawan" / "memory")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(db), "")))
    monkeypatch.setattr(
        QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(folder))
    )
    window = open_window([])
    window.findChild(type(window.undo_action), "openDatabaseAction").trigger()
    assert current_path(window) == db
    window.findChild(type(window.undo_action), "openFolderAction").trigger()
    assert current_path(window) == folder
    assert ("Memory of the person", "padawan", "2") in source_rows(window)
    window.findChild(type(window.undo_action), "openDemoAction").trigger()
    assert "demo" in window.windowTitle()


# -- found stores ---------------------------------------------------------------------------


def test_found_stores_are_listed_with_counts(open_window, found_home) -> None:
    window = open_window([])
    rows = source_rows(window)
    assert ("Alisio observations", "alisio/memory.sqlite", "3") in rows
    assert ("Memory of the person", "miyagi", "2") in rows
    assert ("Memory of the person", "miyagi (work)", "1") in rows
    assert current_page(window) == "observations"
    assert current_path(window) == found_home / ".local/state/alisio/memory.sqlite"


def test_source_info_shows_the_plugin_settings(open_window, found_home) -> None:
    config = write_alisio_config(
        found_home,
        {
            "injectBudgetTokens": 2400,
            "recallLimit": 12,
            "defaultScope": "personal",
            "autoSummary": False,
        },
    )
    window = open_window([])
    info = source_info(window)
    assert str(config) in info
    for text in ("injectBudgetTokens: 2400", "recallLimit: 12", "defaultScope: personal"):
        assert text in info
    assert "autoSummary: false" in info
    assert "disabled" not in info


def test_a_disabled_plugin_is_said(open_window, found_home) -> None:
    write_alisio_config(found_home, {"enabled": False})
    window = open_window([])
    assert "disabled" in source_info(window)


def test_a_relative_db_path_is_followed(open_window, private_home) -> None:
    db = make_database(private_home / "elsewhere" / "mem.sqlite", ("Only one",))
    write_alisio_config(private_home, {"dbPath": "../../elsewhere/mem.sqlite"})
    window = open_window([])
    assert current_path(window) == db
    assert ("Alisio observations", "mem.sqlite", "1") in source_rows(window)


def test_a_broken_config_is_shown_and_the_database_still_opens(open_window, found_home) -> None:
    config = found_home / ".config/alisio/config.json"
    config.parent.mkdir(parents=True)
    config.write_text("{ not json", encoding="utf-8")
    window = open_window([])
    assert current_page(window) == "observations"
    assert "not valid JSON" in source_info(window)


def test_stores_that_appear_and_vanish_are_updated(open_window, private_home) -> None:
    make_persona_folder(private_home / ".miyagi/memory")
    window = open_window([])
    assert [label for _g, label, _c in source_rows(window)] == ["miyagi"]

    make_database(private_home / ".local/state/alisio/memory.sqlite")
    make_persona_folder(private_home / ".padawan/memory/home", ("a", "b", "c"))
    window.refresh_sources()
    rows = source_rows(window)
    assert ("Alisio observations", "alisio/memory.sqlite", "2") in rows
    assert ("Memory of the person", "padawan (home)", "3") in rows
    assert current_path(window) == private_home / ".miyagi/memory"  # not taken away

    shutil.rmtree(private_home / ".padawan")
    window.refresh_sources()
    assert ("Memory of the person", "padawan (home)", "gone") in source_rows(window)


def test_the_periodic_check_notices_stores_without_reading_entries(
    open_window, private_home, monkeypatch
) -> None:
    """Recounting every folder every few seconds kept an idle window busy (4 % of a core with
    5,000 entries): the periodic check only looks for sources that appear or vanish."""
    from memory_desk.core.persona import PersonaFolder, scan

    make_persona_folder(private_home / ".miyagi/memory")
    make_persona_folder(private_home / ".padawan/memory")
    window = open_window([])
    source_rows(window)  # the first counts are done (they run in the background)
    reads = []
    entries, counts = PersonaFolder.entries, scan.folder_counts  # (the sidebar's count)
    monkeypatch.setattr(
        PersonaFolder, "entries", lambda self, **kw: reads.append(self.path) or entries(self, **kw)
    )
    monkeypatch.setattr(scan, "folder_counts", lambda path: reads.append(path) or counts(path))

    shutil.rmtree(private_home / ".padawan")
    make_persona_folder(private_home / ".yoda/memory", ("a", "b"))
    window.refresh_sources(recount=False)
    rows = source_rows(window)
    assert ("Memory of the person", "padawan", "gone") in rows
    assert ("Memory of the person", "yoda", "2") in rows  # a new source is counted once
    # The new folder is counted once, off the main thread; the others are not read again.
    assert [path.name for path in reads] == ["memory"]
    assert reads[0] == private_home / ".yoda/memory"


def test_the_window_returns_to_welcome_only_when_empty(open_window, private_home) -> None:
    window = open_window([])
    assert current_page(window) == "welcome"
    make_persona_folder(private_home / ".miyagi/memory")
    window.refresh_sources()
    assert ("Memory of the person", "miyagi", "2") in source_rows(window)
    assert current_page(window) == "persona"


# -- arguments ------------------------------------------------------------------------------


def test_db_and_persona_override_found_stores(open_window, found_home, tmp_path) -> None:
    db = make_database(tmp_path / "given.sqlite", ("Given",))
    folder = make_persona_folder(tmp_path / "given-folder", ("x",))
    window = open_window(["--db", str(db), "--persona", str(folder)])
    assert [label for _g, label, _c in source_rows(window)] == ["given.sqlite", "given-folder"]
    assert current_path(window) == db


def test_a_bad_db_shows_an_error_and_the_window_stays_usable(open_window, qtbot, tmp_path) -> None:

    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database at all" * 100)
    window = open_window(["--db", str(garbage)])
    assert window.message_bar.isVisible()
    assert "garbage.sqlite" in error_text(window)
    assert source_rows(window) == []
    assert window.open_database(make_database(tmp_path / "good.sqlite"))
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 2)


def test_a_missing_persona_folder_shows_an_error(open_window, tmp_path) -> None:
    window = open_window(["--persona", str(tmp_path / "nowhere")])
    assert window.message_bar.isVisible()
    assert "nowhere" in error_text(window)


def test_demo_flag_opens_the_demo_and_shutdown_removes_it(open_window, qtbot) -> None:
    window = open_window(["--demo"])
    demo_db = current_path(window)
    assert demo_db is not None and demo_db.is_file()
    assert "demo" in window.windowTitle()
    qtbot.waitUntil(lambda: table(window).model().rowCount() > 100)
    demo_root = next(p for p in demo_db.parents if p.name.startswith("memory-desk-demo-"))
    window.close()
    window.shutdown()
    assert not demo_root.exists()


# -- drag and drop --------------------------------------------------------------------------


def test_open_dropped_opens_a_database_and_a_folder(open_window, tmp_path) -> None:
    db = make_database(tmp_path / "dropped.sqlite")
    folder = make_persona_folder(tmp_path / "dropped-folder")
    window = open_window([])
    assert window.open_dropped(db)
    assert current_path(window) == db
    assert window.open_dropped(folder)
    assert current_path(window) == folder
    assert folder in window.added_folders()


def test_a_real_drop_event_opens_what_was_dropped(open_window, tmp_path) -> None:
    db = make_database(tmp_path / "dropped.sqlite")
    folder = make_persona_folder(tmp_path / "dropped-folder")
    window = open_window([])
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(db)), QUrl.fromLocalFile(str(folder))])
    target: QWidget = window
    where = QPointF(window.width() / 2, window.height() / 2)
    actions = Qt.DropAction.CopyAction | Qt.DropAction.LinkAction
    enter = QDragEnterEvent(
        where.toPoint(), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    drop = QDropEvent(
        where, actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(target, drop)
    labels = [label for _g, label, _c in source_rows(window)]
    assert labels == ["dropped.sqlite", "dropped-folder"]


def test_a_drag_without_files_is_refused(open_window) -> None:
    window = open_window([])
    mime = QMimeData()
    mime.setText("just words")
    enter = QDragEnterEvent(
        QPointF(10, 10).toPoint(),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    enter.ignore()
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()


def test_create_main_window_holds_no_process_state(qtbot) -> None:
    first = create_main_window([])
    second = create_main_window([])
    qtbot.addWidget(first)
    qtbot.addWidget(second)
    assert first.undo_group is not second.undo_group
    assert first.observations_page.undo_stack is not second.observations_page.undo_stack


def test_a_database_that_vanishes_is_marked(open_window, found_home) -> None:
    window = open_window([])
    db = found_home / ".local/state/alisio/memory.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    window.refresh_sources()
    assert ("Alisio observations", "alisio/memory.sqlite", "gone") in source_rows(window)


def test_a_config_change_shows_after_refresh(open_window, found_home) -> None:
    window = open_window([])
    assert "recallLimit: 8 (default)" in source_info(window)
    assert "disabled" not in source_info(window)
    write_alisio_config(found_home, {"enabled": False, "recallLimit": 3})
    window.refresh_sources()
    info = source_info(window)
    assert "disabled" in info
    assert "recallLimit: 3" in info and "recallLimit: 3 (default)" not in info


def test_the_demo_shows_its_own_plugin_settings(open_window) -> None:
    window = open_window(["--demo"])
    info = source_info(window)
    assert "injectBudgetTokens: 2400" in info
    assert "autoSummary: true" in info


def test_a_remembered_folder_with_a_comma_in_its_name(open_window, tmp_path) -> None:
    folder = make_persona_folder(tmp_path / "notes, personal")
    assert open_window([]).add_persona_folder(folder)
    assert ("Memory of the person", "notes, personal", "2") in source_rows(open_window([]))


def test_a_database_that_comes_back_is_read_again(open_window, qtbot, found_home) -> None:
    window = open_window([])
    db = found_home / ".local/state/alisio/memory.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    window.refresh_sources()
    make_database(db, ("Fresh start",))
    window.refresh_sources()
    assert ("Alisio observations", "alisio/memory.sqlite", "1") in source_rows(window)
    qtbot.waitUntil(lambda: table(window).model().rowCount() == 1)


def test_menus_list_every_row_and_entry_action(open_window, tmp_path) -> None:
    """Keyboard first: the menus name each action and its shortcut, and trigger it."""
    from PySide6.QtWidgets import QMenu

    window = open_window(["--demo"])
    observation = window.findChild(QMenu, "observationMenu")
    texts = [a.text() for a in observation.actions() if not a.isSeparator()]
    assert texts[:2] in (["Pin", "Forget"], ["Unpin", "Forget"])
    assert "Delete permanently…" in texts
    row_actions = [a for a in observation.actions() if not a.isSeparator() and a.menu() is None]
    assert all(not a.shortcut().isEmpty() for a in row_actions)
    exports = window.findChild(QMenu, "exportObservationsMenu")
    assert exports.menuAction() in observation.actions()
    assert len(exports.actions()) == 4

    entry = window.findChild(QMenu, "entryMenu")
    labels = [a.text() for a in entry.actions()]
    assert labels[:2] == ["New", "Save"]  # the keys are the actions' own: Qt shows them
    assert all(not a.shortcut().isEmpty() for a in entry.actions()[:2])
    window.show_page("persona")
    entry.aboutToShow.emit()
    new = window.findChild(QAction, "personaNewAction")
    assert new.isEnabled()
    new.trigger()
    assert not window.findChild(QLineEdit, "personaName").isReadOnly()  # a new entry's name


def test_live_counts_of_the_open_source_come_from_its_page(
    open_window, qtbot, tmp_path, monkeypatch
) -> None:
    """An agent's write to the source in front is counted once, by the page's own query on
    its worker thread; the sidebar reuses those counts instead of querying again."""
    import subprocess
    import sys
    import threading

    from memory_desk.core.observations import ObservationStore

    db = make_database(tmp_path / "memory.sqlite")
    window = open_window(["--db", str(db)])
    label = f"{db.parent.name}/memory.sqlite"
    qtbot.waitUntil(lambda: ("Alisio observations", label, "2") in source_rows(window))
    on_main_thread = []
    summary = ObservationStore.summary

    def counted(self):
        on_main_thread.append(threading.current_thread() is threading.main_thread())
        return summary(self)

    monkeypatch.setattr(ObservationStore, "summary", counted)
    agent = (
        "import sys; from memory_desk.core import alisio;"
        "c = alisio.connect_like_plugin(sys.argv[1]);"
        "alisio.save_observation(c, title='Third', content='c', type='learning', project='p-1')"
    )
    subprocess.run([sys.executable, "-c", agent, str(db)], check=True, timeout=60)
    qtbot.waitUntil(lambda: ("Alisio observations", label, "3") in source_rows(window))
    assert on_main_thread and not any(on_main_thread)
    assert "3 live" in source_info(window)
