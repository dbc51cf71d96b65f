"""When a store changed under the person's unsaved edits: one banner and one diff for both pages.

ReText's policy, shared by VS Code, Vim and Emacs: unsaved edits are never replaced silently.
When the thing being edited (a persona entry's file, an observation's row) is changed by an
agent, the banner appears inside the editor and offers *Compare*, *Keep mine* or *Reload
theirs*; when it is gone (deleted, forgotten), *Keep* or *Close*. The banner is not modal:
the person can keep reading and editing while deciding. Each page words the tooltips for its
own store and keeps its own record of what was chosen.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

CHANGED = "changed"
GONE = "gone"

_CHANGED_BUTTONS = ("conflictCompare", "conflictKeepMine", "conflictReload")
_GONE_BUTTONS = ("conflictKeep", "conflictClose")
_LABELS = {
    "conflictCompare": "&Compare",
    "conflictKeepMine": "Keep &mine",
    "conflictReload": "Re&load theirs",
    "conflictKeep": "&Keep",
    "conflictClose": "C&lose",
}


class ConflictBanner(QFrame):
    """A strip inside an editor, hidden until :meth:`show_changed` or :meth:`show_gone`.

    ``tips`` maps each button's object name to a tooltip in the page's own words.

    Signals:
        compare_requested(): show what differs between theirs and the editor
        keep_mine_requested(): keep the editor's version; the next save overwrites theirs
        reload_requested(): drop the editor's edits and show theirs
        keep_requested(): it is gone; keep it open (saving writes it back)
        close_requested(): it is gone; close it
    """

    compare_requested = Signal()
    keep_mine_requested = Signal()
    reload_requested = Signal()
    keep_requested = Signal()
    close_requested = Signal()

    def __init__(self, tips: Mapping[str, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflictBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(
            "QFrame#conflictBanner { background: #fff4ce; border: 1px solid #b38600;"
            " border-radius: 4px; } QLabel { color: #5c4400; }"
        )
        self._label = QLabel(self)
        self._label.setObjectName("conflictMessage")
        self._label.setTextFormat(Qt.TextFormat.PlainText)  # messages name entries and rows
        self._label.setWordWrap(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self._label, 1)
        signals = {
            "conflictCompare": self.compare_requested,
            "conflictKeepMine": self.keep_mine_requested,
            "conflictReload": self.reload_requested,
            "conflictKeep": self.keep_requested,
            "conflictClose": self.close_requested,
        }
        self._buttons: dict[str, QPushButton] = {}
        for name, signal in signals.items():
            button = QPushButton(_LABELS[name], self)
            button.setObjectName(name)
            button.setToolTip(tips.get(name, ""))
            button.clicked.connect(signal)
            layout.addWidget(button)
            self._buttons[name] = button
        self._mode = CHANGED
        self.hide()

    @property
    def mode(self) -> str:
        """CHANGED or GONE: which buttons the banner offers."""
        return self._mode

    def message(self) -> str:
        return self._label.text()

    def show_changed(self, message: str) -> None:
        """Theirs changed: offer Compare / Keep mine / Reload theirs."""
        self._show(CHANGED, message)

    def show_gone(self, message: str) -> None:
        """Theirs is gone (deleted, forgotten): offer Keep / Close."""
        self._show(GONE, message)

    def _show(self, mode: str, message: str) -> None:
        self._mode = mode
        shown = _CHANGED_BUTTONS if mode == CHANGED else _GONE_BUTTONS
        for name, button in self._buttons.items():
            button.setVisible(name in shown)
        self._label.setText(message)
        self.show()


def unified_diff(theirs: str, mine: str, *, theirs_label: str, mine_label: str, same: str) -> str:
    """The differences from theirs to the editor, as ``diff -u`` prints them; ``same`` if none."""
    lines = difflib.unified_diff(
        theirs.splitlines(keepends=True),
        mine.splitlines(keepends=True),
        fromfile=theirs_label,
        tofile=mine_label,
    )
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    return text or same + "\n"


class CompareDialog(QDialog):
    """A read-only unified diff, not modal, so the editor stays usable beside it."""

    def __init__(self, diff: str, *, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareDialog")
        self.setWindowTitle(title)
        self.resize(720, 520)
        view = QPlainTextEdit(self)
        view.setObjectName("conflictDiff")
        view.setReadOnly(True)
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        view.setPlainText(diff)
        self.diff_view = view
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(view, 1)
        layout.addWidget(buttons)
