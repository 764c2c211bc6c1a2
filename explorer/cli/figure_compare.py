"""``attention-explorer figure TEXT_A --compare TEXT_B [--model-b X | --random-b | --ablate-b L.H]``: one head
of two runs as one print figure (issue 40): A, B on one colour scale and B − A, the tokens aligned by the
characters they cover (explorer/handouts/compare_figure.py). The runs are made as the ``compare`` command
makes them (explorer/cli/compare_cmd.py)."""

from __future__ import annotations

import argparse
import sys

from explorer import vocab
from explorer.errors import ConfigError


def add_compare_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("two runs compared (draws A, B and B − A of one head instead of a stage)")
    g.add_argument("--compare", metavar="TEXT_B", help="run B's sentence: the figure compares it with the text (A)")
    g.add_argument("--model-b", metavar="PRESET_OR_PATH", help="run B's model (default: the model options' one)")
    g.add_argument("--random-b", action="store_true", help="run B on the same model with random weights (its twin)")
    g.add_argument("--ablate-b", metavar="L.H[,L.H…]", help="run B with these heads ablated, e.g. 0.1,1.3")


def check_compare_options(args: argparse.Namespace) -> None:
    """One `error:` line for options that only make sense with --compare, or that --compare cannot draw."""
    b_options = args.model_b is not None or args.random_b or args.ablate_b is not None
    if args.compare is None and b_options:
        raise ConfigError("--model-b, --random-b and --ablate-b describe run B: give it with --compare TEXT_B")
    if args.compare is None and args.stage is None:
        raise ConfigError("give the stage to draw with --stage STAGE, or two runs to compare with --compare TEXT_B")
    if args.compare is not None and args.stage not in (None, "weights"):
        raise ConfigError("--compare draws the attention weights of one head: leave out --stage")
    for name in ("token", "key", "tensor"):
        if args.compare is not None and getattr(args, name) is not None:
            raise ConfigError(f"--compare draws whole maps: leave out --{name}")


def run_compare(args: argparse.Namespace) -> int:
    from pathlib import Path

    from explorer.cli.compare_cmd import _traces
    from explorer.cli.model_options import text_from_args
    from explorer.handouts.sizes import figure_size, output_kind
    from explorer.util.fileio import check_writable_target

    output_kind(args.output)
    check_writable_target(Path(args.output))  # refused before any model loads
    from explorer.handouts.compare_figure import DEFAULT_WIDTH_MM

    width_mm = DEFAULT_WIDTH_MM if args.width_mm is None and args.size is None else args.width_mm
    size = figure_size(width_mm, args.size, args.dpi)
    sides = argparse.Namespace(**vars(args))
    sides.text_a, sides.text_b, sides.model_a = text_from_args(args), args.compare, None
    sides.ablate_mode, sides.cut_b = vocab.ABLATE_MODES[0], None
    (trace_a, made_a), (trace_b, made_b) = _traces(sides)
    for side, trace in (("A", trace_a), ("B", trace_b)):
        for notice in trace.notices:
            print(f"note: run {side}: {notice}", file=sys.stderr)
    from explorer.compare import Pair, Run, compare
    from explorer.handouts.compare_figure import check_head

    comparison = compare(Pair(Run(trace_a, made_a), Run(trace_b, made_b)))
    check_head(comparison, args.layer, args.head)
    from explorer.ui.printing.headless import drawing_application

    drawing_application(args.language)
    from explorer.ui.printing.compare_export import write_compare_figure

    path, said = write_compare_figure(comparison, args.layer, args.head, args.output, size, theme=args.theme)
    print(f"wrote {path} ({said})")
    return 0
