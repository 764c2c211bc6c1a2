"""Snapshots: every traced tensor and parameter in one file, with a JSON manifest (docs/snapshot-format.md).

Three containers hold the same content: npz (numpy alone reads it), safetensors (metadata key "manifest"),
and pt (a dict of tensors plus the manifest string). Reading never unpickles: npz with allow_pickle=False,
pt with weights_only=True.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from explorer import names, vocab
from explorer.errors import SnapshotError
from explorer.trace.trace import Trace
from explorer.util.fileio import atomic_path

FORMATS = vocab.SNAPSHOT_FORMATS


def format_for(path: str | Path, fmt: str | None = None) -> str:
    if fmt:
        if fmt not in FORMATS:
            raise SnapshotError(f"unknown format {fmt!r}: use npz, safetensors or pt")
        return fmt
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in FORMATS:
        return suffix
    raise SnapshotError(
        f"cannot tell the format of {Path(path).name}: end the name in .npz, .safetensors or .pt, or pass --format"
    )


def select_names(trace: Trace, patterns: Iterable[str] | None) -> tuple[str, ...]:
    """Names to export. Patterns may use shell wildcards: ``layers.0.attn.*``, ``params.*``."""
    from fnmatch import fnmatchcase

    available = trace.names()
    if patterns is None:
        return available
    patterns = list(patterns)
    # a long text's maps are not written whole, but asked for by name they are refused with the reason
    tiled = [names.attn(l, s) for l in trace.layers if trace.tiled(l) for s in names.PAIRWISE_STAGES]
    available = (*available, *tiled)
    chosen = tuple(n for n in available if any(fnmatchcase(n, p) for p in patterns))
    unmatched = [p for p in patterns if not any(fnmatchcase(n, p) for n in available)]
    if unmatched:
        raise SnapshotError(f"no tensor matches {', '.join(unmatched)}; `attention-explorer info` lists the names")
    for required in ("tokens", "mask"):
        if required not in chosen:
            chosen = (required, *chosen)  # a snapshot without them cannot be shown again
    return chosen


def _check_export_memory(
    trace: Trace, chosen: tuple[str, ...], described: dict[str, Any], path: Path, fmt: str
) -> None:
    """Refuse, before computing anything, an export that would hold more than the memory budget.

    Everything is counted: the trace itself (already held), the (C, C) maps and probabilities the export
    derives and holds at once, the copies one layer's derivation makes meanwhile, and, for safetensors and
    pt, the copy of every tensor their writers make. Counting only the derived maps let an export of
    8 × 1024 tokens peak at 5.8 GB under a 3.5 GB budget.
    """
    from explorer.config import memory_budget_bytes

    def size(n: str) -> int:
        return math.prod(described[n]["shape"]) * np.dtype(described[n]["dtype"]).itemsize

    for n in chosen:  # a long text's maps exist as tiles only: never built whole to be written
        if names.spec(n).pairwise and n not in trace.stored_names() and trace.tiled(names.layer_of(n)):
            raise SnapshotError(
                f"{n} of this long text is {' × '.join(f'{d:,}' for d in described[n]['shape'])} cells "
                f"({size(n) / 1024**3:.1f} GiB), computed in blocks, never whole; export without it (its q, k and "
                "lse rebuild any block when the snapshot is opened), or save one block from Python: "
                "np.save(path, trace.tile(layer, stage, b, h, rows=(r0, r1), cols=(c0, c1)))"
            )

    stored = set(trace.stored_names())
    held = trace.nbytes
    derived = sum(size(n) for n in chosen if n not in stored)
    # Deriving one layer's maps holds, for a moment, every head's four maps twice (the per-head pieces and
    # their concatenation) when the trace kept only q and k, or copies of scores and weights plus the two
    # derived stages when it kept those: measured 5.9 GB for a 4.0 GiB estimate before this was counted.
    transient = max(
        (
            (4 if names.attn(names.layer_of(n), "scores") in stored else 8) * size(n)
            for n in chosen
            if n not in stored and names.spec(n).pairwise
        ),
        default=0,
    )
    copies = sum(size(n) for n in chosen) if fmt in vocab.COPYING_SNAPSHOT_FORMATS else 0
    need = held + derived + transient + copies
    budget = memory_budget_bytes()
    if need > budget:
        gib = 1024**3
        parts = f"the trace {held / gib:.1f} GiB, maps it derives {(derived + transient) / gib:.1f} GiB"
        if copies:
            parts += f", the {fmt} writer's copy {copies / gib:.1f} GiB"
        raise SnapshotError(
            f"exporting to {path.name} would hold {need / gib:.1f} GiB ({parts}), more than the "
            f"{budget / gib:.1f} GiB memory budget; export fewer names (--names 'layers.0.attn.weights,logits') "
            + ("or a shorter text" if fmt == "npz" else "or a shorter text, or write .npz (no copy)")
        )


def write_snapshot(
    trace: Trace,
    path: str | Path,
    fmt: str | None = None,
    select: Iterable[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    extra_manifest: dict[str, Any] | None = None,
) -> Path:
    """``extra_manifest``: more manifest fields (a generation's ``generation``), written as given."""
    path = Path(path)
    fmt = format_for(path, fmt)
    chosen = select_names(trace, select)
    described = trace.manifest(chosen)
    described.update(extra_manifest or {})
    _check_export_memory(trace, chosen, described["names"], path, fmt)
    manifest = json.dumps(described, ensure_ascii=False)
    arrays: dict[str, np.ndarray] = {}
    for i, name in enumerate(chosen):
        arrays[name] = np.ascontiguousarray(trace[name])
        if progress:
            progress(i + 1, len(chosen) + 1)
    with atomic_path(path) as tmp:
        if fmt == "npz":
            with open(tmp, "wb") as fh:
                np.savez(fh, manifest=np.frombuffer(manifest.encode("utf-8"), dtype=np.uint8), **arrays)
        elif fmt == "safetensors":
            from safetensors.numpy import save_file

            save_file(arrays, str(tmp), metadata={"manifest": manifest})
        else:
            import torch

            # trace arrays are read-only; torch.from_numpy would warn on every export, so copy those
            payload: dict[str, Any] = {
                n: torch.from_numpy(a if a.flags.writeable else a.copy()) for n, a in arrays.items()
            }
            payload["manifest"] = manifest
            torch.save(payload, tmp)
    if progress:
        progress(len(chosen) + 1, len(chosen) + 1)
    return path


# --------------------------------------------------------------------------------------------- reading
# In snapshot_read.py (headers first, sizes against the budget, the manifest against its schema).
from explorer.export.snapshot_read import read_header, read_manifest_and_arrays, read_snapshot, sniff_format  # noqa: E402,F401

# --------------------------------------------------------------------------------------------- generations


def write_generation(generation: Any, path: str | Path, fmt: str | None = None) -> Path:
    """One snapshot of a generation (explorer.generation.Generation): the prompt's trace, the ``gen.*`` and
    ``cache.*`` tensors, and the steps in the manifest's ``generation`` field."""
    return write_snapshot(generation.trace, path, fmt, extra_manifest={"generation": generation.to_dict()})


def read_generation(path: str | Path) -> Any:
    """A read-only Generation from a snapshot written by ``write_generation``, without running any model."""
    from explorer.generation.result import Generation

    path = Path(path)
    manifest, _ = read_manifest_and_arrays(path)
    if not isinstance(manifest.get("generation"), dict):
        raise SnapshotError(f"{path.name} holds a trace, not a generation: open it as a snapshot")
    return Generation.from_dict(read_snapshot(path), manifest["generation"], path.name)
