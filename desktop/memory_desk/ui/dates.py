"""One date style for the whole window, in the person's language.

- Lists say how long ago, for the last 30 days (``just now``, ``5 min ago``, ``3 h ago``,
  ``yesterday``, ``12 days ago``), and the locale's short date beyond that (``3/14/26``,
  ``14/3/26``); a time ahead of the clock by more than a minute is a date too.
- Hover and detail panes give the exact local time, in the locale's long format with seconds.

Times are milliseconds since the epoch (Alisio's columns); persona entries convert their
ISO ``updated`` with :func:`ms_from_datetime`.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QDateTime, QLocale

from memory_desk.ui.i18n import translate

_MINUTE = 60_000
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR
RELATIVE_DAYS = 30


def ms_from_datetime(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _moment(ms: int) -> QDateTime:
    return QDateTime.fromMSecsSinceEpoch(int(ms))


def short_date(ms: int) -> str:
    """The local calendar date in the locale's short format."""
    return QLocale().toString(_moment(ms).date(), QLocale.FormatType.ShortFormat)


def exact(ms: int | None) -> str:
    """Local date and time to the second, in the locale's words (tooltips, detail panes)."""
    if ms is None:
        return "—"
    moment = _moment(ms)
    locale = QLocale()
    return (
        locale.toString(moment.date(), QLocale.FormatType.LongFormat)
        + ", "
        + locale.toString(moment.time(), "HH:mm:ss")
    )


def relative(ms: int | None, now: int) -> str:
    """How long ago, for a list: relative within 30 days, the short date otherwise."""
    if ms is None:
        return ""
    delta = now - ms
    if delta < -_MINUTE:
        return short_date(ms)
    if delta < _MINUTE:
        return translate("Dates", "just now")
    if delta < _HOUR:
        return translate("Dates", "{n} min ago").format(n=int(delta // _MINUTE))
    if delta < _DAY:
        return translate("Dates", "{n} h ago").format(n=int(delta // _HOUR))
    days = int(delta // _DAY)
    if days == 1:
        return translate("Dates", "yesterday")
    if days < RELATIVE_DAYS:
        return translate("Dates", "{n} days ago").format(n=days)
    return short_date(ms)


def detailed(ms: int | None, now: int) -> str:
    """Exact time followed by the relative wording when it adds one (detail panes)."""
    if ms is None:
        return "—"
    near = relative(ms, now)
    full = exact(ms)
    if not near or near == short_date(ms):
        return full
    return translate("Dates", "{exact} ({relative})").format(exact=full, relative=near)
