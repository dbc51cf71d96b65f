"""What the agent would find: the plugin's ``memory_search`` played against the open database.

The person's own search finds words of any length in the title, content and topic key. The
agent's does not: it takes runs of letters and digits as words, drops words under three
characters, requires every remaining word (and, asked without a mode, any of them when no
row has them all), searches all six indexed columns, keeps to the chat's project plus
personal rows, ranks by bm25 with the plugin's weights and re-sorts by recency and use. A
memory the person can find may be one the agent never recalls; this panel shows the agent's
answer beside the table, so the person can check, and says which mode ran.

The panel is not modal: the person reads it while browsing, and a double-click on a result
selects that row in the main table. The store's ``agent_search`` runs off the main thread
(:class:`~.background.BackgroundCall`), debounced while typing, and only the latest answer
shows.

Words are the person's language; the types show as the table's badges and the projects as its
bold name and subdued hash, with the theme's colours.

Signals (AgentSearchDialog):
    observation_activated(int): the person double-clicked a result or pressed Enter on it (its id)
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.hidden_text import reveal
from memory_desk.core.observations import AgentSearch, ObservationStore
from memory_desk.core.observations import agent_search as agent
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.widgets.delegates import ProjectDelegate, TypeBadgeDelegate
from memory_desk.ui.widgets.display import pin_glyph
from memory_desk.ui.workers.background import BackgroundCall

# The tool's default: memory_search returns eight rows unless the model asks for more.
AGENT_LIMIT = agent.DEFAULT_LIMIT
# None: the tool asked without a mode (all words, then any word when that finds nothing).
MATCHES: tuple[str | None, ...] = (None, agent.MATCH_ALL, agent.MATCH_ANY)
_RANK, _ID, _TYPE, _TITLE, _PROJECT, _PINNED = range(6)


def match_labels() -> list[str]:
    """The match modes as the person reads them, in the order of ``MATCHES``."""
    return [
        translate("AgentSearchDialog", "As the agent asks by default (all words, else any)"),
        translate("AgentSearchDialog", "All words"),
        translate("AgentSearchDialog", "Any word"),
    ]


def column_labels() -> list[str]:
    return [
        translate("AgentSearchDialog", "Rank"),
        translate("AgentSearchDialog", "ID"),
        translate("AgentSearchDialog", "Type"),
        translate("AgentSearchDialog", "Title"),
        translate("AgentSearchDialog", "Project"),
        translate("AgentSearchDialog", "Pinned"),
    ]


def search_note(text: str, found: AgentSearch, asked: str | None = None) -> str:
    """What the person should know about the agent's answer, one sentence after another;
    ``asked`` is the mode the agent was asked for (None: none)."""
    if not text.strip():
        return translate("AgentSearchDialog", "Type what the agent would search for.")
    lines = []
    if found.ignored_words:
        words = ", ".join(
            translate("AgentSearchDialog", "“{word}”").format(word=word)
            for word in found.ignored_words
        )
        lines.append(
            translate(
                "AgentSearchDialog", "The agent ignores words under 3 characters: {words}."
            ).format(words=words)
        )
    if found.unused_words:
        lines.append(
            translate(
                "AgentSearchDialog",
                "The agent searches for the first 16 different words only; it leaves out: {words}.",
            ).format(words=", ".join(found.unused_words))
        )
    if found.fts_query is None:
        lines.append(
            translate(
                "AgentSearchDialog",
                "No word of 3 characters or more is left, so the agent's search would find"
                " nothing.",
            )
        )
        return " ".join(lines)
    lines.append(mode_note(found, asked))
    if not found.hits:
        lines.append(translate("AgentSearchDialog", "The agent would find nothing for this text."))
    else:
        lines.append(
            i18n.plural(
                len(found.hits),
                translate(
                    "AgentSearchDialog",
                    "The agent would get this observation (it asks for {limit} by default).",
                ),
                translate(
                    "AgentSearchDialog",
                    "The agent would get these {n} observations, best first (it asks for {limit}"
                    " by default).",
                ),
                limit=i18n.number(AGENT_LIMIT),
            )
        )
    return " ".join(lines)


def mode_note(found: AgentSearch, asked: str | None = None) -> str:
    """Which of the agent's modes ran, in the person's words."""
    if found.match == agent.MATCH_ALL:
        return translate("AgentSearchDialog", "It searched for observations with all the words.")
    if asked == agent.MATCH_ANY:
        return translate("AgentSearchDialog", "It searched for observations with any of the words.")
    return translate(
        "AgentSearchDialog",
        "No observation has all the words, so it searched again for any of them (the agent"
        " does that when it asks without a mode).",
    )


def _name_clear_button(field: QLineEdit) -> None:
    """Give the field's clear button words (a screen reader would announce a bare button)."""
    for action in field.findChildren(QAction):
        if not action.text():  # Qt's own clear action (``_q_qlineeditclearaction``)
            action.setText(translate("AgentSearchDialog", "Clear"))
            action.setToolTip(translate("AgentSearchDialog", "Clear the text"))


class AgentSearchDialog(QDialog):
    """The agent's ``memory_search`` for a text, a match mode and a chat's project.

    Signals:
        observation_activated(int): a result was double-clicked (its id)
    """

    observation_activated = Signal(int)

    SEARCH_DELAY_MS = 150

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("agentSearchDialog")
        self.setWindowTitle(translate("AgentSearchDialog", "Search as the agent"))
        self.setModal(False)
        self.resize(760, 420)
        self._store: ObservationStore | None = None
        self._projects: list[str | None] = [None]

        self.text = QLineEdit(self)
        self.text.setObjectName("agentSearchText")
        self.text.setClearButtonEnabled(True)
        _name_clear_button(self.text)
        self.text.setPlaceholderText(
            translate("AgentSearchDialog", "What the agent's memory_search would be asked")
        )
        self.text.setAccessibleName(translate("AgentSearchDialog", "Text to search"))
        self.match = QComboBox(self)
        self.match.setObjectName("agentSearchMatch")
        self.match.setToolTip(
            translate(
                "AgentSearchDialog",
                "Asked without a mode, the agent requires every word, and any word when no"
                " observation has them all",
            )
        )
        self.match.setAccessibleName(translate("AgentSearchDialog", "Match"))
        self.match.addItems(match_labels())
        self.project = QComboBox(self)
        self.project.setObjectName("agentSearchProject")
        self.project.setToolTip(
            translate(
                "AgentSearchDialog",
                "The project whose chat searches: it sees that project's rows and personal ones",
            )
        )
        self.project.setAccessibleName(translate("AgentSearchDialog", "Project"))
        self.project.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        i18n.mark_data(self.project)  # the database's project ids (and "All projects")
        self.results = self._build_results()
        self.note = QLabel(self)
        self.note.setObjectName("agentSearchNote")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setAccessibleDescription(
            translate("AgentSearchDialog", "About the agent's answer")
        )
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.close)

        fields = QFormLayout()
        fields.addRow(translate("AgentSearchDialog", "&Text"), self.text)
        choices = QHBoxLayout()
        choices.addWidget(self.match)
        project_label = QLabel(translate("AgentSearchDialog", "&Project"), self)
        project_label.setBuddy(self.project)
        choices.addWidget(project_label)
        choices.addWidget(self.project, 1)
        match_label = QLabel(translate("AgentSearchDialog", "&Match"), self)
        match_label.setBuddy(self.match)
        fields.addRow(match_label, choices)
        layout = QVBoxLayout(self)
        layout.addLayout(fields)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.note)
        layout.addWidget(close)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.SEARCH_DELAY_MS)
        self._timer.timeout.connect(self.search_now)
        self._runner = BackgroundCall(self)
        self._runner.finished.connect(self._on_found)
        self._runner.failed.connect(self._on_failed)
        self.text.textChanged.connect(self._on_text_edited)
        self.match.currentIndexChanged.connect(self.search_now)
        self.project.currentIndexChanged.connect(self.search_now)
        # Double-click, or Enter on the keyboard (activated covers both).
        self.results.activated.connect(self._on_activated)

    def _build_results(self) -> QTableWidget:
        labels = column_labels()
        results = QTableWidget(0, len(labels), self)
        results.setObjectName("agentSearchResults")
        results.setHorizontalHeaderLabels(labels)
        results.setAccessibleName(translate("AgentSearchDialog", "What the agent would find"))
        results.setAccessibleDescription(
            translate(
                "AgentSearchDialog",
                "The observations the agent's search would return, best first. Enter selects"
                " one in the main table.",
            )
        )
        results.setItemDelegateForColumn(_TYPE, TypeBadgeDelegate(results))
        results.setItemDelegateForColumn(_PROJECT, ProjectDelegate(results))
        results.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        results.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        results.verticalHeader().hide()
        results.setToolTip(
            translate(
                "AgentSearchDialog",
                "Double-click a result (or press Enter) to select it in the main table",
            )
        )
        header = results.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(_TITLE, QHeaderView.ResizeMode.Stretch)
        return results

    # -- what the page calls -------------------------------------------------------------------

    def set_store(
        self,
        store: ObservationStore | None,
        projects: list[str],
        project: str | None,
        *,
        text: str | None = None,
    ) -> None:
        """Search this database, offering its projects, from this chat's project (None: all
        projects), for ``text`` (None: keep the text typed here), and search at once."""
        self._store = store
        self._fill_projects(projects, project)
        if text is not None:
            self.text.blockSignals(True)
            self.text.setText(text)
            self.text.blockSignals(False)
        self.setEnabled(store is not None)
        self.search_now()

    def set_projects(self, projects: list[str]) -> None:
        """Offer these projects (the database changed), keeping the chosen one."""
        self._fill_projects(projects, self.project_name())

    def _fill_projects(self, projects: list[str], chosen: str | None) -> None:
        names: list[str | None] = [*projects, None]
        if chosen not in names:
            names.insert(0, chosen)
        if names == self._projects:
            return
        self.project.blockSignals(True)
        self.project.clear()
        every = translate("AgentSearchDialog", "All projects")
        self.project.addItems([every if name is None else name for name in names])
        self._projects = names
        self.project.setCurrentIndex(names.index(chosen))
        self.project.blockSignals(False)

    def match_mode(self) -> str | None:
        """The mode the agent is asked for; None: none, as the agent asks by default."""
        return MATCHES[max(0, self.match.currentIndex())]

    def project_name(self) -> str | None:
        return self._projects[max(0, self.project.currentIndex())]

    def is_busy(self) -> bool:
        """True while typing has not settled or the latest answer is not back."""
        return self._timer.isActive() or self._runner.is_busy()

    def stop(self) -> None:
        """Wait for a running search and accept no more: the page is closing."""
        self._timer.stop()
        self._runner.stop()

    # -- searching -----------------------------------------------------------------------------

    def _on_text_edited(self) -> None:
        self._timer.start()

    def search_now(self) -> None:
        """Ask the store what the agent would find for the fields as they are now."""
        self._timer.stop()
        text = self.text.text()
        store = self._store
        if store is None or not text.strip():
            self._runner.cancel()
            self._show(text, AgentSearch((), (), None))
            if store is None:
                self.note.setText(
                    translate(
                        "AgentSearchDialog", "Open a database to search it as the agent would."
                    )
                )
            return
        project, match = self.project_name(), self.match_mode()

        def call() -> AgentSearch:
            return store.agent_search(
                text, project=project, match=match, all_projects=project is None
            )

        self._runner.submit(call)

    def _on_found(self, _generation: int, found: object) -> None:
        assert isinstance(found, AgentSearch)
        self._show(self.text.text(), found)

    def _on_failed(self, _generation: int, message: str) -> None:
        self.results.setRowCount(0)
        self.note.setText(
            translate("AgentSearchDialog", "The agent's search could not run: {message}").format(
                message=i18n.shown(message)
            )
        )

    def _show(self, text: str, found: AgentSearch) -> None:
        hits = found.hits
        personal = translate("AgentSearchDialog", "{project} (personal)")
        pinned = translate("AgentSearchDialog", "Pinned")
        self.results.setRowCount(len(hits))
        for row, hit in enumerate(hits):
            values = (
                str(row + 1),
                str(hit.id),
                hit.type,
                hit.title,
                personal.format(project=hit.project) if hit.scope == "personal" else hit.project,
                pin_glyph() if hit.pinned else "",
            )
            for column, value in enumerate(values):
                item = QTableWidgetItem(reveal(value))  # hidden characters as placeholders
                item.setData(Qt.ItemDataRole.UserRole, hit.id)
                if column in (_RANK, _ID):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                elif column == _PROJECT:
                    item.setToolTip(value)  # the cell may be cut in the middle
                elif column == _PINNED and hit.pinned:
                    item.setData(Qt.ItemDataRole.AccessibleTextRole, pinned)
                    item.setToolTip(pinned)
                self.results.setItem(row, column, item)
        self.note.setText(search_note(text, found, self.match_mode()))

    def _id_at(self, row: int) -> int:
        return int(self.results.item(row, _ID).data(Qt.ItemDataRole.UserRole))

    def _on_activated(self, index) -> None:
        if index.isValid():
            self.observation_activated.emit(self._id_at(index.row()))
