"""The short way for files written exactly as the agent writes them gives the full grammar's entry.

``entry_from_bytes`` tries :func:`agent_written_entry` first and falls back to
:func:`full_entry_from_bytes`; for every input, well-formed or hostile, the entry it returns
must equal the full grammar's, field for field and problem for problem. The inputs are
generated agent files with one thing changed (CRLF, a byte-order mark, a missing, repeated or
moved key, odd whitespace, quotes, brackets, bytes that are not UTF-8, huge values) and every
file of ``tests/persona_corpus.py``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memory_desk.core.persona.entry import NAME_RE, read_whole
from memory_desk.core.persona.reading import (
    AGENT_HEADER_RE,
    agent_written_entry,
    entry_from_bytes,
    full_entry_from_bytes,
)
from memory_desk.core.persona_format import needs_quotes
from persona_corpus import CORPUS

ISO = "2026-10-07T13:15:05.678Z"
STAT = os.stat_result((0o100644, 7, 1, 1, 0, 0, 120, 0, 0, 0))
TRICKY = " \t\u00a0\u3000\ufeff\u2028\u2029\r\n\"'[],:-|>~#"


def agent_bytes(name: str, description: str, type_: str, updated: str, body: str) -> bytes:
    """A file as agent-kit writes it (``memory_desk`` benchmarks and tests write the same)."""
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: {type_}\nupdated: {updated}\n"
        f"---\n\n{body}\n"
    ).encode()


def same_entry(name: str, data: bytes) -> None:
    path = Path("/folder") / f"{name}.md"
    full = full_entry_from_bytes(name, path, data, STAT)
    assert entry_from_bytes(name, path, data, STAT) == full
    fast = agent_written_entry(name, path, data, STAT)
    assert fast is None or fast == full


words = st.text(alphabet=st.sampled_from("abcxyz019 " + TRICKY), max_size=30)
plain = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
names = st.one_of(
    st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}", fullmatch=True),
    st.sampled_from(["Odd Name", "UPPER", "a--b", "-x", "é-tea", "x.y"]),
)
stamps = st.one_of(
    st.just(ISO),
    st.sampled_from(["2026-10-07", "2026-10-07T13:15:05Z", "", " " + ISO, f'"{ISO}"', f"[{ISO}]"]),
)
types = st.sampled_from(["user", "feedback", "User", "feedback ", "[user]", "'user'", "other", ""])


@st.composite
def agent_files(draw) -> tuple[str, bytes]:
    """An agent file, then perhaps one or more hostile changes to its bytes."""
    name = draw(names)
    header_name = draw(st.one_of(st.just(name), names, words))
    description = draw(st.one_of(plain, words, st.sampled_from(["|", ">-", "null", "~"])))
    body = draw(st.one_of(plain, words, st.just("x " * 12_000)))
    data = agent_bytes(header_name, description, draw(types), draw(stamps), body)
    for change in draw(st.lists(st.sampled_from(CHANGES), max_size=3)):
        data = change(data, draw(st.randoms(use_true_random=False)))
    return name, data


def _crlf(data: bytes, _rng) -> bytes:
    return data.replace(b"\n", b"\r\n")


def _bom(data: bytes, _rng) -> bytes:
    return b"\xef\xbb\xbf" + data


def _drop_line(data: bytes, rng) -> bytes:
    lines = data.split(b"\n")
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def _repeat_line(data: bytes, rng) -> bytes:
    lines = data.split(b"\n")
    at = rng.randrange(min(5, len(lines)))
    return b"\n".join([*lines[: at + 1], lines[at], *lines[at + 1 :]])


def _swap_lines(data: bytes, rng) -> bytes:
    lines = data.split(b"\n")
    a, b = rng.randrange(min(6, len(lines))), rng.randrange(min(6, len(lines)))
    lines[a], lines[b] = lines[b], lines[a]
    return b"\n".join(lines)


def _insert_byte(data: bytes, rng) -> bytes:
    at = rng.randrange(len(data) + 1)
    odd = rng.choice([b" ", b"\t", b"\r", b"\xff", b"\xc3", b"\xe2\x80\xa8", b"-", b"\n---", b"'"])
    return data[:at] + odd + data[at:]


def _cut(data: bytes, rng) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _closing_text(data: bytes, _rng) -> bytes:
    return data.replace(b"\n---\n\n", b"\n--- body starts here\n", 1)


def _extra_key(data: bytes, _rng) -> bytes:
    return data.replace(b"\n---\n\n", b"\ntags: [a, b]\n---\n\n", 1)


CHANGES = [
    _crlf,
    _bom,
    _drop_line,
    _repeat_line,
    _swap_lines,
    _insert_byte,
    _cut,
    _closing_text,
    _extra_key,
]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(agent_files())
@example(("tea", agent_bytes("tea", "Likes tea", "user", ISO, "Green, no sugar.")))
@example(("tea", agent_bytes("tea", "Likes tea", "user", ISO, "")))
@example(("tea", b""))
@example(("tea", agent_bytes("tea", "|", "user", ISO, "Green, no sugar.")))
@example(("tea", agent_bytes("tea", "null", "feedback", ISO, "x")))
@example(("tea", agent_bytes("tea", "Likes tea", "feedback", ISO, "x\r\ny\r\n")))
@example(("Odd Name", agent_bytes("Odd Name", "Likes tea", "user", ISO, "x")))
@example(("tea", agent_bytes("tea", "Likes tea", "user", "２０２６-10-07T13:15:05.678Z", "x")))
def test_the_short_way_gives_the_full_grammars_entry(case: tuple[str, bytes]) -> None:
    same_entry(*case)


@settings(max_examples=300, deadline=None)
@given(names, plain, st.sampled_from(["user", "feedback"]), plain)
def test_well_formed_agent_files_take_the_short_way(name, description, type_, body) -> None:
    """The common file is not sent to the full grammar, unless a value would need quotes or
    its name is one the agent does not see (kebab-case only)."""
    description = description.replace("\n", " ")
    data = agent_bytes(name, description, type_, ISO, body)
    path = Path("/folder") / f"{name}.md"
    fast = agent_written_entry(name, path, data, STAT)
    full = full_entry_from_bytes(name, path, data, STAT)
    if fast is None:
        odd = [p for p in full.problems if p.code not in ("name-not-kebab", "large-body")]
        assert needs_quotes(description) or odd or not NAME_RE.fullmatch(name)
    else:
        assert fast == full


def test_the_agents_own_file_takes_the_short_way() -> None:
    data = agent_bytes("tea", "Likes tea", "user", ISO, "Green, no sugar.")
    path = Path("/folder/tea.md")
    assert agent_written_entry("tea", path, data, STAT) is not None


def test_every_corpus_file_reads_the_same_both_ways() -> None:
    for name, expect in CORPUS.items():
        same_entry(name, expect.data)


def test_the_short_way_gives_the_files_hash_and_body(tmp_path: Path) -> None:
    """The short way's entry hashes the file's bytes and trims its body as the full grammar
    does."""
    data = agent_bytes("tea", "Likes tea", "user", ISO, "Green,\r\nno sugar.  ")
    fast = agent_written_entry("tea", tmp_path / "tea.md", data, STAT)
    assert fast is not None and read_whole(fast)
    assert fast.fingerprint.sha256 == hashlib.sha256(data).hexdigest()
    assert (fast.fingerprint.size, fast.fingerprint.mtime_ns) == (STAT.st_size, STAT.st_mtime_ns)
    assert fast.body == "Green,\nno sugar." and fast.path == tmp_path / "tea.md"
    assert fast == full_entry_from_bytes("tea", tmp_path / "tea.md", data, STAT)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab[] " + TRICKY), max_size=12))
def test_the_short_way_takes_exactly_the_descriptions_that_need_no_quotes(description) -> None:
    """The header's match takes a description when ``needs_quotes`` says it needs none (a
    line terminator ends the value: the match never takes one)."""
    data = agent_bytes("tea", description, "user", ISO, "x")
    taken = AGENT_HEADER_RE.match(data.decode()) is not None
    one_line = not any(c in description for c in "\n\r\u2028\u2029")
    assert taken == (one_line and not needs_quotes(description))
