"""The sidebar: the open sources grouped by kind, their counts, and the selected one's details."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core import StoreError
from memory_desk.core.observations import Totals
from memory_desk.ui.plain import as_shown, from_shown
from memory_desk.ui.sources.registry import Source

SOURCE_ROLE = Qt.ItemDataRole.UserRole


class SourceSidebar(QWidget):
    """A row per source (label and count) under its kind's group, and a details panel.

    Signals:
        current_changed(Source, Source | None): the person picked another source (the second
            is the one before, to go back to with ``select(previous, quietly=True)``)
    """

    current_changed = Signal(object, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("sourcesList")
        self.tree.setColumnCount(2)
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setIndentation(12)
        self.tree.setMinimumWidth(200)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self._db_group = self._add_group("Alisio observations")
        self._persona_group = self._add_group("Memory of the person")
        self.info = QLabel(self)
        self.info.setObjectName("sourceInfo")
        self.info.setTextFormat(Qt.TextFormat.PlainText)  # paths and messages, not HTML
        self.info.setWordWrap(True)
        self.info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.info.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.info.setStyleSheet("QLabel { color: palette(mid); padding: 4px; }")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.info)
        self.tree.currentItemChanged.connect(self._on_current_item_changed)

    def _add_group(self, title: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem(self.tree, [title, ""])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        item.setExpanded(True)
        return item

    # -- rows -----------------------------------------------------------------------------------

    def add(self, source: Source) -> None:
        group = self._db_group if source.kind == "db" else self._persona_group
        item = QTreeWidgetItem(group, [source.label, ""])
        item.setToolTip(0, as_shown(str(source.path)))
        item.setData(0, SOURCE_ROLE, source)
        group.setExpanded(True)
        self.recount(source)

    def _items(self) -> list[QTreeWidgetItem]:
        return [
            group.child(row)
            for group in (self._db_group, self._persona_group)
            for row in range(group.childCount())
        ]

    def _item_for(self, source: Source) -> QTreeWidgetItem | None:
        for item in self._items():
            if item.data(0, SOURCE_ROLE) is source:
                return item
        return None

    def current(self) -> Source | None:
        item = self.tree.currentItem()
        return item.data(0, SOURCE_ROLE) if item is not None else None

    def select(self, source: Source | None, *, quietly: bool = False) -> None:
        """Make ``source`` current; ``quietly`` without ``current_changed`` (going back)."""
        item = self._item_for(source) if source is not None else None
        if item is None:
            return
        if quietly:
            self.tree.blockSignals(True)
        self.tree.setCurrentItem(item)
        if quietly:
            self.tree.blockSignals(False)

    def _on_current_item_changed(self, current, previous) -> None:
        source = current.data(0, SOURCE_ROLE) if current is not None else None
        if source is None:
            return
        before = previous.data(0, SOURCE_ROLE) if previous is not None else None
        self.current_changed.emit(source, before)

    # -- counts and details ---------------------------------------------------------------------

    def update_all(self) -> None:
        """Count every source again (asks each store)."""
        for item in self._items():
            self.recount(item.data(0, SOURCE_ROLE))
        self.show_info(self.current())

    def mark_presence(self) -> None:
        """Cheap: show sources that vanished as gone, and count those that came back."""
        for item in self._items():
            source = item.data(0, SOURCE_ROLE)
            if (item.text(1) == "gone") == source.path.exists():
                self.recount(source)

    def recount(
        self,
        source: Source,
        *,
        totals: Totals | None = None,
        entries: list | None = None,
    ) -> None:
        """Show a source's counts; ``totals``/``entries`` when a page already has them."""
        item = self._item_for(source)
        if item is None:
            return
        if not source.path.exists():
            item.setText(1, "gone")
            item.setToolTip(1, as_shown(f"{source.path} is no longer there"))
            item.setForeground(0, self.palette().mid())
            return
        item.setForeground(0, self.palette().text())
        try:
            if source.kind == "db":
                totals = totals or source.store.totals()
                item.setText(1, f"{totals.live:,}")
                item.setToolTip(
                    1,
                    f"{totals.live:,} live · {totals.forgotten:,} forgotten · "
                    f"{totals.pinned:,} pinned",
                )
            else:
                entries = source.store.entries() if entries is None else entries
                problems = sum(1 for entry in entries if entry.problems)
                item.setText(1, f"{len(entries)}" + (" ⚠" if problems else ""))
                item.setToolTip(1, f"{len(entries)} entries · {problems} with problems")
        except StoreError as exc:
            item.setText(1, "!")
            item.setToolTip(1, as_shown(str(exc)))
        if self.current() is source:
            self.show_info(source)

    def show_info(self, source: Source | None) -> None:
        """The details panel: the path, the counts (or why there are none), and for a
        database its schema and the Alisio settings that concern memory."""
        if source is None:
            self.info.clear()
            return
        lines = [str(source.path)]
        item = self._item_for(source)
        if item is not None and item.toolTip(1):
            lines.append(from_shown(item.toolTip(1)))  # the counts, or why there are none
        if source.kind == "db":
            versions = ", ".join(str(v) for v in sorted(source.store.schema_versions))
            lines.append(f"Schema {versions}")
            if source.info.get("demo"):
                lines.append("Demo data in a temporary folder")
            if source.info.get("config"):
                lines.append(f"Config: {source.info['config']}")
            if "enabled" in source.info and not source.info["enabled"]:
                lines.append("The memory plugin is disabled in Alisio's config")
            configured = source.info.get("configured", ())
            for key, value in source.info.get("settings", {}).items():
                default = "" if key in configured else " (default)"
                # true/false as in the config file the person would edit, not Python's True
                text = json.dumps(value) if isinstance(value, bool) else str(value)
                lines.append(f"{key}: {text}{default}")
            lines.extend(source.info.get("problems", []))
        self.info.setText("\n".join(lines))
