"""The persona scan: what changed in an agent's folder since the journal last looked.

Only the files the agent lists (``*.md`` with a stem matching its pattern, links followed as
it follows them) count. Each entry's (inode, size, mtime_ns) is kept: an unchanged stat means
the file is not read. A changed one is read and hashed; a new text is a change, with the old
and new versions parsed by the agent's own header grammar (:mod:`~memory_desk.core.persona_format`).

The agent does not write atomically, so a scan may meet a half-written file: if its stat
moved during the read, it is left for the next scan; and a second write of the same entry
seen within :data:`COALESCE_MS` of the first, not yet reviewed, updates that change instead
of adding another.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memory_desk.core import folder_stats
from memory_desk.core.errors import StoreError
from memory_desk.core.journal import records as rec
from memory_desk.core.journal.db import JournalDB, pack_version
from memory_desk.core.journal.model import PERSONA, ChangeKind, Version
from memory_desk.core.journal.pending import Compare, Pending, PendingWrites, settle
from memory_desk.core.messages import msg
from memory_desk.core.persona.entry import NAME_RE
from memory_desk.core.persona.reading import is_entry_file_name

BATCH = 500  # files read between two pauses of a first look
BASELINE_LEVEL = 1
COALESCE_MS = 10_000
KEEP_TEXT_BYTES = 1024 * 1024  # the person's own text kept for a later "old" side
MAX_READ_BYTES = 32 * 1024 * 1024


def listed(folder: Path) -> dict[str, str]:
    """{entry name: stat stamp} of the files the agent lists in ``folder``."""
    found: dict[str, str] = {}
    try:
        # One pass at a time with the folder's other readers (memory_desk.core.folder_stats).
        listing = folder_stats.take(os.path.realpath(folder))
        for name, st in listing.items:
            if not is_entry_file_name(name) or not NAME_RE.fullmatch(name[:-3]):
                continue
            if not isinstance(st, OSError) and stat.S_ISLNK(st.st_mode):
                try:
                    st = os.stat(os.path.join(folder, name))  # follows links, as the agent does
                except OSError:
                    continue
            if not isinstance(st, OSError) and stat.S_ISREG(st.st_mode):
                found[name[:-3]] = _stamp(st)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise StoreError(
            msg(
                "Journal",
                "Memory Desk could not list {path} to compare it with what it last saw ({detail})",
                path=str(folder),
                detail=exc.strerror or str(exc),
            )
        ) from exc
    return found


def _stamp(st: os.stat_result) -> str:
    return f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"


def text_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def raw_version(name: str, text: str) -> Version:
    """An entry's version as kept: its file text (parsed by the agent's grammar when it is
    read back, :func:`~.db.unpack_version`)."""
    return Version(title=name, description="", type="", body="", raw=text)


@dataclass
class Known:
    """What the journal last saw of one folder, kept in memory between scans: an unchanged
    folder is compared with it without reading the journal file."""

    store_id: int
    looked: bool  # a first look was taken
    entries: dict[str, rec.Baseline]


def read_settled(path: str | os.PathLike[str]) -> tuple[bytes, str, int] | None:
    """(bytes, stamp, mtime in ms) of a file whose stat did not move while it was read;
    None when it did (the agent is writing it) or it is gone."""
    try:
        before = os.stat(path)
        if before.st_size > MAX_READ_BYTES:
            return None
        with open(path, "rb") as handle:
            data = handle.read()
        after = os.stat(path)
    except OSError:
        return None
    if _stamp(before) != _stamp(after) or len(data) != after.st_size:
        return None
    return data, _stamp(after), after.st_mtime_ns // 1_000_000


def scan(
    jdb: JournalDB,
    folder: Path,
    agent: str,
    now: int,
    counts: dict,
    mine: tuple[PendingWrites, Known | None, Callable[[], None]],
) -> Known:
    """Record what changed in ``folder`` since the last scan (``counts["recorded"]``);
    return what to remember of it for the next scan."""
    writes, known, pause = mine
    path = str(folder)
    mark = writes.mark()
    entries = listed(folder)
    known = known if known is not None else _load(jdb, path)
    seen = known.entries
    changed = [n for n, s in entries.items() if n not in seen or seen[n].stamp != s]
    removed = [n for n in seen if n not in entries]
    if known.looked and not changed and not removed:
        return known
    counts["files_read"] = counts.get("files_read", 0) + len(changed)
    if not known.looked:
        _first_look(jdb, folder, known, changed, now, pause)
        writes.consume_all(path, mark)
        return known
    texts = {}
    for name in changed:
        read = read_settled(os.path.join(path, f"{name}.md"))
        if read is not None:
            texts[name] = read
    compare = Compare(writes.of(path, list(texts) + removed), mark, now, seen)
    recorded = 0
    with jdb.write() as jconn:
        for name, read in texts.items():
            recorded += _entry(jconn, known.store_id, name, read, compare, agent)
        for name in removed:
            recorded += _removed(jconn, known.store_id, name, compare, agent)
        settle(jconn, known.store_id, compare.used)
    writes.consume(path, compare.used)
    counts["recorded"] = counts.get("recorded", 0) + recorded
    return known


def _load(jdb: JournalDB, path: str) -> Known:
    with jdb.write() as jconn:
        store_id = rec.ensure_store(jconn, path, PERSONA)
        row = rec.store_row(jconn, path)
        entries = rec.all_baselines(jconn, store_id)
    return Known(store_id, row is not None and row.stamp is not None, entries)


def _first_look(jdb, folder: Path, known: Known, names: list[str], now: int, pause) -> None:
    """Take the folder as seen, silently: files read and kept in batches (texts only, not
    parsed), one bulk write each, a pause between them for the window's thread."""
    with jdb.write() as jconn:
        rec.forget_baseline(jconn, known.store_id)
    known.entries.clear()
    base = str(folder)
    for start in range(0, len(names), BATCH):
        rows = []
        for name in names[start : start + BATCH]:
            read = read_settled(os.path.join(base, f"{name}.md"))
            if read is None:
                continue  # being written: the next scan sees it as new
            data, stamp, _mtime = read
            packed = pack_version(
                raw_version(name, data.decode("utf-8", "replace")), BASELINE_LEVEL
            )
            rows.append((name, text_hash(data), 0, stamp, 1, packed))
        with jdb.write() as jconn:
            made = rec.add_versions(jconn, known.store_id, now, rows)
        for (name, digest, _f, stamp, _t, _p), version_id in zip(rows, made, strict=True):
            known.entries[name] = rec.Baseline(digest, False, stamp, version_id)
        pause()
    with jdb.write() as jconn:
        jconn.execute("UPDATE stores SET stamp = 'seen' WHERE id = ?", (known.store_id,))
    known.looked = True


def _set(jconn, store_id: int, compare: Compare, name: str, baseline: rec.Baseline) -> None:
    rec.set_baseline(jconn, store_id, name, baseline)
    compare.known[name] = baseline


def _entry(jconn, store_id, name, read, compare: Compare, agent: str) -> int:
    data, stamp, mtime_ms = read
    now = compare.now
    digest = text_hash(data)
    base = compare.known.get(name)
    text = data.decode("utf-8", "replace")
    if base is not None and base.hash == digest:
        compare.match(name, digest)  # the person's write of the same text: used up
        _set(jconn, store_id, compare, name, rec.Baseline(digest, False, stamp, base.version_id))
        return 0
    version_id = rec.add_version(jconn, store_id, name, raw_version(name, text), now, True)
    _set(jconn, store_id, compare, name, rec.Baseline(digest, False, stamp, version_id))
    if compare.match(name, digest):
        _drop_old(jconn, base)
        return 0
    mine = compare.replaced(name)
    old = base.version_id if base else None
    mine_version = _version_of(name, mine)
    if mine_version is not None:
        old = rec.add_version(jconn, store_id, name, mine_version, now, True)
    elif mine is not None and mine.hash is None:
        old = None  # the person removed it, the agent wrote it again: a new entry
    if _coalesced(jconn, store_id, name, version_id, mtime_ms, now):
        _drop_old(jconn, base)
        return 0
    kind = (
        ChangeKind.NEW if old is None and (base is None or mine is not None) else ChangeKind.CHANGED
    )
    found = rec.Finding(name, kind, mtime_ms, agent, None, old, version_id)
    rec.add_change(jconn, store_id, found, now)
    return 1


def _version_of(name: str, mine: Pending | None) -> Version | None:
    """The person's text of an entry, if it was kept."""
    if mine is None or mine.hash is None:
        return None
    if mine.text is not None:
        return raw_version(name, mine.text)
    return mine.version


def _coalesced(jconn, store_id, name, version_id, mtime_ms, now) -> bool:
    """A rewrite of an entry whose last change is fresh and unreviewed: the same change, its
    text completed (the agent's write was seen half-way)."""
    last = rec.latest_change(jconn, store_id, name)
    if last is None:
        return False
    change_id, kind, seen_ms, reviewed, previous_new = last
    if reviewed or kind not in (ChangeKind.NEW, ChangeKind.CHANGED) or now - seen_ms > COALESCE_MS:
        return False
    jconn.execute(
        "UPDATE changes SET new_version = ?, at_ms = ?, seen_ms = ? WHERE id = ?",
        (version_id, mtime_ms, now, change_id),
    )
    rec.drop_version_if_unused(jconn, previous_new)
    return True


def _drop_old(jconn, base: rec.Baseline | None) -> None:
    if base is not None:
        rec.drop_version_if_unused(jconn, base.version_id)


def _removed(jconn, store_id, name, compare: Compare, agent: str) -> int:
    now = compare.now
    base = compare.known.pop(name)
    rec.drop_baseline(jconn, store_id, name)
    if compare.match(name, None):
        _drop_old(jconn, base)
        return 0
    old = base.version_id
    mine_version = _version_of(name, compare.replaced(name))
    if mine_version is not None:
        old = rec.add_version(jconn, store_id, name, mine_version, now, True)
    found = rec.Finding(name, ChangeKind.REMOVED, now, agent, None, old, None)
    rec.add_change(jconn, store_id, found, now)
    return 1


def expect(writes: PendingWrites, folder: str, name: str, text: str | None, now: int) -> Pending:
    """Note the person's own write of one entry (``text`` None: removed); returns it, to be
    written ahead."""
    if text is None:
        fields: dict = {"hash": None, "forgotten": False}
    else:
        data = text.encode("utf-8", "surrogateescape")
        fields = {"hash": text_hash(data), "forgotten": False}
        # A large entry's text is not kept (it would weigh on memory): only its hash.
        fields["text"] = text if len(data) <= KEEP_TEXT_BYTES else None
    return writes.add(folder, name, {**fields, "at_ms": now})
