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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
            size = (w, h)
        except ValueError:
            raise ConfigError(f"--size takes WIDTHxHEIGHT, e.g. 1600x1000; got {args.size!r}") from None
    from explorer.ui.app import launch

    return launch(
        text=args.text, preset=args.preset, model=args.model, snapshot=args.snapshot, stage=args.stage,
        language=args.language, theme_name=args.theme, screenshot=args.screenshot, size=size,
        presentation=args.presentation,
    )
