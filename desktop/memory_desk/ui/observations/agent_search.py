"""What the agent would find: the plugin's ``memory_search`` played against the open database.

The person's own search finds words of any length in the title, content and topic key. The
agent's does not: it drops words under three characters, requires every remaining word by
default (``any`` for one of them), searches all six indexed columns, keeps to the chat's
project plus personal rows, ranks by bm25 with the plugin's weights and then re-scores with a
formula that is not public. A memory the person can find may be one the agent never recalls;
this panel shows the agent's answer beside the table, so the person can check.

The panel is not modal: the person reads it while browsing, and a double-click on a result
selects that row in the main table. The store's ``agent_search`` runs off the main thread
(:class:`~.background.BackgroundCall`), debounced while typing, and only the latest answer
shows.

Signals (AgentSearchDialog):
    observation_activated(int): the person double-clicked a result or pressed Enter on it (its id)
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
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

from memory_desk.core.observations import AgentSearch, ObservationStore
from memory_desk.ui.observations.background import BackgroundCall
from memory_desk.ui.observations.display import pin_glyph

# The plugin's default: memory_search returns ten rows unless the model asks for more.
AGENT_LIMIT = 10
MATCHES: tuple[tuple[str, str], ...] = (
    ("all", "All words (the agent's default)"),
    ("any", "Any word"),
)
COLUMNS = ("Rank", "ID", "Type", "Title", "Project", "Pinned")
_RANK, _ID, _TYPE, _TITLE, _PROJECT, _PINNED = range(len(COLUMNS))
_ESTIMATE = (
    "The order after bm25 is an estimate: the plugin re-scores its best 100 matches by"
    " recency and use with a formula it does not publish."
)


def search_note(text: str, found: AgentSearch) -> str:
    """What the person should know about the agent's answer, in plain words."""
    if not text.strip():
        return "Type what the agent would search for."
    lines = []
    if found.ignored_words:
        words = ", ".join(f"“{word}”" for word in found.ignored_words)
        lines.append(f"The agent ignores words under 3 characters: {words}.")
    if found.fts_query is None:
        lines.append(
            "No word of 3 characters or more is left, so the agent's search would find nothing."
        )
    elif not found.hits:
        lines.append("The agent would find nothing for this text.")
    else:
        count = len(found.hits)
        rows = "observation" if count == 1 else f"{count} observations"
        lines.append(
            f"The agent would get {'this' if count == 1 else 'these'} {rows}, best first"
            f" (it asks for {AGENT_LIMIT} by default). {_ESTIMATE}"
        )
    return " ".join(lines)


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
        self.setWindowTitle("Search as the agent")
        self.setModal(False)
        self.resize(760, 420)
        self._store: ObservationStore | None = None
        self._projects: list[str | None] = [None]

        self.text = QLineEdit(self)
        self.text.setObjectName("agentSearchText")
        self.text.setClearButtonEnabled(True)
        self.text.setPlaceholderText("What the agent's memory_search would be asked")
        self.match = QComboBox(self)
        self.match.setObjectName("agentSearchMatch")
        self.match.setToolTip("The agent requires every word unless it asks for any word")
        for _value, label in MATCHES:
            self.match.addItem(label)
        self.project = QComboBox(self)
        self.project.setObjectName("agentSearchProject")
        self.project.setToolTip(
            "The project whose chat searches: it sees that project's rows and personal ones"
        )
        self.project.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.results = self._build_results()
        self.note = QLabel(self)
        self.note.setObjectName("agentSearchNote")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.close)

        fields = QFormLayout()
        fields.addRow("&Text", self.text)
        choices = QHBoxLayout()
        choices.addWidget(self.match)
        project_label = QLabel("&Project", self)
        project_label.setBuddy(self.project)
        choices.addWidget(project_label)
        choices.addWidget(self.project, 1)
        match_label = QLabel("&Match", self)
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
        results = QTableWidget(0, len(COLUMNS), self)
        results.setObjectName("agentSearchResults")
        results.setHorizontalHeaderLabels(list(COLUMNS))
        results.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        results.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        results.verticalHeader().hide()
        results.setToolTip("Double-click a result (or press Enter) to select it in the main table")
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
        self.project.addItems(["All projects" if name is None else name for name in names])
        self._projects = names
        self.project.setCurrentIndex(names.index(chosen))
        self.project.blockSignals(False)

    def match_mode(self) -> str:
        return MATCHES[max(0, self.match.currentIndex())][0]

    def project_name(self) -> str | None:
        return self._projects[max(0, self.project.currentIndex())]

    def result_ids(self) -> list[int]:
        """The ids in the results table, best first."""
        return [self._id_at(row) for row in range(self.results.rowCount())]

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
                self.note.setText("Open a database to search it as the agent would.")
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
        self.note.setText(f"The agent's search could not run: {message}")

    def _show(self, text: str, found: AgentSearch) -> None:
        hits = found.hits
        self.results.setRowCount(len(hits))
        for row, hit in enumerate(hits):
            values = (
                str(row + 1),
                str(hit.id),
                hit.type,
                hit.title,
                f"{hit.project} (personal)" if hit.scope == "personal" else hit.project,
                pin_glyph() if hit.pinned else "",
            )
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setData(Qt.ItemDataRole.UserRole, hit.id)
                if column in (_RANK, _ID):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.results.setItem(row, column, item)
        self.note.setText(search_note(text, found))

    def _id_at(self, row: int) -> int:
        return int(self.results.item(row, _ID).data(Qt.ItemDataRole.UserRole))

    def _on_activated(self, index) -> None:
        if index.isValid():
            self.observation_activated.emit(self._id_at(index.row()))
