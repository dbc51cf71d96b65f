"""The old and the new version of one change, side by side, diffed word by word.

Two read-only text views in one widget: the old version on the left with the words the agent
removed struck through, the new on the right with the words it added underlined (and both in
the theme's diff colours, readable in light and dark). Each field (title, description or
topic, type, body) is diffed on its own. Text goes in as plain text, never HTML: a memory is
shown as written. The word diff of two long texts costs time, so it is worked out on a
thread of its own and only the latest answer is shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from memory_desk.core.journal import Change, ChangeKind, Version
from memory_desk.core.kinds import StoreKind
from memory_desk.core.word_diff import EQUAL, Segment, word_diff
from memory_desk.ui import theme
from memory_desk.ui.i18n import translate
from memory_desk.ui.widgets.side_by_side import FieldDiff, fill, side_view, split_sides
from memory_desk.ui.workers.background import BackgroundCall

FIELDS = ("title", "description", "type", "body")


@dataclass(frozen=True)
class DiffAnswer:
    """Both sides, ready to paint (None: that side is not shown)."""

    change_id: int
    old: list[FieldDiff] | None
    new: list[FieldDiff] | None


def field_labels(store_kind: str) -> dict[str, str]:
    if store_kind == StoreKind.PERSONA:
        return {
            "title": translate("ReviewDiff", "Name"),
            "description": translate("ReviewDiff", "Description"),
            "type": translate("ReviewDiff", "Type"),
            "body": translate("ReviewDiff", "Body"),
            "raw": translate("ReviewDiff", "The whole file"),
        }
    return {
        "title": translate("ReviewDiff", "Title"),
        "description": translate("ReviewDiff", "Topic"),
        "type": translate("ReviewDiff", "Type"),
        "body": translate("ReviewDiff", "Content"),
    }


def compute(change: Change) -> DiffAnswer:
    """Both sides of ``change``, each field diffed word by word (runs on a worker)."""
    old, new = change.old, change.new
    if old is not None and new is not None:
        pairs = [(name, word_diff(getattr(old, name), getattr(new, name))) for name in FIELDS]
        if only_other_lines(old, new):
            # (a persona file rewritten with the same fields: its other lines tell what changed)
            pairs = [("raw", word_diff(old.raw, new.raw))]
        return DiffAnswer(change.id, *split_sides(pairs))
    return DiffAnswer(change.id, _whole(old), _whole(new))


def same_fields(old: Version, new: Version) -> bool:
    """Whether the two versions agree on every field the diff shows."""
    return all(getattr(old, name) == getattr(new, name) for name in FIELDS)


def only_other_lines(old: Version, new: Version) -> bool:
    """A persona file rewritten with the same fields the diff shows, other lines changed."""
    return bool(old.raw and new.raw and old.raw != new.raw and same_fields(old, new))


def _whole(version: Version | None) -> list[FieldDiff] | None:
    if version is None:
        return None
    return [FieldDiff(name, [Segment(EQUAL, getattr(version, name))]) for name in FIELDS]


def explanation(change: Change | None) -> str:
    """The sentence above the two sides: what the person is looking at."""
    if change is None:
        return translate("ReviewDiff", "Select a change to see what it was and what it is now.")
    kind = change.kind
    if kind == ChangeKind.NEW:
        return translate(
            "ReviewDiff", "New: there is no earlier version, only what the agent wrote."
        )
    if kind in (ChangeKind.DELETED, ChangeKind.REMOVED):
        return translate(
            "ReviewDiff",
            "The agent deleted it: this is the last version Memory Desk saw. Roll back writes it again.",
        )
    if change.old is None:
        return translate(
            "ReviewDiff",
            "Memory Desk had not kept the earlier text (the history was off, cleared or pruned): only the new version is shown.",
        )
    if change.new is not None and only_other_lines(change.old, change.new):
        return translate(
            "ReviewDiff",
            "The agent rewrote the file with the same name, description, type and body: only"
            " other lines of it changed (such as the date it was updated), marked below.",
        )
    if kind == ChangeKind.FORGOTTEN:
        return translate(
            "ReviewDiff",
            "The agent forgot it: it no longer sees it. Roll back brings it back.",
        )
    return translate(
        "ReviewDiff",
        "Left, before the agent's change (removed words struck through); right, after it (added words underlined).",
    )


class ReviewDiff(QWidget):
    """``reviewDiff``: a sentence, then the old (``reviewDiffOld``) and the new
    (``reviewDiffNew``) version side by side."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reviewDiff")
        self.summary = QLabel(self)
        self.summary.setObjectName("reviewDiffSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.old_view = side_view(self, "reviewDiffOld", translate("ReviewDiff", "Before"))
        self.new_view = side_view(self, "reviewDiffNew", translate("ReviewDiff", "After"))
        self.old_title = QLabel(translate("ReviewDiff", "Before"), self)
        self.new_title = QLabel(translate("ReviewDiff", "After"), self)
        sides = QHBoxLayout()
        for title, view in ((self.old_title, self.old_view), (self.new_title, self.new_view)):
            column = QVBoxLayout()
            column.addWidget(title)
            column.addWidget(view, 1)
            sides.addLayout(column, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addLayout(sides, 1)
        self._change: Change | None = None
        self._answer: DiffAnswer | None = None
        self._worker = BackgroundCall(self)
        self._worker.finished.connect(self._on_computed)
        self._worker.failed.connect(lambda _g, message: self.summary.setText(message))
        theme.notifier().changed.connect(self._repaint)
        self.show_change(None)

    @property
    def change(self) -> Change | None:
        return self._change

    def show_change(self, change: Change | None) -> None:
        """Show ``change`` (None: nothing), its diff worked out in the background."""
        self._change = change
        self._answer = None
        self.summary.setText(explanation(change))
        self.old_view.clear()
        self.new_view.clear()
        self.old_view.setVisible(change is None or change.old is not None)
        self.old_title.setVisible(self.old_view.isVisibleTo(self))
        self.new_view.setVisible(change is None or change.new is not None)
        self.new_title.setVisible(self.new_view.isVisibleTo(self))
        if change is None:
            self._worker.cancel()
            return
        self._worker.submit(lambda: compute(change))

    def is_busy(self) -> bool:
        return self._worker.is_busy()

    def stop(self) -> None:
        self._worker.stop()

    def _on_computed(self, _generation: int, answer: DiffAnswer) -> None:
        if self._change is None or answer.change_id != self._change.id:
            return
        self._answer = answer
        self._repaint()

    def _repaint(self) -> None:
        answer, change = self._answer, self._change
        if answer is None or change is None:
            return
        labels = field_labels(change.store_kind)
        fill(self.old_view, answer.old, labels)
        fill(self.new_view, answer.new, labels)
