"""The database's health (file and search index), checked in the background on open and
from Tools ▸ Check database.

SQLite's ``quick_check`` and FTS5's own ``integrity-check`` are the only honest answers to
"is the file sound, does the agent's search still find what is stored?", and they read the
whole of a big database (the store runs them on a snapshot so the agent's writes never wait). The
page must keep painting meanwhile, so the check runs on a :class:`~memory_desk.ui.workers.background.BackgroundCall`;
its answer is shown only if it is about the database the page still shows: switching or
closing the database while it runs drops it. A damaged database makes the store read-only
(it refuses writes by itself); the page disables its write actions and shows a banner naming
the real cause, until a later check (after the person's repair) finds it healthy. The banner is
a "warning" tone of the theme and says its problem with an icon and words, never by colour.

The check on open is automatic only for files up to :data:`AUTO_CHECK_MAX_BYTES`: it copies
the whole file to a snapshot first, and a million observations make a file of several GB, so
opening one would copy gigabytes every time. A bigger file gets the cheap checks at open (the
store's) and the full one when the person asks (Tools ▸ Check database).

Signals (IndexHealth):
    checked(object, object): the store checked and its message (None: healthy), current only
    announced(str): a passing notice for a check the person asked for ("… is healthy")
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from memory_desk.core.observations import ObservationStore
from memory_desk.ui import i18n, theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.workers.background import BackgroundCall

AUTO_CHECK_MAX_BYTES = 512 * 1024 * 1024


def checks_on_open(store: ObservationStore) -> bool:
    """Whether opening ``store`` runs the full check by itself (its file and WAL are small
    enough to copy without the person noticing)."""
    size = 0
    for suffix in ("", "-wal"):
        try:
            size += os.stat(f"{store.path}{suffix}").st_size
        except OSError:
            continue
    return size <= AUTO_CHECK_MAX_BYTES


class IndexHealthBanner(QFrame):
    """A warning strip on the page: what the check found, in the store's words."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("indexHealthBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(translate("IndexHealthBanner", "Database problem"))
        theme.set_tone(self, "warning")
        self.label = QLabel(self)
        self.label.setObjectName("indexHealthText")
        self.label.setWordWrap(True)  # the store's long explanation wraps, never widens the page
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton(self)
        close.setObjectName("indexHealthClose")
        close.setText("✕")
        close.setAutoRaise(True)
        close.setAccessibleName(translate("IndexHealthBanner", "Dismiss this warning"))
        close.setToolTip(
            translate(
                "IndexHealthBanner",
                "Dismiss this warning (it comes back when the database is opened again)",
            )
        )
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(close)
        self.hide()

    def text(self) -> str:
        return self.label.text()

    def show_problem(self, message: object) -> None:
        """Show ``message`` (the store's words, or a core message translated here)."""
        self.label.setText(f"⚠ {i18n.shown(message)}")
        self.show()

    def clear(self) -> None:
        self.label.clear()
        self.hide()


class IndexHealth(QObject):
    """Checks one store's index at a time off the main thread (see the module docstring).

    Signals:
        checked(object, object): the store and its message (None when healthy)
        announced(str): the answer to a check the person asked for, when healthy
    """

    checked = Signal(object, object)
    announced = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._store: ObservationStore | None = None
        self._asked = False
        self._runner = BackgroundCall(self)
        self._runner.finished.connect(self._on_finished)
        self._runner.failed.connect(self._on_failed)

    def check(self, store: ObservationStore | None, *, asked: bool = False) -> None:
        """Start checking ``store`` (None: stop caring); an earlier check's answer is dropped.

        ``asked``: the person asked (Tools ▸ Check database), so a healthy answer is said too.
        """
        self._store = store
        self._asked = asked
        if store is None:
            self._runner.cancel()
            return
        self._runner.submit(store.check_database)

    def is_busy(self) -> bool:
        return self._runner.is_busy()

    def stop(self) -> None:
        """Wait for a running check and accept no more: the page is closing."""
        self._store = None
        self._runner.stop()

    def _on_finished(self, _generation: int, health: object) -> None:
        store = self._store
        if store is None:
            return
        message = getattr(health, "message", None)
        self.checked.emit(store, message)
        if message is None and self._asked:
            self.announced.emit(
                translate(
                    "IndexHealth", "{path}: the database and its search index are healthy"
                ).format(path=store.path)
            )

    def _on_failed(self, _generation: int, message: str) -> None:
        # The check could not run (the file went away, or was closed meanwhile): say so only
        # for the database still shown; a closed store's complaint is stale by definition.
        if self._store is not None:
            self.checked.emit(
                self._store,
                translate("IndexHealth", "The database could not be checked: {problem}").format(
                    problem=i18n.shown(message)
                ),
            )
