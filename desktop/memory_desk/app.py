"""The app: ``create_main_window(args)`` builds the window, ``main()`` runs it.

The ``memory-desk`` command starts in :mod:`memory_desk.launch`, which sends
``--self-test`` to :mod:`memory_desk.selftest` and everything else here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memory_desk import APP_ID, __version__
from memory_desk.cli import parse_args
from memory_desk.qt_check import platform_problem


def create_main_window(args: Sequence[str]):
    """Build the main window for these command-line arguments (after the program name).

    ``--db``/``--persona`` open exactly those stores; ``--demo`` opens a demo built in a
    temporary folder; otherwise the stores the agents keep on this machine are found, and
    the welcome page shows when there are none. The caller owns the QApplication. Tests
    call this many times in one process, so it holds no process-wide state
    (single-instance handling lives in :func:`main`).
    """
    from memory_desk.ui.window import MainWindow

    options = parse_args(args)
    if options.lang:
        from memory_desk.ui.i18n import install_language

        install_language(options.lang)
    if options.theme:
        from memory_desk.ui.theme import apply_theme

        apply_theme(options.theme)
    window = MainWindow()
    if options.demo:
        window.open_demo()
    for folder in options.persona:
        window.open_persona_folder(folder)
    if options.db is not None:
        window.open_database(options.db)
    if not (options.demo or options.persona or options.db):
        window.open_found_sources()
    window.restore_ui_state()
    return window


def configure_application(app) -> None:
    """Names, icon and desktop file name: set once per process."""
    from memory_desk.ui.resources import app_icon

    app.setApplicationName("Memory Desk")
    app.setOrganizationName("Memory Desk")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(app_icon())


def _choose_look(options) -> None:
    """The language and the theme: the flags, else the settings, else the system's."""
    from memory_desk.ui import i18n, theme
    from memory_desk.ui.settings import app_settings

    settings = app_settings()
    i18n.install_language(i18n.choose_language(options.lang, settings))
    theme.apply_theme(theme.choose_theme(options.theme, settings))


def main(argv: Sequence[str] | None = None) -> int:
    """The ``memory-desk`` command: one window per person, or a one-off task, then exit."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--journal-first-look"]:  # a child of the window: the journal's first look
        from memory_desk.core.journal.first_look import child_main

        return child_main(argv[1:])
    options = parse_args(argv)  # --help, --version and bad flags end here, before Qt starts

    if options.install_desktop_entry or options.uninstall_desktop_entry:
        return _run_desktop_entry(install=options.install_desktop_entry)
    if options.self_test:  # the command runs it through memory_desk.launch, never here
        print("memory-desk: --self-test runs through memory_desk.launch.main", file=sys.stderr)
        return 2
    problem = platform_problem()  # missing system libraries, said before Qt would abort
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1

    from PySide6.QtWidgets import QApplication

    from memory_desk.core.instance_lock import InstanceLock
    from memory_desk.ui.single_instance import InstanceServer, Start, hand_over, take_or_hand_over

    app = QApplication.instance() or QApplication(sys.argv[:1])
    configure_application(app)
    _choose_look(options)
    lock: InstanceLock | None = None
    try:
        lock = InstanceLock()
        start = take_or_hand_over(lock, argv)
    except OSError as exc:  # a data folder it may not write: the socket alone, as before
        print(
            f"memory-desk: cannot use the single-instance lock ({exc}): a window of another"
            " session may run beside this one",
            file=sys.stderr,
        )
        lock = None
        start = Start.HANDED_OVER if hand_over(argv) else Start.OURS
    if start is Start.HANDED_OVER:
        return _already_running()
    if start is Start.NO_ANSWER and lock is not None:
        return _running_but_silent(lock)
    server = InstanceServer(parent=app)
    if not server.listen() and hand_over(argv):
        return _already_running()  # an instance of an older Memory Desk, without the lock
    if lock is not None and lock.held:
        lock.publish(server.address())
    window = create_main_window(argv)
    hand_starts_to(window, server)
    window.show()
    code = app.exec()
    server.close()
    if lock is not None:
        lock.release()
    return code


def hand_starts_to(window, server) -> None:
    """A second start's arguments go to the window in front, also once it is made again."""
    server.arguments_received.connect(window.handle_arguments)

    def replaced(new) -> None:
        server.arguments_received.disconnect(window.handle_arguments)
        hand_starts_to(new, server)

    window.replaced.connect(replaced)


def _already_running() -> int:
    print("Memory Desk is already running: it now shows what you asked for.")
    return 0


def _running_but_silent(lock) -> int:
    holder = lock.holder()
    who = f" (process {holder.pid})" if holder is not None else ""
    print(
        f"Memory Desk is already running for you{who} but did not answer; no second window"
        f" was opened. If it hangs, close it, then start Memory Desk again. Lock: {lock.path}",
        file=sys.stderr,
    )
    return 1


def _run_desktop_entry(*, install: bool) -> int:
    """``--install-desktop-entry`` / ``--uninstall-desktop-entry``: no window, no Qt."""
    from memory_desk.desktop_entry import (
        DesktopEntryError,
        install_desktop_entry,
        uninstall_desktop_entry,
    )

    try:
        if install:
            for path in install_desktop_entry():
                print(f"installed {path}")
        else:
            for path in uninstall_desktop_entry():
                print(f"removed {path}")
    except DesktopEntryError as exc:
        print(f"memory-desk: {exc}", file=sys.stderr)
        return 1
    return 0
