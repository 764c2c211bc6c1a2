"""``attention-explorer info PATH``: the manifest and a table of names, shapes and dtypes."""

from __future__ import annotations

import argparse
import json

from explorer.export.snapshot import read_header


def add_parser(sub) -> None:
    p = sub.add_parser("info", help="print a snapshot's manifest and its tensors")
    p.add_argument("path", help="a snapshot file (.npz, .safetensors or .pt)")
    p.add_argument("--json", action="store_true", help="print the manifest as JSON only")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    manifest, tensors = read_header(args.path)  # headers only: no tensor data is read (a zip bomb costs nothing)
    shown = {k: v for k, v in manifest.items() if k not in ("names", "vocab")}
    if args.json:
        print(json.dumps(shown, ensure_ascii=False, indent=2))
        return 0
    print(json.dumps(shown, ensure_ascii=False, indent=2))
    labels = manifest.get("names", {})  # checked by read_header: name → {"labels": [str, …], …}
    width = max((len(n) for n in tensors), default=4)
    print(f"\n{'name':<{width}}  {'shape':<22} {'labels':<22} dtype")
    for name, a in tensors.items():
        lab = "(" + ", ".join(labels.get(name, {}).get("labels", [])) + ")"
        print(f"{name:<{width}}  {str(tuple(a.shape)):<22} {lab:<22} {a.dtype}")
    total = sum(a.nbytes for a in tensors.values())
    print(f"\n{len(tensors)} tensors, {total / 1024**2:.2f} MiB")
    return 0
