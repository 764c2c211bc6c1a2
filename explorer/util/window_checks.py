"""What the desktop window needs before Qt starts, checked without Qt: a size a screen and memory can hold,
and a display to open on. Both ``attention-explorer gui`` (explorer/cli/gui_cmd.py) and the Python API's
``show()`` (explorer/api/show.py) ask here, so that a notebook hears the same one line as the terminal.

Without a display Qt aborts the process with a multi-line message and exit code 134, which no user can act on.
"""

from __future__ import annotations

import os
import re
import socket
import sys
from pathlib import Path

from explorer.errors import ConfigError, SnapshotError
from explorer.util.printable import quoted

MAX_SIDE = 16_384  # px: beyond what any screen shows; a larger window is a typo and gigabytes of pixels
MAX_PIXELS = 8_192 * 8_192  # one grab of the window is 4 bytes a pixel: at most 256 MiB
MIN_SIDE = 200  # px: smaller shows nothing legible
_SIZE = re.compile(r"^\s*(\d{1,9})\s*[x×X]\s*(\d{1,9})\s*$")

# Qt platforms that need no display server (and those that draw straight on a screen without one).
HEADLESS_PLATFORMS = {"offscreen", "minimal", "vnc", "eglfs", "linuxfb", "vkkhrdisplay", "minimalegl"}
ADVICE = (
    "Run it on a desktop, set DISPLAY (X11) or WAYLAND_DISPLAY, or save a picture without one: "
    "QT_QPA_PLATFORM=offscreen attention-explorer gui --screenshot out.png"
)
NO_DISPLAY = "no display: the window needs a desktop session. " + ADVICE


def parse_size(text: str) -> tuple[int, int]:
    """``1600x1000`` → (1600, 1000); anything else, or a size no screen or memory can hold, is refused."""
    m = _SIZE.match(text or "")
    if not m:
        raise ConfigError(f"--size takes WIDTHxHEIGHT, e.g. 1600x1000; got {quoted(text)}")
    w, h = int(m.group(1)), int(m.group(2))
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE) or w * h > MAX_PIXELS:
        raise ConfigError(
            f"--size {w}x{h} is out of range: each side from {MIN_SIDE} to {MAX_SIDE} px and at most "
            f"{MAX_PIXELS:,} pixels in all (e.g. 1920x1080)"
        )
    return w, h


def _x11_display_usable(display: str) -> bool:
    """Whether an X server answers at ``display`` (``:0``, ``:1.0``, ``unix:0``, ``host:0``)."""
    host, _, rest = display.rpartition(":")
    number = rest.split(".", 1)[0]
    if not number.isdigit():
        return False
    if host not in ("", "unix"):
        return True  # a remote display (ssh -X): cannot be checked cheaply; let Qt try
    path = f"/tmp/.X11-unix/X{number}"
    for address in ("\0" + path, path):  # Linux servers also listen on the abstract socket
        if address.startswith("\0") and not sys.platform.startswith("linux"):
            continue
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(1.0)
                s.connect(address)
            return True
        except OSError:
            continue
    return False


def _wayland_display_usable(name: str, runtime_dir: str | None) -> bool:
    """Whether the compositor's socket is there (a name is relative to XDG_RUNTIME_DIR)."""
    if os.path.isabs(name):
        return Path(name).exists()
    return bool(runtime_dir) and (Path(runtime_dir) / name).exists()


def check_display(env: dict[str, str] | None = None) -> None:
    """Refuse to start the window when there is no display it could open (Linux and other X11 systems)."""
    env = os.environ if env is None else env
    if sys.platform.startswith(("win", "darwin")):
        return
    platform = env.get("QT_QPA_PLATFORM", "").split(":", 1)[0].strip().lower()
    candidates = [p.strip() for p in platform.split(";") if p.strip()]  # Qt accepts fallbacks: "wayland;xcb"
    if any(p in HEADLESS_PLATFORMS for p in candidates):
        return
    display, wayland = env.get("DISPLAY", ""), env.get("WAYLAND_DISPLAY", "")
    x11_ok = bool(display) and (not candidates or "xcb" in candidates) and _x11_display_usable(display)
    wayland_ok = (
        bool(wayland)
        and (not candidates or any(p.startswith("wayland") for p in candidates))
        and _wayland_display_usable(wayland, env.get("XDG_RUNTIME_DIR"))
    )
    if x11_ok or wayland_ok:
        return
    if candidates and not any(p == "xcb" or p.startswith("wayland") for p in candidates):
        return  # a platform this check does not know (a plugin of the user's own): let Qt decide
    if display or wayland:
        which = f"DISPLAY={display}" if display else f"WAYLAND_DISPLAY={wayland}"
        raise ConfigError(f"no display: {which} does not answer. {ADVICE}")
    raise ConfigError(NO_DISPLAY)


def check_screenshot_target(shot: Path) -> None:
    """A picture that could not be written there is refused before the start-up and the first trace, not after."""
    from explorer.util.fileio import check_writable_target

    check_writable_target(shot)
    if not shot.parent.is_dir():  # `afile/x.png` names the file in the way, not a missing folder
        import errno

        from explorer.util.fileio import describe_os_error

        missing = not any(p.exists() and not p.is_dir() for p in shot.parents)
        raise SnapshotError(describe_os_error(OSError(errno.ENOENT if missing else errno.ENOTDIR, ""), shot))
