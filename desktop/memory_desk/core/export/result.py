"""What an export made (:class:`ExportResult`) and what it left out (:class:`Skipped`).

Its own room because every export returns one and the UI reads it, whatever was exported.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Skipped:
    """A file of the folder left out of the export, and why (a message)."""

    name: str
    reason: str


@dataclass(frozen=True)
class ExportResult:
    """What an export made: where, how many observations (or entries), what it left out."""

    path: Path
    count: int
    skipped: tuple[Skipped, ...] = ()
