"""The folder's own problems, above the entry list: what stops the agent reading its memory.

A folder named like an entry (``archive.md/``), a link to a folder or a pipe makes the agent's
whole listing fail, whatever the entries say: that outweighs any entry's problem, so it is said
above everything, in the theme's error tone and with the error icon (never colour alone), with
the fix one click away.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from memory_desk.core.persona import FolderProblem
from memory_desk.ui import theme
from memory_desk.ui.i18n import shown, translate
from memory_desk.ui.persona.problems import severity_icon, severity_text


class FolderProblemsBanner(QFrame):
    """A red strip listing the folder's problems, hidden while there are none; its button
    applies the fix of the first problem that has one (the next shows after the reload).

    Signals:
        fix_requested(object): the FolderProblem whose fix the person asked for
    """

    fix_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personaFolderProblems")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(translate("FolderProblemsBanner", "Folder problems"))
        self.icon = QLabel(self)
        self.icon.setObjectName("personaFolderProblemsIcon")
        self.icon.setPixmap(severity_icon("error").pixmap(16, 16))
        self.icon.setToolTip(severity_text("error"))
        self.icon.setAccessibleName(severity_text("error"))
        self.text = QLabel(self)
        self.text.setObjectName("personaFolderProblemsText")
        self.text.setTextFormat(Qt.TextFormat.PlainText)  # file names are any text
        self.text.setWordWrap(True)
        self.fix_button = QPushButton(self)
        self.fix_button.setObjectName("personaFolderFixButton")
        self.fix_button.clicked.connect(self._on_fix_clicked)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.fix_button)
        top = QHBoxLayout()
        top.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.text, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addLayout(top)
        layout.addLayout(row)
        self._problems: tuple[FolderProblem, ...] = ()
        theme.set_tone(self, "error")
        self.hide()

    def problems(self) -> tuple[FolderProblem, ...]:
        return self._problems

    def set_problems(self, problems: Sequence[FolderProblem]) -> None:
        """Show these problems (hide when there are none); unchanged problems change nothing,
        so a reload does not make the strip flicker."""
        problems = tuple(problems)
        if problems == self._problems:
            return
        self._problems = problems
        lines = [shown(problem.message) for problem in problems]
        heading = translate(
            "FolderProblemsBanner", "The agent cannot read its memory of you from this folder."
        )
        self.text.setText("\n\n".join([heading, *lines]))
        fixable = self._fixable()
        self.fix_button.setVisible(fixable is not None)
        if fixable is not None:
            label = shown(fixable.fix_label)
            self.fix_button.setText(label)
            self.fix_button.setToolTip(
                translate(
                    "FolderProblemsBanner",
                    "The agent then no longer reads it as an entry (Ctrl+Z undoes it)",
                )
            )
        self.setVisible(bool(problems))

    def _fixable(self) -> FolderProblem | None:
        return next((p for p in self._problems if p.fix_id), None)

    def _on_fix_clicked(self) -> None:
        problem = self._fixable()
        if problem is not None:
            self.fix_requested.emit(problem)
