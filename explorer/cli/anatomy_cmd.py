"""``attention-explorer anatomy TEXT --stage S --layer L --head H --query I [--key J | --dim K | --neuron N]``:
how one number of the trace is made, step by step with the model's own numbers (op, operands, result and
the running sum); ``--json`` prints them as one JSON object."""

from __future__ import annotations

import argparse
import sys

from explorer import vocab
from explorer.anatomy import ANATOMY_STAGES
from explorer.anatomy.cell import PARTS
from explorer.cli.model_options import (
    add_model_options,
    bundle_from_args,
    check_layers,
    options_from_args,
    text_from_args,
)
from explorer.util.printable import json_text


def add_parser(sub) -> None:
    p = sub.add_parser("anatomy", help="how one number of the trace is made, step by step with its real values")
    p.add_argument("text", nargs="?", help="the text; each line is one sentence of the batch")
    p.add_argument("--text-file", metavar="FILE", help="read the text from a UTF-8 file instead")
    c = p.add_argument_group("the number")
    c.add_argument("--stage", required=True, choices=ANATOMY_STAGES, help="the stage whose number is explained")
    c.add_argument("--layer", type=int, default=0, metavar="L", help="layer (default 0)")
    c.add_argument("--head", type=int, default=0, metavar="H", help="query head (default 0)")
    c.add_argument("--sentence", type=int, default=0, metavar="S", help="sentence of the batch (default 0)")
    c.add_argument("--query", type=int, required=True, metavar="I", help="the token position (the map's row)")
    which = c.add_mutually_exclusive_group()
    which.add_argument("--key", type=int, metavar="J", help="key position: a cell of scores … weights")
    which.add_argument(
        "--dim", type=int, metavar="K", help="output column (·V, W_o, residual, norms, FFN out, token id)"
    )
    which.add_argument("--neuron", type=int, metavar="N", help="an FFN hidden unit")
    c.add_argument("--part", choices=PARTS, help="the Q K V stage's tensor (default q), with --dim")
    o = p.add_argument_group("output")
    form = o.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print one JSON object: the cell and its steps")
    form.add_argument(
        "--pdf", metavar="STEPS.pdf", help="write the steps as slides instead (A4 landscape, text as text)"
    )
    o.add_argument(
        "--all-terms", action="store_true", help="every term of a long sum (default: the 8 largest + the rest)"
    )
    o.add_argument("--language", choices=vocab.LANGUAGES, default="en", help="the steps' labels (default en)")
    add_model_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.pdf is not None:
        _check_pdf_target(args.pdf)  # one `error:` line before the model loads
    text = text_from_args(args)
    bundle = bundle_from_args(args)
    options = options_from_args(args, bundle.config)
    check_layers(bundle, options)
    from explorer.anatomy import Cell, anatomy
    from explorer.trace import run_trace  # torch loads here, not when the CLI starts

    trace = run_trace(bundle, text, options)
    for notice in trace.notices:
        print(f"note: {notice}", file=sys.stderr)
    cell = Cell(
        args.stage, args.layer, args.head, args.query, args.key, args.dim, args.neuron, args.sentence, args.part
    )
    steps = anatomy(trace, cell, whole=args.all_terms)
    if args.pdf is not None:
        return _write_pdf(trace, cell, steps, args)
    if args.json:
        out = {
            "cell": {k: v for k, v in vars(cell).items() if v is not None},
            "dtype": trace.options.dtype,
            "steps": [s.to_json(args.language) for s in steps],
        }
        print(json_text(out, allow_nan=False))
        return 0
    from explorer.anatomy.text import step_line

    for n, s in enumerate(steps, 1):
        print(f"{n:>3}. {step_line(s, args.language)}")
    return 0


def _check_pdf_target(path: str) -> None:
    from pathlib import Path

    from explorer.errors import ConfigError
    from explorer.util.fileio import check_writable_target

    if Path(path).suffix.lower() != ".pdf":
        raise ConfigError(f"--pdf writes a .pdf file, got {path!r}")
    check_writable_target(Path(path))


def _write_pdf(trace, cell, steps, args: argparse.Namespace) -> int:
    from explorer.handouts.anatomy_pages import WORDS, anatomy_pages
    from explorer.ui.printing.headless import drawing_application

    drawing_application(args.language)
    from explorer.ui.printing.anatomy_export import write_pdf_pages

    scenes = anatomy_pages(trace, cell, steps, args.language)
    pages = write_pdf_pages(scenes, args.pdf, WORDS[args.language]["title"])
    print(f"wrote {args.pdf} ({pages} pages)")
    return 0
