"""The window's page stack: the pages by name, placed when built (most are built on first
need), and which of them are built so far."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QStackedWidget, QWidget

from memory_desk.ui.startup import restore_widget_state

if TYPE_CHECKING:
    from memory_desk.core.observations import ObservationStore
    from memory_desk.core.persona import PersonaFolder

# Every content page by name, in the order the window tells them things.
PAGE_NAMES = ("observations", "chats", "overview", "persona", "pruning", "review")
# The pages that show the current database (the one last chosen comes back with it).
DB_PAGE_NAMES = ("observations", "chats", "overview")


class PageStack(QStackedWidget):
    """The pages, one in front; a page is placed once built (:meth:`place`), and given the
    widget state saved at the last close once that state was restored.

    What the pages show is told through the stack (:meth:`show_database`,
    :meth:`show_plugin_settings`, :meth:`show_pruning_source`): the pages built so far get it
    at once, and a page built later when it is placed.
    """

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("pages")
        self._pages: dict[str, QWidget] = {}
        self.state_restored = False  # set by the window once the saved state is restored
        self._db_store: ObservationStore | None = None
        self._plugin_settings: dict | None = None
        self._pruning_source: ObservationStore | PersonaFolder | None = None

    def place(self, name: str, page: QWidget) -> None:
        """Put a page just built in the stack, telling it whether it is in front."""
        self._pages[name] = page
        self.addWidget(page)
        page.set_current(page is self.currentWidget())
        if self.state_restored:
            restore_widget_state(page)
        if name in DB_PAGE_NAMES and self._db_store is not None:
            page.set_store(self._db_store)
        if name == "chats" and self._plugin_settings is not None:
            page.set_plugin_settings(self._plugin_settings)
        if name == "pruning" and self._pruning_source is not None:
            page.set_source(self._pruning_source)

    def show_database(self, store: ObservationStore | None) -> None:
        """Show this database (None: none) on every database page."""
        self._db_store = store
        for page in self.built_pages(DB_PAGE_NAMES):
            page.set_store(store)

    def show_plugin_settings(self, settings: dict | None) -> None:
        """The Alisio plugin's settings of the database shown (the Chats page reads them)."""
        self._plugin_settings = settings
        chats = self.built("chats")
        if chats is not None:
            chats.set_plugin_settings(settings)

    def show_pruning_source(self, source: ObservationStore | PersonaFolder | None) -> None:
        """The store the pruning assistant prunes (None: none)."""
        self._pruning_source = source
        pruning = self.built("pruning")
        if pruning is not None:
            pruning.set_source(source)

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
