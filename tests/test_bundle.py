"""The PyInstaller bundle: built with packaging/build-bundle.sh, started, self-tested.

Slow (about half a minute on two cores, plus a PyInstaller install the first time), so
it is marked ``slow``; CI runs it. It builds from the environment running the tests,
which must have Memory Desk installed (editable is fine: the spec analyses the source).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memory_desk import __version__

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "packaging" / "build-bundle.sh"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("bash") is None, reason="build-bundle.sh needs bash"),
]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("bundle")
    result = subprocess.run(
        [
            "bash",
            str(SCRIPT),
            "--venv",
            sys.prefix,
            "--dist",
            str(work / "dist"),
            "--work",
            str(work / "build"),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    name = "memory-desk.exe" if sys.platform == "win32" else "memory-desk"
    executable = work / "dist" / "memory-desk" / name
    assert executable.is_file()
    return executable


def run_bundle(executable: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [str(executable), *args],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        cwd=executable.parent,
        check=False,
    )


def test_bundle_starts_and_prints_its_version(bundle: Path) -> None:
    result = run_bundle(bundle, "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"memory-desk {__version__}"


def test_bundle_carries_every_resource(bundle: Path) -> None:
    shipped = REPO / "resources"
    bundled = bundle.parent / "_internal" / "memory_desk" / "resources"
    if sys.platform == "darwin" and not bundled.is_dir():
        pytest.skip("macOS lays the bundle out differently")
    expected = {
        path.relative_to(shipped)
        for path in shipped.rglob("*")
        if path.is_file() and path.suffix != ".py" and "__pycache__" not in path.parts
    }
    assert expected <= {path.relative_to(bundled) for path in bundled.rglob("*")}
    assert (bundled / "translations" / "memory_desk_es.qm").is_file()  # compiled by the build


def test_bundle_self_test_passes(bundle: Path) -> None:
    result = run_bundle(bundle, "--self-test")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
