"""Writes that never leave a half file behind: write a temporary file beside the target, then rename.

os.replace is atomic on one filesystem, so a reader sees either the old file or the new one; a write that
fails (full disk, killed process) leaves the target untouched and removes its temporary file.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from explorer.errors import SnapshotError


def describe_os_error(exc: OSError, path: Path | str) -> str:
    if exc.errno == errno.ENOSPC:
        return f"cannot write {path}: the disk is full"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"cannot write {path}: permission denied (choose a folder you can write to)"
    if exc.errno == errno.ENOTDIR:
        return f"cannot write {path}: a part of the path is a file, not a folder"
    if exc.errno == errno.ENOENT:
        if Path(path).parent.is_dir():  # e.g. /proc: the folder is there but takes no new files
            return f"cannot write {path}: that folder does not take new files (choose a folder you can write to)"
        return f"cannot write {path}: the folder does not exist"
    return f"cannot write {path}: {exc.strerror or exc}"


@contextmanager
def atomic_path(target: str | Path, error: type[Exception] = SnapshotError) -> Iterator[Path]:
    """Yields a temporary path beside ``target``; on success it replaces ``target`` in one step."""
    target = Path(target)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise error(describe_os_error(exc, target)) from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise error(describe_os_error(exc, target)) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_bytes(target: str | Path, data: bytes) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def atomic_write_with(target: str | Path, write: Callable[[Path], None]) -> None:
    with atomic_path(target) as tmp:
        write(tmp)


@contextmanager
def atomic_dir(target: str | Path, error: type[Exception] = SnapshotError) -> Iterator[Path]:
    """A temporary folder beside ``target`` that becomes ``target`` when the block succeeds.

    An existing ``target`` is moved aside first and removed only after the new folder is in place.
    """
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent))
    except OSError as exc:
        raise error(describe_os_error(exc, target)) from None
    try:
        yield tmp
        old = None
        if target.exists():
            old = target.with_name(f".{target.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(target, old)
        os.replace(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise error(describe_os_error(exc, target)) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
