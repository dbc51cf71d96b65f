"""The pages, always in sight: one entry per page above the sources, with its count.

Each entry triggers the page's View action (so Ctrl+1 … Ctrl+6, the menu and this list are
one thing), shows its key in the tooltip, and follows the page in front. "Since you last
looked" carries the number of changes waiting for review.

Signals: none (the actions do the work).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate

PAGE_ROLE = Qt.ItemDataRole.UserRole


def action_text(action: QAction) -> str:
    """An action's menu text without its mnemonic."""
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")


class PageList(QListWidget):
    """``pageList``: an entry per page, from the pages' View actions, in their order."""

    def __init__(self, actions: list[tuple[str, QAction]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pageList")
        self.setAccessibleName(translate("PageList", "Pages"))
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformItemSizes(True)
        self._actions = dict(actions)
        self._counts: dict[str, int] = {}
        for name, action in actions:
            item = QListWidgetItem(action_text(action), self)
            item.setData(PAGE_ROLE, name)
            keys = action.shortcut().toString(action.shortcut().SequenceFormat.NativeText)
            item.setToolTip(f"{action.toolTip()} ({keys})" if keys else action.toolTip())
        self.itemActivated.connect(self._on_chosen)
        self.itemClicked.connect(self._on_chosen)
        rows = max(self.count(), 1)
        self.setFixedHeight(rows * self.sizeHintForRow(0) + 2 * self.frameWidth() + 2)

    def show_current(self, name: str) -> None:
        """Mark the page in front (none: the welcome page)."""
        self.blockSignals(True)
        try:
            for row in range(self.count()):
                item = self.item(row)
                item.setSelected(item.data(PAGE_ROLE) == name)
                if item.data(PAGE_ROLE) == name:
                    self.setCurrentItem(item)
            if name not in self._actions:
                self.clearSelection()
        finally:
            self.blockSignals(False)

    def set_count(self, name: str, count: int) -> None:
        """Show ``count`` beside the page's entry (none when zero)."""
        self._counts[name] = count
        for row in range(self.count()):
            item = self.item(row)
            if item.data(PAGE_ROLE) == name:
                text = action_text(self._actions[name])
                item.setText(f"{text}  ({i18n.number(count)})" if count else text)

    def _on_chosen(self, item: QListWidgetItem) -> None:
        action = self._actions.get(item.data(PAGE_ROLE))
        if action is not None:
            action.trigger()


def column(
    parent: QWidget,
    name: str,
    *,
    above: tuple[QWidget, ...] = (),
    grows: QWidget,
    below: tuple[QWidget, ...] = (),
) -> QWidget:
    """One column of the main splitter: ``grows`` takes the height the others leave (the
    sources under the page list, the pages above the message bar)."""
    holder = QWidget(parent)
    holder.setObjectName(name)
    layout = QVBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(4)
    for widget in above:
        layout.addWidget(widget)
    layout.addWidget(grows, 1)
    for widget in below:
        layout.addWidget(widget)
    return holder
