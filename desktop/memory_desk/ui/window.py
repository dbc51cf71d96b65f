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
from PySide6.QtWidgets import QMainWindow, QSplitter, QVBoxLayout, QWidget

from memory_desk.ui import window_menus
from memory_desk.ui.live import FolderWatcher
from memory_desk.ui.live.indicator import LiveIndicator
from memory_desk.ui.observations.page import ObservationsPage
from memory_desk.ui.page_list import PageList, column
from memory_desk.ui.page_stack import PAGE_NAMES, PageStack
from memory_desk.ui.page_status import PageStatus
from memory_desk.ui.pages import Router, fill_menu
from memory_desk.ui.source_switch import SourceSwitch
from memory_desk.ui.sources.opener import SourceOpener
from memory_desk.ui.sources.registry import (
    Source,
    SourceRegistry,
    added_folders,
    alisio_info,
    file_id,
    folder_label,
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
from memory_desk.ui.window_title import WindowTitle

if TYPE_CHECKING:
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


class MainWindow(QMainWindow):
    """Composes the pages, the menus and the sidebar; owns the undo group and the message bar.

    Pages report through signals and the sources through the registry's; the window never
    reaches into a page's widgets. The pages other than the observations table are built on
    first need; the page stack gives them what they missed.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self._title = WindowTitle(self)  # its "[*]": a page holds edits (see _show_unsaved)
        self.resize(1280, 800)
        self._shut_down = False
        self.startup = StartUp(self)
        self._demo_opener = DemoOpener(self)
        self.undo_group, self.undo_action, self.redo_action = window_menus.build_undo_actions(self)
        self._undo_keys = UndoKeyRouter(self)  # Ctrl+Z from a field with nothing to undo

        central = QWidget(self)
        central.setObjectName("centralArea")
        self.message_bar = MessageBar(central)  # a row of its own under the pages
        self.registry = SourceRegistry(self)
        self.registry.hold_watching()  # until the first rows are painted
        # The menus, then the page list (their View actions): first in the Tab order.
        self._page_menus = window_menus.build_menus(self)
        self.page_list = PageList(window_menus.page_actions(self._page_menus["view"]), self)
        self.sidebar = SourceSidebar(self)
        self.opener = SourceOpener(self.registry, self.sidebar, self)
        self.pages = PageStack(self)
        self.router = Router(self.show_page, self._page_named, self)
        self.welcome_page = WelcomePage(self)
        self.pages.addWidget(self.welcome_page)
        # Made before the status bar's parts: the Tab order follows the order of making.
        self.observations_page = ObservationsPage(self._new_undo_stack("observations"), self)
        # The other pages are built after the first paint (persona_page, review) or on first
        # need (chats_page, overview_page, pruning_page).
        self._review: ReviewDesk | None = None

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        left = column(self, "sourcesColumn", above=(self.page_list,), grows=self.sidebar)
        self.splitter.addWidget(left)
        right = column(self, "pagesColumn", grows=self.pages, below=(self.message_bar,))
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([230, 1050])
        layout = QVBoxLayout(central)
        layout.setContentsMargins(6, 6, 6, 0)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

        # Each page's status text and messages are its own (ui/page_status.py).
        self.page_status = PageStatus(self.pages, self.statusBar(), self.message_bar, self)
        self.status_label = self.page_status.label
        self.live_indicator = LiveIndicator(self)
        self.statusBar().addPermanentWidget(self.live_indicator)

        self._place("observations", self.observations_page)
        self.source_switch = SourceSwitch(
            self.registry, self.sidebar, self.pages, self._page_named, self
        )
        self._connect_signals()
        self.pages.setCurrentWidget(self.welcome_page)
        self._on_page_changed(self.pages.currentIndex())
        self.startup.watch_first_paint()

    def _connect_signals(self) -> None:
        """Every wire between the sources, the sidebar, the pages and the window, in one place."""
        self.welcome_page.demo_requested.connect(self.open_demo)
        self.welcome_page.open_database_requested.connect(self.opener.ask_for_database)
        self.welcome_page.open_folder_requested.connect(self.opener.ask_for_folder)
        self.pages.currentChanged.connect(self._on_page_changed)
        self.source_switch.follow_database_counts(self.observations_page)
        self.live_indicator.follow(self.registry)
        self.registry.presence_checked.connect(self.sidebar.mark_presence)
        self.registry.error.connect(self.message_bar.show_error)
        self.registry.info.connect(self.message_bar.show_info)
        self.source_switch.connect_signals()
        self.live_indicator.toggled.connect(self.set_live)

    def _place(self, name: str, page: QWidget) -> None:
        """Wire a page just built to the window and put it in the stack."""
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
        """The journal and the review page (built after the first paint, or on first use)."""
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
            desk.pending_changed.connect(self._title.show_waiting_changes)
            desk.pending_changed.connect(lambda n: self.page_list.set_count("review", n))
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
        """The persona page (built after the first paint, or on first use)."""
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
        return self.pages.built("overview")

    @property
    def pruning_page(self) -> PruningPage:
        if self.pages.built("pruning") is None:
            from memory_desk.ui.pruning.page import PruningPage

            self._place("pruning", PruningPage(self._new_undo_stack("pruning"), self))
        return self.pages.built("pruning")

    @property
    def content_pages(self) -> tuple[QWidget, ...]:
        """Every page that shows a source, among those built so far."""
        return self.pages.built_pages()

    def _page_named(self, name: str) -> QWidget | None:
        """The page called ``name``, built now if it was not yet (None: no such page)."""
        return getattr(self, f"{name}_page") if name in PAGE_NAMES else None

    def show_page(self, name: str) -> None:
        """Show the page named ``name`` (``welcome`` or one of PAGE_NAMES); a page of a kind
        of store the sidebar does not show selects the first source of that kind."""
        page = self._page_named(name)
        if page is None:
            self.pages.setCurrentWidget(self.welcome_page)
            return
        self.source_switch.select_for_page(name, page)
        self.pages.setCurrentWidget(page)
        page.setFocus()  # (asked for by name: its keys work at once, Ctrl+F included)

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
        if not event.spontaneous():  # the first show: the page's keys work at once
            page = self.pages.currentWidget()
            getattr(page, "take_first_focus", page.setFocus)()

    def is_shut_down(self) -> bool:
        return self._shut_down

    def set_theme(self, name: str) -> None:
        """Use this theme now and from now on (``system``, ``light`` or ``dark``)."""
        window_menus.set_theme(name)

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

    def current_source(self) -> Source | None:
        return self.sidebar.current()

    # -- opening sources ----------------------------------------------------------------------

    def open_database(self, path: Path, *, found: bool = False, info: dict | None = None) -> bool:
        """Open an Alisio memory database and show it; False (with a message) if it cannot be."""
        return self.opener.open_database(path, found=found, info=info)

    def open_persona_folder(
        self, path: Path, *, label: str | None = None, found: bool = False
    ) -> bool:
        """Open an agent's memory folder and show it; False (with a message) if it cannot be."""
        return self.opener.open_persona_folder(path, label=label, found=found)

    def open_demo(self) -> bool:
        """Build the demo in a temporary folder (removed on close) and open it."""
        opened = self._demo_opener.open()
        if self._demo_opener.demo is not None:
            self._title.show_demo()
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
            self.source_switch.update_counts()

    def check_database(self) -> None:
        """Tools ▸ Check database: check the shown database again, in the background."""
        window_menus.check_database(self)

    # -- live reload ---------------------------------------------------------------------------

    def set_live(self, live: bool) -> None:
        """Pause or resume live reload; resuming catches up with what changed meanwhile."""
        if self.live_indicator.isChecked() != live:
            self.live_indicator.setChecked(live)  # comes back here through toggled
            return
        self.registry.set_live(live)
        if live:
            self.source_switch.catch_up()
        self.live_indicator.show_registry()

    # -- person's actions ---------------------------------------------------------------------

    def on_open_database(self) -> None:
        self.opener.ask_for_database()

    def on_open_folder(self) -> None:
        self.opener.ask_for_folder()

    def added_folders(self) -> list[Path]:
        """Persona folders the person opened by hand: found again at every start."""
        return added_folders()

    def add_persona_folder(self, path: Path) -> bool:
        """Open a folder the person picked or dropped, and remember it for the next start."""
        return self.opener.add_persona_folder(path)

    def handle_arguments(self, args: list[str]) -> None:
        """Arguments handed over by a second start: open what they name and come forward."""
        handle_arguments(self, args)

    def open_dropped(self, path: Path) -> bool:
        """A folder opens as persona memory; a file as an Alisio database."""
        return self.opener.open_dropped(path)

    def show_shortcuts(self) -> ShortcutsDialog:
        """Help ▸ Keyboard shortcuts, with the persona page's entry actions (built now)."""
        self.persona_page  # noqa: B018 - built now if not yet
        return window_menus.show_shortcuts(self)

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
        self.page_list.show_current(self.current_page_name())

    def _show_unsaved(self, *_args) -> None:
        """The title's mark (``[*]``): some page holds edits not yet saved. Any page, not
        only the one in front: a draft left on a hidden page is still unsaved, and closing
        the window asks about it."""
        pages = self.content_pages
        self.setWindowModified(any(getattr(p, "has_unsaved_edits", bool)() for p in pages))

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
