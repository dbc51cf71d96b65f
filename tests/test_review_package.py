"""The review inbox's shape: the window only composes it, and no room of it grows past ~600
lines (the house's rule for splitting a file that holds several concerns)."""

from __future__ import annotations

from pathlib import Path

import memory_desk.ui.review as review
import memory_desk.ui.window as window

LIMIT = 600


def test_every_review_module_stays_under_the_split_limit() -> None:
    for path in Path(review.__file__).parent.glob("*.py"):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines < LIMIT, f"{path.name} has {lines} lines: split it by concern"


def test_the_window_holds_no_journal_wiring() -> None:
    """The journal's ownership (open, witness, scans, limits, clear) is the ReviewDesk's."""
    source = Path(window.__file__).read_text(encoding="utf-8")
    for word in ("core.journal", "witness", "StoreToScan", "scan_all", "JournalLimits"):
        assert word not in source, word
