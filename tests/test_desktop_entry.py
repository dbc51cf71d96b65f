"""The launcher and icons: shipped resources valid, installed into a temporary XDG home."""

from __future__ import annotations

import os
import shutil
import stat
import struct
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from importlib import resources
from pathlib import Path

import pytest

from memory_desk import APP_ID
from memory_desk.desktop_entry import (
    DESKTOP_FILE,
    DesktopEntryError,
    data_home,
    exec_line,
    install_desktop_entry,
    launch_command,
    uninstall_desktop_entry,
)

RESOURCES = resources.files("memory_desk.resources")
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def resource_path(*parts: str) -> Path:
    return Path(str(RESOURCES.joinpath(*parts)))


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE)
    return struct.unpack(">II", data[16:24])


def desktop_keys(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


def run_tool(*command: str) -> subprocess.CompletedProcess[str]:
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed (apt: desktop-file-utils / appstream)")
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


# -- The shipped resources ----------------------------------------------------------------


def test_desktop_file_passes_desktop_file_validate() -> None:
    result = run_tool("desktop-file-validate", str(resource_path(DESKTOP_FILE)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in result.stdout


def test_metainfo_passes_appstreamcli_validate() -> None:
    metainfo = resource_path(f"{APP_ID}.metainfo.xml")
    result = run_tool("appstreamcli", "validate", "--no-net", str(metainfo))
    assert result.returncode == 0, result.stdout + result.stderr


def test_desktop_file_and_metainfo_agree_on_the_app_id() -> None:
    keys = desktop_keys(resource_path(DESKTOP_FILE))
    assert keys["Icon"] == APP_ID
    assert keys["Exec"] == "memory-desk"
    root = ElementTree.parse(resource_path(f"{APP_ID}.metainfo.xml")).getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("project_license") == "MIT"
    assert root.findtext("launchable") == DESKTOP_FILE


def test_icon_set_has_every_size() -> None:
    hicolor = resource_path("icons", "hicolor")
    for size in PNG_SIZES:
        data = (hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png").read_bytes()
        assert png_size(data) == (size, size)
    scalable = (hicolor / "scalable" / "apps" / f"{APP_ID}.svg").read_bytes()
    assert scalable == resource_path("icons", "memory-desk.svg").read_bytes()
    ElementTree.fromstring(scalable)  # well-formed SVG


def test_windows_and_macos_icon_containers_hold_pngs() -> None:
    ico = resource_path("icons", "memory-desk.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1) and count >= 6
    for index in range(count):
        _, _, _, _, _, _, length, offset = struct.unpack(
            "<BBBBHHII", ico[6 + 16 * index : 22 + 16 * index]
        )
        assert ico[offset : offset + length].startswith(PNG_SIGNATURE)
    icns = resource_path("icons", "memory-desk.icns").read_bytes()
    assert icns[:4] == b"icns"
    assert struct.unpack(">I", icns[4:8])[0] == len(icns)


# -- Install and uninstall ----------------------------------------------------------------


def expected_targets(base: Path) -> set[Path]:
    icons = {
        base / "icons/hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png" for size in PNG_SIZES
    }
    icons.add(base / "icons/hicolor/scalable/apps" / f"{APP_ID}.svg")
    return icons | {base / "applications" / DESKTOP_FILE}


def test_install_writes_launcher_and_icons(tmp_path: Path) -> None:
    base = tmp_path / "share"
    written = install_desktop_entry(base)
    assert set(written) == expected_targets(base)
    for path in written:
        assert path.is_file()
        if sys.platform != "win32":
            assert stat.S_IMODE(path.stat().st_mode) == 0o644
    installed_png = base / "icons/hicolor/48x48/apps" / f"{APP_ID}.png"
    shipped_png = resource_path("icons", "hicolor", "48x48", "apps", f"{APP_ID}.png")
    assert installed_png.read_bytes() == shipped_png.read_bytes()
    assert not list(base.rglob(".*.tmp"))


def test_installed_launcher_runs_this_installation(tmp_path: Path) -> None:
    install_desktop_entry(tmp_path)
    launcher = tmp_path / "applications" / DESKTOP_FILE
    keys = desktop_keys(launcher)
    command = launch_command()
    assert keys["Exec"] == exec_line(command)
    assert keys["TryExec"] == command[0]
    assert Path(command[0]).is_absolute() and Path(command[0]).exists()
    assert keys["Icon"] == APP_ID
    if shutil.which("desktop-file-validate"):
        result = subprocess.run(
            ["desktop-file-validate", str(launcher)], capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stdout


def test_launch_command_prefers_the_installed_script() -> None:
    script = Path(sys.executable).parent / ("memory-desk.exe" if os.name == "nt" else "memory-desk")
    command = launch_command()
    if script.is_file():
        assert command == [str(script.absolute())]
    else:
        assert command[1:] == ["-m", "memory_desk"]


def test_default_target_is_xdg_data_home(private_home: Path) -> None:
    written = install_desktop_entry()
    share = private_home / ".local/share"
    assert set(written) == expected_targets(share)


def test_data_home_falls_back_when_unset_or_relative() -> None:
    fallback = Path.home() / ".local" / "share"
    assert data_home({}) == fallback
    assert data_home({"XDG_DATA_HOME": "relative/share"}) == fallback
    assert data_home({"XDG_DATA_HOME": "/srv/share"}) == Path("/srv/share")


def test_install_twice_then_uninstall_leaves_other_files(tmp_path: Path) -> None:
    other_icon = tmp_path / "icons/hicolor/48x48/apps/org.example.Other.png"
    other_icon.parent.mkdir(parents=True)
    other_icon.write_bytes(b"not ours")
    install_desktop_entry(tmp_path)
    install_desktop_entry(tmp_path)
    removed = uninstall_desktop_entry(tmp_path)
    assert set(removed) == expected_targets(tmp_path)
    assert not any(path.exists() for path in removed)
    assert other_icon.read_bytes() == b"not ours"
    assert uninstall_desktop_entry(tmp_path) == []


def test_works_without_the_cache_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert len(install_desktop_entry(tmp_path / "share")) == len(PNG_SIZES) + 2
    assert len(uninstall_desktop_entry(tmp_path / "share")) == len(PNG_SIZES) + 2


def test_no_icon_cache_is_created_where_there_was_none(tmp_path: Path) -> None:
    install_desktop_entry(tmp_path)
    assert not (tmp_path / "icons/hicolor/icon-theme.cache").exists()


def test_an_unwritable_target_raises_a_readable_error(tmp_path: Path) -> None:
    blocker = tmp_path / "share"
    blocker.write_text("a file where the data folder should be")
    with pytest.raises(DesktopEntryError, match="Could not install the launcher"):
        install_desktop_entry(blocker)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["/usr/bin/memory-desk"], "/usr/bin/memory-desk"),
        (["/opt/my apps/python", "-m", "memory_desk"], '"/opt/my apps/python" -m memory_desk'),
        (["/tmp/a$b"], '"/tmp/a\\\\$b"'),
        (["/tmp/100%"], '"/tmp/100%%"'),
        (['/tmp/say "hi"'], '"/tmp/say \\\\"hi\\\\""'),
    ],
)
def test_exec_line_quotes_by_the_desktop_entry_spec(command: list[str], expected: str) -> None:
    assert exec_line(command) == expected
