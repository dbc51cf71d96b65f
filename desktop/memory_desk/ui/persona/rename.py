"""The rename dialog: a new file name, checked against the agent's rules as the person types."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.persona import validate_name


class RenameDialog(QDialog):
    """Asks for an entry's new name; OK stays disabled while the name is one the agent ignores."""

    def __init__(self, current: str, suggestion: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personaRenameDialog")
        self.setWindowTitle(f"Rename {current}")
        intro = QLabel(
            "The name is the file name. The agent only sees lowercase words joined by dashes "
            "(like <code>no-fish-puns</code>).",
            self,
        )
        intro.setWordWrap(True)
        self.name_edit = QLineEdit(suggestion, self)
        self.name_edit.setObjectName("personaRenameName")
        self.name_edit.selectAll()
        self._hint = QLabel(self)
        self._hint.setObjectName("personaRenameHint")
        self._hint.setTextFormat(Qt.TextFormat.PlainText)
        self._hint.setWordWrap(True)
        self._buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self._buttons.accepted.connect(self.accept)
        self._buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.name_edit)
        layout.addWidget(self._hint)
        layout.addWidget(self._buttons)
        self._current = current
        self.name_edit.textChanged.connect(self._on_text_changed)
        self._on_text_changed(suggestion)

    def name(self) -> str:
        return self.name_edit.text().strip()

    def _on_text_changed(self, _text: str) -> None:
        name = self.name()
        problem = validate_name(name) if name != self._current else "That is the current name."
        self._hint.setText(problem or "")
        self._buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(problem is None)


def ask_new_name(current: str, suggestion: str, parent: QWidget | None) -> str | None:
    """Run the dialog; the accepted name, or None if the person cancelled."""
    dialog = RenameDialog(current, suggestion, parent)
    try:
        if dialog.exec() == QDialog.DialogCode.Accepted:
            return dialog.name()
        return None
    finally:
        dialog.deleteLater()
