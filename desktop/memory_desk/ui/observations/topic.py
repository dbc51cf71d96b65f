"""One live row per topic: the question asked before a write would make two.

The plugin's upsert rewrites only *the newest* live row with a topic key, so two live rows on
one topic is a state the agent never makes: the older one lives on, stale, found by every
search. When a restore, an edit, an undo or a re-creation would make that state, the store
refuses with :class:`~memory_desk.core.TopicConflict` and writes nothing; this dialog says which
rows clash and what the agent would do next after each choice, and the write runs again with
the person's choice (``on_topic_conflict=``). Cancel writes nothing.

The dialog is modal on purpose: the write waits for the answer, and nothing else may change
the rows in between from this window.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memory_desk.core import StoreError, TopicClash, TopicConflict
from memory_desk.core.observations import (
    TOPIC_CLEAR_OTHER,
    TOPIC_CLEAR_THIS,
    TOPIC_FORGET_OTHER,
    Observation,
    ObservationStore,
)

# Button labels list at most this many row ids, then "and N more".
_IDS_SHOWN = 3


@dataclass(frozen=True)
class TopicAction:
    """How one kind of write reads in the question: its verb, the third button, the cancel.

    ``doing`` opens the question ("Restoring #12 …"), ``clear_this`` labels the choice that
    does the write without the key on this row, ``come_back`` says what happens to this row
    with that choice, and ``nothing`` is what the person is told after Cancel.
    """

    doing: str
    clear_this: str
    come_back: str
    nothing: str


RESTORE = TopicAction(
    "Restoring",
    "Restore without the topic key",
    "comes back without a topic key",
    "Nothing was restored (you cancelled)",
)
UNDO_FORGET = TopicAction(
    "Undoing the forget of",
    "Bring back without the topic key",
    "comes back without a topic key",
    "Nothing was brought back; Ctrl+Z still offers to undo the forget",
)
PUT_BACK = TopicAction(
    "Putting back",
    "Put back without the topic key",
    "comes back without a topic key",
    "Nothing was put back",
)
EDIT = TopicAction(
    "Saving",
    "Save without the topic key",
    "is saved without a topic key",
    "Nothing was saved (you cancelled); your text is still in the form",
)
RESTORE_EDIT = TopicAction(
    "Restoring and saving",
    "Restore and save without the topic key",
    "comes back without a topic key",
    "Nothing was saved (you cancelled); your text is still in the form",
)
UNDO_EDIT = TopicAction(
    "Undoing the edit of",
    "Undo without the topic key",
    "gets its old text back without a topic key",
    "Nothing was undone; Ctrl+Z still offers to undo the edit",
)
RECREATE = TopicAction(
    "Saving as a new observation",
    "Save as new without the topic key",
    "is saved without a topic key",
    "Nothing was saved (you cancelled); your text is still in the form",
)


def ids_phrase(ids: Sequence[int]) -> str:
    """``#40``, ``#40 and #41``, ``#40, #41, #42 and 2 more``: short enough for a button."""
    names = [f"#{oid}" for oid in ids]
    if len(names) <= 1:
        return "".join(names)
    if len(names) <= _IDS_SHOWN:
        return ", ".join(names[:-1]) + " and " + names[-1]
    return ", ".join(names[:_IDS_SHOWN]) + f" and {len(names) - _IDS_SHOWN} more"


def other_rows(conflict: TopicConflict) -> list[int]:
    """Every row that holds a clashing key and is not the row being written, in order."""
    rows = {clash.row_id for clash in conflict.clashes}
    others = (oid for clash in conflict.clashes for oid in clash.holders if oid not in rows)
    return list(dict.fromkeys(others))


class TopicConflictDialog(QDialog):
    """Which rows clash, what each choice makes the agent do next, three choices and Cancel.

    After ``exec()``, :attr:`choice` is one of the store's ``TOPIC_*`` choices, or None.
    """

    def __init__(
        self,
        conflict: TopicConflict,
        action: TopicAction,
        rows: Mapping[int, Observation],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("topicConflictDialog")
        self.setWindowTitle("Two live observations on one topic")
        self.setModal(True)
        self.choice: str | None = None
        self._rows = rows
        others = other_rows(conflict)
        self.text = QLabel(self._explanation(conflict, action, others), self)
        self.text.setObjectName("topicConflictText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setMinimumWidth(520)

        target = ids_phrase(others)
        buttons = QHBoxLayout()
        for name, label, choice, tip in (
            (
                "topicForgetOtherButton",
                f"Forget {target}",
                TOPIC_FORGET_OTHER,
                f"{target} {_agree('is', len(others))} forgotten (Ctrl+Z undoes it);"
                " this row becomes the topic's",
            ),
            (
                "topicClearOtherButton",
                f"Take the topic key off {target}",
                TOPIC_CLEAR_OTHER,
                f"{target} {_agree('stays', len(others))} live without a topic key;"
                " this row becomes the topic's",
            ),
            (
                "topicClearThisButton",
                action.clear_this,
                TOPIC_CLEAR_THIS,
                f"This row {action.come_back}; {target} stays the topic's row",
            ),
        ):
            buttons.addWidget(self._choice_button(name, label, choice, tip))
        buttons.addStretch(1)
        cancel = QPushButton("Cancel", self)
        cancel.setObjectName("topicCancelButton")
        cancel.setToolTip("Write nothing (Esc)")
        cancel.clicked.connect(self.reject)
        cancel.setDefault(True)  # Enter never picks a write by accident
        buttons.addWidget(cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addLayout(buttons)

    def _choice_button(self, name: str, label: str, choice: str, tip: str) -> QPushButton:
        button = QPushButton(label, self)
        button.setObjectName(name)
        button.setToolTip(tip)
        button.setAutoDefault(False)
        button.clicked.connect(lambda: self._choose(choice))
        return button

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()

    # -- the words ---------------------------------------------------------------------------

    def _row(self, oid: int | None) -> str:
        """``#12 “Title”`` (with the title the database has now), or "the new observation"."""
        if oid is None:
            return "the new observation"
        row = self._rows.get(oid)
        if row is None:
            return f"#{oid}"
        return f"#{oid} “{html.escape(row.title)}”"

    def _holder(self, oid: int) -> str:
        """A row that would share the key; one forgotten now is being brought back too."""
        row = self._rows.get(oid)
        forgotten = (
            " (forgotten now, brought back by the same action)" if row and row.forgotten else ""
        )
        return self._row(oid) + forgotten

    def _clash_line(self, clash: TopicClash) -> str:
        where = "personal" if clash.scope == "personal" else f"project {clash.project}"
        rows = [self._row(clash.row_id), *(self._holder(oid) for oid in clash.holders)]
        listed = ", ".join(rows[:-1]) + " and " + rows[-1]
        together = "both" if len(rows) == 2 else "all"
        return (
            f"<li>{listed} would {together} be live with the topic key"
            f" <b>{html.escape(clash.topic_key)}</b> ({html.escape(where)}).</li>"
        )

    def _explanation(self, conflict: TopicConflict, action: TopicAction, others: list[int]) -> str:
        subjects = list(
            dict.fromkeys(clash.row_id for clash in conflict.clashes if clash.row_id is not None)
        )
        named = ids_phrase(subjects)
        opening = f"{action.doing} {named}" if named else action.doing
        named = named or "the new observation"
        target = ids_phrase(others)
        topics = len(conflict.clashes)
        clash_lines = "".join(self._clash_line(clash) for clash in conflict.clashes)
        state = (
            "a topic two live observations"
            if topics == 1
            else f"{topics} topics more than one live observation each"
        )
        topic = "the topic" if topics == 1 else "each topic"
        return (
            f"<p>{html.escape(opening)} would give {state}:</p><ul>{clash_lines}</ul>"
            f"<p>The agent never makes that state: its next save on {topic} would rewrite only"
            " the newest row and leave the others live and stale, found by every search."
            " Choose which row stays the topic's:</p><ul>"
            f"<li><b>Forget {target}</b>: the agent's next save on {topic} rewrites {named}.</li>"
            f"<li><b>Take the topic key off {target}</b>: {target}"
            f" {_agree('stays', len(others))} live, found by searches; the agent's next save on"
            f" {topic} rewrites {named}.</li>"
            f"<li><b>{html.escape(action.clear_this)}</b>: {named}"
            f" {_agree(action.come_back, max(1, len(subjects)))}; the agent's next save on"
            f" {topic} keeps rewriting {target}.</li></ul>"
            "<p>Cancel writes nothing. Ctrl+Z undoes whichever you choose, other rows included.</p>"
        )


_PLURAL_VERBS = {"comes": "come", "is": "are", "gets": "get", "stays": "stay"}


def _agree(phrase: str, count: int) -> str:
    """``comes back …`` for one row, ``come back …`` for several."""
    if count == 1:
        return phrase
    verb, _, rest = phrase.partition(" ")
    return " ".join(part for part in (_PLURAL_VERBS.get(verb, verb), rest) if part)


def ask_topic_choice(
    store: ObservationStore,
    conflict: TopicConflict,
    action: TopicAction,
    parent: QWidget | None,
) -> str | None:
    """Ask which row keeps the topic; the store's ``TOPIC_*`` choice, or None for Cancel.

    The rows are read once (without content) so the question names them by their titles.
    """
    ids = {
        oid
        for clash in conflict.clashes
        for oid in (clash.row_id, *clash.holders)
        if oid is not None
    }
    try:
        rows = store.get_many(sorted(ids))
    except StoreError:
        rows = {}  # the question still names the rows by id
    dialog = TopicConflictDialog(conflict, action, rows, parent)
    try:
        dialog.exec()
        return dialog.choice
    finally:
        dialog.deleteLater()
