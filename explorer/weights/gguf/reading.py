"""Reading a GGUF file itself (the slow path): metadata, then every tensor dequantised to float32, W_q and
W_k un-permuted from llama.cpp's layout, nn.Linear's (out, in) turned into the note's (in, out)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import torch

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families import LLAMA, gguf_family
from explorer.util.schema import Where, text
from explorer.weights.gguf.config import config_from_gguf
from explorer.weights.gguf.header import read_header
from explorer.weights.gguf.tokenizer import tokenizer_from_metadata
from explorer.weights.real_models import Filler, Progress, check_cancel, check_shape, kept_dtype, report


def unpermute_rows(w: np.ndarray, heads: int) -> np.ndarray:
    """Undo llama.cpp's Q/K permutation: within each head, rows (i, half) go back to (half, i).

    llama.cpp interleaves the two halves of each head's rows so that it can rotate adjacent pairs
    (2i, 2i+1); Hugging Face and our model rotate (i, i + D/2).   w: (heads·D, E) → (heads·D, E)
    """
    rows = w.shape[0]
    return w.reshape(heads, rows // heads // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def gguf_sources(cfg: ModelConfig, arch: str | None = None) -> dict[str, tuple[str, str]]:
    """Our parameter name → (GGUF tensor name, how), as the architecture's family declares it (None: llama's):
    "copy", "T" (the last two axes swapped: a matrix, or each of a mixture's stacked experts), "qT" (unpermute for
    H, then T), "kT", "T0" (T into row 0 of a stack: Qwen-MoE's shared expert), "col" ((E,) or (1, E) as (E, 1)),
    "zeros", "rows:a:b" (``explorer/families/llama_kind.py``, ``moe_fields.py``)."""
    family = gguf_family(arch) or LLAMA
    return family.gguf_sources(cfg)


def _file_shape(shape: tuple[int, ...], how: str, actual: tuple[int, ...]) -> tuple[int, ...]:
    """The numpy-order (out, in) shape the file's tensor must have for our parameter of ``shape``."""
    if how == "copy":
        return shape
    if how.startswith("rows:"):  # a slice of a fused tensor: its columns must match, its rows hold the slice
        stop = int(how.split(":")[2])
        return (max(actual[0], stop) if actual else stop, shape[0])
    if how == "T0":  # row 0 of our (1, in, out) stack, stored (out, in)
        return (shape[2], shape[1])
    if how == "col":  # llama.cpp declares Qwen-MoE's shared-expert gate (E,); its converter writes (1, E)
        return actual if actual == (shape[0],) else (1, shape[0])
    return shape[:-2] + (shape[-1], shape[-2])  # (out, in): a matrix, or each of X stacked experts


def _arrange(w: np.ndarray, how: str, cfg: ModelConfig) -> np.ndarray:
    """A file's tensor (numpy order) in the note's orientation, as ``how`` says (``gguf_sources``)."""
    if how == "qT":
        w = unpermute_rows(w, cfg.H).T
    elif how == "kT":
        w = unpermute_rows(w, cfg.H_kv).T
    elif how in ("T", "T0"):
        w = w.swapaxes(-1, -2)
    elif how == "col":
        w = w.reshape(-1, 1)
    elif how.startswith("rows:"):  # phi3's fused attn_qkv and ffn_up (gate then up)
        start, stop = (int(x) for x in how.split(":")[1:])
        w = w[start:stop].T
    w = np.ascontiguousarray(w)
    if not w.flags.writeable:  # float32 tensors come straight from the read-only memory map
        w = w.copy()
    return w


# GGUF's names of the float types (a quantised type keeps its own name: Q4_K, Q8_0, …)
_STORED = {"F16": "float16", "BF16": "bfloat16", "F32": "float32", "F64": "float64"}


def read_file(path: Path, progress: Progress | None, cancel: threading.Event | None, dtype: str = "float32"):
    """(config, tokenizer, model, name, stored dtype) from the GGUF file itself: the slow path. ``dtype``: the
    run's; a file whose matrices are F16 or BF16 is kept in that dtype when the run asks for it."""
    from gguf.quants import dequantize

    origin = path.name
    report(progress, 0, 1, "reading GGUF metadata")
    # Every declared count and length against the file's size and the limits real files keep, then read.
    meta, tensors = read_header(path, origin)
    check_cancel(cancel)
    cfg = config_from_gguf(meta, tensors, origin)
    tokenizer = tokenizer_from_metadata(meta, origin)
    tokenizer.check_fits(cfg.vocab_size, 0, origin)  # its largest id has a row of token_embd.weight

    sources = gguf_sources(cfg, str(meta.get("general.architecture")))
    # What the file stores its matrices in (llama.cpp keeps the norms' vectors in F32 beside F16 matrices).
    matrices = [tensors[k] for k, _ in sources.values() if k in tensors and len(tensors[k].shape) >= 2]
    stored = {_STORED.get(t.tensor_type.name, t.tensor_type.name) for t in matrices}
    filler = Filler(cfg, origin, kept_dtype(stored, dtype))
    for ours, (key, how) in sources.items():  # names and shapes first: a damaged file fails before the slow part
        if how == "zeros":
            continue
        if key not in tensors:
            raise ModelLoadError(f"{origin}: tensor {key} is missing (needed for {ours})")
        actual = tuple(int(s) for s in reversed(tensors[key].shape))  # the reader lists ggml order (in, out)
        check_shape(origin, key, actual, _file_shape(filler.shape(ours), how, actual), "the metadata")
    total = len(sources)
    for done, (ours, (key, how)) in enumerate(sources.items(), 1):
        check_cancel(cancel)
        if how == "zeros":  # a bias this architecture lacks (our model has all or none)
            filler.zero(ours)
            continue
        t = tensors[key]
        if t.tensor_type.name.startswith("I"):  # I8 … I64: integers are not weights
            raise ModelLoadError(f"{origin}: {key} is {t.tensor_type.name}, expected floating point numbers")
        try:
            w = dequantize(t.data, t.tensor_type).astype(np.float32, copy=False)
        except Exception as exc:
            raise ModelLoadError(f"{origin}: cannot dequantise {key} ({t.tensor_type.name}): {exc}") from None
        w = _arrange(w.reshape(tuple(int(s) for s in reversed(t.shape))), how, cfg)  # (out, in) or (E,) first
        if how == "T0":
            filler.put_part(ours, 0, torch.from_numpy(w), key)
        else:
            filler.put(ours, torch.from_numpy(w), key)
        report(progress, done, total, key)
    try:  # shown and written into snapshots: only valid text (no lone surrogate), else the file's name
        name = text(meta.get("general.name") or path.stem, "general.name", Where(origin, ModelLoadError), 200)
    except ModelLoadError:
        name = path.stem
    return cfg, tokenizer, filler.finish(), name, ", ".join(sorted(stored)) or "float32"
