"""The entry list model: the folder's entries in the agent's order, with the prompt's cut marked.

Rows are entries plus separator rows: one where the agent's prompt stops listing entries (after
the 50th it sees) and one before the entries the agent never sees at all. A new list of entries
is applied as the difference from the old one (inserted, removed and changed rows), so the view
keeps its selection and scroll position when the folder is re-read.

The entry the person is editing without having saved is marked on its row (its name in italics
after a "•", said to screen readers too): the edits live in the editor, and the list is where
the person looks when deciding what to open next. An entry the agent wrote or changed since
the person last reviewed it has a "✱" before its name and says so in its tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import compress, count, repeat
from operator import attrgetter, is_

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
MAX_KEPT_FILTERS = 32  # filter answers kept, so that Backspace costs nothing

# The dividers' English text (the rows show divider_text(key), in the person's language).
PROMPT_DIVIDER = "The agent's prompt lists only the entries above"
HIDDEN_DIVIDER = "The agent never sees the entries below"
UNSAVED_MARK = "• "  # before the name of the entry with unsaved edits
WAITING_MARK = "✱ "  # before the name of an entry the agent changed, not yet reviewed

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Separator:
    """A non-selectable row with a sentence; ``key`` keeps it stable across updates.

    ``name`` is the row's key among entries' names (no entry's name starts with a NUL), so
    every row is found by the same attribute."""

    key: str
    text: str

    @property
    def name(self) -> str:
        return f"\0{self.key}"


Row = PersonaEntry | Separator
PROMPT_SEPARATOR = Separator("prompt", PROMPT_DIVIDER)  # one object each: rows compare by identity
HIDDEN_SEPARATOR = Separator("hidden", HIDDEN_DIVIDER)
_row_name = attrgetter("name")
_visible = attrgetter("agent_visible")


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
    needle = needle.casefold().strip()
    if not needle:
        return rows_of(entries)
    return rows_of(entries, [i for i, e in enumerate(entries) if _matches(haystack(e), needle)])


def rows_of(entries: list[PersonaEntry], shown: Sequence[int] | None = None) -> list[Row]:
    """The rows for the entries at positions ``shown`` (ascending; None: all) of ``entries``,
    listed as :meth:`PersonaFolder.entries` lists them (the agent's first, in its order), with
    the dividers: the ``PROMPT_LIMIT`` entries the agent sees first are the ones its prompt
    lists."""
    if shown is None:
        return _all_rows(entries)
    rows: list[Row] = []
    prompt_divided = hidden_divided = False
    for at in shown:
        entry = entries[at]
        if entry.agent_visible and at >= PROMPT_LIMIT and not prompt_divided:
            rows.append(PROMPT_SEPARATOR)  # (its position is its rank)
            prompt_divided = True
        if not entry.agent_visible and not hidden_divided:
            rows.append(HIDDEN_SEPARATOR)
            hidden_divided = True
        rows.append(entry)
    return rows


def _all_rows(entries: list[PersonaEntry]) -> list[Row]:
    """Every entry with its dividers, by slices (no loop in Python over 20,000 entries)."""
    visible = sum(map(_visible, entries))
    rows: list[Row] = list(entries[: min(visible, PROMPT_LIMIT)])
    if visible > PROMPT_LIMIT:
        rows.append(PROMPT_SEPARATOR)
        rows += entries[PROMPT_LIMIT:visible]
    if visible < len(entries):
        rows.append(HIDDEN_SEPARATOR)
        rows += entries[visible:]
    return rows


def haystack(entry: PersonaEntry) -> str:
    """What the filter looks in: name, description, type and body, case-folded once."""
    return "\0".join((entry.name, entry.description or "", entry.type, entry.body)).casefold()


def _matches(hay: str, needle: str) -> bool:
    """Whether the filter text is in one of the entry's fields (joined by a NUL, which only a
    needle holding a NUL could match across)."""
    return needle in hay and ("\0" not in needle or any(needle in f for f in hay.split("\0")))


def _key(row: Row) -> str:
    return row.name


class PersonaListModel(QAbstractTableModel):
    """Entries in the agent's order; ``index.data(Qt.UserRole)`` is the entry name (None on a
    separator). Filtering happens here, on the plain list, not in a proxy.

    Nothing here walks every row per change where it can be helped: a new listing is applied
    as the few rows that changed (the folder hands out the same entry object while its file is
    unchanged), and typing more letters of a filter only looks again at the rows the shorter
    text matched (each entry's text case-folded once).
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._entries: list[PersonaEntry] = []
        self._rows: list[Row] = []
        self._row_index: dict[str, int] | None = None  # key to row, built when first asked
        self._needle = ""
        self._matched: dict[str, list[int]] = {}  # needle: positions matched (this listing)
        self._hay: dict[str, tuple[PersonaEntry, str]] = {}  # name: (entry, its haystack)
        self._now = datetime.now(UTC)
        self._unsaved: str | None = None
        self._waiting: frozenset[str] = frozenset()
        self._italic = QFont()
        self._italic.setItalic(True)

    # -- the data --------------------------------------------------------------------------------

    def set_entries(self, entries: list[PersonaEntry]) -> None:
        """Show these entries (as :meth:`PersonaFolder.entries` lists them; the model keeps the
        list, unchanged); applied as a difference so selection and scroll survive."""
        self._entries = entries
        self._now = datetime.now(UTC)
        self._matched = {}
        self._apply(self._filtered_rows())

    def set_filter(self, text: str) -> None:
        """Show only entries whose name, type, description or body contain ``text``.

        A new filter is a new question, so the rows are reset rather than patched.
        """
        self._needle = text
        self._reset(self._filtered_rows())

    def entries(self) -> list[PersonaEntry]:
        return list(self._entries)

    def _filtered_rows(self) -> list[Row]:
        needle = self._needle.casefold().strip()
        if not needle:
            return rows_of(self._entries)
        return rows_of(self._entries, self._positions_matching(needle))

    def _positions_matching(self, needle: str) -> list[int]:
        """Positions of the entries matching ``needle``: a longer text only looks again at
        what a shorter one it starts with matched (the last few answers are kept)."""
        known = self._matched.get(needle)
        if known is not None:
            return known
        base = max((n for n in self._matched if needle.startswith(n)), key=len, default=None)
        candidates = self._matched[base] if base is not None else range(len(self._entries))
        entries = self._entries
        found = [i for i in candidates if _matches(self._haystack(entries[i]), needle)]
        if len(self._matched) >= MAX_KEPT_FILTERS:
            self._matched = {n: m for n, m in self._matched.items() if needle.startswith(n)}
        self._matched[needle] = found
        return found

    def _haystack(self, entry: PersonaEntry) -> str:
        kept = self._hay.get(entry.name)
        if kept is not None and kept[0] is entry:
            return kept[1]
        hay = haystack(entry)
        self._hay[entry.name] = (entry, hay)
        return hay

    def set_unsaved(self, name: str | None) -> None:
        """Mark the row of entry ``name`` as holding unsaved edits (None: no row is)."""
        if name == self._unsaved:
            return
        before, self._unsaved = self._unsaved, name
        for changed in (before, name):
            row = self.row_of(changed) if changed is not None else -1
            if row >= 0:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def set_waiting(self, names: set[str] | frozenset[str]) -> None:
        """Mark the rows of these entries as changed by the agent and not yet reviewed."""
        names = frozenset(names)
        if names == self._waiting:
            return
        before, self._waiting = self._waiting, names
        for name in before ^ names:
            row = self.row_of(name)
            if row >= 0:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def waiting(self) -> frozenset[str]:
        """The names of the entries marked as waiting for review."""
        return self._waiting

    def unsaved(self) -> str | None:
        """The name of the entry marked as holding unsaved edits, or None."""
        return self._unsaved

    def row_of(self, name: str) -> int:
        """The row showing the entry ``name``, or -1 if it is not shown."""
        if self._row_index is None:
            self._row_index = dict(zip(map(_row_name, self._rows), count(), strict=False))
        return self._row_index.get(name, -1)

    def separator_rows(self) -> list[int]:
        """The rows of the dividers (found by identity, in C loops: no index is built)."""
        rows = []
        for separator in (PROMPT_SEPARATOR, HIDDEN_SEPARATOR):
            found = list(map(is_, self._rows, repeat(separator)))
            if True in found:
                rows.append(found.index(True))
        return sorted(rows)

    def _reset(self, new_rows: list[Row]) -> None:
        self.beginResetModel()
        self._rows = new_rows
        self._row_index = None
        self.endResetModel()

    def _apply(self, new_rows: list[Row]) -> None:
        """Turn the old rows into the new ones with removals, insertions and changes.

        A row is unchanged while it holds the same object (the folder hands out the same entry
        while its file is unchanged; the dividers are constants), so the changed rows are found
        by identity in a few passes of C loops. Those rows are taken out (last first) and the
        new ones put in (first first), each at its final row; every other row keeps its place.
        Past a few changes a reset is cheaper for the view.
        """
        old_rows = self._rows
        if len(old_rows) == len(new_rows) and list(map(_row_name, old_rows)) == list(
            map(_row_name, new_rows)
        ):
            self._update_in_place(new_rows)
            return
        old_ids = set(map(id, old_rows))
        new_ids = set(map(id, new_rows))
        gone = [
            at for at, kept in enumerate(map(new_ids.__contains__, map(id, old_rows))) if not kept
        ]
        come = [
            at for at, kept in enumerate(map(old_ids.__contains__, map(id, new_rows))) if not kept
        ]
        if len(gone) + len(come) > MAX_PATCHES:
            self._reset(new_rows)
            return
        self._remove_rows(gone)
        if self._rows != list(compress(new_rows, map(old_ids.__contains__, map(id, new_rows)))):
            self._reset(new_rows)  # (cannot happen while the folder keeps the agent's order)
            return
        self._insert_rows(new_rows, come)

    def _update_in_place(self, new_rows: list[Row]) -> None:
        """Same rows, same places: only the rows holding another object changed."""
        changed = [at for at, same in enumerate(map(is_, self._rows, new_rows)) if not same]
        for row in changed:
            self._rows[row] = new_rows[row]
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def _remove_rows(self, rows: list[int]) -> None:
        for first, last in reversed(_runs(rows)):
            self.beginRemoveRows(QModelIndex(), first, last)
            del self._rows[first : last + 1]
            self._row_index = None
            self.endRemoveRows()

    def _insert_rows(self, new_rows: list[Row], rows: list[int]) -> None:
        for first, last in _runs(rows):
            self.beginInsertRows(QModelIndex(), first, last)
            self._rows[first:first] = new_rows[first : last + 1]
            self._row_index = None
            self.endInsertRows()

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
            if column == NAME and entry.name in self._waiting:
                text = f"{WAITING_MARK}{text}"
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
            if entry.name in self._waiting:
                lines.append(
                    translate(
                        "PersonaListModel",
                        "The agent changed this entry since you last looked: see View ▸ Since you last looked.",
                    )
                )
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
        if entry.name in self._waiting:
            parts.append(translate("PersonaListModel", "Changed by the agent, not reviewed."))
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


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """Ascending row numbers as (first, last) runs of consecutive rows."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs
