"""Writing persona entries: round trips, conflicts, create, rename, forget, undo and fixes."""

from __future__ import annotations

import dataclasses
import os
import re
import stat
from pathlib import Path

import pytest

from memory_desk.core import ConflictError, StoreError
from memory_desk.core.persona import (
    PersonaEntry,
    PersonaFolder,
    default_trash_dir,
    suggest_name,
    validate_name,
)
from persona_corpus import CORPUS, build_corpus

ISO_RE = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
EDITABLE_WITH_HEADER = [
    name
    for name, e in CORPUS.items()
    if e.editable and e.data.startswith((b"---\n", b"---\r\n")) and name != "unclosed-header"
]


@pytest.fixture
def folder(tmp_path: Path) -> PersonaFolder:
    build_corpus(tmp_path / "memory", tmp_path / "elsewhere")
    return PersonaFolder(tmp_path / "memory")


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _changed_lines(before: bytes, after: bytes) -> list[tuple[bytes, bytes]]:
    """Pairs of differing lines, for files with the same number of lines."""
    a, b = _lines(before), _lines(after)
    assert len(a) == len(b)
    return [(x, y) for x, y in zip(a, b, strict=True) if x != y]


def _listing(folder: PersonaFolder) -> set[str]:
    return set(os.listdir(folder.path))


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("name", EDITABLE_WITH_HEADER)
def test_saving_unchanged_touches_only_the_updated_line(folder: PersonaFolder, name: str) -> None:
    entry = folder.read(name)
    before = _lines(entry.path.read_bytes())
    saved = folder.save(entry)
    after = _lines(saved.path.read_bytes())
    new_lines = [
        i
        for i, line in enumerate(after)
        if re.fullmatch(rb"updated: " + ISO_RE.pattern + rb"\r?\n", line)
    ]
    assert len(new_lines) == 1
    new_line = after.pop(new_lines[0])
    assert new_line.endswith(entry.newline.encode())
    header_end = next(i for i in range(1, len(before)) if before[i].rstrip(b"\r\n") == b"---")
    old_updated = [i for i in range(1, header_end) if before[i].startswith(b"updated:")]
    if old_updated:  # replaced in place, at the same position
        assert before.pop(old_updated[-1]) != new_line and new_lines[0] == old_updated[-1]
    else:  # appended at the end of the header
        assert new_lines[0] == header_end
    assert after == before
    assert saved == folder.read(name)
    assert not folder.has_changed(saved)


def test_changing_the_body_keeps_every_header_line_but_updated(folder: PersonaFolder) -> None:
    entry = folder.read("extra-keys")
    before = entry.path.read_bytes()
    saved = folder.save(dataclasses.replace(entry, body="New text.\n\nSecond paragraph."))
    after = saved.path.read_bytes()
    head_before, _, _ = before.partition(b"\n---\n")
    head_after, _, body_after = after.partition(b"\n---\n")
    changed = _changed_lines(head_before, head_after)
    assert [old.split(b":")[0] for old, _ in changed] == [b"updated"]
    assert body_after == b"\nNew text.\n\nSecond paragraph.\n"
    assert saved.body == "New text.\n\nSecond paragraph."


def test_changing_description_and_type_rewrites_only_those_lines_in_place(
    folder: PersonaFolder,
) -> None:
    entry = folder.read("crlf-entry")
    before = entry.path.read_bytes()
    edited = dataclasses.replace(entry, description='"Quoted" too', type="user")
    after = folder.save(edited).path.read_bytes()
    changed = _changed_lines(before, after)
    assert [old for old, _ in changed] == [
        b"description: Short answers\r\n",
        b"type: feedback\r\n",
        b"updated: 2026-10-07T13:15:05.678Z\r\n",
    ]
    assert changed[0][1] == b'description: ""Quoted" too"\r\n'
    assert changed[1][1] == b"type: user\r\n"
    reread = folder.read("crlf-entry")
    assert (reread.description, reread.type, reread.body) == ('"Quoted" too', "user", entry.body)


def test_a_crlf_body_edit_keeps_crlf(folder: PersonaFolder) -> None:
    entry = folder.read("crlf-entry")
    after = folder.save(dataclasses.replace(entry, body="one\ntwo")).path.read_bytes()
    assert after.endswith(b"---\r\n\r\none\r\ntwo\r\n")
    assert b"\n" not in after.replace(b"\r\n", b"")


def test_a_list_description_is_replaced_with_its_items(folder: PersonaFolder) -> None:
    entry = folder.read("block-list-description")
    after = folder.save(dataclasses.replace(entry, description="One line")).path.read_bytes()
    assert b"  - one" not in after and b"description: One line\n" in after


def test_saving_a_file_without_header_writes_the_agent_header(folder: PersonaFolder) -> None:
    entry = folder.read("no-header")
    saved = folder.save(dataclasses.replace(entry, description="Likes tea", type="feedback"))
    data = saved.path.read_bytes()
    assert data.startswith(b"---\nname: no-header\ndescription: Likes tea\ntype: feedback\n")
    assert data.endswith(b"---\n\n# Likes\n\nTea, not coffee.\n")
    assert not {p.code for p in saved.problems}


def test_save_keeps_the_file_mode(folder: PersonaFolder) -> None:
    entry = folder.read("plain-entry")
    entry.path.chmod(0o640)
    saved = folder.save(dataclasses.replace(entry, body="x"))
    assert stat.S_IMODE(saved.path.stat().st_mode) == 0o640


def test_save_through_a_link_inside_the_folder_keeps_the_link(folder: PersonaFolder) -> None:
    entry = folder.read("link-inside")
    folder.save(dataclasses.replace(entry, body="Through the link"))
    assert entry.path.is_symlink()
    assert folder.read("plain-entry").body == "Through the link"


@pytest.mark.parametrize("name", ["latin-1", "bom-entry", "link-outside", "link-broken"])
def test_error_entries_are_never_saved(folder: PersonaFolder, name: str) -> None:
    entry = folder.read(name)
    target = folder.path.parent / "elsewhere" / "secret.md"
    before = (entry.path.read_bytes() if entry.path.exists() else None, target.read_bytes())
    with pytest.raises(StoreError):
        folder.save(dataclasses.replace(entry, body="overwritten"), force=True)
    after = (entry.path.read_bytes() if entry.path.exists() else None, target.read_bytes())
    assert after == before


def test_save_refuses_a_description_on_two_lines(folder: PersonaFolder) -> None:
    with pytest.raises(StoreError):
        folder.save(dataclasses.replace(folder.read("plain-entry"), description="a\nb"))


def test_no_temporary_file_is_left_behind(folder: PersonaFolder) -> None:
    before = _listing(folder)
    folder.save(dataclasses.replace(folder.read("plain-entry"), body="x"))
    assert _listing(folder) == before


# ----------------------------------------------------------------------------- conflicts


def test_a_write_between_read_and_save_is_a_conflict(folder: PersonaFolder) -> None:
    entry = folder.read("plain-entry")
    theirs = entry.path.read_bytes().replace(b"Francisca", b"Paquita!!")  # same size
    stamp = entry.path.stat().st_mtime_ns
    entry.path.write_bytes(theirs)
    os.utime(entry.path, ns=(stamp, stamp))  # even with the same mtime
    with pytest.raises(ConflictError):
        folder.save(dataclasses.replace(entry, body="mine"))
    assert entry.path.read_bytes() == theirs
    saved = folder.save(dataclasses.replace(entry, body="mine"), force=True)
    assert saved.body == "mine"


def test_a_deleted_file_is_a_conflict(folder: PersonaFolder) -> None:
    entry = folder.read("plain-entry")
    entry.path.unlink()
    with pytest.raises(ConflictError):
        folder.save(dataclasses.replace(entry, body="mine"))
    assert not entry.path.exists()


# ----------------------------------------------------------------------------- create


def test_create_writes_exactly_the_agents_format(folder: PersonaFolder) -> None:
    created = folder.create(
        name="no-fish-puns",
        type="feedback",
        description="Dislikes puns about fish; avoid fish-themed jokes",
        body="  Rule: never tell jokes or puns about fish.\n\n",
    )
    expected = (
        "---\nname: no-fish-puns\ndescription: Dislikes puns about fish; avoid fish-themed jokes\n"
        f"type: feedback\nupdated: {created.updated}\n---\n\n"
        "Rule: never tell jokes or puns about fish.\n"
    ).encode()
    assert created.path.read_bytes() == expected
    assert ISO_RE.fullmatch(created.updated.encode())
    assert created.problems == () and created.agent_visible
    assert created == folder.read("no-fish-puns")


def test_create_never_overwrites(folder: PersonaFolder) -> None:
    before = (folder.path / "plain-entry.md").read_bytes()
    with pytest.raises(ConflictError):
        folder.create(name="plain-entry", type="user", description="x", body="x")
    assert (folder.path / "plain-entry.md").read_bytes() == before


@pytest.mark.parametrize(
    "name", ["", "My Note", "snake_case", "a--b", "-a", "a-", "../x", "con", "lpt1", "a" * 101]
)
def test_create_refuses_bad_names(folder: PersonaFolder, name: str) -> None:
    assert validate_name(name) is not None
    before = _listing(folder)
    with pytest.raises(StoreError):
        folder.create(name=name, type="user", description="x", body="x")
    assert _listing(folder) == before


def test_suggest_name() -> None:
    assert suggest_name("My Note") == "my-note"
    assert suggest_name("Café  Olé!") == "cafe-ole"
    assert suggest_name("CON") == "con-entry"
    assert suggest_name("???") == "entry"
    assert suggest_name("my_note", taken={"my-note", "my-note-2"}) == "my-note-3"
    assert validate_name(suggest_name("x" * 300)) is None


# ----------------------------------------------------------------------------- rename, forget


def test_rename_moves_the_file_and_keeps_a_copy_in_the_trash(folder: PersonaFolder) -> None:
    entry = folder.read("crlf-entry")
    before = entry.path.read_bytes()
    renamed = folder.rename(entry, "short-answers")
    assert not entry.path.exists()
    after = renamed.path.read_bytes()
    assert after == before.replace(b"name: crlf-entry\r\n", b"name: short-answers\r\n")
    assert _listing(folder) - {"short-answers.md"} == _listing(folder) - {"short-answers.md"}
    assert "crlf-entry.md" not in _listing(folder)
    trashed = folder.trashed()
    assert [(t.name, t.reason, t.renamed_to) for t in trashed] == [
        ("crlf-entry", "rename", "short-answers")
    ]
    assert not trashed[0].path.is_relative_to(folder.path)
    restored = folder.undo_rename(renamed, "crlf-entry")
    assert restored.path.read_bytes() == before
    assert not renamed.path.exists() and folder.trashed() == []


def test_rename_onto_an_existing_name_is_refused(folder: PersonaFolder) -> None:
    before = _listing(folder)
    with pytest.raises(ConflictError):
        folder.rename(folder.read("crlf-entry"), "plain-entry")
    assert _listing(folder) == before


def test_rename_of_a_changed_file_is_refused(folder: PersonaFolder) -> None:
    entry = folder.read("plain-entry")
    entry.path.write_bytes(entry.path.read_bytes() + b"more\n")
    with pytest.raises(ConflictError):
        folder.rename(entry, "renamed")
    assert entry.path.exists() and not (folder.path / "renamed.md").exists()
    assert folder.trashed() == []


def test_forget_and_unforget_restore_the_exact_file(folder: PersonaFolder) -> None:
    path = folder.path / "extra-keys.md"
    path.chmod(0o604)
    before_bytes, listing = path.read_bytes(), _listing(folder)
    trashed = folder.forget("extra-keys")
    assert _listing(folder) == listing - {"extra-keys.md"}
    assert trashed.path.is_relative_to(default_trash_dir())
    assert "extra-keys" not in {e.name for e in folder.entries()}
    restored = folder.unforget(trashed)
    assert path.read_bytes() == before_bytes and stat.S_IMODE(path.stat().st_mode) == 0o604
    assert _listing(folder) == listing
    assert restored == folder.read("extra-keys")


def test_unforget_refuses_when_the_name_is_taken_again(folder: PersonaFolder) -> None:
    trashed = folder.forget("plain-entry")
    (folder.path / "plain-entry.md").write_text("the agent wrote it again\n")
    with pytest.raises(ConflictError):
        folder.unforget(trashed)
    assert (folder.path / "plain-entry.md").read_text() == "the agent wrote it again\n"
    assert trashed.path.exists()


def test_forget_a_link_and_undo(folder: PersonaFolder) -> None:
    trashed = folder.forget("link-outside")
    assert not os.path.lexists(folder.path / "link-outside.md")
    folder.unforget(trashed)
    assert (folder.path / "link-outside.md").is_symlink()


def test_forget_unknown_name(folder: PersonaFolder) -> None:
    with pytest.raises(StoreError):
        folder.forget("nobody")


# ----------------------------------------------------------------------------- fixes


def _fixed(folder: PersonaFolder, name: str, fix_id: str) -> tuple[bytes, PersonaEntry]:
    entry = folder.read(name)
    assert fix_id in {p.fix for p in entry.problems}
    before = entry.path.read_bytes()
    return before, folder.fix(entry, fix_id)


def test_fix_remove_bom(folder: PersonaFolder) -> None:
    before, fixed = _fixed(folder, "bom-entry", "remove-bom")
    assert fixed.path.read_bytes() == before[3:]
    assert (fixed.type, fixed.description, fixed.editable) == ("feedback", "Hidden by a BOM", True)


def test_fix_add_header(folder: PersonaFolder) -> None:
    before, fixed = _fixed(folder, "no-header", "add-header")
    data = fixed.path.read_bytes()
    assert data.startswith(b"---\nname: no-header\ndescription: Likes\ntype: user\nupdated: ")
    assert data.endswith(b"---\n\n" + before)
    assert fixed.body == "# Likes\n\nTea, not coffee."


@pytest.mark.parametrize(
    ("name", "fix_id", "old", "new"),
    [
        ("name-mismatch", "set-name", b"name: something-else\n", b"name: name-mismatch\n"),
        ("type-unknown", "set-type", b"type: preference\n", b"type: user\n"),
    ],
)
def test_fixes_that_change_one_line(
    folder: PersonaFolder, name: str, fix_id: str, old: bytes, new: bytes
) -> None:
    before, fixed = _fixed(folder, name, fix_id)
    assert _changed_lines(before, fixed.path.read_bytes()) == [(old, new)]
    assert fix_id not in {p.fix for p in fixed.problems}


def test_fix_set_updated(folder: PersonaFolder) -> None:
    before, fixed = _fixed(folder, "not-iso-updated", "set-updated")
    ((old, new),) = _changed_lines(before, fixed.path.read_bytes())
    assert old == b"updated: 2026-10-07\n" and ISO_RE.search(new)


def test_fix_rename_gives_a_kebab_name(folder: PersonaFolder) -> None:
    _, fixed = _fixed(folder, "My Note", "rename")
    assert fixed.name == "my-note" and fixed.agent_visible
    assert not (folder.path / "My Note.md").exists()


def test_a_fix_on_a_changed_file_is_a_conflict(folder: PersonaFolder) -> None:
    entry = folder.read("type-unknown")
    entry.path.write_text("changed\n")
    with pytest.raises(ConflictError):
        folder.fix(entry, "set-type")
    assert entry.path.read_text() == "changed\n"


def test_saving_a_bom_file_without_header_drops_the_mark(folder: PersonaFolder) -> None:
    entry = folder.read("bom-no-header")
    saved = folder.save(dataclasses.replace(entry, description="A note"))
    data = saved.path.read_bytes()
    assert data.startswith(b"---\nname: bom-no-header\ndescription: A note\ntype: user\n")
    assert data.endswith(b"---\n\nJust a note with a BOM.\n")


def test_save_does_not_rename(folder: PersonaFolder) -> None:
    entry = folder.read("plain-entry")
    with pytest.raises(StoreError):
        folder.save(dataclasses.replace(entry, name="other-name"))
    assert not (folder.path / "other-name.md").exists()


def test_forget_refuses_what_is_not_an_entry_file(folder: PersonaFolder) -> None:
    with pytest.raises(StoreError):
        folder.forget("folder-named")
    assert (folder.path / "folder-named.md").is_dir()


def test_rename_and_forget_leave_no_temporary_files(folder: PersonaFolder) -> None:
    listing = _listing(folder)
    renamed = folder.rename(folder.read("plain-entry"), "fran")
    folder.forget("fran")
    assert _listing(folder) == listing - {"plain-entry.md"}
    assert len(folder.trashed()) == 2
    assert renamed.name == "fran"


def test_undo_rename_refuses_to_lose_an_edit_made_after_the_rename(folder: PersonaFolder) -> None:
    renamed = folder.rename(folder.read("plain-entry"), "fran")
    edited = folder.save(dataclasses.replace(renamed, body="Edited after the rename"))
    with pytest.raises(ConflictError):
        folder.undo_rename(folder.read("fran"), "plain-entry")
    assert folder.read("fran").body == "Edited after the rename" == edited.body
    assert not (folder.path / "plain-entry.md").exists()
