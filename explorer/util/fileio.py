"""Writes that never leave a half file behind: write a temporary file beside the target, then rename.

os.replace is atomic on one filesystem, so a reader sees either the old file or the new one; a write that
fails (full disk, killed process) leaves the target untouched and removes its temporary file.

What else every write here promises (issues 11 and 13):

- **Ordinary permissions.** mkstemp makes a private 0600 file; the written file gets what any program's new
  file gets (0666 & ~umask), and a file that is replaced keeps its own mode. A teacher's shared folder of
  slides stays readable to the class.
- **Only regular files are replaced.** A target that exists and is not a regular file (a folder, a device
  such as /dev/null, a FIFO, a socket) is refused: renaming over it would replace the device itself.
- **Symbolic links.** A target that is a link to a regular file is replaced by the new file; the file the
  link points to is never written through the link (the documented choice: docs/errors.md).
- **No stray temporary files.** Temporary names are ``.NAME.ae-HOST-PID-RANDOM.part`` (unique; NAME stands
  in for a name that is not printable UTF-8, such as ``\xff.png``): a later write beside the same target
  removes those of this machine whose process is gone (killed with SIGKILL, power cut). SIGTERM during a
  write on the main thread removes the temporary file before the process ends (exit code 143).
  (explorer.util.temporaries.)
- **Failures are errors.** A full disk, a read-only folder, a name too long: one line (``describe_os_error``),
  the old target whole. Writers that do not report their own failures write through ``atomic_file`` (a
  Python file whose every write raises) or, for Qt's writers, ``explorer.ui.printing.qt_output`` (a QIODevice over it).
- **Folders** (``atomic_dir``: checkpoints, caches, folders of pictures) follow the same rules: only a folder
  is ever replaced, and the new one gets the ordinary mode (0777 & ~umask) or the replaced folder's.

Every writer of the project goes through here: snapshots, checkpoints and run folders, lessons, the settings
file, caches, screenshots, pictures and PDFs (tests/core/test_every_writer.py holds them all to these rules).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from explorer.errors import ExplorerError, SnapshotError
from explorer.util.printable import shown
from explorer.util.temporaries import (
    TEMP_NAME,
    TEMP_TAG,
    Terminated,
    cleanup_on_sigterm,
    host_tag,
    remove_stale_temporaries,
    sigterm_held,
    sigterm_received,
    temp_prefix,
)

# Re-exported: the names callers and tests have always imported from here.
_host_tag = host_tag
_temp_prefix = temp_prefix
_sigterm_held = sigterm_held
_cleanup_on_sigterm = cleanup_on_sigterm
__all__ = [
    "TEMP_NAME",
    "TEMP_TAG",
    "Terminated",
    "as_os_error",
    "atomic_dir",
    "atomic_file",
    "atomic_path",
    "atomic_write_bytes",
    "check_writable_folder",
    "check_writable_target",
    "describe_os_error",
    "mode_for",
    "remove_stale_temporaries",
]


def describe_os_error(exc: OSError, path: Path | str) -> str:
    path = shown(str(path))
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return f"cannot write {path}: the disk is full"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"cannot write {path}: permission denied (choose a folder you can write to)"
    if exc.errno == errno.ENOTDIR:
        return f"cannot write {path}: a part of the path is a file, not a folder"
    if exc.errno == errno.ENAMETOOLONG:
        return f"cannot write {path}: the name is too long"
    if exc.errno == errno.ENOENT:
        if _parent_is_dir(path):  # e.g. /proc: the folder is there but takes no new files
            return f"cannot write {path}: that folder does not take new files (choose a folder you can write to)"
        return f"cannot write {path}: the folder does not exist"
    return f"cannot write {path}: {exc.strerror or exc}"


def _parent_is_dir(path: str) -> bool:
    try:
        return Path(path).parent.is_dir()
    except OSError:
        return False


# ------------------------------------------------------------------------------------------- permissions


def current_umask() -> int:
    """The process's umask, read without changing it where Linux says it (/proc), else set and reset."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # no way to read it without setting it; put it back at once
    os.umask(mask)
    return mask


def mode_for(target: Path, folder: bool = False) -> int:
    """The mode a written ``target`` gets: an existing file's (folder's) own, else 0666 (0777) & ~umask."""
    try:
        st = os.stat(target)
        if (stat.S_ISDIR if folder else stat.S_ISREG)(st.st_mode):
            return stat.S_IMODE(st.st_mode)
    except OSError:
        pass
    return (0o777 if folder else 0o666) & ~current_umask()


def check_writable_target(target: Path | str, error: type[Exception] = SnapshotError) -> None:
    """Refuse a target that exists and is not a regular file (or a link to one): a folder, a device node
    (/dev/null), a FIFO or a socket. os.replace would put a regular file in its place."""
    try:
        st = os.stat(target)  # follows a link: a link to /dev/null is a device too
    except FileNotFoundError:
        return  # a new file, or a dangling link (replaced by the new file)
    except OSError:
        return  # let the write itself report it (permission denied, a file as a folder…)
    if stat.S_ISREG(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise error(f"cannot write {shown(str(target))}: it is a folder; give a file name")
    raise error(
        f"cannot write {shown(str(target))}: it exists and is not a regular file (a device, pipe or socket); "
        "give a file name"
    )


def check_writable_folder(target: Path | str, error: type[Exception] = SnapshotError) -> None:
    """The same for a folder written whole (atomic_dir): what exists there must be a folder (or a link to
    one). A file, a FIFO or a device in its place was moved aside and deleted."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return
    except OSError:
        return
    if stat.S_ISDIR(st.st_mode):
        return
    kind = "a file" if stat.S_ISREG(st.st_mode) else "a device, pipe or socket"
    raise error(f"cannot write {shown(str(target))}: it exists and is {kind}, not a folder; give a folder name")


# ------------------------------------------------------------------------------------------------ writes


@contextmanager
def atomic_path(target: str | Path, error: type[Exception] = SnapshotError) -> Iterator[Path]:
    """Yields a temporary path beside ``target``; on success it replaces ``target`` in one step.

    The writer must write the yielded path (and report its own failures: a writer that ignores a full disk
    should write through ``atomic_file`` or, in the window, ``explorer.ui.printing.qt_output``)."""
    target = Path(target)
    check_writable_target(target, error)
    remove_stale_temporaries(target.parent, target.name)
    with cleanup_on_sigterm():
        tmp: Path | None = None
        try:
            with sigterm_held():
                fd, tmp_name = tempfile.mkstemp(prefix=temp_prefix(target), suffix=".part", dir=target.parent)
                tmp = Path(tmp_name)
                os.close(fd)
            yield tmp
            end_if_terminated()
            _commit(tmp, target, error)
        except BaseException as exc:
            failure = as_os_error(exc, target.parent)  # judged before the temporary frees its space
            if tmp is not None:
                tmp.unlink(missing_ok=True)
            ended = _terminated_behind(exc)
            if ended is not None:  # a library's cleanup (zipfile's close) raised over the SIGTERM: it still ends
                raise ended from None
            if failure is not None:
                raise error(describe_os_error(failure, target)) from None
            raise


def _terminated_behind(exc: BaseException) -> Terminated | None:
    """The Terminated (SIGTERM) that ``exc`` is, or that it was raised while handling, or any failure after a
    SIGTERM that a library turned into something else; else None."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, Terminated):
            return exc
        seen.add(id(exc))
        exc = exc.__context__
    return Terminated() if sigterm_received() else None


def end_if_terminated() -> None:
    """Before a written temporary replaces its target: a SIGTERM that a library swallowed still ends the
    write (the file is not replaced, the temporary is removed) and the process (exit code 143)."""
    if sigterm_received():
        raise Terminated()


def as_os_error(exc: BaseException, folder: Path) -> OSError | None:
    """The system error behind a writer's failure. Libraries that write by name report a full disk in their
    own words (safetensors: "I/O error: No space left on device (os error 28)", torch: "basic_ios::clear:
    iostream error"); those are read here, and a folder left without a free block counts as a full disk.
    None: not a writing failure (a bug, Ctrl-C, the app's own error), raised as it is."""
    if isinstance(exc, OSError):
        return exc
    if not isinstance(exc, Exception) or isinstance(exc, ExplorerError):
        return None
    said = str(exc)
    for code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EIO):
        if os.strerror(code) in said or f"os error {code})" in said:
            return OSError(code, os.strerror(code))
    try:
        full = os.statvfs(folder).f_bavail == 0
    except OSError:
        full = False
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)) if full else None


def _commit(tmp: Path, target: Path, error: type[Exception]) -> None:
    """The written temporary becomes ``target``: its mode, its bytes on disk, then the rename."""
    st = os.lstat(tmp)
    if not stat.S_ISREG(st.st_mode):  # a writer that replaced its path with something else
        raise error(f"cannot write {shown(str(target))}: the writer did not leave a file")
    with open(tmp, "rb+") as fh:
        os.fchmod(fh.fileno(), mode_for(target))  # the writer may have made the file anew: set it on what is there
        os.fsync(fh.fileno())
    check_writable_target(target, error)  # it may have become a device or folder meanwhile
    os.replace(tmp, target)
    _fsync_folder(target.parent)


@contextmanager
def atomic_file(target: str | Path, error: type[Exception] = SnapshotError) -> Iterator[BinaryIO]:
    """A binary file open for writing that becomes ``target`` when the block succeeds: every write's failure
    (a full disk) is the block's error, and the old ``target`` stays whole."""
    with atomic_path(target, error) as tmp:
        with open(tmp, "wb") as fh:
            yield fh
            fh.flush()


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every system can open a folder)."""
    if sys.platform.startswith("win"):
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(target: str | Path, data: bytes, error: type[Exception] = SnapshotError) -> None:
    with atomic_file(target, error) as fh:
        fh.write(data)


def _remove(path: Path) -> None:
    """Remove what an atomic_dir moved aside: a folder, or a link (rmtree refuses links)."""
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path, ignore_errors=True)


@contextmanager
def atomic_dir(target: str | Path, error: type[Exception] = SnapshotError, parents: bool = True) -> Iterator[Path]:
    """A temporary folder beside ``target`` that becomes ``target`` when the block succeeds.

    An existing folder ``target`` is moved aside first and removed only after the new folder is in place;
    anything else in its place (a file, a FIFO, a device) is refused. Callers replace only folders they wrote
    (a training run checks that its run folder is its own: explorer.train.runs). ``parents``: create the
    folders above it (the app's own caches); a user's output names a folder that exists."""
    target = Path(target)
    check_writable_folder(target, error)
    try:
        if parents:
            target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise error(describe_os_error(exc, target)) from None
    remove_stale_temporaries(target.parent, target.name)
    with cleanup_on_sigterm():
        tmp: Path | None = None
        try:
            with sigterm_held():
                tmp = Path(tempfile.mkdtemp(prefix=temp_prefix(target), suffix=".part", dir=target.parent))
            yield tmp
            end_if_terminated()
            os.chmod(tmp, mode_for(target, folder=True))  # mkdtemp's 0700 would hide it from everyone else
            with sigterm_held():  # the old folder is moved aside and removed in one piece
                check_writable_folder(target, error)
                old = None
                if os.path.lexists(target):
                    old = target.parent / f"{temp_prefix(target)}{os.urandom(4).hex()}.old"
                    os.replace(target, old)
                os.replace(tmp, target)
                if old is not None:
                    _remove(old)
        except BaseException as exc:
            failure = as_os_error(exc, target.parent)
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
            ended = _terminated_behind(exc)
            if ended is not None:
                raise ended from None
            if failure is not None:
                raise error(describe_os_error(failure, target)) from None
            raise
