"""When the observation being edited changes underneath: what the shared banner says here.

The agent may revise the row the person is editing (a save with the same topic_key), forget
it or delete it. The form keeps the person's text and :class:`memory_desk.ui.conflict.
ConflictBanner` offers what to do: rewritten -> Compare / Keep mine / Reload theirs;
forgotten or deleted -> Keep (saving restores a forgotten row) / Close.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from memory_desk.core.observations import Observation
from memory_desk.ui.conflict import CompareDialog, ConflictBanner, unified_diff

CHANGED = "changed"
FORGOTTEN = "forgotten"
DELETED = "deleted"

TIPS = {
    "conflictCompare": "Show what differs (Alt+C)",
    "conflictKeepMine": "Keep your text; saving will replace the new version (Alt+M)",
    "conflictReload": "Drop your edits and show the new version (Alt+L)",
    "conflictKeep": "Keep editing; saving restores a forgotten observation (Alt+K)",
    "conflictClose": "Leave the form without saving (Alt+L)",
}


def edit_conflict_banner(parent: QWidget | None = None) -> ConflictBanner:
    return ConflictBanner(TIPS, parent)


def as_text(title: str, type: str, topic_key: str, content: str) -> str:
    """An observation's editable fields as one text, so a diff shows every field."""
    return f"Title: {title}\nType: {type}\nTopic key: {topic_key or '—'}\n\n{content}"


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
        theirs_label=f"#{observation_id} (in the database)",
        mine_label=f"#{observation_id} (yours)",
        same="No differences: the database holds the same text as your form.",
    )
    return CompareDialog(diff, title="Compare: in the database vs yours", parent=parent)
