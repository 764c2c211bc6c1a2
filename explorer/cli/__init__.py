"""The ``attention-explorer`` command. Headless: only the ``gui`` subcommand imports the Qt layer.

Every failure the user can fix ends with ``error: <one line>`` on stderr and a non-zero exit code,
never a Python traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys

from explorer import __version__
from explorer.errors import Cancelled, ExplorerError

from explorer.cli import attribute_cmd, export_cmd, generate_cmd, info_cmd

# Each subcommand module has add_parser(subparsers) and run(args) -> int.
COMMANDS = [export_cmd, info_cmd, attribute_cmd, generate_cmd]


def _optional_commands():
    mods = []
    for name in ("gui_cmd", "train_cmd", "eval_cmd", "lesson_cmd", "figure_cmd", "worksheet_cmd"):
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


class _NoteHandler(logging.Handler):
    """The core's warnings (a cache that could not be written, a corpus read only in part) as `note:` lines,
    like every other notice of the command. sys.stderr is looked up at each line, not kept."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"note: {record.getMessage()}", file=sys.stderr)


def _show_warnings_as_notes() -> None:
    logger = logging.getLogger("explorer")
    if not any(isinstance(h, _NoteHandler) for h in logger.handlers):
        handler = _NoteHandler(logging.WARNING)
        logger.addHandler(handler)


def main(argv: list[str] | None = None) -> int:
    _show_warnings_as_notes()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        if any(m.__name__.endswith("gui_cmd") for m in _optional_commands()):
            args = parser.parse_args(["gui", *(argv or [])])
        else:
            parser.print_help()
            return 0
    args.whole_process = argv is None  # the real command line, not a caller in the same process (tests)
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
