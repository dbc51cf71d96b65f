"""What each page shows for the source the person picks, and what follows when a source
changes under it.

The sidebar says which source is current; the registry says when one is added, written by an
agent, replaced by another file, or caught up with after live reload resumes. This module
turns those into what each page shows: the database pages (observations, chats, overview)
the current database and its plugin settings, the persona page the current folder, the
pruning assistant whichever source is current, the overview every persona folder; and the
sidebar's counts from the page that just counted its source. Pages are told through their
own public calls; a page built later is told what it missed when the stack places it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from memory_desk.core.kinds import SourceKind
from memory_desk.ui.i18n import translate
from memory_desk.ui.page_stack import DB_PAGE_NAMES, PageStack

if TYPE_CHECKING:
    from memory_desk.core.observations import ObservationStore
    from memory_desk.core.persona import PersonaFolder
    from memory_desk.ui.sources.registry import Source, SourceRegistry
    from memory_desk.ui.sources.sidebar import SourceSidebar

# The kind of source each page shows (the pages not listed show any, or none).
PAGE_SOURCE_KINDS = {"persona": SourceKind.PERSONA, **dict.fromkeys(DB_PAGE_NAMES, SourceKind.DB)}


class SourceSwitch(QObject):
    """Tells the pages what to show for the current source (module docstring).

    ``page(name)`` returns a page, built on first need; the stack says which are built.
    ``db_page`` is the database page the person last had in front: picking a database brings
    it back.
    """

    def __init__(
        self,
        registry: SourceRegistry,
        sidebar: SourceSidebar,
        pages: PageStack,
        page: Callable[[str], QWidget | None],
        parent: QObject,
    ) -> None:
        super().__init__(parent)
        self._registry = registry
        self._sidebar = sidebar
        self._pages = pages
        self._page = page
        self.db_page: QWidget | None = pages.built("observations")
        # What the pages were last told, for a page built later.
        self._db_store: ObservationStore | None = None
        self._plugin_settings: dict | None = None
        self._pruning_source: ObservationStore | PersonaFolder | None = None
        sidebar.set_listing_probe(self._persona_lists)

    def connect_signals(self) -> None:
        """Follow the registry, the sidebar and the page stack."""
        self._registry.added.connect(self.on_source_added)
        self._registry.changed.connect(self.on_source_written)
        self._registry.replacing.connect(self.on_source_replacing)
        self._registry.replaced.connect(self.on_source_replaced)
        self._sidebar.current_changed.connect(self.on_source_changed)
        self._pages.currentChanged.connect(self._on_page_changed)
        self._pages.placed.connect(self._on_page_placed)

    def follow_database_counts(self, page: QWidget) -> None:
        """The observations page counts its database with each status: the sidebar shows
        those totals instead of querying again."""
        page.status_changed.connect(self._on_database_counted)

    def follow_folder_counts(self, page: QWidget) -> None:
        """The persona page counts its folder with each status (see above)."""
        page.status_changed.connect(self._on_folder_counted)

    # -- the person picks a source -----------------------------------------------------------

    def on_source_changed(self, source: Source, previous: Source | None) -> None:
        leaving_dirty_entry = (
            source.kind == SourceKind.PERSONA
            and self.persona_folder() is not source.store
            and not self._page("persona").maybe_close()
        )
        if leaving_dirty_entry:
            self._sidebar.select(previous, quietly=True)
            return
        pruning = self._pages.current_name() == "pruning"
        if source.kind == SourceKind.DB:
            self.show_database(source.store)
            self.show_plugin_settings(source.info or None)
            shown = self.db_page
        else:
            self._show_folder(source)
            shown = self._page("persona")
        self.show_pruning_source(source.store)
        # The assistant stays in front: it prunes whichever source the person picks.
        self._pages.setCurrentWidget(self._page("pruning") if pruning else shown)
        self._sidebar.show_info(source)

    def show_database(self, store: ObservationStore | None) -> None:
        """Show this database (None: none) on every database page."""
        self._db_store = store
        for page in self._pages.built_pages(DB_PAGE_NAMES):
            page.set_store(store)

    def show_plugin_settings(self, settings: dict | None) -> None:
        """The Alisio plugin's settings of the database shown (the Chats page reads them)."""
        self._plugin_settings = settings
        chats = self._pages.built("chats")
        if chats is not None:
            chats.set_plugin_settings(settings)

    def show_pruning_source(self, source: ObservationStore | PersonaFolder | None) -> None:
        """The store the pruning assistant prunes (None: none)."""
        self._pruning_source = source
        pruning = self._pages.built("pruning")
        if pruning is not None:
            pruning.set_source(source)

    def _on_page_placed(self, name: str, page: QWidget) -> None:
        """A page just built is told what it missed."""
        if name in DB_PAGE_NAMES and self._db_store is not None:
            page.set_store(self._db_store)
        if name == "chats" and self._plugin_settings is not None:
            page.set_plugin_settings(self._plugin_settings)
        if name == "pruning" and self._pruning_source is not None:
            page.set_source(self._pruning_source)
        if name == "overview":
            self.show_persona_folders()

    def _show_folder(self, source: Source) -> None:
        """Put the folder on the persona page; one the page already holds is read again when
        the agents wrote to it while another source was shown (its events only updated the
        sidebar's count then)."""
        persona = self._page("persona")
        if persona.folder() is source.store:
            if source.stale:
                persona.reload()
        else:
            persona.set_folder(source.store)
        source.stale = False

    def select_for_page(self, name: str, page: QWidget) -> None:
        """``page`` comes to the front: a page of a kind of store the sidebar does not show
        selects the first source of that kind (which shows ``db_page`` or the persona page)."""
        if name in DB_PAGE_NAMES:
            self.db_page = page
        kind = PAGE_SOURCE_KINDS.get(name)
        current = self._sidebar.current()
        if kind is not None and (current is None or current.kind != kind):
            for source in self._registry.sources():
                if source.kind == kind:
                    self._sidebar.select(source)
                    break
        if name == "overview":
            self.show_persona_folders()

    def _on_page_changed(self, _index: int) -> None:
        page = self._pages.currentWidget()
        if page in self._pages.built_pages(DB_PAGE_NAMES):
            self.db_page = page

    # -- sources come and change --------------------------------------------------------------

    def on_source_added(self, source: Source) -> None:
        """A new row; a source found by looking is shown when nothing else is."""
        self._sidebar.add(source)
        if source.kind == SourceKind.PERSONA:
            self.show_persona_folders()
        if source.found and self._sidebar.current() is None:
            self._sidebar.select(source)

    def show_persona_folders(self) -> None:
        """The overview's numbers cover every open persona folder (read when it is built)."""
        overview = self._pages.built("overview")
        if overview is not None:
            overview.set_persona_folders(
                [s.store for s in self._registry.sources() if s.kind == SourceKind.PERSONA]
            )

    def on_source_written(self, source: Source) -> None:
        """An agent wrote to a source: the page showing it re-reads (its answer brings the
        counts); a hidden one only gets its sidebar count, and a folder the persona page
        still holds is read again when the person comes back."""
        overview = self._pages.built("overview")
        if self._sidebar.current() is source:
            if source.kind == SourceKind.DB:
                for page in self._pages.built_pages(DB_PAGE_NAMES):
                    page.refresh()  # a page not in front only notes it, and reads on return
            else:
                self._page("persona").reload()
            pruning = self._pages.built("pruning")
            if pruning is not None:  # one built later searches when shown
                pruning.refresh()
            if source.kind == SourceKind.PERSONA and overview is not None:
                overview.refresh()  # its persona folders' numbers
            return
        if source.kind == SourceKind.PERSONA:
            source.stale = True
            if overview is not None:
                overview.refresh()  # in front, it shows every folder's numbers
        self._sidebar.recount(source)

    def catch_up(self) -> None:
        """Live reload resumed: the folder shown is read again, every count updated."""
        source = self._sidebar.current()
        if source is not None and source.kind == SourceKind.PERSONA:
            source.stale = False
            self._page("persona").reload()
        self.update_counts()

    def update_counts(self) -> None:
        for source in self._registry.sources():
            self._registry.reopen_if_replaced(source)
        self._sidebar.update_all()

    # -- a replaced database ------------------------------------------------------------------

    def on_source_replacing(self, source: Source) -> None:
        """The store is about to close: the page showing it lets go first."""
        if self._sidebar.current() is source:
            self.show_database(None)
            self.show_pruning_source(None)

    def on_source_replaced(self, source: Source, message: str, problem: str) -> None:
        """The source reads the file now at its path (or none): the page shows that."""
        if self._sidebar.current() is source:
            store = source.store if source.file_id is not None else None
            self.show_database(store)
            self.show_pruning_source(store)
            if store is None:
                self._pages.built("observations").show_store_problem(
                    problem
                    or translate(
                        "MainWindow", "{what}. Nothing is shown until a database is at that path."
                    ).format(what=message)
                )
        self._sidebar.recount(source)

    # -- counts the pages bring ---------------------------------------------------------------

    def persona_folder(self) -> object | None:
        """The folder the persona page holds (None: none, or the page is not built)."""
        page = self._pages.built("persona")
        return None if page is None else page.folder()

    def _persona_lists(self, source: Source) -> bool:
        """Whether the persona page is listing ``source``'s folder now (the sidebar's count
        of it then waits for the page's)."""
        page = self._pages.built("persona")
        return page is not None and page.is_listing() and page.folder() is source.store

    def _on_database_counted(self, _status: str) -> None:
        self._recount_current(totals=self._pages.built("observations").totals)

    def _on_folder_counted(self, _status: str) -> None:
        counts = self._pages.built("persona").counts()
        if counts is not None:  # (None while the page reads: the sidebar keeps its count,
            self._recount_current(folder_counts=counts)  # not list every name again)

    def _recount_current(self, **counted) -> None:
        """The page in front just counted its source: show those counts, query nothing."""
        source = self._sidebar.current()
        if source is None:
            return
        if source.kind == SourceKind.DB:
            page_store = self._pages.built("observations").store
        else:
            page_store = self.persona_folder()
        if page_store is source.store:
            self._sidebar.recount(source, **counted)
