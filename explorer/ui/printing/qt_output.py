"""Qt's writers (pictures, SVG, PDF) through the project's one safe writer (explorer.util.fileio).

Given a file name, Qt's writers open it themselves: a name that is not UTF-8 (``gui --screenshot $'\\xff.png'``)
was written under another name while the target stayed empty, and a full disk went unnoticed (QFile buffers,
and neither QImageWriter nor QPdfWriter report a failed close). Here they write into a QFile that hands
every byte to the descriptor of a temporary opened by ``atomic_file``: a failed write is an error with its
one-line reason, and the old file stays as it was.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QFile, QFileDevice, QIODevice

from explorer.errors import SnapshotError
from explorer.util.fileio import atomic_file, atomic_write_bytes
from explorer.util.printable import shown

# Qt's failure as the system's error number, matched by the words Qt took from strerror.
_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EACCES, errno.EROFS)


def _no_room(fd: int) -> bool:
    try:
        return os.fstatvfs(fd).f_bavail == 0
    except OSError:
        return False


def _failure(device: QFile, fd: int) -> OSError:
    """The OSError behind a failed QFile: Qt keeps only words, and a writer's own failure (libpng's) none."""
    said = device.errorString()
    code = next((e for e in _ERRNOS if os.strerror(e) in said), None)
    if code is None:
        code = errno.ENOSPC if _no_room(fd) else errno.EIO
    return OSError(code, os.strerror(code))


@contextmanager
def atomic_device(target: str | Path, error: type[Exception] = SnapshotError) -> Iterator[QFile]:
    """A QFile, open for writing, whose bytes become ``target`` when the block succeeds and nothing failed on
    the way. It writes to the descriptor of ``atomic_file``'s temporary: Qt never opens a name itself, and its
    writers stream (a PDF of many pages is never held whole in memory)."""
    with atomic_file(target, error) as fh:
        device = QFile()
        mode = QIODevice.OpenModeFlag.WriteOnly | QIODevice.OpenModeFlag.Unbuffered
        if not device.open(fh.fileno(), mode, QFileDevice.FileHandleFlag.DontCloseHandle):
            raise _failure(device, fh.fileno())
        try:
            yield device
            device.flush()
            # Qt forgets a failed write at the next one, and its PDF engine stops counting at the failure:
            # a disk left without a free block after the write is taken as full (the file may be cut short).
            if device.error() != QFileDevice.FileError.NoError or _no_room(fh.fileno()):
                raise _failure(device, fh.fileno())  # an OSError: fileio says it in one line (the disk is full, …)
        finally:
            device.close()


def save_image(image, target: str | Path, fmt: str = "PNG", error: type[Exception] = SnapshotError) -> Path:
    """A QImage or QPixmap written to ``target`` as ``fmt`` by the safe writer. Encoded in memory first (a
    picture is at most a few hundred MB: gui caps the window's pixels), so that Python writes the bytes and
    says exactly why a write failed."""
    target = Path(target)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = image.save(buffer, fmt)
    buffer.close()
    if not ok:
        raise error(f"cannot write {shown(str(target))}: the picture could not be saved")
    atomic_write_bytes(target, bytes(data), error)
    return target
