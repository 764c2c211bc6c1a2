"""The real command line may end its process as soon as its command is done (gui_cmd._leave_now: no
interpreter teardown of Qt and torch after a --screenshot); a caller in the same process (tests, the API)
never is. A refactor that moved the check into a function taking the argument list made it always false."""

from __future__ import annotations

import sys

import explorer.cli as cli


def _seen_whole_process(monkeypatch, argv_given):
    seen = {}

    def run(args):
        seen["whole_process"] = args.whole_process
        return 0

    monkeypatch.setattr(sys, "argv", ["attention-explorer", "info", "--models"])
    parser = cli.build_parser()
    info = parser._subparsers._group_actions[0].choices["info"]
    info.set_defaults(func=run)
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    assert cli.main(argv_given) == 0
    return seen["whole_process"]


def test_the_real_command_line_is_a_whole_process(monkeypatch):
    assert _seen_whole_process(monkeypatch, None) is True


def test_a_caller_in_the_same_process_is_not(monkeypatch):
    assert _seen_whole_process(monkeypatch, ["info", "--models"]) is False
