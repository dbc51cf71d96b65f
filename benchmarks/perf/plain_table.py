"""The plain reference for scrolling and sorting: a QTableView on a simple table model.

The same live rows as the window's default view, read the simplest way: every id in a
list, each screen's rows fetched in one ``sqlite3`` query on demand, strings cached per
row, sorting by re-running the ORDER BY on the main thread and resetting the model. No
delegates, no marks, no worker: the floor a custom table is compared with.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSize, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTableView

from perf.rawsql import COLUMNS, NEWEST

_NAMES = [part.strip().removeprefix("o.") for part in COLUMNS.split(",")]
_BLOCK = 200


class SimpleModel(QAbstractTableModel):
    """Ids in a list; rows read in blocks and kept as tuples of strings."""

    def __init__(self, conn: sqlite3.Connection, ids: list[int]) -> None:
        super().__init__()
        self.conn = conn
        self.ids = ids
        self.rows: dict[int, tuple[str, ...]] = {}

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.ids)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(_NAMES)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return _NAMES[section]
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        oid = self.ids[index.row()]
        row = self.rows.get(oid)
        if row is None:
            self._fetch(index.row())
            row = self.rows.get(oid, ())
        return row[index.column()] if index.column() < len(row) else None

    def _fetch(self, row: int) -> None:
        block = self.ids[max(0, row - _BLOCK // 2) : row + _BLOCK // 2]
        marks = ",".join(str(i) for i in block)
        for values in self.conn.execute(
            f"SELECT {COLUMNS} FROM observations o WHERE o.id IN ({marks})"
        ):
            self.rows[values[0]] = tuple("" if v is None else str(v) for v in values)

    def reset_ids(self, ids: list[int]) -> None:
        self.beginResetModel()
        self.ids = ids
        self.endResetModel()


class PlainTable:
    """The reference view, sized like the window's table viewport."""

    def __init__(self, db: Path, viewport: QSize, row_height: int) -> None:
        self.conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        ids = self._ids(NEWEST)
        self.model = SimpleModel(self.conn, ids)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.verticalHeader().setDefaultSectionSize(row_height)
        self.view.verticalHeader().hide()
        self.view.resize(viewport.width() + 4, viewport.height() + 30)
        self.view.show()
        QApplication.processEvents()

    def _ids(self, order: str) -> list[int]:
        sql = f"SELECT o.id FROM observations o WHERE o.deleted_at IS NULL ORDER BY {order}"
        return [row[0] for row in self.conn.execute(sql)]

    def sort_frames(self, app: QApplication) -> list[float]:
        """Per column: the ORDER BY, the reset and the repaint, all on the main thread (ms)."""
        frames = []
        for name in _NAMES:
            order = f"o.{name} DESC, o.id DESC"
            began = time.perf_counter()
            self.model.reset_ids(self._ids(order))
            app.processEvents()
            self.view.viewport().repaint()
            frames.append((time.perf_counter() - began) * 1000)
        return frames

    def close(self) -> None:
        self.view.close()
        self.view.deleteLater()
        self.conn.close()
        QApplication.processEvents()
