"""Two versions of a text side by side, diffed word by word, in the theme's diff colours.

Removed words are struck through, added ones underlined (the shapes say it without colour).
Text goes in as plain text, never HTML: a memory is shown as written. The review's diff and
the pruning assistant's comparison both paint with :func:`fill`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextEdit, QWidget

from memory_desk.core.word_diff import ADDED, EQUAL, REMOVED, Segment
from memory_desk.ui import theme


@dataclass(frozen=True)
class FieldDiff:
    """One field's label and its segments (all EQUAL when only one side exists)."""

    name: str
    segments: list[Segment]


def side_view(parent: QWidget, name: str, title: str) -> QTextEdit:
    """One side: read-only plain text, selectable by mouse and keyboard, named for screen
    readers."""
    view = QTextEdit(parent)
    view.setObjectName(name)
    view.setReadOnly(True)
    view.setAcceptRichText(False)
    view.setAccessibleName(title)
    view.setTextInteractionFlags(
        Qt.TextInteractionFlag.TextSelectableByMouse
        | Qt.TextInteractionFlag.TextSelectableByKeyboard
    )
    return view


def split_sides(
    pairs: list[tuple[str, list[Segment]]],
) -> tuple[list[FieldDiff], list[FieldDiff]]:
    """Each field's word diff as its two sides: the old without the added words, the new
    without the removed ones."""
    old = [FieldDiff(name, [s for s in segments if s.kind != ADDED]) for name, segments in pairs]
    new = [FieldDiff(name, [s for s in segments if s.kind != REMOVED]) for name, segments in pairs]
    return old, new


def diff_formats() -> dict[str, QTextCharFormat]:
    """Removed: struck through on the removed colours; added: underlined on the added ones;
    the shapes say it without colour."""
    colours = theme.colors()
    plain = QTextCharFormat()
    removed = QTextCharFormat()
    removed.setBackground(QColor(colours.diff_removed[0]))
    removed.setForeground(QColor(colours.diff_removed[1]))
    removed.setFontStrikeOut(True)
    added = QTextCharFormat()
    added.setBackground(QColor(colours.diff_added[0]))
    added.setForeground(QColor(colours.diff_added[1]))
    added.setFontUnderline(True)
    return {EQUAL: plain, REMOVED: removed, ADDED: added}


def fill(view: QTextEdit, fields: list[FieldDiff] | None, labels: dict[str, str]) -> None:
    view.clear()
    if fields is None:
        return
    formats = diff_formats()
    heading = QTextCharFormat()
    heading.setFontWeight(QFont.Weight.Bold)
    cursor = QTextCursor(view.document())
    for n, field in enumerate(fields):
        if n:
            cursor.insertText("\n\n", formats[EQUAL])
        cursor.insertText(labels[field.name] + "\n", heading)
        for segment in field.segments:
            cursor.insertText(segment.text, formats[segment.kind])
    view.moveCursor(QTextCursor.MoveOperation.Start)


def marked_runs(view: QTextEdit, kind: str) -> list[str]:
    """The runs of text a side marks as ``removed`` (struck) or ``added`` (underlined)."""
    runs: list[str] = []
    block = view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            marked = fmt.fontStrikeOut() if kind == REMOVED else fmt.fontUnderline()
            if marked:
                runs.append(fragment.text())
            it += 1
        block = block.next()
    return runs
