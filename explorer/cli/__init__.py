"""The ``attention-explorer`` command. Headless: only the ``gui`` subcommand imports the Qt layer.

Every failure the user can fix ends with ``error: <one line>`` on stderr and a non-zero exit code,
never a Python traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys

from explorer import __version__
from explorer.cli.terminal import (
    OutputLost,
    current_folder_missing,
    discard_stdout,
    flush_stdout,
    guarded_streams,
    output_lost_message,
    reader_left,
    say,
)
from explorer.errors import Cancelled, ExplorerError
from explorer.util.printable import one_line
from explorer.util.temporaries import EXIT_TERM, sigterm_received

# Each subcommand module has add_parser(subparsers) and run(args) -> int. They are imported when a parser is
# built: `gui` (the default) builds one with its own only (the other commands' modules took 0.03 s of a start).
COMMANDS = ("export_cmd", "info_cmd", "attribute_cmd", "generate_cmd", "anatomy_cmd", "compare_cmd")
OPTIONAL = ("gui_cmd", "train_cmd", "eval_cmd", "lesson_cmd", "figure_cmd", "worksheet_cmd", "paint_scene_cmd")


def _optional_commands(names=OPTIONAL):
    mods = []
    for name in names:
        try:
            mods.append(__import__(f"explorer.cli.{name}", fromlist=["run"]))
        except ModuleNotFoundError as exc:
            if exc.name != f"explorer.cli.{name}":
                raise
    return mods


def _commands():
    return [__import__(f"explorer.cli.{name}", fromlist=["run"]) for name in COMMANDS] + _optional_commands()


def _gui_only(argv: list[str]) -> bool:
    """The window's command line (``gui …``, or nothing: the default), when this install has the window."""
    return (not argv or argv[0] == "gui") and bool(_optional_commands(("gui_cmd",)))


MAX_ARGUMENTS = 1000  # far above any real command line; argparse's time grows with the square of the count


class _Parser(argparse.ArgumentParser):
    """argparse whose own errors are one line too: a value it quotes (an unknown option, a bad choice) may
    hold a newline or an escape sequence."""

    def _print_message(self, message: str, file=None) -> None:
        if message:  # argparse swallows a failed write (the --version of `| head` was lost, exit 0): main says it
            (file or sys.stderr).write(message)

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def build_parser(gui_only: bool = False) -> argparse.ArgumentParser:
    """Every command's parser; ``gui_only``: the window's alone (what ``gui …`` and no command parse)."""
    parser = _Parser(
        prog="attention-explorer",
        description="Watch every tensor flow through a Transformer: trace, export, inspect, train, generate.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _optional_commands(("gui_cmd",)) if gui_only else _commands():
        mod.add_parser(sub)
    return parser


class _NoteHandler(logging.Handler):
    """The core's warnings (a cache that could not be written, a corpus read only in part) as `note:` lines,
    like every other notice of the command. sys.stderr is looked up at each line, not kept."""

    def emit(self, record: logging.LogRecord) -> None:
        say("note", record.getMessage())


def _show_warnings_as_notes() -> None:
    logger = logging.getLogger("explorer")
    if not any(isinstance(h, _NoteHandler) for h in logger.handlers):
        handler = _NoteHandler(logging.WARNING)
        logger.addHandler(handler)


def main(argv: list[str] | None = None) -> int:
    """Run one command; every way it can end is an exit code and at most one `error:` line."""
    try:
        code = _guarded_main(argv)
    except BaseException:
        if sigterm_received():  # a SIGTERM that Qt turned into a SystemError or an AttributeError: a stop
            return EXIT_TERM
        raise
    return EXIT_TERM if sigterm_received() else code  # …or that Qt swallowed: the command was still stopped


def _guarded_main(argv: list[str] | None) -> int:
    with guarded_streams():
        try:
            # argv None: the real command line (its process may end as soon as the command is done)
            code = _main(sys.argv[1:] if argv is None else list(argv), whole_process=argv is None)
            flush_stdout()
        except BrokenPipeError:  # `attention-explorer info x.npz | head`: the reader left; stop quietly
            return reader_left()
        except OutputLost as exc:  # `info > /dev/full`: the output is lost, and the exit code says so
            say("error", output_lost_message(exc))
            discard_stdout()
            return 2
        return code


def _main(argv: list[str], whole_process: bool = False) -> int:
    _show_warnings_as_notes()
    if len(argv) > MAX_ARGUMENTS:
        say("error", f"too many arguments ({len(argv):,}); a command takes at most {MAX_ARGUMENTS:,}")
        return 2
    parser = build_parser(gui_only=True) if _gui_only(argv) else build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            if _optional_commands(("gui_cmd",)):
                args = parser.parse_args(["gui", *(argv or [])])
            else:
                parser.print_help()
                return 0
    except SystemExit as exc:  # --help, --version, a usage error: what argparse printed is flushed by main
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    # The real command line, not a caller in the same process (tests). Read here, argv was always a list:
    # --screenshot's process waited for the interpreter's teardown of Qt and torch again (gui_cmd._leave_now).
    args.whole_process = whole_process
    if current_folder_missing():
        say("error", "the current folder no longer exists (it was deleted or moved): change to a folder that exists")
        return 2
    try:
        return int(args.func(args) or 0)
    except Cancelled as exc:
        say("cancelled", str(exc))
        return exc.exit_code
    except ExplorerError as exc:
        say("error", str(exc))
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        say("error", "out of memory: make the model or the text smaller")
        return 3
