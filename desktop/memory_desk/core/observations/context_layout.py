"""The plugin's session-start memory block, laid out as the plugin lays it out.

The plugin renders the block it injects at a chat's start with ``renderMemoryContext``
(``format.ts``): a header, a session line, then the last session summary, the recent prompts,
the pinned and the recent observations, each line a ``memoryLine`` ("- #12 [type] **Title**:
snippet"), all within ``budgetTokens`` x 4 characters. The room is shared out in its order:
pinned rows up to 40 % of what is left with their snippets (else all of them by title only),
the summary up to 45 % of what is then left (clipped at a line end with "[truncated]"), the
first five prompts up to 35 % (one that does not fit is skipped), the recent rows not already
pinned in the rest (whole, else by title, stopping at the first that fits neither way).

This is a line-for-line port with JavaScript's string rules (UTF-16 lengths and cuts, its
whitespace and ``trim``: :mod:`memory_desk.core.jstext`), checked against the plugin's own
function on random text (emoji, odd whitespace, tiny budgets). What it adds is the account:
which rows show whole, by title only or not at all, which prompts fit, whether the summary was
clipped. Pure Python, no Qt, no I/O: :mod:`.next_context` reads the parts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from memory_desk.core.jstext import JS_SPACE_RUNS_RE, JS_WHITESPACE, js_trim, utf16_len, utf16_slice

# The plugin's estimate: about four characters (UTF-16 units) a token.
CHARS_PER_TOKEN = 4
# The block shows at most this many prompts, each cut at this many units (``format.ts``).
PROMPTS_SHOWN = 5
PROMPT_UNITS = 200
SNIPPET_UNITS = 300
# Stands in for the first 8 characters of the next chat's id, not known until it starts.
NEXT_SESSION_STAND_IN = "\u00b7" * 8

HEADER = (
    "[Memory context from previous sessions (Alisio memory)."
    " Call memory_get with an id for details.]\n"
)
PINNED_TITLE = "### Pinned\n"
SUMMARY_TITLE = "### Last Session Summary\n"
PROMPTS_TITLE = "### Recent User Prompts\n"
RECENT_TITLE = "### Recent Observations\n"
_CLIP_MARK = "\n[truncated]"

# Sections of the block an observation can be in.
PINNED = "pinned"
RECENT = "recent"
# How an observation shows in the block.
SHOWN_WHOLE = "whole"  # title and snippet
SHOWN_TITLE = "title"  # title only: no room for its snippet
LEFT_OUT = "left out"  # a candidate with no room left


@dataclass(frozen=True, slots=True)
class Candidate:
    """An observation the plugin draws from (its ``hit``), and how the block shows it."""

    id: int
    type: str
    title: str
    snippet: str
    scope: str
    project: str
    pinned: bool
    updated_at: int
    section: str  # PINNED or RECENT
    shown: str = LEFT_OUT  # SHOWN_WHOLE, SHOWN_TITLE or LEFT_OUT

    @property
    def included(self) -> bool:
        return self.shown != LEFT_OUT


@dataclass(frozen=True, slots=True)
class SummaryPart:
    """The project's last session summary: whole, clipped to fit, or left out."""

    session_id: str
    ended_at: int | None
    content: str
    included: bool
    clipped: bool


@dataclass(frozen=True, slots=True)
class PromptPart:
    """One of the project's recent prompts, and whether it fits."""

    session_id: str | None
    content: str
    created_at: int | None
    included: bool


@dataclass(frozen=True, slots=True)
class NextContext:
    """The block and the parts it was built from, in the plugin's order.

    ``text`` is ``""`` when the plugin tells the chat nothing (``told_nothing``): the
    project has no summary, no prompt and no visible live row, and there are no parts."""

    project: str
    budget_tokens: int
    text: str
    summary: SummaryPart | None
    prompts: tuple[PromptPart, ...]
    observations: tuple[Candidate, ...]  # pinned ones first, then recent ones

    @property
    def estimated_tokens(self) -> int:
        return estimated_tokens(self.text)

    @property
    def told_nothing(self) -> bool:
        """True when the chat starts with no memory at all: no header, no block."""
        return not self.text

    @property
    def included(self) -> tuple[Candidate, ...]:
        return tuple(c for c in self.observations if c.included)

    @property
    def left_out(self) -> tuple[Candidate, ...]:
        """Candidates the budget had no room for (they would be in with a bigger one)."""
        return tuple(c for c in self.observations if not c.included)


def estimated_tokens(text: str) -> int:
    """The plugin's estimate (``estimateTokens``): UTF-16 units / 4, rounded up."""
    return math.ceil(utf16_len(text) / CHARS_PER_TOKEN)


def snippet(content: str) -> str:
    """The plugin's ``hit`` snippet: whitespace runs collapsed, cut at 300 units with "…"."""
    flat = js_trim(JS_SPACE_RUNS_RE.sub(" ", content))
    return utf16_slice(flat, SNIPPET_UNITS) + "…" if utf16_len(flat) > SNIPPET_UNITS else flat


def render(
    project: str,
    summary: SummaryPart | None,
    prompts: Sequence[PromptPart],
    pinned: Sequence[Candidate],
    recent: Sequence[Candidate],
    budget_tokens: int,
    session: str = NEXT_SESSION_STAND_IN,
) -> NextContext:
    """Lay the parts out as the plugin's ``renderMemoryContext`` does, within the budget.

    Each part comes back marked: which rows show whole, by title only or not at all, which
    prompts fit, whether the summary was clipped.
    """
    limit = budget_tokens * CHARS_PER_TOKEN
    session_line = f"### Session\nproject {project}"
    if session:
        session_line += f" · session {utf16_slice(session, 8)}"
    session_line += "\n"
    remaining = limit - utf16_len(HEADER) - utf16_len(session_line)

    pinned_text, pinned_shown = _pinned_section(pinned, remaining)
    remaining -= utf16_len(pinned_text)
    summary_text, summary = _summary_section(summary, remaining)
    remaining -= utf16_len(summary_text)
    prompts_text, prompts = _prompts_section(prompts, remaining)
    remaining -= utf16_len(prompts_text)
    pinned_ids = {c.id for c in pinned}
    recent = [c for c in recent if c.id not in pinned_ids]
    recent_rows = _rows(recent, remaining - utf16_len(RECENT_TITLE))
    recent_text = _section(RECENT_TITLE, [line for line, _ in recent_rows])

    whole = HEADER + session_line + summary_text + prompts_text + pinned_text + recent_text
    text = utf16_slice(whole.rstrip(JS_WHITESPACE), limit)
    shown = {
        **pinned_shown,
        **{c.id: how for c, (_, how) in zip(recent, recent_rows, strict=False)},
    }
    observations = tuple(
        replace(c, shown=_still_shown(c, shown.get(c.id, LEFT_OUT), text))
        for c in (*pinned, *recent)
    )
    return NextContext(project, budget_tokens, text, summary, tuple(prompts), observations)


def _memory_line(c: Candidate, compact: bool = False) -> str:
    tail = f": {c.snippet}" if not compact and c.snippet else ""
    return f"- #{c.id} [{c.type}] **{c.title}**{tail}"


def _rows(memories: Sequence[Candidate], room: float) -> list[tuple[str, str]]:
    """Rows while they fit in ``room`` units: whole, else by title, stopping at the first
    that fits neither way (the plugin's ``rows``). Returns ``(line, SHOWN_*)`` pairs."""
    out: list[tuple[str, str]] = []
    used = 0
    for c in memories:
        full, compact = _memory_line(c), _memory_line(c, compact=True)
        whole = used + utf16_len(full) + 1 <= room
        line = full if whole else compact
        if used + utf16_len(line) + 1 > room:
            break
        out.append((line, SHOWN_WHOLE if whole or full == compact else SHOWN_TITLE))
        used += utf16_len(line) + 1
    return out


def _section(title: str, lines: Sequence[str]) -> str:
    return f"{title}{chr(10).join(lines)}\n" if lines else ""


def _pinned_section(pinned: Sequence[Candidate], remaining: int) -> tuple[str, dict[int, str]]:
    """Pinned rows take up to 40 % of the room with their snippets; if not all fit that way,
    as many as fit in the whole room by title only."""
    if not pinned:
        return "", {}
    title_units = utf16_len(PINNED_TITLE)
    chosen = _rows(pinned, max(0, math.floor(remaining * 0.4) - title_units))
    if len(chosen) != len(pinned):
        titles_only = _rows(
            [replace(c, snippet="") for c in pinned], max(0, remaining - title_units)
        )
        chosen = [
            (line, SHOWN_TITLE if c.snippet else SHOWN_WHOLE)
            for c, (line, _) in zip(pinned, titles_only, strict=False)
        ]
    shown = {c.id: how for c, (_, how) in zip(pinned, chosen, strict=False)}
    return _section(PINNED_TITLE, [line for line, _ in chosen]), shown


def _summary_section(summary: SummaryPart | None, remaining: int) -> tuple[str, SummaryPart | None]:
    """The summary, clipped at a line end to 45 % of the room left after the pinned rows."""
    body = js_trim(summary.content) if summary is not None else ""
    if summary is None or not body:
        return "", summary if summary is None else replace(summary, included=False)
    full = SUMMARY_TITLE + body
    clipped = _clip_lines(full, math.floor(remaining * 0.45))
    part = replace(summary, included=bool(clipped), clipped=clipped != full)
    return clipped + "\n", part


def _clip_lines(body: str, max_chars: int) -> str:
    """``body`` cut to ``max_chars`` units with a "[truncated]" line, at a line end when one
    lies in the second half (the plugin's ``clipLines``)."""
    if utf16_len(body) <= max_chars:
        return body
    room = max_chars - utf16_len(_CLIP_MARK)
    if room <= 0:
        return ""
    cut = utf16_slice(body, room)
    at = cut.rfind("\n")
    newline = utf16_len(cut[:at]) if at >= 0 else -1
    if newline > room / 2:
        cut = utf16_slice(cut, newline)
    return cut + _CLIP_MARK


def _prompts_section(prompts: Sequence[PromptPart], remaining: int) -> tuple[str, list[PromptPart]]:
    """The first five prompts, each on one line cut at 200 units, those that fit in 35 % of
    the room left (one that does not fit is skipped, the next may still fit)."""
    if not prompts:
        return "", []
    room = math.floor(remaining * 0.35)
    used = utf16_len(PROMPTS_TITLE)
    lines: list[str] = []
    marked: list[PromptPart] = []
    for i, prompt in enumerate(prompts):
        if i >= PROMPTS_SHOWN:
            marked.append(replace(prompt, included=False))
            continue
        text = js_trim(JS_SPACE_RUNS_RE.sub(" ", prompt.content))
        if utf16_len(text) > PROMPT_UNITS:
            text = utf16_slice(text, PROMPT_UNITS) + "…"
        line = f"- {text}"
        fits = used + utf16_len(line) + 1 <= room
        if fits:
            lines.append(line)
            used += utf16_len(line) + 1
        marked.append(replace(prompt, included=fits))
    return _section(PROMPTS_TITLE, lines), marked


def _still_shown(c: Candidate, how: str, text: str) -> str:
    """A row the final cut at the limit reached is not in the block after all."""
    if how == LEFT_OUT:
        return how
    return how if _memory_line(c, compact=how == SHOWN_TITLE) in text else LEFT_OUT
