"""First start on a minimal Debian/Ubuntu: one package list, and a sentence instead of Qt's abort.

The list (``resources/debian-packages.txt``) is what the README shows and what ``.ci/run``
installs. When a library Qt's xcb plugin links against is missing, ``memory-desk`` names it and
the command that installs it. The missing library is made real by a PySide6 whose xcb plugin
needs a library this system lacks: a folder mirroring the installed PySide6 (symlinks) with a
copy of ``libqxcb.so`` whose needed-library names were renamed to ones that do not exist.
"""

from __future__ import annotations

import importlib.util
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memory_desk.qt_check import (
    PACKAGE_LIST,
    SystemPackage,
    install_command,
    needs_xcb_check,
    packages_for,
    parse_package_list,
    system_packages,
)

REPO = Path(__file__).resolve().parent.parent
LIST_FILE = REPO / "resources" / PACKAGE_LIST
CI_TEST_EXTRAS = ["desktop-file-utils", "appstream", "binutils", "strace"]
# Needed names renamed in the copied plugin: same length, a version no system has.
HIDDEN = {b"libxcb-cursor.so.0": b"libxcb-cursor.so.9", b"libxcb-icccm.so.4": b"libxcb-icccm.so.7"}
# Provided by packages every Debian/Ubuntu with python3 already has (libc6, libstdc++6,
# libgcc-s1, zlib1g, libzstd1): the list leaves them out on purpose.
BASE_SONAMES = {
    "libc.so.6",
    "libm.so.6",
    "libdl.so.2",
    "libpthread.so.0",
    "librt.so.1",
    "libresolv.so.2",
    "libstdc++.so.6",
    "libgcc_s.so.1",
    "libz.so.1",
    "libzstd.so.1",
}
QT_ABORT = "Could not load the Qt platform plugin"

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's xcb only")


def list_names() -> list[str]:
    return [package.name for package in parse_package_list(LIST_FILE.read_text("utf-8"))]


def readme_install_packages() -> list[str]:
    """The packages of the README's ``apt-get install`` command in "Install and start"."""
    readme = (REPO / "README.md").read_text("utf-8")
    section = readme.split("## Install and start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    (command,) = [block for block in blocks if "apt-get install" in block]
    words = command.replace("\\\n", " ").split()
    after_install = words[words.index("install") + 1 :]
    return [word for word in after_install if not word.startswith("-")]


def pyside_folder() -> Path:
    spec = importlib.util.find_spec("PySide6")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


def real_xcb_plugin() -> Path:
    plugin = pyside_folder() / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        pytest.skip("this PySide6 has no xcb plugin")
    return plugin


def patched_plugin(target: Path) -> Path:
    """A copy of the real xcb plugin whose HIDDEN needed libraries do not exist anywhere."""
    data = real_xcb_plugin().read_bytes()
    for old, new in HIDDEN.items():
        assert data.count(old + b"\0") >= 1, f"the xcb plugin no longer needs {old!r}"
        data = data.replace(old + b"\0", new + b"\0")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return target


def mirror(source: Path, target: Path, keep_real: Path) -> None:
    """``target`` mirrors ``source`` with symlinks, except along the path to ``keep_real``."""
    target.mkdir(parents=True, exist_ok=True)
    head = keep_real.parts[0]
    for entry in source.iterdir():
        if entry.name == head and len(keep_real.parts) > 1:
            mirror(entry, target / entry.name, Path(*keep_real.parts[1:]))
        elif entry.name != head:
            (target / entry.name).symlink_to(entry)


@pytest.fixture(scope="module")
def broken_pyside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for PYTHONPATH holding a PySide6 whose xcb plugin cannot load on this system."""
    root = tmp_path_factory.mktemp("pythonpath")
    plugin_path = Path("Qt", "plugins", "platforms", "libqxcb.so")
    mirror(pyside_folder(), root / "PySide6", plugin_path)
    patched_plugin(root / "PySide6" / plugin_path)
    return root


def absent_display() -> str:
    """An X display number no server listens on (neither its socket file nor abstract name)."""
    try:
        sockets = Path("/proc/net/unix").read_text()
    except OSError:
        sockets = ""
    for number in range(4242, 4342):
        name = f"/tmp/.X11-unix/X{number}"
        if not Path(name).exists() and name not in sockets:
            return f":{number}"
    pytest.skip("no free X display number")


def x11_environment(**extra: str) -> dict[str, str]:
    """Qt on X11 with no display server, no library path tricks, no Qt settings from outside."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("QT_", "LD_")) and key not in ("WAYLAND_DISPLAY", "PYTHONPATH")
    }
    env.update(QT_QPA_PLATFORM="xcb", DISPLAY=absent_display(), **extra)
    return env


def no_core_dump() -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # Qt's abort must not leave a core file


def run(command: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=no_core_dump,
    )


def memory_desk_command() -> list[str]:
    """The installed console script, or the module when the script is not there."""
    script = shutil.which("memory-desk", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "memory_desk"]


# --- one list ---------------------------------------------------------------------------------


def test_package_list_reads_names_sonames_and_comments() -> None:
    text = "# comment\n\nlibxcb1   libxcb.so.1  # X\nfonts-dejavu-core # a font\nlibglib2.0-0 a b\n"
    assert parse_package_list(text) == [
        SystemPackage("libxcb1", ("libxcb.so.1",)),
        SystemPackage("fonts-dejavu-core", ()),
        SystemPackage("libglib2.0-0", ("a", "b")),
    ]
    assert [package.name for package in system_packages()] == list_names()  # shipped == file


def test_readme_install_command_is_the_package_list() -> None:
    assert readme_install_packages() == list_names()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_ci_installs_the_list_then_only_its_test_extras() -> None:
    result = subprocess.run(
        ["bash", str(REPO / ".ci" / "run"), "--print-packages"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert result.stdout.split() == list_names() + CI_TEST_EXTRAS


@linux_only
@pytest.mark.skipif(
    shutil.which("objdump") is None or shutil.which("ldd") is None, reason="binutils"
)
def test_every_system_library_qt_links_against_is_in_the_list() -> None:
    """A PySide6 upgrade that links a new system library fails here until the list names it."""
    pyside = pyside_folder()
    bundled_dirs = (pyside, pyside.parent / "shiboken6")
    plugins = pyside / "Qt" / "plugins"
    roots = [
        plugins / "platforms" / "libqxcb.so",
        *sorted((plugins / "xcbglintegrations").glob("*.so")),
        plugins / "platformthemes" / "libqxdgdesktopportal.so",
        plugins / "iconengines" / "libqsvgicon.so",
        plugins / "imageformats" / "libqsvg.so",
        *sorted((plugins / "platforminputcontexts").glob("lib[ci]*.so")),
        *(next(pyside.glob(f"{module}.*so")) for module in ("QtCore", "QtGui", "QtWidgets")),
        next(pyside.glob("QtNetwork.*so")),  # the single-instance socket
    ]
    qt_files = {root.resolve() for root in roots if root.is_file()}
    for root in list(qt_files):
        ldd = subprocess.run(["ldd", str(root)], capture_output=True, text=True, check=True)
        for path in re.findall(r"=> (/\S+)", ldd.stdout):
            if Path(path).resolve().is_relative_to(bundled_dirs[0].resolve()):
                qt_files.add(Path(path).resolve())
    bundled = {path.name for folder in bundled_dirs for path in folder.resolve().rglob("*.so*")}
    needed = set()
    for path in qt_files:
        dump = subprocess.run(["objdump", "-p", str(path)], capture_output=True, text=True)
        needed |= set(re.findall(r"NEEDED\s+(\S+)", dump.stdout))
    listed = {soname for package in system_packages() for soname in package.sonames}
    system = {name for name in needed - bundled - BASE_SONAMES if not name.startswith("ld-")}
    assert "libxcb-cursor.so.0" in system  # the one a minimal Debian lacks (issue 10)
    assert system - listed == set()


DPKG_INFO = Path("/var/lib/dpkg/info")


def dpkg_files(package: str) -> set[str]:
    """The file names dpkg recorded for this package (under its t64 name too, as on Ubuntu)."""
    names = set()
    for pattern in (
        f"{package}.list",
        f"{package}:*.list",
        f"{package}t64.list",
        f"{package}t64:*.list",
    ):
        for listing in DPKG_INFO.glob(pattern):
            names |= {Path(line).name for line in listing.read_text("utf-8").splitlines()}
    return names


@linux_only
@pytest.mark.skipif(not DPKG_INFO.is_dir() or shutil.which("ldd") is None, reason="Debian")
def test_each_listed_library_comes_from_the_package_it_is_listed_under() -> None:
    """Checked against dpkg's records: the message's package really provides the library."""
    found = {}
    for root in (real_xcb_plugin(), next(pyside_folder().glob("QtNetwork.*so"))):
        ldd = subprocess.run(["ldd", str(root)], capture_output=True, text=True, check=True)
        found.update(re.findall(r"^\s*(\S+) => (/\S+)", ldd.stdout, flags=re.MULTILINE))
    checked = 0
    for package in system_packages():
        files = dpkg_files(package.name)
        for soname in package.sonames:
            if soname in found and files:
                assert Path(found[soname]).resolve().name in files, (soname, package.name)
                checked += 1
    assert checked >= 10


def test_missing_libraries_map_to_the_packages_that_provide_them() -> None:
    packages = system_packages()
    assert packages_for(["libxcb-cursor.so.0"], packages) == ["libxcb-cursor0"]
    assert packages_for(
        ["libgthread-2.0.so.0", "libxkbcommon-x11.so.0", "libglib-2.0.so.0"], packages
    ) == ["libxkbcommon-x11-0", "libglib2.0-0"]  # the list's order, each package once
    everything = [package.name for package in packages]
    assert packages_for(["libxcb-cursor.so.0", "libunknown.so.3"], packages) == everything
    assert install_command(["libxcb-cursor0", "libegl1"]) == (
        "sudo apt-get install libxcb-cursor0 libegl1"
    )


@pytest.mark.parametrize(
    ("environ", "platform", "checked"),
    [
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb:nograb"}, "linux", True),
        ({"DISPLAY": ":0"}, "linux", True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": ""}, "linux", True),
        ({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, "linux", False),
        ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, "linux", False),
        ({}, "linux", False),
        (
            {"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"},
            "linux",
            False,
        ),
        ({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}, "darwin", False),
        ({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}, "win32", False),
    ],
)
def test_the_check_runs_only_where_qt_loads_its_xcb_plugin(environ, platform, checked) -> None:
    assert needs_xcb_check(environ, platform) is checked


# --- a sentence instead of Qt's abort -----------------------------------------------------------


@linux_only
def test_qt_alone_aborts_on_that_pyside(broken_pyside: Path, tmp_path: Path) -> None:
    """The situation of issue 10, reproduced: Qt's own abort, which names no library."""
    code = "from PySide6.QtWidgets import QApplication; QApplication([])"
    result = run(
        [sys.executable, "-c", code], x11_environment(PYTHONPATH=str(broken_pyside)), tmp_path
    )
    assert result.returncode != 0
    assert QT_ABORT in result.stderr
    assert "libxcb-cursor.so.9" not in result.stderr


@linux_only
def test_memory_desk_names_the_missing_libraries_and_the_command(
    broken_pyside: Path, tmp_path: Path
) -> None:
    result = run(memory_desk_command(), x11_environment(PYTHONPATH=str(broken_pyside)), tmp_path)
    assert result.returncode == 1, result.stderr
    assert QT_ABORT not in result.stderr
    for missing in HIDDEN.values():  # every missing library, not only the first the loader met
        assert f"  {missing.decode()}\n" in result.stderr
    # libraries the list does not know: the command installs the whole list
    assert install_command(list_names()) in result.stderr
    assert "libqxcb.so" in result.stderr


@linux_only
def test_no_false_alarm_when_qt_can_fall_back_to_its_own_plugin(tmp_path: Path) -> None:
    """A broken QT_QPA_PLATFORM_PLUGIN_PATH plugin is no reason to stop: Qt falls back to
    PySide6's own, and goes on to look for the display (which is absent here)."""
    plugins = tmp_path / "plugins"
    patched_plugin(plugins / "libqxcb.so")
    env = x11_environment(QT_QPA_PLATFORM_PLUGIN_PATH=str(plugins))
    result = run(memory_desk_command(), env, tmp_path)
    assert "memory-desk: Qt cannot load" not in result.stderr
    assert "could not connect to display" in result.stderr
