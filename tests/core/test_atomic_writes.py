"""Writes are atomic: a failed, interrupted or killed write never leaves a half file at the target and never
damages an existing one; an unwritable folder and a full disk are one-line errors.

Failures are simulated by making the real writer (numpy, safetensors, torch) write part of the file and
then raise, by a process killed with SIGKILL in the middle of a write, by a tiny tmpfs that really fills
up and by a read-only bind mount (both need root and mount; skipped where they cannot be made: root can
write into a chmod 555 folder, so that is no test here).
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from explorer.config import ModelConfig
from explorer.errors import SnapshotError
from explorer.export.snapshot import read_snapshot, write_snapshot
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.checkpoint import load_checkpoint, save_checkpoint
from explorer.weights.presets import preset_tokenizer

FORMATS = ("npz", "safetensors", "pt")


@pytest.fixture(scope="module")
def bundle():
    tok = preset_tokenizer("words-en.json")
    return random_bundle(ModelConfig(tok.vocab_size, embed_dim=32, key_dim=4, heads=2, layers=1), tok, 5)


@pytest.fixture(scope="module")
def trace(bundle):
    return run_trace(bundle, "This is a pen .")


@pytest.fixture(scope="module")
def other_trace(bundle):
    return run_trace(bundle, "The cat sat on the mat .")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") or p.name.endswith(".part"))


def writer_that_fails(fmt: str, monkeypatch, exc: BaseException):
    """Make the real writer of ``fmt`` write half of its file, then raise ``exc``."""

    def half_then_fail(real):
        def write(*args, **kwargs):
            target = args[1] if fmt != "npz" else args[0]
            real(*args, **kwargs)
            is_file = hasattr(target, "write")
            path = Path(target.name if is_file else target)
            data = path.read_bytes()
            if is_file:
                target.seek(0)
                target.truncate()
                target.write(data[: len(data) // 2])
                target.flush()
            else:
                path.write_bytes(data[: len(data) // 2])
            raise exc

        return write

    if fmt == "npz":
        monkeypatch.setattr(np, "savez", half_then_fail(np.savez))
    elif fmt == "safetensors":
        import safetensors.numpy

        monkeypatch.setattr(safetensors.numpy, "save_file", half_then_fail(safetensors.numpy.save_file))
    else:
        import torch

        monkeypatch.setattr(torch, "save", half_then_fail(torch.save))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("failure", ["crash", "disk-full", "interrupt"])
def test_a_failed_snapshot_write_leaves_no_half_file_and_keeps_the_old_one(
    trace, other_trace, tmp_path, monkeypatch, fmt, failure
):
    exc = {
        "crash": RuntimeError("writer crashed"),
        "disk-full": OSError(errno.ENOSPC, "No space left on device"),
        "interrupt": KeyboardInterrupt(),
    }[failure]
    new, old = tmp_path / f"new.{fmt}", tmp_path / f"old.{fmt}"
    write_snapshot(other_trace, old)
    before = old.read_bytes()
    with monkeypatch.context() as m:
        writer_that_fails(fmt, m, exc)
        for target in (new, old):
            with pytest.raises((SnapshotError, RuntimeError, KeyboardInterrupt)) as err:
                write_snapshot(trace, target)
            if failure == "disk-full":
                assert err.type is SnapshotError and "disk is full" in str(err.value)
    assert not new.exists()
    assert old.read_bytes() == before  # byte for byte the earlier snapshot
    assert read_snapshot(old).rows == other_trace.rows
    assert leftovers(tmp_path) == []  # the temporary file went too


def test_a_failed_checkpoint_write_keeps_the_old_checkpoint(bundle, tmp_path, monkeypatch):
    folder = save_checkpoint(bundle, tmp_path / "ckpt", step=1)
    import safetensors.torch

    def full(*args, **kwargs):
        Path(args[1]).write_bytes(b"\0" * 100)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(safetensors.torch, "save_file", full)
    with pytest.raises(SnapshotError, match="disk is full"):
        save_checkpoint(bundle, folder, step=2)
    with pytest.raises(SnapshotError, match="disk is full"):
        save_checkpoint(bundle, tmp_path / "new-ckpt", step=2)
    monkeypatch.undo()
    assert load_checkpoint(folder).config == bundle.config
    assert not (tmp_path / "new-ckpt").exists()
    assert leftovers(tmp_path) == []


# ------------------------------------------------------------------------------------ unwritable places


@pytest.mark.parametrize("where", ["under-a-file", "missing-folder", "proc"])
def test_unwritable_targets_are_one_line_errors(trace, tmp_path, where):
    (tmp_path / "a-file").write_text("x")
    target = {
        "under-a-file": tmp_path / "a-file" / "s.npz",
        "missing-folder": tmp_path / "no" / "such" / "s.npz",
        "proc": Path("/proc/attention-explorer-test.npz"),
    }[where]
    if where == "proc" and not Path("/proc/self").is_dir():
        pytest.skip("no /proc here")
    with pytest.raises(SnapshotError) as err:
        write_snapshot(trace, target)
    msg = str(err.value)
    assert msg.startswith(f"cannot write {target}") and "\n" not in msg
    assert not target.exists()


def test_a_read_only_folder(trace, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        probe = folder / "probe"
        try:
            probe.write_text("x")
        except PermissionError:
            pass
        else:
            probe.unlink()
            pytest.skip("this user (root) can write into a read-only folder; see test_a_read_only_mount")
        with pytest.raises(SnapshotError, match="permission denied"):
            write_snapshot(trace, folder / "s.npz")
    finally:
        folder.chmod(0o755)


@contextmanager
def mounted(kind: str, where: Path):
    """A tiny tmpfs (kind "full") or a read-only bind mount of ``where`` (kind "ro"); skips if impossible."""
    where.mkdir(parents=True, exist_ok=True)
    if kind == "full":
        cmds = [["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)]]
    else:
        cmds = [["mount", "--bind", str(where), str(where)], ["mount", "-o", "remount,ro,bind", str(where)]]
    done = 0
    try:
        for cmd in cmds:
            try:
                r = subprocess.run(cmd, capture_output=True, timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                r = None
            if r is None or r.returncode != 0:
                pytest.skip(f"cannot {' '.join(cmd[:3])} here (needs root and mount)")
            done += 1
        yield where
    finally:
        if done:
            subprocess.run(["umount", str(where)], capture_output=True, timeout=20)


def test_a_really_full_disk(trace, tmp_path):
    assert (write_snapshot(trace, tmp_path / "size.npz")).stat().st_size > 64 * 1024  # more than the disk holds
    with mounted("full", tmp_path / "tiny") as tiny:
        (tiny / "keep.npz").write_bytes(b"old")
        with pytest.raises(SnapshotError, match="disk is full"):
            write_snapshot(trace, tiny / "keep.npz")  # the trace needs more than 64 KiB
        assert (tiny / "keep.npz").read_bytes() == b"old"
        assert leftovers(tiny) == []


def test_a_read_only_mount(trace, tmp_path):
    with mounted("ro", tmp_path / "ro") as ro:
        with pytest.raises(SnapshotError, match="permission denied"):
            write_snapshot(trace, ro / "s.npz")


# ------------------------------------------------------------------------------------ killed writers

KILLED_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import numpy as np
    from explorer.config import ModelConfig
    from explorer.export.snapshot import write_snapshot
    from explorer.trace import run_trace
    from explorer.weights.bundle import random_bundle
    from explorer.weights.presets import preset_tokenizer

    real = np.savez
    def slow(fh, *a, **k):  # write the whole file, then hang before it is complete (as a big export would)
        real(fh, *a, **k)
        fh.flush()
        print("writing", flush=True)
        time.sleep(120)
    np.savez = slow
    tok = preset_tokenizer("words-en.json")
    bundle = random_bundle(ModelConfig(tok.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1), tok, 5)
    trace = run_trace(bundle, "This is a pen .")
    write_snapshot(trace, Path(sys.argv[1]))
    """
)


def test_a_writer_killed_mid_write_leaves_the_old_file(other_trace, tmp_path):
    target = tmp_path / "s.npz"
    write_snapshot(other_trace, target)
    before = target.read_bytes()
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "writing"
        parts = [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
        assert parts and parts[0].stat().st_size > 0  # the half-written file exists, beside the target
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert target.read_bytes() == before
    assert read_snapshot(target).rows == other_trace.rows


def test_a_training_run_killed_mid_run_keeps_its_last_checkpoint(tmp_path):
    """SIGKILL `attention-explorer train` while it writes checkpoints every few steps: every checkpoint it
    lists is complete and loads (a half-written one is a hidden .part folder that listing skips)."""
    from explorer.train.loop import list_checkpoints

    run = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "explorer",
        "train",
        "--corpus",
        "copy",
        "-E",
        "8",
        "-D",
        "4",
        "-H",
        "2",
        "-L",
        "1",
        "--steps",
        "100000",
        "--batch-size",
        "4",
        "--checkpoint-every",
        "3",
        "--eval-every",
        "0",
        "--out",
        str(run),
        "-q",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(list_checkpoints(run)) < 4 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read()
        assert len(list_checkpoints(run)) >= 4, "training did not write checkpoints in time"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    found = list_checkpoints(run)
    assert found and all(not p.name.startswith(".") for _s, p in found)
    step, last = found[-1]
    bundle = load_checkpoint(last)
    assert bundle.config.E == 8
    trace = run_trace(bundle, "ab|ab")
    assert np.isfinite(trace["logits"]).all()
