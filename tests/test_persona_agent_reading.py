"""Each rule of the agent's header reading (FORMATS.md, part B), one test each, on real files.

The files are written the way the agent writes them (``tests/agents/persona_agent.py``) or the
way a person editing them by hand would leave them; what the agent reads is checked with the
reference reader of ``test_persona_grammar_properties`` (agent-kit's code transcribed), and what
Memory Desk shows, says and fixes is checked through ``PersonaFolder``.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from agents.persona_agent import render
from memory_desk.core.persona import (
    FIX_LABELS,
    PersonaEntry,
    PersonaFolder,
    Problem,
    agent_index,
)
from persona_corpus import ISO, build_corpus
from test_persona_grammar_properties import CHANGE_READING, agent_reads

AGENT = Path(__file__).parent / "agents" / "persona_agent.py"


@pytest.fixture
def folder(tmp_path: Path) -> PersonaFolder:
    (tmp_path / "memory").mkdir()
    return PersonaFolder(tmp_path / "memory", trash=tmp_path / "trash")


def _write(folder: PersonaFolder, name: str, text: str) -> PersonaEntry:
    (folder.path / f"{name}.md").write_bytes(text.encode("utf-8"))
    return folder.read(name)


def _on_disk(entry: PersonaEntry) -> str:
    return entry.path.read_bytes().decode("utf-8")  # not read_text(): it folds line breaks


def _shown(entry: PersonaEntry) -> tuple[str, str, str, str]:
    return entry.description, entry.type, entry.updated, entry.body


def _problem(entry: PersonaEntry, code: str) -> Problem:
    found = [p for p in entry.problems if p.code == code]
    assert len(found) == 1, [p.code for p in entry.problems]
    return found[0]


def _codes(entry: PersonaEntry) -> set[str]:
    return {p.code for p in entry.problems}


def _header(*lines: str, closing: str = "---", body: str = "Body.") -> str:
    return "\n".join(["---", *lines, closing, body]) + "\n"


# ----------------------------------------------------------------------------- as the agent wrote it


def test_an_entry_the_agent_wrote_reads_as_it_wrote_it(folder: PersonaFolder) -> None:
    subprocess.run(
        [sys.executable, str(AGENT), str(folder.path), "no-fish-puns", "feedback",
         "Dislikes puns about fish", "  Rule: never.\n\n", "--updated", ISO],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    entry = folder.read("no-fish-puns")
    expected = ("Dislikes puns about fish", "feedback", ISO, "Rule: never.")
    assert _shown(entry) == expected == agent_reads(_on_disk(entry))
    assert entry.problems == ()


# ----------------------------------------------------------------------------- where the header ends


def test_the_header_ends_at_the_first_line_starting_with_three_dashes(
    folder: PersonaFolder,
) -> None:
    text = render("tea", "Tea first", "feedback", ISO, "x").replace(
        "---\n\nx\n", "--- Rule: tea first.\nWhy: mornings.\n"
    )
    entry = _write(folder, "tea", text)
    assert _shown(entry) == ("Tea first", "feedback", ISO, "Rule: tea first.\nWhy: mornings.")
    assert _shown(entry) == agent_reads(text)
    assert "“Rule: tea first.”" in _problem(entry, "closing-text").message
    four = _write(folder, "four", _header("type: feedback", closing="----"))
    assert (four.type, four.body) == ("feedback", "-\nBody.")
    assert "“-”" in _problem(four, "closing-text").message


def test_spaces_after_the_closing_dashes_change_nothing(folder: PersonaFolder) -> None:
    entry = _write(folder, "spaced", _header("type: feedback", closing="---  \t"))
    assert (entry.type, entry.body) == ("feedback", "Body.")
    assert "closing-text" not in _codes(entry)


def test_splitting_the_closing_line_keeps_the_agents_reading(folder: PersonaFolder) -> None:
    entry = _write(folder, "tea", _header("description: Tea", closing="--- Rule: tea."))
    before = agent_reads(_on_disk(entry))
    fixed = folder.fix(entry, "split-closing")
    assert _on_disk(fixed) == "---\ndescription: Tea\n---\n\nRule: tea.\nBody.\n"
    assert agent_reads(_on_disk(fixed)) == before == _shown(fixed)
    assert "closing-text" not in _codes(fixed)
    assert "the agent reads the same" in FIX_LABELS["split-closing"]


def test_the_line_right_after_the_opening_never_closes_the_header(folder: PersonaFolder) -> None:
    doubled = _header("---", "description: Two fences", "type: feedback")
    entry = _write(folder, "doubled", doubled)
    assert _shown(entry) == ("Two fences", "feedback", "", "Body.") == agent_reads(doubled)
    assert "line 5" in _problem(entry, "fence-after-opening").message
    fixed = folder.fix(entry, "drop-fence-line")
    assert _on_disk(fixed) == "---\ndescription: Two fences\ntype: feedback\n---\nBody.\n"
    assert agent_reads(_on_disk(fixed)) == agent_reads(doubled)
    assert "fence-after-opening" not in _codes(fixed)

    only = _write(folder, "only", "---\n---\nOnly a body.\n")
    assert (only.description, only.body) == ("", "---\n---\nOnly a body.")
    assert _problem(only, "header-empty").fix is None

    one_line = _write(folder, "one-line", "---\n\n---\nBody.\n")
    assert one_line.body == "Body." and "header-empty" not in _codes(one_line)


def test_a_lone_fence_header_line_is_not_removed(folder: PersonaFolder) -> None:
    """Without its stray line the header would be gone: no fix is offered."""
    entry = _write(folder, "fences", "---\n---\n---\nBody.\n")
    assert entry.body == "Body." == agent_reads(_on_disk(entry))[3]
    assert _problem(entry, "fence-after-opening").fix is None


def test_saving_a_new_body_writes_a_plain_closing_line(folder: PersonaFolder) -> None:
    text = _header("description: Tea", "type: feedback", closing="--- Old start")
    entry = _write(folder, "tea", text)
    kept = folder.save(dataclasses.replace(entry, description="Tea, always"))
    assert "\n--- Old start\nBody.\n" in _on_disk(kept)  # body untouched: kept byte for byte
    assert agent_reads(_on_disk(kept))[3] == "Old start\nBody."
    saved = folder.save(dataclasses.replace(kept, body="New text."))
    assert _on_disk(saved).endswith("\n---\n\nNew text.\n")
    assert agent_reads(_on_disk(saved)) == ("Tea, always", "feedback", saved.updated, "New text.")


def test_the_opening_line_must_be_exactly_three_dashes(folder: PersonaFolder) -> None:
    text = "--- \ndescription: Tea\ntype: feedback\n---\nBody.\n"
    entry = _write(folder, "tea", text)
    assert _shown(entry) == ("", "user", "", text.strip()) == agent_reads(text)
    problem = _problem(entry, "no-header")
    assert problem.fix == "fix-opening"
    assert "the agent then reads the header" in FIX_LABELS["fix-opening"]
    fixed = folder.fix(entry, problem.fix)
    assert _shown(fixed) == ("Tea", "feedback", "", "Body.") == agent_reads(_on_disk(fixed))


def test_a_byte_order_mark_hides_the_header(folder: PersonaFolder) -> None:
    text = "\ufeff" + render("tea", "Tea first", "feedback", ISO, "Body.")
    entry = _write(folder, "tea", text)
    assert (entry.description, entry.type) == ("", "user") == agent_reads(text)[:2]
    assert _problem(entry, "bom").fix == "remove-bom"


# ----------------------------------------------------------------------------- header lines


@pytest.mark.parametrize(
    ("mark", "named"),
    [("\r", "carriage return"), ("\u2028", "U+2028"), ("\u2029", "U+2029")],
)
def test_a_line_with_a_hidden_break_inside_its_value_is_skipped(
    folder: PersonaFolder, mark: str, named: str
) -> None:
    text = _header("description: Old", f"description: Tea{mark}and biscuits", "type: feedback")
    entry = _write(folder, "tea", text)
    assert entry.description == "Old" == agent_reads(text)[0]
    problem = _problem(entry, "hidden-break")
    assert named in problem.message and "“Old”" in problem.message
    assert "duplicate-key" not in _codes(entry)  # the agent never sees a second description
    assert "the agent then reads those lines" in FIX_LABELS[problem.fix]
    fixed = folder.fix(entry, problem.fix)
    assert fixed.description == "Tea and biscuits" == agent_reads(_on_disk(fixed))[0]
    assert (fixed.type, fixed.body) == ("feedback", "Body.")


def test_whitespace_after_the_colon_swallows_line_separators(folder: PersonaFolder) -> None:
    text = _header("description:\u2028Tea", "type:\r\t", "  - feedback")
    entry = _write(folder, "tea", text)
    assert (entry.description, entry.type) == ("Tea", "feedback") == agent_reads(text)[:2]
    assert "hidden-break" not in _codes(entry)


def test_a_later_line_of_a_key_wins(folder: PersonaFolder) -> None:
    entry = _write(folder, "tea", _header("type: feedback", "type: user"))
    assert entry.type == "user"
    assert "only the last" in _problem(entry, "duplicate-key").message


def test_values_lose_one_quote_at_each_end_after_trimming(folder: PersonaFolder) -> None:
    text = _header("description:   'Tea' \t", 'type: ""feedback""', "updated: 'x\"")
    entry = _write(folder, "tea", text)
    assert _shown(entry)[:3] == ("Tea", "user", "x") == agent_reads(text)[:3]
    assert '“"feedback"”' in _problem(entry, "type").message


# ----------------------------------------------------------------------------- lists


def test_a_list_reads_as_its_items_joined_by_a_comma_and_a_space(folder: PersonaFolder) -> None:
    inline = _write(folder, "inline", _header("description: [tea, 'biscuits', , ]"))
    block = _write(folder, "block", _header("description:", "  - tea", '\t- "milk"', "  - "))
    assert inline.description == "tea, biscuits"  # empty items of [...] are dropped
    assert block.description == "tea, milk, "  # empty dash items are kept
    for entry in (inline, block):
        assert entry.description == agent_reads(_on_disk(entry))[0]
        assert f"“{entry.description}”" in _problem(entry, "description").message
    assert "- inline (user): tea, biscuits" in agent_index([inline, block]).splitlines()


def test_a_type_written_as_a_list_is_read_as_its_items(folder: PersonaFolder) -> None:
    one = _write(folder, "one", _header("type: [feedback]"))
    two = _write(folder, "two", _header("type:", "  - user", "  - feedback"))
    assert (one.type, two.type) == ("feedback", "user")
    assert "as feedback" in _problem(one, "type").message
    assert "“user, feedback”" in _problem(two, "type").message
    fixed = folder.fix(one, "set-type")
    assert "\ntype: feedback\n" in _on_disk(fixed) and fixed.type == "feedback"
    assert "type" not in _codes(fixed)


def test_an_updated_date_written_as_a_list_is_read_as_its_item(folder: PersonaFolder) -> None:
    entry = _write(folder, "dated", _header("type: user", f"updated: [{ISO}]"))
    assert entry.updated == ISO == agent_reads(_on_disk(entry))[2]
    assert "as a list" in _problem(entry, "updated").message


def test_brackets_followed_by_a_space_are_text(folder: PersonaFolder) -> None:
    text = _header("description: [tea, biscuits] ", "type: [feedback] ")
    entry = _write(folder, "tea", text)
    assert (entry.description, entry.type) == ("[tea, biscuits]", "user") == agent_reads(text)[:2]
    assert "follows" in _problem(entry, "bracket-text").message
    assert "“[feedback]” is text" in _problem(entry, "type").message


def test_a_dash_item_needs_whitespace_after_its_dash(folder: PersonaFolder) -> None:
    text = _header("description:", "  -tea", "  - milk", "type: feedback")
    entry = _write(folder, "tea", text)
    assert entry.description == "" == agent_reads(text)[0]
    problem = _problem(entry, "dash-no-space")
    assert "“-tea”" in problem.message and "empty" in problem.message


# ----------------------------------------------------------------------------- fixes


def test_every_fix_in_the_corpus_keeps_the_agents_reading_unless_that_is_its_purpose(
    tmp_path: Path,
) -> None:
    source = tmp_path / "corpus"
    expected = build_corpus(source, tmp_path / "elsewhere")
    offered = [
        (name, problem.fix)
        for name, entry in ((e.name, e) for e in PersonaFolder(source).entries())
        for problem in entry.problems
        if problem.fix and name in expected
    ]
    assert {fix for _, fix in offered} >= {"split-closing", "drop-fence-line", "unbreak-lines"}
    for number, (name, fix_id) in enumerate(offered):
        copy = tmp_path / f"copy-{number}"  # a fresh corpus per fix: fixes write
        build_corpus(copy, tmp_path / f"elsewhere-{number}")
        folder = PersonaFolder(copy, trash=tmp_path / "trash")
        before = agent_reads((copy / f"{name}.md").read_bytes().decode("utf-8", "replace"))
        fixed = folder.fix(folder.read(name), fix_id)
        after = agent_reads(fixed.path.read_bytes().decode("utf-8"))
        assert _shown(fixed)[:2] == after[:2], (name, fix_id)
        if fix_id in CHANGE_READING:
            assert after != before, (name, fix_id)  # it does what it says
        else:
            assert (after[0], after[1], after[3]) == (before[0], before[1], before[3]), (
                name,
                fix_id,
            )
