"""The program as a person starts it: the self-test, the console script, the launcher."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memory_desk import APP_ID, __version__
from memory_desk.app import main
from memory_desk.selftest import run_self_test

# What every self-test run must say it checked (one line each).
CHECKS = (
    "application icon (SVG) is installed",
    "application icon loads",
    "PNG icons 16 to 512 px load",
    f"{APP_ID}.desktop is installed",
    f"{APP_ID}.metainfo.xml is installed",
    "the demo opens on the observations page",
    "the table shows the demo's observations",
    "narrows the table",
    "pin reaches the database",
    "undo puts the pin back",
    "forget reaches the database",
    "undo restores the forgotten observation",
    "saving a persona entry writes its file",
)


def memory_desk_command() -> list[str]:
    """The installed console script, or the module when the script is not on PATH."""
    script = shutil.which("memory-desk") or shutil.which(
        "memory-desk", path=str(Path(sys.executable).parent)
    )
    return [script] if script else [sys.executable, "-m", "memory_desk"]


def run(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [*memory_desk_command(), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


def test_self_test_in_process_passes_and_prints_every_check(qapp) -> None:
    out = io.StringIO()
    assert run_self_test(out=out) == 0, out.getvalue()
    lines = out.getvalue().splitlines()
    for check in CHECKS:
        assert any(line.startswith("ok ") and check in line for line in lines), check
    assert not any(line.startswith("FAIL") for line in lines)
    assert lines[-1] == "self-test passed"


def test_self_test_as_a_program_exits_0() -> None:
    result = run(["--self-test"], timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "self-test passed" in result.stdout
    assert sum(line.startswith("ok ") for line in result.stdout.splitlines()) >= len(CHECKS)


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_console_script_answers_without_a_window(flag: str) -> None:
    result = run([flag], timeout=30)
    assert result.returncode == 0, result.stderr
    if flag == "--version":
        assert result.stdout.strip() == f"memory-desk {__version__}"
    else:
        for option in ("--db", "--persona", "--demo", "--self-test", "--install-desktop-entry"):
            assert option in result.stdout


def test_a_bad_flag_exits_2_before_qt_starts(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--no-such-flag"])
    assert exit_info.value.code == 2
    assert "--no-such-flag" in capsys.readouterr().err


def test_install_and_uninstall_the_launcher_through_main(private_home, capsys) -> None:
    data_home = private_home / ".local/share"
    launcher = data_home / "applications" / f"{APP_ID}.desktop"
    icon = data_home / "icons/hicolor/scalable/apps" / f"{APP_ID}.svg"

    assert main(["--install-desktop-entry"]) == 0
    printed = capsys.readouterr().out
    assert f"installed {launcher}" in printed
    assert launcher.is_file() and icon.is_file()
    assert "Exec=" in launcher.read_text(encoding="utf-8")

    assert main(["--uninstall-desktop-entry"]) == 0
    assert f"removed {launcher}" in capsys.readouterr().out
    assert not launcher.exists() and not icon.exists()


def test_a_launcher_that_cannot_be_written_exits_1(private_home, monkeypatch, capsys) -> None:
    blocker = private_home / "not-a-folder"
    blocker.write_text("a file where the data folder should be", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker / "share"))
    assert main(["--install-desktop-entry"]) == 1
    assert "memory-desk:" in capsys.readouterr().err
