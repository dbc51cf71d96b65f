"""``memory-desk --self-test``: open the real window offscreen on a demo and use it.

An entry point of its own (:mod:`memory_desk.launch` sends the flag here): it imports the
app to build the window, and the app never imports it.

CI and the bundle run it to prove that an installed Memory Desk works end to end: its
resources load from the installed package, the window opens, and searching, pinning,
forgetting, undoing and saving a persona entry reach the files.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from memory_desk import APP_ID

WAIT_SECONDS = 10.0


class SelfTest:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.failures = 0

    def check(self, what: str, ok: bool, detail: str = "") -> bool:
        mark = "ok  " if ok else "FAIL"
        self.out.write(f"{mark} {what}{': ' + detail if detail else ''}\n")
        self.out.flush()
        if not ok:
            self.failures += 1
        return ok

    def wait(self, condition: Callable[[], bool]) -> bool:
        from PySide6.QtCore import QThread
        from PySide6.QtWidgets import QApplication

        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            QApplication.processEvents()
            if condition():
                return True
            QThread.msleep(10)
        return condition()


def main() -> int:
    """``memory-desk --self-test`` (through :mod:`memory_desk.launch`): offscreen, so it
    runs where there is no display (CI, the bundle's build)."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    return run_self_test()


def run_self_test(out: TextIO | None = None) -> int:
    """Exit code 0 when every check passed, 1 otherwise; prints one line per check."""
    from PySide6.QtWidgets import QApplication

    from memory_desk.app import configure_application

    test = SelfTest(out or sys.stdout)
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "memory-desk"])
    try:
        configure_application(app)
        _check_resources(test)
        _check_window(test)
    except Exception:  # a self-test reports every failure, including its own crash
        test.check("self-test ran to the end", False, traceback.format_exc())
    test.out.write(
        "self-test passed\n"
        if test.failures == 0
        else f"self-test failed: {test.failures} check(s)\n"
    )
    return 0 if test.failures == 0 else 1


def _check_resources(test: SelfTest) -> None:
    from PySide6.QtGui import QIcon, QImage

    from memory_desk.ui.resources import ICON_SIZES, app_icon, resource_path

    svg = resource_path("icons", "memory-desk.svg")
    test.check("application icon (SVG) is installed", svg.is_file(), str(svg))
    test.check("application icon loads", not QIcon(str(svg)).isNull() and not app_icon().isNull())
    missing = [
        size
        for size in ICON_SIZES
        if QImage(
            str(resource_path("icons", "hicolor", f"{size}x{size}", "apps", f"{APP_ID}.png"))
        ).isNull()
    ]
    test.check("PNG icons 16 to 512 px load", not missing, f"missing {missing}" if missing else "")
    for name in (f"{APP_ID}.desktop", f"{APP_ID}.metainfo.xml"):
        path = resource_path(name)
        test.check(f"{name} is installed", path.is_file() and path.stat().st_size > 0)
    _check_spanish(test)


def _check_spanish(test: SelfTest) -> None:
    """The compiled Spanish catalogue is installed and loads; English comes back after."""
    from memory_desk.ui import i18n

    try:
        loaded = i18n.install_language("es") == "es"
        menu = i18n.translate("MainWindow", "&File")
    finally:
        i18n.install_language("en")
    test.check("Spanish translation loads", loaded and menu != "&File", f"File menu: {menu!r}")


def _check_window(test: SelfTest) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QAbstractButton, QAbstractItemView, QLineEdit, QPlainTextEdit

    from memory_desk.app import create_main_window

    window = create_main_window(["--demo"])
    window.show()
    try:
        store = window.current_source().store if window.current_source() else None
        if not test.check(
            "the demo opens on the observations page",
            window.current_page_name() == "observations" and store is not None,
        ):
            return
        table = window.findChild(QAbstractItemView, "observationsTable")
        model = table.model()
        test.check(
            "the table shows the demo's observations",
            test.wait(lambda: model.rowCount() > 0),
            f"{model.rowCount()} rows",
        )
        total = model.rowCount()
        word = next(w for w in store.search(limit=1)[0].title.split() if len(w) >= 4)
        window.findChild(QLineEdit, "observationsSearch").setText(word)
        test.check(
            f"searching {word!r} narrows the table",
            test.wait(lambda: 0 < model.rowCount() < total),
            f"{model.rowCount()} rows",
        )

        table.selectRow(0)
        obs_id = model.index(0, 0).data(Qt.ItemDataRole.UserRole)
        before = store.get(obs_id).pinned
        window.findChild(QAbstractButton, "pinButton").click()
        page = window.observations_page  # writes run in the background: wait for each
        test.check(
            "pin reaches the database",
            test.wait(lambda: store.get(obs_id).pinned != before and not page.is_writing()),
        )
        window.undo_action.trigger()
        test.check(
            "undo puts the pin back",
            test.wait(lambda: store.get(obs_id).pinned == before and not page.is_writing()),
        )

        table.selectRow(0)
        obs_id = model.index(0, 0).data(Qt.ItemDataRole.UserRole)
        window.findChild(QAbstractButton, "forgetButton").click()
        test.check(
            "forget reaches the database",
            test.wait(lambda: store.get(obs_id).deleted_at is not None and not page.is_writing()),
        )
        window.undo_action.trigger()
        test.check(
            "undo restores the forgotten observation",
            test.wait(lambda: store.get(obs_id).deleted_at is None and not page.is_writing()),
        )

        _check_reading_pages(test, window)

        window.show_page("persona")
        folder = window.current_source().store
        entries_view = window.findChild(QAbstractItemView, "personaList")
        entry = next(e for e in folder.entries() if e.editable and e.agent_visible)
        select_entry(entries_view, entry.name)
        body = window.findChild(QPlainTextEdit, "personaBody")
        test.wait(lambda: body.isEnabled() and body.toPlainText().strip() == entry.body)
        body.setPlainText(entry.body + "\n\nChecked by the self-test.")
        window.findChild(QAbstractButton, "personaSave").click()
        test.check(
            "saving a persona entry writes its file",
            test.wait(
                lambda: "Checked by the self-test." in Path(entry.path).read_text(encoding="utf-8")
            ),
            entry.name,
        )
    finally:
        window.close()
        window.shutdown()


def _check_reading_pages(test: SelfTest, window) -> None:
    """The Chats page lists the demo's chats and shows one's loaded context; the Overview
    counts what the table does; the pruning assistant finds the demo's duplicates (its
    near-duplicate pass loads numpy, SciPy and datasketch: a broken install shows here); the
    review page lists the changes the demo's agents made (the journal works)."""
    from PySide6.QtWidgets import QAbstractItemView, QPlainTextEdit

    window.show_page("chats")
    chats = window.findChild(QAbstractItemView, "chatsTable")
    test.check(
        "the Chats page lists the demo's chats",
        test.wait(lambda: chats.model().rowCount() > 0),
        f"{chats.model().rowCount()} chats",
    )
    window.chats_page.show_chat(str(chats.model().index(0, 0).data(0x0100)))
    context = window.findChild(QPlainTextEdit, "chatLoadedContext")
    test.check(
        "a chat shows the context it was loaded with",
        test.wait(lambda: bool(context.toPlainText())),
    )
    window.show_page("overview")
    overview = window.overview_page
    live = window.observations_page.totals.live if window.observations_page.totals else -1
    test.check(
        "the Overview counts the live observations",
        test.wait(lambda: overview.shown is not None and overview.shown.live == live),
        f"{live} live",
    )
    window.show_page("pruning")
    pruning = window.pruning_page
    test.check(
        "the pruning assistant finds the demo's repeated observations",
        test.wait(lambda: not pruning.is_busy() and pruning.tree.topLevelItemCount() > 0),
    )
    window.show_page("review")
    changes = window.findChild(QAbstractItemView, "reviewList")
    test.check(
        "Since you last looked lists what the demo's agents changed",
        test.wait(lambda: changes.model().rowCount() >= 7),
        f"{changes.model().rowCount()} changes",
    )
    window.show_page("observations")


def select_entry(view, name: str) -> None:
    """Make the persona entry ``name`` current in ``view``, as a click would (also used by
    docs/screenshots.py)."""
    from PySide6.QtCore import QItemSelectionModel, Qt

    model = view.model()
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        if index.data(Qt.ItemDataRole.UserRole) == name:
            view.selectionModel().setCurrentIndex(
                index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
            return
