"""The ``open_window`` fixture, loaded by the window tests as a plugin (``pytest_plugins``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import pytest
import shiboken6

from memory_desk.app import create_main_window
from memory_desk.ui.window import MainWindow


@pytest.fixture
def open_window(qtbot) -> Iterator[Callable[[Sequence[str]], MainWindow]]:
    """``open_window(args)``: a shown window for these arguments, closed after the test (and
    so is each window it is made again as: a language switch)."""
    windows: list[MainWindow] = []

    def follow(window: MainWindow) -> None:
        windows.append(window)
        window.replaced.connect(follow)

    def build(args: Sequence[str]) -> MainWindow:
        window = create_main_window(list(args))
        follow(window)
        window.show()
        qtbot.waitExposed(window)
        return window

    yield build
    for window in windows:
        if not shiboken6.isValid(window):
            continue  # made again, and deleted by the switch
        window.close()
        window.shutdown()
        window.deleteLater()
