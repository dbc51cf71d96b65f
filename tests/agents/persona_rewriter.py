"""Play an agent that rewrites its persona folder 20 times a second, as a separate process.

Every 1/RATE seconds it rewrites the next of the OTHER entries, in place, as agent-kit's
``writeFile`` does (truncate, then write: here in two halves a few milliseconds apart, so a
reader can catch a file half-written), with a new version number in its description and body.
When a file ``rewrite-<k>`` appears in CONTROL it also rewrites the EDITED entry once, as
version ``k``. It stops when CONTROL holds ``stop`` (or after SECONDS).

After each write it appends ``<name> <version>`` to ``CONTROL/log`` (one write call: a reader
never sees half a line). Standalone: it imports nothing from Memory Desk.

Usage: python persona_rewriter.py FOLDER CONTROL EDITED OTHER[,OTHER...] [RATE] [SECONDS]
"""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HALF_PAUSE_S = 0.003


def iso_now() -> str:
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def entry_text(name: str, version: int) -> str:
    """The file as the agent writes it, saying its version in the description and the body."""
    body = f"{name} version {version}: " + "words the agent keeps about the person. " * 40
    return (
        f"---\nname: {name}\ndescription: {name} v{version}\ntype: user\n"
        f"updated: {iso_now()}\n---\n\n{body.strip()}\n"
    )


def write_like_agent(path: Path, data: bytes) -> None:
    """Truncate and write in place, as Node's ``fs.writeFile`` does (not atomic)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    try:
        half = len(data) // 2
        os.write(fd, data[:half])
        time.sleep(HALF_PAUSE_S)
        view = memoryview(data)[half:]
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def main(argv: list[str]) -> int:
    folder, control, edited, others = Path(argv[0]), Path(argv[1]), argv[2], argv[3].split(",")
    rate = float(argv[4]) if len(argv) > 4 else 20.0
    seconds = float(argv[5]) if len(argv) > 5 else 30.0
    log = os.open(control / "log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    versions = dict.fromkeys([edited, *others], 0)
    done_triggers: set[str] = set()
    start = time.monotonic()
    for tick in range(int(rate * seconds)):
        if (control / "stop").exists():
            break
        names = [others[tick % len(others)]]
        triggers = {p.name for p in control.glob("rewrite-*")} - done_triggers
        for trigger in sorted(triggers):
            done_triggers.add(trigger)
            names.append(edited)
        for name in names:
            versions[name] += 1
            data = entry_text(name, versions[name]).encode()
            write_like_agent(folder / f"{name}.md", data)
            os.write(log, f"{name} {versions[name]}\n".encode())
        time.sleep(max(0.0, start + (tick + 1) / rate - time.monotonic()))
    os.close(log)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
