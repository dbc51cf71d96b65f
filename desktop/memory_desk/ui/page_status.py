"""Each page's status line and messages are its own: shown while the page is in front, kept
for when it comes back (a message a hidden page raised waits for it)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QLabel, QStackedWidget, QStatusBar, QWidget

from memory_desk.ui.widgets.message_bar import MessageBar


class PageStatus(QObject):
    """Shows the status text and messages of the page in front of ``pages``: the text in its
    own ``label`` (``statusCounts``) on ``status_bar``, the messages on ``bar``."""

    def __init__(
        self, pages: QStackedWidget, status_bar: QStatusBar, bar: MessageBar, parent: QObject
    ) -> None:
        super().__init__(parent)
        self._pages = pages
        self.label = self._label = QLabel(status_bar)
        self._label.setObjectName("statusCounts")
        self._label.setTextFormat(Qt.TextFormat.PlainText)
        status_bar.addPermanentWidget(self._label)
        self._bar = bar
        self._status: dict[QWidget, str] = {}
        self._waiting: dict[QWidget, tuple[str, str]] = {}
        self._bar_message: tuple[QWidget, str, str] | None = None  # (page, kind, text)
        self._shown: QWidget | None = None

    def connect_messages(self, page: QWidget) -> None:
        """The page's errors and notices (its status line is connected by the caller)."""
        page.error_raised.connect(lambda text, p=page: self.show_message(p, "error", text))
        page.info_raised.connect(lambda text, p=page: self.show_message(p, "info", text))

    def connect_page(self, page: QWidget) -> None:
        """The page's status line, errors and notices."""
        self.connect_messages(page)
        page.status_changed.connect(lambda text, p=page: self.set_status(p, text))

    def on_page_changed(self, page: QWidget) -> None:
        """Another page is in front: its status text, and its message if one waits; the
        message of the page left waits for its return."""
        self._label.setText(self._status.get(page, ""))
        left = self._shown
        self._shown = page
        if (
            self._bar_message is not None
            and self._bar_message[0] is left
            and self._bar.isVisible()
            and self._bar.text() == self._bar_message[2]
        ):
            self._waiting[left] = self._bar_message[1:]
            self._bar.hide()
        self._bar_message = None
        waiting = self._waiting.pop(page, None)
        if waiting is not None:
            self.show_message(page, *waiting)

    def show_message(self, page: QWidget, kind: str, text: str) -> None:
        """Show a page's message if the page is in front; otherwise keep it for its return."""
        if self._pages.currentWidget() is not page:
            self._waiting[page] = (kind, text)
            return
        (self._bar.show_error if kind == "error" else self._bar.show_info)(text)
        self._bar_message = (page, kind, text)

    def set_status(self, page: QWidget, text: str) -> None:
        self._status[page] = text
        if self._pages.currentWidget() is page:
            self._label.setText(text)
