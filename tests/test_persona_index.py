"""What the agent's prompt lists: agent_index and prompt_section, exact strings."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_desk.core.persona import PROMPT_HEADING, PersonaFolder, agent_index, prompt_section

OLDER = "({n} older entries aren't listed here: `memory_list` gives them all.)"


def _assert_in_section(index: str, entries: list) -> None:
    """The prompt section opens with its heading and holds the index as whole lines."""
    section = prompt_section(entries)
    assert section.startswith(PROMPT_HEADING + "\n")
    assert f"\n{index}\n" in section + "\n"


def _fill(folder: Path, count: int) -> list[str]:
    """``count`` entries with distinct dates; returns their index lines, newest first."""
    lines = []
    for i in range(count):
        name, kind = f"entry-{i:03d}", ("user", "feedback")[i % 2]
        updated = f"2026-{1 + i // 28 // 24:02d}-{1 + i // 24 % 28:02d}T{i % 24:02d}:00:00.000Z"
        (folder / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: About {i}\ntype: {kind}\nupdated: {updated}\n"
            f"---\n\nBody {i}\n"
        )
        lines.append(f"- {name} ({kind}): About {i}")
    return lines[::-1]


def test_nothing_yet(tmp_path: Path) -> None:
    (tmp_path / "Not Kebab.md").write_text("invisible to the agent\n")
    entries = PersonaFolder(tmp_path).entries()
    assert agent_index(entries) == "Nothing yet."
    _assert_in_section("Nothing yet.", entries)


def test_one_entry(tmp_path: Path) -> None:
    (tmp_path / "no-fish-puns.md").write_text(
        "---\nname: no-fish-puns\ndescription: Dislikes puns about fish; avoid fish-themed jokes\n"
        "type: feedback\nupdated: 2026-10-07T13:15:05.678Z\n---\n\nRule: never.\n"
    )
    entries = PersonaFolder(tmp_path).entries()
    expected = "- no-fish-puns (feedback): Dislikes puns about fish; avoid fish-themed jokes"
    assert agent_index(entries) == expected
    _assert_in_section(expected, entries)


@pytest.mark.parametrize("count", [50, 51, 120])
def test_many_entries(tmp_path: Path, count: int) -> None:
    lines = _fill(tmp_path, count)
    (tmp_path / "Hidden One.md").write_text("---\nupdated: 2099-01-01T00:00:00.000Z\n---\n")
    entries = PersonaFolder(tmp_path).entries()
    expected = lines[:50] + ([OLDER.format(n=count - 50)] if count > 50 else [])
    assert agent_index(entries) == "\n".join(expected)
    assert agent_index(reversed(entries)) == "\n".join(expected)  # order comes from the data


def test_the_index_shows_what_the_agent_reads(tmp_path: Path) -> None:
    (tmp_path / "odd.md").write_text(
        "---\ndescription: [a, 'b']\ntype: Feedback\nupdated: 2026-10-07T13:15:05.678Z\n---\n"
    )
    (tmp_path / "bom.md").write_bytes(
        b"\xef\xbb\xbf---\ndescription: hidden\ntype: feedback\n---\n"
    )
    (tmp_path / "bare.md").write_text("no header at all\n")
    (tmp_path / "listed.md").write_text(
        "---\ndescription:\n  - tea\n  - 'milk'\ntype: [feedback]\n"
        "updated: [2026-10-06T00:00:00.000Z]\n---\n"
    )
    index = agent_index(PersonaFolder(tmp_path).entries())
    assert index == (
        "- odd (user): a, b\n- listed (feedback): tea, milk\n- bare (user): \n- bom (user): "
    )
