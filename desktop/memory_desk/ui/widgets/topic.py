"""One live row per topic: the question asked before a write would make two.

The plugin's upsert rewrites only *the newest* live row with a topic key, so two live rows on
one topic is a state the agent never makes: the older one lives on, stale, found by every
search. When a restore, an edit, an undo or a re-creation would make that state, the store
refuses with :class:`~memory_desk.core.TopicConflict` and writes nothing; this dialog says which
rows clash and what the agent would do next after each choice, and the write runs again with
the person's choice (``on_topic_conflict=``). Cancel writes nothing.

The dialog is modal on purpose: the write waits for the answer, and nothing else may change
the rows in between from this window.

Every sentence is one whole translatable text whose fields are data only (row ids, titles,
keys, projects), never another translated phrase: a translator sees the full sentence and can
order it as the language needs. Lists of rows are written with commas, which read the same in
both languages.
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
from memory_desk.core.hidden_text import reveal
from memory_desk.core.messages import Msg, msg
from memory_desk.core.observations import (
    TOPIC_CLEAR_OTHER,
    TOPIC_CLEAR_THIS,
    TOPIC_FORGET_OTHER,
    Observation,
    ObservationStore,
)
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate

# Button labels list at most this many row ids, then "(+N)".
_IDS_SHOWN = 3


@dataclass(frozen=True)
class TopicAction:
    """How one kind of write reads in the question, as whole sentences.

    ``opening`` says what the write would do to the topics (``{rows}``: the rows written);
    ``clear_this`` labels the choice that does the write without the key on those rows;
    ``choice_one`` / ``choice_many`` explain that choice for one or several rows written
    (``{named}``: them, ``{rows}``: the other rows, which keep the topic); ``nothing`` is what
    the person is told after Cancel. They are :class:`~memory_desk.core.messages.Msg` texts
    (English, translated when shown with ``i18n.shown``): the actions are made at import,
    before the person's language is installed.
    """

    opening: Msg
    clear_this: Msg
    choice_one: Msg
    choice_many: Msg
    nothing: Msg

    def choice_line(self, named: str, others: str, count: int) -> str:
        """The third choice explained, as HTML (``named`` and ``others`` are plain text)."""
        template = i18n.shown(self.choice_one if count == 1 else self.choice_many)
        return template.format(named=html.escape(named), rows=html.escape(others))


RESTORE = TopicAction(
    msg(
        "TopicConflictDialog",
        "Restoring {rows} would leave more than one live observation on the same topic key:",
    ),
    msg("TopicConflictDialog", "Restore without the topic key"),
    msg(
        "TopicConflictDialog",
        "<b>Restore without the topic key</b>: {named} comes back without a topic key; the"
        " agent's next save on the topic keeps rewriting {rows}.",
    ),
    msg(
        "TopicConflictDialog",
        "<b>Restore without the topic key</b>: {named} come back without a topic key; the"
        " agent's next save on the topics keeps rewriting {rows}.",
    ),
    msg("TopicConflictDialog", "Nothing was restored (you cancelled)"),
)
UNDO_FORGET = TopicAction(
    msg(
        "TopicConflictDialog",
        "Undoing the forget of {rows} would leave more than one live observation on the same"
        " topic key:",
    ),
    msg("TopicConflictDialog", "Bring back without the topic key"),
    msg(
        "TopicConflictDialog",
        "<b>Bring back without the topic key</b>: {named} comes back without a topic key; the"
        " agent's next save on the topic keeps rewriting {rows}.",
    ),
    msg(
        "TopicConflictDialog",
        "<b>Bring back without the topic key</b>: {named} come back without a topic key; the"
        " agent's next save on the topics keeps rewriting {rows}.",
    ),
    msg("TopicConflictDialog", "Nothing was brought back; Ctrl+Z still offers to undo the forget"),
)
PUT_BACK = TopicAction(
    msg(
        "TopicConflictDialog",
        "Putting back {rows} would leave more than one live observation on the same topic key:",
    ),
    msg("TopicConflictDialog", "Put back without the topic key"),
    msg(
        "TopicConflictDialog",
        "<b>Put back without the topic key</b>: {named} comes back without a topic key; the"
        " agent's next save on the topic keeps rewriting {rows}.",
    ),
    msg(
        "TopicConflictDialog",
        "<b>Put back without the topic key</b>: {named} come back without a topic key; the"
        " agent's next save on the topics keeps rewriting {rows}.",
    ),
    msg("TopicConflictDialog", "Nothing was put back"),
)
EDIT = TopicAction(
    msg(
        "TopicConflictDialog",
        "Saving {rows} would leave more than one live observation on the same topic key:",
    ),
    msg("TopicConflictDialog", "Save without the topic key"),
    msg(
        "TopicConflictDialog",
        "<b>Save without the topic key</b>: {named} is saved without a topic key; the agent's"
        " next save on the topic keeps rewriting {rows}.",
    ),
    msg(
        "TopicConflictDialog",
        "<b>Save without the topic key</b>: {named} are saved without a topic key; the agent's"
        " next save on the topics keeps rewriting {rows}.",
    ),
    msg("TopicConflictDialog", "Nothing was saved (you cancelled); your text is still in the form"),
)
RESTORE_EDIT = TopicAction(
    msg(
        "TopicConflictDialog",
        "Restoring and saving {rows} would leave more than one live observation on the same"
        " topic key:",
    ),
    msg("TopicConflictDialog", "Restore and save without the topic key"),
    msg(
        "TopicConflictDialog",
        "<b>Restore and save without the topic key</b>: {named} comes back without a topic"
        " key; the agent's next save on the topic keeps rewriting {rows}.",
    ),
    msg(
        "TopicConflictDialog",
        "<b>Restore and save without the topic key</b>: {named} come back without a topic"
        " key; the agent's next save on the topics keeps rewriting {rows}.",
    ),
    msg("TopicConflictDialog", "Nothing was saved (you cancelled); your text is still in the form"),
)
UNDO_EDIT = TopicAction(
    msg(
        "TopicConflictDialog",
        "Undoing the edit of {rows} would leave more than one live observation on the same"
        " topic key:",
    ),
    msg("TopicConflictDialog", "Undo without the topic key"),
    msg(
        "TopicConflictDialog",
        "<b>Undo without the topic key</b>: {named} gets its old text back without a topic"
        " key; the agent's next save on the topic keeps rewriting {rows}.",
    ),
    msg(
        "TopicConflictDialog",
        "<b>Undo without the topic key</b>: {named} get their old text back without a topic"
        " key; the agent's next save on the topics keeps rewriting {rows}.",
    ),
    msg("TopicConflictDialog", "Nothing was undone; Ctrl+Z still offers to undo the edit"),
)
RECREATE = TopicAction(
    msg(
        "TopicConflictDialog",
        "Saving as a new observation would leave more than one live observation on the same"
        " topic key:",
    ),
    msg("TopicConflictDialog", "Save as new without the topic key"),
    msg(
        "TopicConflictDialog",
        "<b>Save as new without the topic key</b>: your new observation is saved without a"
        " topic key; the agent's next save on the topic keeps rewriting {rows}.",
    ),
    msg(
        "TopicConflictDialog",
        "<b>Save as new without the topic key</b>: your new observation is saved without a"
        " topic key; the agent's next save on the topic keeps rewriting {rows}.",
    ),
    msg("TopicConflictDialog", "Nothing was saved (you cancelled); your text is still in the form"),
)


def ids_phrase(ids: Sequence[int]) -> str:
    """``#40``, ``#40, #41``, ``#40, #41, #42 (+2)``: short enough for a button, the same in
    every language."""
    names = [f"#{oid}" for oid in ids]
    shown = ", ".join(names[:_IDS_SHOWN])
    if len(names) > _IDS_SHOWN:
        shown += f" (+{len(names) - _IDS_SHOWN})"
    return shown


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
        self.setWindowTitle(translate("TopicConflictDialog", "Two live observations on one topic"))
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
        self.text.setAccessibleDescription(
            translate("TopicConflictDialog", "Which rows clash and what each choice does")
        )

        buttons = QHBoxLayout()
        for name, label, choice, tip in self._choices(action, others):
            buttons.addWidget(self._choice_button(name, label, choice, tip))
        buttons.addStretch(1)
        cancel = QPushButton(translate("TopicConflictDialog", "Cancel"), self)
        cancel.setObjectName("topicCancelButton")
        cancel.setToolTip(translate("TopicConflictDialog", "Write nothing (Esc)"))
        cancel.clicked.connect(self.reject)
        cancel.setDefault(True)  # Enter never picks a write by accident
        buttons.addWidget(cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addLayout(buttons)

    @staticmethod
    def _choices(action: TopicAction, others: list[int]) -> list[tuple[str, str, str, str]]:
        """(object name, label, store choice, tooltip) of the three choices."""
        target, count = ids_phrase(others), len(others)
        return [
            (
                "topicForgetOtherButton",
                translate("TopicConflictDialog", "Forget {rows}").format(rows=target),
                TOPIC_FORGET_OTHER,
                i18n.plural(
                    count,
                    translate(
                        "TopicConflictDialog",
                        "{rows} is forgotten (Ctrl+Z undoes it); this row becomes the topic's.",
                    ),
                    translate(
                        "TopicConflictDialog",
                        "{rows} are forgotten (Ctrl+Z undoes it); this row becomes the topic's.",
                    ),
                    rows=target,
                ),
            ),
            (
                "topicClearOtherButton",
                translate("TopicConflictDialog", "Take the topic key off {rows}").format(
                    rows=target
                ),
                TOPIC_CLEAR_OTHER,
                i18n.plural(
                    count,
                    translate(
                        "TopicConflictDialog",
                        "{rows} stays live without a topic key; this row becomes the topic's.",
                    ),
                    translate(
                        "TopicConflictDialog",
                        "{rows} stay live without a topic key; this row becomes the topic's.",
                    ),
                    rows=target,
                ),
            ),
            (
                "topicClearThisButton",
                i18n.shown(action.clear_this),
                TOPIC_CLEAR_THIS,
                i18n.plural(
                    count,
                    translate(
                        "TopicConflictDialog",
                        "{rows} keeps the topic key; this row is written without it.",
                    ),
                    translate(
                        "TopicConflictDialog",
                        "{rows} keep the topic key; this row is written without it.",
                    ),
                    rows=target,
                ),
            ),
        ]

    def _choice_button(self, name: str, label: str, choice: str, tip: str) -> QPushButton:
        button = QPushButton(label, self)
        button.setObjectName(name)
        button.setToolTip(tip)
        button.setAccessibleDescription(tip)
        button.setAutoDefault(False)
        button.clicked.connect(lambda: self._choose(choice))
        return button

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()

    # -- the words ---------------------------------------------------------------------------

    def _row(self, oid: int) -> str:
        """``#12 “Title”`` (the title the database has now), as HTML."""
        row = self._rows.get(oid)
        return f"#{oid}" if row is None else html.escape(f"#{oid} “{reveal(row.title)}”")

    def _clash_line(self, clash: TopicClash) -> str:
        """One topic: the rows that would share its key, and those brought back with it."""
        rows = ", ".join(
            self._row(oid) for oid in (clash.row_id, *clash.holders) if oid is not None
        )
        values = {
            "rows": rows,
            "key": f"<b>{html.escape(clash.topic_key)}</b>",
            "project": html.escape(clash.project or ""),
        }
        personal = clash.scope == "personal"
        if clash.row_id is None and personal:
            template = translate(
                "TopicConflictDialog",
                "Your new observation and {rows} would be live together with the personal topic"
                " key {key}.",
            )
        elif clash.row_id is None:
            template = translate(
                "TopicConflictDialog",
                "Your new observation and {rows} would be live together with the topic key {key}"
                " in project {project}.",
            )
        elif personal:
            template = translate(
                "TopicConflictDialog",
                "{rows} would be live together with the personal topic key {key}.",
            )
        else:
            template = translate(
                "TopicConflictDialog",
                "{rows} would be live together with the topic key {key} in project {project}.",
            )
        line = html.escape(template).format(**values)
        forgotten = [oid for oid in clash.holders if (row := self._rows.get(oid)) and row.forgotten]
        if forgotten:
            note = i18n.plural(
                len(forgotten),
                translate(
                    "TopicConflictDialog",
                    "{rows} is forgotten now and comes back with the same action.",
                ),
                translate(
                    "TopicConflictDialog",
                    "{rows} are forgotten now and come back with the same action.",
                ),
                rows=ids_phrase(forgotten),
            )
            line += " " + html.escape(note)
        return f"<li>{line}</li>"

    def _explanation(self, conflict: TopicConflict, action: TopicAction, others: list[int]) -> str:
        subjects = _subjects(conflict)
        named, target = ids_phrase(subjects), ids_phrase(others)
        opening = html.escape(i18n.shown(action.opening)).format(rows=html.escape(named))
        clash_lines = "".join(self._clash_line(clash) for clash in conflict.clashes)
        why = translate(
            "TopicConflictDialog",
            "The agent never makes that state: its next save with a topic key rewrites only the"
            " newest row and leaves the others live and stale, found by every search. Choose"
            " which row keeps the topic:",
        )
        cancel = translate(
            "TopicConflictDialog",
            "Cancel writes nothing. Ctrl+Z undoes whichever you choose, other rows included.",
        )
        bullets = (
            self._forget_line(named, target),
            self._clear_other_line(named, target, len(others)),
            action.choice_line(named, target, max(1, len(subjects))),
        )
        items = "".join(f"<li>{bullet}</li>" for bullet in bullets)
        return (
            f"<p>{opening}</p><ul>{clash_lines}</ul><p>{html.escape(why)}</p>"
            f"<ul>{items}</ul><p>{html.escape(cancel)}</p>"
        )

    @staticmethod
    def _forget_line(named: str, target: str) -> str:
        if named:
            template = translate(
                "TopicConflictDialog",
                "<b>Forget {rows}</b>: the agent's next save on the topic rewrites {named}.",
            )
        else:
            template = translate(
                "TopicConflictDialog",
                "<b>Forget {rows}</b>: the agent's next save on the topic rewrites your new"
                " observation.",
            )
        return template.format(rows=html.escape(target), named=html.escape(named))

    @staticmethod
    def _clear_other_line(named: str, target: str, count: int) -> str:
        if named:
            one = translate(
                "TopicConflictDialog",
                "<b>Take the topic key off {rows}</b>: {rows} stays live, found by searches; the"
                " agent's next save on the topic rewrites {named}.",
            )
            other = translate(
                "TopicConflictDialog",
                "<b>Take the topic key off {rows}</b>: {rows} stay live, found by searches; the"
                " agent's next save on the topic rewrites {named}.",
            )
        else:
            one = translate(
                "TopicConflictDialog",
                "<b>Take the topic key off {rows}</b>: {rows} stays live, found by searches; the"
                " agent's next save on the topic rewrites your new observation.",
            )
            other = translate(
                "TopicConflictDialog",
                "<b>Take the topic key off {rows}</b>: {rows} stay live, found by searches; the"
                " agent's next save on the topic rewrites your new observation.",
            )
        return i18n.plural(count, one, other, rows=html.escape(target), named=html.escape(named))


def _subjects(conflict: TopicConflict) -> list[int]:
    """The rows being written (none for a new observation), in order."""
    return list(
        dict.fromkeys(clash.row_id for clash in conflict.clashes if clash.row_id is not None)
    )


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
