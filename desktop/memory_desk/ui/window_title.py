"""The window's title: its name (the demo's while the demo is open), the store shown (named as
the sidebar names it: ``miyagi``), how many changes wait for review, and Qt's unsaved-edits
mark ``[*]`` (shown while a page holds edits)."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from memory_desk.core.hidden_text import reveal
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate


class WindowTitle(QObject):
    """Keeps ``window``'s title: ``Memory Desk — miyagi — 3 changes to review``."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._base = translate("MainWindow", "Memory Desk")
        self._waiting_changes = 0
        self._source = ""
        self._show()

    def show_demo(self) -> None:
        self._base = translate("MainWindow", "Memory Desk — demo")
        self._show()

    def show_source(self, label: str) -> None:
        """The store shown now, by its sidebar label ("": none)."""
        self._source = label
        self._show()

    def show_waiting_changes(self, count: int) -> None:
        self._waiting_changes = count
        self._show()

    def _show(self) -> None:
        title = self._base
        if self._source:
            title = translate("MainWindow", "{title} — {source}").format(
                title=title, source=reveal(self._source)
            )
        if self._waiting_changes:
            title = translate("MainWindow", "{title} — {changes}").format(
                title=title,
                changes=i18n.plural(
                    self._waiting_changes,
                    translate("MainWindow", "{n} change to review"),
                    translate("MainWindow", "{n} changes to review"),
                ),
            )
        self._window.setWindowTitle(title + "[*]")
