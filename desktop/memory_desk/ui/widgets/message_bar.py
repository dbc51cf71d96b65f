"""An inline message strip under the pages: errors and notices without modal dialogs.

The bar is a row of the window's layout, under the page stack: it never covers a control,
and the top of a page (its search box, its table's first rows) stays where it was when a
message comes or goes. A long message wraps and the row grows.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from memory_desk.ui import theme
from memory_desk.ui.i18n import translate


class MessageBar(QFrame):
    """Shows one message at a time; errors stay until closed, notices fade after a while.

    ``kind`` is ``"error"`` or ``"info"`` (the last message shown), ``text()`` its words.
    """

    NOTICE_MS = 6000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setAccessibleName(translate("MessageBar", "Message"))
        self._label = QLabel(self)
        self._label.setObjectName("messageText")
        self._label.setWordWrap(True)
        self._label.setTextFormat(Qt.TextFormat.PlainText)
        self._label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton(self)
        close.setObjectName("messageClose")
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip(translate("MessageBar", "Dismiss this message"))
        close.setAccessibleName(translate("MessageBar", "Dismiss message"))
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 4, 4)
        layout.addWidget(self._label, 1)
        layout.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.hide)
        self.kind = ""
        self.hide()

    def text(self) -> str:
        return self._label.text()

    def show_error(self, text: str) -> None:
        """An error: stays until the person closes it or another message replaces it."""
        self._show("error", text)

    def show_info(self, text: str) -> None:
        """A notice: fades after ``NOTICE_MS``."""
        self._show("info", text)
        self._timer.start(self.NOTICE_MS)

    def _show(self, kind: str, text: str) -> None:
        self._timer.stop()
        self.kind = kind
        self._label.setText(text)
        self.setAccessibleDescription(text)
        theme.set_tone(self, kind)
        self.show()
