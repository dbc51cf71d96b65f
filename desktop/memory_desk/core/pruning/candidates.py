"""What the Pruning assistant proposes to forget from a ``memory.sqlite``, and why.

Each group has one reason and its rows; a row marked ``kept`` stays (it is shown so the person
sees what remains), the others are proposed. One rule picks what stays wherever rows repeat
each other: the pinned rows, or else the newest (``updated_at``, then ``id``). **Pinned rows
are never proposed**: a group left with nothing to propose is not shown at all.

Rows repeat each other only within one *place*: the same project for project rows, all
personal rows together (a personal row is visible from every project). A project row and a
personal row never count as duplicates of each other, except through a topic key live in
both scopes, which is a reason of its own (the plugin's upsert is per scope, so both rows
answer that topic).

Everything here is pure ``SELECT`` through :meth:`ObservationStore.read`; the near-duplicate
pass streams every live row once from one cursor and keeps no text (see :mod:`.near`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field

from memory_desk.core import alisio
from memory_desk.core.jstext import JS_WHITESPACE, utf16_len
from memory_desk.core.messages import msg
from memory_desk.core.observations import ObservationStore
from memory_desk.core.observations.rows import chunks
from memory_desk.core.progress import Progress
from memory_desk.core.pruning.near import DEFAULT_THRESHOLD, NearDuplicateIndex, clusters

# Reasons, as codes; the page words them.
SAME_CONTENT = "same-content"
NEAR_DUPLICATE = "near-duplicate"
TOPIC_BOTH_SCOPES = "topic-both-scopes"
NEVER_ACCESSED = "never-accessed"
LARGE = "large"
REDACTED_ONLY = "redacted-only"
PERSONA_SAME_TEXT = "persona-same-text"
PERSONA_NEAR_DUPLICATE = "persona-near-duplicate"

DEFAULT_AGE_DAYS = 90
DEFAULT_LARGE_UNITS = 20_000
DAY_MS = 86_400_000

_ACTION = msg("DatabaseAction", "look for pruning candidates")
_ROW_COLUMNS = "id, title, type, project, scope, topic_key, pinned, updated_at"
_LIVE = "deleted_at IS NULL"
# A personal row is seen from every project: its place is the scope alone.
_PLACE = "scope, CASE WHEN scope = 'personal' THEN '' ELSE project END"


@dataclass(frozen=True)
class Settings:
    """What the person chose on the page: how old, how large, how alike."""

    age_days: int = DEFAULT_AGE_DAYS
    large_units: int = DEFAULT_LARGE_UNITS  # characters as JavaScript counts them
    threshold: float = DEFAULT_THRESHOLD
    now_ms: int | None = None  # None: now


@dataclass(frozen=True)
class Row:
    """One proposed or kept row; ``key`` is the observation id or the persona entry's name."""

    key: int | str
    title: str
    type: str
    place: str  # the project (or "personal"); for persona entries, empty
    updated_ms: int | None
    pinned: bool = False
    kept: bool = False
    size: int = 0  # UTF-16 units, for the large-content reason


@dataclass(frozen=True)
class Group:
    """Rows with one reason; ``detail`` says more (the topic key, the similarity, a size)."""

    reason: str
    rows: tuple[Row, ...]
    detail: str = ""
    similarity: float | None = None

    @property
    def proposed(self) -> tuple[Row, ...]:
        return tuple(row for row in self.rows if not row.kept)


@dataclass(frozen=True)
class Findings:
    """Everything one search found, in the order the page shows it."""

    groups: tuple[Group, ...] = ()
    scanned: int = 0  # live rows (or entries) looked at
    settings: Settings = field(default_factory=Settings)


def find_observation_candidates(
    store: ObservationStore, settings: Settings, progress: Progress
) -> Findings:
    """Every group of candidates in ``store`` (module docstring); the near-duplicate pass
    reports progress and stops with :class:`~memory_desk.core.progress.Cancelled`."""
    now = alisio.now_ms() if settings.now_ms is None else settings.now_ms
    live = store.read(_ACTION, _count_live)
    progress.step(0, live)
    groups: list[Group] = []
    same, skip = store.read(_ACTION, _same_content)
    groups += same
    groups += store.read(_ACTION, _near_duplicates, skip, settings.threshold, progress, live)
    groups += store.read(_ACTION, _topic_in_both_scopes)
    groups += store.read(_ACTION, _never_accessed, now - settings.age_days * DAY_MS)
    groups += store.read(_ACTION, _large, settings.large_units)
    groups += store.read(_ACTION, _redacted_only)
    progress.step(live, live)
    return Findings(tuple(groups), live, settings)


# ----------------------------------------------------------------------------- reading


def _count_live(conn: sqlite3.Connection) -> int:
    return int(conn.execute(f"SELECT count(*) FROM observations WHERE {_LIVE}").fetchone()[0])


def _row(values: tuple, *, kept: bool = False, size: int = 0) -> Row:
    oid, title, type_, project, scope, _topic, pinned, updated = values
    place = "personal" if scope == "personal" else project
    return Row(int(oid), title, type_, place, updated, bool(pinned), kept, size)


def _rows(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, tuple]:
    """The display columns of the live rows among ``ids``."""
    found: dict[int, tuple] = {}
    for chunk in chunks(ids):
        marks = ", ".join("?" * len(chunk))
        for values in conn.execute(
            f"SELECT {_ROW_COLUMNS} FROM observations WHERE {_LIVE} AND id IN ({marks})", chunk
        ):
            found[int(values[0])] = values
    return found


def _kept_ids(rows: list[tuple], *, newest_stays: bool) -> set[int]:
    """What stays of rows that repeat each other: the pinned rows, or else the newest one.

    With ``newest_stays`` the newest stays as well as the pinned (a topic in both scopes:
    only an older row is ever proposed there, since the personal row also serves every other
    project).
    """
    pinned = {int(r[0]) for r in rows if r[6]}
    newest = int(max(rows, key=lambda r: (r[7], r[0]))[0])
    if newest_stays:
        return pinned | {newest}
    return pinned or {newest}


def _group(
    reason: str, rows: list[tuple], *, newest_stays: bool = False, **extra: object
) -> Group | None:
    """A group of rows that repeat each other, or None when it proposes nothing."""
    if len(rows) < 2:
        return None
    kept = _kept_ids(rows, newest_stays=newest_stays)
    ordered = sorted(rows, key=lambda r: (int(r[0]) not in kept, -r[7], -r[0]))
    built = tuple(_row(r, kept=int(r[0]) in kept) for r in ordered)
    if all(row.kept or row.pinned for row in built):
        return None
    return Group(reason, built, **extra)  # type: ignore[arg-type]


def _same_content(conn: sqlite3.Connection) -> tuple[list[Group], set[int]]:
    """Live rows of one place with the same normalized content; also the ids the
    near-duplicate pass can skip (the proposed copies: their kept row stands for them)."""
    sets = conn.execute(
        f"SELECT group_concat(id) FROM observations WHERE {_LIVE}"
        f" GROUP BY normalized_hash, {_PLACE} HAVING count(*) > 1"
        " AND count(*) FILTER (WHERE pinned = 0) > 0"
    ).fetchall()
    id_sets = [[int(i) for i in text.split(",")] for (text,) in sets]
    rows = _rows(conn, (i for ids in id_sets for i in ids))
    groups, skip = [], set()
    for ids in id_sets:
        group = _group(SAME_CONTENT, [rows[i] for i in ids if i in rows])
        if group is not None:
            groups.append(group)
            skip.update(row.key for row in group.proposed)  # type: ignore[misc]
    return groups, skip


def _near_duplicates(
    conn: sqlite3.Connection, skip: set[int], threshold: float, progress: Progress, live: int
) -> list[Group]:
    """Rows of one place whose words are nearly the same (:mod:`.near`), streamed from one
    cursor."""
    index = NearDuplicateIndex(threshold)
    cursor = conn.execute(f"SELECT id, {_PLACE}, content FROM observations WHERE {_LIVE}")
    try:
        for done, (oid, scope, place, content) in enumerate(cursor, 1):
            if oid not in skip and content:
                index.add(int(oid), (scope, place), content)
            progress.step(done)
    finally:
        cursor.close()  # a cancelled pass ends its read at once
    found = clusters(index.finish())
    rows = _rows(conn, (key for cluster in found for key in cluster.keys))  # type: ignore[misc]
    groups = []
    for cluster in found:
        group = _group(
            NEAR_DUPLICATE,
            [rows[k] for k in cluster.keys if k in rows],
            similarity=cluster.similarity,
        )
        if group is not None:
            groups.append(group)
    return groups


def _topic_in_both_scopes(conn: sqlite3.Connection) -> list[Group]:
    """A topic key live in a project and among the personal rows: both answer that topic
    in that project, so the older is proposed."""
    # The personal topics first (few), then each one's project rows by the topic index
    # (CROSS JOIN fixes that order in SQLite): the other order range-scans every personal
    # topic for every project row.
    pairs = conn.execute(
        "SELECT p.topic_key, p.project, p.id, s.id FROM observations s"
        " CROSS JOIN observations p ON p.scope = 'project' AND p.topic_key = s.topic_key"
        " AND p.deleted_at IS NULL"
        " WHERE s.scope = 'personal' AND s.deleted_at IS NULL AND s.topic_key IS NOT NULL"
        " ORDER BY p.topic_key, p.project"
    ).fetchall()
    members: dict[tuple[str, str], set[int]] = {}
    for topic, project, project_id, personal_id in pairs:
        members.setdefault((topic, project), set()).update((project_id, personal_id))
    rows = _rows(conn, (i for ids in members.values() for i in ids))
    groups = []
    for (topic, _project), ids in members.items():
        alike = [rows[i] for i in ids if i in rows]
        group = _group(TOPIC_BOTH_SCOPES, alike, newest_stays=True, detail=topic)
        if group is not None:
            groups.append(group)
    return groups


def _single_reason(reason: str, rows: list[Row], detail: str = "") -> list[Group]:
    return [Group(reason, tuple(rows), detail)] if rows else []


def _never_accessed(conn: sqlite3.Connection, cutoff: int) -> list[Group]:
    """Rows the agent never opened whole, last written before ``cutoff``."""
    found = conn.execute(
        f"SELECT {_ROW_COLUMNS} FROM observations WHERE {_LIVE} AND pinned = 0"
        " AND access_count = 0 AND last_accessed_at IS NULL AND updated_at < ?"
        " ORDER BY updated_at, id",
        (cutoff,),
    ).fetchall()
    return _single_reason(NEVER_ACCESSED, [_row(r) for r in found])


def _large(conn: sqlite3.Connection, units: int) -> list[Group]:
    """Rows whose content is over ``units`` characters as JavaScript counts them.

    SQLite counts bytes and code points, not UTF-16 units; a text's UTF-8 bytes are never
    fewer than its UTF-16 units, so the byte count picks every candidate and each is measured.
    """
    cursor = conn.execute(
        f"SELECT {_ROW_COLUMNS}, content FROM observations WHERE {_LIVE} AND pinned = 0"
        " AND length(CAST(content AS BLOB)) > ? ORDER BY length(content) DESC, id",
        (units,),
    )
    rows = []
    for *values, content in cursor:
        size = utf16_len(content)
        if size > units:
            rows.append(_row(tuple(values), size=size))
    rows.sort(key=lambda row: (-row.size, row.key))
    return _single_reason(LARGE, rows, detail=str(units))


def _redacted_only(conn: sqlite3.Connection) -> list[Group]:
    """Rows whose content is nothing but ``[REDACTED]`` (once or more, with whitespace as
    JavaScript counts it around): the plugin kept only the marks of private text."""
    found = conn.execute(
        f"SELECT {_ROW_COLUMNS} FROM observations WHERE {_LIVE} AND pinned = 0"
        " AND instr(content, ?) > 0 AND trim(replace(content, ?, ''), ?) = ''"
        " ORDER BY updated_at, id",
        (alisio.REDACTED, alisio.REDACTED, JS_WHITESPACE),
    ).fetchall()
    return _single_reason(REDACTED_ONLY, [_row(r) for r in found])
