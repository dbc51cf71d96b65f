"""The rename dialog: a new file name, checked against the agent's rules as the person types.

The dialog is wide enough for its title (which names the entry) and for a 60-character name
shown whole, and its button says what it does ("Rename"), never a bare OK.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core.persona import validate_name
from memory_desk.ui.i18n import shown, translate

SHOWN_NAME_CHARS = 60  # a name this long shows whole in the field
# Beyond its text, what a window title bar takes (icon and buttons), and a line edit around its
# text (frame, margins, cursor): room enough on every common desktop.
TITLE_BAR_EXTRA = 160
FIELD_EXTRA = 24


class RenameDialog(QDialog):
    """Asks for an entry's new name; Rename stays disabled while the name is one the agent
    ignores (or the current one)."""

    def __init__(self, current: str, suggestion: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personaRenameDialog")
        self.setWindowTitle(translate("RenameDialog", "Rename {name}").format(name=current))
        intro = QLabel(
            translate(
                "RenameDialog",
                "The name is the file name. The agent only sees lowercase words joined by dashes "
                "(like <code>no-fish-puns</code>).",
            ),
            self,
        )
        intro.setObjectName("personaRenameIntro")
        intro.setWordWrap(True)
        self.name_edit = QLineEdit(suggestion, self)
        self.name_edit.setObjectName("personaRenameName")
        self.name_edit.setAccessibleName(translate("RenameDialog", "New name"))
        self.name_edit.setAccessibleDescription(
            translate("RenameDialog", "The entry's new file name: lowercase words joined by dashes")
        )
        self.name_edit.selectAll()
        self._hint = QLabel(self)
        self._hint.setObjectName("personaRenameHint")
        self._hint.setTextFormat(Qt.TextFormat.PlainText)
        self._hint.setWordWrap(True)
        self._buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.rename_button = self._buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.rename_button.setObjectName("personaRenameButton")
        self.rename_button.setText(translate("RenameDialog", "&Rename"))
        cancel = self._buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setObjectName("personaRenameCancel")
        cancel.setText(translate("RenameDialog", "Cancel"))
        self._buttons.accepted.connect(self.accept)
        self._buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.name_edit)
        layout.addWidget(self._hint)
        layout.addWidget(self._buttons)
        self._current = current
        self._fit_width(suggestion)
        self.name_edit.textChanged.connect(self._on_text_changed)
        self._on_text_changed(suggestion)

    def name(self) -> str:
        return self.name_edit.text().strip()

    def _fit_width(self, suggestion: str) -> None:
        """Wide enough that the title is not elided and a 60-character name shows whole (a
        longer suggestion too, up to the screen)."""
        field = self.name_edit.fontMetrics()
        widest_name = max(
            field.horizontalAdvance("m" * SHOWN_NAME_CHARS), field.horizontalAdvance(suggestion)
        )
        self.name_edit.setMinimumWidth(widest_name + FIELD_EXTRA)
        title_font = QApplication.font("QMdiSubWindowTitleBar")
        title = QFontMetrics(title_font).horizontalAdvance(self.windowTitle()) + TITLE_BAR_EXTRA
        margins = self.layout().contentsMargins()
        wanted = max(title, widest_name + FIELD_EXTRA + margins.left() + margins.right())
        screen = self.screen().availableGeometry().width() if self.screen() else wanted
        self.setMinimumWidth(min(wanted, int(screen * 0.9)))
        self.name_edit.setMinimumWidth(min(self.name_edit.minimumWidth(), int(screen * 0.85)))

    def _on_text_changed(self, _text: str) -> None:
        name = self.name()
        if name == self._current:
            problem: str | None = translate("RenameDialog", "That is the current name.")
        else:
            found = validate_name(name)
            problem = shown(found) if found else None
        self._hint.setText(problem or "")
        self.rename_button.setEnabled(problem is None)


def ask_new_name(current: str, suggestion: str, parent: QWidget | None) -> str | None:
    """Run the dialog; the accepted name, or None if the person cancelled."""
    dialog = RenameDialog(current, suggestion, parent)
    try:
        if dialog.exec() == QDialog.DialogCode.Accepted:
            return dialog.name()
        return None
    finally:
        dialog.deleteLater()
