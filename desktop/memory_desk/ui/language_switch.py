"""View ▸ Language switches at once: the window is made again in the chosen language.

Every text of the window (menus, pages, dialogs, tooltips, the status line, formatted counts)
is made by the code that builds it, so a window made again shows all of it in the new
language, with nothing half-translated. What the person was looking at comes with it: the
same stores (the demo's too, not built again), the page in front, the selected observation,
entry or chat, the observations' search and filters, and the window's geometry, splitters
and columns (saved and restored as at a restart). An edit not yet saved is asked about
first, as when closing; if the person keeps it, the language waits for the next start and
the window says so. An observation being edited or a write under way keeps the window as it
is, and the person is told to finish first.

The app follows the new window through :attr:`MainWindow.replaced` (the single-instance
server hands second starts to the window in front).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

from memory_desk.ui import i18n
from memory_desk.ui import settings as settings_module
from memory_desk.ui.sources.registry import SourceKind

MainWindow = QMainWindow  # ui.window's MainWindow (not imported: the window's menus call here)

SELECT_TRIES = 200  # a selection waits for its page's first rows: this many looks, ...
SELECT_EVERY_MS = 50  # ... this far apart

NEXT_START = {  # said in the language chosen, which the person is sure to read
    "es": "Memory Desk se mostrará en español la próxima vez que se abra.",
    "en": "Memory Desk will be in English the next time it starts.",
}
BUSY = {  # an edit or a write under way: nothing of it is dropped for a language
    "es": "Termina lo que estás editando o guardando y vuelve a elegir el idioma; si no,"
    " Memory Desk se mostrará en español la próxima vez que se abra.",
    "en": "Finish what you are editing or saving, then choose the language again; otherwise"
    " Memory Desk will be in English the next time it starts.",
}


@dataclass
class _Opened:
    """What the window shows, to show again."""

    found: bool = False  # the stores were found on this machine (not named by flags)
    stores: list[tuple[SourceKind, Path, str, dict]] = field(default_factory=list)
    page: str = "observations"
    selected: int | str | None = None
    search: object = None  # the observations page's words, filters and dates (a FilterState)


def choose_language(window: MainWindow, name: str) -> MainWindow | None:
    """Keep ``name`` (``system``, ``en``, ``es``) as the language and show it now.

    Returns the window made in the new language, or None when nothing was remade (the
    language is the one shown, or an unsaved edit was kept: then the person is told the
    language comes at the next start)."""
    settings = settings_module.app_settings()
    settings.setValue(i18n.LANGUAGE_KEY, name)
    settings_module.sync_private(settings)
    wanted = i18n.choose_language(None, settings)
    if wanted == i18n.current_language():
        return None
    pages = window.content_pages
    if not all(page.may_close() for page in pages):
        window.message_bar.show_info(NEXT_START[wanted])
        return None
    if any(_holds_work(page) for page in pages):
        window.message_bar.show_info(BUSY[wanted])
        return None
    return remake(window, wanted)


def _holds_work(page: object) -> bool:
    """An edit not saved (the observation form saves or drops its own at a close, not here)
    or a write still under way (perhaps waiting for the agent's lock)."""
    unsaved = getattr(page, "has_unsaved_edits", None)
    writing = getattr(page, "is_writing", None)
    return bool((unsaved is not None and unsaved()) or (writing is not None and writing()))


def remake(window: MainWindow, language: str) -> MainWindow:
    """Close ``window`` and make it again in ``language`` (see the module's docstring)."""
    opened = _what_is_open(window)
    window.save_ui_state()
    app = QApplication.instance()
    quits = app.quitOnLastWindowClosed()
    app.setQuitOnLastWindowClosed(False)  # between the two windows, none is shown
    try:
        i18n.install_language(language)
        new = type(window)()
        if window.demo is not None:
            new.open_demo(taken_from=window)
        window.shutdown()
        window.hide()
        if opened.found:
            new.open_found_sources()
        for kind, path, label, info in opened.stores:
            if kind is SourceKind.DB:
                new.open_database(path, info=info)
            else:
                new.open_persona_folder(path, label=label)
        new.restore_ui_state()
        bar = new.observations_page.filters
        if opened.search != bar.state():
            bar.set_state(opened.search)  # (one search, with all of it)
        new.show()
        if opened.page != "welcome":
            new.show_page(opened.page)
        if opened.selected is not None:
            _SelectWhenListed(new, opened.page, opened.selected)
        window.replaced.emit(new)
        window.close()
        window.deleteLater()
    finally:
        app.setQuitOnLastWindowClosed(quits)
    return new


def _what_is_open(window: MainWindow) -> _Opened:
    """The stores to open again (the demo's and the found ones are found again), the page in
    front and what it selects."""
    opened = _Opened(page=window.current_page_name())
    opened.search = window.observations_page.filters.state()
    demo = window.demo
    for source in window.registry.sources():
        if source.found or (demo is not None and source.info.get("demo")):
            continue
        opened.stores.append((source.kind, source.path, source.label, dict(source.info)))
    opened.found = demo is None and (
        not opened.stores or any(s.found for s in window.registry.sources())
    )
    page = window.pages.currentWidget()
    if opened.page == "observations":
        ids = page.selected_ids(limit=1)
        opened.selected = ids[0] if ids else None
    elif opened.page == "persona":
        opened.selected = page.current_name()
    elif opened.page == "chats":
        opened.selected = page.chosen_chat()
    return opened


class _SelectWhenListed(QObject):
    """Selects ``key`` on the new window's page once the page lists it (its rows come from a
    background read); gives up quietly after :data:`SELECT_TRIES` looks (the row was forgotten
    meanwhile: the page shows what it has)."""

    def __init__(self, window: MainWindow, page: str, key: int | str) -> None:
        super().__init__(window)
        self._page = window.pages.currentWidget()
        self._name = page
        self._key = key
        self._tries = 0
        self._timer = QTimer(self, interval=SELECT_EVERY_MS)
        self._timer.timeout.connect(self._try)
        self._timer.start()

    def _try(self) -> None:
        self._tries += 1
        page = self._page
        busy = page.is_listing() if self._name == "persona" else page.is_busy()
        listed = not busy and page.model.rowCount() > 0
        if listed:
            page.select_id(self._key)
        if listed or self._tries >= SELECT_TRIES:
            self._timer.stop()
            self.deleteLater()
