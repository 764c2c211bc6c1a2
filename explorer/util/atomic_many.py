"""Several files written whole, or none of them replaced: a worksheet and its key, the pictures of Export all
stages. ``atomic_path`` (explorer/util/fileio.py) makes one file whole; a command writing two with it replaced
the first and then failed on the second (a missing folder, a full disk), leaving a sheet without its key.

Here every target's kind is checked first (a folder, a device, a FIFO in any place refuses them all), every
file is written to its own temporary beside its target, and only when all are written are they renamed, the
renames themselves undone if one fails. Nothing is removed but the temporaries this writer made.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from explorer.errors import SnapshotError
from explorer.util.fileio import (
    _terminated_behind,
    as_os_error,
    check_writable_target,
    describe_os_error,
    end_if_terminated,
    mode_for,
)
from explorer.util.printable import shown
from explorer.util.temporaries import cleanup_on_sigterm, remove_stale_temporaries, sigterm_held, temp_prefix


@contextmanager
def atomic_paths(targets: Sequence[str | Path], error: type[Exception] = SnapshotError) -> Iterator[list[Path]]:
    """Yields one temporary path beside each of ``targets``; when the block succeeds they replace the targets
    together. A failure anywhere (the block, a rename) leaves every target as it was."""
    paths = [Path(t) for t in targets]
    if len({os.path.abspath(p) for p in paths}) != len(paths):
        raise error(f"cannot write {shown(str(paths[0]))}: the same file is named twice")
    for path in paths:
        check_writable_target(path, error)
    with cleanup_on_sigterm():
        made: list[Path] = []
        current = paths[0]  # the target a system error is about: the one whose temporary is being made
        try:
            for path in paths:
                current = path
                remove_stale_temporaries(path.parent, path.name)
                with sigterm_held():
                    fd, name = tempfile.mkstemp(prefix=temp_prefix(path), suffix=".part", dir=path.parent)
                    made.append(Path(name))
                    os.close(fd)
            yield list(made)
            end_if_terminated()
            _replace_all(made, paths, error)
        except BaseException as exc:
            failure = as_os_error(exc, current.parent)
            for tmp in made:
                tmp.unlink(missing_ok=True)
            ended = _terminated_behind(exc)
            if ended is not None:
                raise ended from None
            if failure is not None:
                raise error(describe_os_error(failure, current)) from None
            raise


@contextmanager
def atomic_files_in(folder: Path, names: Sequence[str], error: type[Exception] = SnapshotError) -> Iterator[Path]:
    """Yields a hidden staging folder inside ``folder`` for writers that must see each file's own name (its
    ending names its format): when the block succeeds, every ``names`` file written there replaces its
    namesake in ``folder``, together; a failure or a cancel replaces none. The staging folder goes either way."""
    targets = [folder / name for name in names]
    for path in targets:
        check_writable_target(path, error)
    remove_stale_temporaries(folder, STAGING)
    with cleanup_on_sigterm():
        staging: Path | None = None
        try:
            with sigterm_held():
                staging = Path(tempfile.mkdtemp(prefix=temp_prefix(folder / STAGING), suffix=".part", dir=folder))
            yield staging
            end_if_terminated()
            _replace_all([staging / name for name in names], targets, error)
        except BaseException as exc:
            failure = as_os_error(exc, folder)
            ended = _terminated_behind(exc)
            if ended is not None:
                raise ended from None
            if failure is not None:
                raise error(describe_os_error(failure, folder)) from None
            raise
        finally:
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)


STAGING = "staging"  # the name a staging folder's temporary name stands for


def _replace_all(made: list[Path], paths: list[Path], error: type[Exception]) -> None:
    """Every temporary onto its target, as one step: the old files kept aside (hard links) until the last
    rename is done, and put back if one fails."""
    for tmp, path in zip(made, paths):
        if not tmp.is_file() or tmp.is_symlink():
            raise error(f"cannot write {shown(str(path))}: the writer did not leave a file")
        with open(tmp, "rb+") as fh:
            os.fchmod(fh.fileno(), mode_for(path))
            os.fsync(fh.fileno())
    with sigterm_held():
        for path in paths:
            check_writable_target(path, error)  # it may have become a folder or a device meanwhile
        kept = [_keep_aside(path) for path in paths]
        done = 0
        try:
            for tmp, path in zip(made, paths):
                os.replace(tmp, path)
                done += 1
        except BaseException:
            _undo(paths[:done], kept[:done])
            raise
        finally:
            for old in kept:
                if old is not None:
                    old.unlink(missing_ok=True)


def _keep_aside(path: Path) -> Path | None:
    """A second name for the file now at ``path`` (None: there is none, or the system cannot link)."""
    if not path.is_file():
        return None
    old = path.parent / f"{temp_prefix(path)}{os.urandom(4).hex()}.old"
    try:
        os.link(path, old, follow_symlinks=False)
    except OSError:
        return None
    return old


def _undo(paths: list[Path], kept: list[Path | None]) -> None:
    """Put back what the renames already replaced: the old file where there was one, else nothing."""
    for path, old in zip(paths, kept):
        try:
            if old is not None:
                os.replace(old, path)
            else:
                path.unlink(missing_ok=True)
        except OSError:
            pass
