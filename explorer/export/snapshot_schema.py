"""The one place a snapshot's manifest and tensors are checked (docs/snapshot-format.md).

A snapshot comes from anywhere. Before this module, a manifest with ``names`` as a list, ``batch: []``,
``vocab: 5``, tensors whose shapes disagreed with the config or NaN in a map ended in tracebacks, in the
CLI or (worse) inside the window's views after the file had been accepted. Now every field is checked for
type and range, every tensor's shape is checked against what the config and the batch imply, and every
float tensor for NaN, before a Trace is built; anything else is one SnapshotError line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from explorer import names
from explorer.config import MAX_SENTENCES, ModelConfig, RunOptions
from explorer.errors import ConfigError
from explorer.export.snapshot_kinds import (
    check_generation,
    check_interventions,
    check_kind_tensors,
    check_kind_values,
    kind_of,
)
from explorer.trace.finite import first_nonfinite
from explorer.util.schema import (
    Where,
    flag,
    listing,
    mapping,
    model_config,
    number,
    optional,
    text,
    valid_unicode,
    whole,
)

MAX_TOKENS_PER_ROW = 1 << 20
FLOAT_DTYPES = (np.dtype("float32"), np.dtype("float64"))


@dataclass(frozen=True)
class TensorInfo:
    """What a file declares about one tensor, read from its header without reading its data."""

    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * self.dtype.itemsize


@dataclass(frozen=True)
class Manifest:
    raw: dict[str, Any]  # as read (for `info`), every field checked
    rows: tuple[tuple[str, tuple[str, ...], tuple[int, ...], tuple[bool, ...]], ...]
    config: ModelConfig
    options: RunOptions
    names: dict[str, dict[str, Any]]  # name → {"labels", "shape", "dtype"}
    vocab: tuple[str, ...] | None
    notices: tuple[str, ...]
    seed: int | None
    kind: str = "plain"  # "plain", "intervened" or "generation" (explorer/export/snapshot_kinds.py)
    interventions: dict[str, Any] | None = None  # checked: every entry points at a layer, head, position there is
    generation: dict[str, Any] | None = None  # checked: {"steps": [...], "use_cache": bool}


def _row(value: Any, field: str, where: Where):
    row = mapping(value, field, where)
    tokens = tuple(listing(row.get("tokens"), f"{field}.tokens", where, text, MAX_TOKENS_PER_ROW))
    ids = tuple(listing(row.get("ids"), f"{field}.ids", where, whole, MAX_TOKENS_PER_ROW))
    unknown = tuple(
        listing(row.get("unknown", [False] * len(ids)), f"{field}.unknown", where, flag, MAX_TOKENS_PER_ROW)
    )
    if not len(tokens) == len(ids) == len(unknown):
        raise where.fail(
            f"{field} has {len(tokens)} tokens, {len(ids)} ids and {len(unknown)} unknown flags: they must agree"
        )
    if not ids:
        raise where.fail(f"{field} has no tokens")
    if "length" in row and whole(row["length"], f"{field}.length", where) != len(ids):
        raise where.fail(f"{field}.length is {row['length']}, but the row has {len(ids)} tokens")
    return (text(row.get("text", ""), f"{field}.text", where), tokens, ids, unknown)


def _entry(value: Any, field: str, where: Where) -> dict[str, Any]:
    entry = mapping(value, field, where)
    return {
        "labels": tuple(listing(entry.get("labels"), f"{field}.labels", where, text, 8)),
        "shape": tuple(listing(entry.get("shape"), f"{field}.shape", where, whole, 8)) if "shape" in entry else None,
        "dtype": text(entry["dtype"], f"{field}.dtype", where, 16) if "dtype" in entry else None,
    }


def _options(value: Any, where: Where) -> RunOptions:
    data = mapping(value, "options", where)
    mask = data.get("mask", "causal")
    if isinstance(mask, dict):
        kind = text(mask.get("kind"), "options.mask.kind", where, 16)
        size = optional(whole)(mask.get("size"), "options.mask.size", where)
        matrix = mask.get("matrix")
        if matrix is not None:
            matrix = listing(
                matrix,
                "options.mask.matrix",
                where,
                lambda r, f, w: listing(r, f, w, lambda v, g, x: whole(v, g, x, 0, 1), 1 << 16),
                1 << 16,
            )
        mask = {"kind": kind, "size": size, "matrix": matrix}
    else:
        mask = text(mask, "options.mask", where, 64)
    ltc = data.get("layers_to_capture")
    try:
        return RunOptions.from_dict(
            {
                "mask": mask,
                "scale": flag(data.get("scale", True), "options.scale", where),
                "temperature": number(data.get("temperature", 1.0), "options.temperature", where, positive=True),
                "dtype": text(data.get("dtype", "float32"), "options.dtype", where, 16),
                "device": text(data.get("device", "cpu"), "options.device", where, 64),
                "layers_to_capture": None
                if ltc is None
                else listing(ltc, "options.layers_to_capture", where, whole, 4096),
                "lazy_pairwise": flag(data.get("lazy_pairwise", False), "options.lazy_pairwise", where),
            }
        )
    except ConfigError as exc:
        raise where.fail(f"the run options cannot be used ({exc})") from None


def check_manifest(raw: Any, where: Where) -> Manifest:
    """Every field of a parsed manifest, checked; ``format``/``format_version`` are checked by the reader."""
    m = mapping(raw, "the manifest", where)
    valid_unicode(m, "the manifest", where)
    for key in ("batch", "config"):
        if key not in m:
            raise where.fail(f"the manifest is incomplete ({key} is missing)")
    for key in ("app_version", "text", "weights_source", "model_name", "tokenizer_kind", "dtype", "device"):
        if m.get(key) is not None:
            text(m[key], key, where)
    rows = tuple(listing(m.get("batch"), "batch", where, _row, MAX_SENTENCES))
    if not rows:
        raise where.fail("batch is empty: a snapshot holds at least one sentence")
    config = model_config(m.get("config"), where)
    options = _options(m.get("options", {}), where)
    described = mapping(m.get("names", {}), "names", where)
    entries = {text(n, "a key of names", where, 200): _entry(v, f"names[{n!r}]", where) for n, v in described.items()}
    vocab = m.get("vocab")
    if vocab is not None:
        vocab = tuple(listing(vocab, "vocab", where, text, config.vocab_size + 1))
        if len(vocab) != config.vocab_size:
            raise where.fail(f"vocab has {len(vocab)} entries but the config's V is {config.vocab_size}")
    notices = tuple(listing(m.get("notices", []), "notices", where, text, 10_000))
    seed = optional(whole)(m.get("seed"), "seed", where, 0, 2**63 - 1)
    C = max(len(r[2]) for r in rows)
    interventions = check_interventions(m, config, C, where)
    generation = check_generation(m, config, C, len(rows), where)
    return Manifest(m, rows, config, options, entries, vocab, notices, seed, kind_of(m), interventions, generation)


def _dims(manifest: Manifest, C: int, where: Where) -> dict[str, int]:
    cfg = manifest.config
    dims = {
        "B": len(manifest.rows),
        "C": C,
        "E": cfg.E,
        "D": cfg.D,
        "D_v": cfg.D_v,
        "R": cfg.R,
        "H": cfg.H,
        "H_kv": cfg.H_kv,
        "F": cfg.F,
        "V": cfg.V,
        "P": cfg.max_positions,
        "S": cfg.segments,
        "N_q": cfg.qk_norm_width(cfg.H),
        "N_k": cfg.qk_norm_width(cfg.H_kv),
        "X": cfg.experts,
        "K": cfg.experts_per_token,
        "F_x": cfg.F_x,
        "F_s": cfg.shared_expert_dim or 0,
        "1": 1,
    }
    T = len(manifest.generation["steps"]) if manifest.generation is not None else None
    if T is not None:  # a generation: step t's query sees C + t keys; the cache holds every token fed so far
        dims.update(T=T, C_total=max(C, C + T - 1))
    return dims


def expected_shape(name: str, dims: dict[str, int]) -> tuple[int, ...]:
    """The shape ``name`` must have: its labels from names.py with the config's sizes (``H·D`` a product)."""
    return tuple(math.prod(dims[part] for part in label.split("·")) for label in names.spec(name).labels)


def check_tensors(manifest: Manifest, infos: dict[str, TensorInfo], where: Where) -> None:
    """Names, shapes and dtypes of every tensor against the manifest and the config (headers only)."""
    unknown = [k for k in infos if not names.is_known(k)]
    if unknown:
        raise where.fail(f"holds tensors this app does not know: {', '.join(unknown[:5])}")
    for required in ("tokens", "mask"):
        if required not in infos:
            raise where.fail(f"lacks the {required!r} tensor")
    tokens = infos["tokens"]
    if len(tokens.shape) != 2 or tokens.shape[0] != len(manifest.rows):
        raise where.fail(
            f"tokens has shape {tokens.shape}, but the batch has {len(manifest.rows)} rows: expected (B, C)"
        )
    C = tokens.shape[1]
    longest = max(len(r[2]) for r in manifest.rows)
    if longest != C:
        raise where.fail(f"the longest row of the batch has {longest} tokens, but tokens has {C} columns")
    dims = _dims(manifest, C, where)
    for name, info in infos.items():
        if name.startswith(("gen.", "cache.")) and "T" not in dims:
            raise where.fail(f"{name} belongs to a generation, but the manifest has no generation field")
        layer = names.layer_of(name)
        if layer is not None and layer >= manifest.config.layers:
            raise where.fail(f"{name} names layer {layer}, but the config has {manifest.config.layers} layers")
        if info.shape != expected_shape(name, dims):
            raise where.fail(f"{name} has shape {info.shape}, but the manifest implies {expected_shape(name, dims)}")
        if name in ("tokens", "gen.tokens", "segments") or name.endswith(".ffn.experts_chosen"):
            ok = info.dtype.kind in "iu"
        elif name.startswith("mask"):
            ok = info.dtype == np.dtype(bool)
        else:
            ok = info.dtype in FLOAT_DTYPES
        if not ok:
            raise where.fail(f"{name} is {info.dtype}, which a snapshot never holds there")
        entry = manifest.names.get(name)
        if entry is not None:
            if len(entry["labels"]) != len(info.shape):
                raise where.fail(f"names[{name!r}] has {len(entry['labels'])} labels for {len(info.shape)} dimensions")
            if entry["shape"] is not None and entry["shape"] != info.shape:
                raise where.fail(f"names[{name!r}] says shape {entry['shape']}, the tensor has {info.shape}")
    check_kind_tensors(manifest, infos, where)


def check_values(manifest: Manifest, arrays: dict[str, np.ndarray], where: Where) -> None:
    """What only the data shows: NaN or infinities, token ids outside the vocabulary or unlike the manifest's."""
    V = manifest.config.vocab_size
    tokens = arrays["tokens"]
    if tokens.size and (int(tokens.min()) < 0 or int(tokens.max()) >= V):
        raise where.fail(f"tokens holds ids outside the vocabulary 0 … {V - 1}")
    for b, (_, _, ids, _) in enumerate(manifest.rows):
        if max(ids) >= V:
            raise where.fail(f"batch[{b}].ids holds ids outside the vocabulary 0 … {V - 1}")
        if tuple(int(i) for i in tokens[b, : len(ids)]) != ids:
            raise where.fail(f"batch[{b}].ids differ from row {b} of the tokens tensor")
    # NaN or an infinity in an activation is what the run gave (an extreme setting): the reader opens the
    # snapshot with the notice naming where (explorer/trace/finite.py). The weights never hold one: every
    # loader refuses them, so a parameter that does was edited.
    params = [(n, a) for n, a in arrays.items() if n.startswith("params.") and a.dtype in FLOAT_DTYPES]
    bad = first_nonfinite(params)
    if bad is not None:
        raise where.fail(f"{bad} holds NaN or infinite values; a model's weights never do")
    check_kind_values(manifest, arrays, where)
