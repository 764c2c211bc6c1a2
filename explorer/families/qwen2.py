"""Qwen 2 (and 2.5): Llama with biases on q, k and v (always, whatever its config says), and a sliding window
only where use_sliding_window is set (on the layers layer_types names, else from max_window_layers on). Its
GGUF files keep the biases."""

from __future__ import annotations

from explorer.config import ModelConfig
from explorer.errors import ModelLoadError
from explorer.families.family import Family, Refusal
from explorer.families.field_table import implemented, inert, table_of
from explorer.families.hf_fields import size, sliding_layers
from explorer.families.llama import LLAMA_EXAMPLE
from explorer.families.llama_kind import LLAMA_FIELDS, gguf_layers, llama_config, llama_sources
from explorer.util.schema import Where, whole

BIASES = frozenset("qkv")
FIELDS = table_of(
    LLAMA_FIELDS,
    implemented(
        "sliding_window",
        "use_sliding_window",
        "max_window_layers",
        "layer_types",
        why="with use_sliding_window, a sliding layer's keys are masked to the last W (the whole text traced); "
        "without layer_types, the layers from max_window_layers on slide (transformers' rule)",
    ),
    inert("Qwen 2's q, k, v always have biases, o and the FFN none, whatever it says", "attention_bias", "mlp_bias"),
)


def window(data: dict, origin: str, L: int) -> tuple[int, tuple[int, ...]] | None:
    """As transformers' Qwen2Config: no window unless use_sliding_window; then the layers layer_types calls
    sliding, else every layer from max_window_layers (default 28) on."""
    if not data.get("use_sliding_window") or data.get("sliding_window") is None:
        return None
    layers = sliding_layers(data, L, None, origin)
    if not isinstance(data.get("layer_types"), list):
        first = whole(data.get("max_window_layers", 28), "max_window_layers", Where(origin, ModelLoadError))
        layers = tuple(range(first, L))
    return size(data, "sliding_window", origin=origin), layers


def config(data: dict, origin: str) -> ModelConfig:
    return llama_config(data, origin, biases=BIASES, window=window)


def sources(cfg: ModelConfig, data: dict):
    return llama_sources(cfg, BIASES)


def gguf_fields(meta: dict, tensors: dict, fields: dict, origin: str) -> dict:
    return dict(fields, bias=any(n.endswith(".bias") for n in tensors))


def _gguf_biases(b: str, p: str) -> dict[str, tuple[str, str]]:
    """q, k, v biases; the others of our all-or-none biases are zeros."""
    out = {f"{p}.attn.b_{x}": (f"{b}.{name}.bias", "copy") for x, name in zip("qkv", ("attn_q", "attn_k", "attn_v"))}
    return out | {f"{p}.{name}": ("", "zeros") for name in ("attn.b_o", "ffn.b_gate", "ffn.b_in", "ffn.b_out")}


def gguf_sources(cfg: ModelConfig) -> dict[str, tuple[str, str]]:
    return gguf_layers(cfg, _gguf_biases) if cfg.bias else gguf_layers(cfg)


FAMILY = Family(
    name="qwen2",
    summary="q/k/v biases",
    hf_type="qwen2",
    hf_config=config,
    hf_sources=sources,
    example={"model_type": "qwen2", **LLAMA_EXAMPLE},
    refuses=(Refusal("hidden_act", "relu", "hidden_act 'relu' is not supported"),),
    fields=FIELDS,
    biases=BIASES,
    gguf_arch="qwen2",
    gguf_fields=gguf_fields,
    gguf_sources=gguf_sources,
    gguf_biases=True,
)
