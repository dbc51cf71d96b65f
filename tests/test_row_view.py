"""The row-painting table view (``ui/widgets/row_view.py``), on a model of its own.

The observations table and the persona list are built on it (their tests compare their own
pixels); these tests hold its contract for any view built on it: with no column painter each
cell is its text, the same pixels as ``QTableView``'s; a column painter paints its cells, and
a cell it declines is the delegate's and the style's; a model the view does not paint, or a
grid, gives ``QTableView``'s own painting.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QTableView

from memory_desk.ui import theme
from memory_desk.ui.widgets.row_view import LEFT, NO_INKS, Paint, RowView, Sample, Shown
from test_paint_calls import changed_pixels

ROWS = 30
COLUMNS = 3
BROKEN = 4  # a row whose first cell holds a line break: the style lays it out


class Words(QAbstractTableModel):
    """Rows of words; ``shown_text`` is what the row view reads, ``data()`` what Qt reads."""

    def __init__(self) -> None:
        super().__init__()
        self.rows = [
            [f"row {row} column {column}" for column in range(COLUMNS)] for row in range(ROWS)
        ]
        self.rows[BROKEN][0] = "two\nlines"
        self.rows[6][2] = "A text far too long for its column, so it is elided at its end " * 3

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else COLUMNS

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole:
            return self.rows[index.row()][index.column()]
        return None

    def shown_text(self, record: list[str], column: int) -> str:
        return record[column]


class WordsView(RowView):
    """A view of :class:`Words` built on the row view, with no column painter of its own."""

    def __init__(self) -> None:
        super().__init__()
        self.alignments = [LEFT] * COLUMNS

    def paints(self, model) -> bool:  # noqa: ANN001
        return isinstance(model, Words)

    def shown_row(self, paint: Paint, row: int) -> Shown | None:
        return Shown(paint.model.rows[row], paint.font, paint.font_key, None, NO_INKS)

    def style_samples(self, option) -> list[Sample]:  # noqa: ANN001
        return [
            Sample("row 1 column 2", LEFT, option.font, None, False, False),
            Sample("row 2 column 2 " * 8, LEFT, option.font, None, True, True),
        ]


def like(view: QTableView, model: Words) -> QTableView:
    view.setModel(model)
    view.setShowGrid(False)
    view.setWordWrap(False)
    view.setAlternatingRowColors(True)
    view.resize(520, 400)
    for column in range(COLUMNS):
        view.setColumnWidth(column, 160)
    view.selectRow(2)
    return view


def grabbed(qtbot, view: QTableView) -> QImage:
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    view.clearFocus()
    return view.viewport().grab().toImage()


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_with_no_column_painter_it_paints_what_qtableview_paints(qtbot, choice: str) -> None:
    theme.apply_theme(choice)
    model = Words()
    view = like(WordsView(), model)
    reference = grabbed(qtbot, like(QTableView(), model))
    view.painted_fast = view.painted_by_style = 0
    assert changed_pixels(grabbed(qtbot, view), reference) == 0
    rows = view.rowAt(view.viewport().height() - 1) - view.rowAt(0) + 1
    assert view.painted_by_style == 1  # the text with a line break
    assert view.painted_fast == rows * COLUMNS - 1


def test_a_column_painter_paints_its_cells_and_leaves_what_it_declines(qtbot) -> None:
    model = Words()
    view = like(WordsView(), model)
    asked: list[int] = []

    def red_on_even_rows(painter, paint, shown, x, top, width, chosen) -> bool | None:  # noqa: ANN001
        row = model.rows.index(shown.record)
        asked.append(row)
        if row % 2:
            return False  # the delegate and the style paint it
        if row % 4 == 2:
            return None  # its text, as a column without a painter
        painter.fillRect(QRect(x, top, width, paint.height), Qt.GlobalColor.red)
        return True

    view.cell_painters = {1: red_on_even_rows}
    reference = grabbed(qtbot, like(QTableView(), model))
    view.painted_by_style = 0
    image = grabbed(qtbot, view)
    on_screen = range(view.rowAt(0), view.rowAt(view.viewport().height() - 1) + 1)
    assert sorted(asked) == list(on_screen)
    declined = sum(row % 2 for row in on_screen)
    assert view.painted_by_style == declined + 1  # + the text with a line break
    for row in (8, 9, 10):
        cell = view.visualRect(model.index(row, 1))
        if row == 8:
            assert QColor(image.pixel(cell.center())) == QColor(Qt.GlobalColor.red)
        else:  # declined (the style's) or its text (the view's): as QTableView paints it
            assert image.copy(cell) == reference.copy(cell)
            assert image.copy(cell) != image.copy(view.visualRect(model.index(row, 2)))


def test_another_model_or_a_grid_gets_qtableviews_own_painting(qtbot) -> None:
    model = Words()
    view = like(WordsView(), model)
    view.setShowGrid(True)
    view.painted_fast = 0
    grabbed(qtbot, view)
    assert view.painted_fast == 0
    view.setShowGrid(False)
    view.viewport().grab()
    assert view.painted_fast > 0
    view.paints = lambda _model: False  # type: ignore[method-assign]
    view.painted_fast = 0
    view.viewport().grab()
    assert view.painted_fast == 0
