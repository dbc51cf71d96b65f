"""Saved searches: the search box's words, the filters and the date range, under a name.

They are settings worth keeping (``settings.ini``, :mod:`memory_desk.ui.settings`), one JSON
list under ``observations/saved_searches`` so their order and every field survive as they
were; an entry the window cannot read is skipped, never a reason to fail. The button beside
the search (``savedSearchesButton``) opens a menu: "Save this search…", the saved ones
(choosing one restores it all) and "Remove" with one entry each.

The filter bar owns the button: it hands it its :class:`FilterState` when asked and takes a
chosen one back (``chosen``).

Signals (SavedSearchesButton):
    chosen(FilterState): the person chose a saved search
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMenu, QToolButton, QWidget

from memory_desk.ui import i18n
from memory_desk.ui import settings as settings_module
from memory_desk.ui.i18n import translate
from memory_desk.ui.observations.date_range import DateChoice

SAVED_SEARCHES_KEY = "observations/saved_searches"


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


class SavedSearchesButton(QToolButton):
    """The saved searches' button and menu (see the module docstring).

    Signals:
        chosen(FilterState): the person chose a saved search
    """

    chosen = Signal(object)

    def __init__(self, current: Callable[[], FilterState], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("savedSearchesButton")
        self._current = current
        self.setText("☆")
        self.setAccessibleName(translate("SavedSearches", "Saved searches"))
        tip = translate(
            "SavedSearches", "Saved searches: keep this search and its filters under a name"
        )
        self.setToolTip(tip)
        self.setAccessibleDescription(tip)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_ = QMenu(self)
        self.menu_.setObjectName("savedSearchesMenu")
        self.menu_.aboutToShow.connect(self.fill_menu)
        self.setMenu(self.menu_)

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
            self,
            translate("SavedSearches", "Save this search"),
            translate("SavedSearches", "Name (a saved search of that name is replaced):"),
            QLineEdit.EchoMode.Normal,
            self._current().text,
        )
        if ok:
            self.save_current(name)

    def fill_menu(self) -> None:
        """The menu as the settings hold it now (another window may have saved one)."""
        menu = self.menu_
        menu.clear()
        save = menu.addAction(translate("SavedSearches", "Save this search…"))
        save.setObjectName("saveSearchAction")
        save.triggered.connect(self.ask_and_save)
        searches = self.names()
        if not searches:
            return
        menu.addSeparator()
        for name in searches:
            action = menu.addAction(name)
            i18n.mark_data(action)  # the person's own name for it
            action.triggered.connect(lambda _checked=False, n=name: self.restore(n))
        remove = menu.addMenu(translate("SavedSearches", "Remove"))
        remove.setObjectName("removeSavedSearchMenu")
        for name in searches:
            action = remove.addAction(name)
            i18n.mark_data(action)
            action.triggered.connect(lambda _checked=False, n=name: self.remove(n))
