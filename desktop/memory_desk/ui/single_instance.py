"""One Memory Desk per person: a second start hands its arguments to the running window.

Who runs is decided by the lock file every session of the person shares
(:mod:`memory_desk.core.instance_lock`). The running app listens on a QLocalServer named after
the user, in its own ``TMPDIR``, and writes the server's full address into the lock file; a
later start that finds the lock taken reads that address, sends its (absolutised) arguments as
one JSON line and exits, whatever its own ``TMPDIR``. Used by ``main()`` only: tests build many
windows in one process and must not share a server.
"""

from __future__ import annotations

import enum
import getpass
import hashlib
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from memory_desk.core.instance_lock import InstanceLock

CONNECT_TIMEOUT_MS = 500
# How long a later start waits for a running instance that has the lock but is still starting
# (it publishes its address once its server listens) before saying it did not answer.
HOLDER_WAIT_S = 10.0
_HOLDER_POLL_S = 0.1


class Start(enum.Enum):
    """What a start found: it is the instance, or it handed over, or the one running is mute."""

    OURS = "ours"
    HANDED_OVER = "handed over"
    NO_ANSWER = "no answer"


def server_name(suffix: str = "") -> str:
    """A per-user name, so two people on one machine each get their own instance."""
    user = getpass.getuser()
    digest = hashlib.sha256(f"{user}:{suffix}".encode()).hexdigest()[:12]
    return f"memory-desk-{digest}"


def absolutise(args: Sequence[str], cwd: Path) -> list[str]:
    """Make --db/--persona paths absolute: the running instance has another working folder."""
    result: list[str] = []
    expect_path = False
    for arg in args:
        if expect_path:
            result.append(str((cwd / Path(arg).expanduser()).resolve()))
            expect_path = False
            continue
        if arg in ("--db", "--persona"):
            expect_path = True
        elif arg.startswith(("--db=", "--persona=")):
            flag, _, value = arg.partition("=")
            arg = f"{flag}={(cwd / Path(value).expanduser()).resolve()}"
        result.append(arg)
    return result


def _answers(name: str) -> bool:
    """True if a live server listens on ``name`` (a stale socket file refuses connections)."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    connected = socket.waitForConnected(CONNECT_TIMEOUT_MS)
    socket.abort()
    return connected


def hand_over(args: Sequence[str], name: str | None = None) -> bool:
    """Give ``args`` to a running instance; True if one took them (this start should exit)."""
    socket = QLocalSocket()
    socket.connectToServer(name or server_name())
    if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
        return False
    payload = json.dumps({"args": absolutise(args, Path(os.getcwd()))}) + "\n"
    socket.write(payload.encode("utf-8"))
    socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
    socket.disconnectFromServer()
    return True


def take_or_hand_over(
    lock: InstanceLock, args: Sequence[str], wait_s: float = HOLDER_WAIT_S
) -> Start:
    """Take the person's lock (this start is the instance), or hand ``args`` to the instance
    that holds it. A holder that has not published its address yet is waited for, up to
    ``wait_s``; a holder that ends meanwhile leaves the lock to this start."""
    deadline = time.monotonic() + wait_s
    while True:
        if lock.acquire():
            return Start.OURS
        holder = lock.holder()
        if holder is not None and hand_over(args, name=holder.address):
            return Start.HANDED_OVER
        if time.monotonic() >= deadline:
            return Start.NO_ANSWER
        time.sleep(_HOLDER_POLL_S)  # no event loop runs yet: nothing else to do meanwhile


class InstanceServer(QObject):
    """Listens for later starts.

    Signals:
        arguments_received(list): the command-line arguments a later start handed over.
    """

    arguments_received = Signal(list)

    def __init__(self, name: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._name = name or server_name()
        self._server.newConnection.connect(self._on_new_connection)

    def listen(self) -> bool:
        """Take the name; False if another live instance holds it."""
        # Ask first: with UserAccessOption Qt binds in a private folder and renames the socket
        # into place, silently taking the name from a live instance started a moment earlier.
        if _answers(self._name):
            return False
        if self._server.listen(self._name):
            return True
        # A crashed instance can leave its socket file behind: nobody answered, so remove it.
        QLocalServer.removeServer(self._name)
        return self._server.listen(self._name)

    def address(self) -> str:
        """The full address a later start connects to (a socket path in this ``TMPDIR``)."""
        return self._server.fullServerName()

    def close(self) -> None:
        """Stop listening and drop the connections still open (their starts have exited)."""
        self._server.close()
        for socket in self._server.findChildren(QLocalSocket):
            socket.abort()
            socket.deleteLater()

    def _on_new_connection(self) -> None:
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            # Our own slots, not socket.deleteLater connected directly: with that connection
            # PySide 6.11 crashes when the server is deleted ("shared QObject was deleted
            # directly"), as a test that drops its server showed.
            socket.readyRead.connect(self._on_ready_read)
            socket.disconnected.connect(self._on_disconnected)
            self._read_lines(socket)  # a fast start may have written everything already

    @Slot()
    def _on_ready_read(self) -> None:
        socket = self.sender()
        if isinstance(socket, QLocalSocket):
            self._read_lines(socket)

    @Slot()
    def _on_disconnected(self) -> None:
        socket = self.sender()
        if isinstance(socket, QLocalSocket):
            self._read_lines(socket)
            socket.deleteLater()

    def _read_lines(self, socket: QLocalSocket) -> None:
        """Every complete line is one start's arguments; several may arrive in one read."""
        while socket.canReadLine():
            line = bytes(socket.readLine()).decode("utf-8", "replace")
            try:
                args = json.loads(line).get("args", [])
            except (ValueError, AttributeError):
                continue  # not one of ours: ignore rather than crash the running window
            if isinstance(args, list) and all(isinstance(a, str) for a in args):
                self.arguments_received.emit(args)
