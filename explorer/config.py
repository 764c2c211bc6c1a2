"""What a model is (ModelConfig) and how one trace runs it (RunOptions), with validation.

Both are frozen dataclasses: a change makes a new value, so the UI state, the worker and the manifest can
compare and store them without copies going stale. Every check raises ConfigError with a message a user
can act on.
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field
from typing import Any

from explorer.errors import ConfigError, MemoryBudgetError
from explorer.vocab import ACTIVATIONS, DTYPES, MASK_KINDS, MAX_HEADS, MAX_LAYERS, NORMS, POSITIONS

# Refuse a configuration whose estimate exceeds this before allocating anything. 4 GiB leaves room for the
# window and the OS on an 8 GB laptop; override with ATTENTION_EXPLORER_MEMORY_GB or --memory-budget.
DEFAULT_MEMORY_BUDGET_BYTES = 4 * 1024**3

# The attention computes a few heads at a time so that their transient (C, C) maps stay under this.
ATTENTION_CHUNK_BYTES = 192 * 1024**2

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


def _positive_int(value: Any, what: str, upper: int = MAX_DIM) -> int:
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
            object.__setattr__(self, name, _positive_int(getattr(self, name), what, upper))
        for name, what in (("value_dim", "value size D_v"), ("kv_heads", "key/value heads H_kv"), ("ffn_dim", "FFN width F")):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, _positive_int(getattr(self, name), what))
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


@dataclass(frozen=True)
class MaskSpec:
    """Which keys each query may see. Padding of a batch is always added on top."""

    kind: str = "causal"
    size: int | None = None  # W for window, P for prefix
    matrix: tuple[tuple[bool, ...], ...] | None = None  # explicit (C, C): True = allowed

    def __post_init__(self) -> None:
        if self.kind not in MASK_KINDS:
            raise ConfigError(f"unknown mask {self.kind!r}: use causal, none, window:W, prefix:P or an explicit matrix")
        if self.kind in ("window", "prefix"):
            if self.size is None:
                raise ConfigError(f"mask {self.kind} needs a size, e.g. {self.kind}:3")
            object.__setattr__(self, "size", _positive_int(self.size, f"{self.kind} size"))
        elif self.size is not None:
            raise ConfigError(f"mask {self.kind} takes no size")
        if self.kind == "explicit":
            if self.matrix is None or len(self.matrix) == 0:
                raise ConfigError("an explicit mask needs a (C, C) matrix")
            rows = tuple(tuple(bool(v) for v in row) for row in self.matrix)
            if any(len(r) != len(rows) for r in rows):
                raise ConfigError("an explicit mask must be square (C, C)")
            object.__setattr__(self, "matrix", rows)
        elif self.matrix is not None:
            raise ConfigError(f"mask {self.kind} takes no matrix")

    @classmethod
    def parse(cls, text: str) -> MaskSpec:
        """``causal``, ``none``, ``window:W`` or ``prefix:P``."""
        raw = str(text).strip().lower()
        kind, _, arg = raw.partition(":")
        if kind in ("window", "prefix"):
            if not arg.strip():
                raise ConfigError(f"mask {kind} needs a size, e.g. {kind}:3")
            try:
                size = int(arg)
            except ValueError:
                raise ConfigError(f"mask size must be a whole number, got {arg!r} in {text!r}") from None
            return cls(kind, size)
        if arg:
            raise ConfigError(f"unknown mask {text!r}: use causal, none, window:W or prefix:P")
        if kind == "explicit":
            raise ConfigError("an explicit mask is painted in the window or loaded from a file, not typed")
        return cls(kind)

    @classmethod
    def explicit(cls, matrix: Any) -> MaskSpec:
        return cls("explicit", matrix=tuple(tuple(bool(v) for v in row) for row in matrix))

    def __str__(self) -> str:
        if self.kind in ("window", "prefix"):
            return f"{self.kind}:{self.size}"
        if self.kind == "explicit":
            return f"explicit:{len(self.matrix or ())}x{len(self.matrix or ())}"
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.size is not None:
            out["size"] = self.size
        if self.matrix is not None:
            out["matrix"] = [[int(v) for v in row] for row in self.matrix]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any] | str) -> MaskSpec:
        if isinstance(data, str):
            return cls.parse(data)
        return cls(data["kind"], data.get("size"), data.get("matrix"))


@dataclass(frozen=True)
class RunOptions:
    """How one trace runs a model: things that change the numbers but not the parameters."""

    mask: MaskSpec = field(default_factory=MaskSpec)
    scale: bool = True  # divide scores by √D
    temperature: float = 1.0  # probs = softmax(logits / temperature)
    dtype: str = "float32"
    device: str = "cpu"
    layers_to_capture: tuple[int, ...] | None = None  # None: every layer
    # Keep the (C, C) stages out of the trace and derive them per head on demand from q and k. The values
    # are the same; memory drops from O(L·H·C²) to O(L·H·C·D).
    lazy_pairwise: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.mask, str):
            object.__setattr__(self, "mask", MaskSpec.parse(self.mask))
        if self.dtype not in DTYPES:
            raise ConfigError(f"dtype must be float32 or float64, got {self.dtype!r}")
        try:
            t = float(self.temperature)
        except (TypeError, ValueError):
            raise ConfigError(f"temperature must be a number, got {self.temperature!r}") from None
        if not (t > 0 and math.isfinite(t)):
            raise ConfigError(f"temperature must be a positive number, got {self.temperature!r}")
        object.__setattr__(self, "temperature", t)
        if self.layers_to_capture is not None:
            object.__setattr__(self, "layers_to_capture", tuple(sorted({int(l) for l in self.layers_to_capture})))

    def replace(self, **changes: Any) -> RunOptions:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mask": self.mask.to_dict(),
            "scale": self.scale,
            "temperature": self.temperature,
            "dtype": self.dtype,
            "device": self.device,
            "layers_to_capture": list(self.layers_to_capture) if self.layers_to_capture is not None else None,
            "lazy_pairwise": self.lazy_pairwise,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunOptions:
        ltc = data.get("layers_to_capture")
        return cls(
            mask=MaskSpec.from_dict(data.get("mask", "causal")),
            scale=bool(data.get("scale", True)),
            temperature=float(data.get("temperature", 1.0)),
            dtype=data.get("dtype", "float32"),
            device=data.get("device", "cpu"),
            layers_to_capture=tuple(ltc) if ltc is not None else None,
            lazy_pairwise=bool(data.get("lazy_pairwise", False)),
        )


# ----------------------------------------------------------------------------------------------- memory


def memory_budget_bytes() -> int:
    env = os.environ.get("ATTENTION_EXPLORER_MEMORY_GB")
    if env:
        try:
            gb = float(env)
        except ValueError:
            gb = math.nan
        # "inf" made int() raise OverflowError (a traceback); 0 or less would refuse every model.
        if not (math.isfinite(gb) and gb > 0):
            raise ConfigError(f"ATTENTION_EXPLORER_MEMORY_GB must be a positive number of GB, got {env!r}")
        return int(gb * 1024**3)
    return DEFAULT_MEMORY_BUDGET_BYTES


@dataclass(frozen=True)
class MemoryEstimate:
    params_bytes: int
    trace_bytes: int  # arrays kept in the trace
    peak_bytes: int  # params + trace + the largest transient of the forward pass

    def describe(self) -> str:
        return f"parameters {_gib(self.params_bytes)}, trace {_gib(self.trace_bytes)}, peak {_gib(self.peak_bytes)}"


def _gib(n: int) -> str:
    return f"{n / 1024**3:.2f} GiB" if n >= 1024**3 else f"{n / 1024**2:.1f} MiB"


def estimate_memory(config: ModelConfig, batch: int, context: int, options: RunOptions | None = None) -> MemoryEstimate:
    """A conservative estimate of what tracing (batch × context) tokens will hold at its peak."""
    options = options or RunOptions()
    item = 8 if options.dtype == "float64" else 4
    B, C = batch, context
    E, H, Hkv, D, Dv, F, V = config.E, config.H, config.H_kv, config.D, config.D_v, config.F, config.V
    params = config.parameter_count() * item
    layers = len(options.layers_to_capture) if options.layers_to_capture is not None else config.layers
    pairwise = 0 if options.lazy_pairwise else 2 * B * H * C * C  # scores and weights (scaled, masked derived)
    per_layer = (
        B * C * E * 6  # attn.in, attn.out, mid, ffn.in, ffn.out, out
        + B * C * (H * D + Hkv * D + Hkv * Dv) * (2 if config.positions == "rope" else 1)
        + B * H * C * Dv * 2  # heads, concat
        + B * C * F
        + pairwise
    )
    trace = (B * C * E * 4 + layers * per_layer + B * C * V) * item + B * C * C  # probs are derived from logits
    # The attention computes a few heads at a time, but never less than one: a single head's scores, masked
    # scores and weights (3·B·C² numbers) are alive together however small the chunk. Capping the transient
    # at the chunk size let 25,000 tokens pass a 4 GiB budget and then get the process killed for 7.5 GB.
    one_head = 3 * B * C * C * item
    masks = 3 * B * C * C  # bool: the mask, its negation in mask_scores, the (C, C) pattern
    transient = max(min(3 * B * H * C * C * item, ATTENTION_CHUNK_BYTES), one_head) + masks + B * C * max(F, E * 4) * item
    return MemoryEstimate(params, trace, params + trace + transient)


def check_memory(config: ModelConfig, batch: int, context: int, options: RunOptions | None = None, budget: int | None = None) -> MemoryEstimate:
    est = estimate_memory(config, batch, context, options)
    budget = memory_budget_bytes() if budget is None else budget
    if est.peak_bytes > budget:
        raise MemoryBudgetError(
            f"this configuration would need about {_gib(est.peak_bytes)} ({est.describe()}), more than the "
            f"{_gib(budget)} budget; make E, H, L, the vocabulary or the text smaller, or raise the budget"
        )
    return est


def check_training_memory(config: ModelConfig, batch: int, context: int, budget: int | None = None) -> MemoryEstimate:
    """Refuse, before building anything, a training run whose weights, gradients, AdamW moments (4× the
    parameters) and one step's activations exceed the budget. Without it, ``train -E 4096 -L 64`` spent
    minutes allocating 50 GB."""
    est = estimate_memory(config, batch, context)
    need = est.peak_bytes + 3 * est.params_bytes
    budget = memory_budget_bytes() if budget is None else budget
    if need > budget:
        raise MemoryBudgetError(
            f"training this configuration would need about {_gib(need)} (weights, gradients and optimizer state "
            f"{_gib(4 * est.params_bytes)}), more than the {_gib(budget)} budget; make E, H, L, the batch or the "
            "context smaller, or raise the budget"
        )
    return est
