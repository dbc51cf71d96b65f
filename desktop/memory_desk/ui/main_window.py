"""The main window: a sidebar of memory sources, one page per kind of store, one undo stack."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core import StoreError
from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import PersonaFolder
from memory_desk.ui.message_bar import MessageBar
from memory_desk.ui.observations.page import ObservationsPage
from memory_desk.ui.persona.page import PersonaPage

SOURCE_ROLE = Qt.ItemDataRole.UserRole


class MainWindow(QMainWindow):
    """Hosts the pages; owns the undo stack, the message bar and the status bar.

    Pages report through signals (``status_changed``, ``error_raised``, ``info_raised``);
    the window never reaches into a page's widgets.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Memory Desk")
        self.resize(1280, 800)

        self.undo_stack = QUndoStack(self)
        self.undo_action: QAction = self.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setObjectName("undoAction")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action: QAction = self.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setObjectName("redoAction")
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        self.addAction(self.undo_action)
        self.addAction(self.redo_action)

        self.message_bar = MessageBar(self)
        self.sources = QTreeWidget(self)
        self.sources.setObjectName("sourcesList")
        self.sources.setHeaderHidden(True)
        self.sources.setRootIsDecorated(False)
        self.sources.setMinimumWidth(180)
        self._db_group = self._add_group("Alisio observations")
        self._persona_group = self._add_group("Persona memory")

        self.pages = QStackedWidget(self)
        self.pages.setObjectName("pages")
        self.observations_page = ObservationsPage(self.undo_stack, self)
        self.persona_page = PersonaPage(self.undo_stack, self)
        self.pages.addWidget(self.observations_page)
        self.pages.addWidget(self.persona_page)

        for page in (self.observations_page, self.persona_page):
            page.error_raised.connect(self.message_bar.show_error)
            page.info_raised.connect(self.message_bar.show_info)
        self.observations_page.status_changed.connect(self._on_observations_status)
        self.persona_page.status_changed.connect(self._on_persona_status)

        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("mainSplitter")
        splitter.addWidget(self.sources)
        splitter.addWidget(self.pages)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([220, 1060])

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(6, 6, 6, 0)
        layout.addWidget(self.message_bar)
        layout.addWidget(splitter, 1)
        self.setCentralWidget(central)

        self.status_label = QLabel(self)
        self.status_label.setObjectName("statusCounts")
        self.statusBar().addPermanentWidget(self.status_label)

        self._build_menus()
        self.sources.currentItemChanged.connect(self._on_source_changed)

    # -- building -----------------------------------------------------------------------------

    def _add_group(self, title: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem(self.sources, [title])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        item.setExpanded(True)
        return item

    def _build_menus(self) -> None:
        edit = self.menuBar().addMenu("&Edit")
        edit.addAction(self.undo_action)
        edit.addAction(self.redo_action)

    # -- sources ------------------------------------------------------------------------------

    def open_database(self, path: Path) -> bool:
        """Open an Alisio memory database and show it; False (with a message) if it cannot be."""
        try:
            store = ObservationStore(path)
        except StoreError as exc:
            self.message_bar.show_error(str(exc))
            return False
        item = QTreeWidgetItem(self._db_group, [store.label if hasattr(store, "label") else path.name])
        item.setToolTip(0, str(path))
        item.setData(0, SOURCE_ROLE, ("db", store))
        self._db_group.setExpanded(True)
        self.sources.setCurrentItem(item)
        return True

    def open_persona_folder(self, path: Path) -> bool:
        """Open an agent's memory folder and show it; False (with a message) if it cannot be."""
        try:
            folder = PersonaFolder(path)
        except StoreError as exc:
            self.message_bar.show_error(str(exc))
            return False
        item = QTreeWidgetItem(self._persona_group, [_folder_label(path)])
        item.setToolTip(0, str(path))
        item.setData(0, SOURCE_ROLE, ("persona", folder))
        self._persona_group.setExpanded(True)
        if self.sources.currentItem() is None or self._db_group.childCount() == 0:
            self.sources.setCurrentItem(item)
        return True

    def _on_source_changed(self, current: QTreeWidgetItem | None, _previous) -> None:
        if current is None:
            return
        source = current.data(0, SOURCE_ROLE)
        if not source:
            return
        kind, store = source
        if kind == "db":
            self.observations_page.set_store(store)
            self.pages.setCurrentWidget(self.observations_page)
        else:
            self.persona_page.set_folder(store)
            self.pages.setCurrentWidget(self.persona_page)

    def show_page(self, name: str) -> None:
        """Show the page named ``observations`` or ``persona`` (used by menus and tests)."""
        page = {"observations": self.observations_page, "persona": self.persona_page}[name]
        self.pages.setCurrentWidget(page)

    # -- status -------------------------------------------------------------------------------

    def _on_observations_status(self, text: str) -> None:
        if self.pages.currentWidget() is self.observations_page:
            self.status_label.setText(text)

    def _on_persona_status(self, text: str) -> None:
        if self.pages.currentWidget() is self.persona_page:
            self.status_label.setText(text)

    # -- closing ------------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if not self.persona_page.maybe_close():
            event.ignore()
            return
        self.observations_page.shutdown()
        self.persona_page.shutdown()
        event.accept()


def _folder_label(path: Path) -> str:
    """``miyagi`` for ~/.miyagi/memory, ``miyagi / work`` for ~/.miyagi/memory/work."""
    parts = path.expanduser().resolve().parts
    if "memory" in parts:
        at = len(parts) - 1 - parts[::-1].index("memory")
        agent = parts[at - 1].lstrip(".") if at > 0 else path.name
        rest = parts[at + 1 :]
        return " / ".join([agent, *rest])
    return path.name
