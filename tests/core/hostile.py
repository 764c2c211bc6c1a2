"""Hostile and odd files for issue 13's tests: snapshots with broken manifests, zip bombs and sparse
tensors, GGUF files with impossible metadata, and a child process that reports its own peak memory.

Not a test module (no test_ prefix): imported by tests/core, tests/cli and tests/ui.
"""

from __future__ import annotations

import io
import json
import os
import struct
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
PEN = "This is a pen ."

# --------------------------------------------------------------------------------- a child that measures itself


def run_cli(tmp_path: Path, *argv, env: dict | None = None, timeout: float = 120):
    """``attention-explorer ARGV`` as a real process: (exit code, stdout, stderr, peak RSS in bytes of that
    process, measured inside it). A hang fails the test through TimeoutExpired. The process is forked from a
    zygote that has imported torch once (tests/cli_zygote.py)."""
    from cli_zygote import run_forked

    full_env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / ".config"),
        "XDG_CACHE_HOME": str(tmp_path / ".cache"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "ATTENTION_EXPLORER_SCREENSHOT_TIMEOUT_MS": "60000",
        **(env or {}),
    }
    return run_forked([str(a) for a in argv], full_env, tmp_path, timeout)


def one_error(err: str) -> str:
    """The single `error:` line of stderr (the test fails on a traceback or on two of them)."""
    assert "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1, err
    return lines[0]


# --------------------------------------------------------------------------------- snapshots


def good_snapshot(path: Path, *extra: str) -> Path:
    from explorer.cli import main

    assert main(["export", PEN, "--preset", "seed-toy", "-o", str(path), *extra]) == 0
    return path


def npz_parts(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    with np.load(path, allow_pickle=False) as data:
        return json.loads(bytes(data["manifest"]).decode()), {k: data[k] for k in data.files if k != "manifest"}


def write_npz(
    path: Path, manifest: dict | str | bytes, arrays: dict[str, np.ndarray], extra: dict[str, bytes] | None = None
) -> Path:
    """An npz written member by member, so that a manifest can be any text and odd members can be added."""
    if isinstance(manifest, dict):
        manifest = json.dumps(manifest)
    if isinstance(manifest, str):
        manifest = manifest.encode("utf-8", "surrogatepass")
    with zipfile.ZipFile(path, "w") as zf:
        for name, a in {"manifest": np.frombuffer(manifest, np.uint8), **arrays}.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asanyarray(a), allow_pickle=True)
            zf.writestr(f"{name}.npy", buf.getvalue())
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return path


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def manifest_cases() -> dict:
    """name → function (manifest, arrays) → (manifest or raw text, arrays, extra members), from issue 13."""

    def m(edit):
        return lambda man, arr: (edit(dict(man)), arr, None)

    def a(edit):
        return lambda man, arr: (man, edit(dict(arr)), None)

    def set_(key, value):
        return m(lambda x: {**x, key: value})

    def row(edit):
        return m(lambda x: {**x, "batch": [edit(dict(x["batch"][0])), *x["batch"][1:]]})

    return {
        "names-list": set_("names", ["tokens", "mask"]),
        "names-string-entry": m(lambda x: {**x, "names": {**x["names"], "tokens": "labels"}}),
        "integer-labels": m(
            lambda x: {**x, "names": {**x["names"], "tokens": {**x["names"]["tokens"], "labels": [1, 2]}}}
        ),
        "deep-json": lambda man, arr: (json.dumps(man)[:-1] + ', "deep": ' + _deep(200_000) + "}", arr, None),
        "5000-digits": lambda man, arr: (json.dumps(man)[:-1] + ', "seed": ' + "9" * 5000 + "}", arr, None),
        "lone-surrogate": row(lambda r: {**r, "tokens": ["\ud800", *r["tokens"][1:]]}),
        "surrogate-elsewhere": m(lambda x: {**x, "comment": ["\udc00"], "\ud800": 1}),
        "non-npy-member": lambda man, arr: (man, arr, {"readme.txt": b"hello"}),
        "batch-empty": set_("batch", []),
        "vocab-5": set_("vocab", 5),
        "notices-5": set_("notices", 5),
        # NaN or an infinity in an activation is what a run can give (issue 44: opened, with a notice); in the
        # weights it never is (every loader refuses them): the file was edited
        "nan-tensor": a(lambda x: {**x, "params.embed.tok": np.full_like(x["params.embed.tok"], np.nan)}),
        "inf-tensor": a(lambda x: {**x, "params.unembed.W_u": np.full_like(x["params.unembed.W_u"], np.inf)}),
        "shape-disagrees": a(lambda x: {**x, "embed.out": x["embed.out"][..., :-1]}),
        "vocab-million": m(lambda x: {**x, "config": {**x["config"], "vocab_size": 10**6}}),
        "zero-d-array": a(lambda x: {**x, "layers.0.attn.weights": np.float32(0.5)}),
        "short-token-list": row(lambda r: {**r, "tokens": r["tokens"][:2]}),
        "non-string-vocab": m(lambda x: {**x, "vocab": list(range(len(x["vocab"])))}),
        "format-version-bool": set_("format_version", True),
        "config-string": set_("config", "big"),
        "eps-string": m(lambda x: {**x, "config": {**x["config"], "norm_eps": "abc"}}),
        "heads-zero": m(lambda x: {**x, "config": {**x["config"], "heads": 0}}),
        "temperature-nan": m(lambda x: {**x, "options": {**x["options"], "temperature": float("nan")}}),
        "ids-out-of-vocab": row(lambda r: {**r, "ids": [10**9, *r["ids"][1:]]}),
        "tokens-array-float": a(lambda x: {**x, "tokens": x["tokens"].astype(np.float32)}),
        "object-array": a(lambda x: {**x, "logits": np.array([object()], dtype=object)}),
    }


def hostile_snapshot(good: Path, case: str, out: Path) -> Path:
    manifest, arrays = npz_parts(good)
    new_manifest, new_arrays, extra = manifest_cases()[case](manifest, arrays)
    return write_npz(out, new_manifest, new_arrays, extra)


def npz_bomb(good: Path, out: Path, gib: float = 6.0) -> Path:
    """A small npz whose embedding table declares ``gib`` GiB (its data is a few bytes: reading it would
    allocate the whole size first). The config is made to agree, so only the size can refuse it."""
    manifest, arrays = npz_parts(good)
    E = 65536
    V = int(gib * 1024**3 / 4 / E)
    manifest["config"] = {**manifest["config"], "vocab_size": V, "embed_dim": E}
    manifest["vocab"] = None
    manifest["names"] = {}
    keep = {k: arrays[k] for k in ("tokens", "mask")}
    write_npz(out, manifest, keep)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f4", "fortran_order": False, "shape": (V, E)})
    with zipfile.ZipFile(out, "a", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("params.embed.tok.npy", header.getvalue() + bytes(1 << 20))
    return out


def sparse_safetensors(good: Path, out: Path, gib: float = 5.0) -> Path:
    """A safetensors snapshot declaring a ``gib`` GiB embedding table, stored as a sparse file (no disk used)."""
    manifest, arrays = npz_parts(good)
    E = 65536
    V = int(gib * 1024**3 / 4 / E)
    manifest["config"] = {**manifest["config"], "vocab_size": V, "embed_dim": E}
    manifest["vocab"] = None
    manifest["names"] = {}
    tensors = {"tokens": arrays["tokens"], "mask": arrays["mask"]}
    header: dict = {"__metadata__": {"manifest": json.dumps(manifest)}}
    offset = 0
    blobs = []
    for name, a in tensors.items():
        data = np.ascontiguousarray(a).tobytes()
        header[name] = {
            "dtype": "I64" if a.dtype == np.int64 else "BOOL",
            "shape": list(a.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    big = V * E * 4
    header["params.embed.tok"] = {"dtype": "F32", "shape": [V, E], "data_offsets": [offset, offset + big]}
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)
    with open(out, "wb") as fh:
        fh.write(struct.pack("<Q", len(raw)) + raw + b"".join(blobs))
        fh.truncate(8 + len(raw) + offset + big)
    return out


# --------------------------------------------------------------------------------- GGUF


def tiny_gguf(path: Path, meta: dict | None = None, drop: tuple[str, ...] = (), weights: dict | None = None) -> Path:
    """A llama GGUF file (E=8, H=2, one layer, byte-level vocabulary of 256 tokens) whose metadata ``meta``
    overrides (typed by their Python value: str, int, float); keys in ``drop`` are left out."""
    import gguf
    from tokenizers import pre_tokenizers

    E, H, F, V = 8, 2, 16, 257
    values = {
        "llama.block_count": 1,
        "llama.context_length": 64,
        "llama.embedding_length": E,
        "llama.feed_forward_length": F,
        "llama.attention.head_count": H,
        "llama.attention.head_count_kv": H,
        "llama.attention.layer_norm_rms_epsilon": 1e-5,
        "llama.rope.freq_base": 10000.0,
        "tokenizer.ggml.model": "gpt2",
        "tokenizer.ggml.pre": "gpt2",
    }
    values.update(meta or {})
    w = gguf.GGUFWriter(str(path), "llama")
    for key, v in values.items():
        if key in drop:
            continue
        if isinstance(v, str):
            w.add_string(key, v)
        elif isinstance(v, float):
            w.add_float32(key, v)
        elif v < 0:
            w.add_int32(key, v)
        else:
            w.add_uint32(key, v)
    w.add_token_list([*sorted(pre_tokenizers.ByteLevel.alphabet()), "ab"])
    w.add_token_merges(["a b"])
    rng = np.random.default_rng(0)
    shapes = {
        "token_embd.weight": (V, E),
        "output_norm.weight": (E,),
        "blk.0.attn_norm.weight": (E,),
        "blk.0.ffn_norm.weight": (E,),
        "blk.0.attn_q.weight": (E, E),
        "blk.0.attn_k.weight": (E, E),
        "blk.0.attn_v.weight": (E, E),
        "blk.0.attn_output.weight": (E, E),
        "blk.0.ffn_gate.weight": (F, E),
        "blk.0.ffn_up.weight": (F, E),
        "blk.0.ffn_down.weight": (E, F),
    }
    for name, shape in shapes.items():
        a = (weights or {}).get(name)
        if a is None:
            a = (rng.standard_normal(shape) * 0.1).astype(np.float32)
        w.add_tensor(name, a)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


# --------------------------------------------------------------------------------- Hugging Face folders


def tiny_llama(
    folder: Path, config: dict | None = None, tensors: dict | None = None, tokenizer_json: str | None = None
) -> Path:
    """A Hugging Face Llama folder (E=8, H=2, one layer, the words of untrusted.WORDS) that loads, unless
    ``config`` / ``tensors`` say otherwise (None as a value removes that entry)."""
    import tokenizers
    from safetensors.numpy import save_file
    from tokenizers import models, pre_tokenizers
    from untrusted import WORDS

    E, H, F, V = 8, 2, 16, len(WORDS)
    folder.mkdir(parents=True, exist_ok=True)
    cfg = {
        "model_type": "llama",
        "vocab_size": V,
        "hidden_size": E,
        "num_attention_heads": H,
        "num_key_value_heads": H,
        "num_hidden_layers": 1,
        "intermediate_size": F,
        "max_position_embeddings": 32,
        "rms_norm_eps": 1e-6,
        "rope_theta": 10000.0,
        "tie_word_embeddings": True,
        "hidden_act": "silu",
    }
    cfg = {k: v for k, v in {**cfg, **(config or {})}.items() if v is not None}
    (folder / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    if tokenizer_json is None:
        hf = tokenizers.Tokenizer(models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="<unk>"))
        hf.pre_tokenizer = pre_tokenizers.Whitespace()
        tokenizer_json = hf.to_str()
    (folder / "tokenizer.json").write_text(tokenizer_json, encoding="utf-8")
    rng = np.random.default_rng(0)
    shapes = {
        "model.embed_tokens.weight": (V, E),
        "model.norm.weight": (E,),
        "model.layers.0.input_layernorm.weight": (E,),
        "model.layers.0.post_attention_layernorm.weight": (E,),
        "model.layers.0.self_attn.q_proj.weight": (E, E),
        "model.layers.0.self_attn.k_proj.weight": (E, E),
        "model.layers.0.self_attn.v_proj.weight": (E, E),
        "model.layers.0.self_attn.o_proj.weight": (E, E),
        "model.layers.0.mlp.gate_proj.weight": (F, E),
        "model.layers.0.mlp.up_proj.weight": (F, E),
        "model.layers.0.mlp.down_proj.weight": (E, F),
    }
    arrays = {k: (rng.standard_normal(s) * 0.1).astype(np.float32) for k, s in shapes.items()}
    arrays.update(tensors or {})
    save_file({k: v for k, v in arrays.items() if v is not None}, str(folder / "model.safetensors"))
    return folder


def catastrophic_tokenizer_json() -> str:
    """A tokenizer.json whose pre-tokenizer regex backtracks without end on "aaaa…a!" (issue 13)."""
    import tokenizers
    from tokenizers import Regex, models, pre_tokenizers
    from untrusted import WORDS

    hf = tokenizers.Tokenizer(models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="<unk>"))
    hf.pre_tokenizer = pre_tokenizers.Split(Regex("(a+)+b"), behavior="isolated")
    return hf.to_str()
