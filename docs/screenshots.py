"""Make the README's screenshots from the demo: ``python docs/screenshots.py [OUT_DIR]``.

``python docs/screenshots.py --sizes OUT_DIR`` shoots every page instead, at 1024×640 and
1920×1080, in both languages and both themes (``<page>-<width>x<height>-<lang>-<theme>.png``),
to look at how each page holds at the smallest and a large screen.

Runs the real window on a demo built in a temporary HOME (your own stores are never opened),
drives it by object names as a person would, and saves PNGs of the window (and of the dialogs it
opens) into ``docs/`` or OUT_DIR: the whole tour in English with the light theme, then the two
main views dark, in Spanish, and in Spanish dark (``*-dark.png``, ``*-es.png``,
``*-es-dark.png``). Without a display it renders offscreen; under Xvfb
(``xvfb-run -a python docs/screenshots.py``) it uses the X11 platform.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

SIZE = (1280, 800)


def _isolate_home() -> None:
    home = Path(tempfile.mkdtemp(prefix="memory-desk-shots-"))
    os.environ["HOME"] = str(home)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        os.environ[var] = str(home / var.lower())
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _settle(app, ms: int = 400) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    app.processEvents()


def _wait(app, condition: Callable[[], bool], timeout_ms: int = 5000) -> None:
    from PySide6.QtCore import QElapsedTimer

    clock = QElapsedTimer()
    clock.start()
    while not condition() and clock.elapsed() < timeout_ms:
        _settle(app, 50)


def _select_row(view, row: int) -> None:
    view.selectRow(row)
    view.setFocus()


# (language, theme, suffix): the full tour in English and light, the two main views in the rest.
LOOKS = [
    ("en", "light", ""),
    ("en", "dark", "-dark"),
    ("es", "light", "-es"),
    ("es", "dark", "-es-dark"),
]


PAGES = ("observations", "persona", "chats", "overview", "pruning", "review")
SIZES = ((1024, 640), (1920, 1080))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--sizes"]:
        return every_page(Path(argv[1]) if len(argv) > 1 else Path("screenshots"))
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    _isolate_home()

    from PySide6.QtWidgets import QApplication

    from memory_desk.app import configure_application

    app = QApplication.instance() or QApplication(["memory-desk"])
    configure_application(app)
    saved: list[Path] = []
    for language, theme_name, suffix in LOOKS:
        _tour(app, out, saved, language, theme_name, suffix, whole=not suffix)
    for path in saved:
        print(path)
    return 0


def _tour(
    app, out: Path, saved: list[Path], language: str, theme_name: str, suffix: str, *, whole: bool
) -> None:
    """One window in this language and theme: the observations and the persona pages, and
    with ``whole`` every further shot."""
    from PySide6.QtWidgets import QAbstractItemView, QWidget

    from memory_desk.app import create_main_window
    from memory_desk.selftest import select_entry

    window = create_main_window(["--demo", "--lang", language, "--theme", theme_name])
    window.resize(*SIZE)
    window.show()

    def shoot(widget: QWidget, name: str) -> None:
        _settle(app)
        path = out / name
        widget.grab().save(str(path))
        saved.append(path)

    shoot.out = out  # type: ignore[attr-defined]
    shoot.saved = saved  # type: ignore[attr-defined]

    try:
        table = window.findChild(QAbstractItemView, "observationsTable")
        _wait(app, lambda: table.model().rowCount() > 0)
        _select_row(table, 2)
        shoot(window, f"screenshot{suffix}.png")

        for shots in _NEW_PAGES:
            shots(app, window, shoot, suffix)

        # After the pages: these play the agent and the person (a forget, a save), which the
        # pages' shots would show too.
        for extra in _EXTRA_SHOTS if whole else []:
            extra(app, window, shoot)

        window.show_page("persona")
        entries = window.findChild(QAbstractItemView, "personaList")
        _wait(app, lambda: entries.model().rowCount() > 0)
        folder = window.current_source().store
        entry = next(e for e in folder.entries() if e.editable and e.agent_visible)
        select_entry(entries, entry.name)
        shoot(window, f"persona{suffix}.png")
        for extra in _PERSONA_SHOTS if whole else []:
            extra(app, window, shoot)
    finally:
        window.close()
        window.shutdown()


def every_page(out: Path) -> int:
    """Every page at each of :data:`SIZES`, in both languages and themes."""
    out.mkdir(parents=True, exist_ok=True)
    _isolate_home()

    from PySide6.QtWidgets import QAbstractItemView, QApplication

    from memory_desk.app import configure_application, create_main_window

    app = QApplication.instance() or QApplication(["memory-desk"])
    configure_application(app)
    for language in ("en", "es"):
        for theme_name in ("light", "dark"):
            window = create_main_window(["--demo", "--lang", language, "--theme", theme_name])
            window.show()
            try:
                table = window.findChild(QAbstractItemView, "observationsTable")
                _wait(app, lambda: table.model().rowCount() > 0)  # noqa: B023
                _wait(app, lambda: window.review.started, 20000)  # noqa: B023
                for width, height in SIZES:
                    window.resize(width, height)
                    for page in PAGES:
                        window.show_page(page)
                        _settle(app, 700)
                        _fill_page(app, window, page)
                        name = f"{page}-{width}x{height}-{language}-{theme_name}.png"
                        window.grab().save(str(out / name))
                        print(out / name)
            finally:
                window.close()
                window.shutdown()
    return 0


def _fill_page(app, window, page: str) -> None:
    """Something selected on the page, as a person would have it."""
    from PySide6.QtWidgets import QAbstractItemView

    names = {
        "observations": "observationsTable",
        "chats": "chatsTable",
        "review": "reviewList",
        "persona": "personaList",
    }
    view = window.findChild(QAbstractItemView, names.get(page, ""))
    if view is not None and view.model() is not None and view.model().rowCount() > 2:
        if view.currentIndex().row() < 0:
            view.setCurrentIndex(view.model().index(2 if page != "persona" else 1, 0))
        _settle(app, 500)
    if page == "pruning":
        tree = window.pruning_page.tree
        _wait(app, lambda: tree.topLevelItemCount() > 0, 20000)
        branch = tree.topLevelItem(0)
        if branch is not None and branch.childCount():
            tree.setCurrentItem(branch.child(branch.childCount() - 1))
        _settle(app, 600)


def _agent_search(app, window, shoot) -> None:
    """Search as the agent: the ranked hits and the words it ignores."""
    from PySide6.QtWidgets import QDialog, QLineEdit, QWidget

    window.findChild(QLineEdit, "observationsSearch").setText("note parser in")
    _settle(app)
    window.observations_page.agent_search_action.trigger()
    dialog = window.findChild(QDialog, "agentSearchDialog")
    dialog.resize(900, 420)
    results = dialog.findChild(QWidget, "agentSearchResults")
    _wait(app, lambda: results.rowCount() > 0)
    shoot(dialog, "agent-search.png")
    dialog.close()
    window.findChild(QLineEdit, "observationsSearch").clear()


def _stored_note(app, window, shoot) -> None:
    """The edit form says what the plugin will store: counters and the cut/redaction note."""
    from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QWidget

    page = window.observations_page
    page.edit_action.trigger()
    title = window.findChild(QLineEdit, "editTitle")
    title.setText(title.text() + " — " + "with a very long explanation " * 7)
    content = window.findChild(QPlainTextEdit, "editContent")
    content.setPlainText(content.toPlainText() + "\n\nToken: <private>sk-live-123</private>")
    _settle(app, 600)
    shoot(window, "edit-preview.png")
    window.findChild(QWidget, "cancelEditButton").click()


def _topic_question(app, window, shoot) -> None:
    """Restoring a row whose topic another live row holds asks first."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QAbstractItemView, QApplication, QCheckBox, QDialog

    from memory_desk.core import alisio

    store = window.current_source().store
    row = next(o for o in store.search(limit=500) if o.topic_key and not o.pinned)
    store.forget([row.id])
    agent = alisio.connect_like_plugin(store.path)
    try:
        alisio.save_observation(
            agent,
            title=row.title + " (saved again by the agent)",
            content=row.content or "…",
            type=row.type,
            project=row.project,
            scope=row.scope,
            topic_key=row.topic_key,
        )
    finally:
        agent.close()
    window.findChild(QCheckBox, "showForgottenFilter").setChecked(True)
    table = window.findChild(QAbstractItemView, "observationsTable")
    _settle(app, 600)
    window.observations_page.show_observation_id(row.id)
    _settle(app)

    def grab_and_cancel() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QDialog) and dialog.objectName() == "topicConflictDialog":
            dialog.adjustSize()
            path = shoot.out / "topic-question.png"
            dialog.grab().save(str(path))
            shoot.saved.append(path)
            dialog.reject()

    QTimer.singleShot(500, grab_and_cancel)
    window.observations_page.restore_action.trigger()
    _settle(app)
    window.findChild(QCheckBox, "showForgottenFilter").setChecked(False)
    window.message_bar.hide()  # "Nothing was restored": said, read, dismissed
    table.setFocus()


def _persona_shots(app, window, shoot) -> None:
    """The whole prompt section as the agent reads it, then a folder the agent cannot read."""
    from PySide6.QtWidgets import QTabWidget, QWidget

    tabs = window.findChild(QTabWidget, "personaTabs")
    tabs.setCurrentIndex(1)
    shoot(window, "persona-agent-view.png")
    folder = window.current_source().store
    (folder.path / "old-notes.md").mkdir()
    window.refresh_sources()
    _wait(app, lambda: window.findChild(QWidget, "personaFolderProblems").isVisible())
    shoot(window, "persona-folder-problem.png")
    (folder.path / "old-notes.md").rmdir()
    tabs.setCurrentIndex(0)


def _write_wait(app, window, shoot) -> None:
    """A pin while the agent holds the write lock: it waits in the background, cancellable."""
    from PySide6.QtWidgets import QAbstractItemView, QWidget

    from memory_desk.core import alisio

    store = window.current_source().store
    agent = alisio.connect_like_plugin(store.path)
    agent.execute("BEGIN EXCLUSIVE")
    try:
        table = window.findChild(QAbstractItemView, "observationsTable")
        _wait(app, lambda: not window.observations_page.is_writing())  # an earlier shot's write
        window.message_bar.hide()  # and the message it ended with
        _select_row(table, 4)
        window.observations_page.pin_action.trigger()
        _wait(app, lambda: window.findChild(QWidget, "writeWaitBanner").isVisible())
        _settle(app, 1200)
        shoot(window, "write-wait.png")
        window.findChild(QWidget, "cancelWriteButton").click()
        _wait(app, lambda: not window.observations_page.is_writing())
    finally:
        agent.execute("ROLLBACK")
        agent.close()
    window.message_bar.hide()


# Further shots of the observations page: fn(app, window, shoot).
def _chats_shots(app, window, shoot, suffix: str) -> None:
    """The Chats page on a chat with a summary; in the full tour its loaded context and the
    next chat's estimate too."""
    from PySide6.QtWidgets import QAbstractItemView, QWidget

    window.show_page("chats")
    page = window.chats_page
    table = window.findChild(QAbstractItemView, "chatsTable")
    _wait(app, lambda: table.model().rowCount() > 3 and not page.is_busy())
    _select_row(table, 1)
    _wait(app, lambda: page.chosen_chat() is not None and not page.is_busy())
    tabs = page.findChild(QWidget, "chatTabs")
    tabs.setCurrentIndex(1)  # Session summary
    shoot(window, f"chats{suffix}.png")
    if suffix:
        return
    tabs.setCurrentIndex(2)  # Loaded context
    shoot(window, "chats-context.png")
    tabs.setCurrentIndex(5)  # Next chat
    panel = page.findChild(QWidget, "nextContextPreview")
    _wait(app, lambda: not panel.is_busy())
    shoot(window, "chats-next.png")


def _overview_shots(app, window, shoot, suffix: str) -> None:
    window.show_page("overview")
    page = window.overview_page
    _wait(app, lambda: page.shown is not None and not page.is_loading())
    shoot(window, f"overview{suffix}.png")


def _pruning_shots(app, window, shoot, suffix: str) -> None:
    if suffix:
        return
    window.show_page("pruning")
    page = window.pruning_page
    _wait(app, lambda: not page.is_busy() and page.tree.topLevelItemCount() > 0, 20000)
    page.tree.expandToDepth(0)
    shoot(window, "pruning.png")
    window.show_page("observations")


def _review_shots(app, window, shoot, suffix: str) -> None:
    """Since you last looked: the demo's agents' changes, a revised decision selected with
    its old and new text side by side."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QAbstractItemView

    _wait(app, lambda: window.review.started and not window.journal_runner.is_busy(), 20000)
    window.findChild(QAction, "showReviewAction").trigger()
    view = window.findChild(QAbstractItemView, "reviewList")
    _wait(app, lambda: view.model().rowCount() >= 7)
    model = view.model()
    revised = next(
        row for row in range(model.rowCount()) if "#309" in str(model.index(row, 2).data())
    )
    _select_row(view, revised)
    _wait(app, lambda: not window.review_page.diff.is_busy())
    shoot(window, f"review{suffix}.png")
    window.show_page("observations")


_NEW_PAGES: list[Callable] = [_chats_shots, _overview_shots, _pruning_shots, _review_shots]
_EXTRA_SHOTS: list[Callable] = [_agent_search, _stored_note, _topic_question, _write_wait]
_PERSONA_SHOTS: list[Callable] = [_persona_shots]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
