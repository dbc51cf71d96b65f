"""The "waiting for the agent…" strip: a write is waiting for the agent's write lock.

It shows only once a write has found the lock taken (a write that gets it at once never
flashes it), counts the seconds so the person sees the window is alive, and offers Cancel:
a write cancelled before anything of it was written writes nothing, and the page says so.
Once part of an undo step is written, the rest must be written too: the strip then says
that it is too late to cancel. The strip takes its colours from the theme (an "info" tone).

Signals (WriteWaitBanner):
    cancel_requested(): the person pressed Cancel
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from memory_desk.ui import i18n, theme
from memory_desk.ui.i18n import translate


class WriteWaitBanner(QFrame):
    """A write waiting for the agent, with the seconds waited and a Cancel button.

    Signals:
        cancel_requested(): the person pressed Cancel
    """

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("writeWaitBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(translate("WriteWaitBanner", "Waiting for the agent"))
        theme.set_tone(self, "info")
        self.label = QLabel(self)
        self.label.setObjectName("writeWaitText")
        self.label.setWordWrap(True)  # a long description wraps instead of widening the page
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.cancel_button = QPushButton(translate("WriteWaitBanner", "Cancel"), self)
        self.cancel_button.setObjectName("cancelWriteButton")
        tip = translate("WriteWaitBanner", "Give up this change: nothing of it is written")
        self.cancel_button.setToolTip(tip)
        self.cancel_button.setAccessibleDescription(tip)
        self.cancel_button.clicked.connect(self.cancel_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.cancel_button)
        self._what = ""
        self._elapsed = QElapsedTimer()
        self._ticker = QTimer(self)
        self._ticker.setInterval(1000)
        self._ticker.timeout.connect(self._show_text)
        self.hide()

    def text(self) -> str:
        return self.label.text()

    def show_waiting(self, what: str) -> None:
        """``what`` (e.g. "Pin 2 observations") waits for the agent's write lock."""
        self._what = what
        self._elapsed.start()
        self.cancel_button.setEnabled(True)
        self._show_text()
        self._ticker.start()
        self.show()

    def show_too_late(self) -> None:
        """Cancel came after part of the change was written: it will be finished."""
        self.cancel_button.setEnabled(False)
        self._ticker.stop()
        self.label.setText(
            translate(
                "WriteWaitBanner",
                "Too late to cancel “{what}”: part of it is written, so the rest will be"
                " written as soon as the agent lets go of the database",
            ).format(what=self._what)
        )

    def clear(self) -> None:
        self._ticker.stop()
        self.label.clear()
        self.hide()

    def _show_text(self) -> None:
        seconds = self._elapsed.elapsed() // 1000
        if seconds:
            text = translate(
                "WriteWaitBanner",
                "Waiting for the agent to finish writing… ({seconds} s) “{what}” is made as"
                " soon as it does; the window stays usable meanwhile. Cancel writes nothing.",
            ).format(seconds=i18n.number(seconds), what=self._what)
        else:
            text = translate(
                "WriteWaitBanner",
                "Waiting for the agent to finish writing… “{what}” is made as soon as it does;"
                " the window stays usable meanwhile. Cancel writes nothing.",
            ).format(what=self._what)
        self.label.setText(text)
