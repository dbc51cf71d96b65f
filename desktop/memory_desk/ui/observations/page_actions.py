"""The observations page's actions: one table of QActions used by the window's Observation
menu, the page's buttons and the table's context menu, and when each may be used.

Row actions' shortcuts work wherever the focus is on the page (the page is hidden when
another one is current, and so are its shortcuts). They sit in one group that ``set_current``
switches off while another page is current, so the window's menu cannot act on rows the
person does not see.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QMenu, QToolButton, QWidget

from memory_desk.core import StoreError
from memory_desk.ui.i18n import translate
from memory_desk.ui.pages import MenuItem, make_action

# Above this many selected rows, the action states are guessed from the cached rows only.
SUMMARY_LIMIT = 2000


class ActionTable:
    """The page's actions (attributes named as the page exposes them) and their states."""

    def __init__(self, page) -> None:  # page: its ObservationsPage, whose slots they call
        self._page = page
        self.group = QActionGroup(page)
        self.group.setExclusionPolicy(QActionGroup.ExclusionPolicy.None_)
        self.pin = self._row_action(
            translate("ObservationsPage", "Pin"),
            "Ctrl+P",
            translate("ObservationsPage", "Pin or unpin the selected observations"),
            page.on_pin,
        )
        self.forget = self._row_action(
            translate("ObservationsPage", "Forget"),
            QKeySequence.StandardKey.Delete,
            translate(
                "ObservationsPage", "Forget the selected observations (undo brings them back)"
            ),
            page.on_forget,
        )
        self.restore = self._row_action(
            translate("ObservationsPage", "Restore"),
            "Ctrl+R",
            translate("ObservationsPage", "Bring the selected forgotten observations back"),
            page.on_restore,
        )
        self.edit = self._row_action(
            translate("ObservationsPage", "Edit"),
            "F2",
            translate("ObservationsPage", "Edit the current observation"),
            page.on_edit,
        )
        self.delete = self._row_action(
            translate("ObservationsPage", "Delete permanently…"),
            "Shift+Del",
            translate(
                "ObservationsPage", "Delete the selected observations for good (cannot be undone)"
            ),
            page.on_delete,
        )
        find = make_action(
            page,
            "findAction",
            translate("ObservationsPage", "Find"),
            QKeySequence.StandardKey.Find,
            page.reading.focus_search,
            translate("ObservationsPage", "Go to the search box"),
        )
        find.setWhatsThis(find.statusTip())
        find.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.agent_search = make_action(
            page,
            "agentSearchAction",
            translate("ObservationsPage", "Search as the agent…"),
            "Ctrl+Shift+F",
            page.on_agent_search,
            translate(
                "ObservationsPage",
                "See what the agent's memory_search would return for the search text",
            ),
        )
        self.agent_search.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.group.addAction(self.agent_search)
        self.open_chat = self._row_action(
            translate("ObservationsPage", "Open its chat"),
            "Ctrl+Shift+C",
            translate(
                "ObservationsPage",
                "Show the chat that saved the current observation: its summary, prompts and"
                " loaded context",
            ),
            page.on_open_chat,
        )
        self.open_chat.setObjectName("openChatAction")
        self.timeline = self._row_action(
            translate("ObservationsPage", "Timeline"),
            "Ctrl+T",
            translate(
                "ObservationsPage",
                "Show what was saved just before and after the current observation in its chat",
            ),
            page.on_timeline,
        )
        self.timeline.setObjectName("timelineAction")
        self.exports: dict[tuple[str, str], QAction] = {}
        for which, fmt, name, text in (
            (
                "selected",
                "json",
                "exportSelectedJsonAction",
                translate("ObservationsPage", "Export selected to &JSON…"),
            ),
            (
                "selected",
                "markdown",
                "exportSelectedMarkdownAction",
                translate("ObservationsPage", "Export selected to &Markdown…"),
            ),
            (
                "all",
                "json",
                "exportAllJsonAction",
                translate("ObservationsPage", "Export all to J&SON…"),
            ),
            (
                "all",
                "markdown",
                "exportAllMarkdownAction",
                translate("ObservationsPage", "Export all to Mar&kdown…"),
            ),
        ):
            action = QAction(text, page)
            action.setObjectName(name)
            action.triggered.connect(lambda _=False, w=which, f=fmt: page.on_export(w, f))
            self.group.addAction(action)
            self.exports[(which, fmt)] = action

    def _row_action(self, text: str, shortcut, tip: str, slot) -> QAction:
        action = make_action(self._page, "", text, shortcut, slot, tip)  # page-wide shortcut
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._page.table.addAction(action)  # its context menu
        self.group.addAction(action)
        return action

    def menu_items(self) -> list[MenuItem]:
        """The window's Observation menu: the row actions, then the exports."""
        export_menu = QMenu(translate("ObservationsPage", "E&xport"), self._page)
        export_menu.setObjectName("exportObservationsMenu")
        export_menu.addActions(list(self.exports.values()))
        return [
            self.pin,
            self.forget,
            self.restore,
            self.edit,
            None,
            self.delete,
            None,
            self.open_chat,
            self.timeline,
            self.agent_search,
            None,
            export_menu,
        ]

    def button_row(self) -> tuple[QHBoxLayout, list[QWidget]]:
        """The buttons above the table, and the same buttons in the order Tab visits them."""
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        row: list[QWidget] = []
        for action, name in (
            (self.pin, "pinButton"),
            (self.forget, "forgetButton"),
            (self.restore, "restoreButton"),
            (self.edit, "editButton"),
        ):
            row.append(self._button(action, name))
            buttons.addWidget(row[-1])
        buttons.addStretch(1)
        for action, name in (
            (self.agent_search, "agentSearchButton"),
            (self.delete, "deleteButton"),
        ):
            row.append(self._button(action, name))
            buttons.addWidget(row[-1])
        return buttons, row

    def _button(self, action: QAction, name: str) -> QToolButton:
        button = QToolButton(self._page)
        button.setObjectName(name)
        button.setDefaultAction(action)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.setAutoRaise(False)
        return button

    def update(self) -> None:
        """Enable what applies to the selection and the row shown, and name Pin or Unpin."""
        page = self._page
        store = page.store
        ids = page.selection.ids(limit=SUMMARY_LIMIT + 1)
        known = [page.model.cached(i) for i in ids[:SUMMARY_LIMIT]]
        missing = [oid for oid, o in zip(ids, known, strict=False) if o is None]
        if missing and len(ids) <= SUMMARY_LIMIT and store is not None:
            # Rows a live refresh dropped from the cache: ask the database rather than
            # guess, so Forget/Restore never offer what cannot apply.
            try:
                fetched = store.get_many(missing)
            except StoreError:
                fetched = {}
            known = [
                o if o is not None else fetched.get(oid) for oid, o in zip(ids, known, strict=False)
            ]
        unknown = len(ids) > SUMMARY_LIMIT or any(o is None for o in known)
        rows = [o for o in known if o is not None]
        all_pinned = bool(ids) and not unknown and all(o.pinned for o in rows)
        any_live = unknown or any(not o.forgotten for o in rows)
        any_forgotten = any(o.forgotten for o in rows) or (
            unknown and page.filters.show_forgotten.isChecked()
        )
        editing = page.detail.is_editing
        if all_pinned:
            self.pin.setText(translate("ObservationsPage", "Unpin"))
        else:
            self.pin.setText(translate("ObservationsPage", "Pin"))
        self.pin.setEnabled(bool(ids))
        self.forget.setEnabled(bool(ids) and any_live)
        self.restore.setEnabled(bool(ids) and any_forgotten)
        self.delete.setEnabled(bool(ids) and not editing)
        self.edit.setEnabled(page.detail.shown_id is not None and not editing)
        shown = page.detail.shown
        self.open_chat.setEnabled(shown is not None and bool(shown.session_id))
        self.timeline.setEnabled(shown is not None)
        for (which, _fmt), action in self.exports.items():
            action.setEnabled(store is not None and (which == "all" or bool(ids)))
        if store is not None and store.damage is not None:
            # A damaged database is read-only: the banner says why.
            for action in (self.pin, self.forget, self.restore, self.delete, self.edit):
                action.setEnabled(False)
