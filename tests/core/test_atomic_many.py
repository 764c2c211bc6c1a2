"""Several files written whole or none replaced (explorer/util/atomic_many.py, issue 44): the kinds of every
target first, a failure while writing, a rename that fails half way (the ones done are put back), a SIGTERM
that a library swallowed; never a temporary left, never a file removed that the writer did not make."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from explorer.errors import SnapshotError
from explorer.util import atomic_many, temporaries
from explorer.util.atomic_many import atomic_files_in, atomic_paths


def _files(folder: Path, *names: str) -> list[Path]:
    paths = []
    for name in names:
        path = folder / name
        path.write_bytes(f"old {name}".encode())
        paths.append(path)
    return paths


def _contents(folder: Path) -> dict[str, bytes | str]:
    return {p.name: (p.read_bytes() if p.is_file() else "folder") for p in folder.iterdir()}


def test_all_are_replaced_together_and_modes_kept(tmp_path):
    sheet, key = _files(tmp_path, "s.pdf", "k.pdf")
    os.chmod(sheet, 0o640)
    with atomic_paths([sheet, key, tmp_path / "new.pdf"]) as tmps:
        for tmp, data in zip(tmps, (b"S", b"K", b"N")):
            assert tmp.parent == tmp_path and tmp.name.startswith(".")
            tmp.write_bytes(data)
    assert _contents(tmp_path) == {"s.pdf": b"S", "k.pdf": b"K", "new.pdf": b"N"}
    assert os.stat(sheet).st_mode & 0o777 == 0o640


def test_a_failure_while_writing_replaces_none(tmp_path):
    _files(tmp_path, "s.pdf", "k.pdf")
    before = _contents(tmp_path)
    with pytest.raises(SnapshotError, match="disk is full"):
        with atomic_paths([tmp_path / "s.pdf", tmp_path / "k.pdf"]) as tmps:
            tmps[0].write_bytes(b"S")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert _contents(tmp_path) == before


def test_every_kind_is_checked_before_anything_is_written(tmp_path):
    _files(tmp_path, "s.pdf")
    (tmp_path / "k.pdf").mkdir()
    before = _contents(tmp_path)
    with pytest.raises(SnapshotError, match="it is a folder"):
        with atomic_paths([tmp_path / "s.pdf", tmp_path / "k.pdf"]):
            raise AssertionError("nothing may be written when one target is a folder")
    assert _contents(tmp_path) == before


def test_the_same_file_twice_is_refused(tmp_path):
    with pytest.raises(SnapshotError, match="named twice"):
        with atomic_paths([tmp_path / "s.pdf", tmp_path / "." / "s.pdf"]):
            pass


def test_a_rename_that_fails_half_way_puts_back_what_was_replaced(tmp_path, monkeypatch):
    _files(tmp_path, "a.pdf", "b.pdf")
    before = _contents(tmp_path)
    real = os.replace
    calls = []

    def failing(src, dst, *a, **k):
        calls.append(Path(dst).name)
        if Path(dst).name == "c.pdf":
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(src, dst, *a, **k)

    monkeypatch.setattr(atomic_many.os, "replace", failing)
    with pytest.raises(SnapshotError):
        with atomic_paths([tmp_path / "a.pdf", tmp_path / "b.pdf", tmp_path / "c.pdf"]) as tmps:
            for tmp in tmps:
                tmp.write_bytes(b"new")
    assert calls[:3] == ["a.pdf", "b.pdf", "c.pdf"]  # the failure came after two were replaced
    assert _contents(tmp_path) == before  # …and both are back, c.pdf never made, nothing else left


def test_a_swallowed_sigterm_replaces_none(tmp_path, monkeypatch):
    _files(tmp_path, "s.pdf", "k.pdf")
    before = _contents(tmp_path)
    monkeypatch.setattr(temporaries, "_received", True)
    with pytest.raises(temporaries.Terminated):
        with atomic_paths([tmp_path / "s.pdf", tmp_path / "k.pdf"]) as tmps:
            for tmp in tmps:
                tmp.write_bytes(b"new")
    assert _contents(tmp_path) == before


def test_files_staged_under_their_own_names_replace_only_those(tmp_path):
    _files(tmp_path, "01.png", "mine.txt")
    with atomic_files_in(tmp_path, ["01.png", "02.svg"]) as staging:
        assert staging.parent == tmp_path
        (staging / "01.png").write_bytes(b"one")
        (staging / "02.svg").write_bytes(b"two")
    assert _contents(tmp_path) == {"01.png": b"one", "02.svg": b"two", "mine.txt": b"old mine.txt"}


def test_a_staged_file_missing_replaces_none(tmp_path):
    _files(tmp_path, "01.png")
    before = _contents(tmp_path)
    with pytest.raises(SnapshotError, match="did not leave a file"):
        with atomic_files_in(tmp_path, ["01.png", "02.png"]) as staging:
            (staging / "01.png").write_bytes(b"one")
    assert _contents(tmp_path) == before
