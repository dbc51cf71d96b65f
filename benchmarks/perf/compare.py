"""Two runs of ``benchmarks/run.py --json`` side by side: before, after, and how much faster.

    python benchmarks/perf/compare.py BEFORE.json AFTER.json

For each figure and size found in either run: the median (and p95/max where the target is
about them), the reference of each run (so a slower machine shows as a slower reference,
not as a regression), and after/before. A figure in one run only is shown with "-".
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from perf.report import Row, _fmt  # noqa: E402


def load(path: str) -> tuple[dict, dict[tuple[str, str], Row]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    rows = {}
    for item in data.get("rows", []):
        row = Row(**item)
        rows[(row.figure, row.size)] = row
    return data.get("meta", {}), rows


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    (meta_b, before), (meta_a, after) = load(argv[0]), load(argv[1])
    for name, meta in (("before", meta_b), ("after", meta_a)):
        print(f"{name}: {meta.get('date')} {meta.get('git')} {meta.get('memory_desk')}")
    head = (
        f"{'figure':44} {'size':>9} {'before':>8} {'after':>8} {'after/before':>12}"
        f" {'p95 b':>8} {'p95 a':>8} {'max b':>8} {'max a':>8} {'ref b':>8} {'ref a':>8}"
        f"  ok b/a"
    )
    print(head)
    print("-" * len(head))
    keys = list(before) + [k for k in after if k not in before]
    for key in keys:
        b, a = before.get(key), after.get(key)
        mb = b.median if b else float("nan")
        ma = a.median if a else float("nan")
        change = ma / mb if mb and not math.isnan(mb) and not math.isnan(ma) else float("nan")
        unit = (a or b).unit  # type: ignore[union-attr]

        def f(row: Row | None, attr: str, unit: str = unit) -> str:
            return _fmt(getattr(row, attr), unit) if row else "-"

        def ok(row: Row | None) -> str:
            return {True: "yes", False: "NO", None: "-"}[row.ok] if row else "-"

        print(
            f"{key[0][:44]:44} {key[1]:>9} {f(b, 'median'):>8} {f(a, 'median'):>8}"
            f" {_fmt(change, 'x'):>12} {f(b, 'p95'):>8} {f(a, 'p95'):>8} {f(b, 'max'):>8}"
            f" {f(a, 'max'):>8} {f(b, 'ref'):>8} {f(a, 'ref'):>8}  {ok(b)}/{ok(a)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
