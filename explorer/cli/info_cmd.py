"""``attention-explorer info PATH``: the manifest and a table of names, shapes and dtypes.
``attention-explorer info --models``: the real models known by name, which are installed, what each needs."""

from __future__ import annotations

import argparse

from explorer.errors import InputError
from explorer.export.snapshot import read_header
from explorer.util.printable import json_text


def add_parser(sub) -> None:
    p = sub.add_parser("info", help="print a snapshot's manifest and its tensors, or the real models known by name")
    p.add_argument("path", nargs="?", help="a snapshot file (.npz, .safetensors or .pt)")
    p.add_argument("--json", action="store_true", help="print the manifest (or with --models the catalog) as JSON only")
    p.add_argument(
        "--models", action="store_true", help="list the real models known by name: installed here or what each needs"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.models:
        return _models(args.json)
    if not args.path:
        raise InputError("info needs a snapshot file, or --models for the real models known by name")
    manifest, tensors = read_header(args.path)  # headers only: no tensor data is read (a zip bomb costs nothing)
    shown = {k: v for k, v in manifest.items() if k not in ("names", "vocab")}
    if args.json:
        print(json_text(shown, indent=2))
        return 0
    print(json_text(shown, indent=2))
    labels = manifest.get("names", {})  # checked by read_header: name → {"labels": [str, …], …}
    width = max((len(n) for n in tensors), default=4)
    print(f"\n{'name':<{width}}  {'shape':<22} {'labels':<22} dtype")
    for name, a in tensors.items():
        lab = "(" + ", ".join(labels.get(name, {}).get("labels", [])) + ")"
        print(f"{name:<{width}}  {str(tuple(a.shape)):<22} {lab:<22} {a.dtype}")
    total = sum(a.nbytes for a in tensors.values())
    print(f"\n{len(tensors)} tensors, {total / 1024**2:.2f} MiB")
    return 0


def _models(as_json: bool) -> int:
    """The catalog: each real model, its family, size, whether it is installed here and what it needs."""
    from explorer.api.reports import model_lines, model_rows

    rows = model_rows()
    if as_json:
        print(json_text(rows, indent=2))
        return 0
    for line in model_lines(rows):
        print(line)
    print("\nOpen one with --model NAME (or File → Open model). Nothing is downloaded by the explorer.")
    return 0
