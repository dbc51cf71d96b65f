"""Second processes that play the agents for the live-reload tests and benchmark.

Run as ``python live_writers.py <command> ...``. Each command writes the way a real
writer does, so the watchers meet what they meet in the field:

- ``save DB [--count N] [--gap S]``: the Alisio plugin's ``memory_save`` (its own
  connection, WAL, one BEGIN IMMEDIATE transaction per save), N times.
- ``serve-saves DB``: one save per line read on stdin; prints the monotonic time of
  each commit (nanoseconds) so the benchmark can measure latency.
- ``read DB``: a reader that only SELECTs (must not look like a change).
- ``write-chunked PATH [--chunks N] [--pause S]``: the agent's non-atomic rewrite of a
  persona entry (content on stdin), in N writes with pauses, no temporary file.
- ``write-atomic PATH``: an editor's save: temporary file in the same folder, fsync,
  rename over the entry (content on stdin).
- ``serve-writes PATH``: one whole-file rewrite per stdin line; prints commit times.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from memory_desk.core import alisio

PROJECT = "demo-0123abcd"
SCRIPT = Path(__file__).resolve()


def writer_argv(*args: str) -> list[str]:
    """The command line that runs one of these writers in a second Python process."""
    return [sys.executable, str(SCRIPT), *args]


def _save(conn, index: int) -> None:  # noqa: ANN001 - sqlite3.Connection
    alisio.save_observation(
        conn,
        title=f"Live observation {index} from pid {os.getpid()}",
        content=f"**What** change {index}\n**Why** live reload test",
        type="discovery",
        project=PROJECT,
        session_id="live-session",
    )


def save(db: str, count: int, gap: float) -> None:
    conn = alisio.connect_like_plugin(db)
    for index in range(count):
        if index:
            time.sleep(gap)
        _save(conn, index)
        print(time.monotonic_ns(), flush=True)
    conn.close()


def serve_saves(db: str) -> None:
    conn = alisio.connect_like_plugin(db)
    print("ready", flush=True)
    for index, _line in enumerate(sys.stdin):
        _save(conn, index)
        print(time.monotonic_ns(), flush=True)
    conn.close()


def read(db: str) -> None:
    conn = alisio.connect_like_plugin(db)
    rows = conn.execute("SELECT id, title FROM observations WHERE deleted_at IS NULL").fetchall()
    conn.close()
    print(len(rows), flush=True)


def write_chunked(path: str, chunks: int, pause: float) -> None:
    data = sys.stdin.buffer.read()
    size = -(-len(data) // chunks)
    with open(path, "wb") as handle:  # truncates first: a reader can see an empty file
        for start in range(0, len(data), size):
            if start:
                time.sleep(pause)
            handle.write(data[start : start + size])
            handle.flush()
    print(time.monotonic_ns(), flush=True)


def write_atomic(path: str) -> None:
    data = sys.stdin.buffer.read()
    target = Path(path)
    temp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    with open(temp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, target)
    print(time.monotonic_ns(), flush=True)


def serve_writes(path: str) -> None:
    print("ready", flush=True)
    for index, _line in enumerate(sys.stdin):
        Path(path).write_text(
            "---\nname: live\ndescription: Live entry\ntype: user\n"
            f"updated: 2026-01-01T00:00:{index % 60:02d}.000Z\n---\n\nRevision {index}\n",
            encoding="utf-8",
        )
        print(time.monotonic_ns(), flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("save")
    p.add_argument("db")
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--gap", type=float, default=0.0)
    commands.add_parser("serve-saves").add_argument("db")
    commands.add_parser("read").add_argument("db")
    p = commands.add_parser("write-chunked")
    p.add_argument("path")
    p.add_argument("--chunks", type=int, default=4)
    p.add_argument("--pause", type=float, default=0.02)
    commands.add_parser("write-atomic").add_argument("path")
    commands.add_parser("serve-writes").add_argument("path")
    args = parser.parse_args(argv)
    if args.command == "save":
        save(args.db, args.count, args.gap)
    elif args.command == "serve-saves":
        serve_saves(args.db)
    elif args.command == "read":
        read(args.db)
    elif args.command == "write-chunked":
        write_chunked(args.path, args.chunks, args.pause)
    elif args.command == "write-atomic":
        write_atomic(args.path)
    else:
        serve_writes(args.path)


if __name__ == "__main__":
    main()
