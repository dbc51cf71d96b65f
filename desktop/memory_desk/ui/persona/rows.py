"""The entry list's rows: the folder's entries in the agent's order, with a divider row where
its prompt stops listing them and one before the entries it never sees; where an entry goes in
that order, and what the filter looks in.

Plain functions over lists of entries, no Qt: :class:`model.PersonaListModel` keeps its rows
with them, and :func:`build_rows` is the slow, obvious path its answers are tested against.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from memory_desk.core.jstext import utf16_key
from memory_desk.core.persona import PROMPT_LIMIT, PersonaEntry

# The dividers' English text (the rows show divider_text(key), in the person's language).
PROMPT_DIVIDER = "The agent's prompt lists only the entries above"
HIDDEN_DIVIDER = "The agent never sees the entries below"


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


def build_rows(entries: list[PersonaEntry], needle: str) -> list[Row]:
    """The rows for these entries (agent order) filtered by ``needle``, with the dividers.

    The prompt divider goes before the first shown entry the prompt does not list; the hidden
    divider before the first shown entry the agent never sees. (The slow, obvious path: the
    model's answers are tested against it.)
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
    return layout(entries, sum(e.agent_visible for e in entries), shown)[0]


def layout(
    entries: list[PersonaEntry], visible: int, shown: Sequence[int] | None = None
) -> tuple[list[Row], int | None, int | None]:
    """(rows, row of the prompt divider, row of the hidden divider) for the entries at
    positions ``shown`` (ascending; None: all) of ``entries``, whose first ``visible`` are the
    ones the agent sees."""
    if shown is None:
        cut, end = min(visible, PROMPT_LIMIT), visible
        parts = (entries[:cut], entries[cut:end], entries[end:])
    else:
        cut, end = bisect_left(shown, min(visible, PROMPT_LIMIT)), bisect_left(shown, visible)
        parts = tuple(
            [entries[at] for at in shown[a:b]] for a, b in ((0, cut), (cut, end), (end, len(shown)))
        )
    rows: list[Row] = list(parts[0])
    prompt_row = hidden_row = None
    if parts[1]:
        prompt_row = len(rows)
        rows.append(PROMPT_SEPARATOR)
        rows += parts[1]
    if parts[2]:
        hidden_row = len(rows)
        rows.append(HIDDEN_SEPARATOR)
        rows += parts[2]
    return rows, prompt_row, hidden_row


def haystack(entry: PersonaEntry) -> str:
    """What the filter looks in: name, description, type and body, case-folded once."""
    return "\0".join((entry.name, entry.description or "", entry.type, entry.body)).casefold()


def haystacks(entries: Sequence[PersonaEntry]) -> list[str]:
    """Every entry's :func:`haystack`, in order."""
    return list(map(haystack, entries))


def _matches(hay: str, needle: str) -> bool:
    """Whether the filter text is in one of the entry's fields (joined by a NUL, which only a
    needle holding a NUL could match across)."""
    return needle in hay and ("\0" not in needle or any(needle in f for f in hay.split("\0")))


def matching(hays: list[str], needle: str) -> list[int]:
    """The positions of the haystacks that hold ``needle``."""
    return [at for at, hay in enumerate(hays) if _matches(hay, needle)]


def order_key(entry: PersonaEntry) -> tuple[str, str]:
    """(updated, name) as JavaScript compares them: the agent's order is the first descending,
    then the second ascending (the order the folder's listing keeps)."""
    return utf16_key(entry.updated), utf16_key(entry.name)


def _comes_before(a: tuple[str, str], b: tuple[str, str]) -> bool:
    return a[0] > b[0] or (a[0] == b[0] and a[1] < b[1])


def row_after_dividers(index: int, dividers: tuple[int | None, int | None]) -> int:
    """The row of the ``index``-th entry row, counting the divider rows before it."""
    row = index
    for divider in sorted(d for d in dividers if d is not None):
        if divider <= row:
            row += 1
    return row


def row_runs(rows: list[int]) -> list[tuple[int, int]]:
    """Ascending row numbers as (first, last) runs of consecutive rows."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def place_of(entries: Sequence[PersonaEntry], entry: PersonaEntry) -> int:
    """Where ``entry`` is (or would go) in a listing: the agent's entries first, in its order,
    then the others by name (a binary search; nothing else is looked at)."""
    low, high = 0, len(entries)
    if entry.agent_visible:
        key = order_key(entry)
        while low < high:
            middle = (low + high) // 2
            other = entries[middle]
            if other.agent_visible and _comes_before(order_key(other), key):
                low = middle + 1
            else:
                high = middle
        return low
    name = entry.name
    while low < high:
        middle = (low + high) // 2
        other = entries[middle]
        if other.agent_visible or other.name < name:
            low = middle + 1
        else:
            high = middle
    return low


def divider_rows(count: int, visible: int) -> tuple[int | None, int | None]:
    """(prompt divider row, hidden divider row) when all ``count`` entries are shown, the first
    ``visible`` of them seen by the agent (as :func:`layout` places them)."""
    prompt_row = PROMPT_LIMIT if visible > PROMPT_LIMIT else None
    hidden_row = visible + (prompt_row is not None) if visible < count else None
    return prompt_row, hidden_row


def shifted(
    dividers: tuple[int | None, int | None], row: int, delta: int
) -> tuple[int | None, int | None]:
    """The divider rows after a row was taken out at ``row`` (delta -1: those below move up)
    or put in at ``row`` (delta 1: those at it or below move down)."""
    if delta < 0:
        return tuple(d - 1 if d is not None and d > row else d for d in dividers)  # type: ignore[return-value]
    return tuple(d + 1 if d is not None and d >= row else d for d in dividers)  # type: ignore[return-value]


def with_slot(
    dividers: tuple[int | None, int | None], slot: int, row: int | None
) -> tuple[int | None, int | None]:
    return (row, dividers[1]) if slot == 0 else (dividers[0], row)
