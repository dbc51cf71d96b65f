"""One Memory Desk per person, whatever the session's TMPDIR: the lock in the data folder.

Real processes: the window started by the ``memory-desk`` command (offscreen), later starts with
other TMPDIRs, and a first instance killed with SIGKILL, which leaves its lock file and socket
behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from memory_desk import app as app_module
from memory_desk.core.instance_lock import InstanceLock, instance_lock_path
from memory_desk.ui import single_instance
from memory_desk.ui.single_instance import InstanceServer, Start, take_or_hand_over
from test_first_start import memory_desk_command
from window_helpers import make_database

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="flock and /proc")


def start_window(tmp_path: Path, tmpdir: str, *args: str) -> subprocess.Popen:
    """``memory-desk`` in its own TMPDIR, sharing the test's HOME and XDG folders."""
    temp = tmp_path / tmpdir
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp), QT_QPA_PLATFORM="offscreen")
    log = open(tmp_path / f"{tmpdir}.log", "wb")  # noqa: SIM115 (the process writes it)
    try:
        return subprocess.Popen(
            [*memory_desk_command(), *args], env=env, stdout=log, stderr=log, cwd=tmp_path
        )
    finally:
        log.close()


def holder_pid() -> int | None:
    holder = InstanceLock(instance_lock_path()).holder()
    return holder.pid if holder else None


def open_files(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            found.add(os.readlink(fd))
        except OSError:
            continue
    return found


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=30)


@linux_only
def test_a_start_in_another_tmpdir_hands_over_and_a_killed_instance_does_not_block(
    qtbot, tmp_path: Path
) -> None:
    db = make_database(tmp_path / "given.sqlite")
    first = start_window(tmp_path, "tmp-first")
    try:
        qtbot.waitUntil(lambda: holder_pid() == first.pid, timeout=60_000)

        second = subprocess.run(
            [*memory_desk_command(), "--db", str(db)],
            env=dict(os.environ, TMPDIR=str(tmp_path), QT_QPA_PLATFORM="offscreen"),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

        assert second.returncode == 0, second.stderr
        assert "already running" in second.stdout
        assert holder_pid() == first.pid  # still the one window
        qtbot.waitUntil(lambda: str(db) in open_files(first.pid), timeout=30_000)

        first.send_signal(signal.SIGKILL)  # leaves its lock file and its socket behind
        first.wait(timeout=30)
        assert instance_lock_path().exists()
        third = start_window(tmp_path, "tmp-third")
        try:
            qtbot.waitUntil(lambda: holder_pid() == third.pid, timeout=60_000)
            assert third.poll() is None
        finally:
            stop(third)
    finally:
        stop(first)


def test_the_lock_is_one_holders_until_released(tmp_path: Path) -> None:
    path = tmp_path / "instance.lock"
    first, second = InstanceLock(path), InstanceLock(path)
    assert first.acquire()
    first.publish("/run/somewhere/memory-desk-abc")
    assert not second.acquire()
    assert second.holder() is not None and second.holder().pid == os.getpid()
    assert second.holder().address == "/run/somewhere/memory-desk-abc"
    first.release()
    assert second.acquire()
    assert second.holder() is None  # the old address went with the old holder
    second.release()


def test_a_holder_that_never_answers_is_reported_not_joined(tmp_path: Path) -> None:
    path = tmp_path / "instance.lock"
    running = InstanceLock(path)
    assert running.acquire()
    running.publish(str(tmp_path / "nobody-listens-here"))
    try:
        assert take_or_hand_over(InstanceLock(path), ["--demo"], wait_s=0.3) is Start.NO_ANSWER
    finally:
        running.release()
    later = InstanceLock(path)
    assert take_or_hand_over(later, ["--demo"], wait_s=0.3) is Start.OURS
    later.release()


def test_without_a_data_folder_to_lock_in_the_socket_alone_keeps_one_window(
    qtbot, tmp_path: Path, monkeypatch, capsys
) -> None:
    """A data folder Memory Desk cannot make (here its parent is a file) does not stop the
    start: it warns, and a window already listening on the per-user socket still gets the
    arguments."""
    not_a_folder = tmp_path / "data-is-a-file"
    not_a_folder.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(not_a_folder))
    name = f"memory-desk-test-{uuid.uuid4().hex[:12]}"
    monkeypatch.setattr(single_instance, "server_name", lambda suffix="": name)
    server = InstanceServer(name=name)
    assert server.listen()
    try:
        with qtbot.waitSignal(server.arguments_received, timeout=10_000) as received:
            assert app_module.main(["--demo"]) == 0
        assert received.args == [["--demo"]]
        out = capsys.readouterr()
        assert "already running" in out.out
        assert "cannot use the single-instance lock" in out.err
    finally:
        server.close()
        server.deleteLater()
