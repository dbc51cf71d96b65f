"""The main window: a sidebar of memory sources, one page per kind of store, one undo stack."""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memory_desk import __version__
from memory_desk.core import StoreError
from memory_desk.core.observations import ObservationStore, Totals
from memory_desk.core.persona import PersonaFolder
from memory_desk.ui import settings as settings_module
from memory_desk.ui.live import MODE_POLLING, DatabaseWatcher, FolderWatcher
from memory_desk.ui.message_bar import MessageBar
from memory_desk.ui.observations.page import ObservationsPage
from memory_desk.ui.persona.page import PersonaPage
from memory_desk.ui.plain import as_shown, from_shown
from memory_desk.ui.shortcuts import ShortcutsDialog
from memory_desk.ui.undo_focus import UndoKeyRouter
from memory_desk.ui.welcome import WelcomePage

if TYPE_CHECKING:
    from memory_desk.demo import Demo
    from memory_desk.locate import AlisioLocation

SOURCE_ROLE = Qt.ItemDataRole.UserRole
SOURCES_REFRESH_MS = 5000


@dataclass
class Source:
    """One store shown in the sidebar; the store object is opened once and kept."""

    kind: str  # "db" or "persona"
    path: Path
    label: str
    store: object | None = None
    found: bool = False  # found by locate (so it may vanish), rather than opened by the person
    info: dict = field(default_factory=dict)
    watcher: DatabaseWatcher | None = None  # for a database
    watch_key: str = ""  # for a persona folder: the FolderWatcher's key
    file_id: tuple[int, int] | None = None  # for a database: the file its connection reads


class MainWindow(QMainWindow):
    """Hosts the pages; owns the undo stack, the message bar, the sources and the status bar.

    Pages report through signals (``status_changed``, ``error_raised``, ``info_raised``);
    the window never reaches into a page's widgets.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Memory Desk")
        self.resize(1280, 800)
        self.setAcceptDrops(True)
        self._demo_dir: tempfile.TemporaryDirectory | None = None
        self._demo: Demo | None = None
        self._sources: list[Source] = []
        self._locating = False
        self._shut_down = False

        self.undo_stack = QUndoStack(self)
        self.undo_action: QAction = self.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setObjectName("undoAction")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action: QAction = self.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setObjectName("redoAction")
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        self.undo_action.setWhatsThis("Undo the last change (its text says which)")
        self.redo_action.setWhatsThis("Redo the change just undone")
        self.addAction(self.undo_action)
        self.addAction(self.redo_action)
        self._undo_keys = UndoKeyRouter(self)  # Ctrl+Z from a field with nothing to undo

        self.message_bar = MessageBar(self)
        self.sources = QTreeWidget(self)
        self.sources.setObjectName("sourcesList")
        self.sources.setColumnCount(2)
        self.sources.setHeaderHidden(True)
        self.sources.setRootIsDecorated(False)
        self.sources.setIndentation(12)
        self.sources.setMinimumWidth(200)
        self.sources.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.sources.header().setStretchLastSection(False)
        self.sources.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.sources.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self._db_group = self._add_group("Alisio observations")
        self._persona_group = self._add_group("Memory of the person")
        self.source_info = QLabel(self)
        self.source_info.setObjectName("sourceInfo")
        self.source_info.setTextFormat(Qt.TextFormat.PlainText)  # paths and messages, not HTML
        self.source_info.setWordWrap(True)
        self.source_info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.source_info.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.source_info.setStyleSheet("QLabel { color: palette(mid); padding: 4px; }")
        sidebar = QWidget(self)
        sidebar_layout = QVBoxLayout(sidebar)
        sidebar_layout.setContentsMargins(0, 0, 0, 0)
        sidebar_layout.addWidget(self.sources, 1)
        sidebar_layout.addWidget(self.source_info)

        self.pages = QStackedWidget(self)
        self.pages.setObjectName("pages")
        self.welcome_page = WelcomePage(self)
        self.observations_page = ObservationsPage(self.undo_stack, self)
        self.persona_page = PersonaPage(self.undo_stack, self)
        for page in (self.welcome_page, self.observations_page, self.persona_page):
            self.pages.addWidget(page)
        self.welcome_page.demo_requested.connect(self.open_demo)
        self.welcome_page.open_database_requested.connect(self.on_open_database)
        self.welcome_page.open_folder_requested.connect(self.on_open_folder)

        for page in (self.observations_page, self.persona_page):
            page.error_raised.connect(self.message_bar.show_error)
            page.info_raised.connect(self.message_bar.show_info)
        self.observations_page.status_changed.connect(self._on_observations_status)
        self.persona_page.status_changed.connect(self._on_persona_status)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(sidebar)
        self.splitter.addWidget(self.pages)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([230, 1050])

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(6, 6, 6, 0)
        layout.addWidget(self.message_bar)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

        self.status_label = QLabel(self)
        self.status_label.setObjectName("statusCounts")
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.statusBar().addPermanentWidget(self.status_label)
        self.live_indicator = QToolButton(self)
        self.live_indicator.setObjectName("liveIndicator")
        self.live_indicator.setCheckable(True)
        self.live_indicator.setChecked(True)
        self.live_indicator.setAutoRaise(True)
        self.live_indicator.toggled.connect(self.set_live)
        self.statusBar().addPermanentWidget(self.live_indicator)
        self._last_change: float | None = None

        self.folder_watcher = FolderWatcher(self)
        self.folder_watcher.paths_changed.connect(self._on_paths_changed)
        self.folder_watcher.rescan_needed.connect(lambda key: self._on_paths_changed(key, []))
        self.folder_watcher.mode_changed.connect(lambda _mode: self._show_live_state())
        self.folder_watcher.error.connect(self.message_bar.show_error)
        self._show_live_state()
        self.persona_page.file_written.connect(self._on_own_write)

        self._build_menus()
        self.sources.currentItemChanged.connect(self._on_source_changed)
        self.pages.setCurrentWidget(self.welcome_page)

        self._sources_timer = QTimer(self)
        self._sources_timer.setInterval(SOURCES_REFRESH_MS)
        self._sources_timer.timeout.connect(lambda: self.refresh_sources(recount=False))

    # -- building -----------------------------------------------------------------------------

    def _add_group(self, title: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem(self.sources, [title, ""])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        item.setExpanded(True)
        return item

    def _action(self, name: str, text: str, shortcut, slot, tip: str) -> QAction:
        action = QAction(text, self)
        action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        action.setToolTip(f"{tip} ({keys})" if keys else tip)
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_menus(self) -> None:
        menu = self.menuBar().addMenu("&File")
        menu.addAction(
            self._action(
                "openDatabaseAction",
                "Open &database…",
                QKeySequence.StandardKey.Open,
                self.on_open_database,
                "Open an Alisio memory.sqlite",
            )
        )
        menu.addAction(
            self._action(
                "openFolderAction",
                "Open &folder…",
                "Ctrl+Shift+O",
                self.on_open_folder,
                "Open an agent's memory folder",
            )
        )
        menu.addAction(
            self._action(
                "openDemoAction",
                "Open the d&emo",
                None,
                self.open_demo,
                "Open a made-up memory to explore; your own files are not touched",
            )
        )
        menu.addSeparator()
        menu.addAction(
            self._action(
                "quitAction",
                "&Quit",
                QKeySequence.StandardKey.Quit,
                self.close,
                "Quit Memory Desk",
            )
        )
        edit = self.menuBar().addMenu("&Edit")
        edit.addAction(self.undo_action)
        edit.addAction(self.redo_action)
        observation = self.menuBar().addMenu("&Observation")
        observation.setObjectName("observationMenu")
        page = self.observations_page
        for action in (page.pin_action, page.forget_action, page.restore_action, page.edit_action):
            observation.addAction(action)
        observation.addSeparator()
        observation.addAction(page.delete_action)
        observation.addSeparator()
        observation.addAction(page.agent_search_action)
        self._build_entry_menu()
        tools = self.menuBar().addMenu("&Tools")
        tools.setObjectName("toolsMenu")
        tools.addAction(
            self._action(
                "checkDatabaseAction",
                "&Check database",
                None,
                self.check_database,
                "Check the shown Alisio database and its search index again (after a repair)",
            )
        )
        view = self.menuBar().addMenu("&View")
        view.addAction(
            self._action(
                "showObservationsAction",
                "&Observations",
                "Ctrl+1",
                lambda: self.show_page("observations"),
                "Show Alisio's observations",
            )
        )
        view.addAction(
            self._action(
                "showPersonaAction",
                "&Memory of the person",
                "Ctrl+2",
                lambda: self.show_page("persona"),
                "Show the agent's memory of the person",
            )
        )
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(
            self._action(
                "shortcutsAction",
                "&Keyboard shortcuts",
                QKeySequence.StandardKey.HelpContents,
                self.show_shortcuts,
                "List every keyboard shortcut",
            )
        )
        help_menu.addAction(
            self._action(
                "aboutAction",
                "&About Memory Desk",
                None,
                self._on_about,
                "About Memory Desk",
            )
        )

    def _build_entry_menu(self) -> None:
        """The persona page's buttons as a menu that names their shortcuts.

        The page's own QShortcuts press the buttons; giving these actions the same keys
        would make every shortcut ambiguous, so the menu only shows them (after a tab).
        """
        menu = self.menuBar().addMenu("E&ntry")
        menu.setObjectName("entryMenu")
        entries: list[tuple[QAction, QWidget]] = []
        for name, button in self.persona_page.buttons.items():
            tip = button.toolTip()
            keys = tip[tip.rfind("(") + 1 : -1] if tip.endswith(")") else ""
            action = QAction(f"{button.text()}\t{keys}" if keys else button.text(), self)
            action.setObjectName(f"{name}Action")
            action.setStatusTip(tip)
            action.triggered.connect(button.click)
            menu.addAction(action)
            entries.append((action, button))

        def sync() -> None:
            on_page = self.pages.currentWidget() is self.persona_page
            for action, button in entries:
                action.setEnabled(on_page and button.isEnabled())

        menu.aboutToShow.connect(sync)

    # -- opening sources ----------------------------------------------------------------------

    def open_database(self, path: Path, *, found: bool = False, info: dict | None = None) -> bool:
        """Open an Alisio memory database and show it; False (with a message) if it cannot be."""
        path = Path(path).expanduser().absolute()
        existing = self._find_source("db", path)
        if existing is not None:
            self._select(existing)
            return True
        try:
            store = ObservationStore(path)
        except StoreError as exc:
            self.message_bar.show_error(str(exc))
            return False
        for warning in store.warnings:
            self.message_bar.show_info(warning)
        label = path.name if path.name != "memory.sqlite" else f"{path.parent.name}/{path.name}"
        source = Source("db", path, label, store, found, dict(info or {}), file_id=store.identity)
        self._add_source(source)
        if not found or self.sources.currentItem() is None:
            self._select(source)
        return True

    def open_persona_folder(
        self, path: Path, *, label: str | None = None, found: bool = False
    ) -> bool:
        """Open an agent's memory folder and show it; False (with a message) if it cannot be."""
        path = Path(path).expanduser().absolute()
        existing = self._find_source("persona", path)
        if existing is not None:
            if not found:
                self._select(existing)
            return True
        try:
            folder = PersonaFolder(path, trash_limits=settings_module.trash_limits())
        except StoreError as exc:
            self.message_bar.show_error(str(exc))
            return False
        folder.tidy()  # what a killed Memory Desk left in it; keeps the trash within limits
        source = Source("persona", path, label or folder_label(path), folder, found)
        self._add_source(source)
        if not found or self.sources.currentItem() is None:
            self._select(source)
        return True

    def open_demo(self) -> bool:
        """Build the demo in a temporary folder (removed on close) and open it."""
        from memory_desk.demo import build_demo
        from memory_desk.locate import locate_alisio

        if self._demo is None:
            self._demo_dir = tempfile.TemporaryDirectory(prefix="memory-desk-demo-")
            try:
                self._demo = build_demo(Path(self._demo_dir.name))
            except (OSError, StoreError) as exc:
                self._demo_dir.cleanup()
                self._demo_dir = None
                self.message_bar.show_error(f"The demo could not be built: {exc}")
                return False
        demo = self._demo
        for folder in demo.persona_folders:
            self.open_persona_folder(folder, label=f"demo: {folder_label(folder)}", found=True)
        # The demo's home has its own Alisio config: show its settings as for a real one.
        info = {**alisio_info(locate_alisio(env={}, home=demo.home)), "demo": True}
        opened = self.open_database(demo.db_path, info=info)
        self.setWindowTitle("Memory Desk — demo")
        return opened

    def open_found_sources(self) -> bool:
        """Open what the agents keep on this machine; False when nothing was found."""
        self.refresh_sources()
        self._sources_timer.start()
        return bool(self._sources)

    def refresh_sources(self, *, recount: bool = True) -> None:
        """Add stores that appeared, mark those that vanished, and (``recount``) update every
        count. The periodic check does not recount: the watchers update a source's count when
        it changes, and recounting a 5,000-entry folder every few seconds cost 4 % of a core
        while idle."""
        from memory_desk.locate import locate_alisio, locate_persona_folders

        if self._locating:
            return
        self._locating = True
        try:
            alisio = locate_alisio()
            info = alisio_info(alisio)
            known = self._find_source("db", alisio.db_path)
            if known is not None:
                known.info = info  # the config may have changed since (plugin turned off)
            elif alisio.exists:
                self.open_database(alisio.db_path, found=True, info=info)
            for location in locate_persona_folders(extra=self.added_folders()):
                if not location.path.is_dir():
                    continue  # an added folder that is gone: its sidebar row says so
                self.open_persona_folder(location.path, label=location.label, found=True)
        finally:
            self._locating = False
        if recount:
            self.update_counts()
        else:
            self._check_presence()

    def _check_presence(self) -> None:
        """Cheap: mark sources that vanished or came back, reopen replaced databases."""
        for group in (self._db_group, self._persona_group):
            for row in range(group.childCount()):
                item = group.child(row)
                source = item.data(0, SOURCE_ROLE)
                self._reopen_if_replaced(source)
                if (item.text(1) == "gone") == source.path.exists():
                    self._update_item(item, source)

    def _add_source(self, source: Source) -> None:
        self._watch(source)
        self._sources.append(source)
        self._show_live_state()
        group = self._db_group if source.kind == "db" else self._persona_group
        item = QTreeWidgetItem(group, [source.label, ""])
        item.setToolTip(0, as_shown(str(source.path)))
        item.setData(0, SOURCE_ROLE, source)
        group.setExpanded(True)
        self._update_item(item, source)

    # -- live reload ---------------------------------------------------------------------------

    def _watch(self, source: Source) -> None:
        """Follow the agents' writes to this source: data_version for a database, watchdog
        for a folder. Both report through signals in the main thread."""
        if source.kind == "db":
            source.watcher = DatabaseWatcher(source.path, self, folder_watcher=self.folder_watcher)
            source.watcher.changed.connect(lambda s=source: self._on_database_changed(s))
            source.watcher.replaced.connect(
                lambda message, s=source: self._on_database_replaced(s, message)
            )
            source.watcher.start()
            if not self.is_live():
                source.watcher.pause()
        else:
            source.watch_key = self.folder_watcher.watch(source.path)

    def is_live(self) -> bool:
        return self.live_indicator.isChecked()

    def set_live(self, live: bool) -> None:
        """Pause or resume live reload; resuming catches up with what changed meanwhile."""
        if self.live_indicator.isChecked() != live:
            self.live_indicator.setChecked(live)  # comes back here through toggled
            return
        for source in self._sources:
            if source.watcher is not None:
                (source.watcher.resume if live else source.watcher.pause)()
        if live:
            # A resumed DatabaseWatcher reports what was committed meanwhile by itself;
            # folder events were dropped while paused, so the open folder is re-read.
            source = self.current_source()
            if source is not None and source.kind == "persona":
                self.persona_page.reload()
            self.update_counts()
        self._show_live_state()

    def _on_own_write(self, path: str) -> None:
        """The persona page just wrote (or removed) ``path``: its echo is not an agent's write."""
        try:
            content: bytes | None = Path(path).read_bytes()
        except OSError:
            content = None  # removed (forget, rename): expect the file to be gone
        self.folder_watcher.expect_write(path, content)

    def _on_database_changed(self, source: Source) -> None:
        self._note_change()
        if file_id(source.path) != source.file_id:
            self._reopen_if_replaced(source)  # a database appeared where there was none
            return
        if self.current_source() is source:
            self.observations_page.refresh()  # its answer brings the counts
            return
        item = self._item_for(source)
        if item is not None:
            self._update_item(item, source)

    def _on_paths_changed(self, key: str, _paths: list) -> None:
        if not self.is_live():
            return
        for source in self._sources:
            if source.kind == "persona" and source.watch_key == key:
                self._note_change()
                if self.current_source() is source:
                    self.persona_page.reload()  # its status brings the counts
                    continue
                item = self._item_for(source)
                if item is not None:
                    self._update_item(item, source)

    def _note_change(self) -> None:
        self._last_change = time.time()
        self._show_live_state()

    def _show_live_state(self) -> None:
        # Nothing open (the welcome page): there is nothing to follow, so say nothing.
        self.live_indicator.setVisible(bool(self._sources))
        polling = self.folder_watcher.mode == MODE_POLLING
        if not self.is_live():
            text, tip = "⏸ Paused", "Live reload is paused: click to follow the agents again"
        else:
            text = "● Live" + (" (polling)" if polling else "")
            tip = "Live reload is on: what agents write shows at once. Click to pause."
            if polling:
                tip += (
                    f"\nFile events are not available here, so folders are polled: "
                    f"{self.folder_watcher.fallback_reason}"
                )
        if self._last_change is not None:
            stamp = time.strftime("%H:%M:%S", time.localtime(self._last_change))
            text += f" · {stamp}"
            tip += f"\nLast change from disk at {stamp}"
        self.live_indicator.setText(text)
        self.live_indicator.setToolTip(as_shown(tip))

    def _find_source(self, kind: str, path: Path) -> Source | None:
        path = Path(path).expanduser().absolute()
        for source in self._sources:
            if source.kind == kind and source.path == path:
                return source
        return None

    def _item_for(self, source: Source) -> QTreeWidgetItem | None:
        for group in (self._db_group, self._persona_group):
            for row in range(group.childCount()):
                item = group.child(row)
                if item.data(0, SOURCE_ROLE) is source:
                    return item
        return None

    def _select(self, source: Source) -> None:
        item = self._item_for(source)
        if item is not None:
            self.sources.setCurrentItem(item)

    def current_source(self) -> Source | None:
        item = self.sources.currentItem()
        return item.data(0, SOURCE_ROLE) if item is not None else None

    # -- counts -------------------------------------------------------------------------------

    def update_counts(self) -> None:
        for group in (self._db_group, self._persona_group):
            for row in range(group.childCount()):
                item = group.child(row)
                source = item.data(0, SOURCE_ROLE)
                self._reopen_if_replaced(source)
                self._update_item(item, source)
        self._show_source_info(self.current_source())

    def _reopen_if_replaced(self, source: Source, message: str | None = None) -> None:
        """Switch a database source to the file now at its path, or to none, when the path no
        longer holds the file its store has open (deleted, moved, or replaced by a rename-over).

        The same for a database opened by hand and one found: the old store's writes are
        refused by the store itself (StoreReplaced); here the window says what happened and
        the page shows what is there now. The old store and watcher close *before* the new
        file is opened: until they do, the old file's ``-wal``/``-shm`` sit at the path's
        names, and a new connection would read them as the new file's.
        """
        if source.kind != "db":
            return
        now = file_id(source.path)
        if now == source.file_id:
            return
        had_file = source.file_id is not None
        if message is None:
            message = _what_happened(source.path, now, had_file=had_file)
        shown = self.current_source() is source
        if source.watcher is not None:
            source.watcher.stop()
            source.watcher.deleteLater()
            source.watcher = None
        if shown:
            self.observations_page.set_store(None)
        source.store.close()
        source.file_id = None
        store, problem = self._open_store_at(source.path) if now is not None else (None, None)
        if store is not None:
            source.store, source.file_id = store, store.identity
        self._watch(source)
        self._tell_switch(source, message, store, problem, had_file=had_file)
        if shown:
            self.observations_page.set_store(store)
            if store is None:
                self.observations_page.index_banner.show_problem(
                    problem or f"{message}. Nothing is shown until a database is at that path."
                )
        item = self._item_for(source)
        if item is not None:
            self._update_item(item, source)

    def _open_store_at(self, path: Path) -> tuple[ObservationStore | None, str | None]:
        try:
            return ObservationStore(path), None
        except StoreError as exc:
            return None, str(exc)

    def _tell_switch(
        self,
        source: Source,
        message: str,
        store: ObservationStore | None,
        problem: str | None,
        *,
        had_file: bool,
    ) -> None:
        """Say what happened to the file and what the page shows now."""
        if store is not None and not had_file:
            self.message_bar.show_info(f"{message}: showing it")
        elif store is not None:
            self.message_bar.show_error(
                f"{message}. Memory Desk now shows the file that is there now; nothing you"
                " do from now on goes to the old one."
            )
        elif problem is not None:
            self.message_bar.show_error(
                f"{message}. The file there now cannot be opened: {problem}"
            )
        elif had_file:
            self.message_bar.show_error(
                f"{message}. Nothing is shown for {source.label} until a database is at that"
                " path again; if it was moved, open it from its new place (File ▸ Open database)."
            )

    def _on_database_replaced(self, source: Source, message: str) -> None:
        """The watcher saw the path lose the open file: switch now, not at the next count."""
        self._reopen_if_replaced(source, message)

    def check_database(self) -> None:
        """Tools ▸ Check database: check the shown database again (quick_check and the search
        index), in the background; the page's banner and write actions follow the answer."""
        source = self.current_source()
        if source is None or source.kind != "db":
            self.message_bar.show_info("Open an Alisio database to check it")
            return
        self._reopen_if_replaced(source)
        self.show_page("observations")
        self.observations_page.check_database()
        self.message_bar.show_info(f"Checking {source.path} …")

    def _update_item(
        self,
        item: QTreeWidgetItem,
        source: Source,
        *,
        totals: Totals | None = None,
        entries: list | None = None,
    ) -> None:
        """Show a source's counts; ``totals``/``entries`` when a page already has them."""
        if not source.path.exists():
            item.setText(1, "gone")
            item.setToolTip(1, as_shown(f"{source.path} is no longer there"))
            item.setForeground(0, self.palette().mid())
            return
        item.setForeground(0, self.palette().text())
        try:
            if source.kind == "db":
                totals = totals or source.store.totals()
                item.setText(1, f"{totals.live:,}")
                item.setToolTip(
                    1,
                    f"{totals.live:,} live · {totals.forgotten:,} forgotten · "
                    f"{totals.pinned:,} pinned",
                )
            else:
                entries = source.store.entries() if entries is None else entries
                problems = sum(1 for entry in entries if entry.problems)
                item.setText(1, f"{len(entries)}" + (" ⚠" if problems else ""))
                item.setToolTip(1, f"{len(entries)} entries · {problems} with problems")
        except StoreError as exc:
            item.setText(1, "!")
            item.setToolTip(1, as_shown(str(exc)))
        if self.current_source() is source:
            self._show_source_info(source)

    def _show_source_info(self, source: Source | None) -> None:
        if source is None:
            self.source_info.clear()
            return
        lines = [str(source.path)]
        item = self._item_for(source)
        if item is not None and item.toolTip(1):
            lines.append(from_shown(item.toolTip(1)))  # the counts, or why there are none
        if source.kind == "db":
            versions = ", ".join(str(v) for v in sorted(source.store.schema_versions))
            lines.append(f"Schema {versions}")
            if source.info.get("demo"):
                lines.append("Demo data in a temporary folder")
            if source.info.get("config"):
                lines.append(f"Config: {source.info['config']}")
            if "enabled" in source.info and not source.info["enabled"]:
                lines.append("The memory plugin is disabled in Alisio's config")
            configured = source.info.get("configured", ())
            for key, value in source.info.get("settings", {}).items():
                default = "" if key in configured else " (default)"
                # true/false as in the config file the person would edit, not Python's True
                text = json.dumps(value) if isinstance(value, bool) else str(value)
                lines.append(f"{key}: {text}{default}")
            lines.extend(source.info.get("problems", []))
        self.source_info.setText("\n".join(lines))

    # -- switching ----------------------------------------------------------------------------

    def _on_source_changed(self, current: QTreeWidgetItem | None, previous) -> None:
        source = current.data(0, SOURCE_ROLE) if current is not None else None
        if source is None:
            return
        leaving_dirty_entry = (
            source.kind == "persona"
            and self.persona_page_folder() is not source.store
            and not self.persona_page.maybe_close()
        )
        if leaving_dirty_entry:
            self.sources.blockSignals(True)
            self.sources.setCurrentItem(previous)
            self.sources.blockSignals(False)
            return
        if source.kind == "db":
            self.observations_page.set_store(source.store)
            self.pages.setCurrentWidget(self.observations_page)
        else:
            self.persona_page.set_folder(source.store)
            self.pages.setCurrentWidget(self.persona_page)
        self._show_source_info(source)

    def persona_page_folder(self):
        return getattr(self.persona_page, "folder", lambda: None)()

    def show_page(self, name: str) -> None:
        """Show the page named ``observations``, ``persona`` or ``welcome``."""
        kind = {"observations": "db", "persona": "persona"}.get(name)
        if kind is None:
            self.pages.setCurrentWidget(self.welcome_page)
            return
        current = self.current_source()
        if current is not None and current.kind == kind:
            return
        for source in self._sources:
            if source.kind == kind:
                self._select(source)
                return
        page = self.observations_page if kind == "db" else self.persona_page
        self.pages.setCurrentWidget(page)

    def current_page_name(self) -> str:
        widget = self.pages.currentWidget()
        if widget is self.observations_page:
            return "observations"
        if widget is self.persona_page:
            return "persona"
        return "welcome"

    # -- person's actions ---------------------------------------------------------------------

    def on_open_database(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Open an Alisio memory database",
            str(Path.home()),
            "SQLite databases (*.sqlite *.db *.sqlite3);;All files (*)",
        )
        if path:
            self.open_database(Path(path))

    def on_open_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, "Open an agent's memory folder", str(Path.home())
        )
        if path:
            self.add_persona_folder(Path(path))

    def added_folders(self) -> list[Path]:
        """Persona folders the person opened by hand: found again at every start."""
        value = settings_module.app_settings().value("persona/added", [])
        if isinstance(value, str):
            value = [value]
        return [Path(v) for v in value or []]

    def add_persona_folder(self, path: Path) -> bool:
        """Open a folder the person picked or dropped, and remember it for the next start."""
        if not self.open_persona_folder(path):
            return False
        path = Path(path).expanduser().absolute()
        added = self.added_folders()
        if path not in added:
            settings = settings_module.app_settings()
            settings.setValue("persona/added", [str(p) for p in [*added, path]])
            settings_module.sync_private(settings)
        return True

    def handle_arguments(self, args: list[str]) -> None:
        """Arguments handed over by a second start: open what they name and come forward."""
        from memory_desk.cli import parse_args

        try:
            options = parse_args(args)
        except SystemExit:
            return
        if options.demo:
            self.open_demo()
        for folder in options.persona:
            self.open_persona_folder(folder)
        if options.db is not None:
            self.open_database(options.db)
        self.setWindowState(self.windowState() & ~Qt.WindowState.WindowMinimized)
        self.show()
        self.raise_()
        self.activateWindow()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt override)
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt override)
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_dropped(Path(url.toLocalFile()))
        event.acceptProposedAction()

    def open_dropped(self, path: Path) -> bool:
        """A folder opens as persona memory; a file as an Alisio database."""
        if path.is_dir():
            return self.add_persona_folder(path)
        return self.open_database(path)

    def show_shortcuts(self) -> ShortcutsDialog:
        """Help ▸ Keyboard shortcuts: read from the window's actions each time it opens."""
        dialog = self.findChild(ShortcutsDialog, "shortcutsDialog")
        if dialog is None:
            dialog = ShortcutsDialog(self)
        dialog.fill_from(self)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def _on_about(self) -> None:
        QMessageBox.about(
            self,
            "About Memory Desk",
            f"<b>Memory Desk {__version__}</b><p>Review, prune and hand-edit the memories "
            "your AI agents keep.</p>",
        )

    # -- status -------------------------------------------------------------------------------

    def _on_observations_status(self, text: str) -> None:
        if self.pages.currentWidget() is self.observations_page:
            self.status_label.setText(text)
        self._update_current_item(totals=self.observations_page.totals)

    def _on_persona_status(self, text: str) -> None:
        if self.pages.currentWidget() is self.persona_page:
            self.status_label.setText(text)
        self._update_current_item(entries=self.persona_page.entries())

    def _update_current_item(self, **counted) -> None:
        """The page in front just counted its source: show those counts, query nothing."""
        item = self.sources.currentItem()
        source = item.data(0, SOURCE_ROLE) if item is not None else None
        if source is None:
            return
        page_store = (
            self.observations_page.store if source.kind == "db" else self.persona_page.folder()
        )
        if page_store is source.store:
            self._update_item(item, source, **counted)

    # -- state --------------------------------------------------------------------------------

    def restore_ui_state(self) -> None:
        """Geometry, splitters, table columns and sort, last page and source."""
        state = settings_module.ui_state()
        geometry = state.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        for splitter in self.findChildren(QSplitter):
            value = state.value(f"splitters/{splitter.objectName()}")
            if splitter.objectName() and isinstance(value, QByteArray):
                splitter.restoreState(value)
        for view in self.findChildren(QAbstractItemView):
            header = getattr(view, "horizontalHeader", None) or getattr(view, "header", None)
            value = state.value(f"headers/{view.objectName()}")
            if header is not None and view.objectName() and isinstance(value, QByteArray):
                header().restoreState(value)
        last = state.value("window/source")
        if last:
            kind, _, path = str(last).partition(":")
            source = self._find_source(kind, Path(path))
            if source is not None:
                self._select(source)

    def save_ui_state(self) -> None:
        state = settings_module.ui_state()
        state.setValue("window/geometry", self.saveGeometry())
        for splitter in self.findChildren(QSplitter):
            if splitter.objectName():
                state.setValue(f"splitters/{splitter.objectName()}", splitter.saveState())
        for view in self.findChildren(QAbstractItemView):
            header = getattr(view, "horizontalHeader", None) or getattr(view, "header", None)
            if header is not None and view.objectName():
                state.setValue(f"headers/{view.objectName()}", header().saveState())
        source = self.current_source()
        if source is not None:
            state.setValue("window/source", f"{source.kind}:{source.path}")
        settings_module.sync_private(state)

    # -- closing ------------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if not self.persona_page.maybe_close():
            event.ignore()
            return
        self.save_ui_state()
        self.shutdown()
        event.accept()

    def shutdown(self) -> None:
        """Stop every timer and thread; close stores; remove the demo's temporary folder."""
        if self._shut_down:
            return
        self._shut_down = True
        self._sources_timer.stop()
        for source in self._sources:
            if source.watcher is not None:
                source.watcher.stop()
        self.folder_watcher.stop()
        self.observations_page.shutdown()
        self.persona_page.shutdown()
        for source in self._sources:
            close = getattr(source.store, "close", None)
            if close is not None:
                close()
        if self._demo_dir is not None:
            self._demo_dir.cleanup()
            self._demo_dir = None


def file_id(path: Path) -> tuple[int, int] | None:
    """Which file is at ``path`` (device, inode); None when there is none."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _what_happened(path: Path, now: tuple[int, int] | None, *, had_file: bool) -> str:
    """The switch's reason when no watcher said it (a count or a presence check saw it)."""
    if not had_file:
        return f"A database appeared at {path}"
    if now is None:
        return f"{path} is no longer there: it was deleted, or moved elsewhere"
    return f"{path} was replaced by another file (another program moved or copied one over it)"


def alisio_info(alisio: AlisioLocation) -> dict:
    """What the sidebar's info panel tells about an Alisio database found by locate."""
    return {
        "enabled": alisio.enabled,
        "config": str(alisio.config_path) if alisio.config_path else "",
        "settings": dict(alisio.settings),
        "configured": sorted(alisio.configured),
        "problems": list(alisio.problems),
    }


def folder_label(path: Path) -> str:
    """``miyagi`` for ~/.miyagi/memory, ``miyagi (work)`` for ~/.miyagi/memory/work: the same
    labels as the folders Memory Desk finds by itself."""
    from memory_desk.locate import describe_folder

    return describe_folder(Path(path).expanduser().absolute()).label
