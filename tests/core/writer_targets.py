"""Targets of every kind for the one writer contract (issue 26 item 3), shared by tests/core/test_every_writer.py
(the core's writers) and tests/ui/test_every_qt_writer.py (Qt's). Not a test module.

``check(write, kind, tmp_path, folder=False)`` makes a target of ``kind``, runs ``write(target)`` and asserts
what every writer of the project promises for it: a new file gets the ordinary mode, a replaced one keeps its
mode, a link is replaced and the file it points to untouched, a FIFO, a device or a folder is refused and left
as it was (without waiting on it), a full disk is an error that leaves the old file whole, an undecodable name
is written as named, and no temporary file is left anywhere.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import pytest

from explorer.errors import ExplorerError
from explorer.util.fileio import TEMP_NAME, current_umask

FILE_KINDS = (
    "new",
    "existing",
    "link-to-file",
    "link-to-dev-null",
    "fifo",
    "folder",
    "dangling-link",
    "undecodable-name",
    "full-disk",
)
FOLDER_KINDS = ("new", "existing", "file-in-place", "fifo", "link-to-dev-null", "full-disk")
OLD = b"the user's own bytes\n"


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TEMP_NAME.match(p.name) or p.name.endswith((".part", ".old")))


@contextmanager
def full_disk(where: Path):
    """A 64 KiB tmpfs filled to the last block (needs root and mount; skips otherwise)."""
    where.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)], capture_output=True, timeout=20)
    if r.returncode != 0:
        pytest.skip("cannot mount a tiny tmpfs here (needs root)")
    try:
        yield where
    finally:  # lazily if a failed writer's handle still holds it (the test then fails, not the next ones)
        if subprocess.run(["umount", str(where)], capture_output=True, timeout=20).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=20)


def _fill(folder: Path) -> None:
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * 512)
    except OSError:
        pass
    finally:
        os.close(fd)


def _state(path: Path) -> tuple:
    st = os.lstat(path)
    return (
        stat.S_IFMT(st.st_mode),
        stat.S_IMODE(st.st_mode),
        os.readlink(path) if stat.S_ISLNK(st.st_mode) else None,
        path.read_bytes() if stat.S_ISREG(st.st_mode) else None,
    )


def check(
    write: Callable[[Path], object], kind: str, tmp_path: Path, name: str = "out.bin", folder: bool = False
) -> None:
    base = tmp_path / "w"
    base.mkdir()
    target = base / name
    outside = tmp_path / "user-file"
    outside.write_bytes(OLD)
    if kind == "full-disk":
        with full_disk(base / "tiny") as tiny:
            target = tiny / name
            if folder:
                target.mkdir()
                (target / "old").write_bytes(OLD)
            else:
                target.write_bytes(OLD)
            _fill(tiny)
            before = sorted(p.name for p in tiny.iterdir())
            with pytest.raises(ExplorerError, match="the disk is full"):
                write(target)
            assert (target / "old" if folder else target).read_bytes() == OLD  # the old output stays whole
            assert sorted(p.name for p in tiny.iterdir()) == before and not leftovers(tiny)
        return
    if kind == "undecodable-name":
        target = base / os.fsdecode(b"\xff\xfe-" + os.fsencode(name))
    elif kind == "existing":
        if folder:
            target.mkdir(mode=0o750)
            os.chmod(target, 0o750)
            (target / "old").write_bytes(OLD)
        else:
            target.write_bytes(OLD)
            os.chmod(target, 0o640)
    elif kind == "link-to-file":
        target.symlink_to(outside)
    elif kind == "link-to-dev-null":
        target.symlink_to("/dev/null")
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind in ("folder", "file-in-place"):
        (target.mkdir() if kind == "folder" else target.write_bytes(OLD))
    elif kind == "dangling-link":
        target.symlink_to(tmp_path / "nowhere")
    refused = kind in ("link-to-dev-null", "fifo", "folder", "file-in-place")
    before = _state(target) if os.path.lexists(target) else None
    if refused:
        with pytest.raises(ExplorerError, match="cannot write"):
            write(target)
        assert _state(target) == before  # a device, a FIFO, a folder or the user's file: left exactly as it was
        if kind == "link-to-dev-null":
            assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    else:
        write(target)
        st = os.lstat(target)
        assert stat.S_ISDIR(st.st_mode) if folder else stat.S_ISREG(st.st_mode)  # a link was replaced, not followed
        expected = {"existing": 0o750 if folder else 0o640}.get(kind, (0o777 if folder else 0o666) & ~current_umask())
        assert stat.S_IMODE(st.st_mode) == expected, kind
        if not folder:
            assert target.read_bytes() != OLD and target.stat().st_size > 0
    assert outside.read_bytes() == OLD  # never written through a link
    assert not leftovers(base)
    assert sorted(os.fsencode(p.name) for p in base.iterdir()) == [os.fsencode(target.name)]  # nothing else created
