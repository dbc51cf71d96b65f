"""One chat to a Markdown file: what the Chats page shows of it, in one document.

Read through :mod:`memory_desk.core.observations.chats` (pure reading); ``fenced`` keeps the
recorded text exact inside the document.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.export.files import new_file
from memory_desk.core.export.result import ExportResult
from memory_desk.core.export.text import iso_utc, md_text
from memory_desk.core.messages import msg
from memory_desk.core.observations.chats import ChatDetail, chat_detail, saved_in_chat
from memory_desk.core.observations.rows import Observation
from memory_desk.core.observations.store import ObservationStore
from memory_desk.core.progress import Progress


def export_chat_markdown(
    store: ObservationStore, session_id: str, path: str | os.PathLike[str], progress: Progress
) -> ExportResult:
    """Write one chat to the Markdown file ``path``: its project, directory and dates, its
    summary, its loaded context (the exact recorded text, in a fence no backtick run inside
    it can close), the person's prompts and the observations it saved (the web tab's "Saved
    in this chat": live rows, pinned first, newest first). ``count`` is how many of those.

    Reads through :mod:`memory_desk.core.observations.chats`, so the export says what the
    Chats page shows.
    """
    target = Path(path)
    progress.step(0, 2)
    detail = chat_detail(store, session_id)
    if detail is None:
        raise StoreError(
            msg(
                "Export",
                "There is no chat “{chat}” in {path} any more; nothing was exported.",
                chat=session_id,
                path=str(store.path),
            )
        )
    progress.step(1, 2)
    saved = saved_in_chat(store, session_id)
    progress.step(2, 2)
    text = chat_markdown(detail, saved)
    with new_file(target) as out:
        out.write(text.encode("utf-8"))
    return ExportResult(target, len(saved))


def chat_markdown(detail: ChatDetail, saved: Sequence[Observation]) -> str:
    """The chat's Markdown document (see :func:`export_chat_markdown`)."""
    row = detail.row
    parts = [
        f"# Chat {md_text(row.id)}",
        "",
        f"- Project: {md_text(row.project)}",
        f"- Directory: {md_text(row.directory or 'not recorded')}",
        f"- Started: {iso_utc(row.started_at) or 'not recorded'}",
        f"- Ended: {iso_utc(row.ended_at) or 'not recorded'}",
        f"- Saved observations: {len(saved)}",
        f"- Prompts: {len(detail.prompts)}",
        "",
        "## Session summary",
        "",
        detail.summary if detail.summary is not None else "_No summary recorded._",
        "",
        "## Loaded context",
        "",
    ]
    if detail.context is not None:
        recorded = iso_utc(detail.context_at)
        if recorded:
            parts += [f"Recorded {recorded}, exactly as the plugin injected it:", ""]
        parts += [fenced(detail.context), ""]
    else:
        parts += [f"_{detail.context_missing}_", ""]
    parts += ["## Prompts", ""]
    if not detail.prompts:
        parts += [f"_{detail.prompts_missing or 'No prompts recorded.'}_", ""]
    for number, prompt in enumerate(detail.prompts, 1):
        parts += [f"### {number} · {iso_utc(prompt.created_at)}", "", fenced(prompt.content), ""]
    parts += ["## Saved in this chat", ""]
    if not saved:
        parts += ["_Nothing saved._", ""]
    for obs in saved:
        marks = [obs.type, f"id {obs.id}", f"updated {iso_utc(obs.updated_at)}"]
        if obs.pinned:
            marks.append("pinned")
        if obs.topic_key:
            marks.append(f"topic {md_text(obs.topic_key)}")
        parts += [f"### {md_text(obs.title)}", "", " · ".join(marks), "", obs.content or "", ""]
    return "\n".join(parts)


def fenced(text: str, info: str = "text") -> str:
    """``text`` in a Markdown code fence longer than any run of backticks inside it, so that
    nothing in the text can close the block: it reads back exactly (up to the fence's lines)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"
