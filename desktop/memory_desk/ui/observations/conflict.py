"""When the observation being edited changes underneath: what the shared banner says here.

The agent may revise the row the person is editing (a save with the same topic_key), forget
it or delete it. The form keeps the person's text and :class:`memory_desk.ui.widgets.conflict.
ConflictBanner` offers what to do: rewritten -> Compare / Keep mine / Reload theirs;
forgotten or deleted -> Keep (saving restores a forgotten row) / Close.

The words are read when a banner or a dialog is built, so they are in the language in effect.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from memory_desk.core.observations import Observation
from memory_desk.ui.i18n import translate
from memory_desk.ui.widgets.conflict import CompareDialog, ConflictBanner, unified_diff

CHANGED = "changed"
FORGOTTEN = "forgotten"
DELETED = "deleted"


def tips() -> dict[str, str]:
    """The banner buttons' tooltips, in the words of an observation's edit form."""
    return {
        "conflictCompare": translate("ObservationConflict", "Show what differs (Alt+C)"),
        "conflictKeepMine": translate(
            "ObservationConflict", "Keep your text; saving will replace the new version (Alt+M)"
        ),
        "conflictReload": translate(
            "ObservationConflict", "Drop your edits and show the new version (Alt+L)"
        ),
        "conflictKeep": translate(
            "ObservationConflict", "Keep editing; saving restores a forgotten observation (Alt+K)"
        ),
        "conflictClose": translate("ObservationConflict", "Leave the form without saving (Alt+L)"),
    }


def edit_conflict_banner(parent: QWidget | None = None) -> ConflictBanner:
    return ConflictBanner(tips(), parent)


def as_text(title: str, type: str, topic_key: str, content: str) -> str:
    """An observation's editable fields as one text, so a diff shows every field."""
    return translate(
        "ObservationConflict", "Title: {title}\nType: {type}\nTopic key: {topic_key}\n\n{content}"
    ).format(title=title, type=type, topic_key=topic_key or "—", content=content)


def observation_text(observation: Observation) -> str:
    return as_text(
        observation.title,
        observation.type,
        observation.topic_key or "",
        observation.content or "",
    )


def compare_dialog(theirs: str, mine: str, observation_id: int, parent: QWidget) -> CompareDialog:
    """The stored version against the form, as ``diff -u`` prints them."""
    diff = unified_diff(
        theirs,
        mine,
        theirs_label=translate("ObservationConflict", "#{id} (in the database)").format(
            id=observation_id
        ),
        mine_label=translate("ObservationConflict", "#{id} (yours)").format(id=observation_id),
        same=translate(
            "ObservationConflict", "No differences: the database holds the same text as your form."
        ),
    )
    title = translate("ObservationConflict", "Compare: in the database vs yours")
    return CompareDialog(diff, title=title, parent=parent)
