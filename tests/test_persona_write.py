"""Writing persona entries: round trips, conflicts, create, rename, forget, undo and fixes."""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_desk.core import ConflictError, StoreError, persona
from memory_desk.core.persona import (
    PersonaEntry,
    PersonaFolder,
    agent_description,
    default_trash_dir,
    suggest_name,
    validate_name,
)
from memory_desk.core.persona.rewrites import description_from_body
from memory_desk.core.persona_format import parse_text
from persona_corpus import CORPUS, build_corpus

ISO_RE = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
EDITABLE_WITH_HEADER = [
    name
    for name, e in CORPUS.items()
    if e.editable and parse_text(e.data.decode("utf-8")).header_found and e.description
]
# the agent cannot update an entry without a description, so saving one is refused
NO_DESCRIPTION = [
    name
    for name, e in CORPUS.items()
    if e.editable and parse_text(e.data.decode("utf-8")).header_found and not e.description
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
    # the agent's closing line: the first that starts with "---", never the one after the opening
    header_end = next(i for i in range(2, len(before)) if before[i].startswith(b"---"))
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


def test_a_description_is_stored_on_one_line_as_the_agent_stores_it(
    folder: PersonaFolder,
) -> None:
    entry = folder.read("plain-entry")
    saved = folder.save(dataclasses.replace(entry, description=" Calls\u2028her\r\n\tFran \ufeff"))
    assert b"\ndescription: Calls her Fran\n" in saved.path.read_bytes()
    assert saved.description == "Calls her Fran"


@pytest.mark.parametrize("description", ["", "   ", "\n\t\u3000\ufeff"])
def test_save_and_create_refuse_an_empty_description(
    folder: PersonaFolder, description: str
) -> None:
    entry = folder.read("plain-entry")
    before, listing = entry.path.read_bytes(), _listing(folder)
    with pytest.raises(StoreError, match="needs a description"):
        folder.save(dataclasses.replace(entry, description=description, body="New"))
    with pytest.raises(StoreError, match="needs a description"):
        folder.create(name="new-entry", type="user", description=description, body="x")
    assert entry.path.read_bytes() == before and _listing(folder) == listing


@pytest.mark.parametrize("name", NO_DESCRIPTION)
def test_an_entry_without_description_cannot_be_saved_until_it_has_one(
    folder: PersonaFolder, name: str
) -> None:
    entry = folder.read(name)
    before = entry.path.read_bytes()
    with pytest.raises(StoreError, match="needs a description"):
        folder.save(dataclasses.replace(entry, body="Edited"))
    assert entry.path.read_bytes() == before
    saved = folder.save(dataclasses.replace(entry, body="Edited", description="Now it has one"))
    assert (saved.description, saved.body) == ("Now it has one", "Edited")


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
    "name", ["", "My Note", "snake_case", "a--b", "-a", "a-", "../x", "con", "lpt1", "a" * 253]
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


# ----------------------------------------------------------------------------- descriptions


def _agent_file(folder: Path, name: str, description: str, body: str) -> Path:
    """A file exactly as the agent writes it (tests/agents/persona_agent.py's shape)."""
    path = folder / f"{name}.md"
    path.write_bytes(
        f"---\nname: {name}\ndescription: {description}\ntype: feedback\n"
        f"updated: 2026-10-07T13:15:05.678Z\n---\n\n{body}\n".encode()
    )
    return path


@pytest.mark.parametrize(
    ("body", "filled"),
    [
        ("# Short answers\n\nThree lines at most.", "Short answers"),
        (
            "**Rule:** never tell *fish* jokes. See [the list](list.md).",
            "Rule: never tell fish jokes. See the list.",
        ),
        ("```\nprint('code first')\n```\n\n> Prefers tabs\u2028over spaces", "Prefers tabs"),
        ("---\n\n- [ ] Ask before\tpushing\x1c  to main", "Ask before pushing to main"),
        ("word " * 60, ("word " * 23).strip() + "…"),
    ],
)
def test_fill_description_takes_the_bodys_first_line_of_prose(
    folder: PersonaFolder, body: str, filled: str
) -> None:
    path = _agent_file(folder.path, "no-description", "", body)
    before = path.read_bytes()
    entry = folder.read("no-description")
    (problem,) = [p for p in entry.problems if p.code == "description"]
    assert "cannot update this entry: it needs a description" in problem.message
    assert problem.fix == "fill-description"
    fixed = folder.fix(entry, "fill-description")
    assert fixed.description == filled and "description" not in {p.code for p in fixed.problems}
    ((old, new),) = _changed_lines(before, path.read_bytes())  # only that line, updated kept
    assert old == b"description: \n" and new == f"description: {filled}\n".encode()
    assert (fixed.type, fixed.body, fixed.updated) == (entry.type, entry.body, entry.updated)


def test_no_fill_is_offered_when_the_body_has_no_prose(folder: PersonaFolder) -> None:
    _agent_file(folder.path, "only-code", "", "```\nx = 1\n```")
    entry = folder.read("only-code")
    (problem,) = [p for p in entry.problems if p.code == "description"]
    assert problem.fix is None and "Type one" in problem.message
    with pytest.raises(StoreError):
        folder.fix(entry, "fill-description")


def test_a_description_only_of_spaces_in_the_file_is_not_flagged(folder: PersonaFolder) -> None:
    """The agent reads a quoted '  ' as a description (a non-empty string), so it can update."""
    _agent_file(folder.path, "spaces", '"  "', "x")
    assert "description" not in {p.code for p in folder.read("spaces").problems}


# ----------------------------------------------------------------------------- odd file names


CONTROL_NAMES = ["new\nline", "carriage\rreturn", "nul\x01x", "del\x7fx", "c1\x85x", "ls\u2028x"]


@pytest.mark.parametrize("stem", CONTROL_NAMES)
def test_set_name_on_a_control_character_name_renames_to_kebab_case(
    folder: PersonaFolder, stem: str
) -> None:
    path = folder.path / f"{stem}.md"
    path.write_bytes(_entry_bytes("something-else", "A note"))
    entry = folder.read(stem)
    assert "set-name" in {p.fix for p in entry.problems}
    fixed = folder.fix(entry, "set-name")
    assert validate_name(fixed.name) is None and fixed.name == suggest_name(stem)
    data = fixed.path.read_bytes()
    assert f"\nname: {fixed.name}\n".encode() in data
    assert not any(c in data.decode() for c in "\r\x01\x7f\x85\u2028")
    assert not path.exists() and fixed.agent_visible


@pytest.mark.parametrize("stem", CONTROL_NAMES)
def test_header_writes_never_carry_a_control_character_name(
    folder: PersonaFolder, stem: str
) -> None:
    (folder.path / f"{stem}.md").write_bytes(b"Just text, no header.\n")
    fixed = folder.fix(folder.read(stem), "add-header")
    assert fixed.path.read_bytes().startswith(f"---\nname: {suggest_name(stem)}\n".encode())
    (folder.path / f"{stem}-2.md").write_bytes(b"Just text, no header.\n")
    entry = folder.read(f"{stem}-2")
    saved = folder.save(dataclasses.replace(entry, description="Saved"))
    header = saved.path.read_bytes().split(b"\n---\n")[0].decode()
    assert header.splitlines()[1] == f"name: {suggest_name(stem + '-2')}"
    (named,) = [p for p in saved.problems if p.code == "name-not-kebab"]
    assert "\n" not in named.message and "\u2028" not in named.message  # shown escaped


def _entry_bytes(name: str, description: str) -> bytes:
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: user\n"
        "updated: 2026-10-07T13:15:05.678Z\n---\n\nText.\n"
    ).encode()


@pytest.mark.skipif(os.name != "posix", reason="file names are bytes on POSIX only")
def test_a_file_name_that_is_not_utf8_is_read_shown_escaped_and_renamed(
    folder: PersonaFolder,
) -> None:
    raw = os.path.join(os.fsencode(folder.path), b"caf\xe9.md")
    with open(raw, "wb") as handle:
        handle.write(_entry_bytes("cafe", "Likes coffee"))
    entry = folder.read("caf\udce9")
    (problem,) = [p for p in entry.problems if p.code == "name-not-kebab"]
    assert "caf\\xe9" in problem.message and "\udce9" not in problem.message
    fixed = folder.fix(entry, "rename")
    assert fixed.name == "caf" and not os.path.exists(raw)


# ----------------------------------------------------------------------------- unstorable text


@pytest.mark.parametrize("field", ["body", "description"])
def test_a_lone_surrogate_is_refused_before_anything_is_written(
    folder: PersonaFolder, field: str
) -> None:
    entry = folder.read("plain-entry")
    before, listing = entry.path.read_bytes(), _listing(folder)
    with pytest.raises(StoreError, match="cannot be stored"):
        folder.save(dataclasses.replace(entry, **{field: "half \ud83d of a smile"}))
    values = {"name": "new-entry", "type": "user", "description": "d", "body": "b"}
    with pytest.raises(StoreError, match="cannot be stored"):
        folder.create(**{**values, field: "half \ud83d of a smile"})
    assert entry.path.read_bytes() == before and _listing(folder) == listing


def test_a_name_that_cannot_be_stored_is_refused(folder: PersonaFolder) -> None:
    listing = _listing(folder)
    for name in ("caf\udce9", "a\ud800b"):
        with pytest.raises(StoreError):
            folder.create(name=name, type="user", description="d", body="b")
        with pytest.raises(StoreError):
            folder.rename(folder.read("plain-entry"), name)
    assert _listing(folder) == listing


# ----------------------------------------------------------------------------- links


def test_a_link_to_a_file_outside_is_never_renamed_or_fixed(folder: PersonaFolder) -> None:
    entry = folder.read("link-outside")
    target = entry.link_target
    before = target.read_bytes()
    with pytest.raises(StoreError, match="outside the folder"):
        folder.rename(entry, "renamed")
    with pytest.raises(StoreError, match="outside the folder"):
        folder.fix(entry, "set-name")
    with pytest.raises(StoreError, match="outside the folder"):
        folder.save(dataclasses.replace(entry, body="mine"), force=True)
    assert target.read_bytes() == before and (folder.path / "link-outside.md").is_symlink()
    folder.forget("link-outside")  # removes the link only
    assert target.read_bytes() == before


# ----------------------------------------------------------------------------- properties

# any storable text, biased towards line breaks and markdown marks
_PIECES = st.characters(blacklist_categories=("Cs",)) | st.sampled_from(
    ["\n", "\r\n", "\u2028", "\t", "#", "*", "`", "```", "- ", "> ", "[a](b)", "word "]
)
_TEXT = st.lists(_PIECES, max_size=80).map("".join)


@settings(max_examples=150, deadline=None)
@given(body=_TEXT)
def test_a_description_guess_is_one_short_line_the_agent_keeps_as_it_is(body: str) -> None:
    guess = description_from_body(body)
    assert guess == agent_description(guess)  # one line, as the agent would store it
    assert len(guess) <= persona.DESCRIPTION_GUESS_LIMIT
    assert not re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", guess)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(description=_TEXT)
def test_save_stores_a_description_as_the_agent_would_or_refuses_an_empty_one(
    tmp_path: Path, description: str
) -> None:
    folder_path = Path(tempfile.mkdtemp(dir=tmp_path))  # a fresh folder for each example
    _agent_file(folder_path, "entry", "Before", "Body")
    folder = PersonaFolder(folder_path, trash=tmp_path / "trash")
    entry = folder.read("entry")
    if not agent_description(description):
        with pytest.raises(StoreError):
            folder.save(dataclasses.replace(entry, description=description))
        return
    saved = folder.save(dataclasses.replace(entry, description=description))
    assert saved.description == agent_description(description)
    assert folder.read("entry").description == agent_description(description)


def test_a_link_inside_the_folder_is_not_renamed_and_says_where_its_file_is(
    folder: PersonaFolder,
) -> None:
    entry = folder.read("link-inside")
    with pytest.raises(StoreError, match="is a link to .*plain-entry.md"):
        folder.rename(entry, "renamed")
    assert (folder.path / "link-inside.md").is_symlink()


# ----------------------------------------------------------------------------- long names

LONGEST = "a" * 120 + "-" + "b" * 130  # 251 characters: "<name>.md" is 254 bytes


@pytest.mark.parametrize("length", [251, 252])
def test_a_name_at_the_file_systems_limit_is_saved_renamed_forgotten_and_undone(
    tmp_path: Path, length: int
) -> None:
    """Temporary, aside and trash names never make a path component longer than the entry's
    own: every step works where the entry's file name itself just fits (255 bytes)."""
    name = (LONGEST + "c")[:length]
    other = "z" + name[1:]
    folder_path = tmp_path / "memory"
    folder_path.mkdir()
    trash = tmp_path / "trash"
    folder = PersonaFolder(folder_path, trash=trash)
    assert validate_name(name) is None
    created = folder.create(name=name, type="user", description="Long", body="First.")
    saved = folder.save(dataclasses.replace(created, body="Second."))
    renamed = folder.rename(saved, other)
    back = folder.undo_rename(renamed, name)
    trashed = folder.forget(name)
    component = max(len(p.name.encode()) for p in [*folder_path.iterdir(), *trash.rglob("*")])
    assert component == len(f"{name}.md")  # the trash copy's own name, and nothing longer
    assert folder.unforget(trashed).body == "Second."
    assert back.name == name and folder.names() == [name]
    assert validate_name(name + "x" * (253 - length)) is not None  # 253: one byte too many
