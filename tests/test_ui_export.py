"""Exports from a real window: the persona page's Entry ▸ Export folder…, the observations
page's export actions, the progress dialog (which cancels, keeps the window painting, and is
translated and named), and where the outcome is told.

QFileDialog's static calls are patched the way the other window tests patch them; the files
read back are compared with the stores they came from.
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
import zipfile
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFileDialog,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QWidget,
)

from alisio_fixtures import build_database, copy_database
from heartbeat import Heartbeat
from memory_desk.core import appdirs
from memory_desk.core.export import export_observations_json
from memory_desk.core.observations import ObservationStore
from memory_desk.core.progress import Progress
from memory_desk.ui import export
from ui_strings import OPEN, marked_language, unnamed, untranslated
from window_helpers import entry_bytes, make_database, make_persona_folder, table

pytest_plugins = ["window_fixture"]  # the open_window fixture

BIG = 10_000
EXPORT_S = 60.0  # far above a healthy export of BIG rows, far below a hang
ATTEMPTS = 3


@pytest.fixture(scope="module")
def big_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_database(tmp_path_factory.mktemp("big") / "memory.sqlite", BIG, seed=11)


@pytest.fixture
def big_db(big_template: Path, tmp_path: Path) -> Path:
    (tmp_path / "alisio").mkdir()
    return copy_database(big_template, tmp_path / "alisio" / "memory.sqlite")


@pytest.fixture
def save_to(monkeypatch: pytest.MonkeyPatch):
    """``save_to(path)``: the save dialog answers ``path`` (None: the person cancelled);
    returns the calls it had."""
    calls: list[tuple] = []

    def patch(path: Path | None):
        def answer(*args, **kwargs):
            calls.append(args)
            return ("" if path is None else str(path)), ""

        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(answer))
        return calls

    return patch


@pytest.fixture
def quick_dialog(monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress dialog shows at once (a test must see it, whatever the machine's speed)."""
    monkeypatch.setattr(export, "PROGRESS_DELAY_MS", 0)


def open_db_window(qtbot, open_window, db: Path):
    window = open_window(["--db", str(db)])
    qtbot.waitUntil(lambda: table(window).model().rowCount() > 0, timeout=20_000)
    page = window.observations_page
    # settled: its search answered and the opening's index check done (a measure of the
    # export's own pauses must not count the check's)
    qtbot.waitUntil(lambda: not page.is_busy() and not page.is_checking_index(), timeout=20_000)
    return window


def action(window, name: str) -> QAction:
    found = window.findChild(QAction, name)
    assert found is not None, name
    return found


def progress_dialog(window) -> QProgressDialog | None:
    return window.findChild(QProgressDialog, "exportProgressDialog")


def no_temporary_files(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".memory-desk.tmp")]


# ----------------------------------------------------------------------------- persona


def test_the_entry_menu_exports_the_persona_folder_to_a_zip(
    qtbot, open_window, tmp_path: Path, save_to
) -> None:
    folder = make_persona_folder(tmp_path / ".miyagi" / "memory", ("likes-tea", "name-carmen"))
    (folder / "crlf-note.md").write_bytes(entry_bytes("crlf-note").replace(b"\n", b"\r\n"))
    (folder / ".likes-tea.md.swp").write_bytes(b"an editor's swap file")
    window = open_window(["--persona", str(folder)])
    page = window.persona_page
    qtbot.waitUntil(lambda: page.folder() is not None)
    export_action = action(window, "exportPersonaAction")
    assert export_action in window.findChild(QMenu, "entryMenu").actions()
    assert export_action.isEnabled()
    chosen = tmp_path / "out" / "miyagi"  # typed without its suffix
    chosen.parent.mkdir()
    calls = save_to(chosen)

    with qtbot.waitSignal(page.info_raised, timeout=10_000) as told:
        export_action.trigger()

    target = chosen.with_name("miyagi.zip")
    assert told.args == [f"Exported 3 entries to “{target}”."]
    assert Path(calls[0][2]).parent == appdirs.exports_dir()
    assert Path(calls[0][2]).name.startswith("miyagi-memory-")
    with zipfile.ZipFile(target) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    assert members == {
        f"memory/{p.name}": p.read_bytes() for p in folder.glob("*.md") if p.is_file()
    }
    if os.name == "posix":
        assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert no_temporary_files(target.parent)


# ----------------------------------------------------------------------------- observations


def test_a_big_export_keeps_the_window_painting(
    qtbot, open_window, big_db: Path, tmp_path: Path, save_to, quick_dialog
) -> None:
    """Best of up to three exports, the dialog showing: on the window's thread the export
    would freeze it for its whole time (``raw``, measured in this run), while a loaded
    machine can add one stray pause (the dialog's first appearance, a garbage collection)
    to any single run."""
    with ObservationStore(big_db) as store:
        started = time.perf_counter()
        export_observations_json(store, None, tmp_path / "raw.json", Progress())
        raw = time.perf_counter() - started
    window = open_db_window(qtbot, open_window, big_db)
    page = window.observations_page
    pauses: list[float] = []
    for attempt in range(ATTEMPTS):
        target = tmp_path / f"all-{attempt}.json"
        save_to(target)
        beat = Heartbeat(window).start()
        with qtbot.waitSignal(page.info_raised, timeout=int(EXPORT_S * 1000)) as told:
            action(window, "exportAllJsonAction").trigger()
        pauses.append(beat.stop())
        assert told.args == [f"Exported 10,000 observations to “{target}”."]
        assert len(json.loads(target.read_text(encoding="utf-8"))["observations"]) == BIG
        qtbot.waitUntil(lambda: progress_dialog(window) is None)
        if pauses[-1] < 0.5 * raw:
            break
    print(f"\nexport of {BIG} rows: {raw:.2f} s; longest pauses {[round(p, 3) for p in pauses]} s")
    assert min(pauses) < 0.5 * raw, f"the window froze for {pauses} s (the export takes {raw} s)"


def test_the_progress_dialog_cancels_and_keeps_the_earlier_file(
    qtbot, open_window, big_db: Path, tmp_path: Path, save_to, quick_dialog
) -> None:
    """Checked in a marked language: the dialog is translated and every control named."""
    window = open_db_window(qtbot, open_window, big_db)
    page = window.observations_page
    out = tmp_path / "out"
    out.mkdir()
    target = out / "all.json"
    target.write_bytes(b"an earlier export the person keeps")
    with marked_language():
        calls = save_to(target)
        action(window, "exportAllJsonAction").trigger()
        qtbot.waitUntil(lambda: (d := progress_dialog(window)) is not None and d.value() > 0)
        dialog = progress_dialog(window)
        assert dialog.isVisible() and dialog.maximum() == BIG
        assert untranslated(dialog) == [] and unnamed(dialog) == []
        assert calls[0][1].startswith(OPEN)  # the save dialog's title

        with qtbot.waitSignal(page.info_raised, timeout=10_000) as told:
            dialog.findChild(QPushButton, "exportCancelButton").click()

    assert told.args == [f"{OPEN}Export cancelled; nothing was written.⟧"]
    assert target.read_bytes() == b"an earlier export the person keeps"
    assert sorted(p.name for p in out.iterdir()) == ["all.json"]
    qtbot.waitUntil(lambda: progress_dialog(window) is None)


def test_markdown_goes_to_a_new_dated_folder_in_the_chosen_one(
    qtbot, open_window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite", ("First note", "Second note"))
    window = open_db_window(qtbot, open_window, db)
    page = window.observations_page
    where = tmp_path / "exports"
    where.mkdir()
    monkeypatch.setattr(
        QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(where))
    )

    with qtbot.waitSignal(page.info_raised, timeout=10_000) as told:
        action(window, "exportAllMarkdownAction").trigger()

    (made,) = list(where.iterdir())
    assert re.fullmatch(r"memory-observations-\d{4}-\d{2}-\d{2}", made.name)
    assert told.args == [f"Exported 2 observations to “{made}”."]
    assert sorted(p.name for p in made.iterdir()) == [
        "1-first-note.md",
        "2-second-note.md",
        "index.md",
    ]
    assert "**What** first note" in (made / "1-first-note.md").read_text(encoding="utf-8")


def test_a_failing_export_tells_why_and_leaves_nothing(
    qtbot, open_window, tmp_path: Path, save_to
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    window = open_db_window(qtbot, open_window, db)
    page = window.observations_page
    folder = tmp_path / "taken.json"
    folder.mkdir()
    save_to(folder)

    with qtbot.waitSignal(page.error_raised, timeout=10_000) as told:
        action(window, "exportAllJsonAction").trigger()

    assert told.args == [
        f"“{folder}” is a folder: choose a file name for the export; nothing was written."
    ]
    assert list(folder.iterdir()) == [] and no_temporary_files(tmp_path)


def test_a_cancelled_save_dialog_exports_nothing(
    qtbot, open_window, tmp_path: Path, save_to
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite")
    window = open_db_window(qtbot, open_window, db)
    save_to(None)
    before = sorted(appdirs.exports_dir().iterdir())
    action(window, "exportAllJsonAction").trigger()
    assert progress_dialog(window) is None
    assert sorted(appdirs.exports_dir().iterdir()) == before


# ----------------------------------------------------------------------------- a chat


def test_a_chat_export_from_a_widget_without_signals_reports_in_a_message_box(
    qtbot, tmp_path: Path, save_to, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = make_database(tmp_path / "alisio" / "memory.sqlite", ("First note", "Second note"))
    shown: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "information", staticmethod(lambda _p, _t, text, *a: shown.append(text))
    )
    parent = QWidget()
    qtbot.addWidget(parent)
    target = tmp_path / "chat.md"
    save_to(target)
    store = ObservationStore(db)
    try:
        run = export.start_chat_export(parent, store, "session-1")
        assert run is not None
        qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    finally:
        store.close()

    assert shown == [f"Exported the chat and its 2 saved observations to “{target}”."]
    text = target.read_text(encoding="utf-8")
    assert "# Chat session-1" in text and "### First note" in text and "### Second note" in text
