"""At start, the readers of a persona folder do not list it beside each other.

The page's first listing takes its stat keys from the pass it read (no second pass); the
sidebar's count and the journal's first look wait while the page lists the folder. Counts,
not times.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtWidgets import QApplication

from memory_desk.core import folder_stats
from memory_desk.core.persona import PersonaFolder
from memory_desk.ui.persona import listing as page_listing
from test_persona_page_speed import HeldListing, write_folder
from window_helpers import wait_persona_read, wait_until

pytest_plugins = ["window_fixture"]


class ScandirCount:
    """Counts real ``os.scandir`` calls on one folder (they run unchanged)."""

    def __init__(self, monkeypatch, folder: Path) -> None:
        self.calls = 0
        real, wanted = os.scandir, os.path.realpath(folder)

        def counting(path=".", *args, **kwargs):
            # (a pass lists the folder by a descriptor of it where the system can)
            named = os.readlink(f"/proc/self/fd/{path}") if isinstance(path, int) else path
            if os.path.realpath(os.fspath(named)) == wanted:
                self.calls += 1
            return real(path, *args, **kwargs)

        monkeypatch.setattr(os, "scandir", counting)


def test_a_listing_takes_its_stat_keys_from_the_pass_it_read(tmp_path: Path, monkeypatch) -> None:
    folder_path = write_folder(tmp_path / "memory", count=400)
    count = ScandirCount(monkeypatch, folder_path)
    listed = page_listing.list_folder(PersonaFolder(folder_path), None)
    assert count.calls == 1  # one pass: the entries and the keys
    assert len(listed.keys) == 401 and all(key is not None for key, *_ in listed.keys.values())


def after_the_pass(monkeypatch, change) -> None:
    """The listing's pass is taken, then ``change`` happens: a writer between the pass and the
    listing's reads of the files (a race, made to happen every time)."""
    real_take, pending = folder_stats.take, [change]

    def take(path):
        taken = real_take(path)
        while pending:
            pending.pop()()  # (once: the first pass is the listing's)
        return taken

    monkeypatch.setattr(folder_stats, "take", take)


def test_a_file_the_pass_saw_but_the_listing_did_not_read_counts_as_changed(
    tmp_path: Path, monkeypatch
) -> None:
    folder_path = write_folder(tmp_path / "memory", count=400)
    after_the_pass(monkeypatch, (folder_path / "entry-00007.md").unlink)  # gone before it is read
    listed = page_listing.list_folder(PersonaFolder(folder_path), None)
    assert "entry-00007" not in {entry.name for entry in listed.entries}
    assert listed.keys["entry-00007.md"][0] is None  # the next look settles it
    later, changed = page_listing.scan_changes(folder_path, listed.keys)
    assert "entry-00007.md" in changed and "entry-00007.md" not in later


def test_only_the_files_not_read_whole_in_the_passs_version_count_as_changed(
    tmp_path: Path, monkeypatch
) -> None:
    """The page's stat keys are made after the listing is shown, from the pass and the files
    the listing could not vouch for: a file rewritten after the pass, a link, a large file
    (read by its start). Every other key is the pass's, and nothing is read twice."""
    from memory_desk.core.persona import reading

    monkeypatch.setattr(reading, "RACY_NS", 0)  # (files just written count as settled)
    folder_path = write_folder(tmp_path / "memory", count=400)
    (folder_path / "linked.md").symlink_to(folder_path / "entry-00003.md")
    large = (folder_path / "entry-00005.md").read_text("utf-8") + "x" * reading.LARGE_ENTRY_BYTES
    (folder_path / "entry-00005.md").write_text(large, "utf-8")

    def rewrite() -> None:  # after the pass, before the page reads it
        with (folder_path / "entry-00009.md").open("a", encoding="utf-8") as handle:
            handle.write("one more line\n")

    after_the_pass(monkeypatch, rewrite)
    made = []
    real_keys_of = page_listing.keys_of
    monkeypatch.setattr(page_listing, "keys_of", lambda *a: made.append(1) or real_keys_of(*a))
    listed = page_listing.list_folder(PersonaFolder(folder_path), None)
    assert made == [] and listed.unsure  # (the keys wait; the page scans again at once)
    changed = {name for name, (key, *_rest) in listed.keys.items() if key is None}
    assert changed == {"linked.md", "entry-00005.md", "entry-00009.md"}
    assert made == [1] and listed.keys is listed.keys  # made once
    later, found = page_listing.scan_changes(folder_path, listed.stat_keys)
    assert set(found) == changed and all(key is not None for key, *_ in later.values())


def test_a_folder_read_whole_in_the_passs_version_needs_no_second_look(
    tmp_path: Path, monkeypatch
) -> None:
    from memory_desk.core.persona import reading

    monkeypatch.setattr(reading, "RACY_NS", 0)  # (files just written count as settled)
    folder_path = write_folder(tmp_path / "memory", count=400)
    listed = page_listing.list_folder(PersonaFolder(folder_path), None)
    assert not listed.unsure
    assert page_listing.scan_changes(folder_path, listed.stat_keys)[1] == []


def test_the_sidebar_and_the_journal_wait_while_the_page_lists_the_folder(
    qtbot, tmp_path: Path, open_window, monkeypatch
) -> None:
    from memory_desk.ui.sources import sidebar as sidebar_module

    folder_path = write_folder(tmp_path / "memory")
    counted: list[str] = []
    from memory_desk.core.persona import scan  # (the sidebar imports its count from there)

    real_counts = scan.folder_counts
    monkeypatch.setattr(
        scan, "folder_counts", lambda path: counted.append(str(path)) or real_counts(path)
    )
    monkeypatch.setattr(sidebar_module, "FOLDER_COUNT_DELAY_MS", 1)  # due at once
    held = HeldListing(monkeypatch)
    window = open_window(["--persona", str(folder_path)])
    page = window.persona_page
    wait_until(lambda: held.first_screen.is_set())
    desk = window.review
    scanned: list[str] = []
    real_scan = desk.runner.scan
    monkeypatch.setattr(
        desk.runner, "scan", lambda store: scanned.append(store.kind) or real_scan(store)
    )
    try:
        desk.start()
        for _ in range(20):  # the sidebar's timer is due many times over
            qtbot.wait(5)
            QApplication.processEvents()
        assert page.is_listing()
        assert counted == [] and window.sidebar.is_counting()  # waiting, not listing
        assert "persona" not in scanned  # the journal's first look waits too
    finally:
        held.release.set()
    wait_persona_read(window)
    wait_until(lambda: "persona" in scanned, what="the journal to look at the listed folder")
    wait_until(lambda: not window.sidebar.is_counting())
    assert counted == []  # the page counted it
    assert window.sidebar.tree.currentItem().text(1).startswith(f"{len(page.entries()):,}")


def test_the_sidebar_does_not_list_a_big_folders_names_on_the_windows_thread(
    qtbot, tmp_path: Path, open_window, monkeypatch
) -> None:
    """20,000 names took 20-60 ms of a start: a big folder shows "…" until it is counted off
    the window's thread (here, by the page's listing)."""
    import threading

    from memory_desk.ui.sources import sidebar as sidebar_module

    folder_path = write_folder(tmp_path / "memory")
    named_on_main: list[str] = []
    real_names = PersonaFolder.names

    def names(folder):
        if threading.current_thread() is threading.main_thread():
            named_on_main.append(str(folder.path))
        return real_names(folder)

    monkeypatch.setattr(PersonaFolder, "names", names)
    monkeypatch.setattr(sidebar_module, "FOLDER_COUNT_DELAY_MS", 60_000)
    held = HeldListing(monkeypatch)
    window = open_window(["--persona", str(folder_path)])
    wait_until(lambda: held.first_screen.is_set())
    try:
        assert window.sidebar.tree.currentItem().text(1) == "…"
    finally:
        held.release.set()
    wait_persona_read(window)
    page = window.persona_page
    wait_until(lambda: window.sidebar.tree.currentItem().text(1) != "…")
    assert window.sidebar.tree.currentItem().text(1).startswith(f"{len(page.entries()):,}")
    assert named_on_main == []
