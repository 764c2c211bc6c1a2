"""What a model is: ModelConfig (E, D, H, L, … in the note's symbols), the hard caps on sizes and input, the seed.

Frozen: a change makes a new value, so the UI state, the worker and the manifest can compare and store it
without copies going stale. Every check raises ConfigError with a message a user can act on.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from explorer.errors import ConfigError
from explorer.vocab import ACTIVATIONS, MAX_HEADS, MAX_LAYERS, NORMS, POSITIONS

# Hard caps that keep a typo (E=640000) from reaching the allocator at all (heads and layers: explorer.vocab).
MAX_DIM = 65_536

# What one trace reads of a text (docs/errors.md, "Input"). Longer input is cut with a notice, never refused,
# the same in the CLI and the window: a pasted book must not make the window compute (and draw chips for)
# hundreds of thousands of tokens. Each sentence is cut to the model's context (max_positions: 1024 for this
# app's models, the file's for real ones), then the batch to MAX_TRACE_TOKENS tokens in all (SmolLM2's whole
# 8192-token context fits; 64 sentences of 1024 tokens do not: their chips alone held the window for
# seconds). Characters past MAX_TEXT_CHARS are not even tokenized.
MAX_TEXT_CHARS = 200_000
MAX_SENTENCES = 64
MAX_TRACE_TOKENS = 8_192

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
    family: str = "explorer"  # "explorer", "gpt2" or "llama": where the weights came from

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
        for name, what in (("value_dim", "value size D_v"), ("kv_heads", "key/value heads H_kv"), ("ffn_dim", "FFN width F")):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, positive_int(getattr(self, name), what))
        if self.positions not in POSITIONS:
            raise ConfigError(f"positions must be one of {', '.join(POSITIONS)}, got {self.positions!r}")
        if self.norm not in NORMS:
            raise ConfigError(f"norm must be one of {', '.join(NORMS)}, got {self.norm!r}")
        if self.ffn_activation not in ACTIVATIONS:
            raise ConfigError(f"FFN activation must be one of {', '.join(ACTIVATIONS)}, got {self.ffn_activation!r}")
        if self.heads % self.H_kv != 0:
            raise ConfigError(f"H ({self.heads}) must be a multiple of H_kv ({self.H_kv}): each key/value head serves H/H_kv query heads")
        if self.positions == "rope" and self.key_dim % 2:
            raise ConfigError(
                f"rotary positions rotate pairs of dimensions: D must be even, got {self.key_dim}; "
                f"choose D = {self.key_dim + 1} or other positions (sinusoidal, learned, none)"
            )
        if self.unfactored_value:
            if self.heads != 1:
                raise ConfigError(f"the unfactored form (W_v of shape (E, E), no W_o) has a single head; H is {self.heads}")
            if self.value_dim not in (None, self.embed_dim):
                raise ConfigError("the unfactored form has value size E; leave the value size unset")
        if not (self.norm_eps > 0 and math.isfinite(self.norm_eps)):
            raise ConfigError(f"norm epsilon must be a small positive number, got {self.norm_eps}")

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

    def replace(self, **changes: Any) -> ModelConfig:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def parameter_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every parameter's public name and shape, without building the model (for counts and budgets)."""
        E, D, H, Hkv, Dv, F, V = self.E, self.D, self.H, self.H_kv, self.D_v, self.F, self.V
        shapes: dict[str, tuple[int, ...]] = {"params.embed.tok": (V, E)}
        if self.positions == "learned":
            shapes["params.embed.pos"] = (self.max_positions, E)
        for l in range(self.layers):
            p = f"params.layers.{l}"
            for norm in ("ln_attn", "ln_ffn"):
                if self.norm != "none":
                    shapes[f"{p}.{norm}.weight"] = (E,)
                if self.norm == "layernorm":
                    shapes[f"{p}.{norm}.bias"] = (E,)
            shapes[f"{p}.attn.W_q"] = (E, H * D)
            shapes[f"{p}.attn.W_k"] = (E, Hkv * D)
            shapes[f"{p}.attn.W_v"] = (E, Hkv * Dv)
            if not self.unfactored_value:
                shapes[f"{p}.attn.W_o"] = (H * Dv, E)
            if self.bias:
                shapes[f"{p}.attn.b_q"] = (H * D,)
                shapes[f"{p}.attn.b_k"] = (Hkv * D,)
                shapes[f"{p}.attn.b_v"] = (Hkv * Dv,)
                if not self.unfactored_value:
                    shapes[f"{p}.attn.b_o"] = (E,)
            shapes[f"{p}.ffn.W_in"] = (E, F)
            if self.ffn_activation == "silu_gated":
                shapes[f"{p}.ffn.W_gate"] = (E, F)
            shapes[f"{p}.ffn.W_out"] = (F, E)
            if self.bias:
                shapes[f"{p}.ffn.b_in"] = (F,)
                shapes[f"{p}.ffn.b_out"] = (E,)
        if self.norm != "none":
            shapes["params.ln_final.weight"] = (E,)
        if self.norm == "layernorm":
            shapes["params.ln_final.bias"] = (E,)
        if not self.tie_embeddings:
            shapes["params.unembed.W_u"] = (E, V)
        if self.unembed_bias:
            shapes["params.unembed.b_u"] = (V,)
        return shapes

    def parameter_count(self) -> int:
        return sum(math.prod(s) for s in self.parameter_shapes().values())


