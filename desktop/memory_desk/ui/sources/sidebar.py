"""The sidebar: the open sources grouped by kind, their counts, and the selected one's details.

Under the list, the selected source is described in the person's words (what it holds, what
is wrong with it); the technical lines (its path, its size, the schema, Alisio's config file
and memory settings as the config names them) wait behind a "Details" disclosure, closed by
default and remembered in the UI state.

A database's counts are a scan of its whole table (slow on a million rows not in the page
cache), so they are read off the main thread (:class:`DatabaseCounts`), the last
known ones shown meanwhile; the observations page's own answers carry them for the source
in front.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QLocale, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core import StoreError
from memory_desk.core.hidden_text import reveal
from memory_desk.core.kinds import SourceKind
from memory_desk.core.observations import Totals
from memory_desk.ui import i18n, theme
from memory_desk.ui import settings as settings_module
from memory_desk.ui.i18n import translate
from memory_desk.ui.plain import as_shown, from_shown
from memory_desk.ui.sources.registry import Source
from memory_desk.ui.workers.background import BackgroundCall

SOURCE_ROLE = Qt.ItemDataRole.UserRole
GONE_ROLE = Qt.ItemDataRole.UserRole + 1  # True while the source's path holds nothing
DETAILS_STATE_KEY = "sidebar/details_open"


class DatabaseCounts(QObject):
    """Each source's counts, read on a thread of its own (one per source, so a slow one never
    holds up another), latest answer only: a database's totals, or a persona folder's
    (entries, entries with a problem).

    Signals:
        counted(Source, object, object): the source, the store counted, its counts
        failed(Source, object, str): the source, the store, and why it could not be counted
    """

    counted = Signal(object, object, object)
    failed = Signal(object, object, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._calls: dict[int, BackgroundCall] = {}
        self._asked: dict[int, tuple[Source, object]] = {}  # what each call counts

    def count(self, source: Source) -> None:
        """Count ``source`` in the background (``counted`` or ``failed``): a database's
        totals, or a persona folder's (entries, entries with a problem), read by a folder
        object of the worker's own so the page's listing is never touched from two threads."""
        key = id(source)
        call = self._calls.get(key)
        if call is None:
            call = BackgroundCall(self)
            call.finished.connect(lambda _g, totals: self.counted.emit(*self._asked[key], totals))
            call.failed.connect(lambda _g, message: self.failed.emit(*self._asked[key], message))
            self._calls[key] = call
        store = source.store
        self._asked[key] = (source, store)
        if source.kind == SourceKind.DB:
            call.submit(lambda: store.summary().totals)
        else:
            path = source.path
            call.submit(lambda: _folder_counts(path))

    def is_counting(self) -> bool:
        return any(call.is_busy() for call in self._calls.values())

    def stop(self) -> None:
        for call in self._calls.values():
            call.stop()


def _folder_counts(path: Path) -> tuple[int, int]:
    """(entries, entries with a problem) of the persona folder at ``path``, read afresh: a
    file the page's listing already parsed (and did not change since) is not parsed again."""
    from memory_desk.core.persona.scan import folder_counts  # (not imported for a database)

    return folder_counts(path)


# How long a folder's background count waits for the persona page to count it first.
FOLDER_COUNT_DELAY_MS = 2500
# A folder with no more entry files than this is counted at once (the page lists it at once).
FOLDER_COUNT_AT_ONCE = 300


class SourceSidebar(QWidget):
    """A row per source (label and count) under its kind's group, and a details panel.

    Signals:
        current_changed(Source, Source | None): the person picked another source (the second
            is the one before, to go back to with ``select(previous, quietly=True)``)
    """

    current_changed = Signal(object, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sourceSidebar")
        self.tree = self._build_tree()
        self._db_group = self._add_group(translate("SourceSidebar", "Alisio observations"))
        self._persona_group = self._add_group(translate("SourceSidebar", "Memory of the person"))
        self.info = self._text_label("sourceInfo")
        self.details_toggle = self._build_details_toggle()
        self.details = self._text_label("sourceDetails")
        self.details.setAccessibleName(translate("SourceSidebar", "Technical details"))
        theme.set_text_tone(self.details, "subdued")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.info)
        layout.addWidget(self.details_toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.details)
        self._set_details_open(self._details_were_open())
        self.tree.currentItemChanged.connect(self._on_current_item_changed)
        self.details_toggle.toggled.connect(self._on_details_toggled)
        theme.notifier().changed.connect(self._paint_rows)
        # per folder: (entries, with a problem) of its last background count
        self._folder_problems: dict[int, tuple[int, int]] = {}
        self._listed_elsewhere: Callable[[Source], bool] = lambda _source: False
        self._counts_later: dict[int, QTimer] = {}  # folder counts waiting for the page's
        self._counts = DatabaseCounts(self)
        self._counts.counted.connect(self._on_counted)
        self._counts.failed.connect(self._on_count_failed)

    def _build_tree(self) -> QTreeWidget:
        tree = QTreeWidget(self)
        tree.setObjectName("sourcesList")
        tree.setAccessibleName(translate("SourceSidebar", "Memory sources"))
        tree.setAccessibleDescription(
            translate(
                "SourceSidebar",
                "Alisio databases and agents' memory folders, with how much each holds; pick one to show it.",
            )
        )
        tree.setColumnCount(3)  # label, counts, changes waiting for review
        tree.setHeaderHidden(True)
        tree.setRootIsDecorated(False)
        tree.setIndentation(12)
        tree.setMinimumWidth(200)
        tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        tree.header().setStretchLastSection(False)
        tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        tree.header().setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        return tree

    def _text_label(self, name: str) -> QLabel:
        label = QLabel(self)
        label.setObjectName(name)
        label.setTextFormat(Qt.TextFormat.PlainText)  # paths and messages, not HTML
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        label.setContentsMargins(4, 2, 4, 2)
        return label

    def _build_details_toggle(self) -> QToolButton:
        toggle = QToolButton(self)
        toggle.setObjectName("sourceDetailsToggle")
        toggle.setText(translate("SourceSidebar", "Details"))
        toggle.setCheckable(True)
        toggle.setAutoRaise(True)
        toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toggle.setToolTip(
            translate("SourceSidebar", "Show or hide the path, size and settings of this source")
        )
        toggle.setAccessibleDescription(
            translate(
                "SourceSidebar",
                "Shows the technical lines: the file or folder path, its size, the schema and Alisio's memory settings.",
            )
        )
        return toggle

    def _add_group(self, title: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem(self.tree, [title, ""])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        item.setExpanded(True)
        return item

    # -- the details disclosure -----------------------------------------------------------------

    @staticmethod
    def _details_were_open() -> bool:
        value = settings_module.ui_state().value(DETAILS_STATE_KEY, False)
        return value is True or str(value).lower() == "true"

    def details_open(self) -> bool:
        return self.details_toggle.isChecked()

    def _set_details_open(self, shown: bool) -> None:
        self.details_toggle.setChecked(shown)
        self._show_details(shown)

    def _show_details(self, shown: bool) -> None:
        self.details_toggle.setArrowType(
            Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow
        )
        self.details.setVisible(shown and bool(self.details.text()))

    def _on_details_toggled(self, shown: bool) -> None:
        """Open or close the technical lines, and remember it for the next start."""
        self._show_details(shown)
        state = settings_module.ui_state()
        state.setValue(DETAILS_STATE_KEY, shown)
        settings_module.sync_private(state)

    # -- rows -----------------------------------------------------------------------------------

    def add(self, source: Source) -> None:
        group = self._db_group if source.kind == SourceKind.DB else self._persona_group
        item = QTreeWidgetItem(group, [reveal(source.label), ""])  # hidden characters shown
        item.setToolTip(0, as_shown(reveal(str(source.path))))
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

    def _paint_rows(self) -> None:
        """Gone rows in the theme's subdued colour (and italic: colour is not the only sign);
        the others in the palette's text colour, which follows the theme by itself."""
        subdued = QColor(theme.colors().subdued)
        for item in self._items():
            gone = bool(item.data(0, GONE_ROLE))
            item.setData(0, Qt.ItemDataRole.ForegroundRole, subdued if gone else None)
            font = item.font(0)
            font.setItalic(gone)
            item.setFont(0, font)

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
            if bool(item.data(0, GONE_ROLE)) == source.path.exists():
                self.recount(source)

    def recount(
        self,
        source: Source,
        *,
        totals: Totals | None = None,
        folder_counts: tuple[int, int] | None = None,
    ) -> None:
        """Show a source's counts; ``totals`` (a database) or ``folder_counts`` (a folder's
        entries and entries with a problem) when a page already has them."""
        item = self._item_for(source)
        if item is None:
            return
        gone = not source.path.exists()
        item.setData(0, GONE_ROLE, gone)
        if gone:
            item.setText(1, translate("SourceSidebar", "gone"))
            item.setToolTip(
                1,
                as_shown(
                    translate("SourceSidebar", "{path} is no longer there").format(path=source.path)
                ),
            )
        else:
            self._count(item, source, totals, folder_counts)
        self._paint_rows()
        if self.current() is source:
            self.show_info(source)

    def _count(
        self,
        item: QTreeWidgetItem,
        source: Source,
        totals: Totals | None,
        folder_counts: tuple[int, int] | None,
    ) -> None:
        try:
            if source.kind == SourceKind.DB:
                if totals is None:
                    # Read off the main thread; the last known counts (if any) meanwhile.
                    self._counts.count(source)
                    last = source.store.last_summary()
                    if last is None:
                        item.setText(1, "…")
                        item.setToolTip(1, translate("SourceSidebar", "Counting…"))
                        return
                    totals = last.totals
                item.setText(1, i18n.number(totals.live))
                item.setToolTip(1, describe_totals(totals))
            else:
                if folder_counts is not None:
                    self._cancel_count_later(source)  # the page counted it
                    count, problems = folder_counts
                else:
                    # No file is read on the main thread (parsing a folder is slow). A
                    # small folder's names are counted now, its problems in the background
                    # at once; a big one is not even listed here (its names alone would
                    # hold the start): it shows its last listing's counts (or
                    # "…") until a count a little later (the page's listing may come first).
                    from memory_desk.core.persona.scan import has_at_most  # (see _folder_counts)

                    store = source.store
                    problems = store.problem_count()
                    if has_at_most(store.path, FOLDER_COUNT_AT_ONCE):
                        count = len(store.names())
                        if problems is None:
                            self._counts.count(source)
                            problems = self._folder_problems.get(id(source), (0, 0))[1]
                    else:
                        self._count_later(source)
                        last = self._folder_problems.get(id(source))
                        if problems is not None:
                            count = store.entry_count()
                        elif last is not None:
                            count, problems = last
                        else:
                            item.setText(1, "…")
                            item.setToolTip(1, translate("SourceSidebar", "Counting…"))
                            return
                item.setText(1, i18n.number(count) + (" ⚠" if problems else ""))
                item.setToolTip(1, describe_entries(count, problems))
        except StoreError as exc:
            item.setText(1, "!")
            item.setToolTip(1, as_shown(i18n.shown(exc)))

    def show_waiting(self, source: Source, waiting: int) -> None:
        """How many of the source's changes wait for review (the third column, blank at 0):
        a sign and a number, with a sentence in the tooltip and for screen readers."""
        item = self._item_for(source)
        if item is None:
            return
        if not waiting:
            item.setText(2, "")
            item.setToolTip(2, "")
            return
        tip = i18n.plural(
            waiting,
            translate("SourceSidebar", "{n} change to review (View ▸ Since you last looked)"),
            translate("SourceSidebar", "{n} changes to review (View ▸ Since you last looked)"),
        )
        item.setText(2, f"✱{i18n.number(waiting)}")
        item.setToolTip(2, tip)
        item.setData(2, Qt.ItemDataRole.AccessibleTextRole, tip)

    def is_counting(self) -> bool:
        """True while a source's counts are being read in the background, or wait to be."""
        return bool(self._counts_later) or self._counts.is_counting()

    def stop(self) -> None:
        """Wait for the counts being read; count no more (the window is closing)."""
        for key in list(self._counts_later):
            self._counts_later.pop(key).stop()
        self._counts.stop()

    def _count_later(self, source: Source) -> None:
        """Count a folder's problems in the background, but not at once.

        The persona page is usually listing that very folder (at start, or after the agent
        wrote): its listing gives the counts, and a second listing running beside it would
        fight it for the interpreter (one lstat call per file, each giving up the GIL) and
        delay the page's first screen. If the page has not counted it by then, the
        count runs."""
        key = id(source)
        if key in self._counts_later:
            return
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(FOLDER_COUNT_DELAY_MS)

        def count() -> None:
            if self._listed_elsewhere(source):
                timer.start()  # the page is still listing it: its counts come with it
                return
            if self._counts_later.pop(key, None) is not None:
                timer.deleteLater()
                self._counts.count(source)

        timer.timeout.connect(count)
        self._counts_later[key] = timer
        timer.start()

    def set_listing_probe(self, probe: Callable[[Source], bool]) -> None:
        """``probe(source)`` tells whether another part of the window is listing the source's
        folder right now (the persona page: its listing brings the counts). A count held back
        by :meth:`_count_later` then waits again instead of listing the folder beside it."""
        self._listed_elsewhere = probe

    def _cancel_count_later(self, source: Source) -> None:
        timer = self._counts_later.pop(id(source), None)
        if timer is not None:
            timer.stop()
            timer.deleteLater()

    def _on_counted(self, source: Source, store: object, counted: object) -> None:
        item = self._item_for(source)
        if source.store is not store or item is None or item.data(0, GONE_ROLE):
            return  # another file now, or gone since: that row says so already
        if source.kind == SourceKind.DB:
            self.recount(source, totals=counted)
            return
        count, problems = counted
        self._folder_problems[id(source)] = (count, problems)
        item.setText(1, i18n.number(count) + (" ⚠" if problems else ""))
        item.setToolTip(1, describe_entries(count, problems))
        if self.current() is source:
            self.show_info(source)

    def _on_count_failed(self, source: Source, store: object, message: str) -> None:
        item = self._item_for(source)
        if source.store is store and item is not None and not item.data(0, GONE_ROLE):
            item.setText(1, "!")
            item.setToolTip(1, as_shown(message))
            if self.current() is source:
                self.show_info(source)

    def show_info(self, source: Source | None) -> None:
        """What the source holds in words under the list, and its technical lines behind
        "Details"."""
        if source is None:
            self.info.clear()
            self.details.clear()
            self._show_details(self.details_open())
            return
        item = self._item_for(source)
        summary = [from_shown(item.toolTip(1))] if item is not None and item.toolTip(1) else []
        if source.kind == SourceKind.DB:
            summary.extend(_database_notes(source))
        self.info.setText("\n".join(summary))
        self.details.setText(reveal("\n".join(_technical_lines(source))))
        self._show_details(self.details_open())


def describe_totals(totals: Totals) -> str:
    """``312 live · 30 forgotten · 14 pinned`` in the person's language (one template: the
    Spanish words read right for any number)."""
    return translate(
        "SourceSidebar", "{live} live · {forgotten} forgotten · {pinned} pinned"
    ).format(
        live=i18n.number(totals.live),
        forgotten=i18n.number(totals.forgotten),
        pinned=i18n.number(totals.pinned),
    )


def describe_entries(count: int, problems: int) -> str:
    """``3 entries · 2 with problems`` in the person's language."""
    return i18n.plural(
        count,
        translate("SourceSidebar", "{n} entry · {problems} with problems"),
        translate("SourceSidebar", "{n} entries · {problems} with problems"),
        problems=i18n.number(problems),
    )


def _database_notes(source: Source) -> list[str]:
    """What a person needs to know about an Alisio database, without its config's keys."""
    notes = []
    if source.info.get("demo"):
        notes.append(translate("SourceSidebar", "Demo data in a temporary folder"))
    if "enabled" in source.info and not source.info["enabled"]:
        notes.append(translate("SourceSidebar", "The memory plugin is disabled in Alisio's config"))
    notes.extend(i18n.shown(problem) for problem in source.info.get("problems", []))
    return notes


def _technical_lines(source: Source) -> list[str]:
    """The path, the size, the schema, Alisio's config file and memory settings (as named in
    the config file the person would edit)."""
    lines = [translate("SourceSidebar", "Path: {path}").format(path=source.path)]
    if source.kind != SourceKind.DB:
        return lines
    size = _database_size(source)
    if size is not None:
        lines.append(translate("SourceSidebar", "Size: {size}").format(size=size))
    versions = ", ".join(str(v) for v in sorted(source.store.schema_versions))
    lines.append(translate("SourceSidebar", "Schema {versions}").format(versions=versions))
    if source.info.get("config"):
        lines.append(
            translate("SourceSidebar", "Config: {path}").format(path=source.info["config"])
        )
    configured = source.info.get("configured", ())
    for key, value in source.info.get("settings", {}).items():
        # true/false as in the config file the person would edit, not Python's True
        text = json.dumps(value) if isinstance(value, bool) else str(value)
        if key in configured:
            lines.append(translate("SourceSidebar", "{key}: {value}").format(key=key, value=text))
        else:
            lines.append(
                translate("SourceSidebar", "{key}: {value} (default)").format(key=key, value=text)
            )
    return lines


def _database_size(source: Source) -> str | None:
    """The database with its write-ahead log, as the locale writes sizes (``1.2 MB``)."""
    total = 0
    for suffix in ("", "-wal"):
        try:
            total += source.path.with_name(source.path.name + suffix).stat().st_size
        except OSError:
            if not suffix:
                return None
    return i18n.locale().formattedDataSize(
        total, 1, QLocale.DataSizeFormat.DataSizeTraditionalFormat
    )
