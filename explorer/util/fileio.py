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
- **No stray temporary files.** Temporary names are ``.NAME.ae-HOST-PID-RANDOM.part``: a later write beside
  the same target removes those of this machine whose process is gone (killed with SIGKILL, power cut). SIGTERM during a write
  on the main thread removes the temporary file before the process ends (exit code 143).
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import secrets
import shutil
import signal
import socket
import stat
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from explorer.errors import SnapshotError

TEMP_TAG = "ae"  # the app's mark in a temporary name: .NAME.ae-HOST-PID-RANDOM.part
TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.%s-(?P<host>[0-9a-f]{6})-(?P<pid>\d+)-[A-Za-z0-9_]+\.(?:part|old)$" % TEMP_TAG)


def _host_tag() -> str:
    """Six hex digits of this machine's name: a pid says nothing about a write from another machine to a
    shared (network) folder, so only this machine's temporaries are judged by their pid."""
    return hashlib.sha1(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:6]


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


def mode_for(target: Path) -> int:
    """The mode a written ``target`` gets: an existing file's own, else 0666 & ~umask."""
    try:
        st = os.stat(target)
        if stat.S_ISREG(st.st_mode):
            return stat.S_IMODE(st.st_mode)
    except OSError:
        pass
    return 0o666 & ~current_umask()


def check_writable_target(target: Path) -> None:
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
        raise SnapshotError(f"cannot write {target}: it is a folder; give a file name")
    raise SnapshotError(
        f"cannot write {target}: it exists and is not a regular file (a device, pipe or socket); give a file name"
    )


# --------------------------------------------------------------------------------- temporary file names


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, someone else's
        return True
    return True


def remove_stale_temporaries(folder: Path, name: str | None = None) -> list[Path]:
    """Remove the temporary files and folders this app left in ``folder`` (for ``name`` only, when given)
    whose writing process is gone. Nothing that does not carry the app's temporary name is touched."""
    removed = []
    host = _host_tag()
    try:
        children = list(Path(folder).iterdir())
    except OSError:
        return removed
    for child in children:
        m = TEMP_NAME.match(child.name)
        if not m or (name is not None and m.group("name") != name) or m.group("host") != host:
            continue
        if _pid_alive(int(m.group("pid"))):
            continue
        try:
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
            removed.append(child)
        except OSError:
            pass
    return removed


def _temp_prefix(target: Path) -> str:
    return f".{target.name}.{TEMP_TAG}-{_host_tag()}-{os.getpid()}-"


class Terminated(SystemExit):
    """SIGTERM arrived during a write: the temporary file is removed, then the process ends (143)."""

    def __init__(self) -> None:
        super().__init__(128 + signal.SIGTERM)


_held = 0  # > 0 while a step that must not be cut in half runs (making a temporary, the final renames)
_pending = False  # SIGTERM came while held: raised as Terminated when the step is done


def _on_sigterm(signum, frame):
    global _pending
    if _held:
        _pending = True
        return
    raise Terminated()


@contextmanager
def _sigterm_held() -> Iterator[None]:
    """Defer a SIGTERM that arrives inside the block to its end. Python runs a handler between any two
    bytecodes, so without this a SIGTERM between mkstemp creating the file and the name reaching the
    ``try`` that removes it would leave the temporary behind."""
    global _held, _pending
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        if not _held and _pending:  # also when the block failed: the SIGTERM still ends the process
            _pending = False
            raise Terminated()  # noqa: B012 - on purpose: it replaces the block's own exception


@contextmanager
def _cleanup_on_sigterm() -> Iterator[None]:
    """While a write is under way on the main thread, SIGTERM raises Terminated (a SystemExit) so that the
    ``except BaseException`` below removes the temporary file; the previous handler is put back after."""
    # get_ident, not current_thread(): that would register a dummy thread for a QThread calling in (and keep it)
    if threading.get_ident() != threading.main_thread().ident:
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGTERM)
    except (ValueError, OSError):  # pragma: no cover - no signals here
        yield
        return
    if previous not in (signal.SIG_DFL, None):  # someone else handles it (the GUI, a test runner)
        yield
        return
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# ------------------------------------------------------------------------------------------------ writes


@contextmanager
def atomic_path(target: str | Path, error: type[Exception] = SnapshotError) -> Iterator[Path]:
    """Yields a temporary path beside ``target``; on success it replaces ``target`` in one step."""
    target = Path(target)
    check_writable_target(target)
    remove_stale_temporaries(target.parent, target.name)
    with _cleanup_on_sigterm():
        tmp: Path | None = None
        try:
            with _sigterm_held():
                fd, tmp_name = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=".part", dir=target.parent)
                tmp = Path(tmp_name)
                os.close(fd)
            yield tmp
            mode = mode_for(target)
            with open(tmp, "rb+") as fh:
                os.fchmod(fh.fileno(), mode)  # the writer may have made the file anew: set it on what is there
                os.fsync(fh.fileno())
            check_writable_target(target)  # it may have become a device or folder meanwhile
            os.replace(tmp, target)
            _fsync_folder(target.parent)
        except OSError as exc:
            if tmp is not None:
                tmp.unlink(missing_ok=True)
            raise error(describe_os_error(exc, target)) from None
        except BaseException:
            if tmp is not None:
                tmp.unlink(missing_ok=True)
            raise


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


def atomic_write_bytes(target: str | Path, data: bytes) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def _remove(path: Path) -> None:
    """Remove what an atomic_dir moved aside: a folder, or a link or file (rmtree refuses links)."""
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path, ignore_errors=True)


@contextmanager
def atomic_dir(target: str | Path, error: type[Exception] = SnapshotError) -> Iterator[Path]:
    """A temporary folder beside ``target`` that becomes ``target`` when the block succeeds.

    An existing ``target`` is moved aside first and removed only after the new folder is in place. Callers
    replace only folders they wrote (a training run checks that its run folder is its own: explorer.train.runs).
    """
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise error(describe_os_error(exc, target)) from None
    remove_stale_temporaries(target.parent, target.name)
    with _cleanup_on_sigterm():
        tmp: Path | None = None
        try:
            with _sigterm_held():
                tmp = Path(tempfile.mkdtemp(prefix=_temp_prefix(target), suffix=".part", dir=target.parent))
            yield tmp
            with _sigterm_held():  # the old folder is moved aside and removed in one piece
                old = None
                if os.path.lexists(target):
                    old = target.parent / f"{_temp_prefix(target)}{secrets.token_hex(4)}.old"
                    os.replace(target, old)
                os.replace(tmp, target)
                if old is not None:
                    _remove(old)
        except OSError as exc:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
            raise error(describe_os_error(exc, target)) from None
        except BaseException:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
            raise
