"""FolderWatcher against real folders and real second processes writing them."""

from __future__ import annotations

import errno
import logging
import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver
from watchdog.utils import BaseThread

from agents.live_writers import writer_argv
from memory_desk.ui.live import FolderWatcher, WatchTiming, read_when_stable

OLD = (
    "---\nname: no-fish-puns\ndescription: Dislikes fish puns\ntype: feedback\n"
    "updated: 2026-10-07T13:15:05.678Z\n---\n\nRule: no fish puns.\n"
)
NEW = (
    "---\nname: no-fish-puns\ndescription: Dislikes puns about fish; avoid fish jokes\n"
    "type: feedback\nupdated: 2026-10-08T09:00:00.000Z\n---\n\n"
    + "Rule: never tell jokes or puns about fish to this person. " * 40
    + "\n"
)
QUIET_MS = 700  # longer than the debounce's maximum latency: a second report would show


class Recorder:
    """Collects paths_changed reports, reading each path at the moment it is reported."""

    def __init__(self, watcher: FolderWatcher) -> None:
        self.reports: list[list[str]] = []
        self.contents: dict[str, bytes | None] = {}
        watcher.paths_changed.connect(self.on_paths_changed)

    def on_paths_changed(self, folder: str, paths: list[str]) -> None:
        self.reports.append(paths)
        for path in paths:
            self.contents[path] = read_when_stable(path)

    @property
    def paths(self) -> set[str]:
        return {path for report in self.reports for path in report}


@pytest.fixture
def make_watcher() -> Iterator[Callable[..., FolderWatcher]]:
    made: list[FolderWatcher] = []

    def make(**kwargs: object) -> FolderWatcher:
        watcher = FolderWatcher(**kwargs)  # type: ignore[arg-type]
        made.append(watcher)
        return watcher

    yield make
    for watcher in made:
        watcher.stop()
    assert not _watchdog_threads()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "memory"
    path.mkdir()
    return Path(os.path.realpath(path))


def _watchdog_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if isinstance(t, BaseThread) and t.is_alive()]


def _run_writer(qtbot, *args: str, data: bytes = b"") -> None:  # noqa: ANN001
    """Run a writer process while the event loop keeps turning (events arrive live)."""
    proc = subprocess.Popen(writer_argv(*args), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.close()
    qtbot.waitUntil(lambda: proc.poll() is not None, timeout=15_000)
    assert proc.returncode == 0


def test_agent_rewrite_in_chunks_is_reported_once_and_complete(make_watcher, folder, qtbot):
    entry = folder / "no-fish-puns.md"
    entry.write_text(OLD, encoding="utf-8")
    watcher = make_watcher()
    recorder = Recorder(watcher)
    assert watcher.watch(folder) == str(folder)

    _run_writer(
        qtbot, "write-chunked", str(entry), "--chunks", "4", "--pause", "0.02", data=NEW.encode()
    )
    qtbot.waitUntil(lambda: bool(recorder.reports), timeout=5_000)
    with qtbot.assertNotEmitted(watcher.paths_changed, wait=QUIET_MS):
        pass

    assert recorder.reports == [[str(entry)]]
    assert recorder.contents[str(entry)] == NEW.encode()


def test_editor_save_through_temp_file_names_the_final_path(make_watcher, folder, qtbot):
    entry = folder / "prefers-tabs.md"
    entry.write_text(OLD, encoding="utf-8")
    watcher = make_watcher()
    recorder = Recorder(watcher)
    watcher.watch(folder)

    _run_writer(qtbot, "write-atomic", str(entry), data=NEW.encode())
    qtbot.waitUntil(lambda: str(entry) in recorder.paths, timeout=5_000)
    with qtbot.assertNotEmitted(watcher.paths_changed, wait=QUIET_MS):
        pass

    assert recorder.paths == {str(entry)}  # the temporary file appeared and vanished
    assert recorder.contents[str(entry)] == NEW.encode()


def test_delete_and_rename_are_reported(make_watcher, folder, qtbot):
    gone, old_name, new_name = folder / "gone.md", folder / "old-name.md", folder / "new-name.md"
    gone.write_text(OLD, encoding="utf-8")
    old_name.write_text(OLD, encoding="utf-8")
    watcher = make_watcher()
    recorder = Recorder(watcher)
    watcher.watch(folder)

    gone.unlink()
    old_name.rename(new_name)
    expected = {str(gone), str(old_name), str(new_name)}
    qtbot.waitUntil(lambda: recorder.paths >= expected, timeout=5_000)

    assert recorder.contents[str(gone)] is None
    assert recorder.contents[str(old_name)] is None
    assert recorder.contents[str(new_name)] == OLD.encode()


def test_a_file_that_appears_and_vanishes_is_not_reported(make_watcher, folder, qtbot):
    watcher = make_watcher()
    recorder = Recorder(watcher)
    watcher.watch(folder)

    flash = folder / "flash.md"
    flash.write_text(OLD, encoding="utf-8")
    flash.unlink()
    (folder / "stays.md").write_text(OLD, encoding="utf-8")
    qtbot.waitUntil(lambda: bool(recorder.reports), timeout=5_000)
    with qtbot.assertNotEmitted(watcher.paths_changed, wait=QUIET_MS):
        pass

    assert recorder.paths == {str(folder / "stays.md")}


def test_own_writes_registered_with_expect_write_are_not_reported(make_watcher, folder, qtbot):
    entry, dropped = folder / "mine.md", folder / "dropped.md"
    dropped.write_text(OLD, encoding="utf-8")
    watcher = make_watcher()
    recorder = Recorder(watcher)
    watcher.watch(folder)

    # The page's atomic save: temp file in the same folder, then a rename over the entry.
    watcher.expect_write(entry, NEW.encode())
    temp = folder / ".mine.md.tmp"
    temp.write_bytes(NEW.encode())
    os.replace(temp, entry)
    watcher.expect_write(dropped, None)
    dropped.unlink()
    with qtbot.assertNotEmitted(watcher.paths_changed, wait=QUIET_MS):
        pass

    # The agent then writes something else: that is not an echo and must be reported.
    _run_writer(qtbot, "write-chunked", str(entry), "--chunks", "1", data=OLD.encode())
    qtbot.waitUntil(lambda: bool(recorder.reports), timeout=5_000)
    assert recorder.paths == {str(entry)}
    assert recorder.contents[str(entry)] == OLD.encode()


def test_an_expectation_that_does_not_match_is_reported(make_watcher, folder, qtbot):
    entry = folder / "race.md"
    watcher = make_watcher()
    recorder = Recorder(watcher)
    watcher.watch(folder)

    watcher.expect_write(entry, OLD.encode())
    _run_writer(qtbot, "write-atomic", str(entry), data=NEW.encode())
    qtbot.waitUntil(lambda: str(entry) in recorder.paths, timeout=5_000)
    assert recorder.contents[str(entry)] == NEW.encode()


class _LimitedObserver(Observer):  # type: ignore[misc, valid-type]
    """The native observer on a system where only one more folder can be watched."""

    def __init__(self) -> None:
        super().__init__()
        self._scheduled = 0

    def schedule(self, *args: object, **kwargs: object):  # noqa: ANN201
        if self._scheduled >= 1:
            raise OSError(errno.ENOSPC, "inotify watch limit reached")
        self._scheduled += 1
        return super().schedule(*args, **kwargs)


def _native_cannot_start() -> BaseObserver:
    raise OSError(errno.EMFILE, "inotify instance limit reached")


@pytest.mark.parametrize("when", ["at start", "on a later folder"])
def test_falls_back_to_polling_when_native_cannot_start(make_watcher, tmp_path, qtbot, when):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    factory = _native_cannot_start if when == "at start" else _LimitedObserver
    watcher = make_watcher(observer_factory=factory, timing=WatchTiming(polling_interval_s=0.1))
    recorder = Recorder(watcher)
    modes: list[str] = []
    watcher.mode_changed.connect(modes.append)

    first = Path(watcher.watch(first))
    second = Path(watcher.watch(second))

    assert modes == (["polling"] if when == "at start" else ["native", "polling"])
    assert watcher.mode == "polling"
    assert "limit" in watcher.fallback_reason
    for folder in (first, second):
        _run_writer(qtbot, "write-atomic", str(folder / "entry.md"), data=NEW.encode())
    expected = {str(first / "entry.md"), str(second / "entry.md")}
    qtbot.waitUntil(lambda: recorder.paths >= expected, timeout=5_000)
    observers = [t for t in _watchdog_threads() if isinstance(t, BaseObserver)]
    assert len(observers) == 1
    assert isinstance(observers[0], PollingObserver)


def test_stop_leaves_no_watchdog_thread(make_watcher, tmp_path, qtbot):
    folders = [tmp_path / name for name in ("a", "b", "c")]
    for path in folders:
        path.mkdir()
    watcher = make_watcher()
    modes: list[str] = []
    watcher.mode_changed.connect(modes.append)
    for path in folders:
        watcher.watch(path)

    observers = [t for t in _watchdog_threads() if isinstance(t, BaseObserver)]
    assert len(observers) == 1  # one observer for every folder
    assert watcher.mode == "native"

    watcher.stop()
    assert not _watchdog_threads()
    assert modes == ["native", "off"]


def test_a_dead_observer_is_restarted(make_watcher, folder, qtbot):
    watcher = make_watcher(timing=WatchTiming(health_interval_ms=50))
    recorder = Recorder(watcher)
    watcher.watch(folder)
    dead = next(t for t in _watchdog_threads() if isinstance(t, BaseObserver))

    with qtbot.waitSignal(watcher.rescan_needed, timeout=5_000) as blocker:
        dead.stop()  # the thread ends as if it had crashed
    assert blocker.args == [str(folder)]
    assert not dead.is_alive()

    _run_writer(qtbot, "write-atomic", str(folder / "after.md"), data=NEW.encode())
    qtbot.waitUntil(lambda: str(folder / "after.md") in recorder.paths, timeout=5_000)


def _deaf_observer() -> BaseObserver:
    """A real observer that never looks: every event is 'dropped'."""
    return PollingObserver(timeout=3600)


def test_periodic_rescan_finds_changes_whose_events_were_dropped(make_watcher, folder, qtbot):
    (folder / "edited.md").write_text(OLD, encoding="utf-8")
    (folder / "deleted.md").write_text(OLD, encoding="utf-8")
    watcher = make_watcher(
        observer_factory=_deaf_observer, timing=WatchTiming(rescan_interval_ms=100)
    )
    recorder = Recorder(watcher)
    watcher.watch(folder)

    _run_writer(qtbot, "write-chunked", str(folder / "edited.md"), data=NEW.encode())
    (folder / "deleted.md").unlink()
    (folder / "created.md").write_text(OLD, encoding="utf-8")
    expected = {str(folder / name) for name in ("edited.md", "deleted.md", "created.md")}
    qtbot.waitUntil(lambda: recorder.paths >= expected, timeout=5_000)
    assert recorder.paths == expected
    assert recorder.contents[str(folder / "edited.md")] == NEW.encode()


def test_an_overflow_triggers_a_rescan(make_watcher, folder, qtbot):
    watcher = make_watcher(observer_factory=_deaf_observer)
    recorder = Recorder(watcher)
    watcher.watch(folder)
    (folder / "missed.md").write_text(OLD, encoding="utf-8")

    with qtbot.waitSignal(watcher.rescan_needed, timeout=2_000) as blocker:
        # What watchdog logs, from its inotify thread, when the kernel queue overflows.
        overflow = threading.Thread(
            target=logging.getLogger("watchdog.observers.inotify_c").warning,
            args=("Inotify queue overflowed; filesystem events were lost",),
        )
        overflow.start()
        overflow.join()
    assert blocker.args == [str(folder)]
    qtbot.waitUntil(lambda: str(folder / "missed.md") in recorder.paths, timeout=5_000)


def test_a_folder_that_appears_later_is_watched(make_watcher, tmp_path, qtbot):
    folder = tmp_path / "not-yet"
    watcher = make_watcher(timing=WatchTiming(health_interval_ms=50))
    recorder = Recorder(watcher)
    key = watcher.watch(folder)

    with qtbot.waitSignal(watcher.rescan_needed, timeout=5_000):
        folder.mkdir()
        (folder / "first.md").write_text(OLD, encoding="utf-8")
    qtbot.waitUntil(lambda: os.path.join(key, "first.md") in recorder.paths, timeout=5_000)

    _run_writer(qtbot, "write-atomic", str(folder / "second.md"), data=NEW.encode())
    qtbot.waitUntil(lambda: os.path.join(key, "second.md") in recorder.paths, timeout=5_000)


def test_read_when_stable_returns_none_for_a_missing_file(tmp_path):
    assert read_when_stable(tmp_path / "nothing.md") is None


def test_read_when_stable_reads_a_file_just_written(tmp_path):
    entry = tmp_path / "fresh.md"
    entry.write_bytes(NEW.encode())  # mtime is now: it takes two agreeing reads
    assert read_when_stable(entry) == NEW.encode()


def test_a_rescan_lists_the_folder_off_the_windows_thread(make_watcher, folder, qtbot, monkeypatch):
    """20,000 lstat calls on the window's thread froze it every 30 s, and at start."""
    from memory_desk.ui.live import folders as folders_module

    (folder / "edited.md").write_text(OLD, encoding="utf-8")
    watcher = make_watcher(observer_factory=_deaf_observer)
    recorder = Recorder(watcher)
    watcher.watch(folder)
    threads: list[str] = []
    real = folders_module._list_signatures

    def spy(path: str):  # noqa: ANN202
        threads.append(threading.current_thread().name)
        return real(path)

    monkeypatch.setattr(folders_module, "_list_signatures", spy)
    (folder / "edited.md").write_text(NEW, encoding="utf-8")  # no event: the observer is deaf
    watcher.rescan()
    qtbot.waitUntil(lambda: str(folder / "edited.md") in recorder.paths, timeout=5_000)
    assert threads and threading.main_thread().name not in threads
    assert recorder.contents[str(folder / "edited.md")] == NEW.encode()
