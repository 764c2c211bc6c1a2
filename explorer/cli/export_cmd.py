"""``attention-explorer export TEXT -o PATH``: trace text and write a snapshot."""

from __future__ import annotations

import argparse
import sys

from explorer.cli.model_options import add_model_options, bundle_from_args, check_layers, options_from_args, text_from_args
from explorer.export.snapshot import write_snapshot


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="trace text and write every tensor and parameter to one file")
    p.add_argument("text", nargs="?", help="the text; each line is one sentence of the batch")
    p.add_argument("--text-file", metavar="FILE", help="read the text from a UTF-8 file instead")
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="snapshot file (.npz, .safetensors or .pt)")
    p.add_argument("--format", choices=["npz", "safetensors", "pt"], help="container (default: from the file name)")
    p.add_argument("--names", metavar="PATTERNS", help="only these names, comma-separated, wildcards allowed: 'layers.0.attn.*,logits'")
    add_model_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from explorer.fileio import check_writable_target

    check_writable_target(Path(args.output))  # -o /dev/null, a device or a folder: refused before any work
    text = text_from_args(args)
    bundle = bundle_from_args(args)
    options = options_from_args(args)
    check_layers(bundle, options)
    from explorer.trace import run_trace  # torch loads here, not when the CLI starts

    trace = run_trace(bundle, text, options)
    for notice in trace.notices:
        print(f"note: {notice}", file=sys.stderr)
    select = [s.strip() for s in args.names.split(",") if s.strip()] if args.names else None
    path = write_snapshot(trace, args.output, args.format, select)
    print(f"wrote {path} ({trace.B}×{trace.C} tokens, {len(trace.names()) if select is None else len(select)} tensors)")
    return 0
