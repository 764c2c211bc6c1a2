"""``attention-explorer gui``: the desktop window (the default command); ``--screenshot`` saves it as PNG.

Everything that can be checked without a window is checked here, before Qt starts: the size asked for,
whether there is a display at all (explorer/util/window_checks.py), and the selection asked for when a
snapshot is given (its model is known, so a head it does not have is the command's one `error:` line).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from explorer import vocab
from explorer.errors import ConfigError
from explorer.present.stages import STAGE_KEYS
from explorer.util.printable import quoted
from explorer.util.window_checks import MAX_SIDE, check_display, check_screenshot_target, parse_size

__all__ = ["add_parser", "check_display", "check_screenshot_timeout", "parse_size", "run"]  # two from util, as before


def add_parser(sub) -> None:
    p = sub.add_parser("gui", help="open the desktop window (default)")
    p.add_argument("--text", help="text to trace first (each line one sentence)")
    p.add_argument("--preset", help="preset to open")
    p.add_argument(
        "--model", metavar="PATH_OR_NAME", help="model to open: checkpoint or HF folder, GGUF file, or a name"
    )
    p.add_argument("--snapshot", metavar="PATH", help="open a saved snapshot (read-only)")
    # The Python API's show() opens a snapshot it removes when the window closes: kept off the recent files.
    p.add_argument("--temporary-snapshot", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--stage", choices=STAGE_KEYS, help="stage to show first")
    for flag, metavar, what in (
        ("--layer", "L", "layer"),
        ("--head", "H", "head"),
        ("--row", "R", "sentence of the text"),
        ("--token", "I", "query token (a row of every map)"),
        ("--key", "J", "key token (a column), with --token"),
    ):
        p.add_argument(flag, type=int, metavar=metavar, help=f"{what} to select first, counted from 0")
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


def _asked_selection(args: argparse.Namespace, opened) -> dict[str, int]:
    """--layer, --head, --row, --token, --key as given. Against a snapshot (``opened``: its model is known)
    a value it cannot show is the command's one `error:` line; a live model's are checked by the window once
    its first trace is there (a note, and that value left out)."""
    from explorer.session.selecting import ASKABLE, unshowable

    asked = {name: getattr(args, name) for name in ASKABLE if getattr(args, name) is not None}
    for name, value in asked.items():
        if value < 0:
            raise ConfigError(f"--{name} counts from 0, got {value}")
    if "key" in asked and "token" not in asked:
        raise ConfigError("--key needs --token (a key is a column of the query token's row)")
    if opened is not None:
        problems = unshowable(opened, asked)
        if problems:
            raise ConfigError(problems[0][1])
    return asked


def _refuse_encoder_generation(args: argparse.Namespace, opened) -> None:
    """``--generate N`` with an encoder: refused before the window, whose screenshot otherwise waited for a
    generation that never comes until its whole timeout ("timed out waiting for the first trace")."""
    from explorer.weights.catalog import own_mask

    encoder = (
        getattr(opened.config, "mlm_head", False)
        if opened is not None
        else bool(args.model) and own_mask(args.model) == "none"
    )
    if encoder:
        raise ConfigError(
            "--generate: an encoder (BERT, RoBERTa, DistilBERT) fills in a [MASK]; it does not write text token by "
            "token"
        )


def _check_ranges(args: argparse.Namespace) -> None:
    if args.text_size is not None and not 80 <= args.text_size <= 300:
        raise ConfigError(f"--text-size takes a percentage from 80 to 300, got {args.text_size}")
    if args.generate is not None and not 1 <= args.generate <= 256:
        raise ConfigError(f"--generate takes a number of new tokens from 1 to 256, got {args.generate}")


def run(args: argparse.Namespace) -> int:
    size = parse_size(args.size) if args.size else None
    if args.screenshot:
        check_screenshot_timeout()
        check_screenshot_target(Path(args.screenshot))
    check_display()
    lesson, step = _lesson_and_step(args)
    _check_ranges(args)
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
    if args.generate is not None:
        _refuse_encoder_generation(args, opened)
    asked = _asked_selection(args, opened)
    options = LaunchOptions(
        text=args.text,
        preset=args.preset,
        model=args.model,
        snapshot=args.snapshot,
        temporary_snapshot=args.temporary_snapshot,
        opened=opened,
        stage=args.stage,
        **asked,
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

    try:
        code = launch(options)
    finally:
        if args.temporary_snapshot and args.snapshot:
            from explorer.api.show import remove_temporary_snapshot

            remove_temporary_snapshot(args.snapshot)
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
