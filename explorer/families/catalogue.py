"""The catalogue: the real models a class or a lab reaches for, known by name. Each entry writes down the
fields of the repository's own config.json that size its weights (copied from the file, nothing derived), so
the parameter count is computed, not typed: the family's own reader turns them into a ``ModelConfig`` and
``ModelConfig.parameter_count`` counts its tensors (tests/core/test_catalogue_counts.py holds each count
within 2 % of the model card's). A model whose ``model_type`` no family reads yet is listed all the same, with
what is missing, so a user sees the honest state; its count uses the family its weights are shaped like.

Plain data: no torch, no file access (``explorer/weights/installed.py`` finds the installed ones).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from explorer.families import hf_family


@dataclass(frozen=True)
class Catalogued:
    """One real model known by name. ``place``: where the model list shows it, smallest first; ``config``: the
    config.json fields that size its weights, model_type first; ``stored``: the dtype its weights are stored
    in; ``missing``: why it does not open yet (shown while no family reads its model_type); ``shaped_like``:
    the model_type whose reader counts its parameters while it does not open."""

    place: int
    name: str
    label: str
    special: str
    repo: str
    config: dict[str, Any] = field(hash=False, compare=False)
    stored: str = "bfloat16"
    missing: str = ""
    shaped_like: str = ""

    @property
    def model_type(self) -> str:
        return self.config["model_type"]

    @property
    def supported(self) -> bool:
        return hf_family(self.model_type) is not None

    def parameter_counts(self) -> tuple[int, int]:
        """(every parameter, those one token uses): equal but for a mixture of experts, whose FFN is counted
        once per expert (and its router) but used only by the experts a token is routed to."""
        if self.supported:
            cfg = hf_family(self.model_type).hf_config(dict(self.config), self.name)
            return cfg.parameter_count(), cfg.active_parameter_count()
        family = hf_family(self.shaped_like)
        cfg = family.hf_config({**self.config, "model_type": family.hf_type}, self.name)
        return cfg.parameter_count(), cfg.parameter_count()


def _llama(vocab: int, width: int, ffn: int, layers: int, heads: int, kv: int, tied: bool, **more) -> dict:
    """The sizing fields of a Llama-shaped config.json, named as the file names them."""
    return {
        "vocab_size": vocab,
        "hidden_size": width,
        "intermediate_size": ffn,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": kv,
        "tie_word_embeddings": tied,
        **more,
    }


_BERT = {"vocab_size": 30522, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12}
_LONGROPE = "longrope rotary scaling"

CATALOGUE: tuple[Catalogued, ...] = (
    Catalogued(
        20,
        "gpt2",
        "GPT-2 small",
        "learned positions, LayerNorm, the classic",
        "openai-community/gpt2",
        {"model_type": "gpt2", "vocab_size": 50257, "n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024},
        stored="float32",
    ),
    Catalogued(
        30,
        "bert-base-uncased",
        "BERT base (uncased)",
        "encoder: no mask, [CLS]/[SEP], segments, [MASK]",
        "google-bert/bert-base-uncased",
        {
            "model_type": "bert",
            **_BERT,
            "intermediate_size": 3072,
            "max_position_embeddings": 512,
            "type_vocab_size": 2,
        },
        stored="float32",
    ),
    Catalogued(
        40,
        "distilbert-base-uncased",
        "DistilBERT base",
        "encoder, 6 layers, no segments",
        "distilbert/distilbert-base-uncased",
        {
            "model_type": "distilbert",
            "vocab_size": 30522,
            "dim": 768,
            "n_layers": 6,
            "n_heads": 12,
            "hidden_dim": 3072,
            "max_position_embeddings": 512,
        },
        stored="float32",
    ),
    Catalogued(
        50,
        "roberta-base",
        "RoBERTa base",
        "encoder with byte BPE, <mask>",
        "FacebookAI/roberta-base",
        {
            "model_type": "roberta",
            **_BERT,
            "vocab_size": 50265,
            "intermediate_size": 3072,
            "max_position_embeddings": 514,
            "type_vocab_size": 1,
        },
        stored="float32",
    ),
    Catalogued(
        60,
        "pythia-70m",
        "Pythia-70M",
        "parallel attention and FFN, partial RoPE (25 %)",
        "EleutherAI/pythia-70m",
        {"model_type": "gpt_neox", **_llama(50304, 512, 2048, 6, 8, 8, False), "rotary_pct": 0.25},
        stored="float16",
    ),
    Catalogued(
        70,
        "pythia-160m",
        "Pythia-160M",
        "the interpretability community's model",
        "EleutherAI/pythia-160m",
        {"model_type": "gpt_neox", **_llama(50304, 768, 3072, 12, 12, 12, False), "rotary_pct": 0.25},
        stored="float16",
    ),
    Catalogued(
        80,
        "smollm2-135m",
        "SmolLM2-135M (HF)",
        "grouped-query heads 9/3",
        "HuggingFaceTB/SmolLM2-135M",
        {"model_type": "llama", **_llama(49152, 576, 1536, 30, 9, 3, True)},
    ),
    Catalogued(
        85,
        "smollm2-360m",
        "SmolLM2-360M",
        "grouped-query heads 15/5",
        "HuggingFaceTB/SmolLM2-360M",
        {"model_type": "llama", **_llama(49152, 960, 2560, 32, 15, 5, True)},
    ),
    Catalogued(
        90,
        "qwen2.5-0.5b",
        "Qwen2.5-0.5B",
        "q/k/v biases, GQA 14/2",
        "Qwen/Qwen2.5-0.5B",
        {"model_type": "qwen2", **_llama(151936, 896, 4864, 24, 14, 2, True)},
    ),
    Catalogued(
        95,
        "gemma-3-270m",
        "Gemma 3 270M",
        "×√E, GeGLU, sandwich norms, 5 of 6 layers sliding; a vocabulary of 262k",
        "google/gemma-3-270m",
        {"model_type": "gemma3_text", **_llama(262144, 640, 2048, 18, 4, 1, True, head_dim=256)},
    ),
    Catalogued(
        100,
        "qwen3-0.6b",
        "Qwen3-0.6B",
        "q/k RMSNorm per head",
        "Qwen/Qwen3-0.6B",
        {"model_type": "qwen3", **_llama(151936, 1024, 3072, 28, 16, 8, True, head_dim=128)},
    ),
    Catalogued(
        110,
        "gemma-3-1b",
        "Gemma 3 1B",
        "×√E, GeGLU, sandwich norms, 5 of 6 layers sliding",
        "google/gemma-3-1b-pt",
        {"model_type": "gemma3_text", **_llama(262144, 1152, 6912, 26, 4, 1, True, head_dim=256)},
    ),
    Catalogued(
        115,
        "llama-3.2-1b",
        "Llama 3.2 1B",
        "llama3 rotary scaling, GQA 32/8, tied embeddings",
        "meta-llama/Llama-3.2-1B",
        {"model_type": "llama", **_llama(128256, 2048, 8192, 16, 32, 8, True, head_dim=64)},
    ),
    Catalogued(
        137,
        "gemma-2-2b",
        "Gemma 2 2B",
        "soft-capped scores and logits, every other layer sliding",
        "google/gemma-2-2b",
        {"model_type": "gemma2", **_llama(256000, 2304, 9216, 26, 8, 4, True, head_dim=256)},
        stored="float32",
    ),
    Catalogued(
        130,
        "olmo-2-1b",
        "OLMo 2 1B",
        "norms after attention and FFN, q/k norm over all heads",
        "allenai/OLMo-2-0425-1B",
        {"model_type": "olmo2", **_llama(100352, 2048, 8192, 16, 16, 16, False)},
        stored="float32",
    ),
    Catalogued(
        135,
        "qwen3-1.7b",
        "Qwen3-1.7B",
        "q/k RMSNorm per head, GQA 16/8",
        "Qwen/Qwen3-1.7B",
        {"model_type": "qwen3", **_llama(151936, 2048, 6144, 28, 16, 8, True, head_dim=128)},
    ),
    Catalogued(
        112,
        "tinyllama",
        "TinyLlama 1.1B",
        "Llama 2's architecture, small",
        "TinyLlama/TinyLlama-1.1B-Chat-v1.0",
        {"model_type": "llama", **_llama(32000, 2048, 5632, 22, 32, 4, False)},
    ),
    Catalogued(
        150,
        "phi-3-mini",
        "Phi-3 mini",
        "fused qkv and gate·up projections",
        "microsoft/Phi-3-mini-4k-instruct",
        {"model_type": "phi3", **_llama(32064, 3072, 8192, 32, 32, 32, False)},
    ),
    Catalogued(
        155,
        "phi-3.5-mini",
        "Phi-3.5 mini",
        f"fused projections, {_LONGROPE} (128k context)",
        "microsoft/Phi-3.5-mini-instruct",
        {"model_type": "phi3", **_llama(32064, 3072, 8192, 32, 32, 32, False)},
    ),
    Catalogued(
        160,
        "phi-4-mini",
        "Phi-4 mini",
        f"fused projections, {_LONGROPE}, partial RoPE (75 %), GQA 24/8",
        "microsoft/Phi-4-mini-instruct",
        {"model_type": "phi3", **_llama(200064, 3072, 8192, 32, 24, 8, True)},
    ),
    Catalogued(
        170,
        "smollm3-3b",
        "SmolLM3-3B",
        "Llama-shaped, GQA 16/4",
        "HuggingFaceTB/SmolLM3-3B",
        {"model_type": "smollm3", **_llama(128256, 2048, 11008, 36, 16, 4, True)},
        missing="model_type smollm3 (every fourth layer without RoPE)",
        shaped_like="llama",
    ),
    Catalogued(
        180,
        "olmoe-1b-7b",
        "OLMoE 1B-7B",
        "64 experts, 8 chosen per token; q/k norm",
        "allenai/OLMoE-1B-7B-0924",
        {
            "model_type": "olmoe",
            **_llama(50304, 2048, 1024, 16, 16, 16, False),
            "num_experts": 64,
            "num_experts_per_tok": 8,
        },
    ),
    Catalogued(
        185,
        "qwen1.5-moe-a2.7b",
        "Qwen1.5-MoE-A2.7B",
        "60 experts, 4 chosen per token, a gated shared expert; q/k/v biases",
        "Qwen/Qwen1.5-MoE-A2.7B",
        {
            "model_type": "qwen2_moe",
            **_llama(151936, 2048, 5632, 24, 16, 16, False),
            "num_experts": 60,
            "num_experts_per_tok": 4,
            "moe_intermediate_size": 1408,
            "shared_expert_intermediate_size": 5632,
        },
    ),
    Catalogued(
        190,
        "mixtral-8x7b",
        "Mixtral 8x7B",
        "8 experts, 2 chosen per token; GQA 32/8",
        "mistralai/Mixtral-8x7B-v0.1",
        {
            "model_type": "mixtral",
            **_llama(32000, 4096, 14336, 32, 32, 8, False),
            "num_local_experts": 8,
            "num_experts_per_tok": 2,
        },
    ),
)


def catalogued() -> tuple[Catalogued, ...]:
    """Every real model known by name, in the order the model list shows them."""
    return tuple(sorted(CATALOGUE, key=lambda m: m.place))
