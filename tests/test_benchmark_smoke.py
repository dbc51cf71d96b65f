"""The benchmark harness runs end to end on a small database (figures printed, not judged).

Timings are never asserted here: only that ``benchmarks/run.py`` builds its database in
the plugin's schema, runs the store and typing figures in their subprocesses (the window
and the QSqlQueryModel reference), prints each figure beside its reference, keeps every
sample in ``--json``, and that ``perf/compare.py`` reads two such files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "benchmarks" / "run.py"
COMPARE = ROOT / "benchmarks" / "perf" / "compare.py"


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, *argv], env=env, capture_output=True, text=True, timeout=300
    )


def test_the_harness_prints_store_and_keystroke_figures_beside_their_references(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run.json"
    done = run(
        str(RUN),
        "--sizes",
        "1k",
        "--only",
        "store,search",
        "--repeats",
        "1",
        "--words",
        "1",
        "--cache",
        str(tmp_path / "cache"),
        "--json",
        str(out),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    table = done.stdout
    assert "median" in table and "ref" in table and "ratio" in table and "target" in table
    for figure in (
        "store search_ids()",
        "store count()",
        "store search()",
        "keystroke -> rows painted (8 keys/s)",
        "keystroke -> rows painted vs QSqlQueryModel",
        "typing settled",
    ):
        assert figure in table, f"{figure!r} missing from:\n{table}"
    assert "raw FTS query" in table and "QSqlQueryModel+QTableView" in table
    assert "common 'kaxdrea'" in table  # the search words' match counts are reported
    data = json.loads(out.read_text())
    rows = {row["figure"]: row for row in data["rows"]}
    keystroke = rows["keystroke -> rows painted (8 keys/s)"]
    assert keystroke["samples"] and keystroke["reference"]
    assert rows["keystroke -> rows painted vs QSqlQueryModel"]["reference"]
    assert len(rows["store search_ids()"]["samples"]) == len(
        rows["store search_ids()"]["reference"]
    )
    assert (tmp_path / "cache" / "v1" / "observations-1000.sqlite").exists()

    compared = run(str(COMPARE), str(out), str(out))
    assert compared.returncode == 0, compared.stderr
    assert "keystroke -> rows painted (8 keys/s)" in compared.stdout
    assert "1.00" in compared.stdout  # a run against itself: after/before is 1
