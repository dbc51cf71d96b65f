"""The markdown preview: a QTextBrowser that never leaves the agent's folder.

A memory file is text someone (or an agent) wrote; rendering it must not fetch a tracking image,
follow a link, or read a file elsewhere on the disk. Links are reported, never opened; resources
load only when they resolve to a file inside the folder.

Rendering markdown happens on the window's thread and grows with the text: a long text is
rendered only up to ``PREVIEW_CHARS``, with a line that says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget

from memory_desk.ui.i18n import number, translate
from memory_desk.ui.plain import refused_resource

PREVIEW_RESOURCE_LIMIT = 5 * 1024 * 1024
PREVIEW_CHARS = 32 * 1024
_IMAGE = QTextDocument.ResourceType.ImageResource.value


class SafePreview(QTextBrowser):
    """Renders markdown with ``setMarkdown``; opens no link and loads nothing from outside.

    Signals (inherited): ``anchorClicked(QUrl)`` when the person clicks a link; the page decides
    what to say about it, the browser itself never navigates.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personaPreview")
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setAccessibleName(translate("SafePreview", "Preview"))
        self.setAccessibleDescription(
            translate("SafePreview", "The entry's markdown as it reads when rendered")
        )
        self._folder: Path | None = None
        self.blocked: list[str] = []  # what the last rendering asked for and did not get

    def set_folder(self, folder: Path | None) -> None:
        """Relative resources resolve against this folder and must stay inside it."""
        self._folder = folder.resolve() if folder is not None else None
        base = QUrl.fromLocalFile(f"{self._folder}/") if self._folder else QUrl()
        self.document().setBaseUrl(base)

    def show_markdown(self, text: str) -> None:
        """Render ``text`` (its first ``PREVIEW_CHARS`` characters, and a line saying so when
        there are more); the list of resources refused is reset for each rendering."""
        self.blocked = []
        if len(text) > PREVIEW_CHARS:
            cut = translate(
                "SafePreview", "*The preview shows only the first {kb} KB of the text.*"
            ).format(kb=number(PREVIEW_CHARS // 1024))
            text = f"{text[:PREVIEW_CHARS]}\n\n---\n\n{cut}\n"
        self.setMarkdown(text)

    def loadResource(self, kind: int, url: QUrl) -> Any:  # noqa: N802 (Qt override)
        """Load only images that are files inside the folder; anything else renders missing."""
        local = self._local_path(url) if kind == _IMAGE else None
        if local is None:
            if url.toString() not in self.blocked:
                self.blocked.append(url.toString())
            return refused_resource(kind)
        return super().loadResource(kind, QUrl.fromLocalFile(str(local)))

    def _local_path(self, url: QUrl) -> Path | None:
        """The file inside the folder this URL names, or None if it names anything else."""
        if self._folder is None:
            return None
        if url.isRelative() and not url.scheme():
            url = QUrl.fromLocalFile(f"{self._folder}/").resolved(url)
        if url.scheme() != "file" or url.host():
            return None
        try:
            path = Path(url.toLocalFile()).resolve()
        except (OSError, RuntimeError):
            return None
        if not path.is_relative_to(self._folder) or not path.is_file():
            return None
        try:
            if path.stat().st_size > PREVIEW_RESOURCE_LIMIT:
                return None
        except OSError:
            return None
        return path
