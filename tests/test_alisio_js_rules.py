"""The plugin's text rules with JavaScript's semantics: hash, trim, caps in UTF-16, redaction.

The reference implementations here are written straight from FORMATS.md and the ECMAScript
definitions (WhiteSpace = TAB, VT, FF, SP, NBSP, ZWNBSP and every Zs character;
LineTerminator = LF, CR, LS, PS), independently of ``memory_desk.core.jstext``. Fixed
examples were computed with Node 20 (``toLowerCase``, ``/\\s+/g``, ``trim``, ``slice``,
``crypto.createHash``) and are pinned here.
"""

from __future__ import annotations

import hashlib
import unicodedata
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from alisio_fixtures import plugin_connection, read_all
from memory_desk.core import StoreError, alisio, jstext
from memory_desk.core.alisio import StoredPreview
from memory_desk.core.observations import ObservationStore

SUFFIX = "... [truncated]"
DUCK = "\U0001f986"  # outside the BMP: two UTF-16 units

# ECMAScript WhiteSpace and LineTerminator, from the spec's tables (not from jstext).
JS_SPACE = frozenset(
    {"\t", "\v", "\f", " ", "\u00a0", "\ufeff", "\n", "\r", "\u2028", "\u2029"}
    | {chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Zs"}
)
TRICKY = [
    "\ufeff",
    "\u0085",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x1f",
    "\u2028",
    "\u2029",
    "\u00a0",
    "\u3000",
    "\u180e",
    "\u200b",
    " ",
    "\t",
    "\n",
    "\r",
    "\v",
    "Σ",
    "İ",
    "ẞ",
    "A",
    "a",
    ".",
    DUCK,
    "\U0001d400",
    "\U00010400",
    # Surrogate halves: alone they reach the file as U+FFFD; side by side JavaScript reads
    # them as one character (U+10400, a capital letter with a lower case, and an emoji).
    "\ud801",
    "\udc00",
    "\ud83e",
    "\udd86",
]
texts = st.text(alphabet=st.one_of(st.sampled_from(TRICKY), st.characters()), max_size=60)


def units(text: str) -> int:
    """JavaScript's ``.length``, counted from UTF-16 bytes."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def js_string(text: str) -> str:
    """A Python string as the JavaScript string it stands for, as it will reach UTF-8:
    surrogate halves side by side form their character, a lone half becomes U+FFFD."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def reference_trim(text: str) -> str:
    start, end = 0, len(text)
    while start < end and text[start] in JS_SPACE:
        start += 1
    while end > start and text[end - 1] in JS_SPACE:
        end -= 1
    return text[start:end]


def reference_hash(text: str) -> str:
    """``sha256(text.toLowerCase().replace(/\\s+/g, " ").trim())`` from FORMATS.md."""
    out: list[str] = []
    for ch in js_string(text).lower():
        if ch in JS_SPACE:
            if not out or out[-1] != " ":
                out.append(" ")
        else:
            out.append(ch)
    normal = reference_trim("".join(out))
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


def reference_cap(text: str, cap: int) -> str:
    """``text.length > max ? text.slice(0, max - 15) + suffix : text``, lone halves as U+FFFD."""
    if units(text) <= cap:
        return js_string(text)
    kept = text.encode("utf-16-le", "surrogatepass")[: 2 * (cap - len(SUFFIX))]
    return kept.decode("utf-16-le", "replace") + SUFFIX


# --------------------------------------------------------------------- the hash


@settings(max_examples=400, deadline=None)
@given(texts)
def test_normalized_hash_is_javascripts(text: str) -> None:
    assert alisio.normalized_hash(text) == reference_hash(text)


@pytest.mark.parametrize(
    ("text", "node_sha256"),
    [
        (
            "  Hello\u2028World\ufeff ",
            "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
        ),
        ("A\u0085B", "75e7cf7e9bf896d878d3b49a7225fc0ef80d9b03356eb6d783bb276e67afe8fa"),
        ("x\x1cy\x1f", "054a3a9c62dda0e11833fd28931c5e2f97576e9dba76812b5c2098551756fc80"),
        ("ΟΔΟΣ ΣΑΣ", "2727ffb447619879a710121bb12bed755c8b5fa8a9fb21eb8504896a520c9062"),
        (
            "İstanbul\u3000\u00a0CAFÉ",
            "a2db524087f3e0dbfa5e9f60df7d98d06dcab9a67750da02cd0004f85a3499c6",
        ),
        ("\ufeff\ufeff", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (
            f"tab\tand\vvt {DUCK} DUCK",
            "f9b3557a1a4a5f2f4b393253cec6275a4ed23c01417e4a9c23e00266d26709bb",
        ),
    ],
)
def test_normalized_hash_matches_node(text: str, node_sha256: str) -> None:
    # U+0085 and U+001C..U+001F are not JavaScript whitespace; U+FEFF and U+2028 are; the
    # final sigma and İ lower-case the same way in both languages.
    assert alisio.normalized_hash(text) == node_sha256


def test_the_agent_counts_a_duplicate_of_a_text_that_differs_only_in_js_whitespace(
    tmp_path: Path,
) -> None:
    db = tmp_path / "memory.sqlite"
    alisio.create_database(db)
    fields = dict(title="Cache", type="decision", project="p-1", topic_key="db/cache")
    with plugin_connection(db) as conn:
        first = alisio.save_observation(conn, content="Use\ufeffthe  CACHE", **fields, now=1)
        again = alisio.save_observation(conn, content="use the\u2028cache ", **fields, now=2)
        other = alisio.save_observation(conn, content="use\x1cthe cache", **fields, now=3)
    assert again == alisio.SaveResult(first.id, "duplicate")
    assert other == alisio.SaveResult(first.id, "revised")  # U+001C is not a space to JavaScript


# ------------------------------------------------------------- trim, caps, redaction


@settings(max_examples=300, deadline=None)
@given(texts, texts, st.integers(min_value=0, max_value=220))
def test_prepared_title_is_redacted_trimmed_and_capped_as_the_plugin_does(
    around: str, secret: str, padding: int
) -> None:
    assume("private>" not in (around + secret).lower())
    raw = f"{around}<private>{secret}</private>{'x' * padding}{around}"
    redacted = f"{around}[REDACTED]{'x' * padding}{around}"
    trimmed = reference_trim(redacted)
    expected = reference_cap(trimmed, alisio.TITLE_CAP)
    assert alisio.prepare_title(raw) == expected
    preview = alisio.preview_title(raw)
    assert preview == StoredPreview(
        stored=expected,
        units=units(expected),
        cap=alisio.TITLE_CAP,
        typed_units=units(raw),
        cut=units(trimmed) > alisio.TITLE_CAP,
        redacted=True,
        trimmed=trimmed != redacted,
    )
    assert preview.units <= alisio.TITLE_CAP


def test_title_cap_counts_utf16_units_and_keeps_the_suffix_inside() -> None:
    assert alisio.prepare_title(DUCK * 101) == DUCK * 92 + "\ufffd" + SUFFIX  # 202 units
    assert units(alisio.prepare_title(DUCK * 101)) == alisio.TITLE_CAP
    exactly = "a" * 198 + DUCK  # 200 units, 199 Python characters: not cut
    assert alisio.prepare_title(exactly) == exactly
    assert alisio.prepare_title(exactly + "b").endswith(SUFFIX)


@pytest.mark.parametrize(
    ("cap", "prepare"),
    [(alisio.TITLE_CAP, alisio.prepare_title), (alisio.CONTENT_CAP, alisio.prepare_content)],
)
def test_an_emoji_straddling_the_cut_leaves_a_replacement_character(cap: int, prepare) -> None:
    keep = cap - len(SUFFIX)
    straddling = "a" * (keep - 1) + DUCK + "t" * 40
    assert prepare(straddling) == "a" * (keep - 1) + "\ufffd" + SUFFIX
    whole = "a" * (keep - 2) + DUCK + "t" * 40
    assert prepare(whole) == "a" * (keep - 2) + DUCK + SUFFIX
    assert units(prepare(straddling)) == units(prepare(whole)) == cap
    prepare(straddling).encode("utf-8")  # storable


def test_trim_is_javascripts() -> None:
    assert alisio.prepare_title(" \ufeffTitle \u0085") == "Title \u0085"  # as Node's trim()
    assert alisio.prepare_content("\u2028\u3000body\x1f\n") == "body\x1f"


def test_private_spans_are_redacted_in_titles_too(tmp_path: Path) -> None:
    db = tmp_path / "memory.sqlite"
    alisio.create_database(db)
    with plugin_connection(db) as conn:
        saved = alisio.save_observation(
            conn,
            title="Key <private>sk-live-1</private> rotated",
            content="body",
            type="config",
            project="p-1",
        )
    with ObservationStore(db) as store:
        assert store.get(saved.id).title == "Key [REDACTED] rotated"
        result = store.edit(saved.id, title="  <PRIVATE>x</PRIVATE> again ")
        assert result.after.title == "[REDACTED] again"
    assert "sk-live" not in str(read_all(db))


def canonicalize(ch: str) -> str:
    """ECMAScript's Canonicalize for a case-insensitive regex without the ``u`` flag, from
    the spec: the character's toUpperCase when that is one code unit, unless it would map a
    non-ASCII character to an ASCII one."""
    upper = ch.upper()
    if len(upper) != 1 or (ord(ch) >= 128 and ord(upper) < 128):
        return ch
    return upper


def test_private_tags_match_case_insensitively_as_javascripts_regex_does() -> None:
    # Worked from Canonicalize: "ı" (U+0131) upper-cases to "I", ASCII from non-ASCII, so it
    # stays "ı"; "İ" (U+0130) is its own upper case; neither canonicalizes to "I".
    assert canonicalize("i") == canonicalize("I") == "I"
    assert canonicalize("\u0131") == "\u0131" and canonicalize("\u0130") == "\u0130"
    # So only ASCII case differences make a tag.
    assert alisio.redact("a <Private>k</PRIVATE> b") == "a [REDACTED] b"
    assert alisio.redact("<prıvate>k</prıvate>") == "<prıvate>k</prıvate>"
    assert alisio.redact("<PRİVATE>k</PRİVATE>") == "<PRİVATE>k</PRİVATE>"
    # A dotless closing tag does not close: the lazy match runs on to the real one.
    assert alisio.redact("<private>x</prıvate>y</private>z") == "[REDACTED]z"
    assert alisio.redact("<private>x</PRİVATE>") == "<private>x</PRİVATE>"
    preview = alisio.preview_content("<prıvate>k</prıvate>")
    assert not preview.redacted and preview.stored == "<prıvate>k</prıvate>"
    assert alisio.preview_title("<PRIVATE>k</private> t").redacted


def test_empty_text_after_the_rules_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "memory.sqlite"
    alisio.create_database(db)
    with plugin_connection(db) as conn:
        with pytest.raises(StoreError, match="Memory title and content are required"):
            alisio.save_observation(
                conn, title="\ufeff \u3000", content="x", type="decision", project="p"
            )
        with pytest.raises(StoreError, match="Memory title and content are required"):
            alisio.save_observation(
                conn, title="t", content="\u2028\n", type="decision", project="p"
            )
        kept = alisio.save_observation(
            conn, title="\u0085", content="x", type="decision", project="p"
        )
    with ObservationStore(db) as store:
        assert store.get(kept.id).title == "\u0085"  # not whitespace to JavaScript
        with pytest.raises(StoreError, match="needs some content"):
            store.edit(kept.id, content=" \ufeff ")
        with pytest.raises(StoreError, match="needs a title"):
            store.recreate(
                store.get(kept.id), title="\u3000", content="x", type="decision", topic_key=""
            )


def test_preview_says_what_will_be_stored_and_why() -> None:
    assert alisio.preview_title("Plain") == StoredPreview("Plain", 5, 200, 5, False, False, False)
    preview = alisio.preview_title(f"  key <private>{DUCK}</private> " + "t" * 300)
    assert preview.cut and preview.redacted and preview.trimmed
    assert preview.units == 200 and preview.stored.startswith("key [REDACTED] ttt")
    assert preview.typed_units == units(f"  key <private>{DUCK}</private> " + "t" * 300)
    content = alisio.preview_content(DUCK * 10)
    assert (content.units, content.typed_units, content.cap, content.cut) == (20, 20, 50_000, False)
    assert alisio.preview_content("a\u0085").trimmed is False
    assert alisio.preview_content("a\ufeff").trimmed is True


def test_the_plugins_topic_upsert_picks_the_newest_by_updated_at(tmp_path: Path) -> None:
    from alisio_fixtures import add_observation

    db = tmp_path / "memory.sqlite"
    alisio.create_database(db)
    newer = add_observation(db, title="Newer", topic_key="db/cache", updated_at=2_000)
    add_observation(db, title="Older but higher id", topic_key="db/cache", updated_at=1_000)
    with plugin_connection(db) as conn:
        saved = alisio.save_observation(
            conn,
            title="Agent",
            content="agent",
            type="decision",
            project="alpha-1a2b3c4d",
            topic_key="db/cache",
            now=3_000,
        )
    assert saved == alisio.SaveResult(newer, "revised")


_SPACES = st.sampled_from(list(jstext.JS_WHITESPACE) + list("ab\x1c\x1d\x1e\x1f\x85é\ud83d\ude00"))


@given(st.lists(_SPACES, max_size=24).map("".join))
@settings(max_examples=500)
def test_collapsing_spaces_quickly_gives_what_the_javascript_regex_gives(text: str) -> None:
    """``js_collapse_spaces`` (Python's split where it agrees with JavaScript) equals the
    plugin's ``replace(/\\s+/g, " ").trim()``, written with JavaScript's own whitespace."""
    expected = jstext.js_trim(jstext.JS_SPACE_RUNS_RE.sub(" ", text))
    assert jstext.js_collapse_spaces(text) == expected


@given(st.text(alphabet=_SPACES, max_size=12))
def test_as_written_finds_surrogate_halves_as_the_search_did(text: str) -> None:
    has_half = any("\ud800" <= ch <= "\udfff" for ch in text)
    written = alisio.as_written(text)
    assert (written == text) or has_half
    assert not any("\ud800" <= ch <= "\udfff" for ch in written)
