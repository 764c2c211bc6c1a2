"""Issue 26 item 3, the window's writers: pictures (the screenshot's and Export view's PNG), SVG, PDF and the
settings file go through the same safe writer as the core's and are held to the same rules on targets of
every kind (tests/core/writer_targets.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage, QPainter, QPdfWriter
from PySide6.QtWidgets import QLabel

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from writer_targets import FILE_KINDS, check  # noqa: E402


def _picture() -> QImage:
    image = QImage(300, 200, QImage.Format.Format_RGB32)  # 240 kB of pixels: more than a full tmpfs takes
    for y in range(200):
        for x in range(0, 300, 7):
            image.setPixelColor(x, y, QColor((x * 7) % 256, (y * 13) % 256, (x * y) % 256))
    return image


def _png(target: Path) -> None:
    from explorer.ui.printing.qt_output import save_image

    save_image(_picture(), target)


def _pdf(target: Path) -> None:
    from explorer.ui.printing.qt_output import atomic_device

    with atomic_device(target) as device:
        writer = QPdfWriter(device)
        painter = QPainter(writer)
        for _ in range(3):
            painter.drawImage(0, 0, _picture())
            writer.newPage()
        painter.end()


@pytest.fixture
def view_writer(qtbot):
    from explorer.ui.menus.file_ops import save_view_image

    label = QLabel("Attention Explorer " * 40)
    qtbot.addWidget(label)
    label.resize(600, 300)
    return lambda t: save_view_image(label, t)


def _settings(target: Path) -> None:
    from explorer.ui.preferences import settings

    settings.set_folder(target.parent.parent)
    settings.file_path().parent.mkdir(exist_ok=True)
    store = settings._store()
    store.path = target  # the store writes its file through the safe writer; here, the target of the kind
    settings.put("session/text", "x" * 150_000)
    settings.flush()


WRITERS = {"png": (_png, "shot.png"), "pdf": (_pdf, "slides.pdf"), "settings": (_settings, "attention-explorer.json")}


@pytest.mark.parametrize("kind", FILE_KINDS)
@pytest.mark.parametrize("writer", ["png", "pdf", "svg-view", "png-view", "settings"])
def test_every_window_writer_on_every_kind_of_target(tmp_path, writer, kind, view_writer, qapp):
    if writer == "settings" and kind in ("link-to-dev-null", "fifo", "folder", "full-disk"):
        pytest.skip("a refused settings write is a note, never an error: tests/ui/test_settings_file.py")
    if writer in ("svg-view", "png-view"):
        write, name = view_writer, "view." + writer.split("-")[0]
    else:
        write, name = WRITERS[writer]
    check(write, kind, tmp_path, name)
