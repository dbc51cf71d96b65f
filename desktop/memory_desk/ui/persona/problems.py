"""The problems list: what is wrong with the open entry, in plain words, with a one-click fix.

Each problem carries the style's warning or error icon AND the word ("Warning", "Error") that
the icon means, so neither colour nor shape is the only signal.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QApplication,
    QGridLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStyle,
    QWidget,
)

from memory_desk.core.persona import FIX_LABELS, Problem
from memory_desk.ui.i18n import shown, translate


def severity_icon(severity: str) -> QIcon:
    """The style's warning or error icon: the same marker the entry list shows."""
    pixmap = (
        QStyle.StandardPixmap.SP_MessageBoxCritical
        if severity == "error"
        else QStyle.StandardPixmap.SP_MessageBoxWarning
    )
    return QApplication.style().standardIcon(pixmap)


def severity_text(severity: str) -> str:
    """The word for what the icon shows, in the person's language."""
    if severity == "error":
        return translate("ProblemsPanel", "Error")
    return translate("ProblemsPanel", "Warning")


def fix_label(fix_id: str) -> str:
    """The fix button's text: the core's label for this fix, shown in the person's language."""
    label = FIX_LABELS.get(fix_id)
    return shown(label) if label else translate("ProblemsPanel", "Fix")


class ProblemsPanel(QScrollArea):
    """One row per problem: icon, message (wrapped to the panel's width) and, when the core
    knows one, a fix button under it.

    Signals:
        fix_requested(str): the fix id of the button the person pressed
    """

    fix_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personaProblems")
        self.setMaximumHeight(150)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setToolTip(
            translate(
                "ProblemsPanel", "What the agent will get wrong about this entry, and how to fix it"
            )
        )
        self.setAccessibleName(translate("ProblemsPanel", "Problems of the entry"))
        self.setAccessibleDescription(
            translate(
                "ProblemsPanel", "What the agent will get wrong about this entry, and how to fix it"
            )
        )
        self._messages: list[str] = []
        self._buttons: list[QPushButton] = []
        self.setWidget(QWidget(self))

    def set_problems(self, problems: Sequence[Problem], *, fixes_enabled: bool = True) -> None:
        """Show these problems; fix buttons are disabled while the person edits."""
        content = QWidget(self)
        grid = QGridLayout(content)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setColumnStretch(1, 1)
        self._messages = [shown(problem.message) for problem in problems]
        self._buttons = []
        for number, problem in enumerate(problems):
            self._add(grid, number * 2, problem, fixes_enabled)
        grid.setRowStretch(len(problems) * 2, 1)
        old = self.takeWidget()
        if old is not None:
            old.deleteLater()  # later: a fix button being clicked may be in there
        self.setWidget(content)

    def messages(self) -> list[str]:
        return list(self._messages)

    def set_fixes_enabled(self, enabled: bool) -> None:
        for button in self._buttons:
            button.setEnabled(enabled)

    def _add(self, grid: QGridLayout, row: int, problem: Problem, fixes_enabled: bool) -> None:
        content = grid.parentWidget()
        word = severity_text(problem.severity)
        icon = QLabel(content)
        icon.setObjectName(f"personaProblemIcon-{row // 2}")
        icon.setPixmap(severity_icon(problem.severity).pixmap(16, 16))
        icon.setToolTip(word)
        icon.setAccessibleName(word)
        text = QLabel(
            translate("ProblemsPanel", "{severity}: {problem}").format(
                severity=word, problem=shown(problem.message)
            ),
            content,
        )
        text.setObjectName(f"personaProblemText-{row // 2}")
        text.setTextFormat(Qt.TextFormat.PlainText)  # messages quote the file's own text
        text.setWordWrap(True)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grid.addWidget(icon, row, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(text, row, 1)
        if problem.fix:
            button = QPushButton(fix_label(problem.fix), content)
            button.setObjectName(f"personaFix-{problem.fix}")
            button.setToolTip(
                translate(
                    "ProblemsPanel", "Fix the file on disk (save or discard your edits first)"
                )
            )
            button.setEnabled(fixes_enabled)
            fix_id = problem.fix
            button.clicked.connect(lambda _checked=False, f=fix_id: self.fix_requested.emit(f))
            grid.addWidget(button, row + 1, 1, Qt.AlignmentFlag.AlignLeft)
            self._buttons.append(button)
