"""The folder's entries in the agent's order, kept in memory and updated in place.

A folder is listed once; after that, a save, a rename or the agent's rewrite of one file
changes a handful of entries. Sorting everything again, and copying every entry beyond the
prompt to mark it, is wasted work for a change of a few: here a change costs a
binary search per entry that changed, and only the entries that crossed the prompt's limit get
a new mark. The result is always what a full listing gives (tests compare both).
"""

from __future__ import annotations

from collections.abc import Iterable

from memory_desk.core.jstext import utf16_key
from memory_desk.core.persona.agent_view import PROMPT_LIMIT
from memory_desk.core.persona.entry import PersonaEntry
from memory_desk.core.persona.problems import beyond_prompt_problem
from memory_desk.core.persona.reading import with_problem

# Past this share of changed entries, sorting again is cheaper than inserting one by one.
RESORT_SHARE = 8


def _order_key(entry: PersonaEntry) -> tuple[str, str]:
    """(updated, name) as JavaScript compares them: the agent sorts by the first descending,
    then by the second ascending."""
    return utf16_key(entry.updated), utf16_key(entry.name)


def _comes_before(a: tuple[str, str], b: tuple[str, str]) -> bool:
    return a[0] > b[0] or (a[0] == b[0] and a[1] < b[1])


class Listing:
    """The entries of a folder: those the agent sees, in its order, then the others by name.

    Visible entries past ``PROMPT_LIMIT`` carry the "beyond the prompt" warning; each such
    copy is made once per version of its entry and kept.
    """

    def __init__(self) -> None:
        self._visible: list[PersonaEntry] = []  # agent order, as read (no beyond-prompt mark)
        self._keys: list[tuple[str, str]] = []  # the order key of each, for the search
        self._shown: list[PersonaEntry] = []  # the same, marked past the prompt's limit
        self._hidden: list[PersonaEntry] = []  # by name
        self._by_name: dict[str, PersonaEntry] = {}
        self._beyond: dict[str, tuple[PersonaEntry, PersonaEntry]] = {}

    def entries(self) -> list[PersonaEntry]:
        """Every entry, in the order :meth:`PersonaFolder.entries` gives (a new list)."""
        return self._shown + self._hidden

    def get(self, name: str) -> PersonaEntry | None:
        """The entry ``name`` as last listed (without a beyond-the-prompt mark), or None."""
        return self._by_name.get(name)

    def __len__(self) -> int:
        return len(self._by_name)

    def with_problems(self) -> int:
        """How many entries have at least one problem (as shown)."""
        return sum(1 for e in self._shown if e.problems) + sum(
            1 for e in self._hidden if e.problems
        )

    def replace_all(self, loaded: Iterable[PersonaEntry]) -> set[str]:
        """Hold exactly ``loaded``; returns the names whose entry changed, came or went.

        Entries identical to those held (the folder's cache returns the same object for an
        unchanged file) cost nothing; a few changes are applied in place, many by sorting again.
        """
        fresh = dict(zip(map(_name, loaded), loaded, strict=True))
        if not self._by_name:  # (the first listing: every entry is new)
            self._resort(fresh)
            return set(fresh)
        changed = {n for n, e in fresh.items() if self._by_name.get(n) is not e}
        changed |= self._by_name.keys() - fresh.keys()
        if not changed:
            return changed
        if len(changed) * RESORT_SHARE > len(fresh) + 1:
            self._resort(fresh)
        else:
            self.update({n: fresh.get(n) for n in changed})
        return changed

    def preview(self, loaded: Iterable[PersonaEntry]) -> list[PersonaEntry]:
        """The entries a listing of only ``loaded`` gives, in its order, this listing unchanged.

        A progressive listing shows it before the rest is read; the beyond-the-prompt copies
        it makes are kept for this listing, so the final listing shows the same objects.
        """
        other = Listing()
        other._beyond = self._beyond
        other._resort({e.name: e for e in loaded})
        self._beyond.update(other._beyond)
        return other.entries()

    def update(self, changes: dict[str, PersonaEntry | None]) -> None:
        """Apply these changes by name (None: the entry is gone), keeping the order exact."""
        moved = 0
        for name, entry in changes.items():
            moved += self._remove(name)
            if entry is not None:
                moved += self._insert(entry)
        self._mark_prompt_limit(moved)

    # -- inside ---------------------------------------------------------------------------------

    def _resort(self, fresh: dict[str, PersonaEntry]) -> None:
        """Sort everything again."""
        self._by_name = fresh
        self._visible, self._keys = _agent_sorted([e for e in fresh.values() if e.agent_visible])
        self._hidden = sorted((e for e in fresh.values() if not e.agent_visible), key=_name)
        kept = self._beyond
        self._beyond = {n: pair for n, pair in kept.items() if fresh.get(n) is pair[0]}
        self._shown = [self._marked(entry, at) for at, entry in enumerate(self._visible)]

    def _remove(self, name: str) -> int:
        old = self._by_name.pop(name, None)
        if old is None:
            return 0
        self._beyond.pop(name, None)
        if old.agent_visible:
            at = self._search(_order_key(old))
            del self._visible[at], self._keys[at], self._shown[at]
            return 1
        at = self._name_search(old.name)
        del self._hidden[at]
        return 0

    def _insert(self, entry: PersonaEntry) -> int:
        self._by_name[entry.name] = entry
        if entry.agent_visible:
            key = _order_key(entry)
            at = self._search(key)
            self._visible.insert(at, entry)
            self._keys.insert(at, key)
            self._shown.insert(at, self._marked(entry, at))
            return 1
        self._hidden.insert(self._name_search(entry.name), entry)
        return 0

    def _search(self, key: tuple[str, str]) -> int:
        """The first position whose key does not come before ``key`` (binary search)."""
        low, high = 0, len(self._keys)
        while low < high:
            middle = (low + high) // 2
            if _comes_before(self._keys[middle], key):
                low = middle + 1
            else:
                high = middle
        return low

    def _name_search(self, name: str) -> int:
        low, high = 0, len(self._hidden)
        while low < high:
            middle = (low + high) // 2
            if self._hidden[middle].name < name:
                low = middle + 1
            else:
                high = middle
        return low

    def _mark_prompt_limit(self, moved: int) -> None:
        """Give the mark to (or take it from) the entries that crossed the prompt's limit: each
        insertion or removal shifts an entry by one place, so only those within ``moved``
        places of the limit may have crossed it."""
        start = max(0, PROMPT_LIMIT - moved - 1)
        stop = min(len(self._visible), PROMPT_LIMIT + moved + 1)
        for at in range(start, stop):
            self._shown[at] = self._marked(self._visible[at], at)

    def _marked(self, entry: PersonaEntry, at: int) -> PersonaEntry:
        if at < PROMPT_LIMIT:
            return entry
        kept = self._beyond.get(entry.name)
        if kept is not None and kept[0] is entry:
            return kept[1]
        shown = with_problem(entry, beyond_prompt_problem())
        self._beyond[entry.name] = (entry, shown)
        return shown


def _name(entry: PersonaEntry) -> str:
    return entry.name


def _agent_sorted(
    visible: list[PersonaEntry],
) -> tuple[list[PersonaEntry], list[tuple[str, str]]]:
    """``visible`` in the agent's order, and the order key of each: by name, then by
    ``updated`` descending (the sort is stable, reversed too, so equal times keep the names'
    order)."""
    keyed = sorted(((_order_key(e), e) for e in visible), key=lambda pair: pair[0][1])
    keyed.sort(key=lambda pair: pair[0][0], reverse=True)
    return [entry for _key, entry in keyed], [key for key, _entry in keyed]


def problem_count(entries: list[PersonaEntry]) -> int:
    """How many of ``entries`` a :class:`Listing` of them shows with a problem (their own, or
    the beyond-the-prompt mark), without making the marked copies."""
    own = sum(1 for e in entries if e.problems)
    visible = [e for e in entries if e.agent_visible]
    if len(visible) <= PROMPT_LIMIT:
        return own
    past = _agent_sorted(visible)[0][PROMPT_LIMIT:]
    return own + sum(1 for e in past if not e.problems)
