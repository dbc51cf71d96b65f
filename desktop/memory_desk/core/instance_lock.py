"""One Memory Desk per person: a lock every session of the person shares.

The lock is a file in Memory Desk's own data folder (``~/.local/share/memory-desk``), held with
``flock`` for as long as the window runs. Every start of the person's, whatever its ``TMPDIR``
or session, looks at the same file, so two windows never work on one journal. The kernel drops
the lock when its holder ends, even when it is killed, so a crash leaves nothing that blocks
the next start (the file stays; its lock does not).

The holder writes into the file where a later start can reach it (its process id and the
address of its hand-over socket, which lives in the holder's own ``TMPDIR``); the later start
reads that and hands its arguments over instead of opening a second window.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from memory_desk.core.appdirs import PRIVATE_FILE_MODE, data_dir

try:
    import fcntl
except ImportError:  # Windows: no flock; the hand-over socket's name alone keeps one instance
    fcntl = None  # type: ignore[assignment]

LOCK_FILE_NAME = "instance.lock"


@dataclass(frozen=True)
class Holder:
    """What the running instance wrote into the lock file."""

    pid: int
    address: str


def instance_lock_path() -> Path:
    """The person's lock file: ``<data folder>/instance.lock``."""
    return data_dir() / LOCK_FILE_NAME


class InstanceLock:
    """The lock file at ``path``; :meth:`acquire` takes it without waiting."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else instance_lock_path()
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock; False if another live instance holds it. An ``OSError`` opening the
        file (a data folder Memory Desk may not write) is raised."""
        if self._fd is not None:
            return True
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(self.path, flags, PRIVATE_FILE_MODE)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                return False
            except OSError:
                os.close(fd)
                raise
        self._fd = fd
        return True

    def publish(self, address: str) -> None:
        """Write this process's id and its hand-over ``address`` for later starts to read."""
        if self._fd is None:
            raise RuntimeError("publish() needs the lock")
        data = f"{os.getpid()}\n{address}\n".encode()
        os.ftruncate(self._fd, 0)
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.write(self._fd, data)

    def holder(self) -> Holder | None:
        """What the running instance published; None while it has not yet (it is starting)."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        lines = text.split("\n")
        if len(lines) < 3 or not lines[0].isdigit() or not lines[1]:
            return None  # empty, or being written
        return Holder(int(lines[0]), lines[1])

    def release(self) -> None:
        """Let the next start have it (also done by the kernel when the process ends)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)
