"""Help ▸ Keyboard shortcuts: every shortcut of the window, read from the window itself.

The list is built each time it opens from the window's ``QAction``s and ``QShortcut``s (and
the few keys a page handles in its own widgets, which it describes with ``key_help()``), so
it cannot drift from what the keys really do.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLineEdit,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memory_desk.ui.i18n import translate

# Where a page's keys work, by the page's object name (an unknown page shows its name).
PAGE_TITLES = {
    "observationsPage": "Observations",
    "personaPage": "Memory of the person",
    "chatsPage": "Chats",
    "overviewPage": "Overview",
    "pruningPage": "Pruning assistant",
    "reviewPage": "Since you last looked",
}
_NATIVE = QKeySequence.SequenceFormat.NativeText


def everywhere() -> str:
    """Where a window-wide key works, in the person's language."""
    return translate("ShortcutsDialog", "Everywhere")


def page_title(object_name: str) -> str:
    """Where a page's keys work: the page's name in the person's language."""
    titles = {
        "observationsPage": translate("ShortcutsDialog", "Observations"),
        "personaPage": translate("ShortcutsDialog", "Memory of the person"),
        "chatsPage": translate("ShortcutsDialog", "Chats"),
        "overviewPage": translate("ShortcutsDialog", "Overview"),
        "pruningPage": translate("ShortcutsDialog", "Pruning assistant"),
        "reviewPage": translate("ShortcutsDialog", "Since you last looked"),
    }
    return titles.get(object_name, object_name)


def collect_shortcuts(window: QWidget) -> list[tuple[str, str, str]]:
    """(where, keys, what) for every shortcut of ``window``, sorted, without repeats."""
    pages = window.findChild(QStackedWidget, "pages")
    rows: set[tuple[str, str, str]] = set()
    for action in window.findChildren(QAction):
        keys = ", ".join(k.toString(_NATIVE) for k in action.shortcuts() if not k.isEmpty())
        if keys:
            rows.add((_where(action, pages), keys, _action_text(action)))
    for shortcut in window.findChildren(QShortcut):
        keys = ", ".join(k.toString(_NATIVE) for k in shortcut.keys() if not k.isEmpty())  # noqa: SIM118 (a Qt call)
        if keys:
            what = (
                shortcut.whatsThis()
                or shortcut.objectName()
                or translate("ShortcutsDialog", "(undescribed)")
            )
            rows.add((_where(shortcut, pages), keys, what))
    if pages is not None:
        for index in range(pages.count()):
            page = pages.widget(index)
            key_help = getattr(page, "key_help", None)
            if key_help is not None:
                where = page_title(page.objectName())
                rows.update((where, keys, what) for keys, what in key_help())
    titles = [page_title(name) for name in PAGE_TITLES]
    order = {everywhere(): 0, **{title: n + 1 for n, title in enumerate(titles)}}
    return sorted(rows, key=lambda row: (order.get(row[0], 99), row[0], row[2].lower()))


def _action_text(action: QAction) -> str:
    """What the action does: its "What's this" when set (an action whose text changes, like
    Undo's), else its menu text without mnemonics, tab or trailing ellipsis."""
    if action.whatsThis():
        return action.whatsThis()
    text = action.text().split("\t")[0].replace("&&", "\0").replace("&", "").replace("\0", "&")
    return text.rstrip("…").rstrip(".") or action.objectName()


def _where(item: QObject, pages: QStackedWidget | None) -> str:
    """The page an action or shortcut belongs to (its parent inside one), else everywhere."""
    node = item.parent()
    while node is not None and pages is not None:
        if isinstance(node, QWidget) and node.parentWidget() is pages:
            return page_title(node.objectName())
        node = node.parent()
    return everywhere()


class ShortcutsDialog(QDialog):
    """The keys grouped by where they work (everywhere first, then each page), with a field
    that filters them by key or by what they do; not modal, so it can stay open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(translate("ShortcutsDialog", "Keyboard shortcuts"))
        self.resize(620, 560)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("shortcutsFilter")
        self.filter.setPlaceholderText(translate("ShortcutsDialog", "Find a key or an action"))
        self.filter.setAccessibleName(translate("ShortcutsDialog", "Find a key or an action"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.list = QTreeWidget(self)
        self.list.setObjectName("shortcutsList")
        self.list.setAccessibleName(translate("ShortcutsDialog", "Keyboard shortcuts"))
        self.list.setAccessibleDescription(
            translate("ShortcutsDialog", "Each key and what it does, grouped by where it works")
        )
        self.list.setHeaderLabels(
            [translate("ShortcutsDialog", "Keys"), translate("ShortcutsDialog", "Does")]
        )
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.list.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.list.header().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)

    def fill_from(self, window: QWidget) -> None:
        """Read the window's shortcuts again (a page may have gained some since)."""
        self.list.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        bold = self.list.font()
        bold.setBold(True)
        for where, keys, what in collect_shortcuts(window):
            group = groups.get(where)
            if group is None:
                group = groups[where] = QTreeWidgetItem(self.list, [where])
                group.setFirstColumnSpanned(True)
                group.setFont(0, bold)
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                group.setExpanded(True)
            item = QTreeWidgetItem(group, [keys, what])
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        self._apply_filter(self.filter.text())

    def rows(self) -> list[tuple[str, str, str]]:
        """(keys, does, where) of every key shown, for tests and accessibility checks."""
        shown = []
        for g in range(self.list.topLevelItemCount()):
            group = self.list.topLevelItem(g)
            for r in range(group.childCount()):
                item = group.child(r)
                if not item.isHidden():
                    shown.append((item.text(0), item.text(1), group.text(0)))
        return shown

    def _apply_filter(self, text: str) -> None:
        """Show the keys whose keys or description hold every word typed."""
        words = text.casefold().split()
        for g in range(self.list.topLevelItemCount()):
            group = self.list.topLevelItem(g)
            visible = 0
            for r in range(group.childCount()):
                item = group.child(r)
                haystack = f"{item.text(0)} {item.text(1)}".casefold()
                hidden = not all(word in haystack for word in words)
                item.setHidden(hidden)
                visible += not hidden
            group.setHidden(visible == 0)
