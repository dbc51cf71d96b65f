"""The Pruning assistant's core on a crafted database and real persona folders.

The database is built with the plugin's DDL and filled by ``save_observation`` (the plugin's
own save); pins and reads are the plugin's own UPDATEs. Every reason has a pinned row of its
kind that must never be proposed, and rows that must not be found at all.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from memory_desk.core import alisio
from memory_desk.core.observations import ObservationStore
from memory_desk.core.persona import PersonaFolder
from memory_desk.core.persona_format import render_new_file
from memory_desk.core.progress import Cancelled, Progress
from memory_desk.core.pruning import (
    LARGE,
    NEAR_DUPLICATE,
    NEVER_ACCESSED,
    PERSONA_NEAR_DUPLICATE,
    PERSONA_SAME_TEXT,
    REDACTED_ONLY,
    SAME_CONTENT,
    TOPIC_BOTH_SCOPES,
    Settings,
    find_observation_candidates,
    find_persona_duplicates,
)

NOW = 1_790_000_000_000
DAY = 86_400_000
ALPHA = "alpha-1a2b3c4d"
BETA = "beta-5e6f7a8b"
NOTE = (
    "**What** the cache layer keeps refresh tokens per browser tab and the retry worker"
    " reads them back after a timeout **Why** two tabs raced on the same token and one"
    " logged the person out **Where** src/auth/cache.ts and src/auth/retry.ts"
)
# A few words changed: the same note said again.
PARAPHRASE = NOTE.replace("keeps", "stores").replace("person", "user").replace("one", "a tab")
UNRELATED = (
    "**What** the release script signs the macOS bundle before notarizing it **Why** Apple"
    " rejects unsigned frameworks **Where** packaging/release.sh and the CI workflow"
)


@dataclass
class Crafted:
    path: Path
    ids: dict[str, int]


def _save(conn: sqlite3.Connection, name: str, ids: dict[str, int], **values) -> None:
    values.setdefault("type", "decision")
    values.setdefault("project", ALPHA)
    values.setdefault("title", name)
    ids[name] = alisio.save_observation(conn, **values).id


def build_crafted(path: Path) -> Crafted:
    """One database holding every kind of candidate, a pinned row of each kind, and rows
    that must not be proposed."""
    alisio.create_database(path)
    ids: dict[str, int] = {}
    recent = NOW - 2 * DAY
    conn = alisio.connect_like_plugin(path)
    try:
        # Same content, three live rows in one project: the newest stays.
        for n in range(3):
            _save(conn, f"dup-{n}", ids, content="Use WAL for the cache.", now=recent + n)
        # Same content again, with a pinned copy: the pinned one stays, even though older.
        _save(conn, "pdup-pinned", ids, content="Tabs, not spaces.", now=recent)
        _save(conn, "pdup-new", ids, content="  tabs,   NOT spaces.  ", now=recent + 5)
        # The same content in another project is not a duplicate of these.
        _save(conn, "dup-beta", ids, content="Use WAL for the cache.", project=BETA, now=recent)
        # Near-duplicates: a paraphrase; an unrelated text; elsewhere, a pinned older copy.
        _save(conn, "near-old", ids, content=NOTE, now=recent)
        _save(conn, "near-new", ids, content=PARAPHRASE, now=recent + 10)
        _save(conn, "unrelated", ids, content=UNRELATED, now=recent)
        _save(conn, "near-pinned-a", ids, content=NOTE, project=BETA, now=recent + 20)
        _save(conn, "near-pinned-b", ids, content=PARAPHRASE, project=BETA, now=recent)
        # One topic in both scopes: the older is proposed; a pinned older one is not.
        for scope, at in (("project", recent), ("personal", recent + 30)):
            _save(
                conn,
                f"topic-{scope}",
                ids,
                content=f"Deploy on {scope} Fridays never.",
                topic_key="release/deploy-day",
                scope=scope,
                now=at,
            )
        for scope, at in (("project", recent), ("personal", recent + 30)):
            _save(
                conn,
                f"ptopic-{scope}",
                ids,
                content=f"Branches named by {scope} ticket.",
                topic_key="build/branch-names",
                scope=scope,
                now=at,
            )
        # Never accessed and old; the same but read once; the same but pinned; recent.
        _save(conn, "old", ids, content="Old advice nobody read.", now=NOW - 200 * DAY)
        _save(conn, "old-read", ids, content="Old advice that was read.", now=NOW - 200 * DAY)
        _save(conn, "old-pinned", ids, content="Old pinned advice.", now=NOW - 200 * DAY)
        # Very large, and large but pinned; exactly at the limit is not over it.
        _save(conn, "large", ids, content="x" * 20_001, now=recent)
        _save(conn, "large-pinned", ids, content="y" * 25_000, now=recent)
        _save(conn, "at-limit", ids, content="z" * 19_999 + "w", now=recent)
        # Only [REDACTED] (repeated, with whitespace), pinned, and redacted with words.
        _save(
            conn, "redacted", ids, content="<private>a</private>\n <private>b</private>", now=recent
        )
        _save(conn, "redacted-pinned", ids, content="<private>c</private>", now=recent + 1)
        _save(conn, "redacted-words", ids, content="Key is <private>k</private>", now=recent)
        for name in (
            "pdup-pinned",
            "near-pinned-b",
            "ptopic-project",
            "old-pinned",
            "large-pinned",
            "redacted-pinned",
        ):
            conn.execute("UPDATE observations SET pinned = 1 WHERE id = ?", (ids[name],))
        conn.execute(
            "UPDATE observations SET access_count = access_count + 1, last_accessed_at = ?"
            " WHERE id = ?",
            (NOW - 199 * DAY, ids["old-read"]),
        )
    finally:
        conn.close()
    return Crafted(path, ids)


@pytest.fixture
def crafted(tmp_path: Path) -> Crafted:
    return build_crafted(tmp_path / "memory.sqlite")


def _find(crafted: Crafted, **settings) -> dict[str, list[tuple[list[str], list[str]]]]:
    """reason -> [(kept names, proposed names)] in the order found."""
    names = {v: k for k, v in crafted.ids.items()}
    with ObservationStore(crafted.path) as store:
        found = find_observation_candidates(store, Settings(now_ms=NOW, **settings), Progress())
    result: dict[str, list[tuple[list[str], list[str]]]] = {}
    for group in found.groups:
        kept = sorted(names[r.key] for r in group.rows if r.kept)
        proposed = sorted(names[r.key] for r in group.proposed)
        result.setdefault(group.reason, []).append((kept, proposed))
    return result


def test_exact_groups_and_reasons(crafted: Crafted) -> None:
    # The short paraphrase shares 86% of its words: found from 0.8, not at the 0.9 default.
    assert NEAR_DUPLICATE not in _find(crafted)
    found = _find(crafted, threshold=0.8)
    assert sorted(found[SAME_CONTENT]) == [
        (["dup-2"], ["dup-0", "dup-1"]),
        (["pdup-pinned"], ["pdup-new"]),
    ]
    # The pinned older row stays, so its newer near-copy is the one proposed.
    assert sorted(found[NEAR_DUPLICATE]) == [
        (["near-new"], ["near-old"]),
        (["near-pinned-b"], ["near-pinned-a"]),
    ]
    assert found[TOPIC_BOTH_SCOPES] == [(["topic-personal"], ["topic-project"])]
    assert found[NEVER_ACCESSED] == [([], ["old"])]
    assert found[LARGE] == [([], ["large"])]
    assert found[REDACTED_ONLY] == [([], ["redacted"])]
    assert set(found) == {
        SAME_CONTENT,
        NEAR_DUPLICATE,
        TOPIC_BOTH_SCOPES,
        NEVER_ACCESSED,
        LARGE,
        REDACTED_ONLY,
    }


def test_pinned_rows_are_never_proposed(crafted: Crafted) -> None:
    found = _find(crafted, age_days=1, large_units=10)
    proposed = {name for groups in found.values() for _, names in groups for name in names}
    with sqlite3.connect(crafted.path) as conn:
        pinned = {r[0] for r in conn.execute("SELECT id FROM observations WHERE pinned != 0")}
    names = {v: k for k, v in crafted.ids.items()}
    assert pinned and not proposed & {names[i] for i in pinned}


def test_settings_move_the_age_and_size_limits(crafted: Crafted) -> None:
    found = _find(crafted, age_days=365, large_units=30_000)
    assert NEVER_ACCESSED not in found and LARGE not in found
    found = _find(crafted, age_days=1)
    assert "dup-0" in found[NEVER_ACCESSED][0][1] and "old-read" not in found[NEVER_ACCESSED][0][1]


def test_large_counts_characters_as_javascript_does(tmp_path: Path) -> None:
    """An emoji is two units: 19,999 letters and one emoji are 20,001, over the limit."""
    path = tmp_path / "memory.sqlite"
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    alisio.save_observation(
        conn, title="t", content="a" * 19_999 + "😀", type="decision", project=ALPHA, now=NOW
    )
    alisio.save_observation(
        conn, title="u", content="é" * 20_000, type="decision", project=ALPHA, now=NOW
    )
    conn.close()
    with ObservationStore(path) as store:
        found = find_observation_candidates(store, Settings(now_ms=NOW), Progress())
    large = [g for g in found.groups if g.reason == LARGE]
    assert [r.title for r in large[0].rows] == ["t"]
    assert large[0].rows[0].size == 20_001


def test_finding_changes_nothing(crafted: Crafted) -> None:
    """Pure reading: the file's bytes and the data version stay as they were."""
    before = hashlib.sha256(crafted.path.read_bytes()).hexdigest()
    watcher = sqlite3.connect(crafted.path)
    version = watcher.execute("PRAGMA data_version").fetchone()[0]
    counts = watcher.execute("SELECT sum(access_count) FROM observations").fetchone()[0]
    _find(crafted)
    assert watcher.execute("PRAGMA data_version").fetchone()[0] == version
    assert watcher.execute("SELECT sum(access_count) FROM observations").fetchone()[0] == counts
    watcher.close()
    assert hashlib.sha256(crafted.path.read_bytes()).hexdigest() == before


def test_cancel_stops_the_near_duplicate_pass(crafted: Crafted) -> None:
    """Cancelled at its first step inside the pass: no answer, and no more steps."""
    steps: list[int] = []
    progress = Progress(lambda done, total: steps.append(done), interval=0)

    def listener(done: int, total: int) -> None:
        steps.append(done)
        if done == 3:
            progress.cancel()

    progress._listener = listener  # noqa: SLF001 (cancel from inside the pass, as a click would)
    with ObservationStore(crafted.path) as store, pytest.raises(Cancelled):
        find_observation_candidates(store, Settings(now_ms=NOW), progress)
    assert steps[-1] == 3


def _entry(folder: Path, name: str, description: str, body: str, updated: str) -> None:
    text = render_new_file(
        name=name, description=description, type="feedback", updated=updated, body=body
    )
    (folder / f"{name}.md").write_text(text, encoding="utf-8")


def test_persona_duplicates_within_one_folder_only(tmp_path: Path) -> None:
    agent = tmp_path / "miyagi" / "memory"
    other = tmp_path / "padawan" / "memory"
    for folder in (agent, other):
        folder.mkdir(parents=True)
        _entry(
            folder,
            "no-fish-puns",
            "Dislikes puns about fish",
            "Never tell fish puns.",
            "2026-10-07T13:15:05.678Z",
        )
    _entry(
        agent, "fish-jokes", "No fish jokes", "  never tell FISH puns. ", "2026-10-08T13:15:05.678Z"
    )
    _entry(
        agent,
        "short-answers",
        "Prefers short answers to questions",
        "Keep answers short: a few sentences at most, code first, no preamble at all.",
        "2026-10-01T00:00:00.000Z",
    )
    _entry(
        agent,
        "brief-answers",
        "Prefers short answers to questions",
        "Keep answers short: a few sentences at most, code first, no long preamble at all.",
        "2026-10-02T00:00:00.000Z",
    )
    _entry(
        agent, "likes-tea", "Drinks green tea", "Offer tea, not coffee.", "2026-10-02T00:00:00.000Z"
    )
    found = find_persona_duplicates(
        PersonaFolder(agent, trash=tmp_path / "t"), Settings(), Progress()
    )
    shaped = sorted(
        (g.reason, [r.key for r in g.rows if r.kept], [r.key for r in g.proposed])
        for g in found.groups
    )
    assert shaped == [
        (PERSONA_NEAR_DUPLICATE, ["brief-answers"], ["short-answers"]),
        (PERSONA_SAME_TEXT, ["fish-jokes"], ["no-fish-puns"]),
    ]
    alone = find_persona_duplicates(
        PersonaFolder(other, trash=tmp_path / "t"), Settings(), Progress()
    )
    assert alone.groups == ()
