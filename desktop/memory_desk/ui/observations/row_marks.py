"""Rows another program just added or revised, marked for a few seconds.

The table shows a mark as a soft highlight behind the row and a word in its tooltip, so a
person sees what arrived without hunting. One single-shot timer unmarks the rows as their
marks expire; a new query drops them all.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, QTimer


class RowMarks(QObject):
    """Each marked id's kind (``"new"`` or ``"changed"``) and deadline; ``on_expired`` is
    called with the ids whose marks ran out."""

    def __init__(self, on_expired: Callable[[list[int]], None], parent: QObject) -> None:
        super().__init__(parent)
        # id -> (kind, monotonic deadline); the same dict for the marks' whole life, so the
        # model may look rows up in it directly while painting.
        self.by_id: dict[int, tuple[str, float]] = {}
        self._on_expired = on_expired
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._expire)

    def add(self, ids: Iterable[int], kind: str, seconds: float) -> None:
        """Mark these ids for ``seconds``; a row already marked keeps its kind."""
        deadline = time.monotonic() + seconds
        for oid in ids:
            previous = self.by_id.get(oid)
            self.by_id[oid] = (previous[0] if previous else kind, deadline)

    def kind_of(self, observation_id: int) -> str | None:
        mark = self.by_id.get(observation_id)
        return mark[0] if mark is not None else None

    def drop(self) -> list[int]:
        """Unmark every row at once; returns the ids that were marked."""
        ids = list(self.by_id)
        self.by_id.clear()
        self._timer.stop()
        return ids

    def schedule_expiry(self) -> None:
        """Wake when the soonest mark runs out (or never, with none left)."""
        if not self.by_id:
            self._timer.stop()
            return
        due = min(deadline for _kind, deadline in self.by_id.values())
        self._timer.start(max(0, int((due - time.monotonic()) * 1000) + 1))

    def _expire(self) -> None:
        now = time.monotonic()
        expired = [oid for oid, (_kind, deadline) in self.by_id.items() if deadline <= now]
        for oid in expired:
            del self.by_id[oid]
        self._on_expired(expired)
        self.schedule_expiry()
