"""Reading files that another program may be writing right now.

The agent rewrites a persona entry in place, without a temporary file, so a reader can
catch it half-written. Nothing in the file says "done": the only evidence is that it
stops changing. This module gives the two checks the live-reload layer relies on: a
cheap signature (size, mtime, inode) to tell whether a file moved on, and a read that
believes the content only once it holds still. Pure Python, no Qt.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass

from memory_desk.core import StoreError
from memory_desk.core.messages import msg

FileSignature = tuple[int, int, int]
"""(size, mtime_ns, inode): changes whenever a writer touches the file or replaces it."""


def file_signature(path: str | os.PathLike[str]) -> FileSignature | None:
    """The file's signature, or None when there is nothing (readable) at ``path``.

    ``lstat`` on purpose: a link is an entry of its own, its target is not watched.
    """
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def content_digest(data: bytes) -> str:
    """The sha256 hex digest the watchers compare to recognise the app's own writes."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class _Snapshot:
    """One read of a file, bracketed by two stats."""

    before: FileSignature | None
    after: FileSignature | None
    data: bytes | None

    @property
    def torn(self) -> bool:
        """The file changed while we were reading it."""
        return self.before != self.after

    def quiet_for(self, seconds: float) -> bool:
        """Nothing wrote the file for ``seconds`` (by its mtime against the wall clock)."""
        if self.after is None:
            return True
        return time.time_ns() - self.after[1] >= seconds * 1e9

    def same_as(self, other: _Snapshot | None) -> bool:
        return (
            other is not None
            and self.after == other.after
            and (self.data == other.data)  # bytes equality is the content check
        )


def _take_snapshot(path: str | os.PathLike[str]) -> _Snapshot:
    before = file_signature(path)
    try:
        with open(path, "rb") as handle:
            data: bytes | None = handle.read()
    except FileNotFoundError:
        data = None
    except OSError as exc:
        raise StoreError(
            msg(
                "LiveFiles",
                "Cannot read {path}: {reason}",
                path=os.fspath(path),
                reason=exc.strerror or str(exc),
            )
        ) from exc
    return _Snapshot(before, file_signature(path), data)


def read_when_stable(
    path: str | os.PathLike[str],
    *,
    quiet_s: float = 0.1,
    settle_s: float = 0.02,
    timeout_s: float = 1.0,
) -> bytes | None:
    """Read ``path`` once it holds still; None when the file does not exist.

    A read is believed when the file did not change while it was read (same signature
    before and after) and either nothing wrote it for ``quiet_s`` or a second read
    ``settle_s`` later finds the same signature and the same bytes. After a watcher's
    debounce the file has usually been quiet long enough, so the common case is one
    read and no wait. If the file keeps changing for ``timeout_s`` the latest complete
    read is returned: the watcher will report the next change anyway.

    Raises StoreError when the file exists but cannot be read (permissions, a folder).
    """
    deadline = time.monotonic() + timeout_s
    previous: _Snapshot | None = None
    while True:
        snapshot = _take_snapshot(path)
        if not snapshot.torn and (snapshot.quiet_for(quiet_s) or snapshot.same_as(previous)):
            return snapshot.data
        if time.monotonic() >= deadline:
            return snapshot.data
        previous = snapshot
        time.sleep(settle_s)
