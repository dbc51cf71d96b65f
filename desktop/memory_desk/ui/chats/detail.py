"""One chat's detail, in the plugin's web-tab sections, plus its prompts and a timeline.

*Saved in this chat*, *Session summary* and *Loaded context* are the web tab's three sections
(``views.ts``: records, summary, context); *Prompts* are what the person typed in the chat;
*Timeline* shows an observation's chronological neighbours (``memory_timeline``) when one was
asked for; *Next chat* is the estimate of what the chat's project will be told next
(:class:`~memory_desk.ui.chats.next_context.NextContextPanel`).

Everything shown is the person's data (marked so) except the captions. The loaded context is
shown in :class:`RecordedTextView`, whose :meth:`~RecordedTextView.toPlainText` is the recorded
text to the byte: Qt's text document turns ``\\r\\n`` and U+00A0 into other characters, so the
view keeps the text it was given, and copying copies that.

Signals (ChatDetailPane):
    observation_requested(int): show this observation in the observations table
    saved_filter_changed(): the type filter or the search of *Saved in this chat* settled
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.alisio import OBSERVATION_TYPES
from memory_desk.core.hidden_text import reveal
from memory_desk.core.jstext import utf16_len
from memory_desk.core.observations import Observation
from memory_desk.core.observations.chats import ChatDetail, SummarySection, Timeline
from memory_desk.ui import dates, i18n, theme
from memory_desk.ui.chats.next_context import NextContextPanel
from memory_desk.ui.i18n import translate
from memory_desk.ui.plain import as_shown
from memory_desk.ui.widgets.content_browser import ContentBrowser
from memory_desk.ui.widgets.delegates import TypeBadgeDelegate
from memory_desk.ui.widgets.display import now_ms, pin_glyph

ID_ROLE = Qt.ItemDataRole.UserRole
SAVED_SEARCH_DELAY_MS = 200


class RecordedTextView(QPlainTextEdit):
    """A read-only monospace view of a recorded text that hands back exactly that text.

    Qt's document stores line breaks as paragraph breaks (``\\r\\n`` comes back as ``\\n``)
    and turns U+00A0 into a space; the loaded context must read as the plugin recorded it,
    so :meth:`toPlainText` returns the text given to :meth:`set_recorded`.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._recorded = ""

    def set_recorded(self, text: str | None) -> None:
        self._recorded = text or ""
        self.setPlainText(self._recorded)

    def toPlainText(self) -> str:  # noqa: N802 (Qt override)
        return self._recorded


def _table(parent: QWidget, name: str, titles: Sequence[str]) -> QTableWidget:
    table = QTableWidget(0, len(titles), parent)
    table.setObjectName(name)
    table.setHorizontalHeaderLabels(list(titles))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.verticalHeader().hide()
    table.setWordWrap(False)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(len(titles) - 1, QHeaderView.ResizeMode.Stretch)
    return table


def _item(text: str, tooltip: str | None = None, id: int | None = None) -> QTableWidgetItem:
    item = QTableWidgetItem(reveal(text))  # hidden characters as placeholders
    if tooltip:
        item.setToolTip(as_shown(reveal(tooltip)))
    if id is not None:
        item.setData(ID_ROLE, id)
    return item


def summary_markdown(sections: Sequence[SummarySection]) -> str:
    """The summary with each of the plugin's sections under a heading of its own (a
    ``**Goal**`` line followed by text would otherwise run into one paragraph)."""
    parts = []
    for section in sections:
        if section.title:
            parts.append(f"### {section.title}")
        if section.body:
            parts.append(section.body)
    return "\n\n".join(parts)


class ChatDetailPane(QWidget):
    """The chosen chat's sections as tabs (module docstring).

    Signals:
        observation_requested(int): show this observation in the observations table
        saved_filter_changed(): the Saved tab's type or search settled
    """

    observation_requested = Signal(int)
    saved_filter_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatDetail")
        self.setAccessibleName(translate("ChatsPage", "Chat"))
        self.detail: ChatDetail | None = None
        self.timeline: Timeline | None = None
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("chatTabs")
        self.tabs.setAccessibleName(translate("ChatsPage", "Chat sections"))
        self.saved_tab = self._build_saved()
        self.summary_tab = self._build_summary()
        self.context_tab = self._build_context()
        self.prompts_tab = self._build_prompts()
        self.timeline_tab = self._build_timeline()
        self.next_context = NextContextPanel(self)
        # Short titles, so the six tabs fit beside or below the list; the tooltip says it all.
        for widget, title, whole in (
            (
                self.saved_tab,
                translate("ChatsPage", "Saved"),
                translate("ChatsPage", "Saved in this chat"),
            ),
            (
                self.summary_tab,
                translate("ChatsPage", "Summary"),
                translate("ChatsPage", "Session summary"),
            ),
            (
                self.context_tab,
                translate("ChatsPage", "Context"),
                translate("ChatsPage", "Loaded context"),
            ),
            (self.prompts_tab, translate("ChatsPage", "Prompts"), None),
            (self.timeline_tab, translate("ChatsPage", "Timeline"), None),
            (self.next_context, translate("ChatsPage", "Next chat"), None),
        ):
            tab = self.tabs.addTab(widget, title)
            if whole is not None:
                self.tabs.setTabToolTip(tab, whole)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SAVED_SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self.saved_filter_changed)
        self.saved_search.textChanged.connect(self._search_timer.start)
        self.saved_type.currentIndexChanged.connect(self._on_type_chosen)
        theme.notifier().changed.connect(self._paint_timeline_anchor)

    # -- building ------------------------------------------------------------------------------

    def _build_saved(self) -> QWidget:
        box = QWidget(self)
        self.saved_type = QComboBox(box)
        self.saved_type.setObjectName("chatSavedType")
        self.saved_type.setAccessibleName(translate("ChatsPage", "Type of the saved observations"))
        self.saved_type.addItem(translate("ChatsPage", "All types"))
        self.saved_type.addItems(list(OBSERVATION_TYPES))
        self.saved_search = QLineEdit(box)
        self.saved_search.setObjectName("chatSavedSearch")
        self.saved_search.setClearButtonEnabled(True)
        self.saved_search.setPlaceholderText(
            translate("ChatsPage", "Search title, content and topic key")
        )
        self.saved_search.setAccessibleName(translate("ChatsPage", "Search what this chat saved"))
        self.saved = _table(
            box,
            "chatSaved",
            (
                translate("ChatsPage", "Pinned"),
                translate("ChatsPage", "Type"),
                translate("ChatsPage", "Updated"),
                translate("ChatsPage", "Title"),
            ),
        )
        self.saved.setAccessibleName(translate("ChatsPage", "Saved in this chat"))
        self.saved.setToolTip(
            translate("ChatsPage", "Double-click (or press Enter) to show it in the table")
        )
        self.saved.setItemDelegateForColumn(1, TypeBadgeDelegate(self.saved))
        self.saved.activated.connect(self._on_activated)
        self.saved_note = QLabel(box)
        self.saved_note.setObjectName("chatSavedNote")
        self.saved_note.setWordWrap(True)
        theme.set_text_tone(self.saved_note, "subdued")
        filters = QHBoxLayout()
        filters.addWidget(self.saved_type)
        filters.addWidget(self.saved_search, 1)
        layout = QVBoxLayout(box)
        layout.addLayout(filters)
        layout.addWidget(self.saved, 1)
        layout.addWidget(self.saved_note)
        return box

    def _build_summary(self) -> QWidget:
        self.summary = ContentBrowser(self)
        self.summary.setObjectName("chatSummary")
        self.summary.setAccessibleName(translate("ChatsPage", "Session summary"))
        self.summary.setPlaceholderText(translate("ChatsPage", "No summary"))
        return self.summary

    def _build_context(self) -> QWidget:
        box = QWidget(self)
        self.context = RecordedTextView(box)
        self.context.setObjectName("chatLoadedContext")
        self.context.setAccessibleName(translate("ChatsPage", "Loaded context"))
        i18n.mark_data(self.context)
        self.context_note = QLabel(box)
        self.context_note.setObjectName("chatLoadedContextNote")
        self.context_note.setWordWrap(True)
        self.copy_context = QPushButton(translate("ChatsPage", "&Copy loaded context"), box)
        self.copy_context.setObjectName("copyLoadedContextButton")
        self.copy_context.setAccessibleName(translate("ChatsPage", "Copy loaded context"))
        self.copy_context.setToolTip(
            translate("ChatsPage", "Copy the exact text the plugin injected when this chat began")
        )
        self.copy_context.clicked.connect(self.on_copy_context)
        row = QHBoxLayout()
        row.addWidget(self.context_note, 1)
        row.addWidget(self.copy_context)
        layout = QVBoxLayout(box)
        layout.addLayout(row)
        layout.addWidget(self.context, 1)
        return box

    def _build_prompts(self) -> QWidget:
        box = QWidget(self)
        self.prompts = _table(
            box, "chatPrompts", (translate("ChatsPage", "When"), translate("ChatsPage", "Prompt"))
        )
        self.prompts.setAccessibleName(translate("ChatsPage", "Prompts"))
        self.prompts.setWordWrap(True)
        self.prompts_note = QLabel(box)
        self.prompts_note.setObjectName("chatPromptsNote")
        self.prompts_note.setWordWrap(True)
        theme.set_text_tone(self.prompts_note, "subdued")
        layout = QVBoxLayout(box)
        layout.addWidget(self.prompts, 1)
        layout.addWidget(self.prompts_note)
        return box

    def _build_timeline(self) -> QWidget:
        box = QWidget(self)
        self.timeline_view = _table(
            box,
            "chatTimeline",
            (
                translate("ChatsPage", "Created"),
                translate("ChatsPage", "Type"),
                translate("ChatsPage", "Title"),
            ),
        )
        self.timeline_view.setAccessibleName(translate("ChatsPage", "Timeline"))
        self.timeline_view.setToolTip(
            translate("ChatsPage", "Double-click (or press Enter) to show it in the table")
        )
        self.timeline_view.setItemDelegateForColumn(1, TypeBadgeDelegate(self.timeline_view))
        self.timeline_view.activated.connect(self._on_activated)
        self.timeline_note = QLabel(box)
        self.timeline_note.setObjectName("chatTimelineNote")
        self.timeline_note.setWordWrap(True)
        layout = QVBoxLayout(box)
        layout.addWidget(self.timeline_note)
        layout.addWidget(self.timeline_view, 1)
        self.clear_timeline()
        return box

    # -- what the page calls -------------------------------------------------------------------

    def needed_width(self) -> int:
        """The width that shows every tab whole (narrower, the tabs hide behind arrows)."""
        return self.tabs.tabBar().sizeHint().width() + 2 * self.tabs.style().pixelMetric(
            QStyle.PixelMetric.PM_DefaultFrameWidth, None, self.tabs
        )

    def saved_type_filter(self) -> str | None:
        index = self.saved_type.currentIndex()
        return OBSERVATION_TYPES[index - 1] if index > 0 else None

    def saved_text(self) -> str:
        return self.saved_search.text()

    def is_typing(self) -> bool:
        return self._search_timer.isActive()

    def clear(self) -> None:
        """No chat chosen."""
        self.detail = None
        self.show_saved([])
        self.saved_note.clear()
        self.summary.clear()
        self.context.set_recorded(None)
        self.context_note.clear()
        self.copy_context.setEnabled(False)
        self.prompts.setRowCount(0)
        self.prompts_note.clear()

    def show_detail(self, detail: ChatDetail) -> None:
        """Fill the summary, loaded context and prompts of this chat."""
        self.detail = detail
        self._show_summary(detail)
        self._show_context(detail)
        self._show_prompts(detail)

    def _show_summary(self, detail: ChatDetail) -> None:
        if detail.summary is None:
            self.summary.clear()
        elif detail.sections:
            self.summary.setMarkdown(summary_markdown(detail.sections))
        else:
            self.summary.setMarkdown(detail.summary)

    def _show_context(self, detail: ChatDetail) -> None:
        self.context.set_recorded(detail.context)
        self.copy_context.setEnabled(detail.context is not None)
        if detail.context is None:
            theme.set_text_tone(self.context_note, "warning")
            self.context_note.setText(i18n.shown(detail.context_missing or ""))
            return
        theme.set_text_tone(self.context_note, "subdued")
        size = i18n.plural(
            utf16_len(detail.context),
            translate("ChatsPage", "{n} character"),
            translate("ChatsPage", "{n} characters"),
        )
        self.context_note.setText(
            translate("ChatsPage", "Injected when the chat began, {when}: {size}").format(
                when=dates.detailed(detail.context_at, now_ms()), size=size
            )
        )

    def _show_prompts(self, detail: ChatDetail) -> None:
        prompts = detail.prompts
        self.prompts.setRowCount(len(prompts))
        now = now_ms()
        for row, prompt in enumerate(prompts):
            when = _item(dates.relative(prompt.created_at, now), dates.exact(prompt.created_at))
            self.prompts.setItem(row, 0, when)
            self.prompts.setItem(row, 1, _item(prompt.content, prompt.content))
        if detail.prompts_missing:
            self.prompts_note.setText(i18n.shown(detail.prompts_missing))
        elif not prompts:
            self.prompts_note.setText(translate("ChatsPage", "No prompts recorded in this chat"))
        else:
            self.prompts_note.clear()

    def show_saved(self, rows: Sequence[Observation]) -> None:
        """Fill *Saved in this chat*, in the order given (the web tab's)."""
        self.saved.setRowCount(len(rows))
        now = now_ms()
        pin = pin_glyph()
        for n, row in enumerate(rows):
            self.saved.setItem(n, 0, _item(pin if row.pinned else "", id=row.id))
            self.saved.setItem(n, 1, _item(row.type, id=row.id))
            updated = _item(dates.relative(row.updated_at, now), dates.exact(row.updated_at))
            updated.setData(ID_ROLE, row.id)
            self.saved.setItem(n, 2, updated)
            self.saved.setItem(n, 3, _item(row.title, row.title, row.id))
        filtered = bool(self.saved_type_filter() or self.saved_text().strip())
        if rows or self.detail is None:
            self.saved_note.clear()
        elif filtered:
            self.saved_note.setText(translate("ChatsPage", "Nothing this chat saved matches"))
        else:
            self.saved_note.setText(
                translate("ChatsPage", "This chat saved nothing that is still remembered")
            )

    # -- timeline ------------------------------------------------------------------------------

    def clear_timeline(self) -> None:
        self.timeline = None
        self.timeline_view.setRowCount(0)
        theme.set_text_tone(self.timeline_note, "subdued")
        self.timeline_note.setText(
            translate(
                "ChatsPage",
                "Choose Timeline on an observation to see what was saved just before and after"
                " it, as the agent's memory_timeline shows it",
            )
        )

    def show_timeline(self, found: Timeline) -> None:
        """The neighbours oldest first, the anchor in bold and highlighted."""
        self.timeline = found
        entries = found.entries
        self.timeline_view.setRowCount(len(entries))
        now = now_ms()
        for n, row in enumerate(entries):
            created = _item(dates.relative(row.created_at, now), dates.exact(row.created_at))
            created.setData(ID_ROLE, row.id)
            self.timeline_view.setItem(n, 0, created)
            self.timeline_view.setItem(n, 1, _item(row.type, id=row.id))
            self.timeline_view.setItem(n, 2, _item(row.title, row.title, row.id))
        self._paint_timeline_anchor()
        self.timeline_view.setCurrentCell(len(found.before), 0)
        self._show_timeline_note(found)

    def _show_timeline_note(self, found: Timeline) -> None:
        anchor = found.anchor
        if found.by_session:
            text = translate(
                "ChatsPage", "Observation #{id} and what its chat saved just before and after it"
            ).format(id=anchor.id)
        else:
            text = translate(
                "ChatsPage",
                "Observation #{id} belongs to no chat: its neighbours in project {project}",
            ).format(id=anchor.id, project=anchor.project)
        if not found.agent_answers:
            text += " " + translate(
                "ChatsPage",
                "It is forgotten: the agent's memory_timeline answers nothing for it; its"
                " neighbours are shown anyway.",
            )
            theme.set_text_tone(self.timeline_note, "warning")
        else:
            theme.set_text_tone(self.timeline_note, "subdued")
        self.timeline_note.setText(text)

    def _paint_timeline_anchor(self) -> None:
        """Bold, on the theme's info colours (read now: the theme may have changed)."""
        found = self.timeline
        if found is None:
            return
        tone = theme.colors().tone("info")
        anchor_row = len(found.before)
        for row in range(self.timeline_view.rowCount()):
            for column in range(self.timeline_view.columnCount()):
                item = self.timeline_view.item(row, column)
                if item is None:
                    continue
                font = QFont(self.timeline_view.font())
                font.setBold(row == anchor_row)
                item.setFont(font)
                if row == anchor_row:
                    item.setBackground(QBrush(QColor(tone.background)))
                    item.setForeground(QBrush(QColor(tone.text)))
                else:
                    item.setData(Qt.ItemDataRole.BackgroundRole, None)
                    item.setData(Qt.ItemDataRole.ForegroundRole, None)

    # -- the person's actions ------------------------------------------------------------------

    def on_copy_context(self) -> None:
        """The recorded text, exactly (not the view's rendering of it)."""
        QGuiApplication.clipboard().setText(self.context.toPlainText())

    def _on_type_chosen(self) -> None:
        self._search_timer.stop()
        self.saved_filter_changed.emit()

    def _on_activated(self, index) -> None:
        found = index.data(ID_ROLE)
        if found is None:
            view = self.sender()
            item = view.item(index.row(), 0) if isinstance(view, QTableWidget) else None
            found = item.data(ID_ROLE) if item is not None else None
        if isinstance(found, int):
            self.observation_requested.emit(found)

    def stop(self) -> None:
        self._search_timer.stop()
