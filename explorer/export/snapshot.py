"""Snapshots: every traced tensor and parameter in one file, with a JSON manifest (docs/snapshot-format.md).

Three containers hold the same content: npz (numpy alone reads it), safetensors (metadata key "manifest"),
and pt (a dict of tensors plus the manifest string). Reading never unpickles: npz with allow_pickle=False,
pt with weights_only=True.
"""

from __future__ import annotations

import json
import math
import struct
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from explorer import names
from explorer.config import ModelConfig, RunOptions
from explorer.errors import ExplorerError, SnapshotError
from explorer.fileio import atomic_path
from explorer.trace.trace import FORMAT_NAME, FORMAT_VERSION, Row, Trace

FORMATS = ("npz", "safetensors", "pt")


def format_for(path: str | Path, fmt: str | None = None) -> str:
    if fmt:
        if fmt not in FORMATS:
            raise SnapshotError(f"unknown format {fmt!r}: use npz, safetensors or pt")
        return fmt
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in FORMATS:
        return suffix
    raise SnapshotError(f"cannot tell the format of {Path(path).name}: end the name in .npz, .safetensors or .pt, or pass --format")


def select_names(trace: Trace, patterns: Iterable[str] | None) -> tuple[str, ...]:
    """Names to export. Patterns may use shell wildcards: ``layers.0.attn.*``, ``params.*``."""
    from fnmatch import fnmatchcase

    available = trace.names()
    if patterns is None:
        return available
    patterns = list(patterns)
    chosen = tuple(n for n in available if any(fnmatchcase(n, p) for p in patterns))
    unmatched = [p for p in patterns if not any(fnmatchcase(n, p) for n in available)]
    if unmatched:
        raise SnapshotError(f"no tensor matches {', '.join(unmatched)}; `attention-explorer info` lists the names")
    for required in ("tokens", "mask"):
        if required not in chosen:
            chosen = (required, *chosen)  # a snapshot without them cannot be shown again
    return chosen


def _check_export_memory(trace: Trace, chosen: tuple[str, ...], described: dict[str, Any], path: Path) -> None:
    """Refuse, before computing anything, an export whose derived maps would not fit in the memory budget.

    A long trace keeps q and k and derives its (C, C) maps on demand; an export computes and holds every one
    of them at once. Unchecked, a long text made the process allocate until the system killed it.
    """
    from explorer.config import memory_budget_bytes

    stored = set(trace.stored_names())
    derived = sum(
        math.prod(described[n]["shape"]) * np.dtype(described[n]["dtype"]).itemsize for n in chosen if n not in stored
    )
    budget = memory_budget_bytes()
    if derived > budget:
        raise SnapshotError(
            f"the attention maps this export to {path.name} computes need {derived / 1024**3:.1f} GiB, more than the "
            f"{budget / 1024**3:.1f} GiB memory budget; export fewer names (--names 'layers.0.attn.weights,logits') "
            "or a shorter text"
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
    _check_export_memory(trace, chosen, described["names"], path)
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
            payload: dict[str, Any] = {n: torch.from_numpy(a if a.flags.writeable else a.copy()) for n, a in arrays.items()}
            payload["manifest"] = manifest
            torch.save(payload, tmp)
    if progress:
        progress(len(chosen) + 1, len(chosen) + 1)
    return path


# --------------------------------------------------------------------------------------------- reading


def sniff_format(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            head = fh.read(16)
    except OSError as exc:
        raise SnapshotError(f"cannot open {path}: {exc.strerror or exc}") from None
    if not head:
        raise SnapshotError(f"{path.name} is empty")
    if head[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(path) as zf:
                members = zf.namelist()
        except (zipfile.BadZipFile, OSError):
            raise SnapshotError(f"{path.name} is damaged or truncated (not a complete zip archive)") from None
        if any(m.endswith(".npy") for m in members):
            return "npz"
        if any(m.endswith("data.pkl") for m in members):
            return "pt"
        raise SnapshotError(f"{path.name} is a zip archive but neither an npz nor a pt snapshot")
    if len(head) >= 9:
        (n,) = struct.unpack("<Q", head[:8])
        if 0 < n < 100_000_000 and head[8:9] == b"{":
            return "safetensors"
    raise SnapshotError(f"{path.name} is not a snapshot (expected npz, safetensors or pt)")


def _read_arrays(path: Path, fmt: str) -> tuple[dict[str, np.ndarray], str]:
    if fmt == "npz":
        with np.load(path, allow_pickle=False) as data:
            if "manifest" not in data.files:
                raise SnapshotError(f"{path.name} has no manifest: it was not written by Attention Explorer")
            manifest = bytes(data["manifest"]).decode("utf-8")
            arrays = {k: data[k] for k in data.files if k != "manifest"}
        return arrays, manifest
    if fmt == "safetensors":
        from safetensors import safe_open

        with safe_open(str(path), framework="numpy") as f:
            meta = f.metadata() or {}
            if "manifest" not in meta:
                raise SnapshotError(f"{path.name} has no manifest: it was not written by Attention Explorer")
            arrays = {k: f.get_tensor(k) for k in f.keys()}
        return arrays, meta["manifest"]
    import torch

    payload = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(payload, dict) or not isinstance(payload.get("manifest"), str):
        raise SnapshotError(f"{path.name} has no manifest: it was not written by Attention Explorer")
    manifest = payload.pop("manifest")
    arrays = {}
    for k, v in payload.items():
        if not isinstance(v, torch.Tensor):
            raise SnapshotError(f"{path.name}: entry {k!r} is not a tensor")
        arrays[k] = v.numpy()
    return arrays, manifest


def read_manifest_and_arrays(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    path = Path(path)
    fmt = sniff_format(path)
    try:
        arrays, manifest_text = _read_arrays(path, fmt)
    except ExplorerError:
        raise
    except Exception as exc:  # numpy, safetensors and torch raise many kinds for damaged files
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SnapshotError(f"cannot read {path.name} ({fmt}): the file is damaged or truncated ({first[:120]})") from None
    try:
        manifest = json.loads(manifest_text)
    except json.JSONDecodeError:
        raise SnapshotError(f"{path.name}: the manifest is not valid JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise SnapshotError(f"{path.name} is not an Attention Explorer snapshot")
    version = manifest.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise SnapshotError(
            f"{path.name} uses snapshot format {version}, newer than this app reads ({FORMAT_VERSION}); update Attention Explorer"
        )
    return manifest, arrays


def read_snapshot(path: str | Path) -> Trace:
    """A read-only Trace from a snapshot file, without running any model."""
    path = Path(path)
    manifest, arrays = read_manifest_and_arrays(path)
    unknown = [k for k in arrays if not names.is_known(k)]
    if unknown:
        raise SnapshotError(f"{path.name} holds tensors this app does not know: {', '.join(unknown[:5])}")
    for required in ("tokens", "mask"):
        if required not in arrays:
            raise SnapshotError(f"{path.name} lacks the {required!r} tensor")
    try:
        rows = tuple(
            Row(r["text"], tuple(r["tokens"]), tuple(int(i) for i in r["ids"]), tuple(bool(u) for u in r["unknown"]))
            for r in manifest["batch"]
        )
        config = ModelConfig.from_dict(manifest["config"])
        options = RunOptions.from_dict(manifest["options"])
        labels = {n: tuple(v["labels"]) for n, v in manifest.get("names", {}).items()}
    except (KeyError, TypeError, ValueError, ExplorerError) as exc:
        raise SnapshotError(f"{path.name}: the manifest is incomplete ({exc})") from None
    return Trace(
        arrays,
        rows=rows,
        config=config,
        options=options,
        source=manifest.get("weights_source", ""),
        seed=manifest.get("seed"),
        vocab=tuple(manifest["vocab"]) if manifest.get("vocab") is not None else None,
        notices=tuple(manifest.get("notices", ())),
        labels=labels,
        model_name=manifest.get("model_name", ""),
        tokenizer_kind=manifest.get("tokenizer_kind", ""),
        app_version=manifest.get("app_version", ""),
        origin=str(path),
    )


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
