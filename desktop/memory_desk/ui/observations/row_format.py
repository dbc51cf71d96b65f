"""The observations table's columns and rows as text: what each column is called, how it
sorts and aligns, and one observation formatted once for the table (:class:`RowRecord`).

Texts are the person's language, read through ``translate`` when asked, so a language
installed later applies; dates are :mod:`memory_desk.ui.dates`' one style (relative in cells,
exact on hover). The model (:mod:`.model`) keeps these records in its cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from PySide6.QtCore import Qt

from memory_desk.core.hidden_text import reveal
from memory_desk.core.observations import Observation
from memory_desk.ui import dates, i18n
from memory_desk.ui.i18n import translate
from memory_desk.ui.widgets.display import pin_glyph, scope_label

MARK_NEW = "new"
MARK_CHANGED = "changed"


class Column(IntEnum):
    ID = 0
    PINNED = 1
    TYPE = 2
    TITLE = 3
    PROJECT = 4
    SCOPE = 5
    TOPIC_KEY = 6
    REVISIONS = 7
    DUPLICATES = 8
    ACCESSES = 9
    UPDATED = 10
    CREATED = 11


def header_labels() -> list[str]:
    """Each column's header in the person's language (the pin column shows the pin glyph)."""
    return [
        translate("ObservationTableModel", "ID"),
        pin_glyph(),
        translate("ObservationTableModel", "Type"),
        translate("ObservationTableModel", "Title"),
        translate("ObservationTableModel", "Project"),
        translate("ObservationTableModel", "Scope"),
        translate("ObservationTableModel", "Topic key"),
        translate("ObservationTableModel", "Rev."),
        translate("ObservationTableModel", "Dup."),
        translate("ObservationTableModel", "Reads"),
        translate("ObservationTableModel", "Updated"),
        translate("ObservationTableModel", "Created"),
    ]


def header_names() -> list[str]:
    """What a screen reader says for each header: the words the short labels stand for."""
    return [
        translate("ObservationTableModel", "ID"),
        translate("ObservationTableModel", "Pinned"),
        translate("ObservationTableModel", "Type"),
        translate("ObservationTableModel", "Title"),
        translate("ObservationTableModel", "Project"),
        translate("ObservationTableModel", "Scope"),
        translate("ObservationTableModel", "Topic key"),
        translate("ObservationTableModel", "Revisions"),
        translate("ObservationTableModel", "Duplicates"),
        translate("ObservationTableModel", "Reads"),
        translate("ObservationTableModel", "Updated"),
        translate("ObservationTableModel", "Created"),
    ]


def header_tips() -> list[str]:
    """Each column's header tooltip: what it holds and how clicking sorts."""
    tips = [
        translate("ObservationTableModel", "The observation's id in the database."),
        translate("ObservationTableModel", "Pinned: always injected into the agent's context."),
        translate("ObservationTableModel", "What kind of memory this is."),
        translate("ObservationTableModel", "The title the agent gave it."),
        translate(
            "ObservationTableModel", "The project it belongs to (the full id on hover over a cell)."
        ),
        translate(
            "ObservationTableModel",
            "Either project or personal (personal rows are visible from every project).",
        ),
        translate("ObservationTableModel", "Saves with the same topic key revise this row."),
        translate("ObservationTableModel", "Revisions: how many times a save rewrote it."),
        translate("ObservationTableModel", "Duplicates: exact repeats saved within 15 minutes."),
        translate("ObservationTableModel", "Reads: how often the agent opened it whole."),
        translate("ObservationTableModel", "Last changed (exact time on hover)."),
        translate("ObservationTableModel", "First saved (exact time on hover)."),
    ]
    sorting = translate(
        "ObservationTableModel", "Click to sort; a third click goes back to the default order."
    )
    return [f"{tip} {sorting}" for tip in tips]


# The store's SORT_KEYS, one per column: clicking a header sorts in SQL by this key.
SORT_KEY_BY_COLUMN: dict[Column, str] = {
    Column.ID: "id",
    Column.PINNED: "pinned",
    Column.TYPE: "type",
    Column.TITLE: "title",
    Column.PROJECT: "project",
    Column.SCOPE: "scope",
    Column.TOPIC_KEY: "topic_key",
    Column.REVISIONS: "revision_count",
    Column.DUPLICATES: "duplicate_count",
    Column.ACCESSES: "access_count",
    Column.UPDATED: "updated_at",
    Column.CREATED: "created_at",
}

# Columns whose first click sorts ascending (words); the rest start with the largest/newest.
ASCENDING_FIRST = frozenset(
    {Column.TYPE, Column.TITLE, Column.PROJECT, Column.SCOPE, Column.TOPIC_KEY}
)

_NUMERIC = frozenset({Column.ID, Column.REVISIONS, Column.DUPLICATES, Column.ACCESSES})
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_CENTRE = Qt.AlignmentFlag.AlignCenter
_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


@dataclass(slots=True)
class RowRecord:
    """One observation as the table shows it, formatted once when it enters the cache.

    No colour is kept here: colours are the theme's, read when a cell is painted.
    """

    observation: Observation
    display: list[str]
    forgotten: bool
    clock: int = 0  # the model's clock tick its relative times were written at


def format_row(obs: Observation, now: int) -> RowRecord:
    """Every cell's text, so painting never formats or queries."""
    title = reveal(obs.title)  # hidden characters as placeholders (core.hidden_text)
    display = [
        str(obs.id),
        pin_glyph() if obs.pinned else "",
        reveal(obs.type),
        f"⚠ {title}" if obs.problems else title,
        reveal(obs.project),
        scope_label(reveal(obs.scope)),  # in the person's language (the value is the plugin's)
        reveal(obs.topic_key or ""),
        str(obs.revision_count),
        str(obs.duplicate_count),
        str(obs.access_count),
        dates.relative(obs.updated_at, now),
        dates.relative(obs.created_at, now),
    ]
    return RowRecord(obs, display, obs.deleted_at is not None)


def revised(before: Observation, after: Observation) -> bool:
    """Did a save rewrite the row (not just a pin, a forget or a read by the agent)?"""
    return (
        before.updated_at != after.updated_at
        or before.revision_count != after.revision_count
        or before.normalized_hash != after.normalized_hash
        or before.title != after.title
    )


def tooltip(obs: Observation, column: int) -> str | None:
    """A cell's tooltip, formatted on hover (one cell at a time, so not worth caching)."""
    if column == Column.UPDATED:
        return dates.exact(obs.updated_at)
    if column == Column.CREATED:
        return dates.exact(obs.created_at)
    forgotten = (
        translate("ObservationTableModel", "Forgotten {when}").format(
            when=dates.exact(obs.deleted_at)
        )
        if obs.deleted_at is not None
        else None
    )
    if column == Column.TITLE:
        title = reveal(obs.title)
        text = title if forgotten is None else f"{title}\n({forgotten})"
        if obs.problems:
            problems = (i18n.shown(problem) for problem in obs.problems)
            heading = translate("ObservationTableModel", "Cannot be read as stored:")
            return "\n".join((heading, *problems, text))
        return text
    if column == Column.PROJECT:  # the cell may be elided: the whole id is here
        project = reveal(obs.project)
        return project if forgotten is None else f"{project}\n({forgotten})"
    if column == Column.PINNED and obs.pinned:
        return translate("ObservationTableModel", "Pinned")
    return forgotten


UNSAVED_MARK = "• "  # before the title of the row being edited with unsaved edits
WAITING_MARK = "✱ "  # before the title of a row the agent changed, not yet reviewed


def waiting_note() -> str:
    """What a row's tooltip adds while the agent's change to it waits for review."""
    return translate(
        "ObservationTableModel",
        "The agent changed this row since you last looked: see View ▸ Since you last looked.",
    )


def mark_note(kind: str) -> str:
    """What a row's tooltip adds while it is marked as just arrived or just changed."""
    if kind == MARK_NEW:
        return translate("ObservationTableModel", "New: just arrived")
    return translate("ObservationTableModel", "Changed just now")


_ALIGNMENTS = [
    _RIGHT if column in _NUMERIC else _CENTRE if column == Column.PINNED else _LEFT
    for column in Column
]
CELL_ALIGNMENTS = _ALIGNMENTS  # each column's alignment (the table paints with it)
