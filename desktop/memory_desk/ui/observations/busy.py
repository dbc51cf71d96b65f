"""Reads on the window's thread while the agent holds the database's lock: "not now".

In WAL mode (the plugin's) a read never waits for the agent; in a database another writer
switched to rollback-journal (``DELETE``) mode, readers are locked out while the agent
commits or holds ``EXCLUSIVE``. The store's reads on the window's thread wait only briefly
and then raise :class:`~memory_desk.core.StoreBusy`
(:mod:`memory_desk.core.observations.sqlite`); the page takes that as "not now", never as
an error to show: the agent's commit that ends the wait reaches the live reload, which reads
again. A write does not need these reads to start: it waits for the lock on its own thread
(:mod:`memory_desk.ui.workers.write_runner`), with the banner that says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QTimer

from memory_desk.core import StoreBusy, StoreError
from memory_desk.core.observations import Observation, ObservationStore
from memory_desk.ui import i18n

AGAIN_MS = 150  # a read the lock refused is tried again this soon


class Later(QObject):
    """Calls ``call`` once, :data:`AGAIN_MS` from now, however often it is asked: a read the
    agent's lock refused, tried again even if the agent commits nothing (a rolled-back
    transaction brings no live reload)."""

    def __init__(self, call: Callable[[], object], parent: QObject) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(AGAIN_MS)
        self._timer.timeout.connect(call)

    def __call__(self) -> None:
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()


def report_unless_busy(
    report: Callable[[str], None], exc: StoreError, again: Callable[[], None] | None = None
) -> None:
    """Say what went wrong, unless it is only the agent holding the lock (then ``again``)."""
    if not isinstance(exc, StoreBusy):
        report(i18n.shown(exc))
    elif again is not None:
        again()


def rows_now(
    store: ObservationStore,
    ids: Sequence[int],
    shown: Callable[[int], Observation | None],
    report: Callable[[str], None],
) -> dict[int, Observation]:
    """The rows ``ids`` as the database has them now; while the agent holds the lock, as the
    window shows them (``shown``): the write that follows reads them again under the lock."""
    try:
        return store.get_many(ids)
    except StoreBusy:
        return {oid: row for oid in ids if (row := shown(oid)) is not None}
    except StoreError as exc:
        report(i18n.shown(exc))
        return {}
