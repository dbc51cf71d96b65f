"""Reading a persona folder exactly as the agent does, on a corpus of odd files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memory_desk.core import StoreError
from memory_desk.core.persona import (
    PROMPT_LIMIT,
    PersonaEntry,
    PersonaFolder,
    agent_index,
    default_trash_dir,
)
from memory_desk.core.persona import reading as persona_reading
from persona_corpus import NOT_ENTRIES, build_corpus, snapshot


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[PersonaFolder, dict]:
    folder = tmp_path / "memory"
    expected = build_corpus(folder, tmp_path / "elsewhere")
    return PersonaFolder(folder), expected


def _codes(entry: PersonaEntry) -> set[str]:
    return {p.code for p in entry.problems}


def test_every_corpus_file_reads_as_the_agent_reads_it(corpus) -> None:
    folder, expected = corpus
    entries = {e.name: e for e in folder.entries()}
    assert set(entries) == set(expected)
    for name, expect in expected.items():
        entry = entries[name]
        got = (entry.type, entry.description, entry.updated, entry.body)
        assert got == (expect.type, expect.description, expect.updated, expect.body), name
        assert entry.agent_visible == expect.visible, name
        assert entry.editable == expect.editable, name
        assert _codes(entry) == set(expect.problems), name


def test_read_gives_the_same_entry_as_the_listing(corpus) -> None:
    folder, expected = corpus
    for entry in folder.entries():
        assert folder.read(entry.name) == entry


def test_hidden_swap_backup_other_files_and_subfolders_are_not_entries(corpus) -> None:
    folder, _ = corpus
    names = {e.name for e in folder.entries()}
    for file_name in NOT_ENTRIES:
        assert file_name.removesuffix(".md") not in names
    assert not {"account", "folder-named", "a-fifo", "other-account"} & names
    for bad in (".hidden", "../elsewhere/secret", "account/other-account", ""):
        with pytest.raises(StoreError):
            folder.read(bad)


def test_reading_changes_nothing_on_disk(corpus, tmp_path: Path) -> None:
    folder, _ = corpus
    before = snapshot(tmp_path)
    entries = folder.entries()
    for entry in entries:
        folder.read(entry.name)
        assert not folder.has_changed(entry)
    assert snapshot(tmp_path) == before
    assert not default_trash_dir().exists()


def test_raw_type_is_what_the_file_says(corpus) -> None:
    folder, _ = corpus
    assert folder.read("type-unknown").raw_type == "preference"
    assert folder.read("bom-entry").raw_type == "feedback"
    assert folder.read("no-type-no-updated").raw_type is None
    assert folder.read("bom-entry").type == "user"


def test_extra_keeps_every_other_header_line_in_order(corpus) -> None:
    folder, _ = corpus
    assert folder.read("extra-keys").extra == (("source", "chat"), ("confidence", "high"))
    assert folder.read("list-values").extra == (("tags", "\n  - food\n  - 'drink'"),)


def test_not_utf8_is_shown_with_replacement_characters_and_not_editable(corpus) -> None:
    folder, _ = corpus
    entry = folder.read("latin-1")
    assert "\ufffd" in entry.description and not entry.editable
    assert entry.agent_visible  # the agent reads it too, replacement characters and all


def test_a_link_to_a_file_outside_is_listed_as_the_agent_reads_it_and_read_only(corpus) -> None:
    folder, _ = corpus
    entry = folder.read("link-outside")
    assert (entry.description, entry.body) == ("outside the folder", "private")
    assert entry.agent_visible and not entry.editable
    assert entry.link_target == (folder.path.parent / "elsewhere" / "secret.md").resolve()
    (why,) = [p for p in entry.problems if p.code == "link-outside"]
    assert why.severity == "error" and str(entry.link_target) in why.message
    assert "outside the folder" in why.message and "Forget removes only the link" in why.message
    assert all(p.fix is None for p in entry.problems)  # a fix would write the outside file
    assert "- link-outside (user): outside the folder" in agent_index(folder.entries())


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads everything")
def test_unreadable_file_is_an_error_entry(tmp_path: Path) -> None:
    path = tmp_path / "locked.md"
    path.write_text("---\ntype: user\n---\nx\n")
    path.chmod(0)
    entry = PersonaFolder(tmp_path).read("locked")
    assert {p.code for p in entry.problems} == {"unreadable"} and not entry.editable


def test_order_is_updated_descending_then_name_and_hidden_entries_last(tmp_path: Path) -> None:
    def write(name: str, updated: str | None) -> None:
        line = f"updated: {updated}\n" if updated is not None else ""
        (tmp_path / f"{name}.md").write_text(f"---\ntype: user\n{line}---\nx\n")

    write("b-old", "2026-01-01T00:00:00.000Z")
    write("a-new", "2026-02-01T00:00:00.000Z")
    write("c-new", "2026-02-01T00:00:00.000Z")
    write("no-date", None)
    write("odd-date", "Tuesday")  # sorts as a string, above every ISO date
    write("Hidden Name", "2027-01-01T00:00:00.000Z")
    names = [e.name for e in PersonaFolder(tmp_path).entries()]
    assert names == ["odd-date", "a-new", "c-new", "b-old", "no-date", "Hidden Name"]


def test_entries_beyond_the_prompt_are_flagged(tmp_path: Path) -> None:
    for i in range(PROMPT_LIMIT + 2):
        updated = f"2026-01-01T00:00:{i:02d}.000Z"
        (tmp_path / f"e-{i:03d}.md").write_text(f"---\nupdated: {updated}\n---\nx\n")
    entries = PersonaFolder(tmp_path).entries()
    flagged = [e.name for e in entries if "beyond-prompt" in _codes(e)]
    assert flagged == ["e-001", "e-000"]


def test_has_changed_compares_content_not_times(tmp_path: Path) -> None:
    path = tmp_path / "entry.md"
    path.write_text("---\ndescription: one\n---\nx\n")
    folder = PersonaFolder(tmp_path)
    entry = folder.read("entry")
    stamp = path.stat().st_mtime_ns
    os.utime(path, ns=(stamp + 5_000_000_000, stamp + 5_000_000_000))
    assert not folder.has_changed(entry)
    path.write_text("---\ndescription: two\n---\nx\n")  # same size
    os.utime(path, ns=(stamp, stamp))  # and the same mtime
    assert folder.has_changed(entry)
    path.unlink()
    assert folder.has_changed(entry)


def test_a_folder_that_is_not_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError):
        PersonaFolder(tmp_path / "missing")
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError):
        PersonaFolder(tmp_path / "file")


def test_a_listing_never_returns_stale_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(persona_reading, "RACY_NS", -1)  # cache even files written just now
    path = tmp_path / "entry.md"
    path.write_text("---\ndescription: one\n---\nx\n")
    folder = PersonaFolder(tmp_path)
    assert folder.entries()[0].description == "one"
    stamp = path.stat().st_mtime_ns
    path.write_text("---\ndescription: two\n---\nx\n")  # same size, same mtime:
    os.utime(path, ns=(stamp, stamp))  # only the change time tells
    assert folder.entries()[0].description == "two"
    path.unlink()
    assert folder.entries() == []


def test_a_listing_keeps_no_file_changed_within_the_racy_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Git's "racily clean" rule, checked once a batch: a file changed less than RACY_NS
    before its listing is read again by the next one; an older one is taken from the cache."""
    for name in ("one", "two"):
        (tmp_path / f"{name}.md").write_text("---\ndescription: one\n---\nx\n")
    monkeypatch.setattr(persona_reading, "RACY_NS", 60 * 1_000_000_000)
    folder = PersonaFolder(tmp_path)
    first = folder.entries()
    second = folder.entries()
    assert not any(a is b for a, b in zip(first, second, strict=True))  # (changed lately)
    monkeypatch.setattr(persona_reading, "RACY_NS", 1)
    third = folder.entries()
    assert all(a is b for a, b in zip(third, folder.entries(), strict=True))  # (kept)
