"""Property-based tests (hypothesis) for what people and agents type or name: search text, header
text, entry names and paths.

The stores are real: a database built with the plugin's DDL and filled by its ``memory_save``
rules, folders of entry files written as agent-kit writes them. Whatever is typed or named, the
core either answers or raises a ``StoreError`` (a sentence for the person), never anything else;
and where there is a simple oracle (literal containment for search, the whole file for a large
entry's header, the name rules), the answer agrees with it.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memory_desk.core import StoreError, alisio
from memory_desk.core.locate import describe_folder
from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import (
    LARGE_ENTRY_BYTES,
    MAX_NAME_LENGTH,
    START_BYTES,
    PersonaFolder,
    is_start_only,
    printable_name,
    suggest_name,
    validate_name,
)
from memory_desk.core.persona_format import render_new_file

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- search text ----------------------------------------------------------------------------------

# A small alphabet, so that random words often occur in the rows; with the characters LIKE and
# FTS5 treat specially (wildcards, escapes, quotes, operators) and both cases.
ALPHABET = "abcAB _%\\\"'*-():^.+"


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ObservationStore, list]]:
    """A database of rows over ``ALPHABET`` saved by the plugin's rules, and those rows as
    stored (id, title, content, topic_key): the oracle reads what the database holds."""
    path = tmp_path_factory.mktemp("search") / "memory.sqlite"
    alisio.create_database(path)
    rng = random.Random(9)
    conn = alisio.connect_like_plugin(path)
    try:
        for n in range(40):
            words = ["".join(rng.choices(ALPHABET.replace(" ", ""), k=rng.randint(1, 6)))]
            words += ["".join(rng.choices(ALPHABET, k=rng.randint(1, 8))) for _ in range(3)]
            alisio.save_observation(
                conn,
                title=f"{words[0]} {words[1]}",
                content=f"{words[2]} row {n}",
                type="decision",
                project="alpha-1a2b3c4d",
                topic_key=words[3].strip() or None if n % 3 == 0 else None,
                now=1_790_000_000_000 + n * 1000,
            )
        rows = conn.execute(
            "SELECT id, title, content, topic_key FROM observations WHERE deleted_at IS NULL"
        ).fetchall()
    finally:
        conn.close()
    store = ObservationStore(path)
    yield store, rows
    store.close()


def containment_oracle(rows: list, text: str) -> set[int]:
    """The rows where every typed word (as the search splits them) is in the title, the
    content or the topic key, ignoring ASCII case (LIKE's and FTS5 trigram's rule alike)."""
    words = text.replace("\x00", " ").split()
    found = set()
    for oid, title, content, topic_key in rows:
        columns = [(value or "").lower() for value in (title, content, topic_key)]
        if all(any(word.lower() in column for column in columns) for word in words):
            found.add(oid)
    return found


@PROPERTY
@given(st.text(alphabet=ALPHABET, max_size=14))
@example('"')
@example("a%")
@example("\\_")
@example('ab" OR "c')
@example("NEAR(ab c)")
def test_search_finds_exactly_the_rows_that_contain_every_word(searched, text: str) -> None:
    store, rows = searched
    assert set(store.search_ids(text)) == containment_oracle(rows, text)
    assert store.count(text) == len(containment_oracle(rows, text))


@PROPERTY
@given(st.text(max_size=30))
@example("\ud800 abc")
@example("abc\x00def")
@example("\u2028\u00a0\ufeff")
def test_any_text_typed_in_search_answers_or_says_why(searched, text: str) -> None:
    store, rows = searched
    try:
        found = set(store.search_ids(text))
    except StoreError:
        return
    assert found <= {row[0] for row in rows}


# -- header text: a large entry's start reads as the whole file ------------------------------------

one_line = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x85\u2028\u2029"),
    max_size=60,
)


@PROPERTY
@given(
    description=one_line,
    kind=st.sampled_from(["user", "feedback"]),
    filler=st.sampled_from(["x", "é", "€", "😀", "a\n"]),
    shift=st.integers(0, 3),
)
@example(description="<img src=x.png> & <a href='y'>", kind="user", filler="😀", shift=1)
def test_a_large_entry_listed_from_its_start_reads_as_the_whole_file(
    description: str, kind: str, filler: str, shift: int
) -> None:
    """The listing reads only the start of a large file: its header must read exactly as the
    whole file's does (name, type, description, updated), and a character the cut splits in
    two must not make the file look not UTF-8."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        body = "#" * shift + filler * (LARGE_ENTRY_BYTES // len(filler.encode()) + 10)
        text = render_new_file(
            name="big-notes",
            description=description or "about",
            type=kind,
            updated="2026-10-02T17:03:11.532Z",
            body=body,
        )
        (folder / "big-notes.md").write_bytes(text.encode())
        store = PersonaFolder(folder, trash=folder / ".trash-unused")
        (listed,) = store.entries()
        whole = store.read("big-notes")
    assert is_start_only(listed) and not is_start_only(whole)
    for field in ("name", "type", "raw_type", "description", "updated", "extra", "agent_visible"):
        assert getattr(listed, field) == getattr(whole, field), field
    assert whole.body.startswith(listed.body)
    assert len(listed.body.encode()) <= START_BYTES
    assert "not-utf8" not in {problem.code for problem in listed.problems}
    assert not listed.editable and whole.editable
    assert all(problem.fix is None for problem in listed.problems)


# -- names ---------------------------------------------------------------------------------------

names = st.one_of(
    st.text(max_size=120),
    st.from_regex(r"[a-z0-9]+(-[a-z0-9]+){0,5}", fullmatch=True),
    st.binary(max_size=40).map(os.fsdecode),  # file names that are not UTF-8
)


@PROPERTY
@given(names, st.sets(st.from_regex(r"[a-z0-9]+(-[a-z0-9]+)*", fullmatch=True), max_size=5))
@example("entry", {"entry", "entry-2"})
@example("con", set())
@example("x" * 150, {"x" * MAX_NAME_LENGTH})
def test_a_suggested_name_is_always_one_the_agent_reads_and_free(name: str, taken: set) -> None:
    suggestion = suggest_name(name, taken)
    assert validate_name(suggestion) is None
    assert suggestion not in taken


@PROPERTY
@given(names)
def test_a_valid_name_is_its_own_suggestion_and_prints_as_itself(name: str) -> None:
    if validate_name(name) is None:
        assert suggest_name(name) == name
        assert printable_name(name) == name


@PROPERTY
@given(names)
@example("two\nlines\u2028and\x85more")
@example(os.fsdecode(b"caf\xe9"))
def test_a_printed_name_is_one_printable_line_that_keeps_what_was_printable(name: str) -> None:
    printed = printable_name(name)
    assert printed.isprintable()
    assert "\n" not in printed and "\r" not in printed
    printed.encode("utf-8")  # a name that is not UTF-8 still prints as text
    if name.isprintable():
        assert printed == name


# -- paths ---------------------------------------------------------------------------------------

component = st.one_of(
    st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
        min_size=1,
        max_size=40,
    ),
    st.binary(min_size=1, max_size=40)
    .filter(lambda raw: b"/" not in raw and b"\x00" not in raw)
    .map(os.fsdecode),
).filter(lambda name: name not in (".", "..") and len(os.fsencode(name)) <= 200)


@PROPERTY
@given(component)
@example("<img src=x.png> & <a href='y'>")
@example(" leading and trailing ")
@example("line\nbreak")
@example("-starts-with-dash")
def test_a_folder_with_any_name_opens_and_lists_its_entries(name: str) -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / name / "memory"
        folder.mkdir(parents=True)
        (folder / "likes-tea.md").write_bytes(
            render_new_file(
                name="likes-tea",
                description="Drinks green tea",
                type="user",
                updated="2026-10-02T17:03:11.532Z",
                body="Green.",
            ).encode()
        )
        store = PersonaFolder(folder, trash=Path(temp) / "trash")
        assert [entry.name for entry in store.entries()] == ["likes-tea"]
        assert store.problems() == []
        label = describe_folder(folder).label
        assert isinstance(label, str) and label


@PROPERTY
@given(component)
@example("<b>db<b> & 'quotes'")
@example("file:memory?mode=ro")
@example("%41%00")
def test_a_database_at_any_path_opens_and_searches(name: str) -> None:
    with tempfile.TemporaryDirectory() as temp:
        path = Path(temp) / name / "memory.sqlite"
        path.parent.mkdir()
        alisio.create_database(path)
        conn = alisio.connect_like_plugin(path)
        try:
            alisio.save_observation(
                conn,
                title="Odd paths",
                content="**What** opened",
                type="decision",
                project="alpha-1a2b3c4d",
            )
        finally:
            conn.close()
        store = ObservationStore(path)
        try:
            assert [o.title for o in store.search("odd")] == ["Odd paths"]
        finally:
            store.close()
        # nothing was created beside it (no database opened at a mangled path)
        assert all(p.name.startswith("memory.sqlite") for p in path.parent.iterdir())
