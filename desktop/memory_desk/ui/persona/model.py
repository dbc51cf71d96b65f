"""The entry list model: the folder's entries in the agent's order, with the prompt's cut marked.

Rows are entries plus separator rows: one where the agent's prompt stops listing entries (after
the 50th it sees) and one before the entries the agent never sees at all. A new list of entries
is applied as the difference from the old one (inserted, removed and changed rows), so the view
keeps its selection and scroll position when the folder is re-read; a change of a few entries
(:meth:`PersonaListModel.patch`) costs a binary search and a row signal per entry, whatever the
size of the folder.

The entry the person is editing without having saved is marked on its row (its name in italics
after a "•", said to screen readers too): the edits live in the editor, and the list is where
the person looks when deciding what to open next. An entry the agent wrote or changed since
the person last reviewed it has a "✱" before its name and says so in its tooltip.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QFont, QIcon
from PySide6.QtWidgets import QApplication

from memory_desk.core.hidden_text import reveal
from memory_desk.core.persona import PROMPT_LIMIT, PersonaEntry
from memory_desk.ui import dates
from memory_desk.ui.i18n import current_language, plural, shown, translate
from memory_desk.ui.persona.problems import severity_icon, severity_text
from memory_desk.ui.persona.rows import (
    HIDDEN_SEPARATOR,
    PROMPT_SEPARATOR,
    Row,
    Separator,
    divider_rows,
    haystack,
    layout,
    matching,
    place_of,
    row_after_dividers,
    row_runs,
    shifted,
    with_slot,
)
from memory_desk.ui.plain import as_shown

NAME_ROLE = Qt.ItemDataRole.UserRole
SEPARATOR_ROLE = Qt.ItemDataRole.UserRole + 1
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2

COLUMNS = ("Name", "Type", "Description", "Updated")  # English; headers say column_titles()
NAME, TYPE, DESCRIPTION, UPDATED = range(len(COLUMNS))

MAX_PATCHES = 24
MAX_KEPT_DATES = 4096  # Updated wordings kept (a screen shows about 40)

UNSAVED_MARK = "• "  # before the name of the entry with unsaved edits
WAITING_MARK = "✱ "  # before the name of an entry the agent changed, not yet reviewed

_Index = QModelIndex | QPersistentModelIndex


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


class PersonaListModel(QAbstractTableModel):
    """Entries in the agent's order; ``index.data(Qt.UserRole)`` is the entry name (None on a
    separator). Filtering happens here, on the plain list, not in a proxy.

    Nothing here walks every entry per change in Python: the page's own change (a save, a
    rename, the agent's rewrite of a file) is applied by :meth:`patch` as the rows of the
    entries that changed (a binary search in the listing's order finds them), and a filter
    looks in each entry's text case-folded once (kept in the listing's order).

    Signals:
        dividers_moved(): the divider rows may be elsewhere now (the view spans them again)
    """

    dividers_moved = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._entries: list[PersonaEntry] = []
        self._visible = 0  # how many of _entries the agent sees (they come first)
        self._by_name: dict[str, PersonaEntry] = {}
        self._hays: list[str] | None = None  # haystack of each entry, in _entries' order
        self._unpatched: list[PersonaEntry] | None = None  # the listing set, until patched
        self._rows: list[Row] = []
        self._dividers: tuple[int | None, int | None] = (None, None)  # prompt, hidden rows
        self._shown: list[int] | None = None  # positions of the entries shown (None: all)
        self._needle = ""
        self._hay: dict[str, tuple[PersonaEntry, str]] = {}  # name: (entry, its haystack)
        self._now = datetime.now(UTC)
        self._unsaved: str | None = None
        self._waiting: frozenset[str] = frozenset()
        self._italic = QFont()
        self._italic.setItalic(True)
        self._icons: dict[str, tuple[object, QIcon]] = {}  # severity: (style, its icon)
        self._updated_texts: dict[tuple, str] = {}  # (updated, now, locale): the wording

    # -- the data --------------------------------------------------------------------------------

    def set_entries(self, entries: list[PersonaEntry]) -> None:
        """Show these entries (as :meth:`PersonaFolder.entries` lists them; the model keeps the
        list, unchanged); applied as a difference so selection and scroll survive. The filter's
        texts are made when first needed, unless :meth:`offer_haystacks` brings them."""
        self._entries = entries
        self._visible = sum(e.agent_visible for e in entries)
        self._by_name = {e.name: e for e in entries}
        self._hays = None
        self._unpatched = entries
        self._now = datetime.now(UTC)
        rows, dividers, shown = self._filtered_layout()
        self._apply(rows)
        self._dividers, self._shown = dividers, shown
        self.dividers_moved.emit()

    def offer_haystacks(self, entries: list[PersonaEntry], hays: list[str]) -> bool:
        """Take ``hays``, made off the window's thread for the listing ``entries``, if the
        model shows that listing as it was set (not patched since) and has none yet; else
        they are dropped (the model makes its own when the filter first needs them)."""
        if self._hays is not None or entries is not self._unpatched or len(hays) != len(entries):
            return False
        self._hays = hays
        return True

    def set_filter(self, text: str) -> None:
        """Show only entries whose name, type, description or body contain ``text``.

        A new filter is a new question, so the rows are reset rather than patched.
        """
        self._needle = text
        rows, dividers, shown = self._filtered_layout()
        self._reset(rows)
        self._dividers, self._shown = dividers, shown
        self.dividers_moved.emit()

    def entries(self) -> list[PersonaEntry]:
        return list(self._entries)

    def entry(self, name: str) -> PersonaEntry | None:
        """The entry ``name`` as listed (with its beyond-the-prompt mark), or None."""
        return self._by_name.get(name)

    def _filtered_layout(self) -> tuple[list[Row], tuple[int | None, int | None], list[int] | None]:
        needle = self._needle.casefold().strip()
        shown = matching(self._haystacks(), needle) if needle else None
        rows, prompt_row, hidden_row = layout(self._entries, self._visible, shown)
        return rows, (prompt_row, hidden_row), shown

    def _haystacks(self) -> list[str]:
        """The haystack of every entry in listing order (made once per listing, then patched)."""
        if self._hays is None:
            self._hays = list(map(self._haystack, self._entries))
        return self._hays

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
                self._row_changed(row, row)

    def set_waiting(self, names: set[str] | frozenset[str]) -> None:
        """Mark the rows of these entries as changed by the agent and not yet reviewed."""
        names = frozenset(names)
        if names == self._waiting:
            return
        before, self._waiting = self._waiting, names
        for name in before ^ names:
            row = self.row_of(name)
            if row >= 0:
                self._row_changed(row, row)

    def waiting(self) -> frozenset[str]:
        """The names of the entries marked as waiting for review."""
        return self._waiting

    def unsaved(self) -> str | None:
        """The name of the entry marked as holding unsaved edits, or None."""
        return self._unsaved

    def row_of(self, name: str) -> int:
        """The row showing the entry ``name``, or -1 if it is not shown (a binary search)."""
        entry = self._by_name.get(name)
        if entry is None:
            return -1
        at = self._position(entry)
        if self._shown is not None:
            index = bisect_left(self._shown, at)
            if index == len(self._shown) or self._shown[index] != at:
                return -1
            at = index
        return row_after_dividers(at, self._dividers)

    def separator_rows(self) -> list[int]:
        """The rows of the dividers (kept as rows change: nothing is searched)."""
        return sorted(d for d in self._dividers if d is not None)

    # -- a change of a few entries -----------------------------------------------------------------

    def patch(
        self,
        listing: list[PersonaEntry],
        names: Iterable[str],
        written: Sequence[PersonaEntry] = (),
    ) -> list[tuple[PersonaEntry | None, PersonaEntry | None]] | None:
        """Bring the rows up to ``listing`` (the folder's new listing), which differs from the
        one shown only in the entries ``names`` (and ``written``, the entries as just written)
        and in the beyond-the-prompt marks those shifted across the prompt's limit.

        Each changed entry is found by a binary search in the listing's order and becomes one
        row moved, put in, taken out or changed; the dividers follow as changed rows. Returns
        the entries replaced, as (before, after) pairs (None: not there), so that whoever keeps
        counts updates them; None when the change was too large to patch (the rows were then
        set again from ``listing``, and every count must be taken again).
        """
        self._unpatched = None  # (haystacks made for the listing before no longer fit)
        touched = dict.fromkeys(names)
        hints = {entry.name: entry for entry in written}
        touched.update(dict.fromkeys(hints))
        if len(touched) > MAX_PATCHES:
            self.set_entries(listing)
            return None
        fresh = {name: self._find(listing, name, hints.get(name)) for name in touched}
        pairs: list[tuple[PersonaEntry | None, PersonaEntry | None]] = []
        for name, after in fresh.items():
            before = self._by_name.get(name)
            if before is not None or after is not None:
                self._replace(before, after)
                pairs.append((before, after))
        pairs += self._adopt_marks(listing, 2 * len(touched) + 2)
        if len(self._entries) != len(listing) or self._entries[-1:] != listing[-1:]:
            self.set_entries(listing)  # (cannot happen while the listing keeps its order)
            return None
        if self._shown is None:
            self._settle_dividers(2 * len(touched) + 2)
        else:
            rows, dividers, shown = self._filtered_layout()
            self._apply(rows)
            self._dividers, self._shown = dividers, shown
        self.dividers_moved.emit()
        return pairs

    def _find(
        self, listing: list[PersonaEntry], name: str, hint: PersonaEntry | None
    ) -> PersonaEntry | None:
        """Entry ``name`` in ``listing`` (as listed, marked or not), or None if it is not there.

        With ``hint`` (the entry as written) its place is found by a binary search; a name
        without one is looked for one by one."""
        if hint is not None:
            at = place_of(listing, hint)
            if at < len(listing) and listing[at].name == name:
                return listing[at]
        return next((entry for entry in listing if entry.name == name), None)

    def _position(self, entry: PersonaEntry) -> int:
        """Where ``entry`` (one of those held) is in the listing: a binary search."""
        return place_of(self._entries, entry)

    def _replace(self, before: PersonaEntry | None, after: PersonaEntry | None) -> None:
        """Take ``before`` out of the listing and put ``after`` in at its place: one row out,
        one row in, one row moved or one row changed."""
        entries, hays = self._entries, self._hays
        old_at = self._position(before) if before is not None else -1
        if before is not None:
            del entries[old_at]
            if hays is not None:
                del hays[old_at]
            self._visible -= before.agent_visible
            del self._by_name[before.name]
        new_at = -1
        if after is not None:
            new_at = self._position(after)
            entries.insert(new_at, after)
            if hays is not None:
                hays.insert(new_at, self._haystack(after))
            self._visible += after.agent_visible
            self._by_name[after.name] = after
        if self._shown is None:
            self._move_row(old_at, new_at, after)

    def _move_row(self, old_at: int, new_at: int, after: PersonaEntry | None) -> None:
        """The row change for an entry that left position ``old_at`` and came to ``new_at``
        (-1: none) while the rows show every entry; the dividers stay where they are for now
        (:meth:`_settle_dividers` puts them back in place)."""
        old_row = row_after_dividers(old_at, self._dividers) if old_at >= 0 else -1
        if old_row >= 0:
            self._dividers = shifted(self._dividers, old_row, -1)
        new_row = row_after_dividers(new_at, self._dividers) if new_at >= 0 else -1
        root = QModelIndex()
        if old_row >= 0 and new_row >= 0:
            if old_row == new_row:
                self._rows[new_row] = after
                self._row_changed(new_row, new_row)
            else:
                target = new_row if new_row < old_row else new_row + 1
                self.beginMoveRows(root, old_row, old_row, root, target)
                del self._rows[old_row]
                self._rows.insert(new_row, after)
                self.endMoveRows()
                self._row_changed(new_row, new_row)
        elif old_row >= 0:
            self.beginRemoveRows(root, old_row, old_row)
            del self._rows[old_row]
            self.endRemoveRows()
        elif new_row >= 0:
            self.beginInsertRows(root, new_row, new_row)
            self._rows.insert(new_row, after)
            self.endInsertRows()
        if new_row >= 0:
            self._dividers = shifted(self._dividers, new_row, 1)

    def _adopt_marks(
        self, listing: list[PersonaEntry], reach: int
    ) -> list[tuple[PersonaEntry | None, PersonaEntry | None]]:
        """Take the listing's copy of the entries near the prompt's limit: those that crossed
        it gained or lost the beyond-the-prompt mark (a new object; nothing else moved)."""
        pairs: list[tuple[PersonaEntry | None, PersonaEntry | None]] = []
        entries = self._entries
        stop = min(len(entries), len(listing), self._visible, PROMPT_LIMIT + reach)
        for at in range(max(0, PROMPT_LIMIT - reach), stop):
            before, after = entries[at], listing[at]
            if before is not after and before.name == after.name:
                entries[at] = after
                self._by_name[after.name] = after
                pairs.append((before, after))
                if self._shown is None:
                    row = row_after_dividers(at, self._dividers)
                    self._rows[row] = after
                    self._row_changed(row, row)
        return pairs

    def _settle_dividers(self, reach: int) -> None:
        """Put the divider rows where the listing now wants them (every entry shown): a
        divider that comes or goes is a row in or out; one that moved by a few places turns
        the rows between into changed rows. Only rows near the dividers and the prompt's
        limit are looked at: every other row already holds what it should."""
        wanted = divider_rows(len(self._entries), self._visible)
        root = QModelIndex()
        for slot, divider in enumerate((PROMPT_SEPARATOR, HIDDEN_SEPARATOR)):
            current = self._dividers[slot]
            if current is not None and wanted[slot] is None:
                self.beginRemoveRows(root, current, current)
                del self._rows[current]
                self.endRemoveRows()
                self._dividers = with_slot(shifted(self._dividers, current, -1), slot, None)
            elif current is None and wanted[slot] is not None:
                at = min(wanted[slot], len(self._rows))
                self.beginInsertRows(root, at, at)
                self._rows.insert(at, divider)
                self.endInsertRows()
                self._dividers = with_slot(shifted(self._dividers, at, 1), slot, at)
        marks = [d for d in (*self._dividers, *wanted) if d is not None]
        low = max(0, min([*marks, PROMPT_LIMIT - reach]) - 2)
        high = min(len(self._rows), max([*marks, PROMPT_LIMIT + reach]) + 3)
        changed = []
        for row in range(low, high):
            should = self._row_content(row, wanted)
            if self._rows[row] is not should:
                self._rows[row] = should
                changed.append(row)
        self._dividers = wanted
        for first, last in row_runs(changed):
            self._row_changed(first, last)

    def _row_content(self, row: int, dividers: tuple[int | None, int | None]) -> Row:
        """What row ``row`` holds when every entry is shown and the dividers are at these rows."""
        if row == dividers[0]:
            return PROMPT_SEPARATOR
        if row == dividers[1]:
            return HIDDEN_SEPARATOR
        before = sum(1 for d in dividers if d is not None and d < row)
        return self._entries[row - before]

    def _row_changed(self, first: int, last: int) -> None:
        self.dataChanged.emit(self.index(first, 0), self.index(last, len(COLUMNS) - 1))

    def _reset(self, new_rows: list[Row]) -> None:
        self.beginResetModel()
        self._rows = new_rows
        self.endResetModel()

    def _apply(self, new_rows: list[Row]) -> None:
        """Turn the old rows into the new ones with removals, insertions and changes.

        A row is unchanged while it holds the same object (the folder hands out the same entry
        while its file is unchanged; the dividers are constants), so the changed rows are found
        by identity. Those rows are taken out (last first) and the new ones put in (first
        first), each at its final row; every other row keeps its place.
        Past a few changes a reset is cheaper for the view.
        """
        old_rows = self._rows
        if len(old_rows) == len(new_rows) and [r.name for r in old_rows] == [
            r.name for r in new_rows
        ]:
            self._update_in_place(new_rows)
            return
        if abs(len(new_rows) - len(old_rows)) > MAX_PATCHES:  # (as many rows come or go, at least)
            self._reset(new_rows)
            return
        old_ids = set(map(id, old_rows))
        new_ids = set(map(id, new_rows))
        gone = [at for at, row in enumerate(old_rows) if id(row) not in new_ids]
        come = [at for at, row in enumerate(new_rows) if id(row) not in old_ids]
        if len(gone) + len(come) > MAX_PATCHES:
            self._reset(new_rows)
            return
        self._remove_rows(gone)
        if self._rows != [row for row in new_rows if id(row) in old_ids]:
            self._reset(new_rows)  # (cannot happen while the folder keeps the agent's order)
            return
        self._insert_rows(new_rows, come)

    def _update_in_place(self, new_rows: list[Row]) -> None:
        """Same rows, same places: only the rows holding another object changed."""
        changed = [
            at
            for at, (old, new) in enumerate(zip(self._rows, new_rows, strict=True))
            if old is not new
        ]
        for row in changed:
            self._rows[row] = new_rows[row]
            self._row_changed(row, row)

    def _remove_rows(self, rows: list[int]) -> None:
        for first, last in reversed(row_runs(rows)):
            self.beginRemoveRows(QModelIndex(), first, last)
            del self._rows[first : last + 1]
            self.endRemoveRows()

    def _insert_rows(self, new_rows: list[Row], rows: list[int]) -> None:
        for first, last in row_runs(rows):
            self.beginInsertRows(QModelIndex(), first, last)
            self._rows[first:first] = new_rows[first : last + 1]
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
            return self.shown_text(entry, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return as_shown(self._tooltip(entry, column))  # the file's text, never HTML
        if role == Qt.ItemDataRole.DecorationRole and column == NAME:
            return self.problem_icon(entry)
        if role == Qt.ItemDataRole.FontRole and unsaved:
            return self._italic
        if role == Qt.ItemDataRole.AccessibleDescriptionRole and column == NAME:
            return self._accessible_description(entry)
        return None

    # -- what the entry list paints (row by row, not role by role) -----------------------------

    def row_at(self, row: int) -> Row:
        """The entry or divider at ``row``: the entry list paints its rows from it."""
        return self._rows[row]

    def shown_text(self, entry: PersonaEntry, column: int) -> str | None:
        """What the cell shows (its ``DisplayRole``), with the marks before the name."""
        text = self._display(entry, column)
        if column != NAME:
            return text
        if entry.name in self._waiting:
            text = f"{WAITING_MARK}{text}"
        return f"{UNSAVED_MARK}{text}" if entry.name == self._unsaved else text

    def problem_icon(self, entry: PersonaEntry) -> QIcon | None:
        """The icon before the name of an entry with problems (its worst), or None.

        The style's icons are looked up once per style: most entries of a large folder carry
        a warning, and asking the style for its icon per painted cell is slow."""
        if not entry.problems:
            return None
        severity = _worst(entry)
        style = QApplication.style()
        kept = self._icons.get(severity)
        if kept is None or kept[0] is not style:
            kept = self._icons[severity] = (style, severity_icon(severity))
        return kept[1]

    def _display(self, entry: PersonaEntry, column: int) -> str | None:
        # hidden characters (bidi controls, zero-width ones) shown as placeholders
        if column == NAME:
            return reveal(entry.name)
        if column == TYPE:
            return reveal(entry.type)
        if column == DESCRIPTION:
            return reveal(entry.description) if entry.description else entry.description
        return self._updated_text(entry.updated)

    def _updated_text(self, updated: str | None) -> str:
        """The Updated cell's wording, worked out once per value (until the listing's
        moment or the language changes): a repaint asks for each shown value again."""
        key = (updated, self._now, current_language())
        known = self._updated_texts.get(key)
        if known is None:
            moment = parse_updated(updated)
            if moment is not None:
                known = relative_time(moment, self._now)
            else:
                known = updated or translate("PersonaListModel", "never")
            if len(self._updated_texts) >= MAX_KEPT_DATES:
                self._updated_texts.clear()
            self._updated_texts[key] = known
        return known

    def _tooltip(self, entry: PersonaEntry, column: int) -> str | None:
        if column == NAME:
            lines = [reveal(entry.name)]  # the full name, however narrow the column
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
            return reveal(entry.description) if entry.description else entry.description
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
