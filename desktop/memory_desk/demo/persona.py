"""The demo's persona folders, written byte for byte as agent-kit writes them, with every
kind of file an agent would not read as it expects (FORMATS.md, part B)."""

from __future__ import annotations

from pathlib import Path


def agent_entry(name: str, description: str, type_: str, updated: str, body: str) -> bytes:
    """An entry exactly as agent-kit writes it: four keys, blank line, body, newline."""
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n"
        f"updated: {updated}\n---\n\n{body}\n"
    ).encode()


MIYAGI_FILES: dict[str, bytes] = {
    "preferred-name-carmen.md": agent_entry(
        "preferred-name-carmen",
        "Wants to be called Carmen, not Ms. Ortega",
        "user",
        "2026-11-20T08:12:44.105Z",
        "Carmen asked to be called by her first name in every reply.",
    ),
    "teaches-physics.md": agent_entry(
        "teaches-physics",
        "Teaches physics and chemistry to 15-16 year olds",
        "user",
        "2026-10-02T17:03:11.532Z",
        "Two physics groups and one chemistry group, fourth year of secondary school.",
    ),
    "no-fish-puns.md": agent_entry(
        "no-fish-puns",
        "Dislikes puns about fish; avoid fish-themed jokes",
        "feedback",
        "2026-10-07T13:15:05.678Z",
        "Rule: never tell jokes or puns about fish to this person.\n\nWhy: she said \"I can't"
        ' stand puns about fish."\n\nApply: any light-hearted remark, including examples in'
        " worksheets.",
    ),
    "short-answers.md": agent_entry(
        "short-answers",
        "Keep answers under ten lines unless she asks for detail",
        "feedback",
        "2026-11-25T19:40:00.001Z",
        "Rule: answer in ten lines or fewer.\n\nWhy: she reads between classes on her phone."
        "\n\nApply: offer a longer version at the end instead of writing it.",
    ),
    "rubrics-as-tables.md": agent_entry(
        "rubrics-as-tables",
        "Present grading rubrics as tables with four levels",
        "feedback",
        "2026-11-11T10:21:37.250Z",
        "Rule: rubrics are Markdown tables: criteria as rows, four levels as columns"
        " (Excellent, Good, Fair, Needs work).\n\nWhy: she pastes them into the school's"
        " platform.\n\nApply: every rubric, even short ones.",
    ),
    # CRLF line endings and quoted values: accepted by the agent.
    "metric-units-only.md": (
        b'---\r\nname: metric-units-only\r\ndescription: "Use SI units in every example"\r\n'
        b"type: 'feedback'\r\nupdated: 2026-10-19T09:00:12.900Z\r\n---\r\n\r\nRule: SI units"
        b" only, no miles or pounds.\r\nWhy: the curriculum requires it.\r\n"
    ),
    # An extra key (the agent drops it on its next save) and a list value.
    "calls-students-by-first-name.md": (
        b"---\nname: calls-students-by-first-name\ndescription: Refers to students by first"
        b" name only\ntype: user\nupdated: 2026-11-02T12:00:00.000Z\ntags: [class, privacy]\n"
        b"---\n\nNever use surnames in generated feedback for students.\n"
    ),
    # Problem: the agent ignores stems that are not kebab-case.
    "Exam Ideas.md": agent_entry(
        "exam-ideas",
        "Exam question ideas for the optics unit",
        "user",
        "2026-11-15T16:45:09.333Z",
        "- A periscope built from two mirrors\n- Why a straw looks bent in water",
    ),
    # Problem: a byte-order mark, so the agent sees no header at all.
    "uses-moodle.md": "\ufeff".encode()
    + agent_entry(
        "uses-moodle",
        "Her school uses Moodle for assignments",
        "user",
        "2026-10-28T11:30:00.000Z",
        "Quizzes should be exportable to Moodle XML.",
    ),
    # Problem: no header.
    "lab-safety.md": (
        b"# Lab safety\n\nCarmen wants every practical to start with a two-line safety note.\n"
    ),
    # Problem: the name: line disagrees with the file name (the file name wins).
    "prefers-spanish-examples.md": agent_entry(
        "prefers-english-examples",
        "Wants worked examples in Spanish",
        "feedback",
        "2026-11-05T08:00:31.010Z",
        "Rule: worked examples in Spanish, explanations may be in English.",
    ),
    # Problem: an unknown type (read as user).
    "grading-day.md": agent_entry(
        "grading-day",
        "Grades on Sunday evenings",
        "habit",
        "2026-10-12T20:15:00.000Z",
        "Do not suggest deadlines on Mondays; she grades the night before.",
    ),
    # Problem: an empty description.
    "dislikes-emoji.md": agent_entry(
        "dislikes-emoji",
        "",
        "feedback",
        "2026-11-18T07:55:42.600Z",
        "Rule: no emoji in anything meant for students.",
    ),
    # Problem: `updated` is not ISO 8601.
    "school-schedule.md": agent_entry(
        "school-schedule",
        "Teaches mornings; free after 14:00",
        "user",
        "14/10/2026 09:30",
        "Suggest meetings only after 14:00 on weekdays.",
    ),
    # Problem: not UTF-8 (Latin-1 bytes from an old editor).
    "cafe-notes.md": (
        "---\nname: cafe-notes\ndescription: Prefers the café next to school for meetings\n"
        "type: user\nupdated: 2026-10-22T15:00:00.000Z\n---\n\nCafé Ñandú, near the gym.\n"
    ).encode("latin-1"),
    # Not entries at all: a hidden draft, an editor swap file and a backup copy.
    ".draft-idea.md": agent_entry(
        "draft-idea",
        "Half-written idea",
        "user",
        "2026-11-26T10:00:00.000Z",
        "Maybe...",
    ),
    ".short-answers.md.swp": b"b0VIM 9.0\x00\x00\x00\x00\x10\x00\x00" + bytes(range(32)) * 8,
    "short-answers.md~": agent_entry(
        "short-answers",
        "Keep answers short",
        "feedback",
        "2026-11-01T09:00:00.000Z",
        "Rule: short answers.",
    ),
}

PADAWAN_FILES: dict[str, bytes] = {
    "studies-at-night.md": agent_entry(
        "studies-at-night",
        "Studies late in the evening, after work",
        "user",
        "2026-11-21T22:41:03.777Z",
        "Plan study sessions for 21:00-23:00.",
    ),
    "explain-with-analogies.md": agent_entry(
        "explain-with-analogies",
        "Likes new ideas explained with an everyday analogy first",
        "feedback",
        "2026-11-09T21:12:55.040Z",
        'Rule: start with an analogy, then the definition.\n\nWhy: he said "analogies are'
        ' what make it click for me."\n\nApply: every new concept.',
    ),
    # A list written with indented items: valid for the agent.
    "quiz-before-summaries.md": (
        b"---\nname: quiz-before-summaries\ndescription: Wants a short quiz before each"
        b" summary\ntype: feedback\nupdated: 2026-11-24T20:30:00.500Z\nsubjects:\n  - maths\n"
        b"  - history\n---\n\nRule: three questions first, then the summary.\n"
    ),
    "notes.txt": b"Not a memory entry: the agent only reads *.md files.\n",
}

PADAWAN_ACCOUNT = "evening-class"
PADAWAN_ACCOUNT_FILES: dict[str, bytes] = {
    "learning-french.md": agent_entry(
        "learning-french",
        "Learning French at B1 level",
        "user",
        "2026-11-26T19:05:17.222Z",
        "Evening class twice a week; exam in June.",
    ),
    "correct-gently.md": agent_entry(
        "correct-gently",
        "Wants mistakes corrected one at a time",
        "feedback",
        "2026-11-19T18:44:00.010Z",
        "Rule: point out one mistake per answer, the most important one.\n\nWhy: a list of"
        " corrections discourages him.",
    ),
}


def write_persona_folders(home: Path) -> list[Path]:
    miyagi = home / ".miyagi" / "memory"
    padawan = home / ".padawan" / "memory"
    account = padawan / PADAWAN_ACCOUNT
    for folder, files in (
        (miyagi, MIYAGI_FILES),
        (padawan, PADAWAN_FILES),
        (account, PADAWAN_ACCOUNT_FILES),
    ):
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (folder / name).write_bytes(data)
    return [miyagi, padawan, account]
