"""Listing a persona folder quickly: what is read again, and results equal to the slow path.

The progressive listing shows the newest files first and ends with exactly a plain listing;
two readers of one folder at once (the page and the sidebar's count) agree; a file the agent
rewrote is read again by the folder's next listing, and only that one. Folders are written
exactly as agent-kit writes them; no time is asserted.
"""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest

from memory_desk.core import folder_stats
from memory_desk.core.persona import PROMPT_LIMIT, PersonaFolder
from memory_desk.ui.sources.sidebar import _folder_counts
from persona_files import agent_file, stamp


def write_folder(path: Path, count: int, seed: int = 3) -> Path:
    """``count`` agent files, plus two the agent does not see; modification times shuffled
    apart from names and ``updated`` (so "newest file" and "agent order" differ)."""
    rng = random.Random(seed)
    path.mkdir(parents=True, exist_ok=True)
    names = [f"entry-{n:05d}" for n in range(count)] + ["Odd Name", "Another_Odd"]
    times = list(range(len(names)))
    rng.shuffle(times)
    base = 1_700_000_000_000_000_000
    for n, (name, when) in enumerate(zip(names, times, strict=True)):
        file = path / f"{name}.md"
        file.write_bytes(
            agent_file(name, f"About {n} {rng.random()}", stamp(rng.randrange(500)), "x.")
        )
        os.utime(file, ns=(base + when * 1_000_000_000, base + when * 1_000_000_000))
    return path


@pytest.fixture(autouse=True)
def settled_files(monkeypatch):
    """Every file counts as settled (they were all just written)."""
    monkeypatch.setattr("memory_desk.core.persona.reading.RACY_NS", 0)


def newest_names(folder: Path, count: int) -> set[str]:
    files = sorted(folder.glob("*.md"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    return {p.stem for p in files[:count]}


def test_progress_shows_the_newest_files_first_in_listing_order(tmp_path: Path) -> None:
    folder_path = write_folder(tmp_path / "memory", 400)
    calls = []
    folder = PersonaFolder(folder_path, trash=tmp_path / "trash")
    result = folder.entries(progress=lambda *args: calls.append(args), first=120)
    assert len(calls) == 1
    read, total, shown = calls[0]
    assert (read, total) == (120, 402)
    assert {e.name for e in shown} == newest_names(folder_path, 120)
    order = [e.name for e in result]
    assert [e.name for e in shown] == [n for n in order if n in {e.name for e in shown}]
    final = {e.name: e for e in result}
    beyond = [e for e in shown if any(p.code == "beyond-prompt" for p in e.problems)]
    assert beyond, "the first 120 hold more than PROMPT_LIMIT entries the agent sees"
    assert all(final[e.name] is e for e in beyond)  # a mark known early stays, same object
    later = [final[e.name] for e in shown if e not in beyond and final[e.name] is not e]
    assert later, "some entries learn only at the end that they are past the prompt"
    assert all(e.problems[-1].code == "beyond-prompt" for e in later)
    assert result == PersonaFolder(folder_path, trash=tmp_path / "trash").entries()
    assert len([e for e in result if e.agent_visible]) > PROMPT_LIMIT


def test_progress_is_called_once_in_a_folder_smaller_than_first(tmp_path: Path) -> None:
    folder_path = write_folder(tmp_path / "memory", 10)
    calls = []
    folder = PersonaFolder(folder_path, trash=tmp_path / "trash")
    result = folder.entries(progress=lambda *args: calls.append(args), first=300)
    assert [(read, total) for read, total, _ in calls] == [(12, 12)]
    assert calls[0][2] == result
    assert folder.entries(progress=lambda *args: calls.append(args)) == result
    assert len(calls) == 2  # a second listing tells its progress too (from the cache)


def test_two_readers_of_one_folder_at_once_agree(tmp_path: Path) -> None:
    folder_path = write_folder(tmp_path / "memory", 2000)
    start = threading.Barrier(2)
    results: dict[str, object] = {}

    def page() -> None:
        start.wait()
        results["page"] = PersonaFolder(folder_path, trash=tmp_path / "trash").entries(
            progress=lambda *_: None
        )

    def sidebar() -> None:
        start.wait()
        results["sidebar"] = _folder_counts(folder_path)

    threads = [threading.Thread(target=page), threading.Thread(target=sidebar)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    entries = results["page"]
    assert results["sidebar"] == (len(entries), sum(1 for e in entries if e.problems))


def test_the_first_screen_does_not_wait_for_another_listing_of_the_folder(
    tmp_path: Path,
) -> None:
    folder_path = write_folder(tmp_path / "memory", 1000)
    shown = threading.Event()
    results: dict[str, object] = {}

    def page() -> None:
        results["page"] = PersonaFolder(folder_path, trash=tmp_path / "trash").entries(
            progress=lambda read, _total, _entries: shown.set(), first=100
        )

    lock = folder_stats.reading_lock(folder_path.resolve())
    with lock:  # another listing (the sidebar's count) is reading the folder
        thread = threading.Thread(target=page)
        thread.start()
        assert shown.wait(30), "the first screen waited for the other listing"
        assert "page" not in results  # the rest does wait
    thread.join()
    assert len(results["page"]) == 1002


def test_a_rewritten_file_is_read_again_and_only_that_one(tmp_path: Path) -> None:
    """The folder's next listing gives the very entry objects it kept for unchanged files."""
    folder_path = write_folder(tmp_path / "memory", 2000)
    folder = PersonaFolder(folder_path, trash=tmp_path / "trash")
    first = {e.name: e for e in folder.entries()}
    file = folder_path / "entry-00042.md"
    old = file.stat()
    data = file.read_bytes().replace(b"About", b"Abut!")  # same size, as the agent rewrites
    tmp = folder_path / ".entry-00042.md.tmp"
    tmp.write_bytes(data)
    os.replace(tmp, file)
    os.utime(file, ns=(old.st_atime_ns, old.st_mtime_ns))  # even the old modification time
    again = folder.entries()
    read_again = [e.name for e in again if first[e.name] is not e]
    assert read_again == ["entry-00042"]
    assert next(e for e in again if e.name == "entry-00042").description.startswith("Abut!")
    assert again == PersonaFolder(folder_path, trash=tmp_path / "trash").entries()


def test_a_file_rewritten_in_place_with_its_old_times_is_parsed_again(tmp_path: Path) -> None:
    """Written in place (same inode, same size), its modification time set back: only the
    change time tells, and it is part of the key."""
    folder_path = write_folder(tmp_path / "memory", 50)
    folder = PersonaFolder(folder_path, trash=tmp_path / "trash")
    folder.entries()
    file = folder_path / "entry-00007.md"
    old = file.stat()
    file.write_bytes(file.read_bytes().replace(b"About", b"Abut!"))
    os.utime(file, ns=(old.st_atime_ns, old.st_mtime_ns))
    assert file.stat().st_ino == old.st_ino and file.stat().st_size == old.st_size
    again = folder.entries()
    assert next(e for e in again if e.name == "entry-00007").description.startswith("Abut!")


def test_the_sidebars_count_is_the_listings_count(tmp_path: Path) -> None:
    """Counted without the listing's marked copies: entries past the prompt's limit count
    once whether or not they have problems of their own."""
    folder_path = write_folder(tmp_path / "memory", 150)
    for n in (0, 3, 70, 120):  # problems of their own, before and past the limit
        file = folder_path / f"entry-{n:05d}.md"
        file.write_bytes(file.read_bytes().replace(b"type: user", b"type: other"))
    (folder_path / "no-header.md").write_bytes(b"just text\n")
    entries = PersonaFolder(folder_path, trash=tmp_path / "trash").entries()
    assert _folder_counts(folder_path) == (len(entries), sum(1 for e in entries if e.problems))
