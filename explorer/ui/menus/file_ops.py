"""File menu work: open and export snapshots, and a widget's picture (gui --screenshot and tests).

Writing snapshots and reading them are core calls; this module adds the dialogs and the progress. The
figures of Export view / Export all stages / Worksheet… are drawn by explorer/ui/menus/figure_menu.py.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QPoint
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QProgressDialog, QWidget

from explorer.errors import ExplorerError
from explorer.export.snapshot import read_snapshot, write_snapshot
from explorer.ui.background.render_queue import render_queue
from explorer.ui.preferences import settings
from explorer.ui.printing.qt_output import atomic_device, save_image


def report_failure(parent: QWidget, title: str, message: str) -> None:
    """A failed open or export, said in the status bar: non-modal, and the last good trace stays shown.
    (A modal box stopped a lesson until someone clicked it, and blocked every scripted run of the window.)"""
    bar = parent.statusBar() if hasattr(parent, "statusBar") else None
    if hasattr(bar, "show_error"):
        bar.show_error(f"{title}: {message}")
    else:  # a bare widget without the main window's status bar (tests, embedding)
        QMessageBox.warning(parent, title, message)


def save_view_image(widget: QWidget, path: str | Path) -> Path:
    """PNG (a pixel grab) or SVG (vector, via QSvgGenerator when available) of one widget."""
    render_queue().flush()  # a long input's views may still be waiting for their turn to draw
    path = Path(path)
    if path.suffix.lower() == ".svg":
        try:
            from PySide6.QtSvg import QSvgGenerator
        except ImportError as exc:  # pragma: no cover - PySide6-Essentials ships QtSvg
            raise ExplorerError(QCoreApplication.translate("FileOps", "SVG export needs the QtSvg module")) from exc
        # Written beside the target, then renamed: a failed export never leaves half a picture (qt_output).
        with atomic_device(path) as device:
            gen = QSvgGenerator()
            gen.setOutputDevice(device)
            gen.setSize(widget.size())
            gen.setViewBox(widget.rect())
            gen.setTitle("Attention Explorer")
            painter = QPainter(gen)
            widget.render(painter, QPoint())  # PySide6 6.12 has no render(painter) overload without the offset
            painter.end()
    else:
        if path.suffix.lower() != ".png":
            path = path.with_suffix(".png")
        save_image(widget.grab(), path, error=ExplorerError)
    return path


def export_snapshot(parent: QWidget, state) -> Path | None:
    if state.trace is None:
        return None
    path, _ = QFileDialog.getSaveFileName(
        parent,
        QCoreApplication.translate("FileOps", "Export snapshot"),
        str(Path(settings.get("last_dir", str(Path.home()))) / "snapshot.npz"),
        QCoreApplication.translate("FileOps", "NumPy archive (*.npz);;safetensors (*.safetensors);;PyTorch (*.pt)"),
    )
    if not path:
        return None
    return write_snapshot_with_progress(parent, state.trace, path)


def write_snapshot_with_progress(parent: QWidget, trace, path: str) -> Path | None:
    dialog = QProgressDialog(
        QCoreApplication.translate("FileOps", "Writing snapshot…"),
        QCoreApplication.translate("FileOps", "Cancel"),
        0,
        100,
        parent,
    )
    dialog.setMinimumDuration(400)

    def progress(done: int, total: int) -> None:
        dialog.setValue(int(100 * done / max(total, 1)))
        QApplication.processEvents()
        if dialog.wasCanceled():
            raise ExplorerError(QCoreApplication.translate("FileOps", "export cancelled"))

    try:
        out = write_snapshot(trace, path, progress=progress)
    except ExplorerError as exc:
        dialog.close()
        report_failure(parent, QCoreApplication.translate("FileOps", "Export snapshot"), str(exc))
        return None
    dialog.close()
    settings.put("last_dir", str(Path(path).parent))
    settings.add_recent(str(out))
    return out


def open_snapshot(parent: QWidget, state, path: str | None = None) -> bool:
    if path is None:
        path, _ = QFileDialog.getOpenFileName(
            parent,
            QCoreApplication.translate("FileOps", "Open snapshot"),
            settings.get("last_dir", str(Path.home())),
            QCoreApplication.translate("FileOps", "Snapshots (*.npz *.safetensors *.pt);;All files (*)"),
        )
        if not path:
            return False
    try:
        trace = read_snapshot(path)
    except ExplorerError as exc:
        report_failure(parent, QCoreApplication.translate("FileOps", "Open snapshot"), str(exc))
        return False
    settings.put("last_dir", str(Path(path).parent))
    settings.add_recent(str(path))
    state.set_trace(trace, editable_sizes=False)
    return True
