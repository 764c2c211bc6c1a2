"""Render the application icon's PNG sizes from its SVG source with Qt's own SVG renderer.

    make icons        # = QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icons.py

Reads resources/icons/attention-explorer.svg and writes
resources/icons/hicolor/<n>x<n>/apps/io.github.attention_explorer.AttentionExplorer.png for every size below
(the freedesktop icon-theme layout, named by the app id as the .desktop file and AppStream expect). The PNGs are
committed; rerun this after editing the SVG. ``--check`` renders to memory and exits 1 if a committed PNG is
missing, has the wrong size, or differs visibly from a fresh render.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "attention-explorer.svg"
HICOLOR = ROOT / "resources" / "icons" / "hicolor"
APP_ID = "io.github.attention_explorer.AttentionExplorer"
SIZES = (16, 32, 48, 64, 128, 256, 512)


def png_path(size: int, hicolor: Path = HICOLOR) -> Path:
    return hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png"


def render(size: int, svg: Path = SVG):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"error: {svg} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image


def max_channel_difference(a, b) -> int:
    """Largest difference of any channel of any pixel (images of the same size)."""
    import numpy as np

    def arr(img):
        from PySide6.QtGui import QImage

        img = img.convertToFormat(QImage.Format.Format_RGBA8888)
        rows = np.frombuffer(img.constBits(), np.uint8, img.sizeInBytes()).reshape(img.height(), img.bytesPerLine())
        return rows[:, : img.width() * 4].copy()  # a copy: the buffer dies with this QImage

    return int(np.abs(arr(a).astype(int) - arr(b).astype(int)).max())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare the committed PNGs with a fresh render")
    parser.add_argument("--tolerance", type=int, default=24, help="--check: largest channel difference allowed")
    args = parser.parse_args(argv)

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication, QImage

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (Qt wants one for painting)
    problems = []
    for size in SIZES:
        image, path = render(size), png_path(size)
        if args.check:
            old = QImage(str(path))
            if old.isNull():
                problems.append(f"{path.relative_to(ROOT)}: missing or unreadable")
            elif (old.width(), old.height()) != (size, size):
                problems.append(f"{path.relative_to(ROOT)}: {old.width()}x{old.height()}, expected {size}x{size}")
            elif (diff := max_channel_difference(old, image)) > args.tolerance:
                problems.append(f"{path.relative_to(ROOT)}: differs from the SVG (channel difference {diff})")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(path), "PNG"):
            raise SystemExit(f"error: could not write {path}")
        print(f"wrote {path.relative_to(ROOT)}")
    for line in problems:
        print(f"error: {line}; run `make icons`", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
