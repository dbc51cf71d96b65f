"""``python -m build`` makes a wheel and an sdist that carry every resource."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RESOURCES = REPO / "resources"

pytestmark = pytest.mark.slow


def shipped_resources() -> set[str]:
    return {
        path.relative_to(RESOURCES).as_posix()
        for path in RESOURCES.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out


def test_wheel_carries_every_resource_inside_the_package(dist: Path) -> None:
    (wheel,) = dist.glob("memory_desk-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    prefix = "memory_desk/resources/"
    in_wheel = {name[len(prefix) :] for name in names if name.startswith(prefix)}
    assert shipped_resources() <= in_wheel
    assert "translations/memory_desk_es.qm" in in_wheel  # compiled by the build (setup.py)
    assert "memory_desk/core/observations/store.py" in names
    assert not any(name.startswith("tests/") for name in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert (
        "memory-desk = memory_desk.launch:main"
        in zipfile.ZipFile(wheel).read(entry_points).decode()
    )


def test_sdist_carries_resources_and_sources(dist: Path) -> None:
    (sdist,) = dist.glob("memory_desk-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {f"resources/{name}" for name in shipped_resources()} <= names
    assert "desktop/memory_desk/app.py" in names
    assert {"setup.py", "packaging/translations.py"} <= names  # the sdist builds its .qm
    assert "pyproject.toml" in names
