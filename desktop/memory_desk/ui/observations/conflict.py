"""When the observation being edited changes underneath: the banner and the compare dialog.

The agent may revise the row the person is editing (a save with the same topic_key), forget
it or delete it. Unsaved text is never replaced silently (ReText's policy, as for the persona
editor): the form keeps the person's text and this banner, inside the form, offers what to do.

- Rewritten: *Compare* (a unified diff, theirs against mine), *Keep mine* (the next save
  overwrites the new version knowingly), *Reload theirs* (drop my edits, show theirs).
- Forgotten or deleted: *Keep* (keep editing; saving restores a forgotten row) or *Close*.

The banner is not modal: the person can read, scroll and copy while deciding.
"""

from __future__ import annotations

import difflib

from PySide6.QtCore import Signal, SignalInstance
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

from memory_desk.core.observations import Observation

CHANGED = "changed"
FORGOTTEN = "forgotten"
DELETED = "deleted"


class EditConflictBanner(QFrame):
    """A strip above the edit form, hidden until :meth:`show_changed` or :meth:`show_gone`.

    Signals:
        compare_requested(): show a diff of the stored version against the form
        keep_mine_requested(): keep the form; the next save overwrites the new version
        reload_requested(): drop the form's edits and load the stored version
        keep_requested(): the row was forgotten or deleted; keep editing anyway
        close_requested(): the row was forgotten or deleted; leave the form
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
        self._changed_buttons = [
            self._button(layout, *spec)
            for spec in (
                (
                    "conflictCompare",
                    "&Compare",
                    "Show what differs (Alt+C)",
                    self.compare_requested,
                ),
                (
                    "conflictKeepMine",
                    "Keep &mine",
                    "Keep your text; saving will replace the new version (Alt+M)",
                    self.keep_mine_requested,
                ),
                (
                    "conflictReload",
                    "Re&load theirs",
                    "Drop your edits and show the new version (Alt+L)",
                    self.reload_requested,
                ),
            )
        ]
        self._gone_buttons = [
            self._button(layout, *spec)
            for spec in (
                (
                    "conflictKeep",
                    "Kee&p",
                    "Keep editing; saving restores a forgotten observation (Alt+P)",
                    self.keep_requested,
                ),
                (
                    "conflictClose",
                    "C&lose",
                    "Leave the form without saving (Alt+L)",
                    self.close_requested,
                ),
            )
        ]
        self.hide()

    def _button(
        self, layout: QHBoxLayout, name: str, text: str, tip: str, signal: SignalInstance
    ) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.setToolTip(tip)
        button.clicked.connect(signal)
        layout.addWidget(button)
        return button

    def message(self) -> str:
        return self._label.text()

    def show_changed(self, message: str) -> None:
        """The row was rewritten: Compare / Keep mine / Reload theirs."""
        self._show(message, changed=True)

    def show_gone(self, message: str) -> None:
        """The row was forgotten or deleted: Keep / Close."""
        self._show(message, changed=False)

    def _show(self, message: str, *, changed: bool) -> None:
        self._label.setText(message)
        for button in self._changed_buttons:
            button.setVisible(changed)
        for button in self._gone_buttons:
            button.setVisible(not changed)
        self.show()


def as_text(title: str, type: str, topic_key: str, content: str) -> str:
    """An observation's editable fields as one text, so a diff shows every field."""
    return f"Title: {title}\nType: {type}\nTopic key: {topic_key or '—'}\n\n{content}"


def observation_text(observation: Observation) -> str:
    return as_text(
        observation.title,
        observation.type,
        observation.topic_key or "",
        observation.content or "",
    )


def unified_diff(theirs: str, mine: str, observation_id: int) -> str:
    """The differences from the stored version to the form, as ``diff -u`` prints them."""
    lines = difflib.unified_diff(
        theirs.splitlines(keepends=True),
        mine.splitlines(keepends=True),
        fromfile=f"#{observation_id} (in the database)",
        tofile=f"#{observation_id} (yours)",
    )
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    return text or "No differences: the database holds the same text as your form.\n"


class CompareDialog(QDialog):
    """A read-only unified diff, not modal, so the form stays usable beside it."""

    def __init__(self, diff: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("observationCompareDialog")
        self.setWindowTitle("Compare: in the database vs yours")
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
