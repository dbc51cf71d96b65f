"""The near-duplicate pass is datasketch's MinHash LSH, computed in bulk.

Fed one text at a time, datasketch costs about 0.25 ms of Python per text; the pass computes
the same signatures for a thousand texts at once with numpy and buckets every band at once.
These tests hold it to datasketch itself: the signatures equal ``MinHash.update_batch`` bit
for bit, the buckets equal ``MinHashLSH``'s candidates, and the word hashes are the
polynomial the module documents, the same wherever the word stands.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from memory_desk.core.pruning import near

MASK = (1 << 64) - 1


def _reference_words(text: str) -> set[int]:
    """The module's word rule and hash, one byte at a time."""
    data = text.encode("utf-8", "surrogatepass")[: near.SKETCH_BYTES]
    words, current = set(), []
    for byte in [*data, 0]:
        if 65 <= byte <= 90:
            byte += 32
        if byte >= 0x80 or chr(byte).isascii() and (chr(byte).isalnum() or byte == 95):
            current.append(byte)
            continue
        if current:
            h = 0
            for c in current:
                h = (h * 1099511628211 + c + 1) & MASK
            words.add((h ^ (h >> 32)) & 0xFFFFFFFF)
            current = []
    return words


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(400)] + ["café", "Ünïcode", "emoji😀x", "snake_case"]
    texts: list[str] = []
    for i in range(count):
        if i % 5 == 4:  # a near copy of the text before: two words changed
            words = texts[-1].split()
            for _ in range(2):
                words[rng.randrange(len(words))] = rng.choice(vocabulary)
            texts.append(" ".join(words))
        else:
            texts.append("**What** " + " ".join(rng.choices(vocabulary, k=rng.randrange(5, 80))))
    return texts


def test_word_hashes_follow_the_documented_rule() -> None:
    texts = [*_texts(1, 60), "", "A\x00b", "UPPER lower Upper", "x" * 40_000 + " tail"]
    words, offsets = near.chunk_words(texts)
    assert offsets.size == len(texts) + 1
    for i, text in enumerate(texts):
        got = words[offsets[i] : offsets[i + 1]]
        assert list(got) == sorted(_reference_words(text)), text[:40]
    # a word hashes the same wherever it stands
    alone, _ = near.chunk_words(["needle"])
    inside, _ = near.chunk_words(["hay stack needle more hay"])
    assert alone[0] in inside


def test_signatures_are_datasketchs_minhash() -> None:
    from datasketch import MinHash

    texts = _texts(2, 120)
    words, offsets = near.chunk_words(texts)
    a, b = near.permutations()
    signatures = near.signatures(words, offsets, a, b)
    for i in range(len(texts)):
        reference = MinHash(num_perm=near.NUM_PERM, seed=1, scheme="affine32", hashfunc=int)
        reference.update_batch(words[offsets[i] : offsets[i + 1]].tolist())
        assert np.array_equal(reference.hashvalues, signatures[i])


def test_buckets_are_minhashlsh_candidates() -> None:
    from datasketch import MinHash, MinHashLSH

    texts = _texts(3, 400)
    words, offsets = near.chunk_words(texts)
    a, b = near.permutations()
    signatures = near.signatures(words, offsets, a, b)
    lsh = MinHashLSH(threshold=near.DEFAULT_THRESHOLD, num_perm=near.NUM_PERM, params=near.BANDS)
    sketches = []
    for i, row in enumerate(signatures):
        sketch = MinHash(num_perm=near.NUM_PERM, seed=1, scheme="affine32", hashvalues=row)
        sketches.append(sketch)
        lsh.insert(i, sketch)
    ours: dict[int, set[int]] = {i: {i} for i in range(len(texts))}
    places = np.zeros(len(texts), dtype=np.uint64)
    bands, rows = near.BANDS
    for band in range(bands):
        for leader, members in near.candidates(
            signatures[:, band * rows : (band + 1) * rows], places
        ):
            bucket = {leader, *(int(m) for m in members)}
            for member in bucket:
                ours[member] |= bucket
    for i, sketch in enumerate(sketches):
        assert set(lsh.query(sketch)) == ours[i]
    assert any(len(found) > 1 for found in ours.values())  # the near copies did meet


def test_near_copies_group_and_places_stay_apart() -> None:
    texts = _texts(4, 200)
    items = [(i, "alpha", t) for i, t in enumerate(texts)]
    items.append((1000, "beta", texts[0]))  # the same text in another project: not paired
    found = near.near_duplicates(items, threshold=0.8)
    grouped = {key for cluster in found for key in cluster.keys}
    assert 1000 not in grouped
    for cluster in found:
        assert all(c.similarity >= 0.8 for c in [cluster])
    # each text and its near copy (two words changed among many) are grouped
    long_pairs = [(i - 1, i) for i in range(4, 200, 5) if len(set(texts[i - 1].split())) >= 40]
    assert long_pairs
    together = 0
    for first, second in long_pairs:
        together += any(first in c.keys and second in c.keys for c in found)
    assert together >= 0.9 * len(long_pairs)


@pytest.mark.parametrize("count", [0, 1, 3])
def test_few_or_short_texts_give_no_group(count: int) -> None:
    items = [(i, "p", "one two") for i in range(count)]
    assert near.near_duplicates(items) == []
