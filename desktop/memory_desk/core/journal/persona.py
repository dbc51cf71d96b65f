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
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.journal import records as rec
from memory_desk.core.journal.db import JournalDB, pack_version
from memory_desk.core.journal.model import PERSONA, ChangeKind, Version
from memory_desk.core.messages import msg
from memory_desk.core.persona.entry import NAME_RE
from memory_desk.core.persona.reading import is_entry_file_name
from memory_desk.core.persona_format import agent_reading, normalize_body, parse_text

COALESCE_MS = 10_000
KEEP_TEXT_BYTES = 1024 * 1024  # the person's own text kept for a later "old" side
MAX_READ_BYTES = 32 * 1024 * 1024


def listed(folder: Path) -> dict[str, str]:
    """{entry name: stat stamp} of the files the agent lists in ``folder``."""
    found: dict[str, str] = {}
    try:
        with os.scandir(folder) as it:
            for item in it:
                if not is_entry_file_name(item.name) or not NAME_RE.fullmatch(item.name[:-3]):
                    continue
                try:
                    st = item.stat()  # follows links, as the agent does
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    found[item.name[:-3]] = _stamp(st)
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


def version_of(name: str, text: str) -> Version:
    """An entry's version as the agent reads its file."""
    reading = agent_reading(parse_text(text))
    return Version(
        title=name,
        description=reading.description,
        type=reading.type,
        body=normalize_body(reading.body),
        raw=text,
    )


def read_settled(path: Path) -> tuple[bytes, str, int] | None:
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


def scan(jdb: JournalDB, folder: Path, agent: str, now: int, counts: dict | None = None) -> int:
    """Record what changed in ``folder`` since the last scan; return how many changes."""
    counts = counts if counts is not None else {}
    path = str(folder)
    entries = listed(folder)
    with jdb.read() as jconn:
        store = rec.store_row(jconn, path)
        known = rec.all_baselines(jconn, store.id) if store is not None else {}
    first = store is None or store.stamp is None
    changed = [n for n, s in entries.items() if known.get(n) is None or known[n].stamp != s]
    removed = [n for n in known if n not in entries]
    if not first and not changed and not removed:
        return 0
    texts: dict[str, tuple[bytes, str, int]] = {}
    for name in changed:
        read = read_settled(folder / f"{name}.md")
        if read is not None:
            texts[name] = read
    counts["files_read"] = counts.get("files_read", 0) + len(changed)
    recorded = 0
    with jdb.write() as jconn:
        store_id = rec.ensure_store(jconn, path, PERSONA)
        expected = rec.expectations(jconn, store_id, list(texts) + removed)
        for name, (data, stamp, mtime_ms) in texts.items():
            recorded += _entry(
                jconn, store_id, name, data, stamp, mtime_ms, known, expected, agent, now, first
            )
        for name in removed:
            recorded += _removed(jconn, store_id, name, known, expected, agent, now, first)
        rec.unexpect(jconn, store_id, expected)
        jconn.execute("UPDATE stores SET stamp = 'seen' WHERE id = ?", (store_id,))
    return recorded


def _entry(jconn, store_id, name, data, stamp, mtime_ms, known, expected, agent, now, first) -> int:
    digest = text_hash(data)
    base = known.get(name)
    mine = expected.get(name)
    text = data.decode("utf-8", "replace")
    if base is not None and base.hash == digest:
        rec.set_baseline(jconn, store_id, name, rec.Baseline(digest, False, stamp, base.version_id))
        if mine is not None:
            expected.pop(name)
        return 0
    version_id = rec.add_version(jconn, store_id, name, version_of(name, text), now, True)
    rec.set_baseline(jconn, store_id, name, rec.Baseline(digest, False, stamp, version_id))
    if first or (mine is not None and mine.hash == digest):
        _drop_old(jconn, base)
        return 0
    old = base.version_id if base else None
    if mine is not None and mine.data is not None:
        old = rec.add_packed_version(jconn, store_id, name, mine.data, now, True)
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


def _removed(jconn, store_id, name, known, expected, agent, now, first) -> int:
    base = known[name]
    rec.drop_baseline(jconn, store_id, name)
    mine = expected.get(name)
    if first or (mine is not None and mine.hash is None):
        _drop_old(jconn, base)
        return 0
    old = base.version_id
    if mine is not None and mine.data is not None:
        old = rec.add_packed_version(jconn, store_id, name, mine.data, now, True)
    found = rec.Finding(name, ChangeKind.REMOVED, now, agent, None, old, None)
    rec.add_change(jconn, store_id, found, now)
    return 1


def expect(jdb: JournalDB, folder: Path, name: str, text: str | None, now: int) -> None:
    """The person's own write of one entry (``text`` None: removed), before it lands."""
    with jdb.write() as jconn:
        store_id = rec.ensure_store(jconn, str(folder), PERSONA)
        if text is None:
            mine = rec.Expected(None, False, None)
        else:
            data = text.encode("utf-8", "surrogateescape")
            # A large entry's text is not kept (the save stays quick): only its hash.
            kept = pack_version(version_of(name, text)) if len(data) <= KEEP_TEXT_BYTES else None
            mine = rec.Expected(text_hash(data), False, kept)
        rec.expect(jconn, store_id, name, mine, now)
