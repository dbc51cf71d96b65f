"""What a fast table model hands its delegates: one whole cell per call.

A ``QStyledItemDelegate`` asks ``data()`` once per role (seven times a cell, a thousand times a
screen), each a trip through QVariant. A :class:`CellTableModel` answers everything a cell
paints in one :meth:`CellTableModel.cell` call, and the shared delegates
(:mod:`memory_desk.ui.widgets.delegates`) take that answer when the model gives one; other
models go through ``data()`` as with any delegate, marking a forgotten row with
:data:`FORGOTTEN_ROLE`.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from PySide6.QtCore import QAbstractTableModel, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from memory_desk.core.observations import Observation

FORGOTTEN_ROLE = Qt.ItemDataRole.UserRole + 1  # True on a forgotten row: it is drawn greyed


class CellRecord(Protocol):
    """The row a cell belongs to, as far as the shared delegates read it."""

    observation: Observation
    forgotten: bool


class Cell(NamedTuple):
    """Everything a delegate paints in one cell, from one model call (no ``data()`` per role).

    ``font``/``foreground``/``background`` are None where the view's own apply; ``text`` is
    the cell's as shown (the unsaved mark included).
    """

    text: str
    alignment: Qt.AlignmentFlag
    font: QFont | None
    foreground: QBrush | QColor | None
    background: QBrush | None
    record: CellRecord


class CellTableModel(QAbstractTableModel):
    """A table model that answers each cell in one call (see the module docstring)."""

    def cell(self, row: int, column: int) -> Cell | None:
        """What the cell at (row, column) paints; None while it cannot be read (the delegate
        then asks ``data()`` as any view would)."""
        return None
