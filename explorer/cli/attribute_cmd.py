"""``attention-explorer attribute TEXT --target TOKEN``: the logit lens and each component's direct share of
the target's logit at one position (explorer.interventions.attribution)."""

from __future__ import annotations

import argparse
import sys

from explorer.cli.model_options import add_model_options, bundle_from_args, options_from_args, text_from_args
from explorer.util.printable import json_text


def add_parser(sub) -> None:
    p = sub.add_parser(
        "attribute",
        help="logit lens and direct logit attribution (embedding, each head, each FFN) for one target token",
        description="Each component's direct contribution to the target's logit through the residual stream, "
        "with the final norm's scale frozen at its value in this run: the contributions plus the constant sum to "
        "the logit. The logit lens reads the residual stream after every layer through the final norm and the "
        "unembedding (rank 1 = most likely). The first sentence of the text is read.",
    )
    p.add_argument("text", nargs="?", help="the text (its first line is read)")
    p.add_argument("--text-file", metavar="FILE", help="read the text from a UTF-8 file instead")
    target = p.add_mutually_exclusive_group()
    target.add_argument(
        "--target", metavar="TOKEN", help="the token whose logit to explain (as the vocabulary shows it)"
    )
    target.add_argument("--target-id", type=int, metavar="ID", help="the same, by token id")
    p.add_argument(
        "--position", type=int, metavar="I", help="the position whose prediction to explain (default: the last token)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_model_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = text_from_args(args)
    bundle = bundle_from_args(args)
    options = options_from_args(args, bundle.config).replace(
        layers_to_capture=None, lazy_pairwise=True
    )  # every layer, no maps
    from explorer.interventions.attribution import attribute, refuse_undecomposable, resolve_target
    from explorer.trace import run_trace  # torch loads here, not when the CLI starts

    refuse_undecomposable(bundle.config)  # before the trace: an encoder's logits do not split

    target = resolve_target(bundle, args.target, args.target_id)
    trace = run_trace(bundle, text, options)
    for notice in trace.notices:
        print(f"note: {notice}", file=sys.stderr)
    out = attribute(bundle, trace, target, args.position)
    if args.json:
        print(json_text(out))
        return 0
    from explorer.api.reports import attribution_lines

    for line in attribution_lines(out):
        print(line)
    return 0
