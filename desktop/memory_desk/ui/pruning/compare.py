"""A group of the pruning assistant opened side by side: the row kept and one candidate.

Selecting a candidate (or its group) in the tree shows the row the group keeps on the left and
the candidate on the right, their title and text diffed word by word, so the person sees what
forgetting it would lose. "Keep this one" makes the shown candidate the row the group keeps:
it is unchecked and every other row of the group checked (:meth:`CandidatesTree.keep_only`).

The rows' texts are read on a worker (a fresh folder object for a persona folder, the store's
own reading connection for a database), and only the latest answer is shown.

Signals (PruningCompare):
    keep_requested(object, object): keep this row (its key) of this group
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import PersonaFolder
from memory_desk.core.pruning import Group, Row
from memory_desk.core.word_diff import word_diff
from memory_desk.ui import theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.widgets.side_by_side import FieldDiff, fill, side_view, split_sides
from memory_desk.ui.workers.background import BackgroundCall

FIELDS = ("title", "text")


@dataclass(frozen=True)
class Compared:
    """Both sides of one comparison, ready to paint."""

    kept: list[FieldDiff]
    candidate: list[FieldDiff]


def read_texts(source: object, key: int | str) -> dict[str, str]:
    """The title and text of one row (runs on a worker)."""
    if isinstance(source, ObservationStore):
        row = source.get(int(key))
        return {"title": row.title, "text": row.content} if row else {"title": "", "text": ""}
    entry = PersonaFolder(source.path).read(str(key))  # (the page's folder stays its own)
    return {"title": entry.description, "text": entry.body}


def compare(source: object, kept: Row, candidate: Row) -> Compared:
    """Read both rows and diff them field by field (runs on a worker)."""
    old, new = read_texts(source, kept.key), read_texts(source, candidate.key)
    pairs = [(name, word_diff(old[name], new[name])) for name in FIELDS]
    return Compared(*split_sides(pairs))


class PruningCompare(QWidget):
    """``pruningCompare``: the kept row (``pruningCompareKept``) beside a candidate
    (``pruningCompareCandidate``), and ``pruningKeepThisButton``."""

    keep_requested = Signal(object, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pruningCompare")
        self.summary = QLabel(self)
        self.summary.setObjectName("pruningCompareSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.kept_view = side_view(self, "pruningCompareKept", translate("PruningPage", "Kept"))
        self.candidate_view = side_view(
            self, "pruningCompareCandidate", translate("PruningPage", "Candidate")
        )
        self.keep_button = QPushButton(translate("PruningPage", "&Keep this one"), self)
        self.keep_button.setObjectName("pruningKeepThisButton")
        self.keep_button.setToolTip(
            translate(
                "PruningPage",
                "Keep the candidate shown on the right and check every other row of its group",
            )
        )
        self.keep_button.clicked.connect(self._on_keep)
        sides = QHBoxLayout()
        for title, view in (
            (translate("PruningPage", "Kept"), self.kept_view),
            (translate("PruningPage", "Candidate"), self.candidate_view),
        ):
            column = QVBoxLayout()
            column.addWidget(QLabel(title, self))
            column.addWidget(view, 1)
            sides.addLayout(column, 1)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.keep_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(sides, 1)
        self._shown: tuple[Group, Row, Row] | None = None
        self._source: object = None
        self._answer: Compared | None = None
        self._worker = BackgroundCall(self)
        self._worker.finished.connect(self._on_compared)
        self._worker.failed.connect(lambda _g, message: self.summary.setText(message))
        theme.notifier().changed.connect(self._paint)
        self.show_pair(None, None, None, None)

    def show_pair(
        self, source: object, group: Group | None, kept: Row | None, candidate: Row | None
    ) -> None:
        """Compare ``candidate`` with the row ``group`` keeps (None: nothing to compare)."""
        shown = None if group is None else (group, kept, candidate)
        if shown is not None and shown == self._shown and source is self._source:
            return  # (found again as it was: the agent's commit changed nothing here)
        self._source = source
        self._answer = None
        self.kept_view.clear()
        self.candidate_view.clear()
        if source is None or group is None or kept is None or candidate is None:
            self._shown = None
            self.keep_button.setEnabled(False)
            self._worker.cancel()
            self.summary.setText(
                translate(
                    "PruningPage",
                    "Select a candidate of a group with a kept row to see them side by side.",
                )
            )
            return
        self._shown = (group, kept, candidate)
        self.keep_button.setEnabled(True)
        self.summary.setText(
            translate(
                "PruningPage",
                "Left, the row the group keeps (words only it has struck through); right, the"
                " candidate (words only it has underlined).",
            )
        )
        self._worker.submit(lambda: compare(source, kept, candidate))

    def is_busy(self) -> bool:
        return self._worker.is_busy()

    def stop(self) -> None:
        self._worker.stop()

    def _on_compared(self, _generation: int, answer: Compared) -> None:
        self._answer = answer
        self._paint()

    def _paint(self) -> None:
        if self._answer is None:
            return
        labels = {
            "title": translate("PruningPage", "Title"),
            "text": translate("PruningPage", "Text"),
        }
        fill(self.kept_view, self._answer.kept, labels)
        fill(self.candidate_view, self._answer.candidate, labels)

    def _on_keep(self) -> None:
        if self._shown is not None:
            group, _kept, candidate = self._shown
            self.keep_requested.emit(group, candidate.key)
