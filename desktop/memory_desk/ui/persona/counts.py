"""What the persona page's status says: its counts, kept change by change, and their sentence."""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from memory_desk.core.persona import PROMPT_LIMIT, PersonaEntry
from memory_desk.ui.i18n import number, plural, translate

_agent_visible = attrgetter("agent_visible")
_problems = attrgetter("problems")


@dataclass(frozen=True)
class Counts:
    """What the status says, kept up to date change by change (no pass over every entry)."""

    entries: int = 0
    visible: int = 0
    problems: int = 0

    @classmethod
    def of(cls, entries: list[PersonaEntry]) -> Counts:
        return cls(
            len(entries),
            sum(map(_agent_visible, entries)),
            sum(map(bool, map(_problems, entries))),
        )

    def changed(self, before: PersonaEntry | None, after: PersonaEntry | None) -> Counts:
        """The counts once ``before`` (None: nothing) became ``after`` (None: gone)."""
        entries, visible, problems = self.entries, self.visible, self.problems
        for entry, sign in ((before, -1), (after, 1)):
            if entry is not None:
                entries += sign
                visible += sign * entry.agent_visible
                problems += sign * bool(entry.problems)
        return Counts(entries, visible, problems)


def status_for(counts: Counts, folder_blocked: bool) -> str:
    """``24 entries · 24 in the prompt · 3 with problems``: three counts, each a whole phrase
    in the person's language. ``folder_blocked``: the agent cannot read the folder at all."""
    count = plural(
        counts.entries,
        translate("PersonaPage", "{n} entry"),
        translate("PersonaPage", "{n} entries"),
    )
    if folder_blocked:
        listed = translate("PersonaPage", "none in the prompt (the agent cannot read this folder)")
    else:  # (one form for every count, in English and in Spanish)
        listed = translate("PersonaPage", "{n} in the prompt").format(
            n=number(min(counts.visible, PROMPT_LIMIT))
        )
    troubled = translate("PersonaPage", "{n} with problems").format(n=number(counts.problems))
    return translate("PersonaPage", "{entries} · {listed} · {problems}").format(
        entries=count, listed=listed, problems=troubled
    )
