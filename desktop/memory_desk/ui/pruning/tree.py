"""The candidates as a tree: one branch per group (its reason), one checkable leaf per row.

Nothing is checked until the person chooses: a row, or a whole group by its own checkbox
(its candidates, never the kept row; partly checked when some are). A kept row is shown, not
checkable, marked "kept", so the person sees what stays. A row may be proposed for several
reasons (old and large): its leaves are checked and unchecked together. The person's checks
survive a new search of the same source.

The page searches again at every commit of the agent, and most commits change no candidate:
a group found again unchanged keeps its branch (its items, checks and scroll place), so only
the groups that changed are built on the window's thread.

Signals (CandidatesTree):
    selection_changed(): the set of checked rows changed
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from memory_desk.core import alisio
from memory_desk.core.hidden_text import reveal
from memory_desk.core.pruning import (
    LARGE,
    NEAR_DUPLICATE,
    NEVER_ACCESSED,
    PERSONA_NEAR_DUPLICATE,
    PERSONA_SAME_TEXT,
    REDACTED_ONLY,
    SAME_CONTENT,
    TOPIC_BOTH_SCOPES,
    Findings,
    Group,
    Row,
)
from memory_desk.ui import dates, i18n
from memory_desk.ui.elide import project_names
from memory_desk.ui.i18n import translate
from memory_desk.ui.plain import as_shown

GroupId = tuple[str, frozenset[int | str]]

KEY_ROLE = Qt.ItemDataRole.UserRole
WHERE_PADDING = 16  # the cell's margins
MAX_WHERE_WIDTH = 240  # the title keeps the rest
REASON_ROLE = Qt.ItemDataRole.UserRole + 1


def reason_text(group: Group, findings: Findings) -> str:
    """The group's reason in words, with what it is about."""
    reason = group.reason
    if reason == SAME_CONTENT:
        return translate("PruningPage", "Same content saved more than once")
    if reason == NEAR_DUPLICATE:
        return translate("PruningPage", "Nearly the same text ({percent}% of the words)").format(
            percent=i18n.number(int((group.similarity or 0) * 100))
        )
    if reason == TOPIC_BOTH_SCOPES:
        return translate(
            "PruningPage", "Topic “{topic}” is live both in a project and as personal"
        ).format(topic=group.detail)
    if reason == NEVER_ACCESSED:
        return i18n.plural(
            findings.settings.age_days,
            translate("PruningPage", "Never opened by the agent, unchanged for over {n} day"),
            translate("PruningPage", "Never opened by the agent, unchanged for over {n} days"),
        )
    if reason == LARGE:
        return translate("PruningPage", "Content over {n} characters").format(
            n=i18n.number(findings.settings.large_units)
        )
    if reason == REDACTED_ONLY:
        return translate("PruningPage", "Content is only {mark}").format(mark=alisio.REDACTED)
    if reason == PERSONA_SAME_TEXT:
        return translate("PruningPage", "Entries with the same text")
    if reason == PERSONA_NEAR_DUPLICATE:
        return translate("PruningPage", "Entries that say nearly the same ({percent}%)").format(
            percent=i18n.number(int((group.similarity or 0) * 100))
        )
    return reason


def group_id(group: Group) -> GroupId:
    """What names a group across searches: its reason and its rows."""
    return group.reason, frozenset(row.key for row in group.rows)


class CandidatesTree(QTreeWidget):
    """Groups and rows, with checkboxes on the groups and the rows proposed (module
    docstring).

    Signals:
        selection_changed(): the checked rows changed
    """

    selection_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pruningCandidates")
        self.setAccessibleName(translate("PruningPage", "Candidates to forget"))
        self.setColumnCount(5)
        self.setHeaderLabels(
            [
                translate("PruningPage", "Title"),
                translate("PruningPage", "Type"),
                translate("PruningPage", "Where"),
                translate("PruningPage", "Updated"),
                translate("PruningPage", "Note"),
            ]
        )
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.header().setStretchLastSection(False)
        self.setUniformRowHeights(True)
        self._leaves: dict[int | str, list[QTreeWidgetItem]] = {}
        self._findings: Findings | None = None
        self._branches: dict[Group, QTreeWidgetItem] = {}  # the groups shown, with their items
        self._checked: set[int | str] = set()  # the person's choices, kept across searches
        self._shown_checked: set[int | str] = set()  # the choices the items show
        # each branch's checkable rows (key, item), and the state its box shows (by the
        # branch's item: a group hashes all its rows)
        self._group_leaves: dict[QTreeWidgetItem, list[tuple[int | str, QTreeWidgetItem]]] = {}
        self._branch_state: dict[QTreeWidgetItem, Qt.CheckState] = {}
        self._keep: dict[GroupId, int | str] = {}  # the row the person keeps, by group
        self._syncing = False
        self._place_names: dict[str, str] = {}  # project id: the name shown for it
        self.itemChanged.connect(self._on_item_changed)

    def show_findings(self, findings: Findings | None, *, keep_choices: bool) -> None:
        """Show these groups; with ``keep_choices`` the person's checks stay checked."""
        groups = () if findings is None else findings.groups
        renamed = self._name_places(findings)
        if not keep_choices:
            self._checked.clear()
            self._shown_checked.clear()
            self._keep.clear()
            self._branches = {}
            self.clear()
        elif list(self._branches) == list(groups):
            return  # found again as shown (the checks the person made stay as they are)
        self._syncing = True
        if renamed:
            self.clear()
        old, self._branches = ({} if renamed else self._branches), {}
        for group in groups:
            branch = old.pop(group, None)
            if branch is None:
                branch = self._add_group(group, findings)  # type: ignore[arg-type]
            self._branches[group] = branch
        for gone in old.values():
            self.takeTopLevelItem(self.indexOfTopLevelItem(gone))
        # Only a branch new or out of its place is put in (a group found again stays put).
        for index, branch in enumerate(self._branches.values()):
            if self.topLevelItem(index) is branch:
                continue
            if self.indexOfTopLevelItem(branch) >= 0:
                self.takeTopLevelItem(self.indexOfTopLevelItem(branch))
            self.insertTopLevelItem(index, branch)
            branch.setFirstColumnSpanned(True)
            branch.setExpanded(True)
        self._findings = findings
        self._group_leaves = {b: self._group_leaves[b] for b in self._branches.values()}
        self._branch_state = {b: self._branch_state[b] for b in self._branches.values()}
        self._index_leaves()
        self._sync_checks()
        self._syncing = False
        self.selection_changed.emit()

    def _index_leaves(self) -> None:
        """Every checkable row's items by key, from the branches' own lists (no item asked)."""
        self._leaves = {}
        for branch in self._branches.values():
            for key, leaf in self._group_leaves[branch]:
                self._leaves.setdefault(key, []).append(leaf)

    def _sync_checks(self) -> None:
        """The items follow the person's choices. Only the rows whose choice changed since the
        last sync are touched (an item is made with the choice of its moment), and a group's
        box is set only when its state changes: a live refresh that keeps every choice asks
        no item anything."""
        changed = (self._checked ^ self._shown_checked) & self._leaves.keys()
        for key in changed:
            state = Qt.CheckState.Checked if key in self._checked else Qt.CheckState.Unchecked
            for item in self._leaves[key]:
                if item.checkState(0) != state:
                    item.setCheckState(0, state)
        self._shown_checked = set(self._checked)
        for branch in self._branches.values():
            keys = [key for key, _leaf in self._group_leaves[branch]]
            checked = sum(key in self._checked for key in keys)
            if keys and checked == len(keys):
                state = Qt.CheckState.Checked
            elif checked:
                state = Qt.CheckState.PartiallyChecked
            else:
                state = Qt.CheckState.Unchecked
            if self._branch_state.get(branch) != state:
                branch.setCheckState(0, state)
                self._branch_state[branch] = state

    def checked_keys(self) -> list[int | str]:
        """The rows to forget, each once, in the order shown (the items' checks follow the
        person's choices: :meth:`_sync_checks`)."""
        return [key for key in self._leaves if key in self._checked]

    def proposed_count(self) -> int:
        return len(self._leaves)

    def set_all(self, checked: bool) -> None:
        """Check or uncheck every proposed row."""
        self._checked = set(self._leaves) if checked else set()
        self._syncing = True
        try:
            self._sync_checks()
        finally:
            self._syncing = False
        self.selection_changed.emit()

    def kept_row(self, group: Group) -> Row | None:
        """The row ``group`` keeps: the person's choice (:meth:`keep_only`), else the
        assistant's."""
        chosen = self._keep.get(group_id(group))
        for row in group.rows:
            if (row.key == chosen) if chosen is not None else row.kept:
                return row
        return None

    def selected_pair(self) -> tuple[Group, Row, Row] | None:
        """(group, the row it keeps, a candidate) for the current item: the candidate
        selected, else the group's first; None when there is nothing to compare."""
        item = self.currentItem()
        if item is None:
            return None
        branch = item.parent() or item
        group = next((g for g, b in self._branches.items() if b is branch), None)
        kept = None if group is None else self.kept_row(group)
        if group is None or kept is None:
            return None
        key = item.data(0, KEY_ROLE) if item is not branch else None
        candidates = [r for r in group.rows if r.key != kept.key]
        chosen = next((r for r in candidates if r.key == key), None)
        if chosen is None and key in (None, kept.key) and candidates:
            chosen = candidates[0]  # (the group, or its kept row: its first candidate)
        return None if chosen is None else (group, kept, chosen)

    def keep_only(self, group: Group, key: int | str) -> None:
        """Keep the row ``key`` of ``group`` and check every other row of it."""
        branch = self._branches.get(group)
        if branch is None or key not in {r.key for r in group.rows}:
            return
        self._keep[group_id(group)] = key
        self._checked.discard(key)
        self._checked |= {r.key for r in group.rows if r.key != key}
        index = self.indexOfTopLevelItem(branch)
        self._syncing = True
        try:
            self.takeTopLevelItem(index)
            fresh = self._add_group(group, self._findings)
            self.insertTopLevelItem(index, fresh)
            fresh.setFirstColumnSpanned(True)
            fresh.setExpanded(True)
            self._branches[group] = fresh
            self._group_leaves.pop(branch, None)
            self._branch_state.pop(branch, None)
            self._index_leaves()
            self._sync_checks()
        finally:
            self._syncing = False
        self.setCurrentItem(
            next(
                fresh.child(r)
                for r in range(fresh.childCount())
                if fresh.child(r).data(0, KEY_ROLE) == key
            )
        )
        self.selection_changed.emit()

    def _add_group(self, group: Group, findings: Findings) -> QTreeWidgetItem:
        """A branch for the group, not yet in the tree."""
        branch = QTreeWidgetItem([reason_text(group, findings)])
        branch.setData(0, REASON_ROLE, group.reason)
        branch.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
        branch.setToolTip(0, translate("PruningPage", "Check or uncheck this group's candidates"))
        branch.setCheckState(0, Qt.CheckState.Unchecked)  # (its box shows from the start)
        self._branch_state[branch] = Qt.CheckState.Unchecked
        kept = self.kept_row(group)
        leaves = []
        for row in group.rows:
            leaf = self._add_row(branch, row, group, kept=kept is not None and row.key == kept.key)
            if leaf is not None:
                leaves.append((row.key, leaf))
        self._group_leaves[branch] = leaves
        return branch

    def _add_row(
        self, branch: QTreeWidgetItem, row: Row, group: Group, *, kept: bool
    ) -> QTreeWidgetItem | None:
        """The row's item in ``branch``; returns it when the person may check it."""
        note = ""
        if kept:
            note = translate("PruningPage", "kept")
        elif group.reason == LARGE:
            note = translate("PruningPage", "{n} characters").format(n=i18n.number(row.size))
        updated = "" if row.updated_ms is None else dates.short_date(row.updated_ms)
        title = reveal(row.title)  # hidden characters as placeholders
        where = self._place_name(row.place)
        leaf = QTreeWidgetItem(branch, [title, reveal(row.type), where, updated, note])
        leaf.setData(0, KEY_ROLE, row.key)
        leaf.setToolTip(0, title)
        if where != reveal(row.place) and row.place != "personal":
            leaf.setToolTip(2, as_shown(reveal(row.place)))  # the whole id, hash included
        if row.updated_ms is not None:
            leaf.setToolTip(3, dates.exact(row.updated_ms))
        if kept:
            leaf.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            return None
        leaf.setFlags(
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemIsUserCheckable
        )
        state = Qt.CheckState.Checked if row.key in self._shown_checked else Qt.CheckState.Unchecked
        leaf.setCheckState(0, state)
        return leaf

    def _place_name(self, place: str) -> str:
        """Where a row lives, as the observations table names it: the project's name, with
        its hash only when two projects of the candidates share that name."""
        if place == "personal":
            return translate("PruningPage", "personal")
        return reveal(self._place_names.get(place, place))

    def _name_places(self, findings: Findings | None) -> bool:
        """Name the candidates' projects; True if a name shown before reads otherwise now
        (a second checkout of a project came or went: branches kept would show the old)."""
        places = sorted(
            {row.place for group in (findings.groups if findings else ()) for row in group.rows}
            - {"personal", ""}
        )
        before = self._place_names
        self._place_names = dict(zip(places, project_names(places), strict=True))
        if self._place_names != before:  # (the person's width stays while they stay)
            self._fit_where()
        return any(before.get(p, name) != name for p, name in self._place_names.items())

    def _fit_where(self) -> None:
        """The Where column as wide as its widest name (a few projects: measured, not the
        rows), so no name is cut; at most MAX_WHERE_WIDTH (the tooltip has the whole id)."""
        metrics = self.fontMetrics()
        names = [*self._place_names.values(), translate("PruningPage", "personal")]
        widest = max(metrics.horizontalAdvance(reveal(name)) for name in names) + WHERE_PADDING
        width = max(self.header().sectionSizeHint(2), min(widest, MAX_WHERE_WIDTH))
        self.header().resizeSection(2, width)

    def _on_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._syncing or column != 0:
            return
        checked = item.checkState(0) == Qt.CheckState.Checked
        if item.parent() is None:  # a group's own checkbox: all its candidates
            children = (item.child(row) for row in range(item.childCount()))
            keys = {c.data(0, KEY_ROLE) for c in children if c.data(0, KEY_ROLE) in self._leaves}
        else:
            keys = {item.data(0, KEY_ROLE)} & self._leaves.keys()
        if not keys:
            return
        if checked:
            self._checked |= keys
        else:
            self._checked -= keys
        self._syncing = True
        try:
            self._sync_checks()
        finally:
            self._syncing = False
        self.selection_changed.emit()
