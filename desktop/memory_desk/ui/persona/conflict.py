"""The conflict banner and the compare dialog: what to do when the file moved under the editor.

ReText's policy (shared by VS Code, Vim and Emacs): unsaved edits are never replaced silently.
When a save meets a newer file, or the file changes on disk while the editor holds edits, the
banner appears inside the editor and the person chooses Compare, Keep mine or Reload theirs;
when the open entry's file is deleted, Keep (saving writes it back) or Close. The banner is not
modal: the person can keep reading and editing while deciding.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from PySide6.QtCore import Signal
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
DELETED = "deleted"


@dataclass
class DiskConflict:
    """The open entry's file moved under the editor, and what the person chose about it.

    ``theirs`` is the sha256 of the file on disk when the conflict was seen (None: deleted).
    ``kept`` means the person chose Keep / Keep mine: the next save overwrites (or re-creates)
    the file, but only while the disk still holds ``theirs``, so a later change is never
    overwritten unseen. ``save_pending`` means the banner answered a save: keeping saves at once.
    """

    kind: str  # CHANGED | DELETED
    theirs: str | None
    save_pending: bool = False
    kept: bool = False


class ConflictBanner(QFrame):
    """A strip offering Compare / Keep mine / Reload theirs when the file changed on disk, or
    Keep / Close when it was deleted; hidden until :meth:`show_conflict` or :meth:`show_deleted`.

    Signals:
        compare_requested(): show the differences between the file on disk and the editor
        keep_mine_requested(): keep the editor's version; saving writes it over the file
        reload_requested(): drop the editor's edits and read the file again
        keep_requested(): keep the deleted entry open; saving writes it back
        close_requested(): drop the deleted entry from the editor
    """

    compare_requested = Signal()
    keep_mine_requested = Signal()
    reload_requested = Signal()
    keep_requested = Signal()
    close_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflictBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(
            "QFrame#conflictBanner { background: #fff4ce; border: 1px solid #b38600;"
            " border-radius: 4px; } QLabel { color: #5c4400; }"
        )
        self._label = QLabel(self)
        self._label.setObjectName("conflictMessage")
        self._label.setWordWrap(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self._label, 1)
        self._buttons: dict[str, QPushButton] = {}
        for name, text, tip, signal in (
            ("conflictCompare", "&Compare", "Show what differs (Alt+C)", self.compare_requested),
            (
                "conflictKeepMine",
                "&Keep mine",
                "Keep your version: saving writes it over the file on disk (Alt+K)",
                self.keep_mine_requested,
            ),
            (
                "conflictReload",
                "Re&load theirs",
                "Drop your edits and read the file on disk (Alt+L)",
                self.reload_requested,
            ),
            (
                "conflictKeep",
                "&Keep",
                "Keep the entry open: saving writes it back to the folder (Alt+K)",
                self.keep_requested,
            ),
            (
                "conflictClose",
                "C&lose",
                "Close the entry; it stays deleted (Alt+L)",
                self.close_requested,
            ),
        ):
            button = QPushButton(text, self)
            button.setObjectName(name)
            button.setToolTip(tip)
            button.clicked.connect(signal)
            layout.addWidget(button)
            self._buttons[name] = button
        self._mode = CHANGED
        self.hide()

    @property
    def mode(self) -> str:
        """CHANGED or DELETED: which buttons the banner offers."""
        return self._mode

    def show_conflict(self, message: str) -> None:
        """Say the file changed on disk (``message`` says how); offer Compare / Keep mine /
        Reload theirs."""
        self._show(CHANGED, message)

    def show_deleted(self, message: str) -> None:
        """Say the file was deleted on disk; offer Keep / Close."""
        self._show(DELETED, message)

    def _show(self, mode: str, message: str) -> None:
        self._mode = mode
        shown = (
            ("conflictCompare", "conflictKeepMine", "conflictReload")
            if mode == CHANGED
            else ("conflictKeep", "conflictClose")
        )
        for name, button in self._buttons.items():
            button.setVisible(name in shown)
        self._label.setText(message)
        self.show()


def unified_diff(theirs: str, mine: str, name: str) -> str:
    """The differences from the file on disk to the editor, as ``diff -u`` prints them."""
    lines = difflib.unified_diff(
        theirs.splitlines(keepends=True),
        mine.splitlines(keepends=True),
        fromfile=f"{name} (on disk)",
        tofile=f"{name} (yours)",
    )
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    return text or "No differences: the file on disk says the same as your version.\n"


class CompareDialog(QDialog):
    """A read-only unified diff, shown beside the editor (not modal) so both stay usable."""

    def __init__(self, diff: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflictCompareDialog")
        self.setWindowTitle("Compare: on disk vs yours")
        self.resize(720, 520)
        view = QPlainTextEdit(self)
        view.setObjectName("conflictDiff")
        view.setReadOnly(True)
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        view.setPlainText(diff)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(view, 1)
        layout.addWidget(buttons)
