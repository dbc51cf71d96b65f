"""Ctrl+Z undoes the person's last action wherever the focus is, unless the focused field has
text of its own to undo.

Qt gives every editable text field first claim on Ctrl+Z (and redo), even one with nothing to
undo: with the focus in an empty search box, Ctrl+Z would do nothing at all, and a message
saying "Ctrl+Z brings them back" would be false. :class:`UndoKeyRouter` watches the fields of
one window and lets the key go to the window's Undo/Redo actions when the field has nothing
to undo/redo; :func:`has_own_undo` is the same test, for messages that name the keys.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget


def has_own_undo(widget: QWidget | None) -> bool:
    """True when Ctrl+Z pressed in ``widget`` should undo its own text."""
    return _own_history(widget, redo=False)


def _own_history(widget: QWidget | None, *, redo: bool) -> bool:
    if isinstance(widget, QComboBox) and widget.isEditable():
        widget = widget.lineEdit()
    if isinstance(widget, QLineEdit):
        if widget.isReadOnly():
            return False
        return widget.isRedoAvailable() if redo else widget.isUndoAvailable()
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        if widget.isReadOnly():
            return False
        document = widget.document()
        return document.isRedoAvailable() if redo else document.isUndoAvailable()
    return False


def _is_text_field(widget: QWidget) -> bool:
    return isinstance(widget, (QLineEdit, QPlainTextEdit, QTextEdit, QComboBox))


class UndoKeyRouter(QObject):
    """Lets Ctrl+Z (and redo) reach ``window``'s actions from a field with nothing to undo.

    Each text field of the window that takes the focus gets this object as its event filter:
    when the key would only reach an empty history, the field's claim on it is refused, so
    the window's shortcut runs instead."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._on_focus_changed)

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is not None and _is_text_field(new) and new.window() is self._window:
            new.installEventFilter(self)  # installing again only moves it first: no duplicates

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(watched, QWidget):
            return False
        assert isinstance(event, QKeyEvent)
        if event.matches(QKeySequence.StandardKey.Undo):
            redo = False
        elif event.matches(QKeySequence.StandardKey.Redo):
            redo = True
        else:
            return False
        if _own_history(watched, redo=redo):
            return False
        event.ignore()  # the field does not claim the key: the window's action runs
        return True
