"""What the next chat will be told: the plugin's session-start context for a project, as the
database holds it now, beside the last context it recorded, and what the person's pins and
forgets change.

Two read-only monospaced panes side by side: the next block (``nextContextEstimate``, the
plugin's text but for the new chat's id) and the last recorded one (``nextContextRecorded``),
each under a caption; the list of observations the next chat would gain or lose
(``nextContextChanges``); and a note (``nextContextNote``) that says what the block is made
of: the budget and where it came from, the plugin's token estimate, the counts it asks for,
and, when the plugin tells the chat nothing, that the chat starts with no memory and why.
Everything is read off the main thread (:class:`BackgroundCall`, the latest answer only) by
:func:`memory_desk.core.observations.next_context.preview`.

The blocks are the plugin's own text and stay as the agent reads them (English); the captions,
the note and the list's wording are translated.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListView,
    QPlainTextEdit,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations import context_layout as layout
from memory_desk.core.observations import next_context as nc
from memory_desk.ui import dates, i18n, theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.workers.background import BackgroundCall


def reason_text(reason: str) -> str:
    """Why an observation comes or goes, in the person's words."""
    texts = {
        nc.REASON_PINNED: translate("NextContext", "pinned"),
        nc.REASON_SAVED_SINCE: translate("NextContext", "saved or revised since"),
        nc.REASON_MADE_ROOM: translate("NextContext", "in the room others left"),
        nc.REASON_FORGOTTEN: translate("NextContext", "forgotten"),
        nc.REASON_DELETED: translate("NextContext", "deleted for good"),
        nc.REASON_NOT_VISIBLE: translate("NextContext", "no longer visible from this project"),
        nc.REASON_UNPINNED: translate("NextContext", "unpinned"),
        nc.REASON_NO_ROOM: translate("NextContext", "no room within the budget"),
        nc.REASON_PUSHED_OUT: translate("NextContext", "newer observations took its place"),
    }
    return texts.get(reason, reason)


def change_text(change: nc.Change) -> str:
    """One line of the changes list: "would be added: #12 Title (pinned)"."""
    if change.kind == nc.ADDED:
        template = translate("NextContext", "would be added: #{id} {title} ({reason})")
    else:
        template = translate("NextContext", "no longer included: #{id} {title} ({reason})")
    return template.format(id=change.id, title=change.title, reason=reason_text(change.reason))


def budget_text(budget: nc.Budget) -> str:
    """The budget and where it came from."""
    if budget.source == nc.BUDGET_CONFIGURED:
        template = translate("NextContext", "Budget: {tokens} tokens, set in Alisio's config.")
    elif budget.source == nc.BUDGET_DEFAULT:
        template = translate(
            "NextContext",
            "Budget: {tokens} tokens, the plugin's default (Alisio's settings do not set one).",
        )
    else:
        template = translate(
            "NextContext",
            "Budget: {tokens} tokens, the plugin's default: this is not the database Alisio's"
            " config points to, so its setting does not apply here.",
        )
    return template.format(tokens=i18n.number(budget.tokens))


def told_nothing_text() -> str:
    """Why the next chat starts with no memory, in plain words."""
    return translate(
        "NextContext",
        "The next chat starts with no memory: this project has no session summary, no saved"
        " prompt and no observation it can see (its own or personal ones), so the plugin tells"
        " the chat nothing at all.",
    )


def note_text(preview: nc.Preview) -> str:
    """What the block is made of, in plain words."""
    parts = []
    if preview.next.told_nothing:
        parts.append(told_nothing_text())
    parts += [
        translate(
            "NextContext",
            "What the plugin tells a chat of this project that starts now, from the database as"
            " it is: it changes as the agent saves.",
        ),
        budget_text(preview.budget),
        translate(
            "NextContext",
            "Tokens are estimated as the plugin does, characters divided by 4: about {used} used.",
        ).format(used=i18n.number(preview.next.estimated_tokens)),
        translate(
            "NextContext",
            "The plugin asks for the last session summary, {pinned} pinned and {recent} recent"
            " observations and {prompts} prompts, and lays them out as shown; the new chat's id,"
            " unknown until it starts, shows as {mark}.",
        ).format(
            pinned=nc.PINNED_LIMIT,
            recent=nc.RECENT_LIMIT,
            prompts=nc.PROMPT_LIMIT,
            mark=layout.NEXT_SESSION_STAND_IN,
        ),
    ]
    if preview.budget.plugin_off:
        parts.append(
            translate(
                "NextContext",
                "Alisio's config turns the memory plugin off: while it is off, a new chat is told"
                " nothing from this database.",
            )
        )
    return " ".join(parts)


def estimate_caption(estimate: layout.NextContext) -> str:
    if estimate.told_nothing:
        return translate("NextContext", "Next context: nothing (the chat starts with no memory)")
    caption = translate("NextContext", "Next context: about {used} of {budget} tokens")
    caption = caption.format(
        used=i18n.number(estimate.estimated_tokens), budget=i18n.number(estimate.budget_tokens)
    )
    left_out = len(estimate.left_out)
    if left_out:
        caption += i18n.plural(
            left_out,
            translate("NextContext", "; {n} observation left out for lack of room"),
            translate("NextContext", "; {n} observations left out for lack of room"),
        )
    return caption


def recorded_caption(recorded: nc.RecordedContext | nc.NotRecorded) -> str:
    if isinstance(recorded, nc.NotRecorded):
        return translate("NextContext", "Last recorded context: not recorded ({reason})").format(
            reason=i18n.shown(recorded.reason)
        )
    return translate("NextContext", "Last recorded context: chat {chat}, {date}").format(
        chat=recorded.session_id, date=dates.exact(recorded.created_at)
    )


class NextContextPanel(QWidget):
    """The next context of one project, beside the last recorded one.

    Signals:
        error_raised(str): reading failed (the store's message, in the person's language)
        observation_requested(int): the person opened this observation in the changes list
    """

    error_raised = Signal(str)
    observation_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("nextContextPreview")
        self.store: ObservationStore | None = None
        self.project: str | None = None
        self._budget: nc.Budget | None = None  # from the window (set_plugin_settings)
        self.shown_preview: nc.Preview | None = None
        self._background = BackgroundCall(self)
        self._background.finished.connect(self.on_preview_read)
        self._background.failed.connect(self.on_preview_failed)

        self.stack = QStackedWidget(self)
        self.stack.setObjectName("nextContextStack")
        self.empty = QLabel(
            translate(
                "NextContext",
                "Choose a chat to see what the next chat of its project will be told.",
            ),
            self,
        )
        self.empty.setObjectName("nextContextEmpty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        theme.set_text_tone(self.empty, "subdued")
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self._build_content())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        self._show_empty()

    def _build_content(self) -> QWidget:
        content = QWidget(self)
        content.setObjectName("nextContextContent")
        self.note = QLabel(content)
        self.note.setObjectName("nextContextNote")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.setToolTip(
            translate(
                "NextContext",
                "The budget is the setting injectBudgetTokens in Alisio's config.json.",
            )
        )
        self.estimate_caption = self._caption("nextContextEstimateCaption", content)
        self.estimate = self._pane(
            "nextContextEstimate",
            translate("NextContext", "Next context"),
            translate("NextContext", "The memory block the plugin injects if a chat starts now"),
            content,
        )
        self.recorded_caption = self._caption("nextContextRecordedCaption", content)
        self.recorded = self._pane(
            "nextContextRecorded",
            translate("NextContext", "Last recorded context"),
            translate(
                "NextContext", "Exactly what the plugin told this project's last recorded chat"
            ),
            content,
        )
        self.changes_caption = self._caption("nextContextChangesCaption", content)
        self.changes_caption.setText(
            translate("NextContext", "What the next chat would be told differently:")
        )
        self.change_items = QStandardItemModel(self)
        self.changes = QListView(content)
        self.changes.setObjectName("nextContextChanges")
        self.changes.setModel(self.change_items)
        self.changes.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.changes.setAccessibleName(
            translate("NextContext", "Changes since the last recorded context")
        )
        self.changes.setToolTip(
            translate("NextContext", "Open an observation with Enter or a double click")
        )
        self.changes.activated.connect(self.on_change_activated)

        panes = QSplitter(Qt.Orientation.Horizontal, content)
        panes.setObjectName("nextContextPanes")
        panes.setChildrenCollapsible(False)
        for caption, pane in (
            (self.estimate_caption, self.estimate),
            (self.recorded_caption, self.recorded),
        ):
            column = QWidget(panes)
            column_layout = QVBoxLayout(column)
            column_layout.setContentsMargins(0, 0, 0, 0)
            column_layout.setSpacing(2)
            column_layout.addWidget(caption)
            column_layout.addWidget(pane, 1)
            panes.addWidget(column)
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(panes, 3)
        layout.addWidget(self.changes_caption)
        layout.addWidget(self.changes, 1)
        return content

    @staticmethod
    def _caption(name: str, parent: QWidget) -> QLabel:
        label = QLabel(parent)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        return label

    @staticmethod
    def _pane(name: str, accessible: str, tip: str, parent: QWidget) -> QPlainTextEdit:
        pane = QPlainTextEdit(parent)
        pane.setObjectName(name)
        pane.setReadOnly(True)
        pane.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        pane.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        pane.setAccessibleName(accessible)
        pane.setToolTip(tip)
        pane.document().setUndoRedoEnabled(False)
        i18n.mark_data(pane)  # the plugin's own text, as the agent reads it
        return pane

    # -- public calls (the Chats page) -----------------------------------------------------

    def set_store(self, store: ObservationStore | None) -> None:
        """Show this database (None: none); the shown project is read again in it."""
        self._background.cancel()
        self.store = store
        self.refresh()

    def set_plugin_settings(self, settings: Mapping[str, object] | None) -> None:
        """What the window read of the database's Alisio config (a found database's, or the
        demo's own); None: look it up from the database's path."""
        self._budget = nc.budget_from_settings(settings) if settings else None
        self.refresh()

    def set_project(self, project: str | None) -> None:
        """Show this project's (None: nothing to show, the person chooses a chat)."""
        if project == self.project and self.shown_preview is not None:
            return
        self.project = project
        self.refresh()

    def refresh(self) -> None:
        """The database changed: read again (if a project is shown)."""
        if self.store is None or self.project is None:
            self._background.cancel()
            self._show_empty()
            return
        if self.shown_preview is None or self.shown_preview.next.project != self.project:
            self._show_reading()
        store, project, budget = self.store, self.project, self._budget
        self._background.submit(lambda: nc.preview(store, project, budget=budget))

    def is_busy(self) -> bool:
        """True while the next context is being read."""
        return self._background.is_busy()

    def shutdown(self) -> None:
        """Stop the worker thread; called when the window closes."""
        self._background.stop()

    # -- answers ---------------------------------------------------------------------------

    def on_preview_read(self, _generation: int, value: object) -> None:
        if not isinstance(value, nc.Preview) or value.next.project != self.project:
            return
        another = (
            self.shown_preview is None or self.shown_preview.next.project != value.next.project
        )
        self.shown_preview = value
        self.stack.setCurrentIndex(1)
        self.note.setText(note_text(value))
        theme.set_text_tone(self.note, "warning" if value.budget.plugin_off else "subdued")
        self.estimate_caption.setText(estimate_caption(value.next))
        self.estimate.setPlainText(value.next.text)
        self.estimate.setPlaceholderText(told_nothing_text() if value.next.told_nothing else "")
        self.recorded_caption.setText(recorded_caption(value.recorded))
        recorded = value.recorded
        self.recorded.setPlainText(
            recorded.content if isinstance(recorded, nc.RecordedContext) else ""
        )
        self._fill_changes(value)
        if another:  # from the top once laid out (the captions' new heights move the panes)
            QTimer.singleShot(0, self._scroll_to_top)

    def _scroll_to_top(self) -> None:
        for pane in (self.estimate, self.recorded):
            pane.verticalScrollBar().setValue(0)

    def on_preview_failed(self, _generation: int, message: str) -> None:
        self.shown_preview = None
        self.stack.setCurrentIndex(1)
        self.note.setText(
            translate("NextContext", "Cannot read the next context: {reason}").format(
                reason=message
            )
        )
        theme.set_text_tone(self.note, "error")
        self.error_raised.emit(message)

    def on_change_activated(self, index: QModelIndex) -> None:
        observation_id = index.data(Qt.ItemDataRole.UserRole)
        if isinstance(observation_id, int):
            self.observation_requested.emit(observation_id)

    # -- states ----------------------------------------------------------------------------

    def _fill_changes(self, preview: nc.Preview) -> None:
        self.change_items.clear()
        if isinstance(preview.recorded, nc.NotRecorded):
            self._add_plain_item(
                translate(
                    "NextContext", "Nothing to compare: no context was recorded for this project."
                )
            )
            return
        if not preview.changes:
            self._add_plain_item(
                translate(
                    "NextContext",
                    "No change: the next chat would be told about the same observations as the last one.",
                )
            )
            return
        for change in preview.changes:
            item = QStandardItem(change_text(change))
            item.setData(change.id, Qt.ItemDataRole.UserRole)
            item.setEditable(False)
            self.change_items.appendRow(item)

    def _add_plain_item(self, text: str) -> None:
        item = QStandardItem(text)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        self.change_items.appendRow(item)

    def _show_empty(self) -> None:
        self.shown_preview = None
        self.stack.setCurrentIndex(0)

    def _show_reading(self) -> None:
        self.stack.setCurrentIndex(1)
        self.note.setText(translate("NextContext", "Reading the database…"))
        theme.set_text_tone(self.note, "subdued")
        self.estimate_caption.setText(translate("NextContext", "Next context"))
        self.recorded_caption.setText(translate("NextContext", "Last recorded context"))
        self.estimate.clear()
        self.estimate.setPlaceholderText("")
        self.recorded.clear()
        self.change_items.clear()
