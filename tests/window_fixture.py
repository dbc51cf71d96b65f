"""The ``open_window`` fixture, loaded by the window tests as a plugin (``pytest_plugins``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import pytest

from memory_desk.app import create_main_window
from memory_desk.ui.window import MainWindow


@pytest.fixture
def open_window(qtbot) -> Iterator[Callable[[Sequence[str]], MainWindow]]:
    """``open_window(args)``: a shown window for these arguments, closed after the test."""
    windows: list[MainWindow] = []

    def build(args: Sequence[str]) -> MainWindow:
        window = create_main_window(list(args))
        windows.append(window)
        window.show()
        qtbot.waitExposed(window)
        return window

    yield build
    for window in windows:
        window.close()
        window.shutdown()
        window.deleteLater()
