"""The window's page stack: the pages by name, placed when built (most are built on first
need), and which of them are built so far."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QStackedWidget, QWidget

from memory_desk.ui.startup import restore_widget_state

# Every content page by name, in the order the window tells them things.
PAGE_NAMES = ("observations", "chats", "overview", "persona", "pruning", "review")
# The pages that show the current database (the one last chosen comes back with it).
DB_PAGE_NAMES = ("observations", "chats", "overview")


class PageStack(QStackedWidget):
    """The pages, one in front; a page is placed once built (:meth:`place`), and given the
    widget state saved at the last close once that state was restored.

    Signals:
        placed(str, QWidget): a page just built is in the stack (name, page): what it shows
            is told then (see ui/source_switch.py)
    """

    placed = Signal(str, QWidget)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("pages")
        self._pages: dict[str, QWidget] = {}
        self.state_restored = False  # set by the window once the saved state is restored

    def place(self, name: str, page: QWidget) -> None:
        """Put a page just built in the stack, telling it whether it is in front."""
        self._pages[name] = page
        self.addWidget(page)
        page.set_current(page is self.currentWidget())
        if self.state_restored:
            restore_widget_state(page)
        self.placed.emit(name, page)

    def built(self, name: str) -> QWidget | None:
        """The page called ``name`` if it was built (None: not yet, or no such page)."""
        return self._pages.get(name)

    def built_pages(self, names: tuple[str, ...] = PAGE_NAMES) -> tuple[QWidget, ...]:
        """The pages among ``names`` built so far, in that order."""
        return tuple(self._pages[name] for name in names if name in self._pages)

    def current_name(self) -> str:
        """The name of the page in front (``welcome`` for none of the content pages)."""
        widget = self.currentWidget()
        for name, page in self._pages.items():
            if widget is page:
                return name
        return "welcome"
