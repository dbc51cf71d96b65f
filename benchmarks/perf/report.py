"""The one table: each figure at each size, Memory Desk's samples beside the raw reference.

A row holds every sample (so ``--json`` keeps them and ``compare.py`` can recompute), the
target as a predicate on the row, and the words a person reads for it. Growth rows compare
each figure at the largest size with the smallest, next to the data's own growth.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass, field


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1); NaN for no values."""
    clean = sorted(v for v in values if v is not None and not math.isnan(v))
    if not clean:
        return float("nan")
    return clean[min(len(clean) - 1, max(0, math.ceil(share * len(clean)) - 1))]


def median(values: list[float]) -> float:
    clean = [v for v in values if v is not None and not math.isnan(v)]
    return statistics.median(clean) if clean else float("nan")


@dataclass
class Row:
    """One figure at one size: samples, reference samples, target and its verdict."""

    figure: str
    size: str
    samples: list[float]
    reference: list[float] = field(default_factory=list)
    reference_name: str = ""
    unit: str = "ms"
    target: str = ""
    ok: bool | None = None
    note: str = ""
    growth_key: str = ""  # which value the growth rows compare: "median", "p99" or "max"

    @property
    def median(self) -> float:
        return median(self.samples)

    @property
    def p95(self) -> float:
        return percentile(self.samples, 0.95)

    @property
    def p99(self) -> float:
        return percentile(self.samples, 0.99)

    @property
    def max(self) -> float:
        return percentile(self.samples, 1.0)

    @property
    def ref(self) -> float:
        return median(self.reference)

    @property
    def ratio(self) -> float:
        ref = self.ref
        return self.median / ref if ref and not math.isnan(ref) else float("nan")

    def value(self, key: str) -> float:
        return getattr(self, key or "median")

    def judge(self, check: Callable[[Row], bool] | None) -> Row:
        self.ok = None if check is None or not self.samples else bool(check(self))
        return self

    def as_dict(self) -> dict:
        return asdict(self)


def _fmt(value: float, unit: str = "ms") -> str:
    if value is None or math.isnan(value):
        return "-"
    if unit == "x":
        return f"{value:.2f}"
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.1f}"


def table(rows: list[Row]) -> str:
    """The rows as one fixed-width table."""
    head = (
        f"{'figure':44} {'size':>5} {'n':>4} {'median':>8} {'p95':>8} {'p99':>8} {'max':>8}"
        f" {'ref':>8} {'ratio':>6} {'unit':>4}  {'target':26} ok   reference"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        ok = {True: "yes", False: "NO", None: "-"}[row.ok]
        lines.append(
            f"{row.figure[:44]:44} {row.size:>5} {len(row.samples):4d}"
            f" {_fmt(row.median, row.unit):>8} {_fmt(row.p95, row.unit):>8}"
            f" {_fmt(row.p99, row.unit):>8} {_fmt(row.max, row.unit):>8}"
            f" {_fmt(row.ref, row.unit):>8} {_fmt(row.ratio, 'x'):>6} {row.unit:>4}"
            f"  {row.target[:26]:26} {ok:4} {row.reference_name}{'; ' + row.note if row.note else ''}"
        )
    return "\n".join(lines)


def growth(rows: list[Row], sizes: dict[str, int]) -> list[Row]:
    """Per figure: its value at the largest size over the smallest, beside the data's growth."""
    by_figure: dict[str, dict[str, Row]] = {}
    for row in rows:
        if row.size in sizes:
            by_figure.setdefault(row.figure, {})[row.size] = row
    out = []
    for figure, per_size in by_figure.items():
        measured = sorted(per_size, key=lambda s: sizes[s])
        if len(measured) < 2:
            continue
        small, large = per_size[measured[0]], per_size[measured[-1]]
        key = small.growth_key or "median"
        before, after = small.value(key), large.value(key)
        if not before or math.isnan(before) or math.isnan(after):
            continue
        data = sizes[measured[-1]] / sizes[measured[0]]
        grew = after / before
        out.append(
            Row(
                f"growth: {figure} ({key})",
                f"{measured[0]}>{measured[-1]}",
                [grew],
                [data],
                reference_name="data's growth",
                unit="x",
                target="grows no faster than data",
                ok=grew <= data,
            )
        )
    return out
