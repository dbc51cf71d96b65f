"""When the open entry's file moved under the editor: what the shared banner says here.

A save that meets a newer file, or a change on disk while the editor holds edits, shows
:class:`memory_desk.ui.widgets.conflict.ConflictBanner` with Compare / Keep mine / Reload theirs; a
deleted file shows Keep (saving writes it back) / Close. :class:`DiskConflict` records what
the person chose, so a kept version never overwrites a later change unseen.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QWidget

from memory_desk.ui.i18n import translate
from memory_desk.ui.widgets.conflict import CompareDialog, ConflictBanner, unified_diff

CHANGED = "changed"
DELETED = "deleted"


def tips() -> dict[str, str]:
    """The banner buttons' tooltips in the page's own words, in the person's language."""
    return {
        "conflictCompare": translate("PersonaConflict", "Show what differs (Alt+C)"),
        "conflictKeepMine": translate(
            "PersonaConflict", "Keep your version: saving writes it over the file on disk (Alt+M)"
        ),
        "conflictReload": translate(
            "PersonaConflict", "Drop your edits and read the file on disk (Alt+L)"
        ),
        "conflictKeep": translate(
            "PersonaConflict", "Keep the entry open: saving writes it back to the folder (Alt+K)"
        ),
        "conflictClose": translate("PersonaConflict", "Close the entry; it stays deleted (Alt+L)"),
    }


@dataclass
class DiskConflict:
    """The open entry's file moved under the editor, and what the person chose about it.

    ``theirs`` is the sha256 of the file on disk when the conflict was seen (None: deleted).
    ``kept`` means the person chose Keep / Keep mine: the next save overwrites (or re-creates)
    the file, but only while the disk still holds ``theirs``, so a later change is never
    overwritten unseen. ``save_pending`` means the banner answered a save: keeping saves at once.
    """

    kind: str  # CHANGED | DELETED
    theirs: str | None
    save_pending: bool = False
    kept: bool = False


def disk_conflict_banner(parent: QWidget | None = None) -> ConflictBanner:
    return ConflictBanner(tips(), parent)


def compare_dialog(theirs: str, mine: str, name: str, parent: QWidget) -> CompareDialog:
    """The file on disk against the editor, as ``diff -u`` prints them."""
    diff = unified_diff(
        theirs,
        mine,
        theirs_label=translate("PersonaConflict", "{name} (on disk)").format(name=name),
        mine_label=translate("PersonaConflict", "{name} (yours)").format(name=name),
        same=translate(
            "PersonaConflict", "No differences: the file on disk says the same as your version."
        ),
    )
    return CompareDialog(
        diff, title=translate("PersonaConflict", "Compare: on disk vs yours"), parent=parent
    )
