"""Saved searches: the search box's words, the filters and the date range, under a name.

They are settings worth keeping (``settings.ini``, :mod:`memory_desk.ui.settings`), one JSON
list under ``observations/saved_searches`` so their order and every field survive as they
were; an entry the window cannot read is skipped, never a reason to fail. A star at the end of
the search box (``savedSearchesButton``: it takes none of the bar's width, which must fit a
1024-pixel window in Spanish too) opens a menu: "Save this search…", the saved ones (choosing
one restores it all) and "Remove" with one entry each; Ctrl+D in the search box opens it too.

The filter bar owns the star: it hands it its :class:`FilterState` when asked and takes a
chosen one back (``chosen``).

Signals (SavedSearches):
    chosen(FilterState): the person chose a saved search
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QPoint, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QIcon, QKeySequence, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMenu, QToolButton

from memory_desk.ui import i18n, theme
from memory_desk.ui import settings as settings_module
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.date_range import DateChoice

SAVED_SEARCHES_KEY = "observations/saved_searches"
SAVED_SEARCHES_KEYS = "Ctrl+D"  # in the search box, as a browser bookmarks its address


@dataclass(frozen=True)
class FilterState:
    """Everything the filter bar asks: the words, the filters and the date range."""

    text: str = ""
    types: tuple[str, ...] = ()
    project: str | None = None
    scope: str | None = None
    pinned_only: bool = False
    show_forgotten: bool = False
    date: DateChoice = field(default_factory=DateChoice)

    def as_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "types": list(self.types),
            "project": self.project,
            "scope": self.scope,
            "pinned_only": self.pinned_only,
            "show_forgotten": self.show_forgotten,
            "date": self.date.as_dict(),
        }

    @classmethod
    def from_dict(cls, kept: dict) -> FilterState:
        types = kept.get("types")
        return cls(
            text=str(kept.get("text") or ""),
            types=tuple(t for t in types if isinstance(t, str)) if isinstance(types, list) else (),
            project=kept["project"] if isinstance(kept.get("project"), str) else None,
            scope=kept["scope"] if isinstance(kept.get("scope"), str) else None,
            pinned_only=kept.get("pinned_only") is True,
            show_forgotten=kept.get("show_forgotten") is True,
            date=DateChoice.from_dict(kept.get("date")),
        )


def saved_searches() -> list[tuple[str, FilterState]]:
    """The saved searches, in the order they were saved."""
    raw = settings_module.app_settings().value(SAVED_SEARCHES_KEY, "")
    try:
        kept = json.loads(raw) if isinstance(raw, str) and raw else []
    except ValueError:
        return []
    found: list[tuple[str, FilterState]] = []
    for entry in kept if isinstance(kept, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"]:
            state = entry.get("search")
            found.append(
                (entry["name"], FilterState.from_dict(state if isinstance(state, dict) else {}))
            )
    return found


def _write(searches: list[tuple[str, FilterState]]) -> None:
    settings = settings_module.app_settings()
    kept = [{"name": name, "search": state.as_dict()} for name, state in searches]
    settings.setValue(SAVED_SEARCHES_KEY, json.dumps(kept, ensure_ascii=False))
    settings_module.sync_private(settings)


def save_search(name: str, state: FilterState) -> None:
    """Keep ``state`` under ``name`` (a search of that name is replaced, in its place)."""
    searches = saved_searches()
    names = [known for known, _state in searches]
    if name in names:
        searches[names.index(name)] = (name, state)
    else:
        searches.append((name, state))
    _write(searches)


def remove_search(name: str) -> None:
    _write([(known, state) for known, state in saved_searches() if known != name])


class SavedSearches(QObject):
    """The saved searches' star in the search box and its menu (see the module docstring).

    The star is an action at the end of the search box (a bookmark star in an address bar),
    so it takes none of the bar's width; its button is ``savedSearchesButton``.

    Signals:
        chosen(FilterState): the person chose a saved search
    """

    chosen = Signal(object)

    def __init__(self, search: QLineEdit, current: Callable[[], FilterState]) -> None:
        super().__init__(search)
        self._search = search
        self._current = current
        tip = translate(
            "SavedSearches",
            "Saved searches: keep this search and its filters under a name ({keys})",
        ).format(keys=SAVED_SEARCHES_KEYS)
        self.action = QAction(translate("SavedSearches", "Saved searches"), search)
        self.action.setObjectName("savedSearchesAction")
        self.action.setShortcut(QKeySequence(SAVED_SEARCHES_KEYS))
        self.action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.action.setToolTip(tip)
        search.addAction(self.action, QLineEdit.ActionPosition.TrailingPosition)
        self.button = next(o for o in self.action.associatedObjects() if isinstance(o, QToolButton))
        self.button.setObjectName("savedSearchesButton")
        self.button.setAccessibleName(translate("SavedSearches", "Saved searches"))
        self.button.setAccessibleDescription(tip)
        self.menu = QMenu(search)
        self.menu.setObjectName("savedSearchesMenu")
        self.menu.setAccessibleName(translate("SavedSearches", "Saved searches"))
        self.action.triggered.connect(self.open_menu)
        theme.notifier().changed.connect(self._draw_star)
        self._draw_star()

    def _draw_star(self) -> None:
        """The star in the theme's text colour (drawn, so no icon file is needed)."""
        side = self._search.fontMetrics().height()
        ratio = self._search.devicePixelRatioF()
        pixmap = QPixmap(round(side * ratio), round(side * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setPen(self._search.palette().color(QPalette.ColorRole.Text))
        painter.setFont(self._search.font())
        painter.drawText(QRectF(0, 0, side, side), Qt.AlignmentFlag.AlignCenter, "☆")
        painter.end()
        self.action.setIcon(QIcon(pixmap))

    def open_menu(self) -> None:
        """Show the menu under the star, as the settings hold it now."""
        self.fill_menu()
        self.menu.popup(self.button.mapToGlobal(QPoint(0, self.button.height())))

    def names(self) -> list[str]:
        return [name for name, _state in saved_searches()]

    def save_current(self, name: str) -> None:
        """Keep the bar's search under ``name``."""
        name = name.strip()
        if name:
            save_search(name, self._current())

    def restore(self, name: str) -> bool:
        """Give the bar back the search saved as ``name``; False when there is none."""
        for known, state in saved_searches():
            if known == name:
                self.chosen.emit(state)
                return True
        return False

    def remove(self, name: str) -> None:
        remove_search(name)

    def ask_and_save(self) -> None:
        """Ask for a name (the words searched, to start with), then keep the search."""
        name, ok = QInputDialog.getText(
            self._search,
            translate("SavedSearches", "Save this search"),
            translate("SavedSearches", "Name (a saved search of that name is replaced):"),
            QLineEdit.EchoMode.Normal,
            self._current().text,
        )
        if ok:
            self.save_current(name)

    def fill_menu(self) -> None:
        """The menu as the settings hold it now (another window may have saved one), the
        search shown now ticked when it is a saved one."""
        menu = self.menu
        menu.clear()
        save = menu.addAction(translate("SavedSearches", "Save this search…"))
        save.setObjectName("saveSearchAction")
        save.triggered.connect(self.ask_and_save)
        kept = saved_searches()
        searches = [name for name, _state in kept]
        if not searches:
            return
        menu.addSeparator()
        current = self._current()
        for name, state in kept:
            action = menu.addAction(name)
            i18n.mark_data(action)  # the person's own name for it
            action.setCheckable(True)
            action.setChecked(state == current)  # the search shown now is this one
            action.triggered.connect(lambda _checked=False, n=name: self.restore(n))
        remove = menu.addMenu(translate("SavedSearches", "Remove"))
        remove.setObjectName("removeSavedSearchMenu")
        for name in searches:
            action = remove.addAction(name)
            i18n.mark_data(action)
            action.triggered.connect(lambda _checked=False, n=name: self.remove(n))
