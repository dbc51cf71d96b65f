"""Add Memory Desk to the desktop's application menu, and take it out again.

A ``pip``/``pipx`` install puts a ``memory-desk`` script on disk but nothing in the menu,
so a person could not double-click the app. ``memory-desk --install-desktop-entry``
copies the launcher (``.desktop`` file) and the hicolor icons shipped in
``memory_desk.resources`` into the person's XDG data folder, with ``Exec`` pointing at
this very installation by absolute path (menus do not search a virtualenv's ``bin``).
Caches are refreshed when the tools exist; a desktop without them picks the files up
at the next login. Pure Python, no Qt.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from memory_desk import APP_ID

DESKTOP_FILE = f"{APP_ID}.desktop"
FILE_MODE = 0o644
_CACHE_TOOL_TIMEOUT_S = 20


class DesktopEntryError(Exception):
    """The launcher could not be written or removed; the message says where and why."""


def data_home(env: dict[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME`` if set to an absolute path, else ``~/.local/share`` (XDG spec)."""
    value = (os.environ if env is None else env).get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / ".local" / "share"


def launch_command() -> list[str]:
    """The absolute command that starts this installation of Memory Desk.

    A PyInstaller bundle is its own executable; a pip/pipx install has a ``memory-desk``
    script next to its interpreter; anything else (a source checkout) runs the module.
    """
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).resolve())]
    script_name = "memory-desk.exe" if os.name == "nt" else "memory-desk"
    script = Path(sys.executable).parent / script_name
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script.absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "memory_desk"]


def exec_line(command: list[str]) -> str:
    """The value of a .desktop ``Exec`` key that runs ``command`` (spec, "The Exec key").

    Arguments are quoted by the Exec rules, then the whole value is escaped as a string
    value, which is why a backslash ends up doubled twice.
    """
    quoted = " ".join(_quote_exec_argument(argument) for argument in command)
    return quoted.replace("\\", "\\\\")


def install_desktop_entry(data_home_dir: Path | None = None) -> list[Path]:
    """Write the launcher and icons under ``data_home_dir`` (default: XDG data home).

    Returns the files written, all mode 0644. Running it again overwrites them, so a
    moved installation is fixed by installing again.
    """
    base = data_home() if data_home_dir is None else Path(data_home_dir)
    written = []
    try:
        for source, target in _icon_files(base):
            written.append(_write(target, source.read_bytes()))
        launcher = _launcher_text(launch_command())
        written.append(_write(base / "applications" / DESKTOP_FILE, launcher.encode("utf-8")))
    except OSError as error:
        raise DesktopEntryError(
            f"Could not install the launcher into {base}: {error.strerror or error}"
            f" ({error.filename or base}). Check that the folder is writable."
        ) from error
    _refresh_caches(base)
    return written


def uninstall_desktop_entry(data_home_dir: Path | None = None) -> list[Path]:
    """Remove the files :func:`install_desktop_entry` writes; returns the ones removed.

    Only our own file names are touched: other applications' icons stay.
    """
    base = data_home() if data_home_dir is None else Path(data_home_dir)
    targets = [base / "applications" / DESKTOP_FILE] + [t for _, t in _icon_files(base)]
    removed = []
    for target in targets:
        try:
            target.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            raise DesktopEntryError(
                f"Could not remove {target}: {error.strerror or error}."
            ) from error
        removed.append(target)
    _refresh_caches(base)
    return removed


def _resources() -> Traversable:
    return resources.files("memory_desk.resources")


def _icon_files(base: Path) -> list[tuple[Traversable, Path]]:
    """Every shipped hicolor icon paired with where it goes under ``base/icons/hicolor``."""
    hicolor = _resources() / "icons" / "hicolor"
    pairs = []
    for size_dir in sorted(hicolor.iterdir(), key=lambda entry: entry.name):
        apps = size_dir / "apps"
        if not apps.is_dir():
            continue
        for icon in sorted(apps.iterdir(), key=lambda entry: entry.name):
            if icon.name.startswith(APP_ID + "."):
                pairs.append(
                    (icon, base / "icons" / "hicolor" / size_dir.name / "apps" / icon.name)
                )
    return pairs


def _launcher_text(command: list[str]) -> str:
    """The shipped .desktop file with Exec and TryExec pointing at this installation.

    TryExec makes the menu hide the launcher once the installation is gone, instead of
    showing an entry that fails to start.
    """
    lines = (_resources() / DESKTOP_FILE).read_text(encoding="utf-8").splitlines()
    replacements = {
        "Exec": exec_line(command),
        "TryExec": command[0].replace("\\", "\\\\"),  # a string value: only \\ escapes
    }
    out = []
    for line in lines:
        key = line.split("=", 1)[0]
        out.append(f"{key}={replacements[key]}" if "=" in line and key in replacements else line)
    return "\n".join(out) + "\n"


def _write(target: Path, data: bytes) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_bytes(data)
    temporary.chmod(FILE_MODE)
    os.replace(temporary, target)
    return target


def _quote_exec_argument(argument: str) -> str:
    if argument and not any(ch in argument for ch in " \t\n\"'\\><~|&;$*?#()`%"):
        return argument
    escaped = "".join("\\" + ch if ch in '"`$\\' else ch for ch in argument)
    # A literal percent sign is written %% in Exec, quoted or not.
    return '"' + escaped.replace("%", "%%") + '"'


def _refresh_caches(base: Path) -> None:
    """Ask the desktop to notice the change; a missing or failing tool is not an error.

    The icon cache is rebuilt only where one exists: a stale cache would hide our icon,
    but a folder without a cache is scanned directly, and creating one is not our call.
    """
    hicolor = base / "icons" / "hicolor"
    commands = [["update-desktop-database", "-q", str(base / "applications")]]
    if (hicolor / "icon-theme.cache").is_file():
        commands.append(["gtk-update-icon-cache", "-q", "-t", "-f", str(hicolor)])
    for command in commands:
        if shutil.which(command[0]) is None or not Path(command[-1]).is_dir():
            continue
        try:
            subprocess.run(
                command,
                check=False,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=_CACHE_TOOL_TIMEOUT_S,
            )
        except (OSError, subprocess.SubprocessError):
            continue
