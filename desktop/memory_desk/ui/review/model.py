"""The review list: one row per change the journal found, newest first.

Every row says what happened in words (new, revised, forgotten…) with a sign before it, so
colour is never the only clue; the store's column shows its name as the sidebar does, and a
row already reviewed (shown with "Show reviewed") is in the subdued colour and italic.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from memory_desk.core.hidden_text import reveal
from memory_desk.core.journal import Change, ChangeKind
from memory_desk.core.kinds import StoreKind
from memory_desk.core.locate import folder_label
from memory_desk.ui import dates, theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.plain import as_shown

CHANGE_ROLE = Qt.ItemDataRole.UserRole
CHANGE_ID_ROLE = Qt.ItemDataRole.UserRole + 1

WHEN, WHAT, TITLE, STORE, CHAT, AGENT = range(6)
COLUMN_COUNT = 6

# A sign before the words: readable without colour, and the same in every language.
KIND_SIGNS = {
    ChangeKind.NEW: "+",
    ChangeKind.REVISED: "±",
    ChangeKind.CHANGED: "±",
    ChangeKind.FORGOTTEN: "−",
    ChangeKind.DELETED: "✕",
    ChangeKind.REMOVED: "✕",
}

_Index = QModelIndex | QPersistentModelIndex


def column_titles() -> tuple[str, ...]:
    return (
        translate("ReviewList", "When"),
        translate("ReviewList", "What happened"),
        translate("ReviewList", "Title or entry"),
        translate("ReviewList", "Store"),
        translate("ReviewList", "Chat"),
        translate("ReviewList", "Agent"),
    )


def kind_words(change: Change) -> str:
    """What happened, in the person's words (observations and persona entries differ)."""
    kind = change.kind
    if kind == ChangeKind.NEW:
        if change.store_kind == StoreKind.PERSONA:
            return translate("ReviewList", "new entry")
        return translate("ReviewList", "new")
    if kind == ChangeKind.REVISED:
        return translate("ReviewList", "revised")
    if kind == ChangeKind.FORGOTTEN:
        return translate("ReviewList", "forgotten")
    if kind == ChangeKind.DELETED:
        return translate("ReviewList", "deleted")
    if kind == ChangeKind.CHANGED:
        return translate("ReviewList", "changed")
    return translate("ReviewList", "removed")


def kind_tone(kind: ChangeKind) -> str:
    """The theme colour that goes with the words: added, removed, or changed."""
    if kind == ChangeKind.NEW:
        return "ok"
    if kind in (ChangeKind.FORGOTTEN, ChangeKind.DELETED, ChangeKind.REMOVED):
        return "error"
    return "warning"


def change_title(change: Change) -> str:
    """The title (observation) or entry name, from the newest version the journal kept."""
    version = change.new or change.old
    if change.store_kind == StoreKind.PERSONA:
        return change.target
    if version is not None and version.title:
        return f"#{change.target} {version.title}"
    return f"#{change.target}"


class ReviewListModel(QAbstractTableModel):
    """The changes, as the journal lists them (newest first); ``store_label`` names a
    change's store as the sidebar does."""

    def __init__(self, store_label: Callable[[Change], str], parent=None) -> None:
        super().__init__(parent)
        self._changes: list[Change] = []
        self._chat_prompts: dict[tuple[str, str], str] = {}
        self._store_label = store_label
        self._now = _now_ms()
        self._italic = QFont()
        self._italic.setItalic(True)

    def set_changes(
        self, changes: Sequence[Change], chat_prompts: dict[tuple[str, str], str] | None = None
    ) -> None:
        """Show these changes (their chats named by their first prompts, when known; None
        keeps the names already known). The list is short (at most a thousand rows), so it
        is reset."""
        self.beginResetModel()
        self._changes = list(changes)
        if chat_prompts is not None:
            self._chat_prompts = dict(chat_prompts)
        self._now = _now_ms()
        self.endResetModel()

    def changes(self) -> list[Change]:
        return list(self._changes)

    def change_at(self, row: int) -> Change | None:
        return self._changes[row] if 0 <= row < len(self._changes) else None

    def row_of(self, change_id: int) -> int:
        for row, change in enumerate(self._changes):
            if change.id == change_id:
                return row
        return -1

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._changes)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else COLUMN_COUNT

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return column_titles()[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        change = self.change_at(index.row()) if index.isValid() else None
        if change is None:
            return None
        column = index.column()
        if role == CHANGE_ROLE:
            return change
        if role == CHANGE_ID_ROLE:
            return change.id
        if role == Qt.ItemDataRole.DisplayRole:  # hidden characters as placeholders
            return reveal(self._display(change, column))
        if role == Qt.ItemDataRole.ToolTipRole:
            return as_shown(reveal(self._tooltip(change, column)))
        if role == Qt.ItemDataRole.ForegroundRole:
            if change.reviewed:
                return QColor(theme.colors().subdued)
            if column == WHAT:
                return QColor(_tone_text(kind_tone(change.kind)))
        if role == Qt.ItemDataRole.FontRole and change.reviewed:
            return self._italic
        if role == Qt.ItemDataRole.AccessibleDescriptionRole and column == WHAT:
            return self._reviewed_words(change)
        return None

    def _display(self, change: Change, column: int) -> str:
        if column == WHEN:
            return dates.relative(change.at_ms, self._now)
        if column == WHAT:
            return f"{KIND_SIGNS.get(change.kind, '•')} {kind_words(change)}"
        if column == TITLE:
            return change_title(change)
        if column == STORE:
            return self._store_label(change)
        if column == CHAT:
            prompt = self._chat_prompts.get((change.store, change.chat or ""))
            return f"“{prompt}”" if prompt else change.chat or ""
        if change.store_kind == StoreKind.PERSONA:  # the folder's keeper, however recorded
            return folder_label(change.store)
        return change.agent

    def _tooltip(self, change: Change, column: int) -> str:
        if column == WHEN:
            return dates.exact(change.at_ms)
        if column == STORE:
            return change.store
        if column == CHAT and change.chat:
            prompt = self._chat_prompts.get((change.store, change.chat))
            opened = translate("ReviewList", "Chat {id}").format(id=change.chat)
            return f"{opened}\n{prompt}" if prompt else opened
        if column == WHAT:
            return " ".join(filter(None, [kind_words(change), self._reviewed_words(change)]))
        return self._display(change, column)

    @staticmethod
    def _reviewed_words(change: Change) -> str:
        return translate("ReviewList", "(reviewed)") if change.reviewed else ""


def _tone_text(tone: str) -> str:
    colours = theme.colors()
    return {
        "ok": colours.ok_text,
        "error": colours.error_text,
        "warning": colours.warning_text,
    }[tone]


def _now_ms() -> int:
    return int(time.time() * 1000)
