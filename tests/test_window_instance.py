"""One Memory Desk per person: a second start hands its arguments to the running window."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from PySide6.QtNetwork import QLocalServer

from memory_desk import app as app_module
from memory_desk.ui import single_instance
from memory_desk.ui.single_instance import InstanceServer, absolutise, hand_over, server_name
from window_helpers import make_database, make_persona_folder

pytest_plugins = ["window_fixture"]  # the open_window fixture

SECOND_START = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QCoreApplication
    from memory_desk.ui.single_instance import hand_over

    app = QCoreApplication(sys.argv[:1])
    sys.exit(0 if hand_over(sys.argv[2:], name=sys.argv[1]) else 3)
    """
)


@pytest.fixture
def name() -> str:
    """A server name of our own: the person's real Memory Desk may be running."""
    return f"memory-desk-test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def server(qtbot, name: str):
    server = InstanceServer(name=name)
    assert server.listen()
    yield server
    server.close()
    server.deleteLater()


def second_start(name: str, args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", SECOND_START, name, *args], cwd=cwd)


# The offscreen platform cannot raise a window; handle_arguments asks it to.
RAISE_WARNING = pytest.mark.qt_log_ignore("does not support raise")


@RAISE_WARNING
def test_a_second_process_hands_over_a_relative_db(open_window, qtbot, server, name, tmp_path):
    work = tmp_path / "work"
    db = make_database(work / "stores" / "memory.sqlite")
    folder = make_persona_folder(work / "notes")
    window = open_window([])
    server.arguments_received.connect(window.handle_arguments)

    process = second_start(name, ["--persona", "notes", "--db", "stores/memory.sqlite"], work)
    qtbot.waitUntil(lambda: window.current_source() is not None, timeout=15_000)
    assert process.wait(timeout=15) == 0
    assert window.current_source().path == db
    assert any(source.path == folder for source in window.registry.sources())
    assert window.isVisible()


def test_hand_over_returns_false_when_nobody_listens(name) -> None:
    assert hand_over(["--db", "x.sqlite"], name=name) is False


def test_a_stale_socket_file_is_cleaned_up(qtbot, name) -> None:
    """A crashed instance leaves its socket file behind: the next start takes the name over."""
    first = QLocalServer()
    assert first.listen(name)
    path = first.fullServerName()
    first.close()  # close removes the file: put back what a crash would have left
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(path)
    stale.close()
    assert Path(path).exists()
    assert hand_over([], name=name) is False

    server = InstanceServer(name=name)
    try:
        assert server.listen()
        with qtbot.waitSignal(server.arguments_received, timeout=5000) as received:
            assert hand_over(["--demo"], name=name)
        assert received.args == [["--demo"]]
    finally:
        server.close()


def test_garbage_on_the_socket_is_ignored(qtbot, server, name) -> None:
    from PySide6.QtNetwork import QLocalSocket

    got = []
    server.arguments_received.connect(got.append)
    client = QLocalSocket()
    client.connectToServer(name)
    assert client.waitForConnected(1000)
    client.write(b"not json\n")
    client.write(b'{"args": [1, 2]}\n')
    client.waitForBytesWritten(1000)
    client.disconnectFromServer()
    with qtbot.waitSignal(server.arguments_received, timeout=5000):
        assert hand_over(["--demo"], name=name)
    assert got == [["--demo"]]


def test_absolutise_makes_paths_absolute_against_the_callers_folder(tmp_path) -> None:
    args = absolutise(
        ["--db", "a.sqlite", "--persona=notes", "--persona", "~/x", "--demo"], tmp_path
    )
    assert args == [
        "--db",
        str(tmp_path / "a.sqlite"),
        f"--persona={tmp_path / 'notes'}",
        "--persona",
        str(Path.home() / "x"),
        "--demo",
    ]


def test_server_name_is_per_user_and_stable() -> None:
    assert server_name() == server_name()
    assert server_name().startswith("memory-desk-")
    assert server_name("other") != server_name()


@RAISE_WARNING
def test_main_hands_over_to_a_running_instance(
    open_window, qtbot, server, name, tmp_path, monkeypatch, capsys
) -> None:
    """``main()`` in a second start: it hands its arguments over and returns at once."""
    db = make_database(tmp_path / "given.sqlite")
    window = open_window([])
    server.arguments_received.connect(window.handle_arguments)
    monkeypatch.setattr(single_instance, "server_name", lambda suffix="": name)
    monkeypatch.chdir(tmp_path)

    assert app_module.main(["--db", "given.sqlite"]) == 0
    assert "already running" in capsys.readouterr().out
    qtbot.waitUntil(lambda: window.current_source() is not None, timeout=5000)
    assert window.current_source().path == db


@RAISE_WARNING
def test_handed_over_bad_arguments_are_ignored(open_window) -> None:
    window = open_window([])
    window.handle_arguments(["--no-such-flag"])
    assert window.current_source() is None
    assert window.isVisible()


def test_a_second_server_does_not_steal_a_live_name(qtbot, server, name) -> None:
    """Two starts at the same moment: the later one must not unlink the first one's socket."""
    late = InstanceServer(name=name)
    try:
        assert late.listen() is False
        with qtbot.waitSignal(server.arguments_received, timeout=5000) as received:
            assert hand_over(["--demo"], name=name)
        assert received.args == [["--demo"]]
    finally:
        late.close()
