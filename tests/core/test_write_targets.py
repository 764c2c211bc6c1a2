"""What every export write promises beyond atomicity (issues 11 and 13): ordinary permissions, only regular
files replaced, links replaced rather than written through, stale temporary files removed, and a SIGTERM
during a write removes the temporary file. Real processes where a signal or the umask is involved."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from explorer.config import ModelConfig
from explorer.errors import SnapshotError
from explorer.export.snapshot import read_snapshot, write_snapshot
from explorer.trace import run_trace
from explorer.util.fileio import _host_tag, atomic_write_bytes, remove_stale_temporaries
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import preset_tokenizer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def trace():
    tok = preset_tokenizer("words-en.json")
    return run_trace(
        random_bundle(ModelConfig(tok.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1), tok, 5), "This is a pen ."
    )


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _cli(*args: str, cwd: Path, umask: int | None = None, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # umask=, not a preexec_fn: Python between fork and exec can deadlock in a process with threads
    return subprocess.run(
        [sys.executable, "-m", "explorer", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        umask=-1 if umask is None else umask,
        **kw,
    )


@pytest.mark.parametrize("umask, expected", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_a_new_export_gets_the_users_ordinary_mode(tmp_path, umask, expected):
    """`export -o` as a real process under a umask: 0666 & ~umask, as any program's new file (was 0600)."""
    out = tmp_path / "s.npz"
    res = _cli("export", "This is a pen .", "--preset", "seed-toy", "-o", str(out), cwd=tmp_path, umask=umask)
    assert res.returncode == 0, res.stderr
    assert _mode(out) == expected


def test_replacing_a_file_keeps_its_mode(trace, tmp_path):
    out = tmp_path / "s.npz"
    out.write_bytes(b"old")
    out.chmod(0o640)
    write_snapshot(trace, out)
    assert _mode(out) == 0o640
    assert read_snapshot(out).rows == trace.rows  # and it is the new file, whole


@pytest.mark.parametrize("fmt", ["npz", "safetensors", "pt"])
def test_every_format_gets_the_mode(trace, tmp_path, fmt):
    old = os.umask(0o022)
    try:
        out = write_snapshot(trace, tmp_path / f"s.{fmt}")
    finally:
        os.umask(old)
    assert _mode(out) == 0o644


def test_a_link_is_replaced_not_written_through(trace, tmp_path):
    """The documented choice: the link becomes the new file; the file it pointed to is untouched."""
    real = tmp_path / "real.npz"
    real.write_bytes(b"precious")
    link = tmp_path / "link.npz"
    link.symlink_to(real)
    write_snapshot(trace, link)
    assert real.read_bytes() == b"precious"
    assert not link.is_symlink() and read_snapshot(link).rows == trace.rows


@pytest.mark.parametrize("kind", ["folder", "fifo", "link-to-fifo", "dev-null"])
def test_a_target_that_is_not_a_regular_file_is_refused(trace, tmp_path, kind):
    target = tmp_path / "t.npz"
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "link-to-fifo":
        os.mkfifo(tmp_path / "fifo")
        target.symlink_to(tmp_path / "fifo")
    else:
        target = Path("/dev/null")
    before = os.lstat(target)
    with pytest.raises(SnapshotError, match="is not a regular file|it is a folder"):
        write_snapshot(trace, target, "npz")
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)  # still the same thing
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_cli_output_onto_a_device_node_is_refused(tmp_path):
    """As root: `mknod fakefull c 1 7; export -o fakefull` replaced the node with a regular file."""
    node = tmp_path / "fakefull"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    res = _cli("export", "This is a pen .", "--preset", "seed-toy", "-o", str(node), "--format", "npz", cwd=tmp_path)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "not a regular file" in lines[0], res.stderr
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    assert "wrote" not in res.stdout


def test_cli_output_onto_dev_null_is_refused(tmp_path):
    res = _cli("export", "This is a pen .", "--preset", "seed-toy", "-o", "/dev/null", "--format", "npz", cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.startswith("error: ") and "not a regular file" in res.stderr
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_stale_temporaries_of_a_dead_writer_are_removed_by_the_next_write(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)  # that process has ended
    host = _host_tag()
    stale = tmp_path / f".s.npz.ae-{host}-{pid}-abc123.part"
    stale.write_bytes(b"x" * 1000)
    stale_dir = tmp_path / f".s.npz.ae-{host}-{pid}-abc124.old"
    stale_dir.mkdir()
    mine = tmp_path / f".s.npz.ae-{host}-{os.getpid()}-abc125.part"  # a write of a live process: left alone
    mine.write_bytes(b"busy")
    other_host = "000000" if host != "000000" else "ffffff"  # a write from another machine to a shared folder
    users = [
        tmp_path / ".s.npz.part",
        tmp_path / ".s.npz.12345.part",
        tmp_path / f".other.ae-{host}-{pid}-x.part",
        tmp_path / f".s.npz.ae-{other_host}-{pid}-abc126.part",
    ]
    for p in users:
        p.write_bytes(b"not the app's")  # names the app never makes (or for another target): left alone
    atomic_write_bytes(tmp_path / "s.npz", b"new")
    assert not stale.exists() and not stale_dir.exists()
    assert mine.exists() and all(p.read_bytes() == b"not the app's" for p in users)
    assert remove_stale_temporaries(tmp_path, "s.npz") == []  # nothing stale is left for s.npz; the live one stays


SLOW_WRITER = textwrap.dedent(
    """
    import sys, time
    from explorer.util.fileio import atomic_path


    with atomic_path(sys.argv[1]) as tmp:
        tmp.write_bytes(b"x" * 100_000)
        print("writing", flush=True)
        time.sleep(60)
    print("finished")
    """
)


def test_sigterm_during_a_write_removes_the_temporary_file_and_keeps_the_old(tmp_path):
    target = tmp_path / "s.npz"
    target.write_bytes(b"old")
    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITER, str(target)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout.readline().strip() == "writing"
        assert [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 143
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.npz"]


@pytest.mark.slow
def test_sigterm_during_a_real_export_leaves_no_temporary_file(tmp_path):
    """`attention-explorer export` of a few hundred MB, SIGTERM as soon as its temporary file appears: the
    hidden .part file (hundreds of MB, left for good before) is removed, the old target is intact."""
    words = "this is a pen the cat sat on dog ran".split()
    lines = [" ".join(words[(i * 7 + j) % len(words)] for j in range(250)) for i in range(8)]
    (tmp_path / "long.txt").write_text("\n".join(lines) + "\n")
    target = tmp_path / "big.npz"
    target.write_bytes(b"the previous export")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "explorer",
            "export",
            "--text-file",
            "long.txt",
            "-E",
            "256",
            "-H",
            "8",
            "-D",
            "32",
            "-L",
            "2",
            "-o",
            str(target),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]:
            assert proc.poll() is None and time.monotonic() < deadline, "the export ended before it began writing"
            time.sleep(0.005)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err[-2000:]
    assert "wrote" not in out and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.npz", "long.txt"]
    assert target.read_bytes() == b"the previous export"


# SIGTERM lands the moment the temporary file (or folder) exists, before its name is back in atomic_path's
# hands: the window where CI once saw a `.run.json….part` survive a SIGTERM during training.
SIGTERM_AT_CREATION = textwrap.dedent("""
    import os, signal, sys, tempfile
    from explorer.util.fileio import atomic_dir, atomic_path
    real = {"mkstemp": tempfile.mkstemp, "mkdtemp": tempfile.mkdtemp}
    def signalled(name):
        def make(*a, **k):
            made = real[name](*a, **k)
            os.kill(os.getpid(), signal.SIGTERM)  # the handler runs here, before `made` is returned
            return made
        return make
    tempfile.mkstemp, tempfile.mkdtemp = signalled("mkstemp"), signalled("mkdtemp")
    target = sys.argv[2]
    if sys.argv[1] == "file":
        with atomic_path(target) as tmp:
            open(tmp, "wb").write(b"new")
    else:
        with atomic_dir(target) as tmp:
            open(os.path.join(tmp, "f"), "wb").write(b"new")
    print("finished")
""")


@pytest.mark.parametrize("kind", ["file", "dir"])
def test_sigterm_as_the_temporary_is_created_leaves_nothing(tmp_path, kind):
    target = tmp_path / "run.json"
    target.write_bytes(b"old") if kind == "file" else (target.mkdir(), (target / "f").write_bytes(b"old"))
    done = subprocess.run(
        [sys.executable, "-c", SIGTERM_AT_CREATION, kind, str(target)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 143, done.stderr[-2000:]
    assert "finished" not in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]
    assert (target if kind == "file" else target / "f").read_bytes() == b"old"


HALF_BUILT = textwrap.dedent(
    """
    import os, signal
    from explorer.util.temporaries import cleanup_on_sigterm

    class HalfBuilt:  # as numpy's ZipFile when the signal lands inside its __init__
        def __init__(self):
            os.kill(os.getpid(), signal.SIGTERM)
            self.ready = True

        def __del__(self):
            self.ready  # AttributeError: __init__ was cut short

    with cleanup_on_sigterm():
        HalfBuilt()
    print("not ended")
    """
)


def test_sigterm_inside_an_objects_init_ends_without_a_traceback():
    """A loaded run's SIGTERM landed inside numpy's ZipFile.__init__; the half-built ZipFile's finalizer then
    printed "Exception ignored in … Traceback" as the export ended."""
    proc = subprocess.run(
        [sys.executable, "-c", HALF_BUILT],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 143 and "not ended" not in proc.stdout
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr
