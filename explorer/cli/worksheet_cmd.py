"""``attention-explorer worksheet TEXT --preset seed-toy -o sheet.pdf [--answers key.pdf]``: exercises a
student does by hand on the note's toy sizes, with the numbers of this sentence and seed, and their key."""

from __future__ import annotations

import argparse
import sys

from explorer import vocab
from explorer.cli.model_options import add_model_options, bundle_from_args, options_from_args, text_from_args


def add_parser(sub) -> None:
    p = sub.add_parser("worksheet", help="exercises by hand with this sentence's own numbers (PDF), and their key")
    p.add_argument("text", nargs="?", help="the text; each line is one sentence of the batch")
    p.add_argument("--text-file", metavar="FILE", help="read the text from a UTF-8 file instead")
    p.add_argument(
        "--exercises", metavar="LIST", help="some of qk,scale,mask,softmax,av,wo,prob, in the order given (default all)"
    )
    p.add_argument(
        "--anatomy",
        metavar="STAGE:LAYER:HEAD:QUERY[:COLUMN]",
        help="instead, one number's anatomy step by step (COLUMN: the key, an output column, or nN a neuron)",
    )
    p.add_argument("--row", type=int, default=0, help="sentence of the batch, from 0")
    p.add_argument("--head", type=int, default=0, help="the head the exercises use, from 0")
    p.add_argument("-o", "--output", required=True, metavar="SHEET.pdf", help="the worksheet: inputs and room to write")
    p.add_argument("--answers", metavar="KEY.pdf", help="also write the key: every answer, to the digits asked")
    p.add_argument("--language", choices=vocab.LANGUAGES, default="en", help="language of the instructions")
    add_model_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from explorer.cli.interrupts import noted_interrupts

    with noted_interrupts():  # Ctrl-C while the model loads is "interrupted", never "damaged file"
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from explorer.errors import ConfigError
    from explorer.handouts.worksheet import check_small, exercises_for, parse_exercises
    from explorer.util.fileio import check_writable_target

    outputs = [Path(args.output)] + ([Path(args.answers)] if args.answers else [])
    for out in outputs:
        if out.suffix.lower() != ".pdf":
            raise ConfigError(f"a worksheet is a .pdf file, got {str(out)!r}")
        check_writable_target(out)
    if args.answers and Path(args.answers).resolve() == Path(args.output).resolve():
        raise ConfigError("--answers must name another file than -o")
    exercises = parse_exercises(args.exercises)
    cell = _anatomy_cell(args)
    text = text_from_args(args)
    bundle = bundle_from_args(args)
    from explorer.trace import run_trace  # torch loads here, not when the CLI starts

    trace = run_trace(bundle, text, options_from_args(args, bundle.config))  # an encoder's own mask: none
    for notice in trace.notices:
        print(f"note: {notice}", file=sys.stderr)
    check_small(trace, args.row)  # --row past the last sentence: one line, before the sheet's heading reads it
    if cell is None:  # the --anatomy sheet has no next-token exercise to leave out
        exercises = exercises_for(trace.config, exercises, asked=args.exercises is not None)
    from explorer.ui.printing.headless import drawing_application

    drawing_application(args.language)
    from explorer.ui.printing.worksheet_export import about, write_worksheet

    model = args.model or args.preset
    seed = args.seed if args.seed is not None else getattr(bundle, "seed", None)
    if cell is not None:
        from explorer.ui.printing.anatomy_worksheet import write_anatomy_worksheet

        for path in write_anatomy_worksheet(trace, args.output, args.answers, cell, model, seed, args.language):
            print(f"wrote {path}")
        return 0
    for path in write_worksheet(
        trace, args.output, args.answers, about(trace, model, seed, args.row, args.head), exercises, args.row, args.head
    ):
        print(f"wrote {path}")
    return 0


def _anatomy_cell(args: argparse.Namespace):
    """The cell of ``--anatomy`` (its sentence is ``--row``), or None; the sheet is that exercise alone."""
    from dataclasses import replace

    from explorer.errors import ConfigError
    from explorer.handouts.anatomy_exercise import parse_cell

    if args.anatomy is None:
        return None
    if args.exercises:
        raise ConfigError("--anatomy makes a sheet of its own: leave out --exercises")
    return replace(parse_cell(args.anatomy), sentence=args.row)
