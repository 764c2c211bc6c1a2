"""What a model is: ModelConfig (E, D, H, L, … in the note's symbols), the hard caps on sizes and input, the seed.

Frozen: a change makes a new value, so the UI state, the worker and the manifest can compare and store it
without copies going stale. Every check raises ConfigError with a message a user can act on.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from explorer.config import param_shapes
from explorer.config.rope_scaling import RopeScaling
from explorer.errors import ConfigError
from explorer.vocab import (
    ACTIVATIONS,
    MAX_HEADS,
    MAX_LAYERS,
    NORM_PLACEMENTS,
    NORMS,
    NORMS_AFTER_SUBLAYER,
    NORMS_BEFORE_SUBLAYER,
    POSITIONS,
    QK_NORMS,
)

# Hard caps that keep a typo (E=640000) from reaching the allocator at all (heads and layers: explorer.vocab).
MAX_DIM = 65_536

# What one trace reads of a text (docs/errors.md, "Input"). Longer input is cut with a notice, never refused,
# the same in the CLI and the window: a pasted book must not make the window compute (and draw chips for)
# hundreds of thousands of tokens. Each sentence is cut to the model's context (max_positions: 1024 for this
# app's models, the file's for real ones) and to MAX_TEXT_TOKENS, then a batch of several sentences to
# MAX_TRACE_TOKENS tokens in all (SmolLM2's whole 8192-token context fits; 64 sentences of 1024 tokens do not:
# their chips alone held the window for seconds). One sentence alone may be longer: a long text's maps are
# served as tiles (explorer/trace/tiles.py). Characters past MAX_TEXT_CHARS are not even tokenized.
MAX_TEXT_CHARS = 200_000
MAX_SENTENCES = 64
MAX_TRACE_TOKENS = 8_192
MAX_TEXT_TOKENS = 32_768

# Seeds seed torch's and numpy's generators: whole numbers in [0, 2**63).
MAX_SEED = 2**63 - 1


def check_seed(seed: Any) -> int:
    """A seed as an int, or ConfigError (torch overflows above 2**63; numpy refuses negative seeds)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the seed must be a whole number, got {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"the seed must lie between 0 and {MAX_SEED}, got {seed}")
    return seed


def positive_int(value: Any, what: str, upper: int = MAX_DIM) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        elif isinstance(value, str) and value.strip().lstrip("+").isdigit():
            value = int(value)
        else:
            raise ConfigError(f"{what} must be a whole number, got {value!r}")
    if value <= 0:
        raise ConfigError(f"{what} must be at least 1, got {value}")
    if value > upper:
        raise ConfigError(f"{what} must be at most {upper}, got {value}")
    return value


@dataclass(frozen=True)
class ModelConfig:
    """The architecture and sizes. Symbols as in the lecture note: E, D, H; L layers; V vocabulary."""

    vocab_size: int  # V
    embed_dim: int = 64  # E
    key_dim: int = 16  # D, query/key size per head
    heads: int = 4  # H
    layers: int = 2  # L
    value_dim: int | None = None  # D_v per head; None means D
    kv_heads: int | None = None  # H_kv for grouped-query attention; None means H
    ffn_dim: int | None = None  # F; None means 4·E
    unfactored_value: bool = False  # the note's single head: W_v (E, E), no W_o
    positions: str = "sinusoidal"
    max_positions: int = 1024  # P: table size of learned positions, and the longest input a model accepts
    norm: str = "layernorm"  # pre-norm before attention and FFN, and a final norm
    residual: bool = True
    ffn_activation: str = "gelu"
    bias: bool = False  # biases on q/k/v/o and the FFN (GPT-2 has them, the note does not)
    unembed_bias: bool = False
    tie_embeddings: bool = False  # unembedding = embedding table transposed (GPT-2, many small models)
    norm_eps: float = 1e-5
    rope_theta: float = 10_000.0
    family: str = "explorer"  # "explorer", "gpt2", "llama", "bert", "gemma2", …: where the weights came from
    # What real families add (docs/real-models.md); the defaults are the plain pre-norm decoder above.
    norm_placement: str = (
        "pre"  # explorer.vocab.NORM_PLACEMENTS: pre, post (BERT), sandwich (Gemma 2/3), output (OLMo 2)
    )
    parallel_block: bool = False  # GPT-NeoX: attention and FFN both read x; out = x + attn + FFN
    qk_norm: str = "none"  # RMSNorm of q and k before the scores: per head (Qwen 3, Gemma 3) or over all heads (OLMo 2)
    rotary_dims: int | None = None  # R: the first R of each head's D dimensions turn (GPT-NeoX rotary_pct); None: all D
    rope_local_theta: float | None = None  # the RoPE base of the sliding layers (Gemma 3); None: rope_theta
    rope_scaling: RopeScaling | None = None  # rotary scaling of the global layers (explorer/config/rope_scaling.py)
    sliding_window: int | None = None  # W: a sliding layer's query sees itself and the W − 1 keys before it
    sliding_layers: tuple[int, ...] = ()  # the layers that slide (Gemma 2 every other one, Gemma 3 five of six)
    attn_softcap: float | None = None  # c: scores become c·tanh(scores / c) before the mask (Gemma 2)
    query_scalar: float | None = None  # the scores ÷ √query_scalar instead of √D (Gemma 2/3's query_pre_attn_scalar)
    logit_softcap: float | None = None  # c: logits become c·tanh(logits / c) (Gemma 2)
    embed_scale: bool = False  # the token embedding times √E (Gemma)
    embed_norm: bool = False  # a norm of the embedding sum before layer 0 (BERT)
    segments: int = 0  # rows of the segment (token type) table: 2 for BERT's sentences A and B; 0: none
    mlm_head: bool = False  # the masked-LM head of an encoder: dense, activation and norm before the unembedding
    bidirectional: bool = False  # an encoder: its own mask is "none" (every token sees every other)
    # A mixture of experts in place of the FFN (Mixtral, OLMoE, Qwen-MoE; explorer/model/moe.py).
    experts: int = 0  # X: the experts of each MoE layer; 0: every layer has the dense FFN
    experts_per_token: int = 0  # K: how many experts the router chooses for each token
    expert_dim: int | None = None  # F_x: one expert's FFN width; None means F
    norm_topk: bool = True  # the K chosen probabilities divided by their sum (Mixtral), or kept as they are (OLMoE)
    dense_layers: tuple[int, ...] = ()  # the layers that keep the dense FFN of width F (Qwen-MoE's mlp_only_layers)
    shared_expert_dim: int | None = None  # F_s: Qwen-MoE's shared expert, which every token runs, behind a gate
    # How a bfloat16/float16 run rounds where transformers keeps float32 (no effect in float32 or float64).
    half_norm_weight_float32: bool = False  # RMSNorm multiplies by γ in float32 (Gemma 1–3, OLMo 2)
    half_rope_float32: bool = False  # q and k are turned by float32 cosines and sines (OLMo 2)

    def __post_init__(self) -> None:
        for name, what, upper in (
            ("vocab_size", "vocabulary size V", 1_000_000),
            ("embed_dim", "embedding size E", MAX_DIM),
            ("key_dim", "query/key size D", MAX_DIM),
            ("heads", "number of heads H", MAX_HEADS),
            ("layers", "number of layers L", MAX_LAYERS),
            ("max_positions", "maximum positions P", 1_048_576),
        ):
            object.__setattr__(self, name, positive_int(getattr(self, name), what, upper))
        for name, what in (
            ("value_dim", "value size D_v"),
            ("kv_heads", "key/value heads H_kv"),
            ("ffn_dim", "FFN width F"),
        ):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, positive_int(getattr(self, name), what))
        if self.positions not in POSITIONS:
            raise ConfigError(f"positions must be one of {', '.join(POSITIONS)}, got {self.positions!r}")
        if self.norm not in NORMS:
            raise ConfigError(f"norm must be one of {', '.join(NORMS)}, got {self.norm!r}")
        if self.ffn_activation not in ACTIVATIONS:
            raise ConfigError(f"FFN activation must be one of {', '.join(ACTIVATIONS)}, got {self.ffn_activation!r}")
        if self.heads % self.H_kv != 0:
            raise ConfigError(
                f"H ({self.heads}) must be a multiple of H_kv ({self.H_kv}): each key/value head serves H/H_kv "
                "query heads"
            )
        if self.positions == "rope" and self.key_dim % 2:
            raise ConfigError(
                f"rotary positions rotate pairs of dimensions: D must be even, got {self.key_dim}; "
                f"choose D = {self.key_dim + 1} or other positions (sinusoidal, learned, none)"
            )
        if self.unfactored_value:
            if self.heads != 1:
                raise ConfigError(
                    f"the unfactored form (W_v of shape (E, E), no W_o) has a single head; H is {self.heads}"
                )
            if self.value_dim not in (None, self.embed_dim):
                raise ConfigError("the unfactored form has value size E; leave the value size unset")
        if not (self.norm_eps > 0 and math.isfinite(self.norm_eps)):
            raise ConfigError(f"norm epsilon must be a small positive number, got {self.norm_eps}")
        self._check_architecture()

    def _check_architecture(self) -> None:
        """The options real families add (norm placement, q/k norm, partial rotary, sliding layers, soft-caps…)."""
        for name, allowed in (("norm_placement", NORM_PLACEMENTS), ("qk_norm", QK_NORMS)):
            if getattr(self, name) not in allowed:
                raise ConfigError(f"{name} must be one of {', '.join(allowed)}, got {getattr(self, name)!r}")
        if self.norm == "none" and (self.norm_placement != "pre" or self.qk_norm != "none" or self.embed_norm):
            raise ConfigError("norm placement, q/k norm and an embedding norm need a norm (layernorm or rmsnorm)")
        if self.rotary_dims is not None:
            R = positive_int(self.rotary_dims, "rotary dimensions R")
            if self.positions != "rope" or R % 2 or R > self.key_dim:
                raise ConfigError(
                    f"rotary dimensions R must be even, at most D = {self.key_dim}, with rope positions; got {R}"
                )
            object.__setattr__(self, "rotary_dims", R)
        self._check_rope_scaling()
        layers = tuple(self.sliding_layers)
        if any(isinstance(l, bool) or not isinstance(l, int) or not 0 <= l < self.layers for l in layers):
            raise ConfigError(f"sliding layers must be layer indices 0 … {self.layers - 1}, got {list(layers)}")
        object.__setattr__(self, "sliding_layers", tuple(sorted(set(layers))))
        if self.sliding_window is not None:
            object.__setattr__(self, "sliding_window", positive_int(self.sliding_window, "sliding window W", 1_048_576))
        elif layers:
            raise ConfigError("sliding layers need a sliding window W")
        for name in ("attn_softcap", "logit_softcap", "rope_local_theta", "query_scalar"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not (value > 0 and math.isfinite(value))
            ):
                raise ConfigError(f"{name} must be a positive number or unset, got {value!r}")
        if isinstance(self.segments, bool) or not isinstance(self.segments, int) or not 0 <= self.segments <= 1024:
            raise ConfigError(f"segments must be a whole number between 0 and 1024, got {self.segments!r}")
        self._check_experts()

    def _check_experts(self) -> None:
        """A mixture of experts: X experts, K of them per token, the dense layers named by index."""
        if not isinstance(self.dense_layers, (list, tuple)) or not isinstance(self.norm_topk, bool):
            raise ConfigError(
                f"dense layers must be a list of layer indices and norm_topk true or false, got "
                f"{self.dense_layers!r} and {self.norm_topk!r}"
            )
        object.__setattr__(self, "dense_layers", tuple(self.dense_layers))  # a manifest's config holds a list
        if self.experts == 0:
            if self.experts_per_token or self.dense_layers or self.shared_expert_dim or self.expert_dim:
                raise ConfigError("experts per token, dense layers and expert sizes need experts (X > 0)")
            return
        X = positive_int(self.experts, "number of experts X", 4096)
        K = positive_int(self.experts_per_token, "experts per token K", X)
        object.__setattr__(self, "experts", X)
        object.__setattr__(self, "experts_per_token", K)
        for name, what in (("expert_dim", "expert width F_x"), ("shared_expert_dim", "shared expert width F_s")):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, positive_int(getattr(self, name), what))
        layers = tuple(self.dense_layers)
        if any(isinstance(l, bool) or not isinstance(l, int) or not 0 <= l < self.layers for l in layers):
            raise ConfigError(f"dense layers must be layer indices 0 … {self.layers - 1}, got {list(layers)}")
        object.__setattr__(self, "dense_layers", tuple(sorted(set(layers))))

    def _check_rope_scaling(self) -> None:
        scaling = RopeScaling.from_value(self.rope_scaling)  # a manifest's config holds it as a dict
        if scaling is not None:
            if self.positions != "rope":
                raise ConfigError("rotary scaling needs rope positions")
            scaling.check_width(self.R)
        object.__setattr__(self, "rope_scaling", scaling)

    # The note's symbols, for code that reads like the note.
    @property
    def E(self) -> int:
        return self.embed_dim

    @property
    def D(self) -> int:
        return self.key_dim

    @property
    def H(self) -> int:
        return self.heads

    @property
    def L(self) -> int:
        return self.layers

    @property
    def V(self) -> int:
        return self.vocab_size

    @property
    def D_v(self) -> int:
        if self.unfactored_value:
            return self.embed_dim
        return self.value_dim if self.value_dim is not None else self.key_dim

    @property
    def H_kv(self) -> int:
        return self.kv_heads if self.kv_heads is not None else self.heads

    @property
    def F(self) -> int:
        return self.ffn_dim if self.ffn_dim is not None else 4 * self.embed_dim

    @property
    def F_x(self) -> int:
        """One expert's FFN width (a mixture of experts)."""
        return self.expert_dim if self.expert_dim is not None else self.F

    @property
    def moe(self) -> bool:
        """Some layer's FFN is a mixture of experts (a router chooses K of X for each token)."""
        return self.experts > 0 and len(self.dense_layers) < self.layers

    def is_moe(self, layer: int) -> bool:
        return self.experts > 0 and layer not in self.dense_layers

    @property
    def R(self) -> int:
        """How many of each head's D dimensions RoPE turns (all D unless partial, GPT-NeoX)."""
        return self.rotary_dims if self.rotary_dims is not None else self.key_dim

    @property
    def score_dim(self) -> float:
        """The number whose square root divides the scores: D, or Gemma 2/3's query_pre_attn_scalar."""
        return self.query_scalar if self.query_scalar is not None else self.key_dim

    @property
    def gated(self) -> bool:
        """A gated FFN (W_gate beside W_in): SwiGLU (Llama) or GeGLU (Gemma)."""
        return self.ffn_activation.endswith("_gated")

    @property
    def pre_norms(self) -> bool:
        """Norms on what each sublayer reads (ln_attn, ln_ffn before it)."""
        return self.norm != "none" and self.norm_placement in NORMS_BEFORE_SUBLAYER

    @property
    def post_norms(self) -> bool:
        """Norms of the stream after each residual sum (BERT: ln_attn, ln_ffn after it)."""
        return self.norm != "none" and self.norm_placement == "post"

    @property
    def out_norms(self) -> bool:
        """Norms of what each sublayer gives back, before the residual sum (ln_attn_out, ln_ffn_out)."""
        return self.norm != "none" and self.norm_placement in NORMS_AFTER_SUBLAYER

    @property
    def final_norm(self) -> bool:
        """A norm after the last block (every placement but post: a post-norm block already ends in one)."""
        return self.norm != "none" and self.norm_placement != "post"

    def qk_norm_width(self, heads: int) -> int:
        """The size of q_norm's (heads = H) or k_norm's (heads = H_kv) weight: D per head, or heads·D."""
        return self.key_dim * (heads if self.qk_norm == "all" else 1)

    def is_sliding(self, layer: int) -> bool:
        return layer in self.sliding_layers

    def rope_theta_of(self, layer: int) -> float:
        """The RoPE base of a layer: Gemma 3's sliding layers turn by their own (local) base."""
        return (
            self.rope_local_theta if self.rope_local_theta is not None and self.is_sliding(layer) else self.rope_theta
        )

    def rope_scaling_of(self, layer: int) -> RopeScaling | None:
        """The rotary scaling of a layer: Gemma 3's sliding layers (their own base) turn unscaled, as in
        transformers, where only the full-attention layers' rope_parameters carry a scaling."""
        if self.rope_local_theta is not None and self.is_sliding(layer):
            return None
        return self.rope_scaling

    def replace(self, **changes: Any) -> ModelConfig:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the sliding layers as a list, as a manifest or a checkpoint's config.json holds them."""
        out = dataclasses.asdict(self)
        out["sliding_layers"] = list(self.sliding_layers)
        out["dense_layers"] = list(self.dense_layers)
        out["rope_scaling"] = None if self.rope_scaling is None else self.rope_scaling.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def parameter_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every parameter's public name and shape, without building the model (for counts and budgets)."""
        return param_shapes.parameter_shapes(self)

    def parameter_count(self) -> int:
        return sum(math.prod(s) for s in self.parameter_shapes().values())

    def active_parameter_count(self) -> int:
        """The parameters one token computes with: all but the X − K experts its router passes over in each
        MoE layer (parameter_count for a dense model)."""
        return param_shapes.active_parameter_count(self)
