"""A GGUF file's rotary scaling → the RopeScaling that config.json's would give (explorer/config/rope_scaling.py),
where llama.cpp computes the same frequencies as transformers; anything else is refused in one line.

    rope.scaling.type linear (or none) with rope.scaling.factor f ≠ 1   every frequency ÷ f (llama.cpp applies
                                                                        the factor whatever the type says)
    rope.scaling.type yarn, .factor, .original_context_length,          YaRN: ramp between beta_fast and
        .yarn_beta_fast, .yarn_beta_slow                                beta_slow, cos and sin × (1 + 0.1 ln f)
    the tensor rope_freqs.weight (R/2 numbers)                          Llama 3's scaling as llama.cpp's
                                                                        converter stores it: frequency i ÷ its
                                                                        own factor (a LongRoPE with one set)

llama.cpp's YaRN multiplies cos and sin by 1 + 0.1 ln f, transformers' default attention_factor; a file that
sets ``rope.scaling.yarn_attn_factor`` (transformers takes it as the whole factor, llama.cpp multiplies it in or
ignores it by architecture) is refused by the key table (explorer/families/gguf_fields.py), as are
``yarn_log_multiplier`` (DeepSeek's mscale) and an ``attn_factor`` other than 1.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.config.rope_scaling import RopeScaling
from explorer.errors import ConfigError, ModelLoadError
from explorer.families.gguf_fields import optional, real, size

FREQS = "rope_freqs.weight"
KINDS = ("none", "linear", "yarn")


def gguf_rope_scaling(meta: dict, tensors: dict, arch: str, R: int, context: int, origin: str) -> RopeScaling | None:
    """The scaling of a file whose rotary embedding turns R dimensions and reads ``context`` tokens, or None."""
    a = f"{arch}.rope.scaling."
    kind = meta.get(a + "type", "none")
    if kind not in KINDS:
        shown = str(kind)[:40]
        raise ModelLoadError(f"{origin}: rotary scaling {shown!r} is not supported (none, linear, yarn, rope_freqs)")
    factor = optional(meta, a + "factor", origin) or 1.0
    if FREQS in tensors:
        if kind == "yarn" or factor != 1.0:
            raise ModelLoadError(f"{origin}: {FREQS} together with rope.scaling.type {kind} is not supported")
        return _checked(origin, kind="longrope", short_factor=_factors(tensors[FREQS], R, origin),
                        long_factor=_factors(tensors[FREQS], R, origin), original_max=context)  # fmt: skip
    if kind == "yarn":
        if optional(meta, a + "factor", origin) is None:
            raise ModelLoadError(f"{origin}: metadata {a}factor is missing (YaRN needs it)")
        return _checked(
            origin,
            kind="yarn",
            factor=factor,
            original_max=size(meta, a + "original_context_length", origin, default=context),
            attention_factor=1.0 if factor <= 1 else 0.1 * math.log(factor) + 1.0,
            beta_fast=real(meta, a + "yarn_beta_fast", origin, 32.0),
            beta_slow=real(meta, a + "yarn_beta_slow", origin, 1.0),
        )
    return None if factor == 1.0 else _checked(origin, kind="linear", factor=factor)


def _checked(origin: str, **fields) -> RopeScaling:
    try:
        return RopeScaling(**fields)
    except ConfigError as exc:
        raise ModelLoadError(f"{origin}: {exc}") from None


def _factors(info, R: int, origin: str) -> tuple[float, ...]:
    """rope_freqs.weight: R/2 positive numbers, each pair's divisor."""
    from gguf.quants import dequantize

    try:
        values = np.asarray(dequantize(info.data, info.tensor_type), dtype=np.float64).reshape(-1)
    except Exception as exc:
        raise ModelLoadError(f"{origin}: cannot read {FREQS} ({info.tensor_type.name}): {exc}") from None
    if values.shape != (R // 2,) or not np.all(np.isfinite(values) & (values > 0)):
        raise ModelLoadError(f"{origin}: {FREQS} must hold {R // 2} positive numbers (one per pair of {R} dimensions)")
    return tuple(float(v) for v in values)
