"""Near-duplicate texts: datasketch's MinHash signatures, banded for LSH, verified exactly.

Why this shape: comparing every text with every other is quadratic (100,000 rows are five
billion pairs). MinHash turns each text's set of words into a short signature; LSH puts texts
whose signatures agree on a whole band into one bucket, so only texts that are probably alike
ever meet. Every such candidate pair is then verified on the two word sets (their exact
Jaccard similarity), so what is proposed is never a guess of the sketch.

Why in bulk: fed one text at a time, datasketch spends its time in Python calls (hashing each
word, ``update_batch``, then a bucket lookup per band in ``MinHashLSH``), slower still when
many texts look alike. Here the same MinHash (datasketch's
default ``affine32`` scheme, its permutations, bit for bit: a test compares the signatures
with ``MinHash.update_batch``) is computed for a thousand texts at a time with numpy, and the
bands of every signature are bucketed at once by sorting, with exactly ``MinHashLSH``'s
candidate rule (two texts are candidates when one whole band is equal; a test compares them
too). The words themselves are found and hashed with numpy over the chunk's bytes, never one
Python object per word.

Words: runs of ASCII letters, digits and ``_``, and of non-ASCII bytes (so "café" is one
word), ASCII-lower-cased; only a text's first ``SKETCH_BYTES`` bytes count, so a 50,000
character row costs what a long note does (very large rows have their own reason). Texts of
one ``place`` only are paired (a project's rows with that project's rows). A text with fewer
than ``MIN_WORDS`` distinct words says too little to call two texts alike and is left out.
Pure Python and numpy, no Qt; datasketch (which loads SciPy) is imported on first use.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

import numpy as np

from memory_desk.core.progress import Progress

# Jaccard similarity of the two texts' word sets. 0.8 grouped templated notes that only share
# their wording ("Race between X and the cache"): 68 groups in the demo, none a duplicate.
DEFAULT_THRESHOLD = 0.9
NUM_PERM = 64  # signature length (datasketch's MinHash, scheme affine32, seed 1)
BANDS = (12, 5)  # bands x rows: a pair at 0.8 meets in 99 of 100 runs (0.9: always), 0.3 in 3
MIN_WORDS = 4
SKETCH_BYTES = 32_768
CHUNK_TEXTS = 1_000  # texts sketched per numpy pass (bounded memory: ~25 MB at worst)

_U64 = np.uint64
_BASE = _U64(1099511628211)  # odd, so invertible modulo 2**64
_BASE_INVERSE = _U64(pow(1099511628211, -1, 1 << 64))
# ASCII A-Z to a-z; every other byte unchanged.
_LOWER = np.arange(256, dtype=np.uint8)
_LOWER[ord("A") : ord("Z") + 1] += 32
_IS_WORD = np.zeros(256, dtype=bool)
for _first, _last in (("0", "9"), ("a", "z"), ("A", "Z")):
    _IS_WORD[ord(_first) : ord(_last) + 1] = True
_IS_WORD[ord("_")] = True
_IS_WORD[0x80:] = True
# MurmurHash3's 32-bit finalizer, as datasketch premixes each value in its affine32 scheme.
_FMIX32 = (16, np.uint32(0x85EBCA6B), 13, np.uint32(0xC2B2AE35), 16)


def _fmix32(values: np.ndarray) -> np.ndarray:
    s1, m1, s2, m2, s3 = _FMIX32
    values = values ^ (values >> np.uint32(s1))
    values = values * m1
    values = values ^ (values >> np.uint32(s2))
    values = values * m2
    return values ^ (values >> np.uint32(s3))


def permutations() -> tuple[np.ndarray, np.ndarray]:
    """datasketch's own permutation parameters (``a``, ``b``) for our signature length."""
    from datasketch import MinHash  # slow to import (SciPy): only when searching

    a, b = MinHash(num_perm=NUM_PERM, seed=1, scheme="affine32").permutations
    return np.asarray(a, dtype=np.uint32), np.asarray(b, dtype=np.uint32)


def chunk_words(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Every text's distinct word hashes (uint32), sorted, one text after the other, and the
    offsets where each text's words start (``len(texts) + 1`` of them).

    The hash of a word is a polynomial over its bytes modulo 2**64, computed for all words
    of the chunk at once from prefix sums (a word's value does not depend on where it is),
    then folded to 32 bits: what datasketch's ``hashfunc`` would return for it.
    """
    parts = [t.encode("utf-8", "surrogatepass")[:SKETCH_BYTES] for t in texts]
    lengths = np.fromiter((len(p) + 1 for p in parts), dtype=np.int64, count=len(parts))
    starts_of_texts = np.concatenate(([0], np.cumsum(lengths)))
    data = np.frombuffer(b"\x00".join(parts) + b"\x00", dtype=np.uint8)  # NUL ends each
    data = _LOWER[data]
    word = _IS_WORD[data]
    edges = np.diff(np.concatenate(([False], word, [False])).astype(np.int8))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    if starts.size == 0:
        return np.zeros(0, np.uint32), np.zeros(len(texts) + 1, np.int64)
    n = data.size
    with np.errstate(over="ignore"):
        inverse_powers = np.cumprod(np.full(n, _BASE_INVERSE, dtype=_U64))  # B^-(k+1)
        powers = np.cumprod(np.full(n, _BASE, dtype=_U64))  # B^(k+1)
        weighted = (data.astype(_U64) + _U64(1)) * inverse_powers
        prefix = np.concatenate(([_U64(0)], np.cumsum(weighted, dtype=_U64)))
        hashes64 = (prefix[ends] - prefix[starts]) * powers[ends - 1]
    hashes = ((hashes64 ^ (hashes64 >> _U64(32))) & _U64(0xFFFFFFFF)).astype(np.uint32)
    owner = np.searchsorted(starts_of_texts, starts, side="right") - 1
    keyed = np.sort((owner.astype(_U64) << _U64(32)) | hashes.astype(_U64))
    keyed = keyed[np.concatenate(([True], keyed[1:] != keyed[:-1]))]  # distinct, sorted
    owner = (keyed >> _U64(32)).astype(np.int64)
    offsets = np.searchsorted(owner, np.arange(len(texts) + 1), side="left")
    return (keyed & _U64(0xFFFFFFFF)).astype(np.uint32), offsets.astype(np.int64)


def signatures(words: np.ndarray, offsets: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """datasketch's MinHash (affine32) of each text's words: ``min(a * fmix(h) + b)`` per
    permutation, modulo 2**32, one row per text (every text must have a word)."""
    with np.errstate(over="ignore"):
        permuted = a[:, None] * _fmix32(words)[None, :] + b[:, None]  # permutation x word
    return np.minimum.reduceat(permuted, offsets[:-1], axis=1).T


@dataclass(frozen=True)
class Pair:
    """Two texts verified alike: their keys and their word sets' Jaccard similarity."""

    first: Hashable
    second: Hashable
    similarity: float


@dataclass(frozen=True)
class Cluster:
    """Texts linked by verified pairs; ``similarity`` is the lowest of those pairs."""

    keys: tuple[Hashable, ...]
    similarity: float


class NearDuplicateIndex:
    """Collects texts (:meth:`add`), sketching them a chunk at a time; :meth:`finish` buckets
    the bands and verifies the candidates. Keeps only each text's word hashes (about 400
    bytes for a note of 100 words) and its 64-number signature, never the text."""

    def __init__(self, threshold: float = DEFAULT_THRESHOLD) -> None:
        self.threshold = threshold
        self._a, self._b = permutations()
        self._pending: list[tuple[Hashable, Hashable, str]] = []
        self._keys: list[Hashable] = []
        self._places: list[Hashable] = []
        self._signatures: list[np.ndarray] = []
        self._words: list[np.ndarray] = []
        self._sizes: list[np.ndarray] = []

    def add(self, key: Hashable, place: Hashable, text: str) -> None:
        self._pending.append((key, place, text))
        if len(self._pending) >= CHUNK_TEXTS:
            self._sketch()

    def _sketch(self) -> None:
        pending, self._pending = self._pending, []
        if not pending:
            return
        words, offsets = chunk_words([text for _, _, text in pending])
        sizes = np.diff(offsets)
        keep = np.flatnonzero(sizes >= MIN_WORDS)
        if keep.size == 0:
            return
        kept_words = np.concatenate([words[offsets[i] : offsets[i + 1]] for i in keep])
        kept_sizes = sizes[keep]
        kept_offsets = np.concatenate(([0], np.cumsum(kept_sizes)))
        self._signatures.append(signatures(kept_words, kept_offsets, self._a, self._b))
        self._words.append(kept_words)
        self._sizes.append(kept_sizes)
        for i in keep:
            self._keys.append(pending[i][0])
            self._places.append(pending[i][1])

    def finish(self) -> list[Pair]:
        """Every verified pair, each text linked to the first text of its bucket."""
        self._sketch()
        if not self._keys:
            return []
        sig = np.concatenate(self._signatures)
        words = np.concatenate(self._words)
        offsets = np.concatenate(([0], np.cumsum(np.concatenate(self._sizes))))
        place_ids: dict[Hashable, int] = {}
        places = np.fromiter(
            (place_ids.setdefault(p, len(place_ids)) for p in self._places),
            dtype=np.uint64,
            count=len(self._places),
        )
        parent = np.arange(len(self._keys))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = int(parent[i])
            return i

        pairs: list[Pair] = []
        bands, rows = BANDS
        for band in range(bands):
            for leader, members in candidates(sig[:, band * rows : (band + 1) * rows], places):
                for member in members:
                    top, other = root(leader), root(member)
                    if top == other:
                        continue
                    mine = words[offsets[leader] : offsets[leader + 1]]
                    theirs = words[offsets[member] : offsets[member + 1]]
                    common = np.intersect1d(mine, theirs, assume_unique=True).size
                    similarity = common / (mine.size + theirs.size - common)
                    if similarity >= self.threshold:
                        pairs.append(Pair(self._keys[leader], self._keys[member], similarity))
                        parent[other] = top
        return pairs


def candidates(band: np.ndarray, places: np.ndarray) -> Iterable[tuple[int, np.ndarray]]:
    """Buckets of one band: texts of one place whose band values are all equal (what
    ``MinHashLSH`` calls candidates), as (first text, the others) in text order."""
    keyed = np.concatenate([places[:, None], band.astype(np.uint64)], axis=1)
    order = np.lexsort(keyed.T[::-1])
    ordered = keyed[order]
    same = np.all(ordered[1:] == ordered[:-1], axis=1)
    if not same.any():
        return
    edges = np.diff(np.concatenate(([False], same, [False])).astype(np.int8))
    for start, end in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True):
        members = np.sort(order[start : end + 1])  # lexsort is stable: already in order
        yield int(members[0]), members[1:]


def clusters(pairs: Iterable[Pair]) -> list[Cluster]:
    """The connected groups of the verified pairs (union-find), in first-met order."""
    parent: dict[Hashable, Hashable] = {}

    def root(key: Hashable) -> Hashable:
        parent.setdefault(key, key)
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    pair_list = list(pairs)
    for pair in pair_list:
        a, b = root(pair.first), root(pair.second)
        if a != b:
            parent[b] = a
    lowest: dict[Hashable, float] = {}
    for pair in pair_list:
        top = root(pair.first)
        lowest[top] = min(lowest.get(top, 1.0), pair.similarity)
    members: dict[Hashable, list[Hashable]] = {}
    for key in parent:
        members.setdefault(root(key), []).append(key)
    return [Cluster(tuple(keys), lowest[top]) for top, keys in members.items()]


def near_duplicates(
    items: Iterable[tuple[Hashable, Hashable, str]],
    progress: Progress | None = None,
    *,
    total: int = 0,
    threshold: float = DEFAULT_THRESHOLD,
) -> list[Cluster]:
    """Groups of near-duplicate texts among ``(key, place, text)`` items."""
    index = NearDuplicateIndex(threshold)
    for done, (key, place, text) in enumerate(items, 1):
        index.add(key, place, text)
        if progress is not None:
            progress.step(done, total or None)
    return clusters(index.finish())
