"""``attention-explorer gui``: the desktop window (the default command); ``--screenshot`` saves it as PNG.

Everything that can be checked without a window is checked here, before Qt starts: the size asked for and
whether there is a display at all (without one, Qt aborts the process with a multi-line message and
exit code 134, which no user can act on).
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import sys
from pathlib import Path

from explorer import vocab
from explorer.errors import ConfigError, SnapshotError
from explorer.present.stages import STAGE_KEYS
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


def add_parser(sub) -> None:
    p = sub.add_parser("gui", help="open the desktop window (default)")
    p.add_argument("--text", help="text to trace first (each line one sentence)")
    p.add_argument("--preset", help="preset to open")
    p.add_argument(
        "--model", metavar="PATH_OR_NAME", help="model to open: checkpoint or HF folder, GGUF file, or a name"
    )
    p.add_argument("--snapshot", metavar="PATH", help="open a saved snapshot (read-only)")
    p.add_argument("--stage", choices=STAGE_KEYS, help="stage to show first")
    p.add_argument(
        "--language", choices=vocab.LANGUAGES, help="interface language (default: remembered, else the system's)"
    )
    p.add_argument("--theme", choices=vocab.THEMES, help="colour theme")
    p.add_argument(
        "--palette",
        choices=vocab.PALETTES,
        help="colours of the maps, colour bars and bar charts "
        "(default: remembered, else standard; cividis and greyscale for colour-blind readers and printing)",
    )
    p.add_argument(
        "--text-size",
        type=int,
        metavar="PERCENT",
        help="every text and figure at this size, 80 to 300 (default: remembered, else 100)",
    )
    p.add_argument("--screenshot", metavar="PATH", help="wait for the first trace, save the window as PNG, exit")
    p.add_argument("--size", metavar="WxH", help=f"window size, e.g. 1600x1000 (at most {MAX_SIDE} px a side)")
    p.add_argument("--ablate", metavar="L.H[,L.H…]", help="start with these heads ablated (as in export)")
    p.add_argument("--ablate-mode", choices=vocab.ABLATE_MODES, default="zero", help="how --ablate removes a head")
    p.add_argument("--cut", metavar="L.H:I:J[,…]", help="start with these attention edges cut (as in export)")
    p.add_argument("--presentation", action="store_true", help="start in presentation mode")
    p.add_argument(
        "--generate",
        type=int,
        metavar="N",
        help="after the first trace, write N tokens greedily in the Generate "
        "panel (the centre and presentation mode show the generation; --screenshot waits for it)",
    )
    p.add_argument(
        "--lesson", metavar="FILE|builtin", help="play a lesson (docs/lessons.md); builtin: the lecture note"
    )
    p.add_argument("--step", type=int, metavar="N", help="with --lesson: the step to show first, counted from 1")
    p.set_defaults(func=run)


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


TIMEOUT_ENV = "ATTENTION_EXPLORER_SCREENSHOT_TIMEOUT_MS"
MAX_TIMEOUT_MS = 24 * 3600 * 1000  # Qt's timers take 32-bit milliseconds; a day is past any first trace


def check_screenshot_timeout(env: dict[str, str] | None = None) -> None:
    """The screenshot's time limit from the environment: a whole number of milliseconds, checked before Qt
    starts (``abc`` was a traceback, then Qt aborted the process: exit code 134)."""
    raw = (os.environ if env is None else env).get(TIMEOUT_ENV)
    if raw is None:
        return
    text = raw.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 9 and 1 <= int(text) <= MAX_TIMEOUT_MS):
        raise ConfigError(
            f"{TIMEOUT_ENV} must be a whole number of milliseconds from 1 to {MAX_TIMEOUT_MS:,}, got {quoted(raw)}"
        )


def _check_screenshot_target(shot: Path) -> None:
    """Refused before the start-up and the first trace, not after."""
    from explorer.util.fileio import check_writable_target

    check_writable_target(shot)
    if not shot.parent.is_dir():  # `afile/x.png` names the file in the way, not a missing folder
        import errno

        from explorer.util.fileio import describe_os_error

        missing = not any(p.exists() and not p.is_dir() for p in shot.parents)
        raise SnapshotError(describe_os_error(OSError(errno.ENOENT if missing else errno.ENOTDIR, ""), shot))


def _lesson_and_step(args: argparse.Namespace):
    """The lesson of --lesson and the 0-based --step, read before any window exists: a bad file is the
    command's one `error:` line."""
    lesson, step = None, (args.step if args.step is not None else 1) - 1
    if args.lesson:
        from explorer.lessons import read_lesson, resolve

        lesson = read_lesson(args.lesson)
        resolve(lesson, step)  # a step past the end is refused here too
    elif args.step is not None:
        raise ConfigError("--step needs --lesson")
    return lesson, step


def run(args: argparse.Namespace) -> int:
    size = parse_size(args.size) if args.size else None
    if args.screenshot:
        check_screenshot_timeout()
        _check_screenshot_target(Path(args.screenshot))
    check_display()
    lesson, step = _lesson_and_step(args)
    if args.text_size is not None and not 80 <= args.text_size <= 300:
        raise ConfigError(f"--text-size takes a percentage from 80 to 300, got {args.text_size}")
    if args.generate is not None and not 1 <= args.generate <= 256:
        raise ConfigError(f"--generate takes a number of new tokens from 1 to 256, got {args.generate}")
    from explorer.interventions.spec import Interventions, parse_ablate, parse_cut
    from explorer.session.launch import LaunchOptions

    interventions = Interventions(
        ablations=parse_ablate(args.ablate, args.ablate_mode) if args.ablate else (),
        cuts=parse_cut(args.cut) if args.cut else (),
    )
    opened = None
    if args.snapshot:
        # Read before any window exists (and before Qt loads): a damaged snapshot is the command's one-line
        # `error:` (exit 2); read later, its message went to the status bar of a window that closed at once.
        from explorer.export.snapshot import read_snapshot

        opened = read_snapshot(args.snapshot)
    options = LaunchOptions(
        text=args.text,
        preset=args.preset,
        model=args.model,
        snapshot=args.snapshot,
        opened=opened,
        stage=args.stage,
        language=args.language,
        theme=args.theme,
        screenshot=args.screenshot,
        size=size,
        presentation=args.presentation,
        lesson=lesson,
        step=step,
        interventions=interventions,
        generate=args.generate,
        palette=args.palette,
        text_scale=args.text_size / 100 if args.text_size is not None else None,
    )
    from explorer.ui.shell.app import launch

    code = launch(options)
    if getattr(args, "whole_process", False):  # not a caller in the same process (tests)
        _leave_now(code)
    return code


def _leave_now(code: int) -> None:
    """End the process as soon as the window has closed. Everything worth keeping is written by then (the
    settings, the session, a screenshot); what is left is the interpreter's teardown of thousands of Qt
    objects and the libraries' thread pools, which made Ctrl+Q take 3–5 s (issue 22) and 3 of a 13-second
    ``--screenshot`` run on a busy machine (benchmarks/bench_start.py, start_process_vs_floor_ratio)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
