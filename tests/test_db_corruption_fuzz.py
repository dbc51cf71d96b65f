"""Random page corruption of copies of a plugin-built database (a seeded loop, CI-sized).

For each seed, a copy gets a few random pages overwritten (whole pages of noise, or a few
bytes inside a page). Opening, searching, reading and checking must never crash nor raise
anything but StoreError; once a check finds the copy damaged, a write is refused and the
file's bytes are the same after the refused write as before.
"""

from __future__ import annotations

import contextlib
import random
import shutil
from pathlib import Path

import pytest

from alisio_fixtures import build_database
from memory_desk.core import StoreError
from memory_desk.core.observations import ObservationStore, StoreDamaged

SEEDS = range(120)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_database(tmp_path_factory.mktemp("fuzz") / "memory.sqlite", 120, seed=9)


def corrupt(path: Path, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big") or 65536
    pages = len(data) // page_size
    for _ in range(rng.randint(1, 3)):
        page = rng.randrange(pages)
        start = page * page_size
        if rng.random() < 0.5:
            data[start : start + page_size] = rng.randbytes(page_size)
        else:
            for _ in range(rng.randint(1, 16)):
                data[start + rng.randrange(page_size)] = rng.randrange(256)
    path.write_bytes(bytes(data))


def read_everything(store: ObservationStore) -> None:
    """Every kind of read the window makes; each may refuse with StoreError, nothing else."""
    reads = (
        lambda: store.search(limit=50, with_content=True),
        lambda: store.search("note", limit=20),
        lambda: store.search("ab", include_forgotten=True),
        lambda: store.count("decision"),
        lambda: store.totals(),
        lambda: store.projects(),
        lambda: [store.get(i) for i in (1, 2, 60, 119)],
        lambda: store.get_many(range(1, 130)),
        lambda: store.agent_search("token refresh", project=None, all_projects=True),
        lambda: store.data_version(),
    )
    for read in reads:
        with contextlib.suppress(StoreError):
            read()


@pytest.mark.parametrize("chunk", range(4))
def test_damaged_copies_never_crash_and_are_never_written(
    template: Path, tmp_path: Path, chunk: int
) -> None:
    refused = damaged = 0
    for seed in SEEDS[chunk::4]:
        copy = tmp_path / f"copy-{seed}.sqlite"
        shutil.copy(template, copy)
        corrupt(copy, random.Random(seed))
        try:
            store = ObservationStore(copy)
        except StoreError:
            continue
        with store:
            read_everything(store)
            try:
                health = store.check_database()
            except StoreError:
                health = None
            found_damaged = store.damage is not None
            before = copy.read_bytes()
            try:
                store.pin([1, 2, 3])
                store.forget([4])
            except StoreError as exc:
                refused += 1
                assert copy.read_bytes() == before, f"seed {seed}: a refused write wrote"
                if found_damaged:
                    assert isinstance(exc, StoreDamaged), f"seed {seed}: {exc}"
            else:
                assert not found_damaged, f"seed {seed}: a damaged copy was written"
            if health is not None and not health.ok:
                damaged += 1
                assert health.message
    assert damaged > 0 and refused >= damaged  # the loop did meet damage it could detect
