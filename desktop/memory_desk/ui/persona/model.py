"""The entry list model: the folder's entries in the agent's order, with the prompt's cut marked.

Rows are entries plus separator rows: one where the agent's prompt stops listing entries (after
the 50th it sees) and one before the entries the agent never sees at all. A new list of entries
is applied as the difference from the old one (inserted, removed and changed rows), so the view
keeps its selection and scroll position when the folder is re-read.

The entry the person is editing without having saved is marked on its row (its name in italics
after a "•", said to screen readers too): the edits live in the editor, and the list is where
the person looks when deciding what to open next.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import UTC, datetime

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from memory_desk.core.persona import PROMPT_LIMIT, PersonaEntry
from memory_desk.ui import dates
from memory_desk.ui.i18n import plural, shown, translate
from memory_desk.ui.persona.problems import severity_icon, severity_text
from memory_desk.ui.plain import as_shown

NAME_ROLE = Qt.ItemDataRole.UserRole
SEPARATOR_ROLE = Qt.ItemDataRole.UserRole + 1
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2

COLUMNS = ("Name", "Type", "Description", "Updated")  # English; headers say column_titles()
NAME, TYPE, DESCRIPTION, UPDATED = range(len(COLUMNS))

MAX_PATCHES = 24

# The dividers' English text (the rows show divider_text(key), in the person's language).
PROMPT_DIVIDER = "The agent's prompt lists only the entries above"
HIDDEN_DIVIDER = "The agent never sees the entries below"
UNSAVED_MARK = "• "  # before the name of the entry with unsaved edits

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Separator:
    """A non-selectable row with a sentence; ``key`` keeps it stable across updates."""

    key: str
    text: str


Row = PersonaEntry | Separator


def column_titles() -> tuple[str, ...]:
    """The column headers in the person's language (same order as ``COLUMNS``)."""
    return (
        translate("PersonaListModel", "Name"),
        translate("PersonaListModel", "Type"),
        translate("PersonaListModel", "Description"),
        translate("PersonaListModel", "Updated"),
    )


def divider_text(key: str) -> str:
    """What a divider row says, in the person's language."""
    if key == "prompt":
        return translate("PersonaListModel", "The agent's prompt lists only the entries above")
    return translate("PersonaListModel", "The agent never sees the entries below")


def parse_updated(value: str | None) -> datetime | None:
    """The entry's ``updated`` as an aware datetime, or None if it is missing or not ISO."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def relative_time(moment: datetime, now: datetime) -> str:
    """The window's one date style for lists (``memory_desk.ui.dates``), for an aware datetime:
    ``5 min ago``, ``yesterday``, ``12 days ago``, then the locale's short date."""
    return dates.relative(dates.ms_from_datetime(moment), dates.ms_from_datetime(now))


def build_rows(entries: list[PersonaEntry], needle: str) -> list[Row]:
    """The rows for these entries (agent order) filtered by ``needle``, with the dividers.

    The prompt divider goes before the first shown entry the prompt does not list; the hidden
    divider before the first shown entry the agent never sees.
    """
    rows: list[Row] = []
    needle = needle.casefold().strip()
    rank = 0
    prompt_divided = hidden_divided = False
    for entry in entries:
        listed = entry.agent_visible and rank < PROMPT_LIMIT
        rank += entry.agent_visible
        if needle and not _matches(entry, needle):
            continue
        if entry.agent_visible and not listed and not prompt_divided:
            rows.append(Separator("prompt", PROMPT_DIVIDER))
            prompt_divided = True
        if not entry.agent_visible and not hidden_divided:
            rows.append(Separator("hidden", HIDDEN_DIVIDER))
            hidden_divided = True
        rows.append(entry)
    return rows


def _matches(entry: PersonaEntry, needle: str) -> bool:
    return any(
        needle in text.casefold()
        for text in (entry.name, entry.description or "", entry.type, entry.body)
    )


def _key(row: Row) -> str:
    return f"\0{row.key}" if isinstance(row, Separator) else row.name


class PersonaListModel(QAbstractTableModel):
    """Entries in the agent's order; ``index.data(Qt.UserRole)`` is the entry name (None on a
    separator). Filtering happens here, on the plain list, not in a proxy."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._entries: list[PersonaEntry] = []
        self._rows: list[Row] = []
        self._needle = ""
        self._now = datetime.now(UTC)
        self._unsaved: str | None = None
        self._italic = QFont()
        self._italic.setItalic(True)

    # -- the data --------------------------------------------------------------------------------

    def set_entries(self, entries: list[PersonaEntry]) -> None:
        """Show these entries; applied as a difference so selection and scroll survive."""
        self._entries = list(entries)
        self._now = datetime.now(UTC)
        self._apply(build_rows(self._entries, self._needle))

    def set_filter(self, text: str) -> None:
        """Show only entries whose name, type, description or body contain ``text``.

        A new filter is a new question, so the rows are reset rather than patched.
        """
        self._needle = text
        self._reset(build_rows(self._entries, self._needle))

    def entries(self) -> list[PersonaEntry]:
        return list(self._entries)

    def set_unsaved(self, name: str | None) -> None:
        """Mark the row of entry ``name`` as holding unsaved edits (None: no row is)."""
        if name == self._unsaved:
            return
        before, self._unsaved = self._unsaved, name
        for changed in (before, name):
            row = self.row_of(changed) if changed is not None else -1
            if row >= 0:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def unsaved(self) -> str | None:
        """The name of the entry marked as holding unsaved edits, or None."""
        return self._unsaved

    def row_of(self, name: str) -> int:
        """The row showing the entry ``name``, or -1 if it is not shown."""
        for row, item in enumerate(self._rows):
            if isinstance(item, PersonaEntry) and item.name == name:
                return row
        return -1

    def separator_rows(self) -> list[int]:
        return [row for row, item in enumerate(self._rows) if isinstance(item, Separator)]

    def _reset(self, new_rows: list[Row]) -> None:
        self.beginResetModel()
        self._rows = new_rows
        self.endResetModel()

    def _apply(self, new_rows: list[Row]) -> None:
        """Turn the old rows into the new ones with inserts, removals and changes, last first
        so that the row numbers of the earlier operations stay valid.

        Past a few scattered moves a reset is cheaper for the view than many small inserts.
        """
        matcher = difflib.SequenceMatcher(
            None, [_key(r) for r in self._rows], [_key(r) for r in new_rows], autojunk=False
        )
        opcodes = matcher.get_opcodes()
        if sum(tag != "equal" for tag, *_ in opcodes) > MAX_PATCHES:
            self._reset(new_rows)
            return
        for tag, i1, i2, j1, j2 in reversed(opcodes):
            if tag == "equal":
                self._update_equal(new_rows, i1, i2, j1)
                continue
            if i2 > i1:
                self.beginRemoveRows(QModelIndex(), i1, i2 - 1)
                del self._rows[i1:i2]
                self.endRemoveRows()
            if j2 > j1:
                self.beginInsertRows(QModelIndex(), i1, i1 + (j2 - j1) - 1)
                self._rows[i1:i1] = new_rows[j1:j2]
                self.endInsertRows()

    def _update_equal(self, new_rows: list[Row], i1: int, i2: int, j1: int) -> None:
        for offset in range(i2 - i1):
            row = i1 + offset
            if self._rows[row] != new_rows[j1 + offset]:
                self._rows[row] = new_rows[j1 + offset]
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    # -- Qt's model interface --------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            titles = column_titles()
            return titles[section] if 0 <= section < len(titles) else None
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if isinstance(self._rows[index.row()], Separator):
            return Qt.ItemFlag.NoItemFlags  # keyboard navigation steps over it
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item = self._rows[index.row()]
        if isinstance(item, Separator):
            return self._separator_data(item, index.column(), role)
        return self._entry_data(item, index.column(), role)

    def _separator_data(self, item: Separator, column: int, role: int):
        if role == SEPARATOR_ROLE:
            return True
        if column != NAME:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return divider_text(item.key)
        if role == Qt.ItemDataRole.FontRole:
            return self._italic
        return None

    def _entry_data(self, entry: PersonaEntry, column: int, role: int):
        if role == NAME_ROLE:
            return entry.name
        if role == ENTRY_ROLE:
            return entry
        if role == SEPARATOR_ROLE:
            return False
        unsaved = column == NAME and entry.name == self._unsaved
        if role == Qt.ItemDataRole.DisplayRole:
            text = self._display(entry, column)
            return f"{UNSAVED_MARK}{text}" if unsaved else text
        if role == Qt.ItemDataRole.ToolTipRole:
            return as_shown(self._tooltip(entry, column))  # the file's text, never HTML
        if role == Qt.ItemDataRole.DecorationRole and column == NAME and entry.problems:
            return severity_icon(_worst(entry))
        if role == Qt.ItemDataRole.FontRole and unsaved:
            return self._italic
        if role == Qt.ItemDataRole.AccessibleDescriptionRole and column == NAME:
            return self._accessible_description(entry)
        return None

    def _display(self, entry: PersonaEntry, column: int) -> str | None:
        if column == NAME:
            return entry.name
        if column == TYPE:
            return entry.type
        if column == DESCRIPTION:
            return entry.description
        moment = parse_updated(entry.updated)
        if moment is not None:
            return relative_time(moment, self._now)
        return entry.updated or translate("PersonaListModel", "never")

    def _tooltip(self, entry: PersonaEntry, column: int) -> str | None:
        if column == NAME:
            lines = [entry.name]  # the full name, however narrow the column
            if entry.name == self._unsaved:
                lines.append(translate("PersonaListModel", "Unsaved edits: Save writes them."))
            lines += [
                translate("PersonaListModel", "{severity}: {problem}").format(
                    severity=severity_text(p.severity), problem=shown(p.message)
                )
                for p in entry.problems
            ]
            return "\n".join(lines)
        if column == UPDATED:
            return self._updated_tooltip(entry)
        if column == TYPE and entry.raw_type != entry.type:
            return translate(
                "PersonaListModel", "The file says “{written}”; the agent reads “{read}”."
            ).format(written=entry.raw_type, read=entry.type)
        if column == DESCRIPTION:
            return entry.description
        return None

    def _updated_tooltip(self, entry: PersonaEntry) -> str:
        """The exact local time (the window's one style), then the file's own words."""
        moment = parse_updated(entry.updated)
        if moment is None:
            return translate(
                "PersonaListModel", "updated: “{value}” is not a date the agent can sort by."
            ).format(value=entry.updated or "")
        return f"{dates.exact(dates.ms_from_datetime(moment))}\n{entry.updated}"

    def _accessible_description(self, entry: PersonaEntry) -> str:
        """What a screen reader adds to the name: unsaved edits, and problems (the icon's
        meaning, which colour and shape alone do not tell)."""
        parts = []
        if entry.name == self._unsaved:
            parts.append(translate("PersonaListModel", "Unsaved edits."))
        if entry.problems:
            parts.append(
                plural(
                    len(entry.problems),
                    translate("PersonaListModel", "{n} problem."),
                    translate("PersonaListModel", "{n} problems."),
                )
            )
        return " ".join(parts)


def _worst(entry: PersonaEntry) -> str:
    return "error" if any(p.severity == "error" for p in entry.problems) else "warning"
