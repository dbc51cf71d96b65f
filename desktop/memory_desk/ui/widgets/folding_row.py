"""A row of controls that folds in two when it is narrow: the first control (a search field)
keeps room to type, on a line of its own, and the others go to a line below.

Used by the observations page's filter bar: at 1024 pixels in Spanish the filters' words leave
the search field too narrow to see what is typed. The row is one line whenever the first
control keeps at least ``room`` pixels beside the others.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget


class FoldingRow(QObject):
    """Lays out ``first`` and ``others`` in ``parent``: one line, or two when narrow."""

    def __init__(
        self, parent: QWidget, first: QWidget, others: Sequence[QWidget], *, room: int
    ) -> None:
        super().__init__(parent)
        self._parent = parent
        self._first = first
        self._others = list(others)
        self._room = room
        outer = QVBoxLayout(parent)
        outer.setContentsMargins(0, 0, 0, 0)
        self._top = QHBoxLayout()
        self._bottom = QHBoxLayout()
        outer.addLayout(self._top)
        outer.addLayout(self._bottom)
        self._top.addWidget(first, 1)
        self._folded: bool | None = None
        self._place(folded=False)
        parent.installEventFilter(self)
        for widget in self._others:
            widget.installEventFilter(self)

    def is_folded(self) -> bool:
        """True while the others stand on a line below the first."""
        return bool(self._folded)

    def others_width(self) -> int:
        """What the other controls need beside the first, in pixels."""
        shown = [w for w in self._others if not w.isHidden()]
        spacing = max(self._top.spacing(), 0)
        return sum(w.sizeHint().width() + spacing for w in shown)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if watched is self._parent and kind == QEvent.Type.Resize:
            self.fit()
        elif watched is not self._parent and kind in (QEvent.Type.Show, QEvent.Type.Hide):
            self.fit()  # a control that comes or goes (the day filter) changes the need
        return False

    def fit(self) -> None:
        """One line when the first control keeps its room beside the others, else two."""
        width = self._parent.width()
        self._place(folded=width - self.others_width() < self._room)

    def _place(self, *, folded: bool) -> None:
        if folded == self._folded:
            return
        self._folded = folded
        line = self._bottom if folded else self._top
        for widget in self._others:
            (self._top if folded else self._bottom).removeWidget(widget)
            line.addWidget(widget)
        if folded:
            self._bottom.addStretch(1)
        else:
            while self._bottom.count():
                self._bottom.takeAt(0)  # (the stretch: its widgets went up already)
