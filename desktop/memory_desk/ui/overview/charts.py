"""The Overview's chart of observations saved per day, drawn with QPainter.

One column per day, oldest on the left and today on the right, each a bar stacked by type in
the types' badge colours (the table's badges, so a colour means the same type everywhere),
with a legend above. It is meant to be read and used without a mouse too: the chart takes
the keyboard focus, Left and Right move a highlighted day (Home, End, Page Up and Page Down
jump), Enter or Space asks for that day's observations, and its accessible description says
what it shows and which day is highlighted. Every colour comes from :mod:`memory_desk.ui.theme`
at paint time, so a theme switch repaints it right.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, datetime, time

from PySide6.QtCore import QEvent, QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QFontMetrics,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from memory_desk.core.observations.overview import DayCount
from memory_desk.ui import dates, theme
from memory_desk.ui.i18n import number, plural, translate

_SWATCH = 10
_GAP = 6
_LEGEND_SPACING = 14
_PAGE_DAYS = 7
_LABEL_STEPS = (1, 7, 14, 15, 30, 45, 90)


def day_label(day: date) -> str:
    """A day in the locale's short date format (as the observations page's day filter)."""
    return dates.short_date(dates.ms_from_datetime(datetime.combine(day, time(12)).astimezone()))


class DailyChart(QWidget):
    """Observations saved per day, stacked by type (module docstring).

    Signals:
        day_requested(object): the person clicked a day, or pressed Enter or Space on the
            highlighted one; the value is its ``datetime.date``
        highlight_changed(int): the highlighted day's index changed (keyboard or click)
    """

    day_requested = Signal(object)
    highlight_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("overviewDailyChart")
        self.setAccessibleName(translate("OverviewChart", "Observations saved per day"))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._days: tuple[DayCount, ...] = ()
        self._types: tuple[str, ...] = ()
        self._highlighted = -1
        self._hovered = -1
        self._pressed = -1
        theme.notifier().changed.connect(self.update)
        self._describe()

    # -- what it shows ----------------------------------------------------------------------

    def set_days(self, days: Sequence[DayCount], types: Sequence[str]) -> None:
        """Show these days (oldest first), stacked in the order of ``types``.

        The highlighted day stays the same date when it is still shown, else it is the last.
        """
        kept = self.day(self._highlighted)
        self._days = tuple(days)
        self._types = tuple(types)
        dates_shown = [d.day for d in self._days]
        self._highlighted = dates_shown.index(kept) if kept in dates_shown else len(self._days) - 1
        self._hovered = -1
        self._describe()
        self.updateGeometry()
        self.update()

    def count(self) -> int:
        """How many days the chart shows."""
        return len(self._days)

    def day(self, index: int) -> date | None:
        return self._days[index].day if 0 <= index < len(self._days) else None

    def highlighted(self) -> int:
        """The index of the day the keyboard moves (-1 when nothing is shown)."""
        return self._highlighted

    def set_highlighted(self, index: int) -> None:
        if not self._days:
            return
        index = max(0, min(index, len(self._days) - 1))
        if index == self._highlighted:
            return
        self._highlighted = index
        self._describe()
        self.update()
        self.highlight_changed.emit(index)

    def day_text(self, index: int) -> str:
        """One day in words: its date, how many were saved, and how many of each type."""
        if not 0 <= index < len(self._days):
            return ""
        counted = self._days[index]
        shown = day_label(counted.day)
        if counted.total == 0:
            return translate("OverviewChart", "{day}: nothing saved").format(day=shown)
        head = plural(
            counted.total,
            translate("OverviewChart", "{day}: {n} observation saved"),
            translate("OverviewChart", "{day}: {n} observations saved"),
            day=shown,
        )
        parts = [
            translate("OverviewChart", "{type}: {n}").format(type=kind, n=number(n))
            for kind, n in counted.by_type
        ]
        return "\n".join([head, *parts])

    def summary(self) -> str:
        """What the chart shows, for a screen reader (its accessible description)."""
        if not self._days:
            return translate("OverviewChart", "No days to show.")
        total = sum(d.total for d in self._days)
        span = plural(
            len(self._days),
            translate("OverviewChart", "The last {n} day"),
            translate("OverviewChart", "The last {n} days"),
        )
        if total == 0:
            return translate("OverviewChart", "{span}: nothing saved.").format(span=span)
        busiest = max(self._days, key=lambda d: (d.total, d.day))
        saved = plural(
            total,
            translate("OverviewChart", "{n} observation saved"),
            translate("OverviewChart", "{n} observations saved"),
        )
        return translate("OverviewChart", "{span}: {saved}; the most on {day} ({most}).").format(
            span=span, saved=saved, day=day_label(busiest.day), most=number(busiest.total)
        )

    def _describe(self) -> None:
        how = translate(
            "OverviewChart",
            "Left and Right choose a day; Enter shows what was saved that day.",
        )
        parts = [self.summary(), self.day_text(self._highlighted).replace("\n", ", "), how]
        self.setAccessibleDescription(" ".join(p for p in parts if p))

    # -- geometry ---------------------------------------------------------------------------

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(640, 260)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(240, 200)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt override)
        return False

    def _metrics(self) -> QFontMetrics:
        return QFontMetrics(self.font())

    def _legend_rows(self, width: int) -> list[list[tuple[str, int]]]:
        """The legend's entries ``(type, x)`` wrapped into rows that fit ``width``."""
        metrics = self._metrics()
        rows: list[list[tuple[str, int]]] = [[]]
        x = 0
        for kind in self._types:
            wide = _SWATCH + 4 + metrics.horizontalAdvance(kind)
            if rows[-1] and x + wide > width:
                rows.append([])
                x = 0
            rows[-1].append((kind, x))
            x += wide + _LEGEND_SPACING
        return rows if rows[-1] else rows[:-1]

    def _plot_rect(self) -> QRect:
        """Where the columns are: below the legend, right of the counts, above the dates."""
        metrics = self._metrics()
        line = metrics.height()
        legend = len(self._legend_rows(self.width() - 2 * _GAP)) * (line + 2)
        left = metrics.horizontalAdvance(number(self._scale_top())) + 2 * _GAP
        top = _GAP + legend + (_GAP if legend else 0) + line // 2
        bottom = self.height() - line - 2 * _GAP
        return QRect(left, top, max(self.width() - left - _GAP, 1), max(bottom - top, 1))

    def _scale_top(self) -> int:
        """The count at the top of the scale: the busiest day rounded up to 1, 2 or 5 x 10^k."""
        most = max((d.total for d in self._days), default=0)
        if most <= 0:
            return 1
        magnitude = 10 ** int(math.floor(math.log10(most)))
        for step in (1, 2, 5, 10):
            if most <= step * magnitude:
                return step * magnitude
        return 10 * magnitude

    def column_rect(self, index: int) -> QRect:
        """The whole column of day ``index``: where a click picks that day."""
        if not 0 <= index < len(self._days):
            return QRect()
        plot = self._plot_rect()
        left = plot.left() + plot.width() * index / len(self._days)
        right = plot.left() + plot.width() * (index + 1) / len(self._days)
        return QRect(round(left), plot.top(), max(round(right) - round(left), 1), plot.height())

    def bar_rect(self, index: int) -> QRect:
        """The stacked bar of day ``index`` (empty height when nothing was saved that day)."""
        column = self.column_rect(index)
        if column.isNull():
            return QRect()
        total = self._days[index].total
        height = round(column.height() * total / self._scale_top())
        inset = max(column.width() // 8, 1) if column.width() > 3 else 0
        return QRect(
            column.left() + inset,
            column.bottom() + 1 - height,
            max(column.width() - 2 * inset, 1),
            height,
        )

    def index_at(self, point: QPoint) -> int:
        """The day whose column holds ``point``, or -1."""
        plot = self._plot_rect()
        if not self._days or not plot.adjusted(0, -_GAP, 0, _GAP).contains(point):
            return -1
        index = int((point.x() - plot.left()) * len(self._days) / plot.width())
        return index if 0 <= index < len(self._days) else -1

    # -- painting ---------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        colors = theme.colors()
        painter = QPainter(self)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            self._paint_legend(painter, colors)
            self._paint_scale(painter, colors)
            if sum(d.total for d in self._days) == 0:
                self._paint_empty(painter, colors)
            else:
                self._paint_bars(painter, colors)
            self._paint_dates(painter, colors)
            self._paint_highlight(painter, colors)
        finally:
            painter.end()

    def _paint_legend(self, painter: QPainter, colors: theme.Colors) -> None:
        metrics = self._metrics()
        line = metrics.height()
        for row, entries in enumerate(self._legend_rows(self.width() - 2 * _GAP)):
            y = _GAP + row * (line + 2)
            for kind, x in entries:
                swatch = QRect(_GAP + x, y + (line - _SWATCH) // 2, _SWATCH, _SWATCH)
                painter.fillRect(swatch, QColor(colors.badge(kind)[0]))
                painter.setPen(QColor(colors.text))
                painter.drawText(
                    QRect(swatch.right() + 5, y, metrics.horizontalAdvance(kind) + 2, line),
                    Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                    kind,
                )

    def _paint_scale(self, painter: QPainter, colors: theme.Colors) -> None:
        """Lines at zero, half and the top of the scale, with their counts on the left."""
        plot = self._plot_rect()
        top = self._scale_top()
        grid = QColor(colors.subdued)
        grid.setAlphaF(0.35)
        line = self._metrics().height()
        values = (0, top // 2, top) if top >= 2 else (0, top)
        for value in values:
            y = plot.bottom() - round(plot.height() * value / top)
            painter.setPen(QPen(grid, 1))
            painter.drawLine(plot.left(), y, plot.right(), y)
            painter.setPen(QColor(colors.subdued))
            painter.drawText(
                QRect(0, y - line // 2, plot.left() - _GAP, line),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                number(value),
            )

    def _paint_bars(self, painter: QPainter, colors: theme.Colors) -> None:
        for index, counted in enumerate(self._days):
            bar = self.bar_rect(index)
            if counted.total == 0:
                continue
            bottom = float(bar.bottom() + 1)
            seen = 0
            for kind, n in counted.by_type:
                seen += n
                upper = bar.bottom() + 1 - bar.height() * seen / counted.total
                if seen == counted.total:
                    upper = float(bar.top())
                piece = QRectF(bar.left(), upper, bar.width(), bottom - upper)
                painter.fillRect(piece, QColor(colors.badge(kind)[0]))
                bottom = upper
        if self._hovered >= 0 and self._hovered != self._highlighted:
            hover = QColor(colors.subdued)
            hover.setAlphaF(0.18)
            painter.fillRect(self.column_rect(self._hovered), hover)

    def _paint_empty(self, painter: QPainter, colors: theme.Colors) -> None:
        painter.setPen(QColor(colors.subdued))
        text = (
            translate("OverviewChart", "Nothing saved in these days")
            if self._days
            else translate("OverviewChart", "No days to show")
        )
        painter.drawText(self._plot_rect(), Qt.AlignmentFlag.AlignCenter, text)

    def _paint_dates(self, painter: QPainter, colors: theme.Colors) -> None:
        """A few dates under the columns, counted back from the last day so it always shows."""
        if not self._days:
            return
        plot = self._plot_rect()
        metrics = self._metrics()
        widest = metrics.horizontalAdvance(day_label(self._days[-1].day)) + 3 * _GAP
        slot = plot.width() / len(self._days)
        step = next((s for s in _LABEL_STEPS if s * slot >= widest), len(self._days))
        painter.setPen(QColor(colors.subdued))
        y = plot.bottom() + _GAP // 2
        for index in range(len(self._days) - 1, -1, -step):
            text = day_label(self._days[index].day)
            wide = metrics.horizontalAdvance(text)
            centre = self.column_rect(index).center().x()
            left = max(0, min(centre - wide // 2, self.width() - wide - 1))
            painter.drawText(
                QRect(left, y, wide + 1, metrics.height()), Qt.AlignmentFlag.AlignLeft, text
            )

    def _paint_highlight(self, painter: QPainter, colors: theme.Colors) -> None:
        """The highlighted day: a frame in the link colour, thicker while the chart has focus."""
        column = self.column_rect(self._highlighted)
        if column.isNull():
            return
        pen = QPen(QColor(colors.link), 2 if self.hasFocus() else 1)
        if not self.hasFocus():
            pen.setStyle(Qt.PenStyle.DotLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(column.adjusted(0, 0, -1, -1))

    # -- mouse and keyboard -----------------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.index_at(event.pos())
            if index < 0:
                QToolTip.hideText()
                event.ignore()
                return True
            QToolTip.showText(
                event.globalPos(), self.day_text(index), self, self.column_rect(index)
            )
            return True
        return super().event(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        index = self.index_at(event.position().toPoint())
        if index != self._hovered:
            self._hovered = index
            self.setCursor(
                Qt.CursorShape.PointingHandCursor if index >= 0 else Qt.CursorShape.ArrowCursor
            )
            self.update()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        self._hovered = -1
        self.update()
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if event.button() == Qt.MouseButton.LeftButton:
            self._pressed = self.index_at(event.position().toPoint())
            if self._pressed >= 0:
                self.set_highlighted(self._pressed)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if event.button() == Qt.MouseButton.LeftButton:
            index = self.index_at(event.position().toPoint())
            pressed, self._pressed = self._pressed, -1
            if index >= 0 and index == pressed:
                self.day_requested.emit(self._days[index].day)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        key = event.key()
        moves = {
            Qt.Key.Key_Left: self._highlighted - 1,
            Qt.Key.Key_Right: self._highlighted + 1,
            Qt.Key.Key_PageUp: self._highlighted - _PAGE_DAYS,
            Qt.Key.Key_PageDown: self._highlighted + _PAGE_DAYS,
            Qt.Key.Key_Home: 0,
            Qt.Key.Key_End: len(self._days) - 1,
        }
        if key in moves and self._days:
            self.set_highlighted(moves[key])
            event.accept()
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and self._days:
            self.day_requested.emit(self._days[self._highlighted].day)
            event.accept()
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self.update()
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self.update()
        super().focusOutEvent(event)
