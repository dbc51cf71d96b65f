"""The detail pane: one observation read in full, and its edit form.

Reading shows the title, every stored fact about the row and the content rendered as
markdown, so the plugin's **What** / **Why** / **Where** / **Learned** sections read as
sections. The browser opens no links and loads no images or remote resources: memories are
untrusted text written by an agent.

The edit form stays bound to the observation it was opened for, even if the table's current
row changes or the row is refreshed underneath, so typed text is never lost or applied to the
wrong row. Validation mirrors the plugin's rules and is shown inline.

Signals:
    save_requested(Observation, dict): the row as the form opened it, and the changed fields
    edit_started(): the form opened
    edit_finished(): the form closed (saved or cancelled)
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.alisio import OBSERVATION_TYPES, TITLE_CAP, is_valid_topic_key
from memory_desk.core.observations import Observation
from memory_desk.ui.observations.display import (
    TYPE_COLOURS,
    UNKNOWN_TYPE_COLOUR,
    now_ms,
    pin_glyph,
    when,
)


class ContentBrowser(QTextBrowser):
    """A markdown view that never follows links or fetches anything."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)

    def loadResource(self, kind: int, name: QUrl | str) -> object:  # noqa: N802 (Qt override)
        """Images and style sheets named in a memory are not loaded: nothing leaves the machine."""
        return None


class ObservationDetail(QWidget):
    """Read one observation; edit it (see the module docstring).

    Signals:
        save_requested(Observation, dict): the row as the form opened it, and the changed fields
        edit_started(): the form opened
        edit_finished(): the form closed (saved or cancelled)
    """

    save_requested = Signal(object, dict)
    edit_started = Signal()
    edit_finished = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("observationDetail")
        self._shown: Observation | None = None
        self._editing: Observation | None = None
        self._rendered_id: int | None = None  # keeps the content's scroll on a refresh
        self._stack = QStackedWidget(self)
        self._stack.addWidget(self._build_empty())
        self._stack.addWidget(self._build_reader())
        self._stack.addWidget(self._build_editor())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._stack)

    # -- building -----------------------------------------------------------------------------

    def _build_empty(self) -> QWidget:
        label = QLabel("Select an observation to read it here.", self)
        label.setObjectName("observationPlaceholder")
        label.setEnabled(False)
        label.setWordWrap(True)
        return label

    def _build_reader(self) -> QWidget:
        page = QWidget(self)
        self.title_label = QLabel(page)
        self.title_label.setObjectName("observationTitle")
        self.title_label.setWordWrap(True)
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = QFont(self.title_label.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title_label.setFont(font)
        self.meta_label = QLabel(page)
        self.meta_label.setObjectName("observationMeta")
        self.meta_label.setTextFormat(Qt.TextFormat.RichText)
        self.meta_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.meta_label.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.meta_label.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self.content_view = ContentBrowser(page)
        self.content_view.setObjectName("observationContent")
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.meta_label)
        body.addWidget(self.content_view, 1)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.title_label)
        layout.addLayout(body, 1)
        return page

    def _build_editor(self) -> QWidget:
        page = QWidget(self)
        self.editing_label = QLabel(page)
        self.editing_label.setObjectName("editHeading")
        self.edit_title = QLineEdit(page)
        self.edit_title.setObjectName("editTitle")
        self.edit_title.setMaxLength(TITLE_CAP)
        self.edit_type = QComboBox(page)
        self.edit_type.setObjectName("editType")
        self.edit_topic_key = QLineEdit(page)
        self.edit_topic_key.setObjectName("editTopicKey")
        self.edit_topic_key.setPlaceholderText(
            "family/description, e.g. auth/token-refresh (optional)"
        )
        self.edit_content = QPlainTextEdit(page)
        self.edit_content.setObjectName("editContent")
        self.edit_content.setPlaceholderText("**What** … **Why** … **Where** … **Learned** …")
        self.edit_error = QLabel(page)
        self.edit_error.setObjectName("editError")
        self.edit_error.setStyleSheet("color: #b42318;")
        self.edit_error.setWordWrap(True)
        self.edit_error.hide()
        self.save_button = QPushButton("Save", page)
        self.save_button.setObjectName("saveEditButton")
        self.save_button.setToolTip("Save the edit (Ctrl+S); Ctrl+Z undoes it")
        self.save_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel", page)
        self.cancel_button.setObjectName("cancelEditButton")
        self.cancel_button.setToolTip("Leave the form without saving (Esc)")
        self.save_button.clicked.connect(self.on_save_clicked)
        self.cancel_button.clicked.connect(self.cancel_edit)
        QShortcut(QKeySequence.StandardKey.Save, page, self.on_save_clicked)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Cancel), page, self.cancel_edit)

        fields = QFormLayout()
        fields.addRow("&Title", self.edit_title)
        row = QHBoxLayout()
        row.addWidget(self.edit_type)
        row.addWidget(QLabel("Topic &key", page))
        row.addWidget(self.edit_topic_key, 1)
        fields.addRow("T&ype", row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.edit_error, 1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.editing_label)
        layout.addLayout(fields)
        layout.addWidget(self.edit_content, 1)
        layout.addLayout(buttons)
        return page

    # -- reading ----------------------------------------------------------------------------

    @property
    def shown_id(self) -> int | None:
        return self._shown.id if self._shown is not None else None

    @property
    def is_editing(self) -> bool:
        return self._editing is not None

    @property
    def editing_id(self) -> int | None:
        return self._editing.id if self._editing is not None else None

    def show_observation(self, observation: Observation | None) -> None:
        """Show this observation (None: the placeholder); a no-op when nothing changed, so a
        refresh does not jump the content's scroll position."""
        if observation == self._shown:
            return
        self._shown = observation
        if self._editing is not None:
            return  # the form keeps its row; the reader catches up when it closes
        self._render()

    def _render(self) -> None:
        observation = self._shown
        if observation is None:
            self._stack.setCurrentIndex(0)
            return
        self.title_label.setText(
            f"{pin_glyph()} {observation.title}" if observation.pinned else observation.title
        )
        self.meta_label.setText(metadata_html(observation))
        scroll = self.content_view.verticalScrollBar().value()
        same_row = self._rendered_id == observation.id
        self.content_view.setMarkdown(observation.content or "")
        self._rendered_id = observation.id
        if same_row:
            self.content_view.verticalScrollBar().setValue(scroll)
        self._stack.setCurrentIndex(1)

    # -- editing ----------------------------------------------------------------------------

    def start_edit(self) -> bool:
        """Open the form on the shown observation; False when there is none."""
        if self._shown is None:
            return False
        if self._editing is not None:
            self.edit_title.setFocus()
            return True
        observation = self._editing = self._shown
        self.editing_label.setText(f"Editing #{observation.id}")
        self.edit_title.setText(observation.title)
        self.edit_type.clear()
        types = list(OBSERVATION_TYPES)
        if observation.type not in types:
            types.append(observation.type)  # a newer plugin's type stays selectable as it is
        self.edit_type.addItems(types)
        self.edit_type.setCurrentText(observation.type)
        self.edit_topic_key.setText(observation.topic_key or "")
        self.edit_content.setPlainText(observation.content or "")
        self.edit_error.hide()
        self._stack.setCurrentIndex(2)
        self.edit_title.setFocus()
        self.edit_started.emit()
        return True

    def cancel_edit(self) -> None:
        if self._editing is None:
            return
        self.finish_edit()

    def finish_edit(self) -> None:
        """Close the form and show the current observation again."""
        self._editing = None
        self.edit_error.hide()
        self._render()
        self.edit_finished.emit()

    def show_edit_error(self, message: str) -> None:
        self.edit_error.setText(message)
        self.edit_error.show()

    def on_save_clicked(self) -> None:
        if self._editing is None:
            return
        problem = self._validation_problem()
        if problem:
            self.show_edit_error(problem)
            return
        changes = self._changes()
        if not changes:
            self.finish_edit()
            return
        self.edit_error.hide()
        self.save_requested.emit(self._editing, changes)

    def _validation_problem(self) -> str:
        """The first thing the plugin would refuse, in words; empty when the form is valid."""
        if not self.edit_title.text().strip():
            return "The title cannot be empty."
        topic_key = self.edit_topic_key.text().strip()
        if topic_key and not is_valid_topic_key(topic_key):
            return (
                "The topic key must be kebab-case words separated by '/', e.g. auth/token-refresh."
            )
        if not self.edit_content.toPlainText().strip():
            return "The content cannot be empty."
        return ""

    def _changes(self) -> dict[str, str]:
        """Only the fields the person changed, so the revision records exactly that."""
        original = self._editing
        assert original is not None
        wanted = {
            "title": self.edit_title.text().strip(),
            "type": self.edit_type.currentText(),
            "topic_key": self.edit_topic_key.text().strip(),
            "content": self.edit_content.toPlainText(),
        }
        before = {
            "title": original.title,
            "type": original.type,
            "topic_key": original.topic_key or "",
            "content": original.content or "",
        }
        return {key: value for key, value in wanted.items() if value != before[key]}


def metadata_html(observation: Observation) -> str:
    """Every stored fact about the row as a compact two-column table."""
    now = now_ms()
    colour = TYPE_COLOURS.get(observation.type, UNKNOWN_TYPE_COLOUR)
    badge = f'<span style="background:{colour}; color:white;">&nbsp;{html.escape(observation.type)}&nbsp;</span>'
    rows = [
        ("ID", f"#{observation.id}"),
        ("Type", badge),
        ("Pinned", "yes" if observation.pinned else "no"),
        ("Project", html.escape(observation.project)),
        ("Scope", html.escape(observation.scope)),
        ("Topic key", html.escape(observation.topic_key or "—")),
        ("Session", html.escape(observation.session_id or "—")),
        ("Tool", html.escape(observation.tool_name or "—")),
        ("Revisions", str(observation.revision_count)),
        ("Duplicates", str(observation.duplicate_count)),
        ("Accesses", str(observation.access_count)),
        ("Created", when(observation.created_at, now)),
        ("Updated", when(observation.updated_at, now)),
        ("Last seen", when(observation.last_seen_at, now)),
        ("Last accessed", when(observation.last_accessed_at, now)),
    ]
    if observation.deleted_at is not None:
        rows.append(("Forgotten", f"<b>{when(observation.deleted_at, now)}</b>"))
    cells = "".join(
        f'<tr><td style="color:gray; padding-right:8px;">{name}</td><td>{value}</td></tr>'
        for name, value in rows
    )
    return f"<table cellspacing=0 cellpadding=1>{cells}</table>"
