"""Test set-up shared by every test: offscreen Qt, and a private HOME/XDG per test."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own HOME and XDG folders: nothing touches the real ones."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for name, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_STATE_HOME", ".local/state"),
        ("XDG_CACHE_HOME", ".cache"),
    ):
        (home / sub).mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv(name, str(home / sub))
    for name in ("ALISIO_STATE_HOME", "ALISIO_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture(autouse=True)
def no_thread_left_running():
    """Watchers and workers must stop and join when their window closes."""
    import threading

    before = set(threading.enumerate())
    yield
    leftover = []
    for thread in set(threading.enumerate()) - before:
        if isinstance(thread, threading._DummyThread):  # a Qt thread seen from Python
            continue
        thread.join(timeout=2.0)
        if thread.is_alive():
            leftover.append(thread.name)
    assert not leftover, f"threads left running after the test: {leftover}"
