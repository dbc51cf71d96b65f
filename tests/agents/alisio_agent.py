"""Play Alisio's memory plugin in a separate process: save observations into a memory.sqlite.

Tests run this script with ``subprocess`` so that a real second process writes the
database while Memory Desk reads and writes it, with the plugin's own semantics
(``memory_desk.core.alisio.connect_like_plugin`` and ``save_observation``: WAL,
busy_timeout 5000, one ``BEGIN IMMEDIATE`` per save, topic upserts, duplicate counts).

    python tests/agents/alisio_agent.py --db memory.sqlite --count 300 --topic-every 3

Output on stdout, one JSON object per line, each flushed as it happens:
- with ``--progress``: ``{"event": "ready"}`` once the database is open (before
  waiting for ``--go-file``), then ``{"event": "saved", "seq": i, "id": ..., "action":
  "created"|"revised"|"duplicate", "topic_key": ..., "token": ...}`` after each save
  commits;
- always, last: ``{"event": "done", "saved": n, "created": [...], "revised": {...},
  "duplicates": {...}, "accessed": {...}, "errors": [...], "tokens": [...]}`` where
  ``revised``, ``duplicates`` and ``accessed`` map an id (as a string) to a count, and
  ``tokens[i]`` is a word unique to save ``i`` in its content ("" for a repeat).
The exit status is 0 when every save succeeded, 1 otherwise.

Options for live-reload tests: ``--interval-ms`` spaces the saves, ``--go-file`` holds
the first save until a file exists, ``--access-every`` makes the agent bump a row's
access counter as its ``memory_get`` does.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import time
from collections import Counter
from pathlib import Path

from memory_desk.core import alisio

_WORDS = ("cache", "token", "retry", "schema", "widget", "thread", "index", "parser", "db", "ui")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Save observations as Alisio's plugin does.")
    parser.add_argument("--db", type=Path, required=True, help="an existing memory.sqlite")
    parser.add_argument("--count", type=int, default=100, help="how many saves (default 100)")
    parser.add_argument("--interval-ms", type=float, default=0, help="pause between saves")
    parser.add_argument(
        "--topic-every", type=int, default=0, help="every Kth save uses a topic_key (0: never)"
    )
    parser.add_argument("--topics", type=int, default=5, help="how many distinct topic keys")
    parser.add_argument(
        "--duplicate-every", type=int, default=0, help="every Kth save repeats the previous one"
    )
    parser.add_argument("--seed", type=int, default=0, help="makes titles and content repeatable")
    parser.add_argument("--project", default="agent-0badc0de", help="the project to save into")
    parser.add_argument("--scope", default="project", choices=alisio.SCOPES)
    parser.add_argument("--session", default="agent-session", help="the session_id to record")
    parser.add_argument("--prefix", default="agentsave", help="start of every unique token")
    parser.add_argument(
        "--access-every",
        type=int,
        default=0,
        help="after every Kth save, read the oldest live row as memory_get does (access_count+1)",
    )
    parser.add_argument(
        "--go-file", type=Path, help="wait until this file exists before the first save"
    )
    parser.add_argument("--progress", action="store_true", help="print a line after each save")
    return parser.parse_args(argv)


def token(args: argparse.Namespace, seq: int) -> str:
    """A word that appears only in save ``seq`` of this run (searchable by trigram)."""
    return f"{args.prefix}{args.seed}x{seq}"


def observation_for(
    args: argparse.Namespace, rng: random.Random, seq: int, previous: dict[str, object] | None
) -> dict[str, object]:
    """The fields of save ``seq``: a repeat of the previous save, or a fresh observation."""
    if previous is not None and args.duplicate_every and seq % args.duplicate_every == 0:
        return previous
    words = " ".join(rng.choice(_WORDS) for _ in range(12))
    fields: dict[str, object] = {
        "title": f"Agent note {args.seed}-{seq}",
        "content": f"**What** {token(args, seq)} {words}\n\n**Why** seen by the agent",
        "type": alisio.OBSERVATION_TYPES[seq % len(alisio.OBSERVATION_TYPES)],
        "project": args.project,
        "scope": args.scope,
        "session_id": args.session,
        "topic_key": None,
    }
    if args.topic_every and seq % args.topic_every == 0:
        fields["topic_key"] = f"agent/topic-{(seq // args.topic_every) % args.topics}"
    return fields


def memory_get(conn: sqlite3.Connection, project: str) -> int | None:
    """Open a row whole as the agent's ``memory_get`` does: it counts the access."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute(
            "SELECT id FROM observations WHERE project = ? AND deleted_at IS NULL"
            " ORDER BY id LIMIT 1",
            (project,),
        ).fetchone()
        if row is not None:
            conn.execute(
                "UPDATE observations SET access_count = access_count + 1,"
                " last_accessed_at = ? WHERE id = ?",
                (alisio.now_ms(), row[0]),
            )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return None if row is None else int(row[0])


def wait_for(go_file: Path | None) -> None:
    """Start when the test says so, without the test having to guess a delay."""
    while go_file is not None and not go_file.exists():
        time.sleep(0.005)


def run(args: argparse.Namespace) -> dict[str, object]:
    rng = random.Random(args.seed)
    conn = alisio.connect_like_plugin(args.db)
    accessed: Counter[int] = Counter()
    if args.progress:
        emit({"event": "ready"})
    wait_for(args.go_file)
    created: list[int] = []
    revised: Counter[int] = Counter()
    duplicates: Counter[int] = Counter()
    errors: list[str] = []
    tokens: list[str] = []
    previous: dict[str, object] | None = None
    try:
        for seq in range(args.count):
            fields = observation_for(args, rng, seq, previous)
            tokens.append(token(args, seq) if fields is not previous else "")
            previous = fields
            try:
                result = alisio.save_observation(conn, **fields)  # type: ignore[arg-type]
            except sqlite3.Error as exc:
                errors.append(f"save {seq}: {exc}")
                continue
            if result.action == "created":
                created.append(result.id)
            elif result.action == "revised":
                revised[result.id] += 1
            else:
                duplicates[result.id] += 1
            if args.access_every and (seq + 1) % args.access_every == 0:
                try:
                    read_id = memory_get(conn, args.project)
                except sqlite3.Error as exc:
                    errors.append(f"memory_get after save {seq}: {exc}")
                else:
                    if read_id is not None:
                        accessed[read_id] += 1
            if args.progress:
                emit(
                    {
                        "event": "saved",
                        "seq": seq,
                        "id": result.id,
                        "action": result.action,
                        "topic_key": fields["topic_key"],
                        "token": tokens[-1],
                    }
                )
            if args.interval_ms:
                time.sleep(args.interval_ms / 1000)
    finally:
        conn.close()
    return {
        "event": "done",
        "saved": args.count - len(errors),
        "created": created,
        "revised": {str(k): v for k, v in revised.items()},
        "duplicates": {str(k): v for k, v in duplicates.items()},
        "accessed": {str(k): v for k, v in accessed.items()},
        "errors": errors,
        "tokens": tokens,
    }


def emit(record: dict[str, object]) -> None:
    print(json.dumps(record), flush=True)


def main(argv: list[str] | None = None) -> int:
    summary = run(parse_args(argv))
    emit(summary)
    return 1 if summary["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
