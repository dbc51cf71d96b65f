"""Play Alisio's memory plugin for one write, as a separate process (the journal's tests).

    python alisio_one_write.py DB save TITLE CONTENT [--topic KEY] [--session S] [--tool T]
    python alisio_one_write.py DB forget ID      # the plugin's forget: deleted_at = now
    python alisio_one_write.py DB delete ID      # the plugin's forget hard: DELETE

Writes with the plugin's own semantics (``connect_like_plugin`` and ``save_observation``:
WAL, busy_timeout 5000, topic upserts). Prints one JSON line: the saved row's id and action.

The agent's clock is its own: ``--clock-offset-ms N`` (or the environment variable
``AGENT_CLOCK_OFFSET_MS``) makes its "now" N ms ahead of this machine's (negative: behind),
as an agent in a container or on another machine stamps its rows.
"""

from __future__ import annotations

import argparse
import json
import os

from memory_desk.core import alisio


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("action", choices=("save", "forget", "delete"))
    parser.add_argument("args", nargs="*")
    parser.add_argument("--topic")
    parser.add_argument("--session", default="chat-1")
    parser.add_argument("--tool", default="memory_save")
    parser.add_argument(
        "--clock-offset-ms", type=int, default=int(os.environ.get("AGENT_CLOCK_OFFSET_MS", 0))
    )
    opts = parser.parse_args()
    now = alisio.now_ms() + opts.clock_offset_ms
    conn = alisio.connect_like_plugin(opts.db)
    if opts.action == "save":
        title, content = opts.args
        saved = alisio.save_observation(
            conn,
            title=title,
            content=content,
            type="decision",
            project="proj-12345678",
            topic_key=opts.topic,
            session_id=opts.session,
            tool_name=opts.tool,
            now=now,
        )
        print(json.dumps({"id": saved.id, "action": saved.action}), flush=True)
    elif opts.action == "forget":
        conn.execute(
            "UPDATE observations SET deleted_at = ? WHERE id = ?",
            (now, int(opts.args[0])),
        )
        print(json.dumps({"id": int(opts.args[0]), "action": "forgotten"}), flush=True)
    else:
        conn.execute("DELETE FROM observations WHERE id = ?", (int(opts.args[0]),))
        print(json.dumps({"id": int(opts.args[0]), "action": "deleted"}), flush=True)
    conn.close()


if __name__ == "__main__":
    main()
