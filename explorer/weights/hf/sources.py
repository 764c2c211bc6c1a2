"""Where each of our parameters comes from in a Hugging Face checkpoint, and how it is turned into the note's
(in, out) orientation: GPT-2's Conv1D is already (in, out) and fuses W_q, W_k, W_v; Llama's nn.Linear is
(out, in)."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from explorer.config import ModelConfig


@dataclass(frozen=True)
class Source:
    """Where one of our parameters comes from in the file.

    ``how``: "copy" (same orientation), "T" (nn.Linear (out, in) → (in, out)), "cols" (columns
    part·n … of a fused matrix or bias, GPT-2's c_attn), "zeros" (the architecture has no such tensor),
    "plus1" (Gemma's norms store γ − 1), "skip" (rows from ``part`` on: RoBERTa's position table),
    "rowsT" (rows start … stop of a fused nn.Linear of ``total`` rows, then transposed: Phi-3's qkv_proj and
    gate_up_proj; a bias takes the same slice), "heads3" (part 0, 1 or 2 of each of ``parts`` heads of a
    per-head fused q/k/v, GPT-NeoX's query_key_value; then transposed). ``key`` may name alternatives
    "a|b" (older checkpoints spell some tensors differently).
    """

    key: str
    how: str = "copy"
    part: int = 0
    parts: int = 1
    start: int = 0
    stop: int = 0
    total: int = 0


def gpt2_sources(cfg: ModelConfig) -> dict[str, Source]:
    out: dict[str, Source] = {"embed.tok": Source("wte.weight"), "embed.pos": Source("wpe.weight")}
    for l in range(cfg.layers):
        h, p = f"h.{l}", f"layers.{l}"
        out |= {
            f"{p}.ln_attn.weight": Source(f"{h}.ln_1.weight"),
            f"{p}.ln_attn.bias": Source(f"{h}.ln_1.bias"),
            f"{p}.ln_ffn.weight": Source(f"{h}.ln_2.weight"),
            f"{p}.ln_ffn.bias": Source(f"{h}.ln_2.bias"),
            f"{p}.attn.W_o": Source(f"{h}.attn.c_proj.weight"),  # Conv1D: already (in, out)
            f"{p}.attn.b_o": Source(f"{h}.attn.c_proj.bias"),
            f"{p}.ffn.W_in": Source(f"{h}.mlp.c_fc.weight"),
            f"{p}.ffn.b_in": Source(f"{h}.mlp.c_fc.bias"),
            f"{p}.ffn.W_out": Source(f"{h}.mlp.c_proj.weight"),
            f"{p}.ffn.b_out": Source(f"{h}.mlp.c_proj.bias"),
        }
        for i, x in enumerate("qkv"):  # c_attn (E, 3E) = [W_q | W_k | W_v]
            out[f"{p}.attn.W_{x}"] = Source(f"{h}.attn.c_attn.weight", "cols", i, 3)
            out[f"{p}.attn.b_{x}"] = Source(f"{h}.attn.c_attn.bias", "cols", i, 3)
    out["ln_final.weight"] = Source("ln_f.weight")
    out["ln_final.bias"] = Source("ln_f.bias")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("lm_head.weight", "T")
    return out


def llama_sources(cfg: ModelConfig, biases: frozenset[str]) -> dict[str, Source]:
    out: dict[str, Source] = {"embed.tok": Source("embed_tokens.weight")}
    for l in range(cfg.layers):
        m, p = f"layers.{l}", f"layers.{l}"
        out |= {
            f"{p}.ln_attn.weight": Source(f"{m}.input_layernorm.weight"),
            f"{p}.ln_ffn.weight": Source(f"{m}.post_attention_layernorm.weight"),
            f"{p}.attn.W_q": Source(f"{m}.self_attn.q_proj.weight", "T"),
            f"{p}.attn.W_k": Source(f"{m}.self_attn.k_proj.weight", "T"),
            f"{p}.attn.W_v": Source(f"{m}.self_attn.v_proj.weight", "T"),
            f"{p}.attn.W_o": Source(f"{m}.self_attn.o_proj.weight", "T"),
            f"{p}.ffn.W_gate": Source(f"{m}.mlp.gate_proj.weight", "T"),
            f"{p}.ffn.W_in": Source(f"{m}.mlp.up_proj.weight", "T"),
            f"{p}.ffn.W_out": Source(f"{m}.mlp.down_proj.weight", "T"),
        }
        if cfg.bias:  # our model has all biases or none: the ones this architecture lacks are zeros
            for x in "qkvo":
                out[f"{p}.attn.b_{x}"] = Source(f"{m}.self_attn.{x}_proj.bias") if x in biases else Source("", "zeros")
            out[f"{p}.ffn.b_in"] = Source(f"{m}.mlp.up_proj.bias") if "mlp" in biases else Source("", "zeros")
            out[f"{p}.ffn.b_out"] = Source(f"{m}.mlp.down_proj.bias") if "mlp" in biases else Source("", "zeros")
    out["ln_final.weight"] = Source("norm.weight")
    if not cfg.tie_embeddings:
        out["unembed.W_u"] = Source("lm_head.weight", "T")
    return out


def source_shape(src: Source, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape the file's tensor must have for our parameter of ``shape``."""
    if src.how == "T":
        return tuple(reversed(shape))
    if src.how == "cols":
        return (*shape[:-1], shape[-1] * src.parts)
    if src.how == "skip":
        return (shape[0] + src.part, *shape[1:])
    if src.how == "rowsT":
        return (src.total, shape[0]) if len(shape) == 2 else (src.total,)
    if src.how == "heads3":
        return (3 * shape[-1], shape[0]) if len(shape) == 2 else (3 * shape[0],)
    return shape


def transform(src: Source, t: torch.Tensor) -> torch.Tensor:
    if src.how == "T":
        return t.T  # (out, in) → (in, out)
    if src.how == "cols":
        n = t.shape[-1] // src.parts
        return t[..., src.part * n : (src.part + 1) * n]
    if src.how == "plus1":
        return t.float() + 1.0  # Gemma's RMSNorm multiplies by (1 + w), computed in float32 as it does
    if src.how == "skip":
        return t[src.part :]  # RoBERTa: position i is row padding_idx + 1 + i
    if src.how == "rowsT":
        part = t[src.start : src.stop]  # (stop − start, in), or a bias (stop − start,)
        return part.T if part.dim() == 2 else part  # (in, stop − start)
    if src.how == "heads3":  # (H·3·d, …): head h's q, k, v rows side by side
        per_head = t.reshape(src.parts, 3, -1, *t.shape[1:])  # (H, 3, d, …)
        part = per_head[:, src.part].reshape(-1, *t.shape[1:])  # (H·d, E), or a bias (H·d,)
        return part.T if part.dim() == 2 else part  # (E, H·d)
    return t
