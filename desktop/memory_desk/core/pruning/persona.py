"""Persona entries of one folder that say the same thing twice.

Only ever within one folder: a folder is one agent's memory of the person (another agent, or
another account, has its own folder and its own reasons), so entries are never compared
across folders. Two kinds of repetition: the same body once lower-cased and with whitespace
collapsed (the plugin's own normalization, :func:`memory_desk.core.alisio.normalized_hash`),
and nearly the same description and body (:mod:`.near`, the same MinHash LSH and exact check
as for observations). Of each group the newest entry in the agent's own order stays.

Only the entries the agent reads are compared (a file it never lists repeats nothing for it);
an entry too large to be read whole in a listing is left out. Reading never writes.
"""

from __future__ import annotations

from datetime import datetime

from memory_desk.core import alisio
from memory_desk.core.persona import PersonaEntry, PersonaFolder, agent_order
from memory_desk.core.persona.reading import is_start_only
from memory_desk.core.progress import Progress
from memory_desk.core.pruning.candidates import (
    PERSONA_NEAR_DUPLICATE,
    PERSONA_SAME_TEXT,
    Findings,
    Group,
    Row,
    Settings,
)
from memory_desk.core.pruning.near import near_duplicates


def find_persona_duplicates(
    folder: PersonaFolder, settings: Settings, progress: Progress
) -> Findings:
    """The groups of entries of ``folder`` that repeat each other (module docstring)."""
    entries = [e for e in agent_order(folder.entries()) if not is_start_only(e)]
    progress.step(0, len(entries))
    order = {entry.name: rank for rank, entry in enumerate(entries)}  # 0: the newest
    groups: list[Group] = []
    by_text: dict[str, list[PersonaEntry]] = {}
    for entry in entries:
        by_text.setdefault(alisio.normalized_hash(entry.body), []).append(entry)
    repeated: set[str] = set()
    for same in by_text.values():
        if len(same) > 1:
            groups.append(_group(PERSONA_SAME_TEXT, same, order))
            repeated.update(e.name for e in same[1:])
    rest = [e for e in entries if e.name not in repeated]
    items = ((e.name, "", f"{e.description}\n{e.body}") for e in rest)
    by_name = {e.name: e for e in rest}
    for cluster in near_duplicates(
        items, progress, total=len(entries), threshold=settings.threshold
    ):
        alike = [by_name[str(name)] for name in cluster.keys]
        groups.append(_group(PERSONA_NEAR_DUPLICATE, alike, order, cluster.similarity))
    progress.step(len(entries), len(entries))
    return Findings(tuple(groups), len(entries), settings)


def _group(
    reason: str,
    entries: list[PersonaEntry],
    order: dict[str, int],
    similarity: float | None = None,
) -> Group:
    ordered = sorted(entries, key=lambda e: order[e.name])
    rows = tuple(_row(entry, kept=rank == 0) for rank, entry in enumerate(ordered))
    return Group(reason, rows, similarity=similarity)


def _row(entry: PersonaEntry, *, kept: bool) -> Row:
    return Row(
        key=entry.name,
        title=entry.description or entry.name,
        type=entry.type,
        place="",
        updated_ms=_ms(entry.updated),
        kept=kept,
    )


def _ms(iso: str) -> int | None:
    """``updated`` in milliseconds, or None when the header holds no readable time."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return int(moment.timestamp() * 1000)
