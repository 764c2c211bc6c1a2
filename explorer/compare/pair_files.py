"""A compared pair on disk: a folder of two ordinary snapshots (``a.npz``, ``b.npz``) and ``compare.json``,
the comparison with how the runs were made and aligned (docs/compare.md). Written whole through the safe
writer; read back as a ``Pair`` of read-only traces, whose comparison is the one that was written (the
alignment is recomputed from the snapshots' own tokens and text)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from explorer.compare.pair import Pair, Run
from explorer.errors import ConfigError, SnapshotError
from explorer.export.snapshot import read_snapshot, write_snapshot
from explorer.util.fileio import atomic_dir
from explorer.util.printable import shown
from explorer.util.reading import read_json

PAIR_FILE = "compare.json"
PAIR_FORMAT = "attention-explorer-compare"
SNAPSHOTS = {"a": "a.npz", "b": "b.npz"}
MAX_PAIR_BYTES = 64 * 1024**2


def check_pair_folder(folder: str | Path) -> None:
    """A folder a pair may be written to: new, empty, or a pair written before (never someone's folder)."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise ConfigError(f"--out {shown(str(folder))} is not a folder")
    if path.is_dir() and any(path.iterdir()) and not (path / PAIR_FILE).is_file():
        raise ConfigError(f"--out {shown(str(folder))} holds other files: name a new or empty folder")


def write_pair(folder: str | Path, pair: Pair, report: dict[str, Any]) -> Path:
    """``report``: the comparison as JSON (explorer/compare/report.py)."""
    check_pair_folder(folder)
    manifest = {"format": PAIR_FORMAT, "format_version": 1, **report}
    for side in ("a", "b"):
        manifest[side] = {"snapshot": SNAPSHOTS[side], **report[side]}
    with atomic_dir(folder, SnapshotError, parents=False) as tmp:
        write_snapshot(pair.a.trace, tmp / SNAPSHOTS["a"], "npz")
        write_snapshot(pair.b.trace, tmp / SNAPSHOTS["b"], "npz")
        text = json.dumps(manifest, ensure_ascii=False, allow_nan=False)
        (tmp / PAIR_FILE).write_text(text, encoding="utf-8")
    return Path(folder)


def read_pair(folder: str | Path) -> tuple[Pair, dict[str, Any]]:
    """The pair a folder holds, and its manifest."""
    path = Path(folder)
    missing = f"{shown(str(path))} holds no {PAIR_FILE}: not a compared pair (attention-explorer compare --out)"
    manifest = read_json(path / PAIR_FILE, SnapshotError, MAX_PAIR_BYTES, missing)
    if not isinstance(manifest, dict) or manifest.get("format") != PAIR_FORMAT:
        raise SnapshotError(f"{shown(str(path / PAIR_FILE))} is not a compared pair's manifest")
    runs = []
    for side in ("a", "b"):
        made = manifest.get(side) if isinstance(manifest.get(side), dict) else {}
        keep = {k: v for k, v in made.items() if k in ("model", "random_weights", "interventions")}
        runs.append(Run(read_snapshot(path / SNAPSHOTS[side]), keep))
    return Pair(*runs), manifest
