"""Open a GGUF file of the llama architecture (llama.cpp's format), offline, with the ``gguf`` package.

Steps: read the metadata (sizes, rope base, tokenizer), dequantise every tensor to float32, undo the
row permutation that llama.cpp's converter applies to W_q and W_k (so that our RoPE, which rotates the
pair (i, i + D/2) like Hugging Face's "rotate half", sees the same layout), transpose nn.Linear's
(out, in) into the note's (in, out), and build the tokenizer from the metadata with HF ``tokenizers``.

Dequantising is slow (seconds for a 135M-parameter file, mostly the metadata parse of a 49k-token
vocabulary), so the result is cached in the user's cache folder as float32 safetensors + config +
tokenizer.json, keyed by the file's path, size and modification time. The second open reads the cache.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import numpy as np
import torch

from explorer import __version__
from explorer.config import ModelConfig
from explorer.errors import Cancelled, ModelLoadError
from explorer.util.fileio import atomic_dir
from explorer.util.paths import user_cache_dir
from explorer.util.reading import check_regular, open_regular, read_json
from explorer.util.schema import Where, listing, number, text, whole
from explorer.tokenize import Tokenizer
from explorer.weights.bundle import ModelBundle
from explorer.weights.real_models import Filler, Progress, check_cancel, check_fits, check_shape, make_config, report

log = logging.getLogger(__name__)

CACHE_FORMAT = "attention-explorer-gguf-cache"
CACHE_VERSION = 1  # bump when what is stored (names, orientation, tokenizer building) changes

# ------------------------------------------------------------------------------------------- tokenizer

_GPT2_SPLIT = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"
_LLAMA3_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# llama.cpp's pre-tokenizer names (tokenizer.ggml.pre) → the splits it applies before byte-level BPE.
# "smollm" (and the StarCoder family) first isolate every digit, then use GPT-2's split.
_PRE_SPLITS: dict[str, tuple[str, ...]] = {
    "default": (_GPT2_SPLIT,),
    "gpt2": (_GPT2_SPLIT,),
    "gpt-2": (_GPT2_SPLIT,),
    "mpt": (_GPT2_SPLIT,),
    "olmo": (_GPT2_SPLIT,),
    "jais": (_GPT2_SPLIT,),
    "smollm": (r"\p{N}", _GPT2_SPLIT),
    "starcoder": (r"\p{N}", _GPT2_SPLIT),
    "refact": (r"\p{N}", _GPT2_SPLIT),
    "codeshell": (r"\p{N}", _GPT2_SPLIT),
    "command-r": (r"\p{N}", _GPT2_SPLIT),
    "exaone": (r"\p{N}", _GPT2_SPLIT),
    "minerva-7b": (r"\p{N}", _GPT2_SPLIT),
    "llama3": (_LLAMA3_SPLIT,),
    "llama-v3": (_LLAMA3_SPLIT,),
    "llama-bpe": (_LLAMA3_SPLIT,),
    "smaug-bpe": (_LLAMA3_SPLIT,),
    "falcon3": (_LLAMA3_SPLIT,),
    "dbrx": (_LLAMA3_SPLIT,),
    "qwen2": (_QWEN2_SPLIT,),
    "deepseek-r1-qwen": (_QWEN2_SPLIT,),
}

# tokenizer.ggml.token_type values (llama.cpp's llama_token_type)
_CONTROL, _USER_DEFINED = 3, 4


def tokenizer_from_metadata(meta: dict[str, Any], origin: str) -> Tokenizer:
    """The tokenizer a GGUF file describes: byte-level BPE ("gpt2") or SentencePiece BPE ("llama")."""
    check_tokenizer_metadata(meta, origin)
    kind = meta.get("tokenizer.ggml.model")
    tokens = meta.get("tokenizer.ggml.tokens")
    if kind in ("gpt2", "llama") and not tokens:
        raise ModelLoadError(f"{origin}: the tokenizer's vocabulary is missing from the metadata")
    if kind == "gpt2":
        hf = _byte_level_bpe(meta, tokens, origin)
    elif kind == "llama":
        hf = _sentencepiece_bpe(meta, tokens, origin)
    else:
        raise ModelLoadError(
            f"{origin}: tokenizer {kind!r} is not supported; this version reads byte-level BPE ('gpt2', as SmolLM2 "
            "and Llama 3) and SentencePiece BPE ('llama', as Llama 2 and TinyLlama)"
        )
    _add_special_tokens(hf, tokens, meta.get("tokenizer.ggml.token_type") or [])
    if hf.get_vocab_size(with_added_tokens=True) != len(tokens):
        raise ModelLoadError(f"{origin}: the tokenizer's vocabulary has repeated tokens")
    return Tokenizer(hf, "hf")


def _bpe(vocab: dict[str, int], merges: list[tuple[str, str]], origin: str, **options):
    from tokenizers import models

    try:
        return models.BPE(vocab=vocab, merges=merges, **options)
    except Exception as exc:
        raise ModelLoadError(f"{origin}: cannot build the tokenizer ({exc})") from None


def _byte_level_bpe(meta: dict[str, Any], tokens: list[str], origin: str):
    """GPT-2-style BPE over bytes spelled as printable characters, with the file's merges."""
    import tokenizers
    from tokenizers import Regex, decoders, pre_tokenizers, processors

    merges = meta.get("tokenizer.ggml.merges")
    if merges is None:
        raise ModelLoadError(f"{origin}: the tokenizer's merges are missing from the metadata")
    pairs = []
    for m in merges:
        a, sep, b = m.partition(" ")
        if not sep:
            raise ModelLoadError(f"{origin}: malformed tokenizer merge {m!r}")
        pairs.append((a, b))
    hf = tokenizers.Tokenizer(_bpe({t: i for i, t in enumerate(tokens)}, pairs, origin, fuse_unk=False))
    pre = meta.get("tokenizer.ggml.pre") or "default"
    splits = _PRE_SPLITS.get(pre)
    if splits is None:
        log.warning("%s: unknown pre-tokenizer %r, using GPT-2's split", origin, str(pre)[:60])
        splits = _PRE_SPLITS["default"]
    hf.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(s), behavior="isolated") for s in splits]
        + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
    )
    hf.decoder = decoders.ByteLevel()
    hf.post_processor = processors.ByteLevel(trim_offsets=False)
    return hf


def _sentencepiece_bpe(meta: dict[str, Any], tokens: list[str], origin: str):
    """SentencePiece BPE (Llama 2, TinyLlama): "▁" marks a space, unknown characters fall back to <0xNN> bytes.

    The file has scores, not merges; the merges are recovered from them: every token that splits into two
    tokens gives a merge, ranked by the merged token's score (higher merges first).
    """
    import tokenizers
    from tokenizers import decoders, pre_tokenizers

    scores = meta.get("tokenizer.ggml.scores")
    vocab = {t: i for i, t in enumerate(tokens)}
    if meta.get("tokenizer.ggml.merges"):
        pairs = [tuple(m.split(" ", 1)) for m in meta["tokenizer.ggml.merges"]]
    else:
        if not scores or len(scores) != len(tokens):
            raise ModelLoadError(f"{origin}: a SentencePiece tokenizer needs tokenizer.ggml.scores for every token")
        found = []
        for token, score in zip(tokens, scores):
            local = [(token[:i], token[i:]) for i in range(1, len(token)) if token[:i] in vocab and token[i:] in vocab]
            local.sort(key=lambda ab: (vocab[ab[0]], vocab[ab[1]]))
            found.extend((a, b, float(score)) for a, b in local)
        found.sort(key=lambda m: (m[2], len(m[0]), len(m[1])), reverse=True)
        pairs = [(a, b) for a, b, _ in found]
    unk_id = meta.get("tokenizer.ggml.unknown_token_id")
    unk = tokens[unk_id] if isinstance(unk_id, int) and 0 <= unk_id < len(tokens) else None
    hf = tokenizers.Tokenizer(_bpe(vocab, pairs, origin, unk_token=unk, fuse_unk=True, byte_fallback=True))
    prefix = bool(meta.get("tokenizer.ggml.add_space_prefix", True))
    hf.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="first" if prefix else "never", split=False)
    steps = [decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse()]
    if prefix:
        steps.append(decoders.Strip(content=" ", left=1))
    hf.decoder = decoders.Sequence(steps)
    return hf


def _add_special_tokens(hf, tokens: list[str], types: list[int]) -> None:
    """Control tokens (<|im_start|>, <s>) and user-defined ones stay whole instead of being cut into pieces."""
    from tokenizers import AddedToken

    special = [AddedToken(t, special=True, normalized=False) for t, k in zip(tokens, types) if k == _CONTROL]
    user = [AddedToken(t, special=False, normalized=False) for t, k in zip(tokens, types) if k == _USER_DEFINED]
    if special:
        hf.add_special_tokens(special)
    if user:
        hf.add_tokens(user)


# ------------------------------------------------------------------------------------------- reading


def _open_reader(path: Path):
    from gguf import GGUFReader

    try:
        return GGUFReader(str(path), "r")
    except Exception as exc:  # ValueError, struct errors, numpy errors on a truncated file
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelLoadError(f"cannot read {path.name} as GGUF: {text} (is the file complete?)") from None


def _metadata(reader) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key, field in reader.fields.items():
        try:
            meta[key] = field.contents()
        except Exception:  # a value type we do not need and the reader cannot decode
            continue
    return meta


# Every metadata field this importer reads, checked in one place (explorer/util/schema.py): a head count of 0 once
# ended in ZeroDivisionError, an embedding length of "abc" or inf in a traceback, a NaN or negative rope base
# in NaN probabilities.


def _need(meta: dict, key: str, origin: str) -> Any:
    if key not in meta:
        raise ModelLoadError(f"{origin}: metadata {key} is missing")
    return meta[key]


def _size(meta: dict, key: str, origin: str, default: int | None = None) -> int:
    value = _need(meta, key, origin) if default is None else meta.get(key, default)
    return whole(value, key, Where(origin, ModelLoadError), lo=1)


def _real(meta: dict, key: str, origin: str, default: float, hi: float = math.inf) -> float:
    return number(meta.get(key, default), key, Where(origin, ModelLoadError), positive=True, hi=hi)


def check_tokenizer_metadata(meta: dict[str, Any], origin: str) -> None:
    """The tokenizer's fields: lists of the right item types (the tokenizers library panics on others)."""
    where = Where(origin, ModelLoadError)
    for key, item in (
        ("tokenizer.ggml.model", None), ("tokenizer.ggml.pre", None),
        ("tokenizer.ggml.tokens", text), ("tokenizer.ggml.merges", text),
        ("tokenizer.ggml.token_type", whole), ("tokenizer.ggml.scores", lambda v, f, w: number(v, f, w)),
    ):
        if meta.get(key) is None:
            continue
        if item is None:
            text(meta[key], key, where, 200)
        else:
            listing(meta[key], key, where, item)
    unk = meta.get("tokenizer.ggml.unknown_token_id")
    if unk is not None:
        whole(unk, "tokenizer.ggml.unknown_token_id", where)


def config_from_gguf(meta: dict[str, Any], tensors: dict[str, Any], origin: str) -> ModelConfig:
    arch = meta.get("general.architecture")
    if arch != "llama":
        raise ModelLoadError(f"{origin}: architecture {str(arch)[:60]!r} is not supported; this version opens llama GGUF files")
    a = "llama."
    E = _size(meta, a + "embedding_length", origin)
    H = _size(meta, a + "attention.head_count", origin)
    Hkv = _size(meta, a + "attention.head_count_kv", origin, default=H)
    if E % H and a + "attention.key_length" not in meta:
        raise ModelLoadError(f"{origin}: embedding length {E} is not a multiple of the head count {H}")
    D = _size(meta, a + "attention.key_length", origin, default=E // H or 1)
    if _size(meta, a + "attention.value_length", origin, default=D) != D:
        raise ModelLoadError(f"{origin}: value heads of a size other than the key heads are not supported")
    rope_dim = _size(meta, a + "rope.dimension_count", origin, default=D)
    if rope_dim != D:
        raise ModelLoadError(f"{origin}: partial rotary embeddings ({rope_dim} of {D} dimensions) are not supported")
    scaling = meta.get(a + "rope.scaling.type", "none")
    if scaling not in ("none", None) or "rope_freqs.weight" in tensors:
        kind = str(scaling)[:40] if scaling not in ("none", None) else "per-frequency factors (Llama 3.1)"
        raise ModelLoadError(f"{origin}: rotary scaling {kind!r} is not supported; only plain RoPE is implemented")
    if "token_embd.weight" not in tensors:
        raise ModelLoadError(f"{origin}: tensor token_embd.weight is missing")
    V = int(tensors["token_embd.weight"].shape[1])  # ggml order: (E, V)
    biases = [n for n in tensors if n.endswith(".bias")]
    if biases:
        raise ModelLoadError(f"{origin}: bias tensors ({biases[0]}, …) are not supported in llama GGUF files")
    check_tokenizer_metadata(meta, origin)
    return make_config(
        origin,
        vocab_size=V,
        embed_dim=E,
        key_dim=D,
        heads=H,
        kv_heads=Hkv if Hkv != H else None,
        layers=_size(meta, a + "block_count", origin),
        ffn_dim=_size(meta, a + "feed_forward_length", origin),
        positions="rope",
        max_positions=_size(meta, a + "context_length", origin, default=2048),
        norm="rmsnorm",
        ffn_activation="silu_gated",
        bias=False,
        unembed_bias=False,
        tie_embeddings="output.weight" not in tensors,
        norm_eps=_real(meta, a + "attention.layer_norm_rms_epsilon", origin, 1e-5, hi=1.0),
        rope_theta=_real(meta, a + "rope.freq_base", origin, 10_000.0),
        family="llama",
    )


def unpermute_rows(w: np.ndarray, heads: int) -> np.ndarray:
    """Undo llama.cpp's Q/K permutation: within each head, rows (i, half) go back to (half, i).

    llama.cpp interleaves the two halves of each head's rows so that it can rotate adjacent pairs
    (2i, 2i+1); Hugging Face and our model rotate (i, i + D/2).   w: (heads·D, E) → (heads·D, E)
    """
    rows = w.shape[0]
    return w.reshape(heads, rows // heads // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    """Our parameter name → (GGUF tensor name, how): "copy", "T", "qT" (unpermute for H, then T), "kT"."""
    out = {"embed.tok": ("token_embd.weight", "copy")}
    for l in range(cfg.layers):
        b, p = f"blk.{l}", f"layers.{l}"
        out |= {
            f"{p}.ln_attn.weight": (f"{b}.attn_norm.weight", "copy"),
            f"{p}.attn.W_q": (f"{b}.attn_q.weight", "qT"),
            f"{p}.attn.W_k": (f"{b}.attn_k.weight", "kT"),
            f"{p}.attn.W_v": (f"{b}.attn_v.weight", "T"),
            f"{p}.attn.W_o": (f"{b}.attn_output.weight", "T"),
            f"{p}.ln_ffn.weight": (f"{b}.ffn_norm.weight", "copy"),
            f"{p}.ffn.W_gate": (f"{b}.ffn_gate.weight", "T"),
            f"{p}.ffn.W_in": (f"{b}.ffn_up.weight", "T"),
            f"{p}.ffn.W_out": (f"{b}.ffn_down.weight", "T"),
        }
    out["ln_final.weight"] = ("output_norm.weight", "copy")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = ("output.weight", "T")
    return out


def _read_file(path: Path, progress: Progress | None, cancel: threading.Event | None):
    """(config, tokenizer, model, name) from the GGUF file itself: the slow path."""
    from gguf.quants import dequantize

    origin = path.name
    report(progress, 0, 1, "reading GGUF metadata")
    reader = _open_reader(path)
    check_cancel(cancel)
    meta = _metadata(reader)
    tensors = {t.name: t for t in reader.tensors}
    cfg = config_from_gguf(meta, tensors, origin)
    tokenizer = tokenizer_from_metadata(meta, origin)
    if tokenizer.vocab_size > cfg.vocab_size:
        raise ModelLoadError(f"{origin}: the tokenizer has {tokenizer.vocab_size} tokens but the model only {cfg.vocab_size} embeddings")

    filler = Filler(cfg, origin)
    sources = gguf_sources(cfg)
    for ours, (key, how) in sources.items():  # names and shapes first: a damaged file fails before the slow part
        if key not in tensors:
            raise ModelLoadError(f"{origin}: tensor {key} is missing (needed for {ours})")
        shape = filler.shape(ours)
        expected = tuple(reversed(shape)) if how != "copy" else shape  # numpy order of the file: (out, in)
        actual = tuple(int(s) for s in reversed(tensors[key].shape))  # the reader lists ggml order (in, out)
        check_shape(origin, key, actual, expected, "the metadata")
    total = len(sources)
    for done, (ours, (key, how)) in enumerate(sources.items(), 1):
        check_cancel(cancel)
        t = tensors[key]
        if t.tensor_type.name.startswith("I"):  # I8 … I64: integers are not weights
            raise ModelLoadError(f"{origin}: {key} is {t.tensor_type.name}, expected floating point numbers")
        try:
            w = dequantize(t.data, t.tensor_type).astype(np.float32, copy=False)
        except Exception as exc:
            raise ModelLoadError(f"{origin}: cannot dequantise {key} ({t.tensor_type.name}): {exc}") from None
        w = w.reshape(tuple(int(s) for s in reversed(t.shape)))  # (out, in) or (E,)
        if how == "qT":
            w = unpermute_rows(w, cfg.H).T
        elif how == "kT":
            w = unpermute_rows(w, cfg.H_kv).T
        elif how == "T":
            w = w.T
        w = np.ascontiguousarray(w)
        if not w.flags.writeable:  # float32 tensors come straight from the read-only memory map
            w = w.copy()
        filler.put(ours, torch.from_numpy(w), key)
        report(progress, done, total, key)
    try:  # shown and written into snapshots: only valid text (no lone surrogate), else the file's name
        name = text(meta.get("general.name") or path.stem, "general.name", Where(origin, ModelLoadError), 200)
    except ModelLoadError:
        name = path.stem
    return cfg, tokenizer, filler.finish(), name


# ------------------------------------------------------------------------------------------- cache


def _file_state(path: Path) -> dict[str, Any]:
    st = path.stat()
    return {"path": str(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def cache_folder(path: Path) -> Path:
    """The cache entry of this file: <cache>/gguf/<stem>-<hash of path>-<hash of size, mtime, version>."""
    state = _file_state(path)
    where = hashlib.sha256(state["path"].encode("utf-8")).hexdigest()[:12]
    when = hashlib.sha256(f"{state['size']}|{state['mtime_ns']}|{CACHE_VERSION}".encode()).hexdigest()[:12]
    stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in path.stem)[:60]
    return user_cache_dir() / "gguf" / f"{stem}-{where}-{when}"


def _read_cache(folder: Path, path: Path, progress: Progress | None, cancel: threading.Event | None):
    """(config, tokenizer, model, name) from a cache entry, or None when there is no valid one."""
    meta_file = folder / "meta.json"
    if not meta_file.is_file():
        return None
    try:
        meta = read_json(meta_file, ModelLoadError)
        if meta.get("format") != CACHE_FORMAT or meta.get("version") != CACHE_VERSION or meta.get("source") != _file_state(path):
            return None
        cfg = ModelConfig.from_dict(meta["config"])
    except Exception as exc:  # an unreadable entry is rebuilt
        log.warning("ignoring the damaged cache entry %s: %s", folder, exc)
        return None
    check_fits(cfg, path.name)  # too big for the budget is the user's to know, not a damaged entry
    try:
        tokenizer = Tokenizer.from_file(folder / "tokenizer.json", kind="hf")
        from safetensors import safe_open

        filler = Filler(cfg, path.name)
        with safe_open(str(folder / "model.safetensors"), framework="pt") as f:
            keys = list(f.keys())
            total = len(keys)
            for done, key in enumerate(keys, 1):
                check_cancel(cancel)
                filler.put(key, f.get_tensor(key), f"cached {key}")
                report(progress, done, total, f"cached {key}")
        return cfg, tokenizer, filler.finish(), str(meta.get("name") or path.stem)
    except Cancelled:
        raise
    except Exception as exc:  # anything wrong with the entry (half-deleted, older format): rebuild it
        log.warning("ignoring the damaged cache entry %s: %s", folder, exc)
        return None


def _write_cache(folder: Path, path: Path, cfg: ModelConfig, tokenizer: Tokenizer, model, name: str) -> None:
    from safetensors.torch import save_file

    state = {n: p.detach().contiguous() for n, p in model.named_parameters()}
    meta = {
        "format": CACHE_FORMAT,
        "version": CACHE_VERSION,
        "app_version": __version__,
        "source": _file_state(path),
        "name": name,
        "config": cfg.to_dict(),
    }
    with atomic_dir(folder) as tmp:
        save_file(state, str(tmp / "model.safetensors"))
        tokenizer.save(tmp / "tokenizer.json")
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    # Older entries of the same file (it was modified since) are dead weight: remove them.
    prefix = folder.name.rsplit("-", 1)[0] + "-"
    for other in folder.parent.glob(prefix + "*"):
        if other != folder and other.is_dir() and not other.name.startswith("."):
            shutil.rmtree(other, ignore_errors=True)


def load_gguf(
    path: str | Path,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    use_cache: bool = True,
) -> ModelBundle:
    path = Path(path).expanduser().resolve()
    check_regular(path, ModelLoadError)  # a FIFO or /dev/zero: refused before any open
    with open_regular(path, ModelLoadError) as fh:
        if fh.read(4) != b"GGUF":
            raise ModelLoadError(f"{path.name} is not a GGUF file (it does not start with 'GGUF')")
    use_cache = use_cache and not os.environ.get("ATTENTION_EXPLORER_NO_CACHE")
    folder = cache_folder(path) if use_cache else None
    loaded = _read_cache(folder, path, progress, cancel) if folder is not None else None
    from_cache = loaded is not None
    if loaded is None:
        loaded = _read_file(path, progress, cancel)
    cfg, tokenizer, model, name = loaded
    if folder is not None and not from_cache:
        check_cancel(cancel)
        report(progress, 0, 1, "writing the cache")
        try:
            _write_cache(folder, path, cfg, tokenizer, model, name)
        except Exception as exc:  # the cache only saves time; a full disk must not stop the load
            log.warning("could not cache the dequantised weights: %s", exc)
        report(progress, 1, 1, "writing the cache")
    return ModelBundle(cfg, tokenizer, model, f"gguf:{path}", None, name=name, editable_sizes=False)
