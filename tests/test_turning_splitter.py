"""The splitter that turns (ui/widgets/turning_splitter.py) on its own, in a real shown
widget: it follows the room its owner says there is, shares the room out when it turns, and
a saved layout keeps its sizes until the splitter has to turn."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from memory_desk.ui.widgets.turning_splitter import SIDE_BY_SIDE, STACKED, TurningSplitter

WIDE = 900  # the owner's answer: side by side from this width


def build(qtbot, width: int) -> tuple[QWidget, TurningSplitter, list[Qt.Orientation]]:
    holder = QWidget()
    qtbot.addWidget(holder)
    splitter = TurningSplitter(lambda: holder.width() >= WIDE, ((1, 3), (1, 1)), holder)
    for text in ("list", "detail"):
        splitter.addWidget(QLabel(text, splitter))
    layout = QVBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(splitter)
    turns: list[Qt.Orientation] = []
    splitter.turned.connect(turns.append)
    holder.resize(width, 600)
    return holder, splitter, turns


def test_it_follows_the_room_and_shares_it_out(qtbot) -> None:
    holder, splitter, turns = build(qtbot, 600)
    holder.show()
    qtbot.waitExposed(holder)
    qtbot.waitUntil(lambda: splitter.orientation() == STACKED)
    first, second = splitter.sizes()
    assert abs(first - second) <= splitter.handleWidth() + 1  # stacked: halves

    holder.resize(1200, 600)
    qtbot.waitUntil(lambda: splitter.orientation() == SIDE_BY_SIDE)
    first, second = splitter.sizes()
    assert abs(3 * first - second) <= 4 * (splitter.handleWidth() + 1)  # beside: 1 to 3
    assert turns == [STACKED, SIDE_BY_SIDE]


def test_a_saved_layout_keeps_its_sizes_until_it_must_turn(qtbot) -> None:
    holder, splitter, turns = build(qtbot, 1200)
    holder.show()
    qtbot.waitExposed(holder)
    splitter.setSizes([700, 500])
    saved = splitter.saveState()
    holder.close()

    again, restored, turns = build(qtbot, 600)
    restored.restoreState(saved)  # (hidden, not yet at the window's width)
    again.resize(1200, 600)
    again.show()
    qtbot.waitExposed(again)
    qtbot.wait(20)
    assert restored.orientation() == SIDE_BY_SIDE and turns == []
    assert abs(restored.sizes()[0] - 700) <= 2

    stacked = QSplitter(Qt.Orientation.Vertical)
    stacked.addWidget(QLabel("a"))
    stacked.addWidget(QLabel("b"))
    restored.restoreState(stacked.saveState())  # a layout saved on a small screen
    assert restored.orientation() == SIDE_BY_SIDE and turns == [SIDE_BY_SIDE]
    stacked.deleteLater()
