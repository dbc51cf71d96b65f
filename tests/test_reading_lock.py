"""One bulk reader of a folder at a time: the persona page's listing and the watcher's rescan.

A rescan's pass (20,000 ``lstat`` calls) beside a listing that reads 20,000 files ran both in
a convoy on the interpreter's lock: the listing took 1.25 s in the window instead of 0.85 s.
The listing holds ``folder_stats.reading_lock`` from its first screen to its end, and a rescan
takes the same lock. Real folders, a real watcher and real threads.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from memory_desk.core import folder_stats
from memory_desk.core.persona import PersonaFolder
from memory_desk.ui.live import FolderWatcher
from memory_desk.ui.persona.listing import FirstScreen, list_folder
from window_helpers import entry_bytes, make_persona_folder


def test_a_rescan_waits_for_a_reader_of_the_folder_and_then_reports(qtbot, tmp_path: Path):
    folder = Path(os.path.realpath(make_persona_folder(tmp_path / "memory")))
    watcher = FolderWatcher()
    reported: list[list[str]] = []
    watcher.paths_changed.connect(lambda _key, paths: reported.append(paths))
    lock = folder_stats.reading_lock(str(folder))
    try:
        watcher.hold()
        watcher.watch(folder)
        (folder / "likes-sushi.md").write_bytes(entry_bytes("likes-sushi"))  # while held
        with lock:  # a listing reads the folder's files meanwhile
            watcher.release()  # (its rescan finds what changed while held)
            qtbot.wait(600)
            assert reported == []
        qtbot.waitUntil(lambda: reported != [], timeout=5_000)
        assert reported == [[str(folder / "likes-sushi.md")]]
    finally:
        watcher.stop()


def test_a_listing_keeps_other_readers_waiting_from_its_first_screen_to_its_end(tmp_path: Path):
    names = [f"entry-{i:03d}" for i in range(40)]
    folder = Path(os.path.realpath(make_persona_folder(tmp_path / "memory", names)))
    lock = folder_stats.reading_lock(str(folder))
    other_got_it: list[float] = []

    def other_reader() -> None:
        time.sleep(0.05)  # (the listing goes on at once after its first screen)
        with lock:
            other_got_it.append(time.monotonic())

    reader = threading.Thread(target=other_reader)
    screens: list[FirstScreen] = []

    def report(screen: FirstScreen) -> None:
        screens.append(screen)
        reader.start()  # asks for the lock while the listing is under way

    def listing() -> None:
        nonlocal listed, listed_at
        listed = list_folder(PersonaFolder(folder), report)
        listed_at = time.monotonic()

    listed = None
    listed_at = 0.0
    slow = threading.Thread(target=_slowed(listing))
    slow.start()
    slow.join(20)
    reader.join(20)
    assert listed is not None and len(listed.entries) == 40 and len(screens) == 1
    assert other_got_it and other_got_it[0] >= listed_at
    assert lock.acquire(blocking=False)  # (and let go of at the end)
    lock.release()


def test_a_listing_takes_a_free_lock_at_once_and_a_held_one_after_its_first_screen(
    tmp_path: Path,
) -> None:
    """A rescan asking while the first screen is read waits too (it got the lock then, and
    held the listing up); a reader already holding the lock does not delay the first screen."""
    names = [f"entry-{i:03d}" for i in range(40)]
    folder = Path(os.path.realpath(make_persona_folder(tmp_path / "memory", names)))
    lock = folder_stats.reading_lock(str(folder))

    def free_to_others() -> bool:
        answer: list[bool] = []

        def ask() -> None:
            got = lock.acquire(blocking=False)
            answer.append(got)
            if got:
                lock.release()

        asking = threading.Thread(target=ask)
        asking.start()
        asking.join(5)
        return answer == [True]

    free_at_screen: list[bool] = []
    listed = list_folder(PersonaFolder(folder), lambda _s: free_at_screen.append(free_to_others()))
    assert free_at_screen == [False] and len(listed.entries) == 40

    held = threading.Event()
    let_go = threading.Event()

    def other_reader() -> None:
        with lock:
            held.set()
            let_go.wait(10)

    other = threading.Thread(target=other_reader)
    other.start()
    held.wait(5)
    screens: list[FirstScreen] = []
    done: list[object] = []

    def report(screen: FirstScreen) -> None:
        screens.append(screen)
        let_go.set()  # (reported while the other reader still held the lock)

    listing = threading.Thread(
        target=lambda: done.append(list_folder(PersonaFolder(folder), report))
    )
    listing.start()
    listing.join(10)
    other.join(10)
    assert len(screens) == 1 and len(done) == 1


def _slowed(listing):
    """``listing`` with the folder's problems looked at slowly, so the listing's end comes
    well after the other reader asks for the lock (50 ms after the first screen)."""
    from memory_desk.ui.persona import listing as module

    def run() -> None:
        original = module.listing_problems

        def slow_problems(*args, **kwargs):
            time.sleep(0.3)
            return original(*args, **kwargs)

        module.listing_problems = slow_problems
        try:
            listing()
        finally:
            module.listing_problems = original

    return run
