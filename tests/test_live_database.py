"""DatabaseWatcher against a real memory.sqlite written by a real second process."""

from __future__ import annotations

import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver
from watchdog.utils import BaseThread

from agents.live_writers import writer_argv
from memory_desk.core import StoreBusy, StoreError, alisio
from memory_desk.core.observations.data_version import DataVersionReader
from memory_desk.ui.live import DatabaseWatcher, FolderWatcher

QUIET_MS = 700  # several poll ticks: a spurious change would show


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "state" / "memory.sqlite"
    path.parent.mkdir()
    alisio.create_database(path)
    return path


@pytest.fixture
def make_watcher() -> Iterator[Callable[..., DatabaseWatcher]]:
    made: list[DatabaseWatcher] = []

    def make(path: Path, **kwargs: object) -> DatabaseWatcher:
        watcher = DatabaseWatcher(path, **kwargs)  # type: ignore[arg-type]
        made.append(watcher)
        watcher.start()
        return watcher

    yield make
    for watcher in made:
        watcher.stop()
    assert not [t for t in threading.enumerate() if isinstance(t, BaseThread) and t.is_alive()]


def _run(qtbot, *args: str) -> None:  # noqa: ANN001
    """Run an agent process while the event loop keeps turning."""
    proc = subprocess.Popen(writer_argv(*args), stdout=subprocess.DEVNULL)
    qtbot.waitUntil(lambda: proc.poll() is not None, timeout=15_000)
    assert proc.returncode == 0


def test_changed_fires_for_each_commit_by_another_process(make_watcher, db, qtbot):
    watcher = make_watcher(db)
    assert watcher.last_change is None

    with qtbot.waitSignal(watcher.changed, timeout=5_000):
        _run(qtbot, "save", str(db))
    first = watcher.last_change
    assert first is not None

    with qtbot.waitSignal(watcher.changed, timeout=5_000):
        _run(qtbot, "save", str(db))
    assert watcher.last_change is not None and watcher.last_change >= first
    with qtbot.assertNotEmitted(watcher.changed, wait=QUIET_MS):
        pass


def test_nothing_fires_when_nothing_is_written(make_watcher, db, qtbot):
    watcher = make_watcher(db)
    with qtbot.assertNotEmitted(watcher.changed, wait=QUIET_MS):
        _run(qtbot, "read", str(db))  # the agent reading is not a change
    assert watcher.last_change is None


def test_a_burst_of_commits_is_reported_as_few_batches(make_watcher, db, qtbot):
    watcher = make_watcher(db, coalesce_ms=100)
    batches: list[float] = []
    watcher.changed.connect(lambda: batches.append(watcher.last_change or 0))

    _run(qtbot, "save", str(db), "--count", "20")
    with qtbot.waitSignal(watcher.changed, timeout=QUIET_MS, raising=False):
        pass  # the batch of the last commits, if it was still in its quiet window
    with qtbot.assertNotEmitted(watcher.changed, wait=QUIET_MS):
        pass
    count = alisio.connect_like_plugin(db).execute("SELECT count(*) FROM observations").fetchone()
    assert count == (20,)
    assert 1 <= len(batches) < 20


def test_wal_events_wake_the_check_before_the_timer(make_watcher, db, qtbot):
    watcher = make_watcher(db, poll_interval_ms=60_000)  # the timer alone would take a minute
    with qtbot.waitSignal(watcher.changed, timeout=5_000):
        _run(qtbot, "save", str(db))


def test_the_timer_catches_commits_whose_events_were_dropped(make_watcher, db, qtbot):
    deaf = FolderWatcher(observer_factory=lambda: PollingObserver(timeout=3600))
    try:
        watcher = make_watcher(db, folder_watcher=deaf, poll_interval_ms=100)
        with qtbot.waitSignal(watcher.changed, timeout=5_000):
            _run(qtbot, "save", str(db))
        watcher.stop()
        assert deaf.mode == "off"  # it let go of the only folder it was sharing
    finally:
        deaf.stop()


def test_pause_holds_changes_until_resume(make_watcher, db, qtbot):
    watcher = make_watcher(db)
    with qtbot.waitSignal(watcher.paused_changed) as blocker:
        watcher.pause()
    assert blocker.args == [True]
    assert watcher.paused

    with qtbot.assertNotEmitted(watcher.changed, wait=QUIET_MS):
        _run(qtbot, "save", str(db))
    with qtbot.waitSignal(watcher.changed, timeout=1_000):
        watcher.resume()
    assert not watcher.paused


def test_the_watcher_never_holds_a_read_open(make_watcher, db, qtbot):
    watcher = make_watcher(db, poll_interval_ms=10)
    with qtbot.waitSignal(watcher.changed, timeout=5_000):
        _run(qtbot, "save", str(db))
    conn = alisio.connect_like_plugin(db)
    try:
        # A reader holding a snapshot would keep a passive checkpoint from copying every frame.
        busy, log, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and log == copied
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        conn.close()


def test_a_database_that_appears_later_is_reported(make_watcher, tmp_path, qtbot):
    path = tmp_path / "memory.sqlite"
    errors: list[str] = []
    watcher = DatabaseWatcher(path, poll_interval_ms=50)
    watcher.error.connect(errors.append)
    watcher.start()
    try:
        assert errors and "not there" in errors[0]
        with qtbot.waitSignal(watcher.changed, timeout=5_000):
            alisio.create_database(path)
        with qtbot.waitSignal(watcher.changed, timeout=5_000):
            _run(qtbot, "save", str(path))
    finally:
        watcher.stop()


def test_stop_closes_everything(db, qtbot):
    watcher = DatabaseWatcher(db)
    watcher.start()
    assert [t for t in threading.enumerate() if isinstance(t, BaseObserver)]
    watcher.stop()
    assert not [t for t in threading.enumerate() if isinstance(t, BaseThread) and t.is_alive()]
    with qtbot.assertNotEmitted(watcher.changed, wait=300):
        _run(qtbot, "save", str(db))


def test_a_lock_held_by_another_program_is_busy_not_a_failure(make_watcher, tmp_path, qtbot):
    # A rollback-journal database whose writer holds the exclusive lock: the version cannot
    # be read now, which the core says as StoreBusy; the watcher looks again, reports no
    # error, and sees the commit once the lock is gone.
    path = tmp_path / "memory.sqlite"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("CREATE TABLE t (x)")
    reader = DataVersionReader(path)
    watcher = make_watcher(path, poll_interval_ms=20)
    errors: list[str] = []
    watcher.error.connect(errors.append)
    try:
        writer.execute("BEGIN EXCLUSIVE")
        writer.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(StoreBusy, match="locked"):
            reader.read()
        assert watcher.check_now() is False
        with qtbot.waitSignal(watcher.changed, timeout=5000):
            writer.execute("COMMIT")
        assert errors == []
        assert reader.read() != reader.first
    finally:
        reader.close()
        writer.close()


def test_a_file_that_cannot_be_opened_is_a_store_error(tmp_path):
    with pytest.raises(StoreError, match="unable to open") as caught:
        DataVersionReader(tmp_path / "nothing here" / "memory.sqlite")
    assert not isinstance(caught.value, StoreBusy)
