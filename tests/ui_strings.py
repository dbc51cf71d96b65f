"""What a person reads and what a screen reader hears, collected from a live window.

``marked_language()`` installs a translator that wraps every translated string in ``⟦…⟧``;
``untranslated(root)`` then lists each visible string that does not carry the mark, i.e. text
that never went through Qt's translation system. ``unnamed(root)`` lists the controls and views
a screen reader would announce without a name.

Text that shows the person's data (an observation's title, a file name) is not translated:
widgets that show only data say so with ``i18n.mark_data(widget)``, and model cells are data
unless they come from a header.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtGui import QAccessible, QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from memory_desk.ui import i18n

OPEN, CLOSE = "⟦", "⟧"
# Text with nothing to translate: numbers, punctuation, symbols, shortcuts, single letters.
_NEUTRAL = re.compile(r"^[\W\d_]*$|^[A-Za-z0-9]\)?$|^(Ctrl|Shift|Alt|Del|F\d+|Esc|Return)\b.*$")


class MarkingTranslator(QTranslator):
    def translate(self, context, source, disambiguation=None, n=-1):  # noqa: D401 (Qt override)
        return f"{OPEN}{source}{CLOSE}"

    def isEmpty(self) -> bool:  # noqa: N802 (Qt override)
        return False


@contextlib.contextmanager
def marked_language() -> Iterator[None]:
    """Every string that goes through Qt's translation comes out as ``⟦text⟧``."""
    app = QApplication.instance()
    i18n.install_language("en")
    marker = MarkingTranslator(app)
    app.installTranslator(marker)
    try:
        yield
    finally:
        app.removeTranslator(marker)
        i18n.install_language("en")


def _shows_data(widget: QWidget) -> bool:
    while widget is not None:
        if widget.property("showsData"):
            return True
        widget = widget.parentWidget()
    return False


def _strip_mnemonic(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _is_neutral(text: str) -> bool:
    text = _strip_mnemonic(text).strip()
    if not text or _NEUTRAL.match(text):
        return True
    return bool(re.fullmatch(r"<[^>]*>|&\w+;|\s", text))


def _unmarked(text: str) -> bool:
    """True when ``text`` holds words that did not come through the translator.

    Text outside every ``⟦…⟧`` is allowed only if it is neutral (numbers, punctuation, markup).
    """
    if not text:
        return False
    plain = re.sub(r"<[^>]+>", " ", text)  # rich text: only what is read counts
    outside = plain
    while True:  # innermost marks first: a translated value inside a translated template
        shorter = re.sub(r"⟦[^⟦⟧]*⟧", "  ", outside)
        if shorter == outside:
            break
        outside = shorter
    outside = re.sub(r"⟦|⟧", " ", outside)
    return any(not _is_neutral(piece) for piece in re.split(r"\s{2,}|\n", outside))


def visible_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every string of ``root``'s visible widgets, menus and headers."""
    widgets = [root, *root.findChildren(QWidget)]
    for widget in widgets:
        if not widget.isVisibleTo(root) and widget is not root and not isinstance(widget, QMenu):
            continue
        if _shows_data(widget):
            continue
        name = widget.objectName() or type(widget).__name__
        texts: list[tuple[str, str]] = []
        if widget.isWindow():
            texts.append(("windowTitle", widget.windowTitle().replace("[*]", "")))
        if widget.toolTip():
            texts.append(("toolTip", widget.toolTip()))
        if isinstance(widget, (QLabel, QAbstractButton)):
            texts.append(("text", widget.text()))
        elif isinstance(widget, (QLineEdit, QTextEdit, QPlainTextEdit)):
            texts.append(("placeholder", widget.placeholderText()))
        elif isinstance(widget, QGroupBox):
            texts.append(("title", widget.title()))
        elif isinstance(widget, QTabBar):
            texts.extend(("tab", widget.tabText(i)) for i in range(widget.count()))
        elif isinstance(widget, QComboBox) and not widget.isEditable():
            texts.extend(("item", widget.itemText(i)) for i in range(widget.count()))
        elif isinstance(widget, QAbstractSpinBox):
            texts.append(("suffix", getattr(widget, "suffix", lambda: "")()))
        if isinstance(widget, QListWidget):  # (the page list: its rows are the app's words)
            texts.extend(("row", widget.item(row).text()) for row in range(widget.count()))
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            for section in range(model.columnCount()):
                texts.append(
                    ("header", str(model.headerData(section, Qt.Orientation.Horizontal) or ""))
                )
        for action in widget.actions():
            if isinstance(action, QAction) and action.property("showsData"):
                continue  # an action named after the person's data (i18n.mark_data)
            if isinstance(action, QAction) and not action.isSeparator():
                texts.append((f"action {action.objectName()}", action.text()))
                texts.append((f"action {action.objectName()} tip", action.toolTip()))
                texts.append((f"action {action.objectName()} status", action.statusTip()))
                if action.menu() is not None:
                    texts.append((f"menu {action.menu().objectName()}", action.menu().title()))
        for where, text in texts:
            yield f"{name}.{where}", text


def untranslated(root: QWidget) -> list[str]:
    """Visible strings of ``root`` that did not go through the translator (needs the mark)."""
    found = []
    for where, text in visible_texts(root):
        if _unmarked(text) and not _is_data_action_tip(where, text):
            found.append(f"{where}: {text!r}")
    return sorted(set(found))


def _is_data_action_tip(where: str, text: str) -> bool:
    # Qt derives an action's tooltip from its text when none is set: the text is checked.
    return where.endswith(" tip") and OPEN in text


CONTROLS = (
    QAbstractButton,
    QLineEdit,
    QComboBox,
    QAbstractItemView,
    QTextEdit,
    QPlainTextEdit,
    QAbstractSpinBox,
    QListWidget,
    QTabBar,
)


def accessible_name(widget: QWidget) -> str:
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface.text(QAccessible.Text.Name) if interface is not None else ""


def unnamed(root: QWidget) -> list[str]:
    """Visible controls and views a screen reader would announce without a name."""
    missing = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or not widget.isVisibleTo(root):
            continue
        if isinstance(widget, QHeaderView) or widget.objectName().startswith("qt_"):
            continue
        if not accessible_name(widget).strip():
            missing.append(f"{widget.objectName() or '?'} ({type(widget).__name__})")
    return sorted(missing)


def translated_test_text(context: str, text: str) -> str:
    """What ``translate(context, text)`` gives under the languages now installed."""
    return QCoreApplication.translate(context, text)
