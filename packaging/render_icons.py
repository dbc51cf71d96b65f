"""Render Memory Desk's icon set from the one SVG the designer edits.

Run it after changing ``resources/icons/memory-desk.svg`` and commit what it writes:

    QT_QPA_PLATFORM=offscreen python packaging/render_icons.py

It writes the freedesktop hicolor tree (scalable SVG and PNGs from 16 to 512 px) that
the launcher installs and the window uses, the Windows ``.ico`` and the macOS ``.icns``
the PyInstaller spec needs. Both containers hold PNG images, which every supported
Windows and macOS reads, so they are packed here by hand instead of pulling in an
imaging library. Packaging-time only: nothing at runtime imports this.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

APP_ID = "io.github.memorydesk.MemoryDesk"
REPO = Path(__file__).resolve().parent.parent
ICONS = REPO / "resources" / "icons"
SOURCE = ICONS / "memory-desk.svg"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS element types that hold PNG data, by pixel size (ic10 is 512@2x = 1024).
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"icp6", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic09", 512),
    (b"ic10", 1024),
)


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    """Rasterise the SVG at ``size`` px square with antialiasing, as PNG bytes."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def pack_ico(pngs: dict[int, bytes]) -> bytes:
    """An ICONDIR with one PNG-compressed entry per size (Windows Vista and later)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        side = 0 if size >= 256 else size  # 0 means 256 in the ICO directory
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(blob), offset)
        blobs += blob
        offset += len(blob)
    return header + entries + blobs


def pack_icns(pngs: dict[int, bytes]) -> bytes:
    """An ``icns`` file whose elements are PNG images (macOS 10.7 and later)."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    path.chmod(0o644)
    print(f"{path.relative_to(REPO)}  {len(data):>8} bytes")


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        print(f"cannot read {SOURCE}", file=sys.stderr)
        return 1
    wanted = sorted(set(PNG_SIZES) | set(ICO_SIZES) | {size for _, size in ICNS_TYPES})
    pngs = {size: render_png(renderer, size) for size in wanted}
    hicolor = ICONS / "hicolor"
    for size in PNG_SIZES:
        write(hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png", pngs[size])
    scalable = hicolor / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SOURCE, scalable)
    scalable.chmod(0o644)
    print(f"{scalable.relative_to(REPO)}  (copy of {SOURCE.name})")
    write(ICONS / "memory-desk.ico", pack_ico({size: pngs[size] for size in ICO_SIZES}))
    write(ICONS / "memory-desk.icns", pack_icns(pngs))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
