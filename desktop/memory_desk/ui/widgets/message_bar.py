"""An inline message strip floating over the bottom of the pages: errors and notices without modal dialogs.

The bar floats: it is a child laid over the widget it covers (:meth:`MessageBar.cover`), not
a row of a layout, so showing or hiding a message never moves the table or the editor under
the person's eyes. It follows the covered widget's size and place (a splitter moved, the
window resized) and grows downwards with a long, wrapped message.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from memory_desk.ui import theme
from memory_desk.ui.i18n import translate

_MARGIN = 6  # between the bar and the covered widget's edges


class MessageBar(QFrame):
    """Shows one message at a time; errors stay until closed, notices fade after a while.

    ``kind`` is ``"error"`` or ``"info"`` (the last message shown), ``text()`` its words.
    """

    NOTICE_MS = 6000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)  # over the page: never see-through
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
        self._covered: QWidget | None = None
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
        self.raise_()
        self._place()

    # -- floating over a widget -----------------------------------------------------------------

    def cover(self, widget: QWidget) -> None:
        """Float over the bottom of ``widget`` (a sibling or descendant of the bar's parent),
        following its moves and resizes. The bottom, not the top: the search box, the filters
        and the page's own banners (a write waiting for the agent) stay in sight."""
        if self._covered is not None:
            self._covered.removeEventFilter(self)
        self._covered = widget
        widget.installEventFilter(self)
        self._place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if watched is self._covered and event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self._place()
        return False

    def _place(self) -> None:
        """Over the covered widget's bottom edge, its width less a margin, as tall as the
        wrapped text needs."""
        covered, parent = self._covered, self.parentWidget()
        if covered is None or parent is None:
            return
        top_left = covered.mapTo(parent, QPoint(0, 0))
        width = max(covered.width() - 2 * _MARGIN, 0)
        height = self.heightForWidth(width) if self.hasHeightForWidth() else -1
        height = max(height, self.sizeHint().height())
        bottom = top_left.y() + covered.height() - _MARGIN
        self.setGeometry(top_left.x() + _MARGIN, max(bottom - height, top_left.y()), width, height)
