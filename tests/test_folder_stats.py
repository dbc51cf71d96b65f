"""One lstat pass over a folder at a time, shared by its readers (memory_desk.core.folder_stats).

Real folders and real passes; a gate only holds a pass open so that other readers arrive while
it runs (the order of events is then the test's, not the scheduler's).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from memory_desk.core import folder_stats
from memory_desk.core.folder_stats import FolderStats, _Passes
from window_helpers import wait_until


def names(listing: FolderStats) -> set[str]:
    return {name for name, _st in listing.items}


def make(tmp_path: Path, count: int = 20) -> Path:
    folder = tmp_path / "memory"
    folder.mkdir()
    for n in range(count):
        (folder / f"entry-{n}.md").write_text(f"entry {n}\n")
    return folder


def test_a_reader_that_may_share_takes_the_pass_just_done_and_a_fresh_one_sees_later_files(
    tmp_path: Path,
) -> None:
    folder = make(tmp_path)
    passes = _Passes()
    first = passes.take(folder, fresh=True)
    (folder / "later.md").write_text("later\n")
    shared = passes.take(folder, fresh=False)
    assert shared is first and "later.md" not in names(shared)
    fresh = passes.take(folder, fresh=True)
    assert "later.md" in names(fresh)
    assert passes.runs == 2


def test_readers_arriving_during_a_pass_share_one_pass_after_it(tmp_path: Path) -> None:
    """Fresh readers that arrive while a pass runs wait for it and then share ONE new pass
    (it started after each of them asked); a reader that may share joins the pass under way."""
    folder = make(tmp_path)
    gate, entered = threading.Event(), threading.Event()

    def gated(path: str) -> FolderStats:
        if not entered.is_set():
            entered.set()
            assert gate.wait(20)
        return folder_stats._pass(path)

    passes = _Passes(run=gated)
    results: dict[str, FolderStats] = {}

    def reader(label: str, fresh: bool) -> None:
        results[label] = passes.take(folder, fresh=fresh)

    first = threading.Thread(target=reader, args=("first", True))
    first.start()
    assert entered.wait(20)
    (folder / "written-during-the-pass.md").write_text("x\n")
    others = [threading.Thread(target=reader, args=(f"fresh{n}", True)) for n in range(4)]
    others.append(threading.Thread(target=reader, args=("sharing", False)))
    for thread in others:
        thread.start()
    wait_until(lambda: passes.waiting == 5)
    gate.set()
    for thread in [first, *others]:
        thread.join(20)
    assert passes.runs == 2
    assert results["sharing"] is results["first"]
    second = {id(results[f"fresh{n}"]) for n in range(4)}
    assert len(second) == 1 and id(results["first"]) not in second
    assert "written-during-the-pass.md" in names(results["fresh0"])


def test_a_failed_pass_raises_for_every_reader_and_is_not_kept(tmp_path: Path) -> None:
    passes = _Passes()
    missing = tmp_path / "not-there"
    with pytest.raises(FileNotFoundError):
        passes.take(missing, fresh=True)
    with pytest.raises(FileNotFoundError):
        passes.take(missing, fresh=False)  # (no failed pass is shared)
    assert passes.runs == 2


def test_the_entry_view_of_a_pass_leaves_out_folders_named_like_entries(
    tmp_path: Path,
) -> None:
    folder = make(tmp_path, 2)
    (folder / "folder.md").mkdir()
    (folder / "note.txt").write_text("x\n")
    listing = folder_stats.take(folder)
    assert {name for name, _st in listing.regular_or_link(".md")} == {"entry-0.md", "entry-1.md"}
    assert names(listing) == {"entry-0.md", "entry-1.md", "folder.md", "note.txt"}


def test_the_entry_files_of_a_pass_are_the_names_a_listing_takes(tmp_path: Path) -> None:
    """``regular_or_link(".md", hidden=False)``: every name ``is_entry_file_name`` takes that
    is not a folder, links and files whose ``lstat`` failed included."""
    from memory_desk.core.persona.reading import is_entry_file_name

    for name in ("tea.md", ".tea.md", ".md", "notes.txt", "x.md.swp", "Odd Name.md"):
        (tmp_path / name).write_text("x")
    (tmp_path / "folder.md").mkdir()
    (tmp_path / "link.md").symlink_to(tmp_path / "tea.md")
    listing = folder_stats.take(str(tmp_path))
    taken = sorted(name for name, _st in listing.regular_or_link(".md", hidden=False))
    expected = sorted(n for n in os.listdir(tmp_path) if is_entry_file_name(n) and n != "folder.md")
    assert taken == expected == ["Odd Name.md", "link.md", "tea.md"]
