"""Hostile model files for issue 44's format schemas: GGUF files of any architecture written field by field
(and patched after writing, so that a declared count can lie), the numeric fields of a GGUF header located,
safetensors files with any header, and tokenizer.json texts with hostile fields.

Not a test module (no test_ prefix): imported by tests/core and tests/cli.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np

E, H, F, L = 8, 2, 16, 2


def byte_tokens() -> list[str]:
    from tokenizers import pre_tokenizers

    return [*sorted(pre_tokenizers.ByteLevel.alphabet()), "ab"]


def gguf_file(
    path: Path,
    arch: str = "llama",
    meta: dict | None = None,
    tensors: dict | None = None,
    tokens: list[str] | None = None,
    kind: str = "gpt2",
) -> Path:
    """A GGUF file of ``arch`` (E=8, H=2, two layers) that loads unless ``meta`` (its values typed by their
    Python value; a list is an array) or ``tensors`` (None removes one) say otherwise. ``kind``: the
    tokenizer, byte-level BPE ("gpt2") or SentencePiece ("llama", scored)."""
    import gguf

    tokens = tokens if tokens is not None else byte_tokens()
    values = {
        f"{arch}.block_count": L,
        f"{arch}.context_length": 64,
        f"{arch}.embedding_length": E,
        f"{arch}.feed_forward_length": F,
        f"{arch}.attention.head_count": H,
        f"{arch}.attention.head_count_kv": H,
        f"{arch}.attention.layer_norm_rms_epsilon": 1e-5,
        f"{arch}.rope.freq_base": 10000.0,
        "tokenizer.ggml.model": kind,
        "tokenizer.ggml.pre": "gpt2",
        **(meta or {}),
    }
    w = gguf.GGUFWriter(str(path), arch)
    for key, v in values.items():
        if isinstance(v, str):
            w.add_string(key, v)
        elif isinstance(v, bool):
            w.add_bool(key, v)
        elif isinstance(v, float):
            w.add_float32(key, v)
        elif isinstance(v, list):
            w.add_array(key, v)
        else:
            w.add_uint32(key, v) if v >= 0 else w.add_int32(key, v)
    w.add_token_list(tokens)
    if kind == "gpt2":
        w.add_token_merges(["a b"])
    else:
        w.add_token_scores([-float(i) for i in range(len(tokens))])
    w.add_token_types([1] * len(tokens))
    rng = np.random.default_rng(0)
    shapes = {"token_embd.weight": (len(tokens), E), "output_norm.weight": (E,)}
    for l in range(L):
        b = f"blk.{l}"
        shapes |= {
            f"{b}.attn_norm.weight": (E,),
            f"{b}.ffn_norm.weight": (E,),
            f"{b}.attn_q.weight": (E, E),
            f"{b}.attn_k.weight": (E, E),
            f"{b}.attn_v.weight": (E, E),
            f"{b}.attn_output.weight": (E, E),
            f"{b}.ffn_gate.weight": (F, E),
            f"{b}.ffn_up.weight": (F, E),
            f"{b}.ffn_down.weight": (E, F),
        }
        if arch == "phi3":  # q, k and v in one tensor; gate and up in another
            for x in "qkv":
                del shapes[f"{b}.attn_{x}.weight"]
            del shapes[f"{b}.ffn_gate.weight"]
            shapes |= {f"{b}.attn_qkv.weight": (3 * E, E), f"{b}.ffn_up.weight": (2 * F, E)}
        if arch in ("qwen3", "gemma3"):
            shapes |= {f"{b}.attn_q_norm.weight": (E // H,), f"{b}.attn_k_norm.weight": (E // H,)}
        if arch in ("gemma2", "gemma3"):
            shapes |= {f"{b}.post_attention_norm.weight": (E,), f"{b}.post_ffw_norm.weight": (E,)}
    arrays = {k: (rng.standard_normal(s) * 0.1).astype(np.float32) for k, s in shapes.items()}
    arrays.update(tensors or {})
    for name, a in arrays.items():
        if a is not None:
            w.add_tensor(name, a)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def header_fields(path: Path) -> list[tuple[str, int, str]]:
    """Every number of a (little-endian) GGUF header that declares something: (what, byte offset, struct
    format). The counts, each string's length, each value's and array's type and length, each tensor's
    dimension count, dimensions, type and offset."""
    data = path.read_bytes()
    out: list[tuple[str, int, str]] = [("tensor count", 8, "Q"), ("metadata count", 16, "Q")]
    at = 24
    n_tensors, n_kv = struct.unpack_from("<QQ", data, 8)
    sizes = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}

    def string(what: str) -> str:
        nonlocal at
        out.append((f"{what} length", at, "Q"))
        (n,) = struct.unpack_from("<Q", data, at)
        at += 8 + n
        return data[at - n : at].decode()

    for _ in range(n_kv):
        key = string("key")
        out.append((f"{key} type", at, "I"))
        (kind,) = struct.unpack_from("<I", data, at)
        at += 4
        if kind == 8:
            string(key)
        elif kind == 9:
            out.append((f"{key} item type", at, "I"))
            out.append((f"{key} length", at + 4, "Q"))
            item, count = struct.unpack_from("<IQ", data, at)
            at += 12
            if item == 8:
                for i in range(min(count, 3)):
                    string(f"{key}[{i}]")
                for _ in range(count - min(count, 3)):
                    (n,) = struct.unpack_from("<Q", data, at)
                    at += 8 + n
            else:
                at += sizes[item] * count
        else:
            at += sizes[kind]
    for _ in range(n_tensors):
        name = string("tensor name")
        out.append((f"{name} dimensions", at, "I"))
        (dims,) = struct.unpack_from("<I", data, at)
        at += 4
        for d in range(dims):
            out.append((f"{name} shape[{d}]", at, "Q"))
            at += 8
        out.append((f"{name} type", at, "I"))
        out.append((f"{name} offset", at + 4, "Q"))
        at += 12
    return out


def patch(path: Path, offset: int, fmt: str, value: int) -> Path:
    data = bytearray(path.read_bytes())
    struct.pack_into("<" + fmt, data, offset, value)
    path.write_bytes(bytes(data))
    return path


def patched_field(path: Path, name: str, value: int) -> Path:
    """The GGUF at ``path`` with the header number called ``name`` (see header_fields) set to ``value``."""
    offset, fmt = next((o, f) for n, o, f in header_fields(path) if n == name)
    return patch(path, offset, fmt, value)


def safetensors_file(path: Path, header: dict, data: bytes) -> Path:
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + data)
    return path


def float8_weights(folder: Path) -> None:
    """The folder's model.safetensors rewritten with every weight in float8_e4m3fn."""
    import torch
    from safetensors.torch import load_file, save_file

    tensors = load_file(str(folder / "model.safetensors"))
    save_file({k: v.to(torch.float8_e4m3fn) for k, v in tensors.items()}, str(folder / "model.safetensors"))


def word_tokenizer(words: list[str], **fields) -> str:
    """A WordLevel tokenizer.json over ``words`` with ``fields`` set at its top level (a key's None
    removes it)."""
    import tokenizers
    from tokenizers import models, pre_tokenizers

    hf = tokenizers.Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    data = json.loads(hf.to_str())
    data.update(fields)
    return json.dumps(data)
