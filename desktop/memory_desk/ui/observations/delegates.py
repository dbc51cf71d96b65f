"""The coloured type badge: a rounded pill with the type's name, one hue per type."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from memory_desk.ui.observations.model import ObservationTableModel


class TypeBadgeDelegate(QStyledItemDelegate):
    """Paints the type column as a badge so types can be told apart while scrolling.

    Forgotten rows get a faded badge, matching the greyed text of the rest of the row.
    """

    PADDING_X = 7
    MARGIN_Y = 3

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        model = index.model()
        badge = model.badge(index.row()) if isinstance(model, ObservationTableModel) else None
        if badge is None:
            super().paint(painter, option, index)
            return
        text, colour, forgotten = badge
        self._paint_background(painter, option, index)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = option.font
        font.setPointSizeF(max(font.pointSizeF() * 0.9, 7.0))
        painter.setFont(font)
        metrics = painter.fontMetrics()
        cell = QRectF(option.rect).adjusted(4, self.MARGIN_Y, -4, -self.MARGIN_Y)
        room = int(cell.width()) - 2 * self.PADDING_X
        label = (
            text
            if metrics.horizontalAdvance(text) <= room
            else metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
        )
        width = min(metrics.horizontalAdvance(label) + 2 * self.PADDING_X, cell.width())
        badge = QRectF(cell.left(), cell.top(), width, cell.height())
        fill = QColor(colour)
        if forgotten:
            fill.setAlphaF(0.35)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        radius = badge.height() / 2
        painter.drawRoundedRect(badge, radius, radius)
        painter.setPen(QColor("white"))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, label)
        painter.restore()

    def _paint_background(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        """The style's selection/hover background, without the cell's own text."""
        background = QStyleOptionViewItem(option)
        self.initStyleOption(background, index)
        background.text = ""
        style = background.widget.style() if background.widget else None
        if style is not None:
            style.drawControl(
                QStyle.ControlElement.CE_ItemViewItem, background, painter, background.widget
            )
