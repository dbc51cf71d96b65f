"""A big store's first look runs in a child process (``memory-desk --journal-first-look``):
the same baseline as in the scan's thread, little of the window process's CPU, and no harm
when the child is killed, the journal closes, or the window's process dies."""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from journal_helpers import alisio_agent
from memory_desk.core import alisio
from memory_desk.core.errors import StoreError
from memory_desk.core.journal import ChangeKind, Journal, JournalLimits, first_look, observations


def make_db(path: Path, rows: int, content=None) -> Path:  # noqa: ANN001 (a function of i)
    """``rows`` observations saved as the plugin saves them; every third with a topic key,
    every tenth forgotten."""
    alisio.create_database(path)
    conn = alisio.connect_like_plugin(path)
    for i in range(rows):
        alisio.save_observation(
            conn,
            title=f"Row {i} about the {i % 7}th pipeline",
            content=content(i) if content else f"**What**: content {i}\n**Why**: reason {i % 13}",
            type="decision" if i % 2 else "bugfix",
            project="proj-12345678",
            topic_key=f"topic/row-{i}" if i % 3 == 0 else None,
        )
    conn.execute("UPDATE observations SET deleted_at = datetime('now') WHERE id % 10 = 4")
    conn.commit()
    conn.close()
    return path


def journal_rows(path: Path) -> tuple[list, list]:
    conn = sqlite3.connect(path)
    try:
        targets = conn.execute(
            "SELECT target, hash, forgotten, stamp, version_id IS NOT NULL FROM targets"
            " ORDER BY target"
        ).fetchall()
        versions = conn.execute(
            "SELECT target, topic, data FROM versions ORDER BY target"
        ).fetchall()
    finally:
        conn.close()
    return targets, versions


def alive(pid: int) -> bool:
    """A process that has not ended (a zombie nobody reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def wait_for(check, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture
def small_threshold(monkeypatch):
    monkeypatch.setattr(first_look, "IN_PROCESS_ROWS", 10)


def test_a_big_store_is_looked_at_by_a_child_with_the_same_baseline(tmp_path, monkeypatch):
    db = make_db(tmp_path / "memory.sqlite", rows=60)
    here = Journal(tmp_path / "here.sqlite")
    assert here.scan_observations(db) == 0
    assert here.last_scan.extra["first_look_pid"] == os.getpid()  # 60 rows: in this thread
    here.close()
    monkeypatch.setattr(first_look, "IN_PROCESS_ROWS", 10)
    child = Journal(tmp_path / "child.sqlite")
    try:
        assert child.scan_observations(db) == 0
        assert child.last_scan.baseline and child.last_scan.rows == 60
        assert child.last_scan.extra["first_look_pid"] not in (0, os.getpid())
        assert journal_rows(child.path) == journal_rows(here.path)
        assert child.changes() == []
        alisio_agent(db, "save", "Row 0 again", "New text", "--topic", "topic/row-0")
        alisio_agent(db, "forget", "8")
        assert child.scan_observations(db) == 2
        kinds = {change.kind for change in child.changes()}
        assert kinds == {ChangeKind.REVISED, ChangeKind.FORGOTTEN}
        (revised,) = [c for c in child.changes() if c.kind == ChangeKind.REVISED]
        assert revised.old.body == "**What**: content 0\n**Why**: reason 0"
        assert revised.new.body == "New text"
    finally:
        child.close()


def test_the_scans_process_leaves_the_work_to_the_child(tmp_path, small_threshold):
    """The window's process spends a small part of the child's CPU on a first look (ratios
    of CPU times measured in the same run, no absolute time)."""
    db = make_db(tmp_path / "memory.sqlite", rows=3000)
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        mine_before = time.thread_time()
        assert journal.scan_observations(db) == 0
        mine = time.thread_time() - mine_before
        children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        theirs = (children_after.ru_utime - children_before.ru_utime) + (
            children_after.ru_stime - children_before.ru_stime
        )
        assert journal.last_scan.rows == 3000
        assert mine < theirs / 3, (mine, theirs)
    finally:
        journal.close()


def slow_look(tmp_path: Path, monkeypatch, written: int = 0) -> tuple:  # noqa: ANN001
    """A journal's first look of 2,000 rows, one row per batch (long enough to be caught under
    way), started on a thread and caught once it wrote more than ``written`` rows: (journal,
    db, thread, outcome list, child's pid)."""
    db = make_db(tmp_path / "memory.sqlite", rows=2000)
    monkeypatch.setattr(first_look, "IN_PROCESS_ROWS", 10)
    monkeypatch.setattr(observations, "BASELINE_BATCH", 1)
    journal = Journal(tmp_path / "journal.sqlite")
    outcome: list = []

    def run() -> None:
        try:
            outcome.append(journal.scan_observations(db))
        except StoreError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    assert wait_for(lambda: journal.looks.pids and targets_written(journal.path) > written)
    (pid,) = journal.looks.pids
    return journal, db, thread, outcome, pid


def targets_written(path: Path) -> int:
    conn = sqlite3.connect(path, timeout=5)
    try:
        return conn.execute("SELECT count(*) FROM targets").fetchone()[0]
    finally:
        conn.close()


def test_a_killed_first_look_says_so_and_the_next_scan_takes_it_again(tmp_path, monkeypatch):
    journal, db, thread, outcome, pid = slow_look(tmp_path, monkeypatch, written=20)
    try:
        os.kill(pid, signal.SIGKILL)
        thread.join(30)
        (error,) = outcome
        assert isinstance(error, StoreError) and "stopped before its end" in error.args[0]
        assert 0 < targets_written(journal.path) < 2000  # a partial baseline, not a valid one
        check = sqlite3.connect(journal.path)
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        check.close()
        monkeypatch.setattr(observations, "BASELINE_BATCH", 500)
        assert journal.scan_observations(db) == 0  # taken again, nothing listed as changed
        assert journal.last_scan.baseline and journal.last_scan.rows == 2000
        assert targets_written(journal.path) == 2000
        alisio_agent(db, "save", "Row 1 again", "Changed", "--session", "chat-2")
        assert journal.scan_observations(db) == 1
        (change,) = journal.changes()
        assert change.kind == ChangeKind.NEW and change.new.body == "Changed"
    finally:
        journal.close()


def test_closing_the_journal_stops_its_first_look(tmp_path, monkeypatch):
    journal, db, thread, outcome, pid = slow_look(tmp_path, monkeypatch)
    journal.close()
    thread.join(30)
    assert not thread.is_alive() and isinstance(outcome[0], StoreError)
    assert not alive(pid)
    with pytest.raises(StoreError):  # a closed journal starts no other child
        journal.looks.run(journal.path, db, 1, 0, 100, 2**40)


def test_clearing_the_journal_stops_its_first_look(tmp_path, monkeypatch):
    journal, _db, thread, outcome, pid = slow_look(tmp_path, monkeypatch)
    try:
        journal.clear()
        thread.join(30)
        assert isinstance(outcome[0], StoreError) and not alive(pid)
        assert targets_written(journal.path) == 0  # the new file holds nothing of the old look
    finally:
        journal.close()


PARENT = textwrap.dedent(
    """
    import json, sys, threading, time
    from memory_desk.core.journal import Journal, first_look, observations
    first_look.IN_PROCESS_ROWS = 10
    observations.BASELINE_BATCH = 1
    journal = Journal(sys.argv[1])
    threading.Thread(target=journal.scan_observations, args=(sys.argv[2],), daemon=True).start()
    while not journal.looks.pids:
        time.sleep(0.01)
    print(json.dumps(journal.looks.pids), flush=True)
    time.sleep(600)
    """
)


def test_a_first_look_ends_when_the_window_process_is_killed(tmp_path):
    db = make_db(tmp_path / "memory.sqlite", rows=2000)
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(tmp_path / "journal.sqlite"), str(db)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        (pid,) = json.loads(parent.stdout.readline())
        assert alive(pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        assert wait_for(lambda: not alive(pid), timeout=10)
        assert targets_written(tmp_path / "journal.sqlite") < 2000  # it stopped, not finished
    finally:
        parent.kill()
        parent.wait()


def test_a_first_look_runs_in_the_thread_when_no_child_can_start(tmp_path, monkeypatch):
    db = make_db(tmp_path / "memory.sqlite", rows=60)
    monkeypatch.setattr(first_look, "IN_PROCESS_ROWS", 10)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        assert journal.scan_observations(db) == 0
        assert journal.last_scan.rows == 60
        assert journal.last_scan.extra["first_look_pid"] == os.getpid()
    finally:
        journal.close()


def test_a_child_that_cannot_read_the_store_says_why(tmp_path, small_threshold):
    db = make_db(tmp_path / "memory.sqlite", rows=60)
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        store_id = 1
        with pytest.raises(StoreError, match="could not compare"):
            journal.looks.run(journal.path, tmp_path / "missing.sqlite", store_id, 0, 100, 2**40)
        look = journal.looks.run(journal.path, db, store_id, 0, 100, 2**40)
        assert look is not None and look.rows == 60 and len(look.forgotten) == 6
    finally:
        journal.close()


@pytest.mark.parametrize("in_child", [False, True])
def test_a_first_look_keeps_texts_within_the_size_limit_newest_topics_first(
    tmp_path, monkeypatch, in_child
):
    """Texts are kept in the order the size limit keeps them (topic rows, then the others,
    newest first), and none is written only to be pruned after (a 1,000,000-row store wrote
    840 MB of texts into a 100 MB journal)."""
    db = make_db(tmp_path / "memory.sqlite", rows=240, content=lambda _i: os.urandom(1000).hex())
    if in_child:
        monkeypatch.setattr(first_look, "IN_PROCESS_ROWS", 10)
    monkeypatch.setattr(observations, "BASELINE_BATCH", 10)
    limit = 200 * 1024
    journal = Journal(tmp_path / "journal.sqlite", JournalLimits(max_bytes=limit))
    try:
        assert journal.scan_observations(db) == 0
        assert journal.size_bytes() <= limit
        check = sqlite3.connect(journal.path)
        made, left = check.execute("SELECT max(id), count(*) FROM versions").fetchone()
        assert made == left  # every text written is still there: none written to be pruned
        kept = check.execute(
            "SELECT CAST(target AS INTEGER), version_id IS NOT NULL FROM targets"
        ).fetchall()
        check.close()
        topic_of = (
            sqlite3.connect(db)
            .execute("SELECT id, topic_key IS NOT NULL FROM observations")
            .fetchall()
        )
        order = sorted(topic_of, key=lambda r: (-r[1], -r[0]))  # topic rows first, newest first
        with_text = {row_id for row_id, has_text in kept if has_text}
        ranked = [row_id in with_text for row_id, _ in order]
        cut = ranked.index(False)
        assert 0 < cut < len(ranked) and not any(ranked[cut:]), ranked
        assert len(kept) == 240
        newest_topic = max(row_id for row_id, topic in topic_of if topic)
        alisio_agent(
            db, "save", "New title", "Revised text", "--topic", f"topic/row-{newest_topic - 1}"
        )
        assert journal.scan_observations(db) == 1
        (change,) = journal.changes()
        assert change.kind == ChangeKind.REVISED and change.old.body  # the old text was kept
        assert journal.size_bytes() <= limit
    finally:
        journal.close()


def test_the_child_loads_neither_qt_nor_numpy(tmp_path):
    """The child is a small process: the journal's core and SQLite, nothing of the window."""
    db = make_db(tmp_path / "memory.sqlite", rows=30)
    Journal(tmp_path / "journal.sqlite").close()
    numbers = ["1", "0", "100", str(2**40), str(os.getpid())]
    argv = [*first_look.command(), str(tmp_path / "journal.sqlite"), str(db), *numbers]
    done = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]], capture_output=True, timeout=60, check=True
    )
    head = json.loads(done.stdout.split(b"\n", 1)[0])
    assert head["rows"] == 30 and head["forgotten"] == 3
    imported = done.stderr.decode()
    assert "memory_desk.core.journal.first_look" in imported
    assert "PySide6" not in imported and "numpy" not in imported


def test_closing_the_window_stops_a_first_look_at_once(qtbot, tmp_path, monkeypatch):
    """Closing waits for the journal's workers; a big store's first look in a child is
    killed first, not waited for (a million rows: about 20 s)."""
    from memory_desk.app import create_main_window

    db = make_db(tmp_path / "memory.sqlite", rows=2000)
    monkeypatch.setattr(first_look, "IN_PROCESS_ROWS", 10)
    monkeypatch.setattr(observations, "BASELINE_BATCH", 1)
    window = create_main_window(["--db", str(db)])
    window.show()
    try:
        qtbot.waitUntil(lambda: bool(window.review.runner.journal.looks.pids), timeout=20_000)
        journal = window.review.runner.journal
        (pid,) = journal.looks.pids
        qtbot.waitUntil(lambda: targets_written(journal.path) > 0, timeout=20_000)
    finally:
        window.close()
        window.shutdown()
    written = targets_written(journal.path)
    assert not alive(pid) and written < 2000  # stopped, not waited for to its end
    window.deleteLater()


def spin_for(seconds: float) -> int:
    """Work this thread's CPU for ``seconds`` (the window busy painting or sorting)."""
    deadline, turns = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        turns += 1
    return turns


def test_a_first_look_gives_way_while_the_window_works(tmp_path, small_threshold, monkeypatch):
    """While the window's process works, the child writes no more than the batch it was in;
    once the window is quiet the look goes on to its end."""
    db = make_db(tmp_path / "memory.sqlite", rows=3000)
    monkeypatch.setattr(observations, "BASELINE_BATCH", 50)  # 60 batches
    journal = Journal(tmp_path / "journal.sqlite")
    outcome: list = []
    thread = threading.Thread(target=lambda: outcome.append(journal.scan_observations(db)))
    try:
        thread.start()
        assert wait_for(lambda: bool(journal.looks.pids))
        spin_for(1.5)
        written_while_busy = targets_written(journal.path)
        thread.join(60)
        assert outcome == [0] and journal.last_scan.rows == 3000
        assert written_while_busy <= 3 * 50, written_while_busy
        assert journal.last_scan.extra["first_look_waited"] >= 0.5
    finally:
        journal.close()


def busy_process(kind: str) -> subprocess.Popen:
    code = {"busy": "while True: pass", "idle": "import time; time.sleep(600)"}[kind]
    return subprocess.Popen([sys.executable, "-c", code])


@pytest.mark.parametrize("kind", ["busy", "idle", "gone"])
def test_giving_way_waits_for_a_busy_window_at_most_so_long(monkeypatch, kind):
    """A window that never rests still gets its look (a batch every ``MOST_WAIT_S``); a quiet
    window, or one whose CPU cannot be read, is not waited for."""
    monkeypatch.setattr(first_look, "MOST_WAIT_S", 0.4)
    window = busy_process("idle" if kind == "gone" else kind)
    try:
        if kind == "gone":
            window.kill()
            window.wait()
        time.sleep(0.2)  # the busy one at work
        give_way = first_look.GiveWay(window.pid)
        time.sleep(0.1)
        give_way()
        if kind == "busy":
            assert 0.4 <= give_way.waited < 0.4 + 5 * first_look.STEP_S
        else:
            assert give_way.waited == 0.0
    finally:
        window.kill()
        window.wait()
