"""The window's menu bar: the window's own actions from one table per menu, the pages' menus
gathered from the pages (:meth:`memory_desk.ui.pages.Page.menu_actions`), and the View menu's
theme and language choices."""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoGroup
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from memory_desk import __version__
from memory_desk.core.kinds import SourceKind
from memory_desk.ui import i18n, theme
from memory_desk.ui import settings as settings_module
from memory_desk.ui.i18n import translate
from memory_desk.ui.pages import make_action

# The window (ui/window.py) is typed by its Qt base here: these parts are imported by the
# window, never the other way round.
MainWindow = QMainWindow


def build_menus(window: MainWindow) -> dict[str, QMenu]:
    """Build the menu bar; returns the menus a page fills with its own actions when it is
    built (:meth:`memory_desk.ui.pages.Page.menu_actions`), by the page's name."""
    bar = window.menuBar()

    def add_menu(name: str, title: str) -> QMenu:
        menu = bar.addMenu(title)
        menu.setObjectName(name)
        return menu

    def add_actions(menu: QMenu, table) -> None:  # noqa: ANN001 - rows of make_action's args
        for row in table:
            if row is None:
                menu.addSeparator()
            else:
                menu.addAction(make_action(window, *row))

    file_menu = add_menu("fileMenu", translate("MainWindow", "&File"))
    add_actions(file_menu, _file_actions(window))
    edit = add_menu("editMenu", translate("MainWindow", "&Edit"))
    edit.addAction(window.undo_action)
    edit.addAction(window.redo_action)
    observation = add_menu("observationMenu", translate("MainWindow", "&Observation"))
    entry = add_menu("entryMenu", translate("MainWindow", "E&ntry"))
    tools = add_menu("toolsMenu", translate("MainWindow", "&Tools"))
    add_actions(tools, _tools_actions(window))
    view = add_menu("viewMenu", translate("MainWindow", "&View"))
    add_actions(view, _view_actions(window))
    view.addSeparator()
    _build_appearance_menus(window, view)
    help_menu = add_menu("helpMenu", translate("MainWindow", "&Help"))
    add_actions(help_menu, _help_actions(window))
    return {"observations": observation, "persona": entry, "view": view}


def page_actions(view: QMenu) -> list[tuple[str, QAction]]:
    """(page name, its View action) for every page, in the menu's order."""
    return [
        (action.objectName()[len("show") : -len("Action")].lower(), action)
        for action in view.actions()
        if action.objectName().startswith("show") and action.objectName().endswith("Action")
    ]


def build_undo_actions(window: MainWindow) -> tuple[QUndoGroup, QAction, QAction]:
    """Each page keeps its own undo history; Edit ▸ Undo and Redo act on the current page's
    (the group's active stack)."""
    group = QUndoGroup(window)
    undo = group.createUndoAction(window, translate("MainWindow", "&Undo"))
    undo.setObjectName("undoAction")
    undo.setShortcut(QKeySequence.StandardKey.Undo)
    undo.setWhatsThis(translate("MainWindow", "Undo the last change (its text says which)"))
    redo = group.createRedoAction(window, translate("MainWindow", "&Redo"))
    redo.setObjectName("redoAction")
    redo.setShortcut(QKeySequence.StandardKey.Redo)
    redo.setWhatsThis(translate("MainWindow", "Redo the change just undone"))
    window.addAction(undo)
    window.addAction(redo)
    return group, undo, redo


def _file_actions(window: MainWindow) -> list:
    return [
        (
            "openDatabaseAction",
            translate("MainWindow", "Open &database…"),
            QKeySequence.StandardKey.Open,
            window.on_open_database,
            translate("MainWindow", "Open an Alisio memory.sqlite"),
        ),
        (
            "openFolderAction",
            translate("MainWindow", "Open &folder…"),
            "Ctrl+Shift+O",
            window.on_open_folder,
            translate("MainWindow", "Open an agent's memory folder"),
        ),
        (
            "openDemoAction",
            translate("MainWindow", "Open the d&emo"),
            None,
            window.open_demo,
            translate(
                "MainWindow", "Open a made-up memory to explore; your own files are not touched"
            ),
        ),
        None,
        (
            "quitAction",
            translate("MainWindow", "&Quit"),
            QKeySequence.StandardKey.Quit,
            window.close,
            translate("MainWindow", "Quit Memory Desk"),
        ),
    ]


def _tools_actions(window: MainWindow) -> list:
    return [
        (
            "checkDatabaseAction",
            translate("MainWindow", "&Check database"),
            None,
            window.check_database,
            translate(
                "MainWindow",
                "Check the shown Alisio database and its search index again (after a repair)",
            ),
        ),
    ]


def _view_actions(window: MainWindow) -> list:
    """One action per page: Ctrl+1 … Ctrl+6 bring it to the front."""
    pages = (
        (
            "showObservationsAction",
            translate("MainWindow", "&Observations"),
            "observations",
            translate("MainWindow", "Show Alisio's observations"),
        ),
        (
            "showPersonaAction",
            translate("MainWindow", "&Memory of the person"),
            "persona",
            translate("MainWindow", "Show the agent's memory of the person"),
        ),
        (
            "showChatsAction",
            translate("MainWindow", "&Chats"),
            "chats",
            translate(
                "MainWindow",
                "Show Alisio's chats: what each saved, its summary and the context it was given",
            ),
        ),
        (
            "showOverviewAction",
            translate("MainWindow", "O&verview"),
            "overview",
            translate("MainWindow", "Show counts and charts of what the agents remember"),
        ),
        (
            "showPruningAction",
            translate("MainWindow", "&Pruning assistant"),
            "pruning",
            translate("MainWindow", "Find duplicates, stale and oversized memories to forget"),
        ),
        (
            "showReviewAction",
            translate("MainWindow", "Since you last &looked"),
            "review",
            translate("MainWindow", "Show what the agents changed since you last looked"),
        ),
    )
    return [
        (name, text, f"Ctrl+{n}", lambda _=False, p=page: window.show_page(p), tip)
        for n, (name, text, page, tip) in enumerate(pages, start=1)
    ]


def _help_actions(window: MainWindow) -> list:
    return [
        (
            "shortcutsAction",
            translate("MainWindow", "&Keyboard shortcuts"),
            QKeySequence.StandardKey.HelpContents,
            window.show_shortcuts,
            translate("MainWindow", "List every keyboard shortcut"),
        ),
        (
            "aboutAction",
            translate("MainWindow", "&About Memory Desk"),
            None,
            lambda: show_about(window),
            translate("MainWindow", "About Memory Desk"),
        ),
    ]


def check_database(window: MainWindow) -> None:
    """Tools ▸ Check database: check the shown database again (quick_check and the search
    index), in the background; the page's banner and write actions follow the answer."""
    source = window.current_source()
    if source is None or source.kind != SourceKind.DB:
        window.message_bar.show_info(translate("MainWindow", "Open an Alisio database to check it"))
        return
    window.registry.reopen_if_replaced(source)
    window.show_page("observations")
    window.observations_page.check_database()
    window.message_bar.show_info(
        translate("MainWindow", "Checking {path} …").format(path=source.path)
    )


def show_shortcuts(window: MainWindow):  # noqa: ANN201 - a ShortcutsDialog, imported when asked
    """Help ▸ Keyboard shortcuts: read from the window's actions each time it opens (the
    caller builds the pages whose actions should be listed first)."""
    from memory_desk.ui.shortcuts import ShortcutsDialog  # only when asked for

    dialog = window.findChild(ShortcutsDialog, "shortcutsDialog")
    if dialog is None:
        dialog = ShortcutsDialog(window)
    dialog.fill_from(window)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog


def show_about(parent: QWidget) -> None:
    from PySide6.QtWidgets import QMessageBox  # dialogs: imported when opened

    QMessageBox.about(
        parent,
        translate("MainWindow", "About Memory Desk"),
        translate(
            "MainWindow",
            "<b>Memory Desk {version}</b><p>Review, prune and hand-edit the memories your AI agents keep.</p>",
        ).format(version=__version__),
    )


def _build_appearance_menus(window: MainWindow, view: QMenu) -> None:
    """View ▸ Theme and View ▸ Language, both applied at once."""
    theme_menu = view.addMenu(translate("MainWindow", "&Theme"))
    theme_menu.setObjectName("themeMenu")
    themes = QActionGroup(window)
    chosen_theme = theme.current_choice()
    for name, text, tip in (
        (
            "system",
            translate("MainWindow", "Follow the &system"),
            translate("MainWindow", "Light or dark as the desktop is"),
        ),
        ("light", translate("MainWindow", "&Light"), translate("MainWindow", "Always light")),
        ("dark", translate("MainWindow", "&Dark"), translate("MainWindow", "Always dark")),
    ):
        action = QAction(text, themes)
        action.setObjectName(f"theme{name.capitalize()}Action")
        action.setCheckable(True)
        action.setChecked(name == chosen_theme)
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False, n=name: window.set_theme(n))
        theme_menu.addAction(action)
    language_menu = view.addMenu(translate("MainWindow", "&Language"))
    language_menu.setObjectName("languageMenu")
    languages = QActionGroup(window)
    saved = settings_module.app_settings().value(i18n.LANGUAGE_KEY) or "system"
    for name, object_name, text, tip in (
        (
            "system",
            "languageSystemAction",
            translate("MainWindow", "Follow the &system"),
            translate("MainWindow", "The desktop's language when it is Spanish, else English"),
        ),
        (
            "en",
            "languageEnglishAction",
            # a language's own name, so the person finds theirs whatever is shown now
            translate("MainWindow", "&English"),
            translate("MainWindow", "Show Memory Desk in English"),
        ),
        (
            "es",
            "languageSpanishAction",
            translate("MainWindow", "E&spañol"),
            translate("MainWindow", "Show Memory Desk in Spanish"),
        ),
    ):
        action = QAction(text, languages)
        action.setObjectName(object_name)
        action.setCheckable(True)
        action.setChecked(name == saved)
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False, n=name: _choose_language(window, n))
        language_menu.addAction(action)


def set_theme(name: str) -> None:
    """Use this theme now and from now on (``system``, ``light`` or ``dark``)."""
    theme.apply_theme(name)
    settings = settings_module.app_settings()
    settings.setValue(theme.THEME_KEY, name)
    settings_module.sync_private(settings)


def _choose_language(window: MainWindow, name: str) -> None:
    from memory_desk.ui.language_switch import choose_language

    choose_language(window, name)
