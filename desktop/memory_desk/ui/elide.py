"""Long names shortened where they differ least: in the middle.

Alisio's projects are ``<basename>-<first 8 hex of sha256(path)>``: the name is what a person
reads, the hash what tells two checkouts apart. :func:`split_project` separates them so views
can draw the name bold and the hash subdued; :func:`elide_middle` keeps both ends of any id.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

_PROJECT = re.compile(r"^(?P<name>.+)-(?P<hash>[0-9a-f]{8})$")


def split_project(project: str) -> tuple[str, str]:
    """``("fieldnotes", "a786d7ce")`` for ``fieldnotes-a786d7ce``; ``(project, "")`` otherwise."""
    match = _PROJECT.match(project or "")
    if match is None:
        return project or "", ""
    return match.group("name"), match.group("hash")


def project_names(projects: list[str]) -> list[str]:
    """What a person reads for each project: its name, with the hash only where two projects
    share a name (two checkouts of one repository)."""
    names = [split_project(project)[0] for project in projects]
    return [
        name if names.count(name) == 1 else project
        for name, project in zip(names, projects, strict=True)
    ]


def elide_middle(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` cut in the middle with ``…`` to fit ``width`` pixels (whole if it fits)."""
    return metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, max(width, 0))


def short_id(text: str, keep: int = 10) -> str:
    """A long id without metrics: its first and last ``keep`` characters around ``…``."""
    if len(text) <= 2 * keep + 1:
        return text
    return f"{text[:keep]}…{text[-keep:]}"
