"""Reading snapshots from anywhere, in three steps, each bounded before the next begins:

1. the headers: what each tensor declares (shape, dtype) and the manifest, without reading tensor data
   (``read_header``: all that `info` needs; a 6 GiB zip bomb or a sparse 5 GiB tensor costs nothing);
2. the declared sizes against the memory budget, and the manifest against its schema (snapshot_schema.py);
3. the data, then its values (NaN, token ids).

Nothing is unpickled: npz members are read as .npy only (an object array is refused from its header),
safetensors headers are parsed here, pt files go through torch.load(weights_only=True).
"""

from __future__ import annotations

import dataclasses
import struct
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from explorer.config import memory_budget_bytes
from explorer.errors import ExplorerError, SnapshotError
from explorer.export.snapshot_schema import Manifest, TensorInfo, check_manifest, check_tensors, check_values
from explorer.trace.finite import with_nonfinite_notice
from explorer.trace.trace import FORMAT_NAME, FORMAT_VERSION, Row, Trace, TraceInfo
from explorer.util.reading import check_regular, open_regular, parse_json
from explorer.util.schema import Where

MAX_MANIFEST_BYTES = 64 * 1024**2
MAX_SAFETENSORS_HEADER = 100_000_000  # the safetensors library's own limit
PICKLE = "contains Python objects (pickle), which are never loaded; a snapshot holds only numbers"

_SAFETENSORS_DTYPES = {
    "F64": "float64",
    "F32": "float32",
    "F16": "float16",
    "I64": "int64",
    "I32": "int32",
    "I16": "int16",
    "I8": "int8",
    "U8": "uint8",
    "U16": "uint16",
    "U32": "uint32",
    "U64": "uint64",
    "BOOL": "bool",
}


def _bf16(path: Path, name: str) -> SnapshotError:
    return SnapshotError(
        f"{path.name}: bfloat16 is not supported here: tensor {name} is bfloat16 (numpy has no such type); "
        "convert the file to float32"
    )


def sniff_format(path: Path) -> str:
    with open_regular(path, SnapshotError) as fh:
        head = fh.read(16)
    if not head:
        raise SnapshotError(f"{path.name} is empty")
    if head[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(path) as zf:
                members = zf.namelist()
        except (zipfile.BadZipFile, OSError, ValueError):
            raise SnapshotError(f"{path.name} is damaged or truncated (not a complete zip archive)") from None
        if any(m.endswith("data.pkl") for m in members):
            return "pt"
        if any(m.endswith(".npy") for m in members):
            return "npz"
        raise SnapshotError(f"{path.name} is a zip archive but neither an npz nor a pt snapshot")
    if len(head) >= 9:
        (n,) = struct.unpack("<Q", head[:8])
        if 0 < n < MAX_SAFETENSORS_HEADER and head[8:9] == b"{":
            return "safetensors"
    raise SnapshotError(f"{path.name} is not a snapshot (expected npz, safetensors or pt)")


# ----------------------------------------------------------------------------------------- headers


def _npy_header(fh, path: Path, member: str) -> TensorInfo:
    fmt = np.lib.format
    try:
        version = fmt.read_magic(fh)
        if version == (1, 0):
            shape, _, dtype = fmt.read_array_header_1_0(fh)
        else:
            shape, _, dtype = fmt.read_array_header_2_0(fh)
    except ValueError as exc:
        raise SnapshotError(
            f"{path.name}: member {member} is not a valid .npy array ({str(exc).splitlines()[0][:100]})"
        ) from None
    if dtype.hasobject:
        raise SnapshotError(f"{path.name}: member {member} {PICKLE}")
    return TensorInfo(tuple(int(s) for s in shape), dtype)


def _npz_header(path: Path) -> tuple[bytes, dict[str, TensorInfo]]:
    infos: dict[str, TensorInfo] = {}
    manifest = None
    with open_regular(path, SnapshotError) as raw, zipfile.ZipFile(raw) as zf:
        for member in zf.infolist():
            if not member.filename.endswith(".npy"):
                raise SnapshotError(
                    f"{path.name}: member {member.filename!r} is not a .npy array (an npz holds only .npy members)"
                )
            name = member.filename[: -len(".npy")]
            with zf.open(member) as fh:
                info = _npy_header(fh, path, member.filename)
                if name == "manifest":
                    if info.dtype != np.uint8 or len(info.shape) != 1:
                        raise SnapshotError(f"{path.name}: the manifest entry is not UTF-8 bytes")
                    if info.nbytes > MAX_MANIFEST_BYTES:
                        raise SnapshotError(
                            f"{path.name}: the manifest is larger than {MAX_MANIFEST_BYTES // 1024**2} MB"
                        )
                    manifest = fh.read(info.nbytes)
                    continue
            infos[name] = info
    if manifest is None:
        raise SnapshotError(f"{path.name} has no manifest: it was not written by Attention Explorer")
    return manifest, infos


def _safetensors_header(path: Path) -> tuple[str, dict[str, TensorInfo]]:
    where = Where(path.name, SnapshotError)
    with open_regular(path, SnapshotError) as fh:
        (n,) = struct.unpack("<Q", fh.read(8))
        raw = fh.read(n)
    if len(raw) != n:
        raise SnapshotError(f"{path.name} is damaged or truncated (its header is cut short)")
    header = parse_json(raw, SnapshotError, f"{path.name}: the safetensors header")
    if not isinstance(header, dict):
        raise where.fail("the safetensors header is not an object")
    meta = header.pop("__metadata__", None) or {}
    if not isinstance(meta, dict) or not isinstance(meta.get("manifest"), str):
        raise SnapshotError(f"{path.name} has no manifest: it was not written by Attention Explorer")
    infos = {}
    for name, entry in header.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("shape"), list):
            raise where.fail(f"the header entry of {name!r} is malformed")
        kind = entry.get("dtype")
        if kind == "BF16":
            raise _bf16(path, name)
        if kind not in _SAFETENSORS_DTYPES:
            raise where.fail(f"tensor {name} has the dtype {kind!r}, which is not supported here")
        shape = entry["shape"]
        if not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 2**40 for s in shape):
            raise where.fail(f"tensor {name} has an invalid shape {shape!r:.60}")
        infos[name] = TensorInfo(tuple(shape), np.dtype(_SAFETENSORS_DTYPES[kind]))
    return meta["manifest"], infos


def _pt_declared_bytes(path: Path) -> int:
    """The uncompressed size a pt archive declares: what torch.load would hold."""
    try:
        with zipfile.ZipFile(path) as zf:
            return sum(i.file_size for i in zf.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        raise SnapshotError(f"{path.name} is damaged or truncated (not a complete zip archive)") from None


def _pt_load(path: Path) -> tuple[str, dict[str, np.ndarray]]:
    import pickle

    import torch

    try:
        payload = torch.load(path, map_location="cpu", weights_only=True, mmap=True)
    except pickle.UnpicklingError as exc:
        if "Weights only load failed" in str(exc):
            raise SnapshotError(f"{path.name} {PICKLE}") from None
        raise
    if not isinstance(payload, dict) or not isinstance(payload.get("manifest"), str):
        raise SnapshotError(f"{path.name} has no manifest: it was not written by Attention Explorer")
    manifest = payload.pop("manifest")
    arrays = {}
    for k, v in payload.items():
        if not isinstance(k, str) or not isinstance(v, torch.Tensor):
            raise SnapshotError(f"{path.name}: entry {str(k)[:60]!r} is not a tensor")
        if v.dtype == torch.bfloat16:
            raise _bf16(path, k)
        try:
            arrays[k] = v.numpy()
        except (TypeError, RuntimeError):
            raise SnapshotError(
                f"{path.name}: tensor {k} has the dtype {v.dtype}, which is not supported here"
            ) from None
    return manifest, arrays


def _damaged(path: Path, fmt: str, exc: BaseException) -> SnapshotError:
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return SnapshotError(f"cannot read {path.name} ({fmt}): the file is damaged or truncated ({first[:120]})")


def _parse_manifest(path: Path, text: str | bytes) -> dict[str, Any]:
    manifest = parse_json(text, SnapshotError, f"{path.name}: the manifest")
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise SnapshotError(f"{path.name} is not an Attention Explorer snapshot")
    version = manifest.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        shown = version if isinstance(version, int) and not isinstance(version, bool) and abs(version) < 10**6 else "?"
        if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
            raise SnapshotError(
                f"{path.name} uses snapshot format {shown}, newer than this app reads ({FORMAT_VERSION}); "
                "update Attention Explorer"
            )
        raise SnapshotError(f"{path.name}: format_version must be a whole number from 1 to {FORMAT_VERSION}")
    return manifest


def _headers(path: Path) -> tuple[str, Manifest, dict[str, TensorInfo] | None, dict[str, np.ndarray] | None]:
    """(format, checked manifest, tensor infos, arrays): pt files have no header to read, so their arrays
    come now (memory-mapped: nothing is resident until used)."""
    path = Path(path)
    check_regular(path, SnapshotError, missing=f"cannot open {path}: no such file")
    fmt = sniff_format(path)
    arrays = None
    try:
        if fmt == "npz":
            text, infos = _npz_header(path)
        elif fmt == "safetensors":
            text, infos = _safetensors_header(path)
        else:
            _check_budget(path, _pt_declared_bytes(path), "declares")
            text, arrays = _pt_load(path)
            infos = {k: TensorInfo(tuple(a.shape), a.dtype) for k, a in arrays.items()}
    except ExplorerError:
        raise
    except (RecursionError, MemoryError):
        raise
    except Exception as exc:  # zipfile, numpy, torch raise many kinds for damaged files
        raise _damaged(path, fmt, exc) from None
    where = Where(path.name, SnapshotError)
    manifest = check_manifest(_parse_manifest(path, text), where)
    check_tensors(manifest, infos, where)
    return fmt, manifest, infos, arrays


def _check_budget(path: Path, declared: int, verb: str = "declares") -> None:
    budget = memory_budget_bytes()
    if declared > budget:
        raise SnapshotError(
            f"{path.name} {verb} {declared / 1024**3:.1f} GiB of tensors, more than the {budget / 1024**3:.1f} GiB "
            "memory budget; raise it with ATTENTION_EXPLORER_MEMORY_GB if this machine has the memory"
        )


def read_header(path: str | Path) -> tuple[dict[str, Any], dict[str, TensorInfo]]:
    """The manifest (checked) and each tensor's shape and dtype, reading no tensor data (except from pt)."""
    _, manifest, infos, _ = _headers(Path(path))
    return manifest.raw, infos


def _read(path: Path) -> tuple[Manifest, dict[str, np.ndarray]]:
    fmt, manifest, infos, arrays = _headers(path)
    if arrays is None:
        _check_budget(path, sum(i.nbytes for i in infos.values()))
        try:
            if fmt == "npz":
                with open_regular(path, SnapshotError) as fh, np.load(fh, allow_pickle=False) as data:
                    arrays = {k: data[k] for k in data.files if k != "manifest"}
            else:
                from safetensors import safe_open

                with safe_open(str(path), framework="numpy") as f:
                    arrays = {k: f.get_tensor(k) for k in f.keys()}
        except ExplorerError:
            raise
        except MemoryError:
            raise
        except Exception as exc:
            raise _damaged(path, fmt, exc) from None
        got = {k: TensorInfo(tuple(a.shape), a.dtype) for k, a in arrays.items()}
        if got != infos:  # the data must be what the headers said
            raise SnapshotError(f"{path.name} is damaged: its tensors differ from what its headers declare")
    check_values(manifest, arrays, Where(path.name, SnapshotError))
    return manifest, arrays


def read_manifest_and_arrays(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    manifest, arrays = _read(Path(path))
    return manifest.raw, arrays


def read_snapshot(path: str | Path) -> Trace:
    """A read-only Trace from a snapshot file, without running any model."""
    path = Path(path)
    m, arrays = _read(path)
    raw = m.raw
    info = TraceInfo(
        rows=tuple(Row(*r) for r in m.rows),
        config=m.config,
        options=m.options,
        source=raw.get("weights_source") or "",
        seed=m.seed,
        vocab=m.vocab,
        notices=m.notices,
        labels={n: e["labels"] for n, e in m.names.items()},
        model_name=raw.get("model_name") or "",
        tokenizer_kind=raw.get("tokenizer_kind") or "",
        interventions=m.interventions,  # checked (explorer/export/snapshot_kinds.py)
        app_version=raw.get("app_version") or "",
        origin=str(path),
    )
    trace = Trace(arrays, info)
    notices = with_nonfinite_notice(info.notices, trace)  # NaN from the run: opened, and said
    return trace if notices == info.notices else Trace(arrays, dataclasses.replace(info, notices=notices))


__all__ = ["read_header", "read_manifest_and_arrays", "read_snapshot", "sniff_format", "TensorInfo"]
