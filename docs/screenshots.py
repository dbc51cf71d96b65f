"""Make the README's screenshots from the demo: ``python docs/screenshots.py [OUT_DIR]``.

Runs the real window on a demo built in a temporary HOME (your own stores are never opened),
drives it by object names as a person would, and saves PNGs of the window (and of the dialogs it
opens) into ``docs/`` or OUT_DIR. Without a display it renders offscreen; under Xvfb
(``xvfb-run -a python docs/screenshots.py``) it uses the X11 platform.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

SIZE = (1280, 800)


def _isolate_home() -> None:
    home = Path(tempfile.mkdtemp(prefix="memory-desk-shots-"))
    os.environ["HOME"] = str(home)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        os.environ[var] = str(home / var.lower())
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _settle(app, ms: int = 400) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    app.processEvents()


def _wait(app, condition: Callable[[], bool], timeout_ms: int = 5000) -> None:
    from PySide6.QtCore import QElapsedTimer

    clock = QElapsedTimer()
    clock.start()
    while not condition() and clock.elapsed() < timeout_ms:
        _settle(app, 50)


def _select_row(view, row: int) -> None:
    view.selectRow(row)
    view.setFocus()


def _select_entry(view, name: str) -> None:
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


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    _isolate_home()

    from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget

    from memory_desk.app import configure_application, create_main_window

    app = QApplication.instance() or QApplication(["memory-desk"])
    configure_application(app)
    window = create_main_window(["--demo"])
    window.resize(*SIZE)
    window.show()
    saved: list[Path] = []

    def shoot(widget: QWidget, name: str) -> None:
        _settle(app)
        path = out / name
        widget.grab().save(str(path))
        saved.append(path)

    try:
        table = window.findChild(QAbstractItemView, "observationsTable")
        _wait(app, lambda: table.model().rowCount() > 0)
        _select_row(table, 2)
        shoot(window, "screenshot.png")

        for extra in _EXTRA_SHOTS:
            extra(app, window, shoot)

        window.show_page("persona")
        entries = window.findChild(QAbstractItemView, "personaList")
        _wait(app, lambda: entries.model().rowCount() > 0)
        folder = window.current_source().store
        entry = next(e for e in folder.entries() if e.editable and e.agent_visible)
        _select_entry(entries, entry.name)
        shoot(window, "persona.png")
    finally:
        window.close()
        window.shutdown()
    for path in saved:
        print(path)
    return 0


# Further shots (dialogs, other pages) register here: fn(app, window, shoot).
_EXTRA_SHOTS: list[Callable] = []


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
