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
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QHideEvent,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from memory_desk.ui import theme
from memory_desk.ui.i18n import translate

CHANGED = "changed"
GONE = "gone"

_CHANGED_BUTTONS = ("conflictCompare", "conflictKeepMine", "conflictReload")
_GONE_BUTTONS = ("conflictKeep", "conflictClose")


def _button_labels() -> dict[str, str]:
    """The banner's button texts in the person's language (read when a banner is built)."""
    return {
        "conflictCompare": translate("ConflictBanner", "&Compare"),
        "conflictKeepMine": translate("ConflictBanner", "Keep &mine"),
        "conflictReload": translate("ConflictBanner", "Re&load theirs"),
        "conflictKeep": translate("ConflictBanner", "&Keep"),
        "conflictClose": translate("ConflictBanner", "C&lose"),
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
        state_changed(): the banner was shown, hidden or changed its mode (a compare dialog
            follows it to offer its choices only while they mean something)
    """

    compare_requested = Signal()
    keep_mine_requested = Signal()
    reload_requested = Signal()
    keep_requested = Signal()
    close_requested = Signal()
    state_changed = Signal()

    def __init__(self, tips: Mapping[str, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflictBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(translate("ConflictBanner", "Changed by another program"))
        theme.set_tone(self, "warning")
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
        labels = _button_labels()
        self._buttons: dict[str, QPushButton] = {}
        for name, signal in signals.items():
            button = QPushButton(labels[name], self)
            button.setObjectName(name)
            button.setToolTip(tips.get(name, ""))
            button.setAccessibleDescription(tips.get(name, ""))
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
        self.setAccessibleDescription(message)
        self.show()
        self.state_changed.emit()

    def offers_keep_mine(self) -> bool:
        """True while the banner asks Keep mine / Reload theirs (what a compare dialog offers)."""
        return self._mode == CHANGED and not self.isHidden()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt override)
        super().hideEvent(event)
        self.state_changed.emit()


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


def diff_line_kind(line: str) -> str:
    """``added``, ``removed``, ``header``, ``hunk`` or ``same``: how a ``diff -u`` line reads."""
    if line.startswith(("+++ ", "--- ")):
        return "header"
    if line.startswith("@@"):
        return "hunk"
    if line.startswith("+"):
        return "added"
    if line.startswith("-"):
        return "removed"
    return "same"


class CompareDialog(QDialog):
    """A read-only unified diff, not modal, so the editor stays usable beside it.

    Lines only in theirs start with ``-`` and lines only in the person's version with ``+``
    (the signs stay: colour is never the only signal); the theme in effect colours them, and
    they are coloured again when the theme changes. The dialog offers the choice itself:
    *Keep mine* or *Take theirs* closes it with :attr:`choice` set (``KEEP_MINE`` or
    ``TAKE_THEIRS``; ``None`` when closed without choosing), ``chosen`` emitted and, for
    ``exec()``, the result ``RESULT_KEEP_MINE`` or ``RESULT_TAKE_THEIRS``. :meth:`follow`
    wires the choice to a conflict banner's own signals.

    Signals:
        chosen(str): the person chose ``KEEP_MINE`` or ``TAKE_THEIRS``
        keep_mine_requested(): the person chose to keep their version
        take_theirs_requested(): the person chose to drop their edits and take theirs
    """

    KEEP_MINE = "mine"
    TAKE_THEIRS = "theirs"
    RESULT_KEEP_MINE = 2
    RESULT_TAKE_THEIRS = 3

    chosen = Signal(str)
    keep_mine_requested = Signal()
    take_theirs_requested = Signal()

    def __init__(self, diff: str, *, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareDialog")
        self.setWindowTitle(title)
        self.resize(720, 520)
        self.choice: str | None = None
        self._banner: ConflictBanner | None = None
        legend = QLabel(
            translate(
                "CompareDialog",
                "Lines starting with - are only in theirs; lines starting with + are only in yours.",
            ),
            self,
        )
        legend.setObjectName("compareLegend")
        legend.setWordWrap(True)
        view = QPlainTextEdit(self)
        view.setObjectName("conflictDiff")
        view.setReadOnly(True)
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        view.setAccessibleName(translate("CompareDialog", "Differences"))
        view.setAccessibleDescription(legend.text())
        view.setPlainText(diff)
        self.diff_view = view
        self._buttons = self._build_buttons()
        layout = QVBoxLayout(self)
        layout.addWidget(legend)
        layout.addWidget(view, 1)
        layout.addWidget(self._buttons)
        self._colour_lines()
        theme.notifier().changed.connect(self._colour_lines)

    def _build_buttons(self) -> QDialogButtonBox:
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.setObjectName("compareButtons")
        for name, text, tip, choice in (
            (
                "compareKeepMine",
                translate("CompareDialog", "Keep &mine"),
                translate("CompareDialog", "Keep your version; saving writes it over theirs"),
                self.KEEP_MINE,
            ),
            (
                "compareTakeTheirs",
                translate("CompareDialog", "&Take theirs"),
                translate("CompareDialog", "Drop your edits and take their version"),
                self.TAKE_THEIRS,
            ),
        ):
            button = buttons.addButton(text, QDialogButtonBox.ButtonRole.ActionRole)
            button.setObjectName(name)
            button.setToolTip(tip)
            button.setAccessibleDescription(tip)
            button.clicked.connect(lambda _checked=False, c=choice: self.choose(c))
        buttons.rejected.connect(self.close)
        return buttons

    def button(self, name: str) -> QPushButton:
        """``compareKeepMine`` or ``compareTakeTheirs``."""
        found = self._buttons.findChild(QPushButton, name)
        assert found is not None, name
        return found

    def choose(self, choice: str) -> None:
        """Record the person's choice, say it, and close (``exec()`` returns its result)."""
        self.choice = choice
        self.chosen.emit(choice)
        (
            self.keep_mine_requested if choice == self.KEEP_MINE else self.take_theirs_requested
        ).emit()
        self.done(self.RESULT_KEEP_MINE if choice == self.KEEP_MINE else self.RESULT_TAKE_THEIRS)

    def follow(self, banner: ConflictBanner) -> None:
        """Act through ``banner``: Keep mine / Take theirs press its Keep mine / Reload theirs,
        and are offered only while the banner asks that question."""
        self._banner = banner
        self.keep_mine_requested.connect(banner.keep_mine_requested)
        self.take_theirs_requested.connect(banner.reload_requested)
        banner.state_changed.connect(self._on_banner_state)
        self._on_banner_state()

    def _on_banner_state(self) -> None:
        offered = self._banner is not None and self._banner.offers_keep_mine()
        for name in ("compareKeepMine", "compareTakeTheirs"):
            self.button(name).setEnabled(offered)

    def _colour_lines(self) -> None:
        """Colour added and removed lines (full width) from the theme in effect."""
        colours = theme.colors()
        fills = {"added": colours.diff_added, "removed": colours.diff_removed}
        selections = []
        block = self.diff_view.document().firstBlock()
        while block.isValid():
            kind = diff_line_kind(block.text())
            fmt = QTextCharFormat()
            if kind in fills:
                background, foreground = fills[kind]
                fmt.setBackground(QColor(background))
                fmt.setForeground(QColor(foreground))
                fmt.setProperty(QTextFormat.Property.FullWidthSelection, True)
            elif kind == "header":
                fmt.setFontWeight(QFont.Weight.Bold)
            elif kind == "hunk":
                fmt.setForeground(QColor(colours.subdued))
            else:
                block = block.next()
                continue
            selection = QTextEdit.ExtraSelection()
            selection.format = fmt
            selection.cursor = QTextCursor(block)
            selection.cursor.clearSelection()
            if kind not in fills:
                selection.cursor.movePosition(
                    QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
                )
            selections.append(selection)
            block = block.next()
        self.diff_view.setExtraSelections(selections)

    def line_colours(self) -> dict[str, tuple[str, str]]:
        """(background, text) of each coloured line, by its text (what the person sees)."""
        found = {}
        for selection in self.diff_view.extraSelections():
            fmt = selection.format
            if fmt.hasProperty(QTextFormat.Property.BackgroundBrush):
                line = selection.cursor.block().text()
                found[line] = (fmt.background().color().name(), fmt.foreground().color().name())
        return found
