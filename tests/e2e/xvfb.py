"""One way for the end-to-end tests to start an X server: Xvfb chooses a free display number itself.

Each module used to scan a range of numbers for one without a socket and start Xvfb on it. Two modules on two
test workers could pick the same number at the same moment: the second server exited ("already active"), its
module went on with the first one's display, and lost it when that module ended ("could not connect to
display :120" in a fresh-clone CI run). With ``-displayfd`` the server takes the lock itself and writes the
number it holds once it accepts connections.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import time

import pytest

XVFB = shutil.which("Xvfb")
INSTALL = "sudo apt-get install $(cat packaging/debian-packages.txt)"


def start_xvfb(size: str = "1600x1000", timeout_s: float = 30) -> tuple[subprocess.Popen, str]:
    """A new Xvfb screen of ``size`` (WxH); returns the process and its display (":N"), ready to connect."""
    if XVFB is None:
        pytest.skip(f"Xvfb is not installed ({INSTALL})")
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        [XVFB, "-displayfd", str(write_end), "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_end,),
    )
    os.close(write_end)
    try:
        number = _read_number(read_end, proc, timeout_s)
    finally:
        os.close(read_end)
    if number is None:
        proc.kill()
        proc.wait(5)
        pytest.fail("Xvfb did not start")
    return proc, f":{number}"


def _read_number(fd: int, proc: subprocess.Popen, timeout_s: float) -> str | None:
    got, deadline = b"", time.monotonic() + timeout_s
    while not got.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or (proc.poll() is not None and not select.select([fd], [], [], 0)[0]):
            return None
        if select.select([fd], [], [], min(left, 0.5))[0]:
            chunk = os.read(fd, 64)
            if not chunk:  # the server closed it without a number
                return None
            got += chunk
    return got.decode().strip() or None


def stop_xvfb(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)
