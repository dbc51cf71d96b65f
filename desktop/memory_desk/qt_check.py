"""Before Qt starts on X11: are the system libraries its xcb platform plugin links against there?

When one is missing, Qt prints "Could not load the Qt platform plugin" and aborts, which tells
a person neither what is missing nor how to get it. :func:`platform_problem` finds the missing
libraries first and says which Debian/Ubuntu packages provide them, from the same list
(``resources/debian-packages.txt``) that the README shows and CI installs. Pure Python, no Qt:
it runs before PySide6 is imported.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

PACKAGE_LIST = "debian-packages.txt"
XCB_PLUGIN = "libqxcb.so"
LDD_TIMEOUT_SECONDS = 10.0

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)
_CANNOT_OPEN = re.compile(r"([^\s:/]+\.so[^\s:]*): cannot open shared object file")


@dataclass(frozen=True)
class SystemPackage:
    """A Debian/Ubuntu package of the list and the shared libraries Qt loads from it."""

    name: str
    sonames: tuple[str, ...] = ()


def parse_package_list(text: str) -> list[SystemPackage]:
    """The list's packages in order: a name per line, then its sonames; ``#`` starts a comment."""
    packages = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            packages.append(SystemPackage(words[0], tuple(words[1:])))
    return packages


def system_packages() -> list[SystemPackage]:
    """The list shipped in the package (a checkout, a wheel and the bundle all carry it).

    An unreadable list gives no packages, so the message still names the missing libraries.
    """
    try:
        text = files("memory_desk.resources").joinpath(PACKAGE_LIST).read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError):
        return []
    return parse_package_list(text)


def packages_for(missing: Iterable[str], packages: Sequence[SystemPackage]) -> list[str]:
    """The packages that provide these sonames, in the list's order.

    If one soname is provided by no package of the list, the list cannot say what is missing,
    so the whole list is the honest answer (installing what is already there does no harm).
    """
    provider = {soname: package.name for package in packages for soname in package.sonames}
    missing = list(missing)
    if not missing or any(soname not in provider for soname in missing):
        return [package.name for package in packages]
    wanted = {provider[soname] for soname in missing}
    return [package.name for package in packages if package.name in wanted]


def install_command(package_names: Sequence[str]) -> str:
    """The command a person runs to install these packages."""
    return "sudo apt-get install " + " ".join(package_names)


def needs_xcb_check(environ: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Whether Qt will load its xcb plugin: QT_QPA_PLATFORM=xcb, or unset in an X11 session.

    Offscreen, Wayland, macOS and Windows never load it, so they are never checked. In a
    Wayland session Qt tries Wayland first; xcb is then only its fallback.
    """
    if not platform.startswith("linux"):
        return False
    requested = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if requested:
        return requested == "xcb"
    wayland_session = environ.get("XDG_SESSION_TYPE") == "wayland" and bool(
        environ.get("WAYLAND_DISPLAY")
    )
    return bool(environ.get("DISPLAY")) and not wayland_session


def xcb_plugins(environ: Mapping[str, str]) -> list[Path]:
    """The libqxcb.so files Qt may load, PySide6's own first.

    Qt tries QT_QPA_PLATFORM_PLUGIN_PATH's plugin, then QT_PLUGIN_PATH's, then falls back to
    its own, so Qt starts when any of them loads. PySide6's own is checked first: it nearly
    always loads, and then no other build (a Qt 5 plugin folder, say) is loaded to check it.
    """
    folders = []
    pyside = _pyside_folder()
    if pyside is not None:
        folders.append(pyside / "Qt" / "plugins" / "platforms")
    if environ.get("QT_QPA_PLATFORM_PLUGIN_PATH"):
        folders.append(Path(environ["QT_QPA_PLATFORM_PLUGIN_PATH"]))
    for entry in environ.get("QT_PLUGIN_PATH", "").split(os.pathsep):
        if entry:
            folders.append(Path(entry) / "platforms")
    plugins = [folder / XCB_PLUGIN for folder in folders]
    return list(dict.fromkeys(plugin for plugin in plugins if plugin.is_file()))


def _pyside_folder() -> Path | None:
    """PySide6's folder, found without importing it (importing loads Qt)."""
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    bundle = getattr(sys, "_MEIPASS", None)  # a PyInstaller bundle
    return Path(bundle) / "PySide6" if bundle else None


def missing_libraries(plugin: Path) -> list[str]:
    """The sonames the plugin (or a library it links) needs and the system lacks.

    Loading the plugin is the fast path (Qt loads the same libraries moments later anyway).
    Only when that fails does ``ldd`` list every missing library, not just the first; without
    ``ldd``, the loader's own message names the first. A failure that is not a missing library
    (a wrong architecture, an old C library) gives an empty list: Qt's own message says more.
    """
    try:
        ctypes.CDLL(str(plugin), mode=os.RTLD_LAZY)
    except OSError as exc:
        return _not_found_by_ldd(plugin) or _CANNOT_OPEN.findall(str(exc))[:1]
    return []


def _not_found_by_ldd(plugin: Path) -> list[str]:
    """The ``=> not found`` lines of ``ldd``, in its order, each name once."""
    try:
        result = subprocess.run(
            ["ldd", str(plugin)],
            capture_output=True,
            text=True,
            timeout=LDD_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    return list(dict.fromkeys(_NOT_FOUND.findall(result.stdout)))


def missing_libraries_message(
    missing: Sequence[str], plugin: Path, packages: Sequence[SystemPackage]
) -> str:
    """What to tell the person: the missing libraries, and the command that installs them."""
    lines = [
        'memory-desk: Qt cannot load its X11 platform plugin ("xcb"): '
        "these system libraries are missing:",
        *(f"  {soname}" for soname in missing),
        f"(needed by {plugin})",
        "",
    ]
    names = packages_for(missing, packages)
    if not names:
        lines.append("Install the packages of your system that provide them,")
    elif len(names) < len(packages):
        lines += ["On Debian or Ubuntu, install them with:", f"  {install_command(names)}"]
    else:  # a library the list does not know: everything the window needs
        lines += [
            "On Debian or Ubuntu, install the system packages Memory Desk needs with:",
            f"  {install_command(names)}",
        ]
    lines += ["then start memory-desk again."]
    return "\n".join(lines)


def platform_problem(
    environ: Mapping[str, str] | None = None, platform: str = sys.platform
) -> str | None:
    """A message for the person if Qt is about to fail to load its xcb plugin, else None.

    Only when no candidate plugin loads: the message names what PySide6's own plugin lacks.
    """
    environ = os.environ if environ is None else environ
    if not needs_xcb_check(environ, platform):
        return None
    first_failure: tuple[Path, list[str]] | None = None
    for plugin in xcb_plugins(environ):
        missing = missing_libraries(plugin)
        if not missing:
            return None  # Qt can load this one (or fails for a reason it explains better)
        first_failure = first_failure or (plugin, missing)
    if first_failure is None:
        return None  # no xcb plugin at all: Qt lists the plugins it has
    plugin, missing = first_failure
    return missing_libraries_message(missing, plugin, system_packages())
