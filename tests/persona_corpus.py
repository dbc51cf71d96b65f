"""A corpus of odd, real-world-shaped persona memory files, with what the agent reads in each.

Every file is made by hand here (nothing copied from anyone's memory). ``build_corpus`` writes
them into a folder and returns, per entry name, what the agent's grammar (FORMATS.md, part B)
makes of it: type, description, updated, body, whether the agent sees it, whether Memory Desk
may edit it, and the problem codes Memory Desk must report. Files that are not entries at all
(hidden, swap, backup, non-.md, subfolders, FIFOs) are listed in ``NOT_ENTRIES``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

ISO = "2026-10-07T13:15:05.678Z"


@dataclass(frozen=True)
class Expect:
    """What the agent reads from one corpus file, and what Memory Desk must say about it."""

    data: bytes
    type: str = "user"
    description: str = ""
    updated: str = ""
    body: str = ""
    visible: bool = True
    editable: bool = True
    problems: frozenset[str] = field(default_factory=frozenset)


def _p(*codes: str) -> frozenset[str]:
    return frozenset(codes)


def _entry(name: str, desc: str, type_: str, updated: str, body: str, nl: str = "\n") -> bytes:
    lines = [
        "---",
        f"name: {name}",
        f"description: {desc}",
        f"type: {type_}",
        f"updated: {updated}",
    ]
    return (nl.join([*lines, "---", "", body]) + nl).encode()


HUGE_BODY = ("All work and no play makes a long memory. " * 700).strip()

CORPUS: dict[str, Expect] = {
    "plain-entry": Expect(
        _entry("plain-entry", "Wants to be called Fran", "user", ISO, "Fran, not Francisca."),
        "user",
        "Wants to be called Fran",
        ISO,
        "Fran, not Francisca.",
    ),
    "crlf-entry": Expect(
        _entry(
            "crlf-entry", "Short answers", "feedback", ISO, "Rule: short.\r\nWhy: busy.", "\r\n"
        ),
        "feedback",
        "Short answers",
        ISO,
        "Rule: short.\nWhy: busy.",
    ),
    "bom-entry": Expect(
        b"\xef\xbb\xbf" + _entry("bom-entry", "Hidden by a BOM", "feedback", ISO, "Text."),
        "user",
        "",
        "",
        "---\nname: bom-entry\ndescription: Hidden by a BOM\ntype: feedback\n"
        f"updated: {ISO}\n---\n\nText.",
        editable=False,
        problems=_p("bom"),
    ),
    "bom-no-header": Expect(
        b"\xef\xbb\xbfJust a note with a BOM.\n",
        body="Just a note with a BOM.",
        problems=_p("no-header"),
    ),
    "no-header": Expect(
        b"# Likes\n\nTea, not coffee.\n",
        body="# Likes\n\nTea, not coffee.",
        problems=_p("no-header"),
    ),
    "empty": Expect(b"", problems=_p("no-header")),
    "quoted-values": Expect(
        b"---\nname: 'quoted-values'\ndescription: \"Says \"hi\" first\"\ntype: 'feedback'\n"
        b'updated: "2026-10-07T13:15:05.678Z"\n---\n\nBody.\n',
        "feedback",
        'Says "hi" first',
        ISO,
        "Body.",
    ),
    "mismatched-quotes": Expect(
        b"---\nname: mismatched-quotes\ndescription: 'odd\"\ntype: user\n"
        b"updated: 2026-10-07T13:15:05.678Z\n---\nx\n",
        "user",
        "odd",
        ISO,
        "x",
    ),
    "list-values": Expect(
        b"---\nname: list-values\ndescription: [tea, biscuits]\ntype: [feedback]\ntags:\n"
        b"  - food\n  - 'drink'\nupdated: 2026-10-07T13:15:05.678Z\n---\nx\n",
        "feedback",  # a list reads as its items joined by ", ": "feedback"
        "tea, biscuits",
        ISO,
        "x",
        problems=_p("description", "type", "extra-keys"),
    ),
    "block-list-description": Expect(
        b"---\nname: block-list-description\ndescription:\n  - one\n  - two\ntype: user\n"
        b"updated: 2026-10-07T13:15:05.678Z\n---\nx\n",
        "user",
        "one, two",
        ISO,
        "x",
        problems=_p("description"),
    ),
    "extra-keys": Expect(
        b"---\nname: extra-keys\nsource: chat\ndescription: Has extras\n# a comment line\n"
        b"type: user\nconfidence: high\nupdated: 2026-10-07T13:15:05.678Z\n---\n\nBody\n",
        "user",
        "Has extras",
        ISO,
        "Body",
        problems=_p("extra-keys"),
    ),
    "pipe-description": Expect(
        b"---\nname: pipe-description\ndescription: |\n  Likes long walks\n  on the beach\n"
        b"type: user\nupdated: 2026-10-07T13:15:05.678Z\n---\nx\n",
        "user",
        "|",
        ISO,
        "x",
        problems=_p("description"),
    ),
    "folded-description": Expect(
        b"---\ndescription: >-\n  folded\ntype: feedback\nupdated: 2026-10-07T13:15:05.678Z\n"
        b"---\nx\n",
        "feedback",
        ">-",
        ISO,
        "x",
        problems=_p("description"),
    ),
    "type-unknown": Expect(
        _entry("type-unknown", "A preference", "preference", ISO, "x"),
        "user",
        "A preference",
        ISO,
        "x",
        problems=_p("type"),
    ),
    "type-capitalised": Expect(
        _entry("type-capitalised", "Capital F", "Feedback", ISO, "x"),
        "user",
        "Capital F",
        ISO,
        "x",
        problems=_p("type"),
    ),
    "no-type-no-updated": Expect(
        b"---\nname: no-type-no-updated\ndescription: Bare\n---\nx\n",
        "user",
        "Bare",
        "",
        "x",
        problems=_p("type", "updated"),
    ),
    "name-mismatch": Expect(
        _entry("something-else", "Renamed by hand", "user", ISO, "x"),
        "user",
        "Renamed by hand",
        ISO,
        "x",
        problems=_p("name-mismatch"),
    ),
    "not-iso-updated": Expect(
        _entry("not-iso-updated", "Date only", "user", "2026-10-07", "x"),
        "user",
        "Date only",
        "2026-10-07",
        "x",
        problems=_p("updated"),
    ),
    "duplicate-keys": Expect(
        b"---\nname: duplicate-keys\ntype: feedback\ndescription: first\ndescription: second\n"
        b"type: user\nupdated: 2026-10-07T13:15:05.678Z\n---\nx\n",
        "user",
        "second",
        ISO,
        "x",
        problems=_p("duplicate-key"),
    ),
    "empty-header": Expect(  # the line right after the opening one never closes a header
        b"---\n---\nOnly a body.\n",
        body="---\n---\nOnly a body.",
        problems=_p("header-empty"),
    ),
    "one-empty-header-line": Expect(
        b"---\n\n---\nOnly a body.\n",
        body="Only a body.",
        problems=_p("type", "description", "updated"),
    ),
    "doubled-opening": Expect(  # the second "---" is a header line the agent skips
        b"---\n---\nname: doubled-opening\ndescription: Two fences on top\ntype: feedback\n"
        b"updated: 2026-10-07T13:15:05.678Z\n---\n\nBody.\n",
        "feedback",
        "Two fences on top",
        ISO,
        "Body.",
        problems=_p("fence-after-opening"),
    ),
    "closing-with-text": Expect(  # what follows the closing dashes starts the body
        b"---\nname: closing-with-text\ndescription: Text on the closing line\ntype: user\n"
        b"updated: 2026-10-07T13:15:05.678Z\n--- Rule: tea first.\nWhy: mornings.\n",
        "user",
        "Text on the closing line",
        ISO,
        "Rule: tea first.\nWhy: mornings.",
        problems=_p("closing-text"),
    ),
    "closing-four-dashes": Expect(
        b"---\nname: closing-four-dashes\ndescription: Four dashes close it\ntype: feedback\n"
        b"updated: 2026-10-07T13:15:05.678Z\n----\nBody.\n",
        "feedback",
        "Four dashes close it",
        ISO,
        "-\nBody.",
        problems=_p("closing-text"),
    ),
    "closing-with-space": Expect(  # only spaces after the dashes: read like a plain "---"
        b"---\r\nname: closing-with-space\r\ndescription: Space after dashes\r\n"
        b"type: feedback\r\nupdated: 2026-10-07T13:15:05.678Z\r\n---  \r\n\r\nBody.\r\n",
        "feedback",
        "Space after dashes",
        ISO,
        "Body.",
    ),
    "hidden-cr": Expect(  # a lone CR inside a value: the agent skips the whole line
        b"---\nname: hidden-cr\ndescription: Tea\rand biscuits\ntype: feedback\n"
        b"updated: 2026-10-07T13:15:05.678Z\n---\n\nBody.\n",
        "feedback",
        "",
        ISO,
        "Body.",
        problems=_p("hidden-break", "description"),
    ),
    "hidden-line-separator": Expect(
        "---\nname: hidden-line-separator\ndescription: Older\ndescription: Newer\u2028text\n"
        "type: feedback\nupdated: 2026-10-07T13:15:05.678Z\n---\n\nBody.\n".encode(),
        "feedback",
        "Older",
        ISO,
        "Body.",
        problems=_p("hidden-break"),  # a skipped line is no duplicate
    ),
    "swallowed-breaks": Expect(  # after the colon, \s* takes a U+2028 or lone CR with it
        "---\nname: swallowed-breaks\ndescription:\u2028Read after the separator\n"
        "type:\r\t\n  - feedback\nupdated: 2026-10-07T13:15:05.678Z\n---\n\nBody.\n".encode(),
        "feedback",
        "Read after the separator",
        ISO,
        "Body.",
        problems=_p("type"),  # written as a list
    ),
    "bracket-trailing-space": Expect(  # "[...] " with a space after "]" is text, not a list
        b"---\nname: bracket-trailing-space\ndescription: [tea, biscuits] \n"
        b"type: [feedback] \nupdated: 2026-10-07T13:15:05.678Z\n---\nx\n",
        "user",
        "[tea, biscuits]",
        ISO,
        "x",
        problems=_p("bracket-text", "type"),
    ),
    "list-items-quoted": Expect(  # empty items of [...] are dropped; dash items need a space
        b'---\nname: list-items-quoted\ndescription: ["tea", \'milk\', , "" ]\n'
        b"type:\n  -feedback\n  - user\nupdated: 2026-10-07T13:15:05.678Z\n---\nx\n",
        "user",
        "tea, milk",
        ISO,
        "x",
        problems=_p("description", "type", "dash-no-space"),
    ),
    "unclosed-header": Expect(
        b"---\nname: unclosed-header\ndescription: Never closed\ntype: feedback\n\nText\n",
        body="---\nname: unclosed-header\ndescription: Never closed\ntype: feedback\n\nText",
        problems=_p("header-unclosed"),
    ),
    "fence-with-space": Expect(  # the opening line must be exactly "---"
        b"--- \ndescription: not a header\n---\nx\n",
        body="--- \ndescription: not a header\n---\nx",
        problems=_p("no-header"),
    ),
    "indented-key": Expect(
        b"---\n  type: feedback\ndescription:NoSpace\nupdated: 2026-10-07T13:15:05.678Z\n---\nx\n",
        "user",
        "NoSpace",
        ISO,
        "x",
        problems=_p("type"),
    ),
    "fence-at-eof": Expect(
        b"---\ndescription: Nothing below\ntype: user\nupdated: 2026-10-07T13:15:05.678Z\n---",
        "user",
        "Nothing below",
        ISO,
        "",
    ),
    "unicode-trim": Expect(
        b"---\ndescription: \xc2\xa0Spaced\xe3\x80\x80\ntype: user\n"
        b"updated: 2026-10-07T13:15:05.678Z\n---\n\xe2\x80\xa8\xef\xbb\xbf\xc2\xa0 Body \x1c\xe2\x80\xa9\n",
        "user",
        "Spaced",
        ISO,
        "Body \x1c",
    ),
    "huge-body": Expect(
        _entry("huge-body", "Very long", "user", ISO, HUGE_BODY),
        "user",
        "Very long",
        ISO,
        HUGE_BODY,
        problems=_p("large-body"),
    ),
    "latin-1": Expect(
        b"---\nname: latin-1\ndescription: Caf\xe9\ntype: feedback\n"
        b"updated: 2026-10-07T13:15:05.678Z\n---\nSe\xf1or\n",
        "feedback",
        "Caf\ufffd",
        ISO,
        "Se\ufffdor",
        editable=False,
        problems=_p("not-utf8"),
    ),
    "My Note": Expect(
        _entry("My Note", "Spaces in the name", "user", ISO, "x"),
        "user",
        "Spaces in the name",
        ISO,
        "x",
        visible=False,
        problems=_p("name-not-kebab"),
    ),
    "snake_case": Expect(
        _entry("snake_case", "Underscores", "feedback", ISO, "x"),
        "feedback",
        "Underscores",
        ISO,
        "x",
        visible=False,
        problems=_p("name-not-kebab"),
    ),
    "Upper": Expect(
        _entry("upper", "Capital letter", "user", ISO, "x"),
        "user",
        "Capital letter",
        ISO,
        "x",
        visible=False,
        problems=_p("name-not-kebab", "name-mismatch"),
    ),
}

# Symbolic links: name -> (target relative to the corpus root's parent, expectation).
# The agent follows a link to a file outside the folder and lists it; Memory Desk shows it as
# the agent reads it, read-only (and its name: line names the file it points to).
LINK_OUTSIDE = Expect(
    _entry("secret", "outside the folder", "user", ISO, "private"),
    "user",
    "outside the folder",
    ISO,
    "private",
    editable=False,
    problems=_p("link-outside", "name-mismatch"),
)
LINK_BROKEN = Expect(b"", visible=False, editable=False, problems=_p("broken-link"))
LINK_INSIDE = Expect(
    CORPUS["plain-entry"].data,
    "user",
    "Wants to be called Fran",
    ISO,
    "Fran, not Francisca.",
    problems=_p("name-mismatch"),  # the link's name is the entry's name
)

NOT_ENTRIES = (
    ".hidden.md",
    ".plain-entry.md.swp",
    "plain-entry.md~",
    "#plain-entry.md#",
    "plain-entry.md.bak",
    "notes.txt",
    "README",
    "UPPER.MD",
)


def build_corpus(folder: Path, outside: Path) -> dict[str, Expect]:
    """Write the corpus into ``folder`` (``outside`` is a sibling for out-of-folder links).

    Returns the expectations for every entry written, links included.
    """
    folder.mkdir(parents=True, exist_ok=True)
    outside.mkdir(parents=True, exist_ok=True)
    expected = dict(CORPUS)
    for name, expect in CORPUS.items():
        (folder / f"{name}.md").write_bytes(expect.data)
    for name in NOT_ENTRIES:
        (folder / name).write_bytes(_entry("not-an-entry", "never listed", "user", ISO, "x"))
    (folder / "account").mkdir()
    (folder / "account" / "other-account.md").write_bytes(
        _entry("other-account", "another account's memory", "user", ISO, "x")
    )
    (folder / "folder-named.md").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "a-fifo.md")
    secret = outside / "secret.md"
    secret.write_bytes(_entry("secret", "outside the folder", "user", ISO, "private"))
    links = {
        "link-outside": (secret, LINK_OUTSIDE),
        "link-broken": (folder / "missing-target.md", LINK_BROKEN),
        "link-inside": (folder / "plain-entry.md", LINK_INSIDE),
    }
    for name, (target, expect) in links.items():
        (folder / f"{name}.md").symlink_to(target)
        expected[name] = expect
    return expected


def snapshot(folder: Path) -> dict[str, tuple[str, bytes | str, int, int]]:
    """Every path under ``folder`` with its kind, content (or link target), mode and mtime."""
    out: dict[str, tuple[str, bytes | str, int, int]] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root, name)
            st = path.lstat()
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path), st.st_mode, st.st_mtime_ns)
            elif path.is_file():
                out[rel] = ("file", path.read_bytes(), st.st_mode, st.st_mtime_ns)
            else:
                out[rel] = ("other", "", st.st_mode, st.st_mtime_ns)
    st = folder.stat()
    out["."] = ("dir", "", st.st_mode, st.st_mtime_ns)
    return out
