"""A markdown view for untrusted text: memories are written by an agent, so the view follows no
link and loads no image, style sheet or remote resource. The observations' detail pane and the
chats' summary both read through it."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QTextBrowser, QWidget

from memory_desk.ui.plain import refused_resource


class ContentBrowser(QTextBrowser):
    """A markdown view that never follows links or fetches anything."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)

    def loadResource(self, kind: int, name: QUrl | str) -> object:  # noqa: N802 (Qt override)
        """Images and style sheets named in a memory are not loaded: nothing leaves the machine."""
        return refused_resource(kind)  # (None would let QTextDocument read a local file itself)
