"""Persona writes by whoever runs this script: Memory Desk's core, or the agent's own way.

The tests run it as an unprivileged user (``setpriv --reuid=nobody``): as root, which may
write any file, no permission could ever refuse anything. Reads a JSON list of operations on
stdin and prints one JSON object per operation: ``{"done": true}`` or ``{"done": false,
"error": "<message or OS error>"}``.

Operations (``[who, op, folder, name, arg]``):
- ``["desk", "save", F, NAME, BODY]``: read entry NAME of folder F, give it BODY, save it;
- ``["desk", "forget", F, NAME, null]`` and ``["desk", "rename", F, NAME, NEW]``;
- ``["agent", "save", F, NAME, BODY]``: the agent's update, ``open(path, 'w')`` in place;
- ``["agent", "forget", F, NAME, null]``: the agent's removal, ``unlink``;
- ``["agent", "rename", F, NAME, NEW]``: the agent writing NEW, then unlinking NAME.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path

from memory_desk.core.errors import StoreError
from memory_desk.core.persona import PersonaFolder


def desk(op: str, folder: Path, name: str, arg: str | None) -> None:
    persona = PersonaFolder(folder, trash=Path(os.environ["HOME"]) / "trash")
    entry = persona.read(name)
    if op == "save":
        persona.save(dataclasses.replace(entry, body=arg))
    elif op == "forget":
        persona.forget(name)
    elif op == "rename":
        persona.rename(entry, arg)


def agent(op: str, folder: Path, name: str, arg: str | None) -> None:
    path = folder / f"{name}.md"
    if op == "save":
        with open(path, "w", encoding="utf-8") as out:
            out.write(arg)
    elif op == "forget":
        os.unlink(path)
    elif op == "rename":
        data = path.read_bytes()
        with open(folder / f"{arg}.md", "xb") as out:
            out.write(data)
        os.unlink(path)


def main() -> None:
    results = []
    for who, op, folder, name, arg in json.load(sys.stdin):
        try:
            (desk if who == "desk" else agent)(op, Path(folder), name, arg)
        except (StoreError, OSError) as exc:
            results.append({"done": False, "error": str(exc)})
        else:
            results.append({"done": True})
    print(json.dumps(results))


if __name__ == "__main__":
    main()
