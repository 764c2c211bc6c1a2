"""What the GGUF architectures beyond llama add: qwen2 (q/k/v biases), qwen3 (q/k norm), gemma (embedding × √E,
GeGLU, tied), gemma2 (sandwich norms, soft-caps, every other layer sliding), gemma3 (q/k norm, five of six
layers sliding with their own RoPE base) and phi3 (fused qkv and gate·up, sliding window).

None of these architectures permutes W_q and W_k (llama.cpp rotates them "rotate half", as Hugging Face does),
and llama.cpp's converter already stores Gemma's norm scales as γ = 1 + w.
"""

from __future__ import annotations

from typing import Any

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.weights.gguf.fields import real, size

ARCHITECTURES = ("llama", "qwen2", "qwen3", "gemma", "gemma2", "gemma3", "phi3")
_DEFAULT_PATTERN = {"gemma2": 2, "gemma3": 6}  # llama.cpp's: every 2nd / every 6th layer is a full one


def _sliding_layers(meta: dict, arch: str, L: int, origin: str) -> tuple[int, ...]:
    pattern = meta.get(f"{arch}.attention.sliding_window_pattern", _DEFAULT_PATTERN.get(arch, 1))
    if isinstance(pattern, list):  # one flag per layer: True where the layer slides
        if len(pattern) != L:
            raise ModelLoadError(
                f"{origin}: {arch}.attention.sliding_window_pattern has {len(pattern)} entries for {L} layers"
            )
        return tuple(l for l, slides in enumerate(pattern) if slides)
    n = size({"p": pattern}, "p", origin)
    return tuple(range(L)) if n == 1 else tuple(l for l in range(L) if (l + 1) % n)


def _optional(meta: dict, key: str, origin: str) -> float | None:
    return None if meta.get(key) in (None, 0, 0.0) else real(meta, key, origin, 1.0)


def family_fields(arch: str, meta: dict, tensors: dict, fields: dict[str, Any], origin: str) -> dict[str, Any]:
    """The llama fields read from the metadata, with what ``arch`` changes."""
    a, L = f"{arch}.", fields["layers"]
    out = dict(fields, family="llama" if arch == "llama" else arch)
    if arch == "qwen2":
        out["bias"] = any(n.endswith(".bias") for n in tensors)
    if arch in ("qwen3", "gemma3"):
        out["qk_norm"] = "head"
    if arch.startswith("gemma"):
        out.update(ffn_activation="gelu_tanh_gated", embed_scale=True, tie_embeddings="output.weight" not in tensors)
    if arch in ("gemma2", "gemma3"):
        out.update(
            norm_placement="sandwich",
            attn_softcap=_optional(meta, a + "attn_logit_softcapping", origin),
            logit_softcap=_optional(meta, a + "final_logit_softcapping", origin),
        )
    if arch == "gemma3":
        out["rope_local_theta"] = real(meta, a + "rope.freq_base_swa", origin, 10_000.0)
    if a + "attention.sliding_window" in meta and arch in ("gemma2", "gemma3", "phi3"):
        out.update(
            sliding_window=size(meta, a + "attention.sliding_window", origin),
            sliding_layers=_sliding_layers(meta, arch, L, origin),
        )
    return out


def family_sources(cfg: ModelConfig, arch: str, sources: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Llama's map (``reading.gguf_sources``) with what ``arch`` stores otherwise. ``how``: "copy", "T",
    "qT"/"kT" (llama's permuted rows), "zeros", or "rows:a:b" (rows a … b of a fused tensor, transposed)."""
    out = dict(sources)
    for l in range(cfg.layers):
        b, p = f"blk.{l}", f"layers.{l}"
        if arch != "llama":  # no permutation to undo
            out[f"{p}.attn.W_q"] = (f"{b}.attn_q.weight", "T")
            out[f"{p}.attn.W_k"] = (f"{b}.attn_k.weight", "T")
        if cfg.bias:  # qwen2: q, k, v biases; the others of our all-or-none biases are zeros
            for x, name in zip("qkv", ("attn_q", "attn_k", "attn_v")):
                out[f"{p}.attn.b_{x}"] = (f"{b}.{name}.bias", "copy")
            for name in ("attn.b_o", "ffn.b_in", "ffn.b_out"):
                out[f"{p}.{name}"] = ("", "zeros")
        if cfg.qk_norm != "none":
            out[f"{p}.attn.q_norm.weight"] = (f"{b}.attn_q_norm.weight", "copy")
            out[f"{p}.attn.k_norm.weight"] = (f"{b}.attn_k_norm.weight", "copy")
        if cfg.norm_placement == "sandwich":
            out[f"{p}.ln_attn_out.weight"] = (f"{b}.post_attention_norm.weight", "copy")
            out[f"{p}.ln_ffn_out.weight"] = (f"{b}.post_ffw_norm.weight", "copy")
        if arch == "phi3":
            q, kv, F = cfg.H * cfg.D, cfg.H_kv * cfg.D, cfg.F
            for x, (s, e) in zip("qkv", ((0, q), (q, q + kv), (q + kv, q + 2 * kv))):
                out[f"{p}.attn.W_{x}"] = (f"{b}.attn_qkv.weight", f"rows:{s}:{e}")
            out[f"{p}.ffn.W_gate"] = (f"{b}.ffn_up.weight", f"rows:0:{F}")
            out[f"{p}.ffn.W_in"] = (f"{b}.ffn_up.weight", f"rows:{F}:{2 * F}")
    return out
