"""``attention-explorer export TEXT -o PATH``: trace text and write a snapshot."""

from __future__ import annotations

import argparse
import sys

from explorer import vocab
from explorer.cli.model_options import (
    add_model_options,
    note,
    set_memory_budget,
    source_from_args,
    text_from_args,
    unresolved_options,
)
from explorer.export.snapshot import write_snapshot


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="trace text and write every tensor and parameter to one file")
    p.add_argument("text", nargs="?", help="the text; each line is one sentence of the batch")
    p.add_argument("--text-file", metavar="FILE", help="read the text from a UTF-8 file instead")
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="snapshot file (.npz, .safetensors or .pt)")
    p.add_argument("--format", choices=vocab.SNAPSHOT_FORMATS, help="container (default: from the file name)")
    p.add_argument(
        "--names",
        metavar="PATTERNS",
        help="only these names, comma-separated, wildcards allowed: 'layers.0.attn.*,logits'",
    )
    add_model_options(p)
    add_intervention_options(p)
    p.set_defaults(func=run)


def add_intervention_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "interventions (the baseline's logits and probs are written as baseline.logits / baseline.probs)"
    )
    g.add_argument("--ablate", metavar="L.H[,L.H…]", help="ablate these heads (layer.head), e.g. 0.1,1.3")
    g.add_argument(
        "--ablate-mode",
        choices=vocab.ABLATE_MODES,
        default="zero",
        help="replace the head's Rⁱ by zeros (default) or by its mean over positions",
    )
    g.add_argument(
        "--cut", metavar="L.H:I:J[,…]", help="cut attention edges: in layer L, head H, query I may not see key J"
    )
    g.add_argument(
        "--patch-from", metavar="TEXT2", help="a text of the same length in tokens whose activations --patch takes"
    )
    g.add_argument(
        "--patch",
        metavar="NAME[@POSITIONS][#HEADS][,…]",
        help="activations taken from TEXT2, e.g. layers.0.out@2,3 or layers.1.attn.heads#0-2",
    )


def interventions_from_args(args: argparse.Namespace):
    """The Interventions the options ask for, or None when there are none."""
    from explorer.api.options import interventions

    return interventions(args.ablate, args.ablate_mode, args.cut, args.patch, args.patch_from)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from explorer.api.engine import make_trace
    from explorer.util.fileio import check_writable_target

    check_writable_target(Path(args.output))  # -o /dev/null, a device or a folder: refused before any work
    text = text_from_args(args)
    set_memory_budget(args)
    source = source_from_args(args)
    options = unresolved_options(args)  # without --mask: None, the model's own (make_trace fills it in)
    # The one engine explorer.trace runs too: the same arrays, bit for bit, for the same text and options.
    trace = make_trace(source, text, options, interventions_from_args(args), note=note)
    for notice in trace.notices:
        print(f"note: {notice}", file=sys.stderr)
    select = [s.strip() for s in args.names.split(",") if s.strip()] if args.names else None
    path = write_snapshot(trace, args.output, args.format, select)
    print(f"wrote {path} ({trace.B}×{trace.C} tokens, {len(trace.names()) if select is None else len(select)} tensors)")
    return 0
