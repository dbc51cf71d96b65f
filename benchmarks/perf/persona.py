"""The persona figures, from ``perf.persona_window`` (helper A's module) in its own process.

    python benchmarks/perf/persona.py COUNT CACHE OUT.json [--repeats N]

Builds the folder of COUNT entries once (cached beside the databases, keyed by the same
version), then runs ``measure(folder, repeats)`` in this process, with a private home, and
writes its samples. A checkout without the module writes ``{"missing": reason}``.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from perf import qtwatch  # noqa: E402
from perf.dataset import VERSION  # noqa: E402


def folder_for(count: int, cache: Path, build) -> Path:  # noqa: ANN001 - build_folder
    """The cached folder of ``count`` entries; the measured copy is taken from it."""
    folder = cache / VERSION / f"persona-{count}"
    done = folder / ".built"
    if not done.exists():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        build(folder / "memory", count, seed=0)
        done.write_text("ok\n")
    return folder / "memory"


def main(argv: list[str]) -> int:
    count, cache, out = int(argv[0]), Path(argv[1]), argv[2]
    repeats = int(argv[4]) if len(argv) > 4 and argv[3] == "--repeats" else 5
    try:
        from perf.persona_window import build_folder, measure
    except ImportError as exc:
        qtwatch.write_result(out, {"missing": f"perf.persona_window is not there ({exc})"})
        return 0
    with tempfile.TemporaryDirectory(prefix="memory-desk-bench-persona-") as tmp:
        qtwatch.private_home(Path(tmp) / "home")
        source = folder_for(count, cache, build_folder)
        folder = Path(tmp) / "memory"  # the saves change entries: never the cached folder
        shutil.copytree(source, folder)
        samples = measure(folder, repeats)
    Path(out).write_text(json.dumps({k: list(v) for k, v in samples.items()}), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
