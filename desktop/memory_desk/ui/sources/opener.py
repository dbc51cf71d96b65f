"""Opening a source the person names (a menu's dialog, a drop on the window, a second start's
arguments): the registry opens it, the sidebar shows it, and a folder picked by hand is found
again at every start."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QWidget

from memory_desk.core.kinds import SourceKind
from memory_desk.ui.i18n import translate
from memory_desk.ui.sources.registry import remember_added_folder

if TYPE_CHECKING:
    from memory_desk.ui.sources.registry import SourceRegistry
    from memory_desk.ui.sources.sidebar import SourceSidebar


class SourceOpener(QObject):
    """Opens databases and persona folders and selects them in the sidebar (module
    docstring). A source found by looking is only selected when asked for again: the
    registry's ``added`` shows it when nothing else is shown."""

    def __init__(self, registry: SourceRegistry, sidebar: SourceSidebar, parent: QWidget) -> None:
        super().__init__(parent)
        self._registry = registry
        self._sidebar = sidebar
        self._parent = parent
        parent.setAcceptDrops(True)
        parent.installEventFilter(self)  # files and folders dropped on it open

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.Drop) or watched is not self._parent:
            return False
        assert isinstance(event, QDropEvent)  # QDragEnterEvent is one too
        urls = [url for url in event.mimeData().urls() if url.isLocalFile()]
        if kind == QEvent.Type.DragEnter and not urls:
            return False  # no file: refused
        if kind == QEvent.Type.Drop:
            for url in urls:
                self.open_dropped(Path(url.toLocalFile()))
        event.acceptProposedAction()
        return True

    def open_database(self, path: Path, *, found: bool = False, info: dict | None = None) -> bool:
        """Open an Alisio memory database and show it; False (with a message) if it cannot be."""
        known = self._registry.find(SourceKind.DB, path) is not None
        source = self._registry.open_database(path, found=found, info=info)
        if source is None:
            return False
        if known or not found:
            self._sidebar.select(source)
        return True

    def open_persona_folder(
        self, path: Path, *, label: str | None = None, found: bool = False
    ) -> bool:
        """Open an agent's memory folder and show it; False (with a message) if it cannot be."""
        source = self._registry.open_persona_folder(path, label=label, found=found)
        if source is None:
            return False
        if not found:
            self._sidebar.select(source)
        return True

    def add_persona_folder(self, path: Path) -> bool:
        """Open a folder the person picked or dropped, and remember it for the next start."""
        if not self.open_persona_folder(path):
            return False
        remember_added_folder(path)
        return True

    def open_dropped(self, path: Path) -> bool:
        """A folder opens as persona memory; a file as an Alisio database."""
        if path.is_dir():
            return self.add_persona_folder(path)
        return self.open_database(path)

    def ask_for_database(self) -> None:
        """File ▸ Open database: the person picks a file."""
        from PySide6.QtWidgets import QFileDialog  # dialogs: imported when opened

        path, _ = QFileDialog.getOpenFileName(
            self._parent,
            translate("MainWindow", "Open an Alisio memory database"),
            str(Path.home()),
            translate("MainWindow", "SQLite databases (*.sqlite *.db *.sqlite3);;All files (*)"),
        )
        if path:
            self.open_database(Path(path))

    def ask_for_folder(self) -> None:
        """File ▸ Open folder: the person picks a folder, found again at every start."""
        from PySide6.QtWidgets import QFileDialog

        path = QFileDialog.getExistingDirectory(
            self._parent, translate("MainWindow", "Open an agent's memory folder"), str(Path.home())
        )
        if path:
            self.add_persona_folder(Path(path))
