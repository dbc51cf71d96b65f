"""What the agent sees: the whole memory section of its system prompt, with the list marked.

The section is mostly the agent's own fixed text (heading, introduction, its rules for using its
memory); only the list between them changes with the entries. The person reads exactly what the
model reads, and the shading shows which part their edits move. While the folder has a problem
that makes the agent's listing fail, there is no section at all, and the view says that instead
of showing a list the agent will not get.

The shading is the theme's info tone, applied again when the theme changes. The section itself
is the agent's text and stays as the agent reads it (English); the captions are translated.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QColor, QFontDatabase, QTextBlockFormat, QTextCursor
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from memory_desk.core.jstext import utf16_len
from memory_desk.core.persona import (
    FolderProblem,
    PersonaEntry,
    listed_prompt_parts,
    listing_failure,
    prompt_parts,
)
from memory_desk.ui import theme
from memory_desk.ui.i18n import shown as show_text
from memory_desk.ui.i18n import translate


def list_caption() -> str:
    return translate(
        "AgentView",
        "Shaded: the list part, which changes with your entries. The rest is the agent's own text.",
    )


def failed_caption() -> str:
    return translate(
        "AgentView", "The agent gets no memory section while the folder has the problem above."
    )


class AgentView(QWidget):
    """The prompt section in a read-only, monospaced view (``personaAgentView``), under a
    caption (``personaAgentViewCaption``) that says what the shading means."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = QLabel(list_caption(), self)
        self.caption.setObjectName("personaAgentViewCaption")
        self.caption.setWordWrap(True)
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("personaAgentView")
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setToolTip(
            translate("AgentView", "Exactly the section of the agent's system prompt these build")
        )
        self.text.setAccessibleName(translate("AgentView", "What the agent sees"))
        self.text.setAccessibleDescription(
            translate(
                "AgentView",
                "The memory section of the agent's system prompt, exactly as the agent reads it",
            )
        )
        self.text.document().setUndoRedoEnabled(False)
        theme.notifier().changed.connect(self._on_theme_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.caption)
        layout.addWidget(self.text, 1)
        self._shown: tuple[str, str, str] | str | None = None

    def clear(self) -> None:
        self._shown = None
        self.text.clear()
        self.caption.setText(list_caption())

    def show_section(
        self,
        entries: Sequence[PersonaEntry],
        problems: Sequence[FolderProblem] = (),
        *,
        listed: bool = False,
        visible: int | None = None,
    ) -> None:
        """Show the section these entries build, or why the agent gets none; ``listed``:
        the entries are in the folder's listing order, so nothing needs sorting again (and
        ``visible``, how many the agent sees, if known, spares counting them)."""
        failure = listing_failure(problems)
        if failure is not None:
            shown: str | tuple[str, str, str] = failure
        elif listed:
            shown = listed_prompt_parts(entries, visible)
        else:
            shown = prompt_parts(entries)
        if shown == self._shown:
            return  # a reload that changed nothing keeps the scroll position
        self._shown = shown
        if isinstance(shown, str):
            self.caption.setText(failed_caption())
            self.text.setPlainText(show_text(shown))
            return
        self.caption.setText(list_caption())
        self.text.setPlainText("".join(shown))
        self._mark_list(len(shown[0]), len(shown[1]))

    def _mark_list(self, start: int, length: int) -> None:
        """Shade the blocks of the list part (given in str characters; the document counts
        UTF-16 code units, so a description with an emoji shifts what follows)."""
        text = "".join(self._shown) if isinstance(self._shown, tuple) else ""
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(utf16_len(text[:start]))
        cursor.setPosition(utf16_len(text[: start + length]), QTextCursor.MoveMode.KeepAnchor)
        shade = QTextBlockFormat()
        shade.setBackground(shade_colour())
        cursor.mergeBlockFormat(shade)

    def _on_theme_changed(self) -> None:
        """Shade the list again in the new theme's colour."""
        if isinstance(self._shown, tuple):
            self._mark_list(len(self._shown[0]), len(self._shown[1]))


def shade_colour() -> QColor:
    """The list part's background: the theme's info tone (readable under the view's text)."""
    return QColor(theme.colors().tone("info").background)
