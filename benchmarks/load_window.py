"""The load test's full minute: an agent saving about 50 observations a second while the
person pins, forgets, restores, edits and searches in the real window.

Run: ``python benchmarks/load_window.py [--seconds 60] [--rate 50]``.

The scenario is the CI test's own (``tests/test_load_window.py``, :func:`run_load`): the
plugin-playing agent (``tests/agents/alisio_agent.py``, topic upserts and duplicates
included) in a second process, the person driving the offscreen window by object names, a
10 ms heartbeat timer measuring the longest event-loop stall. Printed: the agent's saves
and rate, the person's actions, the longest stall, the errors shown and every accounting
problem (each agent save and each of the person's writes checked in the file, and FTS5's
``integrity-check``). Exit status 1 when anything was lost or an error was shown.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from perf.qtwatch import private_home  # noqa: E402

from test_load_window import make_person_database, run_load  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the agent saves")
    parser.add_argument("--rate", type=float, default=50.0, help="agent saves per second")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="memory-desk-load-") as folder:
        root = Path(folder)
        private_home(root / "home")
        app = QApplication.instance() or QApplication([])
        from memory_desk.app import create_main_window

        db = make_person_database(root / "memory.sqlite")
        window = create_main_window(["--db", str(db)])
        window.show()
        app.processEvents()
        try:
            report = run_load(window, db, args.seconds, rate=args.rate)
        finally:
            window.close()
            window.shutdown()
            window.deleteLater()
            app.processEvents()
    print(f"load: {args.seconds:g} s at {args.rate:g} saves/s requested")
    for line in report.lines():
        print(f"  {line}")
    for problem in report.problems:
        print(f"  LOST: {problem}")
    for error in report.errors:
        print(f"  ERROR SHOWN: {error}")
    return 1 if report.problems or report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
