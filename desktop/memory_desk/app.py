"""Entry points: ``create_main_window(args)`` builds the window, ``main()`` runs the app."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memory_desk import APP_ID, __version__
from memory_desk.cli import parse_args


def create_main_window(args: Sequence[str]):
    """Build the main window for these command-line arguments (after the program name).

    The caller owns the QApplication. Tests call this many times in one process, so it
    holds no process-wide state (single-instance handling lives in :func:`main`).
    """
    from memory_desk.ui.main_window import MainWindow

    options = parse_args(args)
    window = MainWindow()
    if options.db is not None:
        window.open_database(options.db)
    for folder in options.persona:
        window.open_persona_folder(folder)
    return window


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parse_args(argv)  # --help, --version and bad flags end here, before Qt starts

    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Memory Desk")
    app.setOrganizationName("Memory Desk")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)
    window = create_main_window(argv)
    window.show()
    return app.exec()
