"""``attention-explorer compare TEXT_A [TEXT_B] [--model-a X --model-b Y | --random-b | --ablate-b L.H]``:
two runs side by side (issue 40): their tokens aligned by characters, every head's Jensen–Shannon divergence,
the next-token distributions compared; ``--json`` prints it all as one object, ``--out DIR`` writes the two
snapshots and a manifest saying how they were aligned (docs/compare.md)."""

from __future__ import annotations

import argparse
import sys

from explorer import vocab
from explorer.cli.model_options import add_model_options, bundle_from_args, check_layers, options_from_args
from explorer.errors import ConfigError
from explorer.util.printable import json_text
from explorer.weights.presets import PRESETS


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="two runs side by side: aligned tokens, per-head divergence, output")
    p.add_argument("text_a", metavar="TEXT_A", help="run A's sentence")
    p.add_argument("text_b", metavar="TEXT_B", nargs="?", help="run B's sentence (default: TEXT_A)")
    g = p.add_argument_group("run B against run A (the model options below make both, unless named here)")
    g.add_argument("--model-a", metavar="PRESET_OR_PATH", help="run A's model: a preset, a folder, a file or a name")
    g.add_argument("--model-b", metavar="PRESET_OR_PATH", help="run B's model (default: run A's)")
    g.add_argument("--random-b", action="store_true", help="run B on the same model with random weights (its twin)")
    g.add_argument("--ablate-b", metavar="L.H[,L.H…]", help="run B with these heads ablated, e.g. 0.1,1.3")
    g.add_argument("--ablate-mode", choices=vocab.ABLATE_MODES, default="zero", help="how --ablate-b ablates")
    g.add_argument("--cut-b", metavar="L.H:I:J[,…]", help="run B with these attention edges cut")
    o = p.add_argument_group("output")
    o.add_argument("--json", action="store_true", help="print one JSON object: alignment, heads, output")
    o.add_argument(
        "--head", metavar="L.H", help="the head whose difference map --json includes (default: most different)"
    )
    o.add_argument("--top", type=int, default=5, metavar="K", help="tokens in either run's top K are compared (5)")
    o.add_argument("--out", metavar="DIR", help="write a.npz, b.npz and compare.json (the alignment) into DIR")
    add_model_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.top < 1:
        raise ConfigError(f"--top must be at least 1, got {args.top}")
    shown = _head(args.head)
    if args.out is not None:
        from explorer.compare.pair_files import check_pair_folder

        check_pair_folder(args.out)  # one `error:` line before any model loads
    from explorer.compare import Pair, Run, compare
    from explorer.compare.report import comparison_json

    (trace_a, made_a), (trace_b, made_b) = _traces(args)
    for side, trace in (("A", trace_a), ("B", trace_b)):
        for notice in trace.notices:
            print(f"note: run {side}: {notice}", file=sys.stderr)
        if trace.B > 1:
            print(f"note: run {side}: only the first of its {trace.B} sentences (lines) is compared", file=sys.stderr)
    pair = Pair(Run(trace_a, made_a), Run(trace_b, made_b))
    comparison = compare(pair, args.top)
    if shown is not None:
        _check_head(comparison, shown)
    report = comparison_json(comparison, shown)
    if args.out is not None:
        from explorer.compare.pair_files import PAIR_FILE, write_pair

        write_pair(args.out, pair, report)
        said = sys.stderr if args.json else sys.stdout  # --json: stdout is the one JSON object
        from explorer.util.printable import shown as printable

        print(f"wrote {printable(args.out)} (a.npz, b.npz, {PAIR_FILE})", file=said)
    if args.json:
        print(json_text(report, allow_nan=False))
    else:
        from explorer.compare.text import summary_lines

        for line in summary_lines(comparison):
            print(line)
    return 0


def _head(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    layer, dot, head = text.partition(".")
    if not (dot and layer.isascii() and layer.isdigit() and head.isascii() and head.isdigit()):
        raise ConfigError(f"--head takes layer.head, e.g. 0.1, got {text!r}")
    return int(layer), int(head)


def _check_head(comparison, shown: tuple[int, int]) -> None:
    if not any((h.layer, h.head) == shown for h in comparison.heads):
        raise ConfigError(f"--head {shown[0]}.{shown[1]} is not a head both runs have")


def _side(args: argparse.Namespace, name: str | None) -> argparse.Namespace:
    """The model options with one run's model named in them."""
    local = argparse.Namespace(**vars(args))
    if name is not None and name in PRESETS:
        local.preset, local.model = name, None
    elif name is not None:
        local.model = name
    return local


def _traces(args: argparse.Namespace):
    """Both runs' traces and how each was made."""
    from explorer.cli.model_options import source_from_args

    side_a, side_b = _side(args, args.model_a), _side(args, args.model_b or args.model_a)
    source_a, source_b = source_from_args(side_a), source_from_args(side_b)
    if args.random_b and source_b.kind == "preset":
        import dataclasses

        source_b = dataclasses.replace(source_b, random_weights=True)
        if PRESETS[source_b.name].checkpoint is None or source_a.random_weights or source_a.seed is not None:
            print(f"note: run A already has {source_b.name}'s random weights: run B is the same model", file=sys.stderr)
    bundle_a = bundle_from_args(side_a)
    bundle_b = bundle_a if source_b == source_a else _bundle_b(side_b, source_b, bundle_a, args)
    text_b = args.text_b if args.text_b is not None else args.text_a
    made_a = {"model": source_a.label(), "random_weights": source_a.random_weights, "interventions": None}
    made_b = {"model": source_b.label(), "random_weights": source_b.random_weights or args.random_b}
    trace_a = _trace(bundle_a, args.text_a, args, None)
    interventions = _interventions(args)
    made_b["interventions"] = {"ablate": args.ablate_b, "cut": args.cut_b} if interventions else None
    return (trace_a, made_a), (_trace(bundle_b, text_b, args, interventions), made_b)


def _bundle_b(side_b, source_b, bundle_a, args):
    from explorer.cli.model_options import open_model

    if args.random_b and source_b.kind != "preset":
        from explorer.weights.bundle import random_bundle

        twin_of = open_model(source_b)
        return random_bundle(twin_of.config, twin_of.tokenizer, args.seed or 0, f"{twin_of.name} (random weights)")
    return open_model(source_b)


def _interventions(args: argparse.Namespace):
    if not (args.ablate_b or args.cut_b):
        return None
    from explorer.interventions import Interventions, parse_ablate, parse_cut

    return Interventions(
        ablations=parse_ablate(args.ablate_b, args.ablate_mode) if args.ablate_b else (),
        cuts=parse_cut(args.cut_b) if args.cut_b else (),
    )


def _trace(bundle, text: str, args: argparse.Namespace, interventions):
    options = options_from_args(args, bundle.config)
    check_layers(bundle, options)
    from explorer.trace import run_trace  # torch loads here, not when the CLI starts

    if interventions is None:
        return run_trace(bundle, text, options)
    from explorer.interventions import run_intervened

    return run_intervened(bundle, text, interventions, options)
