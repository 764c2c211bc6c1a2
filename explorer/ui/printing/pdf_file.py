"""PDF and PNG files written the one safe way (explorer/util/fileio.py): into a temporary file beside the
target, checked, then renamed over it. A PDF's pages go to the file as they are painted (a lesson of a
thousand steps never holds its pages in memory); a write that fails (a full disk) is an error naming the
cause, and the old file stays whole."""

from __future__ import annotations

import errno
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import shiboken6
from PySide6.QtCore import QBuffer, QByteArray, QFile, QIODevice, QMarginsF, QSizeF
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter

from explorer.errors import SnapshotError
from explorer.handouts.scene import PX_PER_INCH
from explorer.util.fileio import atomic_path, describe_os_error

RESOLUTION = 1200  # PDF device units per inch: coordinates and font sizes exact to a 1/1200 inch


@dataclass
class PdfPages:
    writer: QPdfWriter
    painter: QPainter
    scale: float  # device units per CSS pixel

    def new_page(self) -> None:
        self.writer.newPage()


def _file_error(qfile: QFile, path: Path) -> str | None:
    if qfile.error() == QFile.FileError.NoError:
        return None
    reason = qfile.errorString()
    if "No space" in reason:
        return describe_os_error(OSError(errno.ENOSPC, reason), path)
    if not reason or reason == "Unknown error":  # Qt's words for a write cut short by a file size limit
        return f"cannot write {path}: the file could not be written whole (the disk is full or a size limit was met)"
    return f"cannot write {path}: {reason}"


def _finished(tmp: Path) -> bool:
    """A PDF that ends with its trailer (a short write leaves it cut off)."""
    try:
        with open(tmp, "rb") as fh:
            fh.seek(max(0, os.path.getsize(tmp) - 64))
            return b"%%EOF" in fh.read()
    except OSError:
        return False


@contextmanager
def pdf_pages(
    path: str | Path, page_px: QSizeF, title: str = "Attention Explorer", error: type[Exception] | None = None
) -> Iterator[PdfPages]:
    """A PDF with pages of ``page_px`` CSS pixels (1/96 inch), no margins; the painter draws in device units
    (``scale`` per CSS pixel). The file replaces ``path`` only when every page is written."""
    path = Path(path)
    error = error or SnapshotError
    with atomic_path(path, error=error) as tmp, pdf_into(tmp, path, page_px, title, error) as pdf:
        yield pdf


@contextmanager
def pdf_into(
    tmp: Path, path: Path, page_px: QSizeF, title: str, error: type[Exception] = SnapshotError
) -> Iterator[PdfPages]:
    """The PDF written into ``tmp``, a temporary that its caller renames onto ``path`` (the name said in
    messages): one of several files replaced together (explorer/util/atomic_many.py)."""
    qfile = writer = painter = None
    problem = None
    try:  # everything Qt makes is made inside: an interrupt at any point leaves nothing being painted
        qfile = QFile(str(tmp))
        if not qfile.open(QIODevice.OpenModeFlag.WriteOnly | QIODevice.OpenModeFlag.Truncate):
            raise error(_file_error(qfile, path) or f"cannot write {path}")
        writer = QPdfWriter(qfile)
        points = QSizeF(page_px.width() * 72 / PX_PER_INCH, page_px.height() * 72 / PX_PER_INCH)
        writer.setPageLayout(
            QPageLayout(
                QPageSize(points, QPageSize.Unit.Point), QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)
            )
        )
        writer.setResolution(RESOLUTION)
        writer.setTitle(title)
        writer.setCreator("Attention Explorer")
        painter = QPainter()
        if not painter.begin(writer):
            raise error(f"cannot write {path}: the PDF could not be started")
        yield PdfPages(writer, painter, RESOLUTION / PX_PER_INCH)
    finally:
        with _no_interrupt():
            problem = _close(painter, writer, qfile, path)
        del painter, writer, qfile
    if problem is None and not _finished(tmp):
        problem = f"cannot write {path}: the PDF could not be finished"
    if problem is not None:
        raise error(problem)


@contextmanager
def _no_interrupt() -> Iterator[None]:
    """Ctrl-C waits until the block is done, then raises as usual: closing a PDF half way left Qt objects that
    crashed the interpreter at its exit. The interrupt is noted by a handler of our own and raised after the
    block; blocking SIGINT in this thread instead lost it: the kernel handed it to another thread, and an
    export interrupted while it closed its file wrote it and exited 0 (tests/cli/test_lesson_export_hostile.py)."""
    hit: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: hit.append(signum))
    except (AttributeError, ValueError, OSError):  # not the main thread (its handler is not ours to change)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if hit:
        if callable(previous):
            previous(signal.SIGINT, None)  # the program's own handler (noted_interrupts: raises KeyboardInterrupt)
        elif previous != signal.SIG_IGN:
            raise KeyboardInterrupt


def _close(painter, writer, qfile, path: Path) -> str | None:
    """End the painting, close the file, and destroy the three now (not when an exception's traceback lets
    go of them: after Ctrl-C that was at the interpreter's exit, after the application, and the process
    died of SIGSEGV instead of exiting 130). Returns what went wrong with the file, if anything."""
    problem = None
    if painter is not None and painter.isActive():
        painter.end()
    if qfile is not None:
        qfile.flush()
        problem = _file_error(qfile, path)
        qfile.close()
    for obj in (painter, writer, qfile):
        if obj is not None:
            shiboken6.delete(obj)
    return problem


def image_bytes(image: QImage, fmt: str = "PNG") -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = image.save(buffer, fmt, 80)  # zlib level 2: a 300 dpi figure in a third less time, a few % larger
    buffer.close()
    if not ok:
        raise SnapshotError("the picture could not be encoded")
    return bytes(data.data())


def save_image(image: QImage, path: str | Path, error: type[Exception] | None = None) -> Path:
    """A PNG written by Python (so that a full disk is an error that names it), atomically."""
    path = Path(path)
    data = image_bytes(image)
    with atomic_path(path, error=error or SnapshotError) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
    return path
