"""The held-back parts' imports give way to the window's thread (ui/warm_up.py).

Importing numpy on the warm-up thread holds the interpreter's lock for tens of milliseconds
(a C extension's initialisation): with a person scrolling at once at 1,000,000 rows, one
page-jump frame waited 88 ms for it. A real thread, a real module on disk, and the test's own
thread busy as the window's would be.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from memory_desk.core.give_way import GiveWay, thread_cpu
from memory_desk.ui import warm_up
from memory_desk.ui.warm_up import WarmUp


def _module(tmp_path: Path, name: str, monkeypatch) -> str:
    (tmp_path / f"{name}.py").write_text("VALUE = 42\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return name


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_the_imports_wait_while_the_windows_thread_works(qtbot, tmp_path, monkeypatch):
    name = _module(tmp_path, "md_warm_up_probe_a", monkeypatch)
    monkeypatch.setattr(warm_up, "MOST_WAIT_S", 5.0)
    warm = WarmUp([name])
    with qtbot.waitSignal(warm.done, timeout=5_000):  # (then idle in the event loop)
        warm.start()
        _spin(1.0)  # the window's thread at work (a scroll, a sort)
        assert name not in sys.modules
    assert name in sys.modules
    assert warm.waited >= 0.9


def test_a_window_that_never_rests_still_gets_its_parts(qtbot, tmp_path, monkeypatch):
    name = _module(tmp_path, "md_warm_up_probe_b", monkeypatch)
    monkeypatch.setattr(warm_up, "MOST_WAIT_S", 0.3)
    warm = WarmUp([name])
    with qtbot.waitSignal(warm.done, timeout=5_000):
        warm.start()
        _spin(1.5)
        assert name in sys.modules  # imported after at most MOST_WAIT_S, while still busy


def test_a_quiet_windows_thread_is_not_waited_for(qtbot, tmp_path, monkeypatch):
    name = _module(tmp_path, "md_warm_up_probe_c", monkeypatch)
    warm = WarmUp([name])
    time.sleep(0.1)
    with qtbot.waitSignal(warm.done, timeout=5_000):
        warm.start()
    assert name in sys.modules and warm.waited < 0.3


def test_a_threads_cpu_clock_counts_only_that_threads_work() -> None:
    import threading

    clock = thread_cpu(threading.get_ident())
    before = clock()
    assert before is not None
    time.sleep(0.2)
    slept = clock() - before
    _spin(0.2)
    worked = clock() - before - slept
    assert slept < 50_000_000 < worked  # (ns)
    give_way = GiveWay(clock, quiet_s=0.1, most_wait_s=1.0)
    _spin(0.1)
    give_way()  # (the test's own thread worked since the mark: it waits for itself to be quiet)
    assert 0.1 <= give_way.waited < 1.0
