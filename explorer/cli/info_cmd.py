"""``attention-explorer info PATH``: the manifest and a table of names, shapes and dtypes."""

from __future__ import annotations

import argparse
import json

from explorer.export.snapshot import read_manifest_and_arrays


def add_parser(sub) -> None:
    p = sub.add_parser("info", help="print a snapshot's manifest and its tensors")
    p.add_argument("path", help="a snapshot file (.npz, .safetensors or .pt)")
    p.add_argument("--json", action="store_true", help="print the manifest as JSON only")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    manifest, arrays = read_manifest_and_arrays(args.path)
    shown = {k: v for k, v in manifest.items() if k not in ("names", "vocab")}
    if args.json:
        print(json.dumps(shown, ensure_ascii=False, indent=2))
        return 0
    print(json.dumps(shown, ensure_ascii=False, indent=2))
    labels = manifest.get("names", {})
    width = max((len(n) for n in arrays), default=4)
    print(f"\n{'name':<{width}}  {'shape':<22} {'labels':<22} dtype")
    for name, a in arrays.items():
        lab = "(" + ", ".join(labels.get(name, {}).get("labels", [])) + ")"
        print(f"{name:<{width}}  {str(tuple(a.shape)):<22} {lab:<22} {a.dtype}")
    total = sum(a.nbytes for a in arrays.values())
    print(f"\n{len(arrays)} tensors, {total / 1024**2:.2f} MiB")
    return 0
