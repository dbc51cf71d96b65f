"""Memory databases of 1,000 to 1,000,000 observations, built as the plugin builds them, cached.

Each database starts from :func:`memory_desk.core.alisio.create_database` (the plugin's DDL:
FTS5 trigram table, triggers, WAL) and is filled with plain INSERTs (the triggers and indexes
set aside meanwhile and put back with their exact SQL, then FTS5's 'rebuild') in
big transactions, then topic upserts as UPDATEs (the plugin's shape, as
``tests/alisio_fixtures.py`` ``populate`` writes it). The text is what makes a search
realistic: a seeded vocabulary of tens of thousands of pseudo-words made of syllables, drawn
with a Zipf distribution, so a common word matches most rows, a medium one a few percent and
a rare one a handful (the benchmark prints the counts).

Databases are cached in ``~/.cache/memory-desk-bench/<VERSION>/``; changing anything in the
generator must change :data:`VERSION`, so a stale database is never measured.
"""

from __future__ import annotations

import itertools
import os
import random
import sqlite3
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memory_desk.core import alisio

VERSION = "v1"
SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000, "1m": 1_000_000}
DEFAULT_CACHE = Path.home() / ".cache" / "memory-desk-bench"
NOW_MS = 1_790_000_000_000  # a fixed "now" so every build is the same bytes
DAY_MS = 24 * 3600 * 1000
VOCABULARY = 40_000
ZIPF_S = 1.05
BATCH = 20_000
_ONSETS = [
    "b",
    "c",
    "d",
    "f",
    "g",
    "h",
    "j",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "z",
    "br",
    "dr",
    "gr",
    "kl",
    "pl",
    "st",
    "tr",
    "sh",
    "ch",
    "th",
]
_VOWELS = ["a", "e", "i", "o", "u", "ai", "ea", "io", "ou"]
_CODAS = ["", "", "", "n", "r", "s", "l", "m", "k", "x"]
_TYPES = alisio.OBSERVATION_TYPES


@dataclass(frozen=True)
class SearchWords:
    """Three words to search, by how many rows they match: most, a few percent, a handful."""

    common: str
    medium: str
    rare: str

    def as_dict(self) -> dict[str, str]:
        return {"common": self.common, "medium": self.medium, "rare": self.rare}


class Vocabulary:
    """Pseudo-words in Zipf rank order (rank 1 the most frequent), the same for a seed."""

    def __init__(self, seed: int = 7, size: int = VOCABULARY) -> None:
        rng = random.Random(seed)
        words: dict[str, None] = {}
        while len(words) < size:
            syllables = rng.choices((1, 2, 3, 4), weights=(1, 6, 6, 2))[0]
            word = "".join(
                rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                for _ in range(syllables)
            )
            words.setdefault(word, None)
        self.words = list(words)
        weights = [1.0 / (rank**ZIPF_S) for rank in range(1, size + 1)]
        self.cumulative = list(itertools.accumulate(weights))

    def draw(self, rng: random.Random, count: int) -> list[str]:
        """``count`` words drawn by their Zipf weight."""
        return rng.choices(self.words, cum_weights=self.cumulative, k=count)

    def search_words(self) -> SearchWords:
        """Words of 6 to 9 letters near ranks 3, 200 and 8,000 (typed letter by letter)."""

        def near(rank: int) -> str:
            for word in self.words[rank:]:
                if 6 <= len(word) <= 9:
                    return word
            raise AssertionError("the vocabulary has no word of 6 to 9 letters")

        return SearchWords(near(3), near(200), near(8_000))


def database_path(count: int, cache: Path = DEFAULT_CACHE) -> Path:
    """Where the database of ``count`` observations lives in the cache."""
    return cache / VERSION / f"observations-{count}.sqlite"


def ensure_database(count: int, cache: Path = DEFAULT_CACHE, *, quiet: bool = False) -> Path:
    """The cached database of ``count`` observations, built first if missing.

    Built under a temporary name and renamed when complete, so an interrupted build is never
    taken for a finished one.
    """
    path = database_path(count, cache)
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.stem}.partial-{os.getpid()}.sqlite")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{partial}{suffix}").unlink(missing_ok=True)
    build(partial, count, quiet=quiet)
    for suffix in ("-wal", "-shm"):
        Path(f"{partial}{suffix}").unlink(missing_ok=True)
    os.replace(partial, path)
    return path


def build(path: Path, count: int, *, seed: int = 1, quiet: bool = False) -> None:
    """Create the plugin's schema at ``path`` and fill it with ``count`` observations."""
    alisio.create_database(path)
    vocabulary = Vocabulary()
    rng = random.Random(seed)
    conn = alisio.connect_like_plugin(path)
    # Connection settings only (not stored in the file): a build is not a crash test.
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("PRAGMA cache_size=-200000")
    started = time.monotonic()
    # The plugin's triggers and indexes, set aside while the rows go in and put back with their
    # exact SQL; FTS5's 'rebuild' then indexes every row at once (the same index the triggers
    # build row by row, in a fraction of the time: a million rows otherwise take hours).
    aside = conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'index')"
        " AND tbl_name = 'observations' AND sql IS NOT NULL"
    ).fetchall()
    for kind, name, _sql in aside:
        conn.execute(f'DROP {kind.upper()} "{name}"')
    try:
        rows = _rows(rng, vocabulary, count)
        done = 0
        while done < count:
            batch = list(itertools.islice(rows, BATCH))
            _insert_batch(conn, rng, vocabulary, batch)
            done += len(batch)
            if not quiet:
                rate = done / max(time.monotonic() - started, 1e-9)
                print(
                    f"  building {count:,}: {done:,} rows ({rate:,.0f}/s)",
                    file=sys.stderr,
                    flush=True,
                )
        _insert_sessions(conn, rng, vocabulary, count)
        for _kind, _name, sql in aside:
            conn.execute(sql)
        if not quiet:
            print(f"  building {count:,}: indexing every row", file=sys.stderr, flush=True)
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES ('rebuild')")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _project_names(rng: random.Random) -> list[str]:
    return [
        f"{rng.choice(_ONSETS)}{rng.choice(_VOWELS)}{rng.choice(_ONSETS)}o-{rng.getrandbits(32):08x}"
        for _ in range(24)
    ]


def _sessions(count: int) -> int:
    return max(1, count // 20)


def _rows(rng: random.Random, vocabulary: Vocabulary, count: int) -> Iterator[tuple]:
    """One tuple per observation, oldest first (ids grow with time, as the agent saves)."""
    projects = _project_names(random.Random(99))
    project_weights = list(itertools.accumulate(1.0 / r for r in range(1, len(projects) + 1)))
    span = 365 * DAY_MS
    start = NOW_MS - span
    sessions = _sessions(count)
    for index in range(count):
        created = start + (span * index) // count + rng.randrange(60_000)
        updated = min(NOW_MS, created + (rng.randrange(3 * DAY_MS) if rng.random() < 0.2 else 0))
        title_words = vocabulary.draw(rng, rng.randint(5, 12))
        title = " ".join(title_words).capitalize()
        content = _content(rng, vocabulary, rng.randint(40, 150))
        project = rng.choices(projects, cum_weights=project_weights)[0]
        topic = None
        if rng.random() < 0.2:
            family, word = vocabulary.draw(rng, 2)
            topic = f"{family}/{word}-{index}"
        deleted = updated + 1000 if rng.random() < 0.1 else None
        accessed = int(rng.paretovariate(1.2)) - 1 if rng.random() < 0.4 else 0
        yield (
            f"session-{index * sessions // count:07d}",
            _TYPES[rng.randrange(len(_TYPES))],
            title,
            content,
            rng.choice(("memory_save", "memory_save", "memory_save", "session_summary")),
            project,
            "personal" if rng.random() < 0.1 else "project",
            topic,
            alisio.normalized_hash(content),
            updated,
            int(rng.random() < 0.05),
            min(accessed, 500),
            updated if accessed else None,
            created,
            updated,
            deleted,
        )


def _content(rng: random.Random, vocabulary: Vocabulary, words: int) -> str:
    """The plugin's What/Why/Where/Learned shape with ``words`` words of text."""
    drawn = vocabulary.draw(rng, words)
    cut = sorted(rng.sample(range(1, words), 2))
    what, why, learned = drawn[: cut[0]], drawn[cut[0] : cut[1]], drawn[cut[1] :]
    where = "/".join(vocabulary.draw(rng, 2))
    return (
        f"**What** {' '.join(what)}\n\n**Why** {' '.join(why)}\n\n"
        f"**Where** src/{where}.ts\n\n**Learned** {' '.join(learned)}"
    )


_INSERT = (
    "INSERT INTO observations (session_id, type, title, content, tool_name, project, scope,"
    " topic_key, normalized_hash, last_seen_at, pinned, access_count, last_accessed_at,"
    " created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_REVISE = (
    "UPDATE observations SET title = ?, type = ?, content = ?, normalized_hash = ?,"
    " session_id = ?, tool_name = ?, revision_count = revision_count + 1,"
    " last_seen_at = ?, updated_at = ? WHERE id = ?"
)


def _insert_batch(
    conn: sqlite3.Connection, rng: random.Random, vocabulary: Vocabulary, batch: list[tuple]
) -> None:
    """One transaction: the rows, then a third of the topic rows revised by topic upsert."""
    conn.execute("BEGIN IMMEDIATE")
    first = conn.execute("SELECT coalesce(max(id), 0) FROM observations").fetchone()[0] + 1
    conn.executemany(_INSERT, batch)
    revisions = []
    for row_id, row in zip(itertools.count(first), batch, strict=False):
        if row[7] is None or rng.random() >= 0.3:
            continue
        content = f"{row[3]}\n\n**Learned** revised: {' '.join(vocabulary.draw(rng, 8))}"
        when = min(NOW_MS, int(row[14]) + DAY_MS)
        revisions.append(
            (
                row[2],
                row[1],
                content,
                alisio.normalized_hash(content),
                row[0],
                "memory_save",
                when,
                when,
                row_id,
            )
        )
    conn.executemany(_REVISE, revisions)
    conn.execute("COMMIT")


def _insert_sessions(
    conn: sqlite3.Connection, rng: random.Random, vocabulary: Vocabulary, count: int
) -> None:
    """The chats the observations came from: one session row and a few prompts each."""
    conn.execute("BEGIN IMMEDIATE")
    rows = conn.execute(
        "SELECT session_id, project, min(created_at), max(updated_at) FROM observations"
        " GROUP BY session_id"
    ).fetchall()
    conn.executemany(
        "INSERT OR IGNORE INTO memory_sessions (id, project, directory, started_at, ended_at,"
        " summary) VALUES (?, ?, ?, ?, ?, ?)",
        (
            (sid, project, f"/home/dev/{project}", begin, end, " ".join(vocabulary.draw(rng, 30)))
            for sid, project, begin, end in rows
        ),
    )
    conn.executemany(
        "INSERT INTO user_prompts (session_id, content, project, created_at) VALUES (?, ?, ?, ?)",
        (
            (sid, " ".join(vocabulary.draw(rng, rng.randint(8, 40))), project, begin + k)
            for sid, project, begin, _end in rows
            for k in range(rng.randint(1, 3))
        ),
    )
    conn.execute("COMMIT")


def match_counts(path: Path, words: SearchWords) -> dict[str, int]:
    """How many live rows each search word matches (what the search figures are about)."""
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return {
            label: conn.execute(
                "SELECT count(*) FROM observations_fts CROSS JOIN observations o"
                " ON o.id = observations_fts.rowid WHERE observations_fts MATCH ?"
                " AND o.deleted_at IS NULL",
                (f'{{title content topic_key}} : ("{word}")',),
            ).fetchone()[0]
            for label, word in words.as_dict().items()
        }
    finally:
        conn.close()


def size_label(count: int) -> str:
    """1000 -> '1k', 1000000 -> '1m' (the labels of the table)."""
    for label, value in SIZES.items():
        if value == count:
            return label
    return str(count)


def drop_from_page_cache(path: Path) -> None:
    """Ask the kernel to forget the file's cached pages (db, -wal, -shm): a cold start."""
    for suffix in ("", "-wal", "-shm"):
        name = f"{path}{suffix}"
        if not os.path.exists(name):
            continue
        fd = os.open(name, os.O_RDONLY)
        try:
            os.fsync(fd)  # dirty pages cannot be dropped
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def warm_page_cache(path: Path) -> None:
    """Read the whole file once so a 'cached' start really finds it in memory."""
    for suffix in ("", "-wal", "-shm"):
        name = f"{path}{suffix}"
        if os.path.exists(name):
            with open(name, "rb") as handle:
                while handle.read(1 << 22):
                    pass


if __name__ == "__main__":  # build one size: python -m ... dataset 1m [CACHE]
    label = sys.argv[1] if len(sys.argv) > 1 else "1k"
    cache = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_CACHE
    began = time.monotonic()
    built = ensure_database(SIZES[label], cache)
    print(f"{built} ({built.stat().st_size / 1e6:.0f} MB) in {time.monotonic() - began:.0f} s")
    print(match_counts(built, Vocabulary().search_words()))
