"""``attention-explorer figure TEXT --stage S -o OUT.png|svg|pdf``: one stage drawn as the window's central
view draws it, without a window: PNG at any DPI, SVG and PDF as vectors with real text. With ``--compare
TEXT_B``: one head of two runs compared (figure_compare.py)."""

from __future__ import annotations

import argparse
import sys

from explorer import vocab
from explorer.cli.figure_compare import add_compare_options, check_compare_options, run_compare
from explorer.cli.model_options import (
    add_model_options,
    bundle_from_args,
    check_layers,
    options_from_args,
    text_from_args,
)
from explorer.present.stages import STAGE_KEYS


def add_parser(sub) -> None:
    p = sub.add_parser(
        "figure", help="draw one stage as the window shows it: PNG at any DPI, SVG or PDF with real text"
    )
    p.add_argument("text", nargs="?", help="the text; each line is one sentence of the batch")
    p.add_argument("--text-file", metavar="FILE", help="read the text from a UTF-8 file instead")
    p.add_argument(
        "--stage",
        choices=STAGE_KEYS,
        metavar="STAGE",
        help=f"the stage to draw: {', '.join(STAGE_KEYS)} (needed unless --compare)",
    )
    p.add_argument("--layer", type=int, default=0, help="layer (block), from 0")
    p.add_argument("--head", type=int, default=0, help="the head drawn large, from 0")
    p.add_argument(
        "--all-heads",
        action="store_true",
        help="every head of the layer as small maps on one colour scale (scores, scaled, masked, weights)",
    )
    p.add_argument("--columns", type=int, metavar="N", help="with --all-heads: maps per row (default ⌈√heads⌉)")
    p.add_argument("--row", type=int, default=0, help="sentence of the batch, from 0")
    p.add_argument("--token", type=int, help="the selected query token (its row is framed)")
    p.add_argument("--key", type=int, help="the selected key (its column is framed)")
    p.add_argument(
        "--tensor",
        metavar="NAME",
        help="one of the stage's tensors, e.g. embed.tok or layers.0.ffn.hidden (default its main one)",
    )
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT.png|svg|pdf",
        help="the figure's file; its ending chooses the format",
    )
    size = p.add_mutually_exclusive_group()
    size.add_argument(
        "--width-mm", type=float, metavar="W", help="width in millimetres; the height follows the figure (default 160)"
    )
    size.add_argument(
        "--size", metavar="WxH", help="exact size in pixels, e.g. 1920x1080 (text sized for 96 dpi unless --dpi)"
    )
    p.add_argument("--dpi", type=float, help="resolution of a PNG (default 300 with --width-mm, 96 with --size)")
    p.add_argument("--language", choices=vocab.LANGUAGES, default="en", help="language of the figure's words")
    p.add_argument(
        "--theme", choices=vocab.PRINT_THEMES, default="light", help="paper colour (default light, for print)"
    )
    add_compare_options(p)
    add_model_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from explorer.cli.interrupts import noted_interrupts

    check_compare_options(args)
    _check_all_heads(args)
    with noted_interrupts():  # Ctrl-C while the model loads is "interrupted", never "damaged file"
        return run_compare(args) if args.compare is not None else _run(args)


def _check_all_heads(args: argparse.Namespace) -> None:
    from explorer.errors import ConfigError

    if args.columns is not None and not args.all_heads:
        raise ConfigError("--columns lays out --all-heads; add --all-heads")
    if args.all_heads and (args.compare is not None or args.tensor is not None):
        raise ConfigError("--all-heads draws every head's map: not with --compare or --tensor")


def _run(args: argparse.Namespace) -> int:
    import dataclasses
    from pathlib import Path

    from explorer.handouts.sizes import figure_size, output_kind
    from explorer.present.stages import stage
    from explorer.session.request import Selection
    from explorer.util.fileio import check_writable_target

    output_kind(args.output)
    check_writable_target(Path(args.output))  # a device, a FIFO or a folder: refused before any work
    size = figure_size(args.width_mm, args.size, args.dpi)
    text = text_from_args(args)
    bundle = bundle_from_args(args)
    options = options_from_args(args, bundle.config)  # without --mask the model's own: none for an encoder
    check_layers(bundle, options)
    if options.layers_to_capture is None and stage(args.stage).per_layer and 0 <= args.layer < bundle.config.layers:
        options = dataclasses.replace(options, layers_to_capture=(args.layer,))  # only the layer drawn
    from explorer.trace import run_trace  # torch loads here, not when the CLI starts
    from explorer.util.threads import threads_for

    with threads_for(
        bundle.config.parameter_count() * len(text)
    ):  # a small run on one thread (explorer/util/threads.py)
        trace = run_trace(bundle, text, options)
    for notice in trace.notices:
        print(f"note: {notice}", file=sys.stderr)
    sel = Selection(stage=args.stage, layer=args.layer, head=args.head, row=args.row, token=args.token, key=args.key)
    from explorer.ui.printing.headless import drawing_application

    drawing_application(args.language)
    path, said = _write(trace, sel, args, size)
    print(f"wrote {path} ({said})")
    return 0


def _write(trace, sel, args: argparse.Namespace, size) -> tuple:
    """One stage's figure, or (``--all-heads``) every head's map of the layer (explorer/handouts/heads_figure.py)."""
    from explorer.ui.printing.figure_export import write_figure, write_scene

    if not args.all_heads:
        return write_figure(trace, sel, args.output, size, theme=args.theme, tensor=args.tensor)
    from explorer.handouts.heads_figure import heads_scene
    from explorer.ui.words.figure_words import figure_words

    scene = heads_scene(trace, sel, size.frame, figure_words(), args.theme, args.columns)
    return write_scene(scene, args.output, size)
