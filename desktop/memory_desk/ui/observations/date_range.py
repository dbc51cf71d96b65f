"""The filter bar's date range: any time, the last day, week or month, or chosen days.

A compact button (``dateRangeFilter``: the bar must fit a 1024-pixel window, in Spanish too)
shows a calendar, or the span in a word while it hides rows ("7 days", bold), its tooltip
saying which date and which days; it opens a small popup: the span (``dateRangeChoice``),
whether it bounds when a row was created or last updated (``dateFieldChoice``) and, for
chosen days, the first and last day (``dateFromEdit``, ``dateToEdit``, local days, both
included). The choice is a :class:`DateChoice`, kept as the person made it (a saved search keeps "the last 7 days", not
last week's dates); :meth:`DateChoice.to_range` turns it into the store's
:class:`~memory_desk.core.observations.search.DateRange` when a query is asked. A relative
span starts at the minute, so asking twice within a minute is the same question.

Signals (DateRangeFilter):
    changed(): the person changed the range
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from PySide6.QtCore import QDate, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QIcon, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QFormLayout,
    QFrame,
    QToolButton,
    QWidget,
)

from memory_desk.core import alisio
from memory_desk.core.observations.search import DATE_FIELDS, DateRange
from memory_desk.ui import dates, theme
from memory_desk.ui.i18n import translate

ANY, DAY, WEEK, MONTH, CUSTOM = "any", "24h", "7d", "30d", "custom"
PRESETS: tuple[str, ...] = (ANY, DAY, WEEK, MONTH, CUSTOM)
_SPAN_MS = {DAY: 24 * 3_600_000, WEEK: 7 * 86_400_000, MONTH: 30 * 86_400_000}
_MINUTE = 60_000


@dataclass(frozen=True)
class DateChoice:
    """What the person chose: a span (one of :data:`PRESETS`), the column it bounds, and the
    first and last local day of a chosen span."""

    preset: str = ANY
    field: str = "created"
    first_day: date | None = None
    last_day: date | None = None

    def to_range(self, now: int | None = None) -> DateRange | None:
        """The store's range for this choice at ``now`` (ms); None for any time."""
        if self.preset == ANY:
            return None
        if self.preset == CUSTOM:
            start = _midnight(self.first_day) if self.first_day is not None else None
            end = None
            if self.last_day is not None:
                end = _midnight(self.last_day + timedelta(days=1))
            return DateRange(self.field, start, end)
        now = alisio.now_ms() if now is None else now
        return DateRange(self.field, now // _MINUTE * _MINUTE - _SPAN_MS[self.preset], None)

    def as_dict(self) -> dict[str, str]:
        """The choice as plain strings (saved searches keep it in the settings)."""
        kept = {"preset": self.preset, "field": self.field}
        for key, day in (("first_day", self.first_day), ("last_day", self.last_day)):
            if day is not None:
                kept[key] = day.isoformat()
        return kept

    @classmethod
    def from_dict(cls, kept: object) -> DateChoice:
        """The choice :meth:`as_dict` kept; anything unreadable reads as any time."""
        if not isinstance(kept, dict):
            return cls()
        preset = kept.get("preset") if kept.get("preset") in PRESETS else ANY
        field = kept.get("field") if kept.get("field") in DATE_FIELDS else "created"
        return cls(preset, field, _day(kept.get("first_day")), _day(kept.get("last_day")))


def _day(text: object) -> date | None:
    try:
        return date.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


def _midnight(day: date) -> int:
    """The local midnight starting ``day``, in ms (a day may last 23 or 25 hours)."""
    return dates.ms_from_datetime(datetime.combine(day, time.min).astimezone())


def preset_labels() -> dict[str, str]:
    return {
        ANY: translate("DateRangeFilter", "Any time"),
        DAY: translate("DateRangeFilter", "Last 24 hours"),
        WEEK: translate("DateRangeFilter", "Last 7 days"),
        MONTH: translate("DateRangeFilter", "Last 30 days"),
        CUSTOM: translate("DateRangeFilter", "Chosen days"),
    }


def field_labels() -> dict[str, str]:
    return {
        "created": translate("DateRangeFilter", "Created"),
        "updated": translate("DateRangeFilter", "Updated"),
    }


def choice_label(choice: DateChoice) -> str:
    """The range in a word or two, as the narrow button names it (which date it bounds and
    the chosen days are in its tooltip and its popup)."""
    return short_labels()[choice.preset]


def days_label(choice: DateChoice) -> str:
    """Chosen days as the locale writes dates: ``3/12/26 – 3/20/26``."""
    first = _short(choice.first_day) if choice.first_day else "…"
    last = _short(choice.last_day) if choice.last_day else "…"
    return translate("DateRangeFilter", "{first} – {last}").format(first=first, last=last)


def short_labels() -> dict[str, str]:
    """The spans as the narrow button names them."""
    return {
        ANY: translate("DateRangeFilter", "Date"),
        DAY: translate("DateRangeFilter", "24 h"),
        WEEK: translate("DateRangeFilter", "7 days"),
        MONTH: translate("DateRangeFilter", "30 days"),
        CUSTOM: translate("DateRangeFilter", "Dates"),
    }


def _short(day: date) -> str:
    return dates.short_date(dates.ms_from_datetime(datetime.combine(day, time(12)).astimezone()))


def _qdate(day: date) -> QDate:
    return QDate(day.year, day.month, day.day)


class DateRangeFilter(QToolButton):
    """The date range's button and its popup (see the module docstring).

    Signals:
        changed(): the person changed the range
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dateRangeFilter")
        self.setAccessibleName(translate("DateRangeFilter", "Date filter"))
        self._choice = DateChoice()
        theme.notifier().changed.connect(self._draw_icon)
        self._draw_icon()
        self.popup = self._build_popup()
        self.clicked.connect(self.open_popup)
        self._show_choice()

    def _build_popup(self) -> QFrame:
        popup = QFrame(self, Qt.WindowType.Popup)
        popup.setObjectName("dateRangePopup")
        popup.setFrameShape(QFrame.Shape.StyledPanel)
        self.span = QComboBox(popup)
        self.span.setObjectName("dateRangeChoice")
        self.span.setAccessibleName(translate("DateRangeFilter", "Span of time"))
        self.span.addItems(list(preset_labels().values()))
        self.field = QComboBox(popup)
        self.field.setObjectName("dateFieldChoice")
        self.field.setAccessibleName(translate("DateRangeFilter", "Which date"))
        self.field.addItems(list(field_labels().values()))
        self.field.setToolTip(
            translate(
                "DateRangeFilter", "Whether the range bounds when a row was created or last updated"
            )
        )
        today = date.today()
        self.first = self._date_edit(popup, "dateFromEdit", today - timedelta(days=7))
        self.last = self._date_edit(popup, "dateToEdit", today)
        form = QFormLayout(popup)
        form.addRow(translate("DateRangeFilter", "Show"), self.span)
        form.addRow(translate("DateRangeFilter", "By date"), self.field)
        form.addRow(translate("DateRangeFilter", "From"), self.first)
        form.addRow(translate("DateRangeFilter", "To"), self.last)
        for box in (self.span, self.field):
            box.currentIndexChanged.connect(self._on_edited)
        for edit in (self.first, self.last):
            edit.dateChanged.connect(self._on_edited)
        return popup

    def _date_edit(self, parent: QWidget, name: str, day: date) -> QDateEdit:
        edit = QDateEdit(_qdate(day), parent)
        edit.setObjectName(name)
        edit.setCalendarPopup(True)
        edit.setAccessibleName(
            translate("DateRangeFilter", "First day")
            if name == "dateFromEdit"
            else translate("DateRangeFilter", "Last day")
        )
        return edit

    def _draw_icon(self) -> None:
        """A small calendar in the theme's text colour (drawn: no icon file is needed)."""
        side = self.fontMetrics().height()
        ratio = self.devicePixelRatioF()
        pixmap = QPixmap(round(side * ratio), round(side * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        ink = self.palette().color(QPalette.ColorRole.ButtonText)
        pen = QPen(ink, max(1.0, side / 12))
        painter.setPen(pen)
        page = QRectF(side * 0.12, side * 0.2, side * 0.76, side * 0.68)
        painter.drawRoundedRect(page, side * 0.08, side * 0.08)
        painter.drawLine(
            QPointF(page.left(), page.top() + side * 0.2),
            QPointF(page.right(), page.top() + side * 0.2),
        )
        for x in (0.35, 0.65):
            painter.drawLine(QPointF(side * x, side * 0.1), QPointF(side * x, side * 0.28))
        painter.end()
        self.setIcon(QIcon(pixmap))

    # -- what the bar reads and sets ----------------------------------------------------------

    def choice(self) -> DateChoice:
        return self._choice

    def set_choice(self, choice: DateChoice, *, quietly: bool = False) -> None:
        """Show ``choice`` in the button and the popup; ``quietly`` emits nothing."""
        self._choice = choice
        widgets = (self.span, self.field, self.first, self.last)
        for widget in widgets:
            widget.blockSignals(True)
        self.span.setCurrentIndex(PRESETS.index(choice.preset))
        self.field.setCurrentIndex(DATE_FIELDS.index(choice.field))
        if choice.first_day is not None:
            self.first.setDate(_qdate(choice.first_day))
        if choice.last_day is not None:
            self.last.setDate(_qdate(choice.last_day))
        for widget in widgets:
            widget.blockSignals(False)
        self._show_choice()
        if not quietly:
            self.changed.emit()

    def open_popup(self) -> None:
        """Open the popup under the button."""
        self.popup.adjustSize()
        self.popup.move(self.mapToGlobal(QPoint(0, self.height())))
        self.popup.show()
        self.span.setFocus()

    # -- reacting ---------------------------------------------------------------------------

    def _on_edited(self) -> None:
        preset = PRESETS[max(0, self.span.currentIndex())]
        custom = preset == CUSTOM
        first = self.first.date().toPython() if custom else None
        last = self.last.date().toPython() if custom else None
        if first is not None and last is not None and last < first:
            first, last = last, first  # the days read the same whichever was set first
        field = DATE_FIELDS[max(0, self.field.currentIndex())]
        choice = DateChoice(preset, field, first, last)
        if choice != self._choice:
            self._choice = choice
            self._show_choice()
            self.changed.emit()

    def _show_choice(self) -> None:
        """The button names the range and is bold while it hides rows; the day edits are
        enabled only for chosen days."""
        choice = self._choice
        custom = choice.preset == CUSTOM
        self.first.setEnabled(custom)
        self.last.setEnabled(custom)
        self.setText(choice_label(choice))
        # The calendar alone, or the span alone: the bar must fit 1024 pixels in Spanish too.
        style = Qt.ToolButtonStyle
        self.setToolButtonStyle(
            style.ToolButtonIconOnly if choice.preset == ANY else style.ToolButtonTextOnly
        )
        if choice.preset == ANY:
            tip = translate(
                "DateRangeFilter", "Show only what was created or updated in a span of time"
            )
        else:
            span = days_label(choice) if choice.preset == CUSTOM else preset_labels()[choice.preset]
            if choice.field == "updated":
                tip = translate("DateRangeFilter", "Showing only what was updated: {span}")
            else:
                tip = translate("DateRangeFilter", "Showing only what was created: {span}")
            tip = tip.format(span=span)
        self.setToolTip(tip)
        self.setAccessibleDescription(tip)
        font = self.font()
        if font.bold() != (choice.preset != ANY):
            font.setBold(choice.preset != ANY)
            self.setFont(font)
