"""One lstat pass over a folder (memory_desk.core.folder_stats), on real folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memory_desk.core import folder_stats
from memory_desk.core.folder_stats import FolderStats


def names(listing: FolderStats) -> set[str]:
    return {name for name, _st in listing.items}


def make(tmp_path: Path, count: int = 20) -> Path:
    folder = tmp_path / "memory"
    folder.mkdir()
    for n in range(count):
        (folder / f"entry-{n}.md").write_text(f"entry {n}\n")
    return folder


def test_a_pass_sees_every_file_there_when_it_is_taken(tmp_path: Path) -> None:
    folder = make(tmp_path)
    first = folder_stats.take(folder)
    (folder / "later.md").write_text("later\n")
    assert "later.md" not in names(first)
    assert "later.md" in names(folder_stats.take(folder))
    assert len(names(first)) == 20


def test_a_missing_folder_raises_its_own_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        folder_stats.take(tmp_path / "not-there")


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
