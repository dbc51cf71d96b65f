"""Play the agent-kit agent writing one persona memory entry, as a separate process.

Writes ``<folder>/<name>.md`` exactly the way the agent's ``memory`` extension does
(FORMATS.md, part B): the whole file at once, not atomically (truncate, then write), with the
four keys ``name``, ``description``, ``type``, ``updated`` in that order, a blank line, the
trimmed body and a final newline. Any other header key is dropped, as the agent drops it.

``--atomic`` saves like an editor instead: a temporary file in the folder, then a rename.
``--forget`` deletes the entry, as the agent's ``forget`` tool does.
``--repeat N --interval S`` writes N times, S seconds apart; ``{n}`` in the description or
body becomes the write's number (1, 2, ...), so each write differs.
``--split-write S`` writes the first half, waits S seconds, then the rest, so a watcher can
see a half-written file.

Prints one line per write, ``wrote <path> <updated>`` (or ``forgot <path>``), flushed, so a
test can wait for it. Standalone: it imports nothing from Memory Desk.

Usage:
    python persona_agent.py FOLDER NAME TYPE DESCRIPTION BODY [--repeat N] [--interval S]
        [--atomic] [--forget] [--updated ISO] [--split-write S]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

# JavaScript's String.prototype.trim removes these (Python's str.strip() differs).
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def iso_now() -> str:
    """``new Date().toISOString()``: UTC, milliseconds, ``Z``."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def render(name: str, description: str, type_: str, updated: str, body: str) -> str:
    """The file as the agent writes it."""
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n"
        f"updated: {updated}\n---\n\n{body.strip(JS_WHITESPACE)}\n"
    )


def write_like_agent(path: Path, data: bytes, split_delay: float) -> None:
    """Truncate and write in place, as Node's ``fs.writeFile`` does (not atomic)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    try:
        if split_delay > 0:
            half = len(data) // 2
            os.write(fd, data[:half])
            time.sleep(split_delay)
            data = data[half:]
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def write_like_editor(path: Path, data: bytes) -> None:
    """Save through a hidden temporary file and a rename, as editors do."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.swp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("name")
    parser.add_argument("type", nargs="?", default="user")
    parser.add_argument("description", nargs="?", default="")
    parser.add_argument("body", nargs="?", default="")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--interval", type=float, default=0.0)
    parser.add_argument("--atomic", action="store_true")
    parser.add_argument("--forget", action="store_true")
    parser.add_argument("--updated", help="write this updated value instead of now")
    parser.add_argument("--split-write", type=float, default=0.0)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    path = args.folder / f"{args.name}.md"
    if args.forget:
        path.unlink(missing_ok=True)
        print(f"forgot {path}", flush=True)
        return 0
    for n in range(1, args.repeat + 1):
        if n > 1 and args.interval > 0:
            time.sleep(args.interval)
        updated = args.updated or iso_now()
        text = render(
            args.name,
            args.description.replace("{n}", str(n)),
            args.type,
            updated,
            args.body.replace("{n}", str(n)),
        )
        data = text.encode("utf-8")
        if args.atomic:
            write_like_editor(path, data)
        else:
            write_like_agent(path, data, args.split_write)
        print(f"wrote {path} {updated}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
