"""``attention-explorer gui``: the desktop window (the default command); ``--screenshot`` saves it as PNG."""

from __future__ import annotations

import argparse

from explorer.errors import ConfigError
from explorer.stages import STAGE_KEYS


def add_parser(sub) -> None:
    p = sub.add_parser("gui", help="open the desktop window (default)")
    p.add_argument("--text", help="text to trace first (each line one sentence)")
    p.add_argument("--preset", help="preset to open")
    p.add_argument("--model", metavar="PATH_OR_NAME", help="model to open: checkpoint or HF folder, GGUF file, or a name")
    p.add_argument("--snapshot", metavar="PATH", help="open a saved snapshot (read-only)")
    p.add_argument("--stage", choices=STAGE_KEYS, help="stage to show first")
    p.add_argument("--language", choices=["en", "ja"], help="interface language (default: remembered, else the system's)")
    p.add_argument("--theme", choices=["system", "light", "dark"], help="colour theme")
    p.add_argument("--screenshot", metavar="PATH", help="wait for the first trace, save the window as PNG, exit")
    p.add_argument("--size", metavar="WxH", help="window size, e.g. 1600x1000")
    p.add_argument("--presentation", action="store_true", help="start in presentation mode")
    p.add_argument("--lesson", metavar="FILE|builtin", help="play a lesson (docs/lessons.md); builtin: the lecture note")
    p.add_argument("--step", type=int, metavar="N", help="with --lesson: the step to show first, counted from 1")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
            size = (w, h)
        except ValueError:
            raise ConfigError(f"--size takes WIDTHxHEIGHT, e.g. 1600x1000; got {args.size!r}") from None
    lesson, step = None, (args.step if args.step is not None else 1) - 1
    if args.lesson:  # read before any window exists: a bad file is the command's one `error:` line
        from explorer.lessons import read_lesson, resolve

        lesson = read_lesson(args.lesson)
        resolve(lesson, step)  # a step past the end is refused here too
    elif args.step is not None:
        raise ConfigError("--step needs --lesson")
    from explorer.ui.app import launch

    return launch(
        text=args.text, preset=args.preset, model=args.model, snapshot=args.snapshot, stage=args.stage,
        language=args.language, theme_name=args.theme, screenshot=args.screenshot, size=size,
        presentation=args.presentation, lesson=lesson, step=step,
    )
