"""Offline: the command line never opens a network connection.

In-process, socket connections (and name lookups) raise and are recorded; as real processes, a
sitecustomize.py on PYTHONPATH does the same before anything else is imported. HF_HUB_OFFLINE=1 is set as
well, as a user working offline would. export, info, train a few steps and eval must all pass. (The window is
checked in tests/ui/test_offline_window.py.)
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from explorer.cli import main

BLOCKER = textwrap.dedent(
    """
    # Installed by tests/cli/test_offline.py: any network connection from this process is refused and logged.
    import os, socket

    _LOG = os.environ["ATTENTION_EXPLORER_NET_LOG"]

    def _refuse(what):
        def refuse(*args, **kwargs):
            with open(_LOG, "a") as fh:
                fh.write(f"{what} {args[1:2] if what.startswith('socket.') else args[:1]}\\n")
            raise OSError(f"network access is blocked in this test ({what})")
        return refuse

    _connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex

    def _inet_only(real, what):
        def guarded(self, *args, **kwargs):
            if self.family in (socket.AF_INET, socket.AF_INET6):
                return _refuse(what)(self, *args, **kwargs)
            return real(self, *args, **kwargs)
        return guarded

    socket.socket.connect = _inet_only(_connect, "socket.connect")
    socket.socket.connect_ex = _inet_only(_connect_ex, "socket.connect_ex")
    socket.create_connection = _refuse("create_connection")
    socket.getaddrinfo = _refuse("getaddrinfo")
    """
)


@pytest.fixture
def offline(monkeypatch, tmp_path):
    """Sockets blocked in this process; returns the list of attempts."""
    attempts: list[str] = []

    def refuse(what):
        def blocked(*args, **kwargs):
            attempts.append(f"{what} {args[1:2]}")
            raise OSError(f"network access is blocked in this test ({what})")

        return blocked

    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def inet_only(real, what):
        def guarded(self, *args, **kwargs):
            if self.family in (socket.AF_INET, socket.AF_INET6):
                return refuse(what)(self, *args, **kwargs)
            return real(self, *args, **kwargs)

        return guarded

    monkeypatch.setattr(socket.socket, "connect", inet_only(real_connect, "connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", inet_only(real_connect_ex, "connect_ex"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return attempts


def test_the_blocker_blocks(offline):
    with pytest.raises(OSError, match="blocked"):
        socket.create_connection(("127.0.0.1", 9))
    with pytest.raises(OSError, match="blocked"):
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect(("127.0.0.1", 9))
    assert len(offline) == 2
    offline.clear()


def test_cli_in_process_with_sockets_blocked(offline, tmp_path, capsys):
    snap = tmp_path / "s.safetensors"
    assert main(["export", "This is a pen .", "-o", str(snap)]) == 0
    assert main(["info", str(snap)]) == 0
    run = tmp_path / "run"
    assert (
        main(
            [
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
                "3",
                "--batch-size",
                "4",
                "--out",
                str(run),
                "-q",
            ]
        )
        == 0
    )
    assert main(["eval", str(run / "step-000003")]) == 0
    assert main(["export", "This is a pen .", "--model", str(run / "step-000003"), "-o", str(tmp_path / "m.npz")]) == 0
    capsys.readouterr()
    assert offline == []


def test_cli_processes_with_sockets_blocked(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    log = tmp_path / "net.log"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        "ATTENTION_EXPLORER_NET_LOG": str(log),
        "HF_HUB_OFFLINE": "1",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    probe = subprocess.run(
        [sys.executable, "-c", "import socket; socket.create_connection(('127.0.0.1', 9))"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert probe.returncode != 0 and "blocked" in probe.stderr and log.exists()  # the blocker is in force
    log.unlink()

    def spawn(*args):
        return subprocess.Popen(
            [sys.executable, "-m", "explorer", *args],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def finish(p):
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert "Traceback" not in err

    first = [
        spawn("export", "This is a pen .\nIs this a dog ?", "-o", "s.npz"),
        spawn(
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
            "3",
            "--batch-size",
            "4",
            "--out",
            "run",
            "-q",
        ),
    ]
    for p in first:
        finish(p)
    for p in [spawn("info", "s.npz"), spawn("eval", str(Path("run") / "step-000003"))]:
        finish(p)
    assert not log.exists(), log.read_text()
