"""`train --out`: a run folder is recognised by the run.json this app wrote, never by the names inside it.
A user's folder is never deleted from, appended to or replaced; a non-empty folder that is not a run is
refused with one line (issue 13, "Data loss and clobbering"). Real processes, as a user runs them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from explorer.errors import ConfigError
from explorer.train.runs import RUN_FILE, RUN_FORMAT, check_run_dir, claim_run_dir, is_run_dir, list_checkpoints
from explorer.util.fileio import _host_tag

ROOT = Path(__file__).resolve().parents[2]
TRAIN = [
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
    "--batch-size",
    "4",
    "--eval-every",
    "0",
    "-q",
]


def _train(out: Path, *extra: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "explorer", *TRAIN, "--out", str(out), *extra],
        cwd=out.parent,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _tree(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def _refused(res: subprocess.CompletedProcess) -> str:
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2, res.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr[-2000:]
    return lines[0]


def test_a_users_folder_named_like_a_checkpoint_is_never_touched(tmp_path):
    """The issue's case: `mkdir -p U/step-000000 && echo x > U/step-000000/photo.jpg; train --out U …`
    deleted photo.jpg and exited 0."""
    u = tmp_path / "U"
    (u / "step-000000").mkdir(parents=True)
    (u / "step-000000" / "photo.jpg").write_bytes(b"x\n")
    before = _tree(u)
    res = _train(u, "--steps", "3", "--checkpoint-every", "1")
    assert "not a run folder" in _refused(res)
    assert _tree(u) == before


def test_a_users_log_is_never_appended_to(tmp_path):
    u = tmp_path / "U"
    u.mkdir()
    (u / "log.jsonl").write_text("my own notes\n")
    res = _train(u, "--steps", "2")
    assert "not a run folder" in _refused(res)
    assert _tree(u) == {"log.jsonl": b"my own notes\n"}


def test_a_file_as_out_is_refused(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("keep me")
    assert "is a file" in _refused(_train(f, "--steps", "2"))
    assert f.read_text() == "keep me"


def test_a_run_folder_holding_a_users_files_is_refused(tmp_path):
    """A run.json alone does not make everything beside it the app's."""
    u = tmp_path / "U"
    claim_run_dir(u)
    (u / "step-000000").mkdir()
    (u / "step-000000" / "photo.jpg").write_bytes(b"x")
    before = _tree(u)
    assert "did not write" in _refused(_train(u, "--steps", "2", "--checkpoint-every", "1"))
    assert _tree(u) == before


def test_a_new_run_is_marked_complete_and_leaves_nothing_stray(tmp_path):
    u = tmp_path / "U"
    u.mkdir()  # an empty folder is fine, as is a new one
    res = _train(u, "--steps", "4", "--checkpoint-every", "1", "--keep", "2")
    assert res.returncode == 0, res.stderr
    meta = json.loads((u / RUN_FILE).read_text())
    assert meta["format"] == RUN_FORMAT and meta["version"] == 1
    steps = [s for s, _ in list_checkpoints(u)]
    assert steps == [0, 3, 4]  # --keep 2 pruned only its own periodic checkpoints; the start stays
    assert meta["checkpoints"] == [f"step-{s:06d}" for s in steps] and meta["latest"] == "step-000004"
    assert sorted(p.name for p in u.iterdir() if p.name.startswith(".")) == []  # no .step-….old, no .part
    assert "already holds a run" in _refused(_train(u, "--steps", "2"))


def test_a_killed_runs_temporary_folders_are_recognised_and_removed(tmp_path):
    """SIGKILL mid-checkpoint leaves a hidden temporary folder; a later command on the run removes it (its
    name carries the dead writer's pid), and refuses to mix a new run in."""
    u = tmp_path / "U"
    proc = subprocess.Popen(
        [sys.executable, "-m", "explorer", *TRAIN, "--steps", "100000", "--checkpoint-every", "1", "--out", str(u)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list_checkpoints(u)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    stale = (
        u / f".step-999999.ae-{_host_tag()}-{proc.pid}-zzzz.part"
    )  # what a kill mid-write leaves (made sure of here)
    stale.mkdir(exist_ok=True)
    (stale / "model.safetensors").write_bytes(b"half")
    assert "already holds a run" in _refused(_train(u, "--steps", "2"))
    assert [p.name for p in u.iterdir() if p.name.startswith(".")] == []


def test_sigterm_during_training_leaves_no_temporary_folders(tmp_path):
    u = tmp_path / "U"
    proc = subprocess.Popen(
        [sys.executable, "-m", "explorer", *TRAIN, "--steps", "100000", "--checkpoint-every", "1", "--out", str(u)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list_checkpoints(u)) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode in (143, -signal.SIGTERM)  # 143: a write was under way and cleaned up
    assert [p.name for p in u.iterdir() if p.name.startswith(".")] == []
    assert all((p / "config.json").is_file() for _s, p in list_checkpoints(u))


def test_check_run_dir_rules(tmp_path):
    check_run_dir(tmp_path / "new")  # absent: fine
    check_run_dir(tmp_path)  # empty: fine
    (tmp_path / f".x.ae-{_host_tag()}-{os.getpid()}-abc.part").write_bytes(
        b""
    )  # only the app's own temporary: still empty
    check_run_dir(tmp_path)
    (tmp_path / "a.txt").write_text("x")
    with pytest.raises(ConfigError, match="not a run folder"):
        check_run_dir(tmp_path)
    (tmp_path / RUN_FILE).write_text(json.dumps({"format": "something-else"}))
    assert not is_run_dir(tmp_path)  # a run.json of another program is not a marker
    with pytest.raises(ConfigError, match="not a run folder"):
        check_run_dir(tmp_path)
