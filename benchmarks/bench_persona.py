"""How fast a big persona folder lists and saves (memory_desk.core.persona).

Builds a folder of 2,000 entries in the agent's format (plus a few odd ones), then times:

- ``entries()``, against a raw baseline in the same run: ``os.scandir`` plus reading every
  file's bytes, which any listing must do at least;
- the sidebar's count of the folder (``folder_counts``: a listing of its own);
- parsing every file's bytes the way listings do (the agent's own files take a short way,
  ``agent_written_entry``) against the whole grammar alone (``full_entry_from_bytes``);
- ``read()`` of one entry and ``has_changed()``;
- ``save()`` of one entry (atomic: temporary file, fsync, rename, fsync of the folder), against
  a raw baseline of writing the same bytes with the same fsyncs.

Figures are medians of several runs. Not a test: run it on purpose.

    python benchmarks/bench_persona.py [--entries 2000] [--runs 7]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from memory_desk.core.persona import RACY_NS, PersonaFolder, agent_index
from memory_desk.core.persona.reading import entry_from_bytes, full_entry_from_bytes
from memory_desk.core.persona.scan import folder_counts


def build_folder(folder: Path, count: int) -> None:
    """``count`` entries as the agent writes them, bodies of a few hundred bytes."""
    for i in range(count):
        name = f"entry-{i:05d}"
        kind = ("user", "feedback")[i % 3 == 0]
        updated = (
            f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00.{i % 1000:03d}Z"
        )
        body = f"Rule {i}: keep answers short. Why: the person said so. Apply: always.\n" * 4
        (folder / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: Preference number {i}\ntype: {kind}\n"
            f"updated: {updated}\n---\n\n{body.strip()}\n"
        )
    (folder / "Not Kebab.md").write_text("no header\n")
    (folder / "crlf-one.md").write_bytes(b"---\r\ntype: feedback\r\n---\r\nx\r\n")


def median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def raw_listing(folder: Path) -> int:
    total = 0
    with os.scandir(folder) as it:
        for d in it:
            if d.name.endswith(".md") and not d.name.startswith("."):
                with open(d.path, "rb") as handle:
                    total += len(handle.read())
    return total


def raw_save(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.raw.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, data)
    os.fsync(fd)
    os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(path.parent, os.O_RDONLY)
    os.fsync(dfd)
    os.close(dfd)


def main() -> None:
    parser = argparse.ArgumentParser(description="Persona folder benchmark")
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder_path = Path(tmp) / "memory"
        folder_path.mkdir()
        start = time.perf_counter()
        build_folder(folder_path, args.entries)
        print(f"built {args.entries} entries in {time.perf_counter() - start:.2f} s")
        time.sleep(RACY_NS / 1e9 + 0.2)  # files this fresh are never cached (racy-clean rule)
        trash = Path(tmp) / "trash"
        raw_listing(folder_path)  # warm the page cache for both
        raw = median_ms(lambda: raw_listing(folder_path), args.runs)

        cold = median_ms(lambda: PersonaFolder(folder_path, trash=trash).entries(), args.runs)
        counts = median_ms(lambda: folder_counts(folder_path), args.runs)
        folder = PersonaFolder(folder_path, trash=trash)
        entries = folder.entries()
        warm = median_ms(folder.entries, args.runs)
        index = median_ms(lambda: agent_index(entries), args.runs)
        print(f"raw scandir + read all  : {raw:8.1f} ms")
        print(f"entries(), first listing: {cold:8.1f} ms  ({cold / raw:.1f}x raw)")
        print(f"entries(), again        : {warm:8.1f} ms  ({warm / raw:.1f}x raw; unchanged files")
        print("                                      are not read again)")
        print(f"sidebar's count         : {counts:8.1f} ms  ({counts / raw:.1f}x raw)")
        files = [(p, p.read_bytes(), p.stat()) for p in sorted(folder_path.glob("*.md"))]
        for label, parse in (
            ("as listings do", entry_from_bytes),
            ("whole grammar", full_entry_from_bytes),
        ):
            parsing = median_ms(
                lambda parse=parse: [parse(p.stem, p, d, st) for p, d, st in files], args.runs
            )
            print(f"parse all {label:14s}: {parsing:8.1f} ms")
        print(f"agent_index(entries)    : {index:8.1f} ms")
        texts = median_ms(
            lambda: [e.body for e in PersonaFolder(folder_path, trash=trash).entries()], args.runs
        )
        print(f"listing + every body    : {texts:8.1f} ms  (what the filter's texts need)")
        print(f"  {len(entries)} entries, {sum(e.agent_visible for e in entries)} agent-visible")

        name = entries[len(entries) // 2].name
        entry = folder.read(name)
        print(
            f"read() one entry        : {median_ms(lambda: folder.read(name), args.runs):8.3f} ms"
        )
        changed = median_ms(lambda: folder.has_changed(entry), args.runs)
        print(f"has_changed() one entry : {changed:8.3f} ms")

        state = {"entry": entry, "n": 0}

        def save_once() -> None:
            state["n"] += 1
            edited = dataclasses.replace(state["entry"], body=f"Edited {state['n']}")
            state["entry"] = folder.save(edited)

        saved = median_ms(save_once, args.runs)
        data = state["entry"].path.read_bytes()
        raw_write = median_ms(lambda: raw_save(folder_path / "raw-target.md", data), args.runs)
        print(f"raw atomic write+fsyncs : {raw_write:8.2f} ms")
        print(f"save() one entry        : {saved:8.2f} ms  ({saved / raw_write:.1f}x raw)")


if __name__ == "__main__":
    main()
