"""The main window: it composes the sidebar of memory sources, one page per kind of store in a
page stack, the menus gathered from the pages and the status bar.

What each page shows for a source is :mod:`memory_desk.ui.source_switch`'s; one page showing
another's row goes through the :class:`~memory_desk.ui.pages.Router`; the start is
:mod:`memory_desk.ui.startup`'s; the menus are :mod:`memory_desk.ui.window_menus`'.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QShowEvent, QUndoStack
from PySide6.QtWidgets import QLabel, QMainWindow, QSplitter, QVBoxLayout, QWidget

from memory_desk.core.kinds import SourceKind
from memory_desk.ui import i18n, window_menus
from memory_desk.ui.i18n import translate
from memory_desk.ui.live import MODE_POLLING, FolderWatcher
from memory_desk.ui.live.indicator import LiveIndicator
from memory_desk.ui.observations.page import ObservationsPage
from memory_desk.ui.page_stack import DB_PAGE_NAMES, PageStack
from memory_desk.ui.page_status import PageStatus
from memory_desk.ui.pages import Router, fill_menu
from memory_desk.ui.source_switch import SourceSwitch
from memory_desk.ui.sources.registry import (
    Source,
    SourceRegistry,
    added_folders,
    alisio_info,
    file_id,
    folder_label,
    remember_added_folder,
)
from memory_desk.ui.sources.sidebar import SourceSidebar
from memory_desk.ui.startup import (
    DemoOpener,
    StartUp,
    handle_arguments,
    restore_window_state,
    save_window_state,
)
from memory_desk.ui.undo_focus import UndoKeyRouter
from memory_desk.ui.welcome import WelcomePage
from memory_desk.ui.widgets.message_bar import MessageBar

if TYPE_CHECKING:
    from PySide6.QtGui import QDragEnterEvent, QDropEvent

    from memory_desk.demo import Demo
    from memory_desk.ui.chats.page import ChatsPage
    from memory_desk.ui.overview.page import OverviewPage
    from memory_desk.ui.persona.page import PersonaPage
    from memory_desk.ui.pruning.page import PruningPage
    from memory_desk.ui.review.desk import ReviewDesk
    from memory_desk.ui.review.page import ReviewPage
    from memory_desk.ui.review.runner import JournalRunner
    from memory_desk.ui.shortcuts import ShortcutsDialog

__all__ = ["MainWindow", "Source", "alisio_info", "file_id", "folder_label"]

# The pages built only when first needed: most people start on the observations or the
# persona page, and building (and importing) the others slowed the start.
LAZY_PAGE_NAMES = ("chats", "overview", "pruning")


class MainWindow(QMainWindow):
    """Composes the pages, the menus and the sidebar; owns the undo group and the message bar.

    Pages report through signals (``status_changed``, ``error_raised``, ``info_raised``) and
    the sources through the registry's; the window never reaches into a page's widgets.

    The Chats, Overview and Pruning pages are built the first time something needs them
    (shown, or asked to show something); the page stack gives them what they missed.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        # "[*]" shows Qt's unsaved-edits mark while a page holds edits (see _show_unsaved)
        self._title_base = translate("MainWindow", "Memory Desk")
        self._waiting_changes = 0
        self.setWindowTitle(self._title_base + "[*]")
        self.resize(1280, 800)
        self.setAcceptDrops(True)
        self._shut_down = False
        self.startup = StartUp(self)
        self._demo_opener = DemoOpener(self)
        self.undo_group, self.undo_action, self.redo_action = window_menus.build_undo_actions(self)
        self._undo_keys = UndoKeyRouter(self)  # Ctrl+Z from a field with nothing to undo

        central = QWidget(self)
        central.setObjectName("centralArea")
        # Floats over the top of the pages (MessageBar.cover): a message never moves the page.
        self.message_bar = MessageBar(central)
        self.registry = SourceRegistry(self)
        self.registry.hold_watching()  # until the first rows are painted
        self.sidebar = SourceSidebar(self)
        self.sources = self.sidebar.tree
        self.source_info = self.sidebar.info
        self.pages = PageStack(self)
        self.router = Router(self.show_page, self._page_named, self)
        self.welcome_page = WelcomePage(self)
        self.pages.addWidget(self.welcome_page)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(self.pages)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([230, 1050])
        layout = QVBoxLayout(central)
        layout.setContentsMargins(6, 6, 6, 0)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.message_bar.cover(self.pages)

        self.status_label = QLabel(self)
        self.status_label.setObjectName("statusCounts")
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.statusBar().addPermanentWidget(self.status_label)
        self.live_indicator = LiveIndicator(self)
        self.statusBar().addPermanentWidget(self.live_indicator)
        # Each page's status text and messages are its own (ui/page_status.py).
        self.page_status = PageStatus(self.pages, self.status_label, self.message_bar, self)
        self._page_menus = window_menus.build_menus(self)

        self.observations_page = ObservationsPage(self._new_undo_stack("observations"), self)
        # The other pages are built after the first paint (persona_page, review) or on first
        # need (chats_page, overview_page, pruning_page).
        self._review: ReviewDesk | None = None
        self._place("observations", self.observations_page)
        self.source_switch = SourceSwitch(
            self.registry, self.sidebar, self.pages, self._page_named, self
        )
        self._connect_signals()
        self._show_live_state()
        self.pages.setCurrentWidget(self.welcome_page)
        self._on_page_changed(self.pages.currentIndex())
        self.startup.watch_first_paint()

    def _connect_signals(self) -> None:
        """Every wire between the sources, the sidebar, the pages and the window, in one place."""
        self.welcome_page.demo_requested.connect(self.open_demo)
        self.welcome_page.open_database_requested.connect(self.on_open_database)
        self.welcome_page.open_folder_requested.connect(self.on_open_folder)
        self.pages.currentChanged.connect(self._on_page_changed)
        self.source_switch.follow_database_counts(self.observations_page)
        self.registry.added.connect(self._show_live_state)
        self.registry.presence_checked.connect(self.sidebar.mark_presence)
        self.registry.live_changed.connect(self._show_live_state)
        self.registry.error.connect(self.message_bar.show_error)
        self.registry.info.connect(self.message_bar.show_info)
        self.source_switch.connect_signals()
        self.live_indicator.toggled.connect(self.set_live)

    def _place(self, name: str, page: QWidget) -> None:
        """Wire a page just built (its status, messages, requests of other pages, own writes,
        unsaved edits and menus) and put it in the stack."""
        self.page_status.connect_page(page)
        self.router.follow(page)
        written = getattr(page, "file_written", None)  # a page that writes files says so
        if written is not None:
            written.connect(self.registry.expect_own_write)
        unsaved = getattr(page, "unsaved_changed", None)  # a page that edits says so
        if unsaved is not None:
            unsaved.connect(self._show_unsaved)
        menu = self._page_menus.get(name)
        if menu is not None:
            fill_menu(menu, page.menu_actions())
        self.pages.place(name, page)

    # -- pages built after the first paint or on first need ---------------------------------

    @property
    def review(self) -> ReviewDesk:
        """The journal and the review page, owned by one ReviewDesk (built after the first
        paint, or here on first use); the window only shows its count in the title."""
        if self._review is None:
            from memory_desk.ui.review.desk import ReviewDesk

            persona_page = self.persona_page  # the desk marks its entries
            desk = ReviewDesk(
                self.registry,
                self.sidebar,
                self.observations_page,
                persona_page,
                self._new_undo_stack("review"),
                self.router.show_page,
                self.router.show_observation,
                self,
            )
            self._review = desk
            desk.pending_changed.connect(self._show_waiting_changes)
            desk.error_raised.connect(self.message_bar.show_error)
            desk.info_raised.connect(self.message_bar.show_info)
            self._place("review", desk.page)
            desk.connect_window()  # after the window's slots: its own run after them
            if self.observations_page.store is not None and not self.observations_page.is_busy():
                desk.start()  # the first rows came before the desk: it missed ``refreshed``
        return self._review

    @property
    def review_page(self) -> ReviewPage:
        return self.review.page

    @property
    def journal_runner(self) -> JournalRunner:
        return self.review.runner

    @property
    def persona_page(self) -> PersonaPage:
        """The persona page, built (and its modules imported) after the first paint or on
        first use; its entry actions fill the Entry menu then."""
        if self.pages.built("persona") is None:
            from memory_desk.ui.persona.page import PersonaPage

            page = PersonaPage(self._new_undo_stack("persona"), self)
            self.source_switch.follow_folder_counts(page)
            self._place("persona", page)
        return self.pages.built("persona")

    @property
    def chats_page(self) -> ChatsPage:
        if self.pages.built("chats") is None:
            from memory_desk.ui.chats.page import ChatsPage

            self._place("chats", ChatsPage(self))
        return self.pages.built("chats")

    @property
    def overview_page(self) -> OverviewPage:
        if self.pages.built("overview") is None:
            from memory_desk.ui.overview.page import OverviewPage

            self._place("overview", OverviewPage(self))
            self.source_switch.show_persona_folders()
        return self.pages.built("overview")

    @property
    def pruning_page(self) -> PruningPage:
        if self.pages.built("pruning") is None:
            from memory_desk.ui.pruning.page import PruningPage

            self._place("pruning", PruningPage(self._new_undo_stack("pruning"), self))
        return self.pages.built("pruning")

    @property
    def db_pages(self) -> tuple[QWidget, ...]:
        """The pages of the current database built so far (the others read when built)."""
        return self.pages.built_pages(DB_PAGE_NAMES)

    @property
    def content_pages(self) -> tuple[QWidget, ...]:
        """Every page that shows a source, among those built so far."""
        return self.pages.built_pages()

    def page_if_built(self, name: str) -> QWidget | None:
        """The page called ``name`` if it was built (None: not yet, or no such page)."""
        return self.pages.built(name)

    def _page_named(self, name: str) -> QWidget | None:
        """The page called ``name``, built now if it was not yet (None: no such page)."""
        if name in (*LAZY_PAGE_NAMES, "persona", "review"):
            return getattr(self, f"{name}_page")
        return self.pages.built(name)

    def show_page(self, name: str) -> None:
        """Show the page named ``observations``, ``chats``, ``overview``, ``persona``,
        ``pruning``, ``review`` or ``welcome``; a page of a kind of store the sidebar does not show
        selects the first source of that kind."""
        page = self._page_named(name)
        if page is None:
            self.pages.setCurrentWidget(self.welcome_page)
            return
        self.source_switch.select_for_page(name, page)
        self.pages.setCurrentWidget(page)

    def current_page_name(self) -> str:
        return self.pages.current_name()

    def show_chat(self, session_id: str) -> None:
        self.router.show_chat(session_id)

    def show_timeline(self, observation_id: int) -> None:
        self.router.show_timeline(observation_id)

    def show_observation(self, observation_id: int) -> None:
        self.router.show_observation(observation_id)

    def show_day(self, day) -> None:  # noqa: ANN001 - a datetime.date
        self.router.show_day(day)

    # -- the window's own parts -----------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self.startup.on_window_shown(self.pages.currentWidget())

    def is_shut_down(self) -> bool:
        return self._shut_down

    def _show_waiting_changes(self, count: int) -> None:
        self._waiting_changes = count
        self._show_title()

    def _show_title(self) -> None:
        """``Memory Desk — 3 changes to review``; the ``[*]`` keeps the unsaved mark."""
        title = self._title_base
        if self._waiting_changes:
            title = translate("MainWindow", "{title} — {changes}").format(
                title=title,
                changes=i18n.plural(
                    self._waiting_changes,
                    translate("MainWindow", "{n} change to review"),
                    translate("MainWindow", "{n} changes to review"),
                ),
            )
        self.setWindowTitle(title + "[*]")

    def set_theme(self, name: str) -> None:
        """Use this theme now and from now on (``system``, ``light`` or ``dark``)."""
        window_menus.set_theme(name)

    def set_language(self, name: str) -> None:
        """Keep this language (``system``, ``en``, ``es``) for the next start, and say so."""
        text = window_menus.set_language(name)
        if text is not None:
            self.message_bar.show_info(text)

    def _new_undo_stack(self, name: str) -> QUndoStack:
        stack = QUndoStack(self)
        stack.setObjectName(f"{name}UndoStack")
        self.undo_group.addStack(stack)
        return stack

    @property
    def undo_stack(self) -> QUndoStack | None:
        """The current page's undo history (None on the welcome page)."""
        return self.undo_group.activeStack()

    @property
    def folder_watcher(self) -> FolderWatcher:
        """The registry's folder watcher (its mode says whether events or polling)."""
        return self.registry.folder_watcher

    @property
    def _sources(self) -> list[Source]:
        return self.registry.sources()

    def current_source(self) -> Source | None:
        return self.sidebar.current()

    # -- opening sources ----------------------------------------------------------------------

    def open_database(self, path: Path, *, found: bool = False, info: dict | None = None) -> bool:
        """Open an Alisio memory database and show it; False (with a message) if it cannot be."""
        known = self.registry.find(SourceKind.DB, path) is not None
        source = self.registry.open_database(path, found=found, info=info)
        if source is None:
            return False
        if known or not found:
            self.sidebar.select(source)
        return True

    def open_persona_folder(
        self, path: Path, *, label: str | None = None, found: bool = False
    ) -> bool:
        """Open an agent's memory folder and show it; False (with a message) if it cannot be."""
        source = self.registry.open_persona_folder(path, label=label, found=found)
        if source is None:
            return False
        if not found:
            self.sidebar.select(source)
        return True

    def open_demo(self) -> bool:
        """Build the demo in a temporary folder (removed on close) and open it."""
        opened = self._demo_opener.open()
        if self._demo_opener.demo is not None:
            self._title_base = translate("MainWindow", "Memory Desk — demo")
            self._show_title()
        return opened

    @property
    def demo(self) -> Demo | None:
        """The demo opened (None: none)."""
        return self._demo_opener.demo

    def open_found_sources(self) -> bool:
        """Open what the agents keep on this machine; False when nothing was found."""
        self.refresh_sources()
        self.registry.start_checking()
        return bool(self.registry.sources())

    def refresh_sources(self, *, recount: bool = True) -> None:
        """Add stores that appeared, mark those that vanished, and (``recount``) update every
        count (see SourceRegistry.refresh)."""
        if self.registry.refresh(extra_folders=self.added_folders(), recount=recount) and recount:
            self.update_counts()

    def update_counts(self) -> None:
        self.source_switch.update_counts()

    def check_database(self) -> None:
        """Tools ▸ Check database: check the shown database again (quick_check and the search
        index), in the background; the page's banner and write actions follow the answer."""
        source = self.current_source()
        if source is None or source.kind != SourceKind.DB:
            self.message_bar.show_info(
                translate("MainWindow", "Open an Alisio database to check it")
            )
            return
        self.registry.reopen_if_replaced(source)
        self.show_page("observations")
        self.observations_page.check_database()
        self.message_bar.show_info(
            translate("MainWindow", "Checking {path} …").format(path=source.path)
        )

    # -- live reload ---------------------------------------------------------------------------

    def is_live(self) -> bool:
        return self.registry.is_live()

    def set_live(self, live: bool) -> None:
        """Pause or resume live reload; resuming catches up with what changed meanwhile."""
        if self.live_indicator.isChecked() != live:
            self.live_indicator.setChecked(live)  # comes back here through toggled
            return
        self.registry.set_live(live)
        if live:
            self.source_switch.catch_up()
        self._show_live_state()

    def _show_live_state(self, *_args) -> None:
        # Nothing open (the welcome page): there is nothing to follow, so say nothing.
        self.live_indicator.setVisible(bool(self.registry.sources()))
        self.live_indicator.show_state(
            live=self.is_live(),
            polling=self.folder_watcher.mode == MODE_POLLING,
            reason=self.folder_watcher.fallback_reason,
            last_change=self.registry.last_change,
        )

    # -- person's actions ---------------------------------------------------------------------

    def on_open_database(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # dialogs: imported when opened

        path, _ = QFileDialog.getOpenFileName(
            self,
            translate("MainWindow", "Open an Alisio memory database"),
            str(Path.home()),
            translate("MainWindow", "SQLite databases (*.sqlite *.db *.sqlite3);;All files (*)"),
        )
        if path:
            self.open_database(Path(path))

    def on_open_folder(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path = QFileDialog.getExistingDirectory(
            self, translate("MainWindow", "Open an agent's memory folder"), str(Path.home())
        )
        if path:
            self.add_persona_folder(Path(path))

    def added_folders(self) -> list[Path]:
        """Persona folders the person opened by hand: found again at every start."""
        return added_folders()

    def add_persona_folder(self, path: Path) -> bool:
        """Open a folder the person picked or dropped, and remember it for the next start."""
        if not self.open_persona_folder(path):
            return False
        remember_added_folder(path)
        return True

    def handle_arguments(self, args: list[str]) -> None:
        """Arguments handed over by a second start: open what they name and come forward."""
        handle_arguments(self, args)

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
        from memory_desk.ui.shortcuts import ShortcutsDialog  # only when asked for

        self.persona_page  # noqa: B018 - built now if not yet: its entry actions are listed too
        dialog = self.findChild(ShortcutsDialog, "shortcutsDialog")
        if dialog is None:
            dialog = ShortcutsDialog(self)
        dialog.fill_from(self)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    # -- the page in front ----------------------------------------------------------------------

    def _on_page_changed(self, _index: int) -> None:
        """Another page is in front: only its actions work, Edit ▸ Undo acts on its history,
        and the status text and message shown are its own (a page's message waits for it
        while another page is current)."""
        page = self.pages.currentWidget()
        for each in self.content_pages:
            each.set_current(each is page)
        holds = getattr(page, "holds_undo", None)  # a page whose form takes Ctrl+Z for now
        stack = None if holds is not None and holds() else getattr(page, "undo_stack", None)
        self.undo_group.setActiveStack(stack)
        self.page_status.on_page_changed(page)

    def _show_unsaved(self, *_args) -> None:
        """The title's mark (``[*]``): some page holds edits not yet saved. Any page, not
        only the one in front: a draft left on a hidden page is still unsaved, and closing
        the window asks about it."""
        self.setWindowModified(any(_has_unsaved_edits(page) for page in self.content_pages))

    # -- state and closing --------------------------------------------------------------------

    def restore_ui_state(self) -> None:
        """Geometry, splitters, table columns and sort, last page and source."""
        restore_window_state(self)
        self.pages.state_restored = True  # a page built later restores its own part

    def save_ui_state(self) -> None:
        save_window_state(self)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if not all(page.may_close() for page in self.content_pages):
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
        self.registry.stop()
        self.sidebar.stop()
        for page in self.content_pages:
            page.shutdown()
        if self._review is not None:
            self._review.shutdown()
        self.registry.close_stores()
        self._demo_opener.cleanup()


def _has_unsaved_edits(page: QWidget) -> bool:
    has_unsaved = getattr(page, "has_unsaved_edits", None)
    return bool(has_unsaved()) if has_unsaved is not None else False
