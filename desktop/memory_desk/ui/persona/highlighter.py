"""Markdown highlighting for the body editor: enough colour to see the shape of an entry.

The agent stores the body as plain markdown; the person edits the text, not a rendering, so the
highlighter marks headings, emphasis, code, lists, quotes and links without hiding any character.

The colours are the theme's (``theme.colors().syntax``), read when the formats are built; when
the theme changes the formats are built again and the whole text re-highlighted.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from memory_desk.ui import theme

_IN_FENCE = 1
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")

# (pattern, format name); applied in order, later rules paint over earlier ones.
_INLINE_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^\s{0,3}#{1,6}\s.*$"), "heading"),
    (re.compile(r"^\s*(?:[-*+]|\d+[.)])\s"), "list"),
    (re.compile(r"^\s{0,3}>.*$"), "quote"),
    (re.compile(r"(\*|_)(?!\s)[^*_\n]+?(?<!\s)\1"), "italic"),
    (re.compile(r"(\*\*|__)(?!\s).+?(?<!\s)\1"), "bold"),
    (re.compile(r"\[[^\]\n]*\]\([^)\n]*\)|<https?://[^>\s]+>"), "link"),
    (re.compile(r"`[^`\n]+`"), "code"),
)


def _formats() -> dict[str, QTextCharFormat]:
    """One character format per markdown element, in the colours of the theme in effect."""
    syntax = theme.colors().syntax

    def make(
        colour: str | None = None, *, bold: bool = False, italic: bool = False, mono: bool = False
    ) -> QTextCharFormat:
        fmt = QTextCharFormat()
        if colour:
            fmt.setForeground(QColor(colour))
        if bold:
            fmt.setFontWeight(QFont.Weight.Bold)
        if italic:
            fmt.setFontItalic(True)
        if mono:
            fmt.setFontFamilies(["monospace"])
            fmt.setFontFixedPitch(True)
        return fmt

    link = make(syntax["link"])
    link.setFontUnderline(True)  # a link is underlined, not only coloured
    return {
        "heading": make(syntax["heading"], bold=True),
        "list": make(syntax["list"], bold=True),
        "quote": make(syntax["quote"], italic=True),
        "italic": make(italic=True),
        "bold": make(bold=True),
        "link": link,
        "code": make(syntax["code"], mono=True),
        "fence": make(syntax["code"], mono=True),
    }


class MarkdownHighlighter(QSyntaxHighlighter):
    """Highlights markdown line by line; fenced code blocks carry over as block state."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._formats = _formats()
        theme.notifier().changed.connect(self._on_theme_changed)

    def _on_theme_changed(self) -> None:
        """Colour the text again in the new theme's colours."""
        self._formats = _formats()
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt override)
        inside = self.previousBlockState() == _IN_FENCE
        if _FENCE.match(text):
            self.setFormat(0, len(text), self._formats["fence"])
            self.setCurrentBlockState(0 if inside else _IN_FENCE)
            return
        if inside:
            self.setFormat(0, len(text), self._formats["fence"])
            self.setCurrentBlockState(_IN_FENCE)
            return
        self.setCurrentBlockState(0)
        for pattern, name in _INLINE_RULES:
            for match in pattern.finditer(text):
                self.setFormat(match.start(), match.end() - match.start(), self._formats[name])

    def format_name_at(self, block_number: int, position: int) -> str | None:
        """The element painted at a position (for tests and accessibility), or None."""
        block = self.document().findBlockByNumber(block_number)
        for fmt_range in block.layout().formats():
            if fmt_range.start <= position < fmt_range.start + fmt_range.length:
                for name, fmt in self._formats.items():
                    if fmt_range.format == fmt:
                        return name
        return None
