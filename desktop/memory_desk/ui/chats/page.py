"""The Chats page: Alisio's chat sessions, what each saved, its summary and loaded context.

Left, every chat of the shown database (:mod:`.model`), newest first, searchable and filtered
by project; right, the chosen chat's detail (:mod:`.detail`). All reading happens off the main
thread on :class:`~memory_desk.ui.workers.background.BackgroundCall` runners, one per
question (the listing, the chosen chat, its saved rows, a timeline), so a slow answer to one
never holds back another and only the latest answer to each is shown. The page is lazy
(:class:`~memory_desk.ui.view_page.ViewPage`): it reads only while in front, and an agent's
write read again keeps the chosen chat chosen.

Everything here is pure reading (:mod:`memory_desk.core.observations.chats`): browsing every
chat changes no byte of the database.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.hidden_text import reveal
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.chats import ChatRow, chat_detail, saved_in_chat, timeline
from memory_desk.ui import dates, export, i18n, theme
from memory_desk.ui.chats import columns
from memory_desk.ui.chats.detail import ChatDetailPane
from memory_desk.ui.chats.model import ChatListing, ChatsModel, make_listing, sorted_listing
from memory_desk.ui.i18n import translate
from memory_desk.ui.view_page import ViewPage
from memory_desk.ui.widgets.delegates import ProjectDelegate
from memory_desk.ui.widgets.display import now_ms
from memory_desk.ui.widgets.turning_splitter import TurningSplitter
from memory_desk.ui.workers.background import BackgroundCall

SEARCH_DELAY_MS = 200


_DIRECTORY, _ENDED = 1, 3  # the list's columns the chat's facts already give


class ChatsPage(ViewPage):
    """Every chat of the shown database, newest first, and the chosen chat's detail.

    Signals:
        observation_requested(int): show this observation in the observations table
    """

    observation_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatsPage")
        self.store: ObservationStore | None = None
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._chosen: str | None = None  # the chat whose detail is shown
        self._pending: str | None = None  # a chat to choose when the listing arrives
        self._projects: list[str | None] = [None]
        self._timeline_asked: int | None = None
        # Runners first: created before the widgets, destroyed (and waited for) after them.
        self._lister = self._runner(self._on_listed)
        self._reader = self._runner(self._on_detail)
        self._saved_reader = self._runner(self._on_saved)
        self._timeliner = self._runner(self._on_timeline)
        self._build()
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._read_listing)
        self.search.textChanged.connect(self._search_timer.start)
        self.project_filter.currentIndexChanged.connect(self._on_project_chosen)
        self.model.sort_requested.connect(self._on_sort_requested)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.detail.observation_requested.connect(self.observation_requested)
        self.detail.saved_filter_changed.connect(self._read_saved)
        self.export_button.clicked.connect(self.on_export)

    def _runner(self, on_answer) -> BackgroundCall:
        runner = BackgroundCall(self)
        runner.finished.connect(lambda _generation, value: on_answer(value))
        runner.failed.connect(lambda _generation, message: self.error_raised.emit(message))
        return runner

    # -- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.search = QLineEdit(self)
        self.search.setObjectName("chatsSearch")
        self.search.setClearButtonEnabled(True)
        self.search.setPlaceholderText(
            translate("ChatsPage", "Search chats by id, project, directory or summary")
        )
        self.search.setAccessibleName(translate("ChatsPage", "Search chats"))
        self.project_filter = QComboBox(self)
        self.project_filter.setObjectName("chatsProjectFilter")
        self.project_filter.setAccessibleName(translate("ChatsPage", "Project of the chats"))
        self.project_filter.addItem(translate("ChatsPage", "All projects"))
        i18n.mark_data(self.project_filter)  # the database's project ids
        self.model = ChatsModel(self)
        self.table = QTableView(self)
        self.setFocusProxy(self.table)  # the page in front takes the keys at its table
        self.table.setObjectName("chatsTable")
        self.table.setAccessibleName(translate("ChatsPage", "Chats"))
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(0, ProjectDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        rows = self.table.verticalHeader()
        rows.hide()
        # One height for every row: the view never measures 10,000 rows to lay them out.
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicatorShown(False)  # newest first until asked
        header = self.table.horizontalHeader()
        # Directory and end are in the chosen chat's facts: the list keeps the columns that
        # tell chats apart (project, start, how much each saved, what it was about). The
        # header's menu brings the others back.
        for column in (_DIRECTORY, _ENDED):
            header.setSectionHidden(column, True)
        columns.size_columns(self.table)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._column_menu)
        self.note = QLabel(self)
        self.note.setObjectName("chatsNote")
        self.note.setWordWrap(True)
        self.note.hide()
        theme.set_text_tone(self.note, "warning")

        filters = QHBoxLayout()
        filters.addWidget(self.search, 1)
        filters.addWidget(self.project_filter)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addLayout(filters)
        left_layout.addWidget(self.note)
        left_layout.addWidget(self.table, 1)

        self.title = QLabel(self)
        self.title.setObjectName("chatTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        i18n.mark_data(self.title)
        self.facts = QLabel(self)
        self.facts.setObjectName("chatFacts")
        self.facts.setTextFormat(Qt.TextFormat.PlainText)
        self.facts.setWordWrap(True)
        theme.set_text_tone(self.facts, "subdued")
        self.export_button = QPushButton(translate("ChatsPage", "E&xport chat…"), self)
        self.export_button.setObjectName("exportChatButton")
        self.export_button.setAccessibleName(translate("ChatsPage", "Export chat"))
        self.export_button.setToolTip(
            translate(
                "ChatsPage",
                "Save this chat with its summary, loaded context and prompts as Markdown",
            )
        )
        self.export_button.setEnabled(False)
        self.detail = ChatDetailPane(self)
        heading = QHBoxLayout()
        heading.addWidget(self.title, 1)
        heading.addWidget(self.export_button)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addLayout(heading)
        right_layout.addWidget(self.facts)
        right_layout.addWidget(self.detail, 1)

        # Side by side while the list's columns and the detail's tabs both fit; on a small
        # screen the detail goes below the list, with the whole width for its tabs.
        self.splitter = TurningSplitter(self._room_for_both, ((1, 1), (2, 3)), self)
        self.splitter.setObjectName("chatsSplitter")
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        # Stacked until shown: a window wide enough turns it, each side getting what it needs.
        self.splitter.setOrientation(Qt.Orientation.Vertical)
        self.splitter.setSizes([200, 300])  # until the person moves it (the window keeps that)
        self.splitter.turned.connect(self._on_turned)
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter)
        self._show_no_chat()

    def _room_for_both(self) -> bool:
        """Whether the list and the detail fit side by side, each whole."""
        handle = self.splitter.handleWidth()
        needed = columns.needed_width(self.table) + handle + self.detail.needed_width()
        return self.splitter.width() >= needed

    def _on_turned(self, orientation: Qt.Orientation) -> None:
        """Side by side, each pane gets what it needs and half of what is left (an even split
        of a window just wide enough squeezed one of them)."""
        if orientation != Qt.Orientation.Horizontal:
            return
        needs = (columns.needed_width(self.table), self.detail.needed_width())
        spare = max(0, self.splitter.width() - self.splitter.handleWidth() - sum(needs))
        self.splitter.setSizes([needs[0] + spare // 2, needs[1] + spare - spare // 2])

    def column_menu(self) -> QMenu:
        """The header's menu: show or hide a column of the list (all but the project)."""
        header = self.table.horizontalHeader()
        menu = QMenu(self)
        menu.setObjectName("chatsColumnsMenu")
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        for column in range(1, self.model.columnCount()):
            action = menu.addAction(str(self.model.headerData(column, Qt.Orientation.Horizontal)))
            action.setCheckable(True)
            action.setChecked(not header.isSectionHidden(column))
            action.toggled.connect(lambda shown, c=column: header.setSectionHidden(c, not shown))
        return menu

    def _column_menu(self, position) -> None:
        self.column_menu().popup(self.table.horizontalHeader().mapToGlobal(position))

    # -- what the window calls -----------------------------------------------------------------

    def set_store(self, store: ObservationStore | None) -> None:
        if store is not self.store:
            for runner in (self._lister, self._reader, self._saved_reader, self._timeliner):
                runner.cancel()
            self.store = store
            self._chosen = None
            self.model.set_listing(ChatListing())
            self.detail.clear_timeline()
            self._show_no_chat()
        self.detail.next_context.set_store(store)
        self.refresh()

    def set_plugin_settings(self, settings: Mapping[str, object] | None) -> None:
        """What the window read of the shown database's Alisio config (its budget for the
        next chat's context); None when it found none for this file."""
        self.detail.next_context.set_plugin_settings(settings)

    def show_chat(self, session_id: str) -> None:
        """Select this chat and show its detail; filters that hide it are cleared (and the
        person told so)."""
        if self.model.row_of(session_id) >= 0:
            self._select(session_id)
            return
        self._pending = session_id
        if self.search.text() or self._project() is not None:
            self._clear_filters()
            self.info_raised.emit(
                translate("ChatsPage", "Cleared the chat search and project to show the chat")
            )
            self._read_listing()
        elif not self._lister.is_busy():
            self._read_listing()

    def show_timeline(self, observation_id: int, project: str | None = None) -> None:
        """Show this observation's chat with its chronological neighbours, as memory_timeline
        gives them to a chat of ``project`` (None: the observation's own project)."""
        store = self.store
        if store is None:
            return
        self._timeline_asked = observation_id
        self._timeliner.submit(lambda: timeline(store, observation_id, project=project))

    def shutdown(self) -> None:
        self._search_timer.stop()
        self.detail.stop()
        self.detail.next_context.shutdown()
        for runner in (self._lister, self._reader, self._saved_reader, self._timeliner):
            runner.stop()

    def is_busy(self) -> bool:
        """True while typing has not settled or an answer is still to come."""
        return (
            self._search_timer.isActive()
            or self.detail.is_typing()
            or any(
                runner.is_busy()
                for runner in (self._lister, self._reader, self._saved_reader, self._timeliner)
            )
        )

    def chosen_chat(self) -> str | None:
        return self._chosen

    # -- reading -------------------------------------------------------------------------------

    def load(self) -> None:
        """The database changed (or the page came to the front): read the listing (and then
        the chosen chat) again, and the next chat's estimate."""
        self._read_listing()
        self.detail.next_context.refresh()

    def _read_listing(self) -> None:
        """Read the listing for the filters as they are now, off the main thread."""
        self._search_timer.stop()
        store = self.store
        if store is None:
            self._lister.cancel()
            return
        text, project, sort = self.search.text(), self._project(), self._sort
        self._lister.submit(lambda: make_listing(store, text, project, sort))

    def _on_listed(self, listing: ChatListing) -> None:
        keep = self._pending or self._chosen
        self._pending = None
        self.model.set_listing(listing)
        self._fill_projects(listing.projects)
        self.note.setVisible(listing.missing is not None)
        self.note.setText(i18n.shown(listing.missing or ""))
        self.status_changed.emit(
            i18n.plural(
                len(listing.rows),
                translate("ChatsPage", "{n} chat"),
                translate("ChatsPage", "{n} chats"),
            )
        )
        if keep is not None and self.model.row_of(keep) >= 0:
            self._select(keep, reread=True)
        elif keep is not None and keep == self._chosen:
            self._read_chat(keep)  # hidden by the filters now: its detail stays, read again
        elif keep is not None:
            self.error_raised.emit(
                translate("ChatsPage", "No chat {id} in this database").format(id=keep)
            )

    def _select(self, session_id: str, *, reread: bool = False) -> None:
        index = self.model.index(self.model.row_of(session_id), 0)
        selection = self.table.selectionModel()
        self.table.scrollTo(index)
        if selection.currentIndex().row() == index.row() and self._chosen == session_id:
            if reread:
                self._read_chat(session_id)  # already current: no signal will read it
            return
        flags = QItemSelectionModel.SelectionFlag
        selection.setCurrentIndex(index, flags.ClearAndSelect | flags.Rows)

    def _on_current_changed(self, current, _previous) -> None:
        row = self.model.chat_at(current.row()) if current.isValid() else None
        if row is None:
            return
        if row.id != self._chosen:
            self._chosen = row.id
            if (
                self.detail.timeline is not None
                and self.detail.timeline.anchor.session_id != row.id
            ):
                self.detail.clear_timeline()
        self._read_chat(row.id)

    def _read_chat(self, session_id: str) -> None:
        store = self.store
        if store is None:
            return
        kind, text = self.detail.saved_type_filter(), self.detail.saved_text()

        def read():
            return chat_detail(store, session_id), saved_in_chat(
                store, session_id, type=kind, text=text
            )

        self._saved_reader.cancel()
        self._reader.submit(read)

    def _on_detail(self, answer) -> None:
        found, saved = answer
        if found is None or found.row.id != self._chosen:
            return
        self._show_heading(found.row)
        self.detail.show_detail(found)
        self.detail.show_saved(saved)
        self.detail.next_context.set_project(found.row.project)
        self.export_button.setEnabled(True)

    def _read_saved(self) -> None:
        store, chosen = self.store, self._chosen
        if store is None or chosen is None:
            return
        kind, text = self.detail.saved_type_filter(), self.detail.saved_text()
        self._saved_reader.submit(
            lambda: (chosen, saved_in_chat(store, chosen, type=kind, text=text))
        )

    def _on_saved(self, answer) -> None:
        chosen, saved = answer
        if chosen == self._chosen:
            self.detail.show_saved(saved)

    def _on_timeline(self, found) -> None:
        if found is None:
            self.error_raised.emit(
                translate("ChatsPage", "Observation #{id} no longer exists").format(
                    id=self._timeline_asked
                )
            )
            return
        self.detail.show_timeline(found)
        self.detail.tabs.setCurrentWidget(self.detail.timeline_tab)
        if found.by_session:
            self.show_chat(found.anchor.session_id)
            return
        # No chat: the project's timeline alone, no chat chosen.
        self._chosen = None
        self.table.selectionModel().clearSelection()
        self.detail.clear()
        self.export_button.setEnabled(False)
        self.title.setText(reveal(found.anchor.project))
        self.facts.setText(
            translate("ChatsPage", "Observation #{id} was saved outside any chat").format(
                id=found.anchor.id
            )
        )
        self.detail.next_context.set_project(found.anchor.project)

    # -- showing -------------------------------------------------------------------------------

    def _show_no_chat(self) -> None:
        self.title.clear()
        self.facts.setText(
            translate("ChatsPage", "Choose a chat to see what it saved and was told")
        )
        self.export_button.setEnabled(False)
        self.detail.clear()
        self.detail.next_context.set_project(None)

    def _show_heading(self, row: ChatRow) -> None:
        self.title.setText(reveal(row.id))
        now = now_ms()
        parts = [translate("ChatsPage", "Project {project}").format(project=row.project)]
        if row.directory:
            parts.append(translate("ChatsPage", "in {directory}").format(directory=row.directory))
        if row.started_at is not None:
            parts.append(
                translate("ChatsPage", "started {when}").format(
                    when=dates.detailed(row.started_at, now)
                )
            )
        if row.ended_at is not None:
            parts.append(
                translate("ChatsPage", "ended {when}").format(
                    when=dates.detailed(row.ended_at, now)
                )
            )
        parts.append(
            i18n.plural(
                row.saved,
                translate("ChatsPage", "{n} observation saved"),
                translate("ChatsPage", "{n} observations saved"),
            )
        )
        self.facts.setText(" · ".join(parts))

    def _fill_projects(self, projects: tuple[str, ...]) -> None:
        chosen = self._project()
        names: list[str | None] = [None, *projects]
        if chosen not in names:
            names.append(chosen)
        if names == self._projects:
            return
        self.project_filter.blockSignals(True)
        self.project_filter.clear()
        self.project_filter.addItem(translate("ChatsPage", "All projects"))
        self.project_filter.addItems([name for name in names[1:] if name is not None])
        self._projects = names
        self.project_filter.setCurrentIndex(names.index(chosen))
        self.project_filter.blockSignals(False)

    def _project(self) -> str | None:
        return self._projects[max(0, self.project_filter.currentIndex())]

    def _clear_filters(self) -> None:
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.project_filter.blockSignals(True)
        self.project_filter.setCurrentIndex(0)
        self.project_filter.blockSignals(False)
        self._search_timer.stop()

    # -- the person's actions ------------------------------------------------------------------

    def _on_project_chosen(self) -> None:
        self._read_listing()

    def _on_sort_requested(self, column: int, order: Qt.SortOrder) -> None:
        self._sort = (column, order)
        self.table.horizontalHeader().setSortIndicatorShown(True)
        if self._lister.is_busy():
            self._read_listing()  # a listing is on its way: ask for it in this order instead
            return
        listing = self.model.listing
        self._lister.submit(lambda: sorted_listing(listing, (column, order)))

    def on_export(self) -> None:
        if self.store is not None and self._chosen is not None:
            export.start_chat_export(self, self.store, self._chosen)

    def select_id(self, session_id: str) -> None:
        """The Page contract's selection by id (:meth:`show_chat`)."""
        self.show_chat(session_id)
