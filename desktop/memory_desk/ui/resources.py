"""Icons and other files shipped in the ``memory_desk.resources`` package.

Read through importlib.resources so they load the same from a checkout, a wheel or a
PyInstaller bundle; the theme's icons are preferred where the desktop has them.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon

from memory_desk import APP_ID

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def resource_path(*parts: str) -> Path:
    """A file inside the package's resources (installed as plain files, never zipped)."""
    return Path(str(files("memory_desk.resources").joinpath(*parts)))


def app_icon() -> QIcon:
    """Memory Desk's icon: the SVG for any size, the rendered PNGs where they exist."""
    icon = QIcon()
    svg = resource_path("icons", "memory-desk.svg")
    if svg.is_file():
        icon.addFile(str(svg))
    for size in ICON_SIZES:
        png = resource_path("icons", "hicolor", f"{size}x{size}", "apps", f"{APP_ID}.png")
        if png.is_file():
            icon.addFile(str(png), QSize(size, size))
    return icon
