"""`attention-explorer gui` from the command line, as real processes: no display is one error line (never a
Qt abort), --size is checked before anything is built, and --screenshot writes a PNG of exactly the size
asked for, the way snapshots are written (atomically, never through a link, the old file kept on failure)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.cli.gui_cmd import parse_size
from explorer.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _gui(
    tmp_path: Path, *args: str, env: dict | None = None, prelude: str = "", umask: int = -1, timeout: int = 180
) -> subprocess.CompletedProcess:
    """``python -m explorer gui ARGS``; ``prelude``: Python run in the child first (a resource limit). Not a
    preexec_fn: that runs Python between fork and exec, which can deadlock in a process with threads (the
    test worker's torch and Qt threads), and Popen itself would then wait for ever."""
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    base.update(PYTHONPATH=str(ROOT), XDG_CONFIG_HOME=str(tmp_path / "config"))
    command = (
        [sys.executable, "-m", "explorer"]
        if not prelude
        else [
            sys.executable,
            "-c",
            f"{prelude}\nimport runpy\nrunpy.run_module('explorer', run_name='__main__', alter_sys=True)",
        ]
    )
    return subprocess.run(
        [*command, "gui", *args],
        env={**base, **(env or {})},
        umask=umask,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=tmp_path,
    )


def _one_error_line(res: subprocess.CompletedProcess) -> str:
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2, res.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr[-2000:]
    return lines[0]


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")  # the IHDR chunk


# ------------------------------------------------------------------------------------------ no display


@pytest.mark.parametrize(
    "env",
    [{}, {"QT_QPA_PLATFORM": "xcb"}, {"DISPLAY": ":93"}, {"WAYLAND_DISPLAY": "wayland-93"}],
    ids=["nothing-set", "xcb-without-display", "display-not-answering", "wayland-not-there"],
)
def test_no_display_is_one_error_line_and_exit_2(tmp_path, env):
    """Qt aborted with exit code 134 and its multi-line xcb message; now the check runs before Qt starts."""
    if env.get("DISPLAY") and Path("/tmp/.X11-unix/X93").exists():
        pytest.skip("a display :93 exists here")
    res = _gui(tmp_path, env={"XDG_RUNTIME_DIR": str(tmp_path), **env}, timeout=60)
    line = _one_error_line(res)
    assert line.startswith("error: no display")
    for advice in ("desktop", "DISPLAY", "QT_QPA_PLATFORM=offscreen", "--screenshot"):
        assert advice in line


def test_the_default_command_without_a_display_says_the_same(tmp_path):
    """`make run` runs `attention-explorer gui`; without a subcommand the window is the default."""
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    res = subprocess.run(
        [sys.executable, "-m", "explorer"],
        env={**base, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert _one_error_line(res).startswith("error: no display")


# --------------------------------------------------------------------------------------------- --size


@pytest.mark.parametrize("size", ["99999999999x5", "20000x20000", "0x5", "abc", "16385x300", "100x100", "1x", "-5x300"])
def test_malformed_or_huge_sizes_are_one_error_line(tmp_path, size):
    res = _gui(tmp_path, f"--size={size}", "--screenshot", "x.png", env={"QT_QPA_PLATFORM": "offscreen"}, timeout=60)
    assert "--size" in _one_error_line(res)
    assert not (tmp_path / "x.png").exists()


def test_size_parsing():
    assert parse_size("1600x1000") == (1600, 1000)
    assert parse_size(" 1366 X 768 ") == (1366, 768)
    assert parse_size("16384x4096") == (16384, 4096)
    for bad in ("16384x16384", "20000x200", "199x800", "1e3x800", "1600x1000x3", ""):
        with pytest.raises(ConfigError):
            parse_size(bad)


# ------------------------------------------------------------------------------------------ screenshots


def test_a_screenshot_has_exactly_the_size_asked_for_and_ordinary_permissions(tmp_path):
    out = tmp_path / "small.png"
    res = _gui(
        tmp_path,
        "--screenshot",
        str(out),
        "--size",
        "640x400",
        "--preset",
        "seed-toy",
        env={"QT_QPA_PLATFORM": "offscreen"},
        umask=0o022,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert _png_size(out) == (640, 400)  # smaller than the docks' minimum: the window is not enlarged
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_screenshot_onto_a_link_replaces_the_link_and_not_its_target(tmp_path):
    real = tmp_path / "slides" / "precious.png"
    real.parent.mkdir()
    real.write_bytes(b"the teacher's picture")
    link = tmp_path / "link.png"
    link.symlink_to(real)
    res = _gui(
        tmp_path,
        "--screenshot",
        str(link),
        "--size",
        "640x400",
        "--preset",
        "seed-toy",
        env={"QT_QPA_PLATFORM": "offscreen"},
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert real.read_bytes() == b"the teacher's picture"
    assert not link.is_symlink() and _png_size(link) == (640, 400)


def test_a_failed_screenshot_keeps_the_old_file_says_no_wrote_and_fails(tmp_path):
    """A write that fails part-way (here: a file-size limit of 20 kB, as a full disk would) leaves the old
    PNG whole; the command said `wrote …` and exited 0 after truncating it in place."""
    out = tmp_path / "shot.png"
    old = PNG_MAGIC + b"old picture" * 10
    out.write_bytes(old)

    limit_file_size = (
        "import resource, signal\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"  # a write past the limit fails (EFBIG) instead of killing
        "resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))"
    )
    res = _gui(
        tmp_path,
        "--screenshot",
        str(out),
        "--size",
        "1400x900",
        "--preset",
        "seed-toy",
        env={"QT_QPA_PLATFORM": "offscreen"},
        prelude=limit_file_size,
    )
    assert res.returncode != 0
    assert "wrote" not in res.stdout
    assert "error: cannot write" in res.stderr and "Traceback" not in res.stderr
    assert out.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "config") == ["shot.png"]


@pytest.mark.parametrize("kind", ["folder", "fifo", "dev-null", "missing-folder"])
def test_a_screenshot_onto_something_that_is_not_a_file_is_refused_at_once(tmp_path, kind):
    target = tmp_path / "t.png"
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-null":
        target = Path("/dev/null")
    else:
        target = tmp_path / "no-such-folder" / "t.png"
    res = _gui(tmp_path, "--screenshot", str(target), env={"QT_QPA_PLATFORM": "offscreen"}, timeout=60)
    assert "cannot write" in _one_error_line(res)
    assert not target.exists() or not stat.S_ISREG(os.lstat(target).st_mode)


def test_a_display_that_answers_is_accepted(tmp_path):
    """The check lets a real display through: an X server's socket (here a listening stand-in), a Wayland
    socket in XDG_RUNTIME_DIR, or a headless platform."""
    import socket

    from explorer.cli.gui_cmd import check_display

    number = 4242 + os.getpid() % 1000
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(f"\0/tmp/.X11-unix/X{number}")  # the abstract socket X servers listen on (Linux)
    server.listen(1)
    try:
        check_display({"DISPLAY": f":{number}"})
        check_display({"DISPLAY": f":{number}.0", "QT_QPA_PLATFORM": "xcb"})
    finally:
        server.close()
    (tmp_path / "wayland-7").touch()
    check_display({"WAYLAND_DISPLAY": "wayland-7", "XDG_RUNTIME_DIR": str(tmp_path)})
    check_display({"QT_QPA_PLATFORM": "offscreen"})
    with pytest.raises(ConfigError, match="does not answer"):
        check_display({"DISPLAY": f":{number}"})  # the server is gone


# ------------------------------------------------------------------------------------------ --generate


@pytest.mark.parametrize("n", ["0", "257"])
def test_generate_out_of_range_is_one_error_line(tmp_path, n):
    res = _gui(tmp_path, "--generate", n, "--screenshot", "x.png", env={"QT_QPA_PLATFORM": "offscreen"}, timeout=60)
    assert "--generate takes a number of new tokens from 1 to 256" in _one_error_line(res)


def test_a_screenshot_with_generate_waits_for_the_generation(tmp_path):
    """The picture is taken once the generation is there: had it never come, the wait times out (exit 1)."""
    out = tmp_path / "gen.png"
    res = _gui(
        tmp_path,
        "--screenshot",
        str(out),
        "--size",
        "1366x768",
        "--generate",
        "3",
        "--text",
        "This is a",
        env={"QT_QPA_PLATFORM": "offscreen", "ATTENTION_EXPLORER_SCREENSHOT_TIMEOUT_MS": "60000"},
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert _png_size(out) == (1366, 768)
