"""A splitter that turns: its two panes side by side while there is room for both, one above
the other when there is not.

A page laid out for a wide window squeezes its panes on a small screen (a tab bar hides tabs
behind arrows, a list scrolls sideways); stacked, each pane gets the whole width. Whether
there is room is the owner's answer (``wide``), asked at every resize, since what each pane
needs depends on its texts in the person's language. A saved layout (``restoreState``) brings
its own orientation back: once shown, the splitter turns again to what the width allows, and
keeps the sizes it was given until it turns.

Signals:
    turned(Qt.Orientation): the panes now sit this way (side by side: Horizontal)
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QByteArray, Qt, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QSplitter, QWidget

SIDE_BY_SIDE = Qt.Orientation.Horizontal
STACKED = Qt.Orientation.Vertical


class TurningSplitter(QSplitter):
    """Side by side while ``wide()`` says so, stacked otherwise (module docstring).

    ``shares`` are the panes' parts of the room after a turn, side by side and stacked.
    """

    turned = Signal(object)

    def __init__(
        self,
        wide: Callable[[], bool],
        shares: tuple[tuple[int, int], tuple[int, int]] = ((1, 1), (1, 1)),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(SIDE_BY_SIDE, parent)
        self._wide = wide
        self._shares = shares

    def follow_width(self) -> None:
        """Turn if the room asks for the other way (and share the room out anew)."""
        if self.count() != 2 or not self.isVisible():
            return  # (a hidden splitter's width means nothing: it follows when shown)
        wanted = SIDE_BY_SIDE if self._wide() else STACKED
        if wanted == self.orientation():
            return
        self.setOrientation(wanted)
        first, second = self._shares[0 if wanted == SIDE_BY_SIDE else 1]
        room = self.width() if wanted == SIDE_BY_SIDE else self.height()
        self.setSizes([room * first // (first + second), room * second // (first + second)])
        self.turned.emit(wanted)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self.follow_width()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self.follow_width()

    def restoreState(self, state: QByteArray) -> bool:  # noqa: N802 (Qt override)
        restored = super().restoreState(state)
        self.follow_width()
        return restored
