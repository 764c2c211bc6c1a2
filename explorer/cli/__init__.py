"""The ``attention-explorer`` command. Headless: only the ``gui`` subcommand imports the Qt layer.

Every failure the user can fix ends with ``error: <one line>`` on stderr and a non-zero exit code,
never a Python traceback.
"""

from __future__ import annotations

import argparse
import sys

from explorer import __version__
from explorer.errors import Cancelled, ExplorerError

from explorer.cli import export_cmd, generate_cmd, info_cmd

# Each subcommand module has add_parser(subparsers) and run(args) -> int.
COMMANDS = [export_cmd, info_cmd, generate_cmd]


def _optional_commands():
    mods = []
    for name in ("gui_cmd", "train_cmd", "eval_cmd"):
        try:
            mods.append(__import__(f"explorer.cli.{name}", fromlist=["run"]))
        except ModuleNotFoundError as exc:
            if exc.name != f"explorer.cli.{name}":
                raise
    return mods


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="attention-explorer",
        description="Watch every tensor flow through a Transformer: trace, export, inspect, train, generate.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in COMMANDS + _optional_commands():
        mod.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        if any(m.__name__.endswith("gui_cmd") for m in _optional_commands()):
            args = parser.parse_args(["gui", *(argv or [])])
        else:
            parser.print_help()
            return 0
    try:
        return int(args.func(args) or 0)
    except Cancelled as exc:
        print(f"cancelled: {exc}", file=sys.stderr)
        return exc.exit_code
    except ExplorerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `attention-explorer info x.npz | head`: the reader left; stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
        return 141
    except MemoryError:
        print("error: out of memory: make the model or the text smaller", file=sys.stderr)
        return 3
