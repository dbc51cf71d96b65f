"""One Memory Desk per person: a second start hands its arguments to the running window.

The running app listens on a QLocalServer named after the user; a new start first tries to
connect, sends its (absolutised) arguments as one JSON line and exits. Used by ``main()``
only: tests build many windows in one process and must not share a server.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

CONNECT_TIMEOUT_MS = 500


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
        if self._server.listen(self._name):
            return True
        # A crashed instance can leave its socket file behind: nobody answered us, so remove it.
        QLocalServer.removeServer(self._name)
        return self._server.listen(self._name)

    def close(self) -> None:
        self._server.close()

    def _on_new_connection(self) -> None:
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            socket.readyRead.connect(lambda s=socket: self._on_ready_read(s))
            socket.disconnected.connect(socket.deleteLater)

    def _on_ready_read(self, socket: QLocalSocket) -> None:
        if not socket.canReadLine():
            return
        line = bytes(socket.readLine()).decode("utf-8", "replace")
        try:
            args = json.loads(line).get("args", [])
        except (ValueError, AttributeError):
            return  # not one of ours: ignore rather than crash the running window
        if isinstance(args, list) and all(isinstance(a, str) for a in args):
            self.arguments_received.emit(args)
