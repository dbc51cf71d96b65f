"""An inline message strip at the top of the window: errors and notices without modal dialogs."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget


class MessageBar(QFrame):
    """Shows one message at a time; errors stay until closed, notices fade after a while."""

    NOTICE_MS = 6000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._label = QLabel(self)
        self._label.setObjectName("messageText")
        self._label.setWordWrap(True)
        self._label.setTextFormat(self._label.textFormat().PlainText)
        close = QToolButton(self)
        close.setObjectName("messageClose")
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip("Dismiss")
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 4, 4)
        layout.addWidget(self._label, 1)
        layout.addWidget(close)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.hide)
        self.kind = ""
        self.hide()

    def text(self) -> str:
        return self._label.text()

    def show_error(self, text: str) -> None:
        self._show("error", text, "#fde7e9", "#8a1c24")

    def show_info(self, text: str) -> None:
        self._show("info", text, "#e7f0fd", "#1c3d8a")
        self._timer.start(self.NOTICE_MS)

    def _show(self, kind: str, text: str, background: str, foreground: str) -> None:
        self._timer.stop()
        self.kind = kind
        self._label.setText(text)
        self.setStyleSheet(
            f"QFrame#messageBar {{ background: {background}; border: 1px solid {foreground};"
            f" border-radius: 4px; }} QLabel {{ color: {foreground}; }}"
        )
        self.show()
