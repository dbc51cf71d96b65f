"""The start: what the first screen does without, the window state saved at the last close,
a demo opened, and a second start's arguments.

The start shows the first rows before anything else: the persona page and the review desk
(the journal) are built, and the folder watcher started, right after the table first paints
rows (:meth:`StartUp.after_first_paint`), or, when the window opens on a persona folder being
listed, once the listing is shown; at once when something asks for them earlier (the window's
``persona_page`` and ``review`` properties build on first use).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QDataStream, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMainWindow,
    QSplitter,
    QStyle,
    QTableView,
    QWidget,
)

from memory_desk.core import StoreError, lazy_numpy
from memory_desk.core.kinds import SourceKind
from memory_desk.ui import heap, i18n
from memory_desk.ui import settings as settings_module
from memory_desk.ui.i18n import translate
from memory_desk.ui.sources.registry import alisio_info, folder_label
from memory_desk.ui.warm_up import WarmUp

if TYPE_CHECKING:
    from memory_desk.demo import Demo
    from memory_desk.ui.persona.page import PersonaPage


# The window (ui/window.py) is typed by its Qt base here: these parts are imported by the
# window, never the other way round.
MainWindow = QMainWindow

# The latest the pages held back for the first paint are built after the window is made,
# should no first rows come to trigger it (an unreadable table, a hidden window).
AFTER_FIRST_PAINT_LATEST_MS = 2000

# What the held-back parts import (their first use would otherwise import it on this thread).
HELD_BACK_MODULES = (
    "memory_desk.ui.persona.page",
    "memory_desk.ui.review.desk",
    "numpy",
    "watchdog.observers",  # (the folder watcher's thread, started last)
)


class StartUp(QObject):
    """Builds what the first screen did without, once the first rows are painted (module
    docstring). ``done`` is True once it began; ``held_back`` holds the steps still to
    build."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.done = False
        self.held_back: list[Callable[[], object]] = []
        self._first_listing: PersonaPage | None = None  # the listing the parts wait for
        self._watch: _FirstRowsPainted | None = None

    def watch_first_paint(self) -> None:
        """Hold back what the first screen does not need until the table paints its first
        rows, or an answer without rows comes, or at the latest after a while."""
        page = self._window.observations_page
        self._watch = _FirstRowsPainted(page.rows_view(), self.after_first_paint_soon)
        page.refreshed.connect(self._on_first_answer)
        QTimer.singleShot(AFTER_FIRST_PAINT_LATEST_MS, self, self.after_first_paint)

    def _on_first_answer(self) -> None:
        """An answer without rows paints no rows: the wait is over all the same."""
        if self._window.observations_page.rows_view().model().rowCount() == 0:
            self.after_first_paint_soon()

    def on_window_shown(self, front: QWidget) -> None:
        """The window is shown with ``front`` in front: without the table there are no rows
        to wait for, except a persona folder's listing."""
        window = self._window
        if front is window.observations_page:
            return
        persona = window.pages.built("persona")
        if front is persona and persona.is_listing():
            # Its whole listing first: built during it, the review desk, the watcher's start
            # and numpy slowed the listing, and the watcher's rescan ran beside it.
            self._first_listing = persona
            persona.listed.connect(self.after_first_paint_soon)
            return
        self.after_first_paint(at_once=True)

    def after_first_paint_soon(self) -> None:
        """Once the event being handled (the paint) is done."""
        if not self.done:
            QTimer.singleShot(0, self, self.after_first_paint)

    def after_first_paint(self, *, at_once: bool = False) -> None:
        """Build the persona page, the review desk and its journal, the folder watcher's
        thread, numpy. Once; their modules imported on a thread first, then one step per turn
        of the event loop, so the window answers in between; all at once with ``at_once``."""
        window = self._window
        if self.done or window.is_shut_down():
            return
        self.done = True
        if self._watch is not None:
            self._watch.stop()
            self._watch = None
        window.observations_page.refreshed.disconnect(self._on_first_answer)
        if self._first_listing is not None:
            self._first_listing.listed.disconnect(self.after_first_paint_soon)
            self._first_listing = None
        self.held_back = [
            lambda: window.persona_page,
            lambda: window.review,
            window.registry.start_watching,
            lazy_numpy.load,  # the table's id arrays next (its first answer did without)
        ]
        if at_once:
            while self.held_back:
                self.build_next()
        else:  # their modules imported off this thread first (see ui/warm_up.py)
            warm_up = WarmUp(HELD_BACK_MODULES, self)
            warm_up.done.connect(self.build_next)
            warm_up.start()

    def build_next(self) -> None:
        if self._window.is_shut_down() or not self.held_back:
            return
        self.held_back.pop(0)()
        if self.held_back:
            QTimer.singleShot(0, self, self.build_next)
        else:
            heap.freeze_the_start()  # later full collections skip it: no long scroll frames


class _FirstRowsPainted(QObject):
    """Calls ``then`` when the table's viewport is about to paint its first rows (the call
    should post its work: the paint runs right after it)."""

    def __init__(self, table: QTableView, then) -> None:  # noqa: ANN001 - a callable
        super().__init__(table)
        self._table = table
        self._then = then
        table.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint and self._table.model().rowCount() > 0:
            self._then()
        return False

    def stop(self) -> None:
        self._table.viewport().removeEventFilter(self)
        self.deleteLater()


# -- the window's state, saved at the last close -----------------------------------------------


def restore_window_state(window: MainWindow) -> None:
    """Geometry, splitters, table columns and sort, last source."""
    state = settings_module.ui_state()
    geometry = state.value("window/geometry")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    restore_widget_state(window)
    last = state.value("window/source")
    if last:
        kind, _, path = str(last).partition(":")
        known = kind in SourceKind.__members__.values()
        source = window.registry.find(SourceKind(kind), Path(path)) if known else None
        if source is not None:
            window.sidebar.select(source)


# A splitter's pane smaller than this hides what it holds (a list of a row and a half): such
# sizes are neither saved nor restored.
MIN_PANE_PX = 80
SPLITTER_STATE_MARKER = 0xFF  # how QSplitter.saveState begins


def hides_a_pane(state: QByteArray) -> bool:
    """Whether a splitter's saved ``state`` squeezes a pane below :data:`MIN_PANE_PX` (read
    from the state itself: a splitter not laid out yet reports sizes of its own)."""
    stream = QDataStream(state)
    if stream.readInt32() != SPLITTER_STATE_MARKER:
        return False
    stream.readInt32()  # (the format's version)
    count = stream.readUInt32()
    sizes = [stream.readInt32() for _ in range(min(count, 64))]
    ok = stream.status() == QDataStream.Status.Ok
    return ok and len(sizes) > 1 and min(sizes) < MIN_PANE_PX


def restore_widget_state(root: QWidget) -> None:
    """The saved splitters and table columns of ``root`` and the widgets inside it; a saved
    splitter size that would hide a pane is not taken (the page's own sizes stay)."""
    state = settings_module.ui_state()
    for splitter in root.findChildren(QSplitter):
        value = state.value(f"splitters/{splitter.objectName()}")
        if splitter.objectName() and isinstance(value, QByteArray) and not hides_a_pane(value):
            splitter.restoreState(value)
    for view in root.findChildren(QAbstractItemView):
        header = getattr(view, "horizontalHeader", None) or getattr(view, "header", None)
        value = state.value(f"headers/{view.objectName()}")
        if header is not None and view.objectName() and isinstance(value, QByteArray):
            header().restoreState(value)
            _headers_whole(header())


def _headers_whole(header: QHeaderView) -> None:
    """No restored column narrower than its header's words (saved in another language)."""
    mode = QHeaderView.ResizeMode.Interactive
    margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    metrics, model = header.fontMetrics(), header.model()
    for section in range(header.count()):
        if header.isSectionHidden(section) or header.sectionResizeMode(section) != mode:
            continue
        words = str(model.headerData(section, header.orientation()) or "")
        needed = metrics.horizontalAdvance(words) + margin
        if header.isSortIndicatorShown() and header.sortIndicatorSection() == section:
            needed += margin + header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize)
        if header.sectionSize(section) < needed:
            header.resizeSection(section, needed)


def _header_state(view: QAbstractItemView, header: QHeaderView) -> QByteArray:
    """The header's state with the columns a small window stepped aside shown: they come
    back on a bigger one (the observations table's ``steppedAside`` property)."""
    aside = [int(c) for c in (view.property("steppedAside") or [])]
    for column in aside:
        header.setSectionHidden(column, False)
    state = header.saveState()
    for column in aside:
        header.setSectionHidden(column, True)
    return state


def save_window_state(window: MainWindow) -> None:
    state = settings_module.ui_state()
    state.setValue("window/geometry", window.saveGeometry())
    for splitter in window.findChildren(QSplitter):
        if splitter.isVisible():  # (its state holds the sizes last asked for: take the shown)
            splitter.setSizes(splitter.sizes())
        value = splitter.saveState()
        if splitter.objectName() and not hides_a_pane(value):
            state.setValue(f"splitters/{splitter.objectName()}", value)
    for view in window.findChildren(QAbstractItemView):
        header = getattr(view, "horizontalHeader", None) or getattr(view, "header", None)
        if header is not None and view.objectName():
            state.setValue(f"headers/{view.objectName()}", _header_state(view, header()))
    source = window.current_source()
    if source is not None:
        state.setValue("window/source", f"{source.kind}:{source.path}")
    settings_module.sync_private(state)


# -- the demo ----------------------------------------------------------------------------------


class DemoOpener(QObject):
    """Builds the demo once, in a temporary folder removed on close, and opens its stores."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self._dir: tempfile.TemporaryDirectory | None = None
        self.demo: Demo | None = None

    def take_over(self, other: DemoOpener) -> None:
        """Open the demo ``other`` built, and remove its folder on close instead of it."""
        self._dir, other._dir = other._dir, None
        self.demo, other.demo = other.demo, None

    def open(self) -> bool:
        from memory_desk.core.locate import locate_alisio
        from memory_desk.demo import build_demo

        window = self._window
        if self.demo is None:
            self._dir = tempfile.TemporaryDirectory(prefix="memory-desk-demo-")
            try:
                self.demo = build_demo(Path(self._dir.name))
            except (OSError, StoreError) as exc:
                self.cleanup()
                window.message_bar.show_error(
                    translate("MainWindow", "The demo could not be built: {reason}").format(
                        reason=i18n.shown(exc)
                    )
                )
                return False
            if not window.registry.sources():
                self._show_changes(self.demo)
        demo = self.demo
        for folder in demo.persona_folders:
            label = translate("MainWindow", "demo: {folder}").format(folder=folder_label(folder))
            window.open_persona_folder(folder, label=label, found=True)
        # The demo's home has its own Alisio config: show its settings as for a real one.
        info = {**alisio_info(locate_alisio(env={}, home=demo.home)), "demo": True}
        return window.open_database(demo.db_path, info=info)

    def _show_changes(self, demo: Demo) -> None:
        """A demo on its own gets a history of its own, in its folder, holding what its agents
        changed since its person last looked: the review page has something to show, and the
        person's own history is left alone."""
        from memory_desk.demo_changes import add_recent_changes

        path = demo.folder / "journal.sqlite"
        if not self._window.review.use_journal_at(path):
            return
        try:
            add_recent_changes(demo, path, settings_module.journal_limits())
        except (OSError, StoreError) as exc:
            self._window.message_bar.show_error(
                translate("MainWindow", "The demo's changes could not be made: {reason}").format(
                    reason=i18n.shown(exc)
                )
            )

    def cleanup(self) -> None:
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None


# -- a second start --------------------------------------------------------------------------


def handle_arguments(window: MainWindow, args: list[str]) -> None:
    """Arguments handed over by a second start: open what they name and come forward."""
    from memory_desk.cli import parse_args

    try:
        options = parse_args(args)
    except SystemExit:
        return
    if options.demo:
        window.open_demo()
    for folder in options.persona:
        window.open_persona_folder(folder)
    if options.db is not None:
        window.open_database(options.db)
    window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMinimized)
    window.show()
    window.raise_()
    window.activateWindow()
