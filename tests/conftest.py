"""Test set-up shared by every test: offscreen Qt, and a private HOME/XDG per test."""

from __future__ import annotations

import os
import subprocess
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


@pytest.fixture(autouse=True)
def no_unexpected_modal_dialog(monkeypatch: pytest.MonkeyPatch) -> None:
    """A modal dialog nobody answers would hang the suite until CI's time runs out: fail instead.

    Tests that expect a dialog patch it themselves (their patch is applied after this one).
    """
    from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

    def refuse(name: str):
        def modal(*args, **kwargs):
            raise AssertionError(f"unexpected modal dialog {name}{args[1:3]!r}")

        return modal

    for name in ("question", "warning", "information", "critical", "about"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(refuse(f"QMessageBox.{name}")))
    for name in ("getOpenFileName", "getExistingDirectory", "getSaveFileName"):
        monkeypatch.setattr(QFileDialog, name, staticmethod(refuse(f"QFileDialog.{name}")))
    monkeypatch.setattr(QDialog, "exec", refuse("QDialog.exec"))


@pytest.fixture(autouse=True)
def english_and_system_theme():
    """A test that switches the language or the theme leaves English and the system theme."""
    yield
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        return
    from memory_desk.ui import i18n, theme

    if i18n.current_language() != "en":
        i18n.install_language("en")
    if theme.current_choice() != "system":
        theme.apply_theme("system")


@pytest.fixture(autouse=True, scope="session")
def english_as_at_a_real_start():
    """A real start installs a language (and its locale) before the window: so do the tests,
    whatever the machine's LANG (``C`` would otherwise write 50000 for 50,000)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from memory_desk.ui import i18n

    i18n.install_language("en", app)
    yield


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 1 MiB tmpfs at tmp_path/disk, unmounted after the test: a real full disk
    (test_full_disk.py, test_export.py). Mounting needs root, as CI runs."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(disk)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
