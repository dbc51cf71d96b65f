"""What the agents remember, in numbers: the Overview page's figures, read in a few queries.

Everything here is pure reading (FORMATS.md, part A: a viewer changes no counter or
timestamp) and set-based: SQLite counts and groups, Python only receives the groups, so the
cost does not grow with the content of 100,000 rows on the Python side. The statements run in
one short read transaction, so the totals, the groups and the chart agree with each other even
while the agent saves.

What is counted, and why:

- *live* rows are the agent's memory (``deleted_at IS NULL``); the counts by type, project and
  scope, the pinned count, the most revised topics and the largest rows are of live rows only;
- the chart counts every row *saved* (``created_at``) on each local day, forgotten ones too, as
  the observations table's "saved on" day filter shows them (a bar and the table it opens
  hold the same rows); a day is the person's local calendar day, 23 or 25 hours when the
  clocks change, and rows older than the first day or after the last are left out;
- a row's size is SQLite's ``length(content)``: characters (code points), not the UTF-16 units
  the plugin caps content in. The two differ only for characters outside the BMP, which is
  close enough to rank the largest rows.

Persona folders are summed by :func:`folder_overview` from the folder's own reading (the
entries and problems the Persona page shows).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from pathlib import Path

from memory_desk.core.alisio import OBSERVATION_TYPES
from memory_desk.core.errors import StoreError
from memory_desk.core.messages import msg
from memory_desk.core.observations.store import ObservationStore
from memory_desk.core.persona import PersonaFolder

DAYS = 90
TOPICS_LIMIT = 10
LARGEST_LIMIT = 10
_DAY_MS = 86_400_000
_EPOCH = date(1970, 1, 1)


@dataclass(frozen=True)
class DayCount:
    """What was saved on one local day: ``(type, count)`` pairs, in the chart's type order."""

    day: date
    by_type: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(count for _, count in self.by_type)


@dataclass(frozen=True)
class RevisedTopic:
    """A live row that the agent's saves with the same topic_key rewrote more than once."""

    id: int
    topic_key: str
    scope: str
    project: str
    revision_count: int
    title: str


@dataclass(frozen=True)
class LargeObservation:
    """A live row among the largest; ``length`` is ``length(content)`` in characters."""

    id: int
    title: str
    type: str
    project: str
    length: int


@dataclass(frozen=True)
class Overview:
    """The figures of one database (module docstring says what each counts).

    ``by_type``, ``by_project`` and ``by_scope`` are ``(name, live count)`` pairs, largest
    first; ``days`` holds one :class:`DayCount` per day, oldest first, ending ``today``;
    ``day_types`` are the types that occur in ``days``, in the plugin's order.
    """

    total: int
    live: int
    forgotten: int
    pinned: int
    by_type: tuple[tuple[str, int], ...]
    by_project: tuple[tuple[str, int], ...]
    by_scope: tuple[tuple[str, int], ...]
    days: tuple[DayCount, ...]
    day_types: tuple[str, ...]
    topics: tuple[RevisedTopic, ...]
    largest: tuple[LargeObservation, ...]


@dataclass(frozen=True)
class FolderOverview:
    """One persona folder in numbers. ``problems`` adds the entries with a problem and what
    in the folder stops the agent reading it; ``error`` says why it could not be read."""

    path: Path
    entries: int
    bytes: int
    entries_with_problems: int
    folder_problems: int
    error: str | None = None

    @property
    def problems(self) -> int:
        return self.entries_with_problems + self.folder_problems


# ------------------------------------------------------------------------------ the store


def overview(
    store: ObservationStore,
    *,
    days: int = DAYS,
    today: date | None = None,
    tz: tzinfo | None = None,
    topics_limit: int = TOPICS_LIMIT,
    largest_limit: int = LARGEST_LIMIT,
) -> Overview:
    """The figures of ``store``; days are counted in ``tz`` (None: the system's local zone),
    the last one being ``today`` (None: today in that zone)."""
    if days < 1:
        raise ValueError("days must be at least 1")
    last = today if today is not None else datetime.now(UTC).astimezone(tz).date()
    span = [last - timedelta(days=days - 1 - n) for n in range(days)]
    return store.read(
        msg("DatabaseAction", "read the overview"),
        _read_overview,
        span,
        tz,
        topics_limit,
        largest_limit,
    )


def _read_overview(
    conn: sqlite3.Connection,
    span: list[date],
    tz: tzinfo | None,
    topics_limit: int,
    largest_limit: int,
) -> Overview:
    """Every statement in one read transaction (module docstring), read to its end."""
    started = not conn.in_transaction
    if started:
        conn.execute("BEGIN")
    try:
        total, forgotten = conn.execute(
            "SELECT count(*), count(deleted_at) FROM observations"
        ).fetchone()
        groups = _live_groups(conn)
        days, day_types = _saved_per_day(conn, span, tz)
        topics = _revised_topics(conn, topics_limit)
        largest = _largest(conn, largest_limit)
    finally:
        if started and conn.in_transaction:
            conn.execute("COMMIT")
    live = sum(count for *_, count, _pinned in groups)
    return Overview(
        total=int(total),
        live=live,
        forgotten=int(forgotten),
        pinned=sum(pinned for *_, pinned in groups),
        by_type=_summed(groups, 0),
        by_project=_summed(groups, 1),
        by_scope=_summed(groups, 2),
        days=days,
        day_types=day_types,
        topics=topics,
        largest=largest,
    )


def _live_groups(conn: sqlite3.Connection) -> list[tuple[str, str, str, int, int]]:
    """``(type, project, scope, live, pinned)`` per combination: a few hundred rows at most."""
    rows = conn.execute(
        "SELECT type, project, scope, count(*), total(pinned <> 0) FROM observations"
        " WHERE deleted_at IS NULL GROUP BY type, project, scope"
    ).fetchall()
    return [(_text(t), _text(p), _text(s), int(n), int(pinned)) for t, p, s, n, pinned in rows]


def _summed(groups: list[tuple[str, str, str, int, int]], key: int) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for group in groups:
        counts[group[key]] = counts.get(group[key], 0) + group[3]
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _saved_per_day(
    conn: sqlite3.Connection, span: list[date], tz: tzinfo | None
) -> tuple[tuple[DayCount, ...], tuple[str, ...]]:
    """Rows saved per local day of ``span``, by type, grouped in SQLite.

    A row's local day is ``(created_at + offset) // day`` where ``offset`` is the zone's UTC
    offset at that instant; over a few months the offset changes only at the clock changes,
    so a ``CASE`` over those few instants gives every row its exact local day.
    """
    start = _local_midnight(span[0], tz)
    end = _local_midnight(span[-1] + timedelta(days=1), tz)
    segments = _offset_segments(start, end, tz)
    offset_sql = " ".join(f"WHEN created_at < {until} THEN {offset}" for until, offset in segments)
    rows = conn.execute(
        f"SELECT (created_at + CASE {offset_sql} END) / {_DAY_MS} AS day, type, count(*)"
        " FROM observations WHERE typeof(created_at) = 'integer'"
        " AND created_at >= ? AND created_at < ? GROUP BY day, type",
        (start, end),
    ).fetchall()
    counted: dict[date, dict[str, int]] = {}
    for day_number, kind, count in rows:
        day = _EPOCH + timedelta(days=int(day_number))
        per_type = counted.setdefault(day, {})
        per_type[_text(kind)] = per_type.get(_text(kind), 0) + int(count)
    types = _type_order({kind for per_type in counted.values() for kind in per_type})
    days = tuple(
        DayCount(day, tuple((kind, counted[day][kind]) for kind in types if kind in counted[day]))
        if day in counted
        else DayCount(day, ())
        for day in span
    )
    return days, types


def _local_midnight(day: date, tz: tzinfo | None) -> int:
    """Milliseconds at the start of ``day`` in ``tz`` (None: the system's local zone)."""
    if tz is None:
        moment = datetime.combine(day, time.min).astimezone()
    else:
        moment = datetime.combine(day, time.min, tzinfo=tz)
    return int(moment.timestamp() * 1000)


def _offset_ms(ms: int, tz: tzinfo | None) -> int:
    """The UTC offset of ``tz`` at the instant ``ms``, in milliseconds."""
    moment = datetime.fromtimestamp(ms / 1000, UTC).astimezone(tz)
    offset = moment.utcoffset() or timedelta(0)
    return int(offset.total_seconds() * 1000)


def _offset_segments(start: int, end: int, tz: tzinfo | None) -> list[tuple[int, int]]:
    """``(until, offset)`` pairs covering ``[start, end)``: the offset holds before ``until``.

    The offset is sampled every hour (clock changes fall on whole quarter hours, and never two
    within an hour); a change between two samples is then found to the millisecond.
    """
    segments: list[tuple[int, int]] = []
    hour = 3_600_000
    at, offset = start, _offset_ms(start, tz)
    while at < end:
        step = min(at + hour, end)
        following = _offset_ms(step, tz)
        if following != offset:
            change = _first_instant_with(at, step, following, tz)
            segments.append((change, offset))
            offset = following
        at = step
    segments.append((end, offset))
    return segments


def _first_instant_with(low: int, high: int, offset: int, tz: tzinfo | None) -> int:
    """The first millisecond in ``(low, high]`` whose offset is ``offset`` (it holds at high)."""
    while high - low > 1:
        middle = (low + high) // 2
        if _offset_ms(middle, tz) == offset:
            high = middle
        else:
            low = middle
    return high


def _type_order(types: set[str]) -> tuple[str, ...]:
    """The plugin's types in its own order, then any other (a newer plugin's) by name."""
    known = [kind for kind in OBSERVATION_TYPES if kind in types]
    return tuple(known + sorted(types - set(OBSERVATION_TYPES)))


def _revised_topics(conn: sqlite3.Connection, limit: int) -> tuple[RevisedTopic, ...]:
    """Live rows with a topic_key rewritten at least once, most revisions first."""
    rows = conn.execute(
        "SELECT id, topic_key, scope, project, revision_count, title FROM observations"
        " WHERE deleted_at IS NULL AND topic_key IS NOT NULL AND revision_count > 1"
        " ORDER BY revision_count DESC, updated_at DESC, id DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return tuple(
        RevisedTopic(int(i), _text(key), _text(scope), _text(project), int(revisions), _text(t))
        for i, key, scope, project, revisions, t in rows
    )


def _largest(conn: sqlite3.Connection, limit: int) -> tuple[LargeObservation, ...]:
    """The live rows with the longest content (characters), longest first."""
    rows = conn.execute(
        "SELECT id, title, type, project, length(content) AS size FROM observations"
        " WHERE deleted_at IS NULL ORDER BY size DESC, id DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return tuple(
        LargeObservation(int(i), _text(title), _text(kind), _text(project), int(size or 0))
        for i, title, kind, project, size in rows
    )


def _text(value: object) -> str:
    """A text column as shown: NULL (which the plugin never writes) as empty text."""
    return "" if value is None else str(value)


# ------------------------------------------------------------------------------ persona


def folder_overview(folder: PersonaFolder) -> FolderOverview:
    """Entries, their bytes on disk and the problems of one persona folder.

    Reads the folder as its page does (``entries`` reads only the start of a large file).
    ``folder`` should be the caller's own object: its read cache is not meant to be shared
    between threads.
    """
    try:
        entries = folder.entries()
        folder_problems = folder.problems()
    except StoreError as exc:
        return FolderOverview(folder.path, 0, 0, 0, 0, error=_message(exc))
    return FolderOverview(
        path=folder.path,
        entries=len(entries),
        bytes=sum(max(entry.fingerprint.size, 0) for entry in entries),
        entries_with_problems=sum(bool(entry.problems) for entry in entries),
        folder_problems=len(folder_problems),
    )


def folder_overviews(folders: Sequence[PersonaFolder]) -> tuple[FolderOverview, ...]:
    """:func:`folder_overview` of each folder, read through a private copy of it, so a worker
    thread never shares the page's folder object (and its cache)."""
    return tuple(_overview_of_copy(folder) for folder in folders)


def _overview_of_copy(folder: PersonaFolder) -> FolderOverview:
    try:
        copy = PersonaFolder(
            folder.path,
            trash=folder.trash,
            trash_limits=folder.trash_limits,
            witness=folder.witness,
        )
    except StoreError as exc:  # the folder went away or became unreadable since it was opened
        return FolderOverview(folder.path, 0, 0, 0, 0, error=_message(exc))
    return folder_overview(copy)


def _message(exc: StoreError) -> str:
    """The core's message (a ``Msg`` the UI translates), or the error's text."""
    first = exc.args[0] if exc.args else ""
    return first if isinstance(first, str) else str(exc)
