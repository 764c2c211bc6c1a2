"""config.json's rotary scaling (``rope_scaling`` in transformers 4, ``rope_parameters`` in 5) read into a
RopeScaling (explorer/config/rope_scaling.py) with every default transformers fills in filled in here
(transformers/modeling_rope_utils.py: standardize_rope_params and the _compute_*_parameters functions), so
that the traced model turns q and k exactly as transformers does. A kind the traced model cannot compute is
refused in one line that names it."""

from __future__ import annotations

import math

from explorer.config.rope_scaling import ROPE_SCALINGS, RopeScaling
from explorer.errors import ConfigError, ModelLoadError
from explorer.util.schema import Where, flag, listing, number, whole

# Phi-3's config class keeps original_max_position_embeddings at the top level (default 4096), and
# transformers then prefers it to the one inside rope_scaling; it also calls LongRoPE "su" or "yarn".
PHI3_ORIGINAL_MAX = 4096
PHI3_ALIASES = {"su": "longrope", "yarn": "longrope"}
LONGEST = 1_048_576  # ModelConfig's largest max_positions (an input is cut far earlier: MAX_TRACE_TOKENS)


def rope_block(data: dict, origin: str) -> dict:
    """The rotary settings as transformers reads them: rope_scaling when set, else rope_parameters."""
    block = data.get("rope_scaling") or data.get("rope_parameters") or {}
    if not isinstance(block, dict):
        raise ModelLoadError(f"{origin}: rope_parameters / rope_scaling must be objects")
    return block


def rope_kind(block: dict, aliases: dict[str, str] | None = None) -> str:
    kind = block.get("rope_type", block.get("type", "default"))
    kind = "default" if kind is None else kind
    return (aliases or {}).get(kind, kind)


def read_scaling(data: dict, origin: str, max_positions: int, phi3: bool = False) -> RopeScaling | None:
    """The scaling of ``data``'s rope block, or None for plain RoPE; ``max_positions`` is the config's
    max_position_embeddings (the defaults of factor and original_max come from it)."""
    block = rope_block(data, origin)
    kind = rope_kind(block, PHI3_ALIASES if phi3 else None)
    if kind == "default":
        return None
    if kind not in ROPE_SCALINGS:
        raise ModelLoadError(
            f"{origin}: rotary scaling {str(kind)[:40]!r} is not supported (default, {', '.join(ROPE_SCALINGS)})"
        )
    where = Where(origin, ModelLoadError)
    original = _original_max(data, block, kind, max_positions, phi3, where)
    factor = block.get("factor")
    if factor is None and kind in ("yarn", "longrope"):  # transformers: the ratio of the two lengths
        factor = max_positions / original
    factor = number(factor, "rope_scaling.factor", where, positive=True)
    fields = dict(kind=kind, factor=factor, original_max=original)
    if kind == "llama3":
        fields.update(
            low_freq_factor=number(block.get("low_freq_factor"), "rope_scaling.low_freq_factor", where, positive=True),
            high_freq_factor=number(
                block.get("high_freq_factor"), "rope_scaling.high_freq_factor", where, positive=True
            ),
        )
    elif kind == "yarn":
        fields.update(_yarn_fields(block, factor, where))
    elif kind == "longrope":
        fields.update(_longrope_fields(block, factor, original, where))
    try:
        return RopeScaling(**fields)
    except ConfigError as exc:
        raise ModelLoadError(f"{origin}: {exc}") from None


def longest_text(max_positions: int, scaling: RopeScaling | None) -> int:
    """The longest text a model reads: max_position_embeddings, or for dynamic NTK scaling, which stretches
    the frequencies only past it, factor times that (the context it is meant to reach)."""
    if scaling is not None and scaling.kind == "dynamic":
        return max(max_positions, min(int(max_positions * scaling.factor), LONGEST))
    return max_positions


def _original_max(data: dict, block: dict, kind: str, max_positions: int, phi3: bool, where: Where) -> int:
    """The context the plain frequencies were trained for. Dynamic NTK measures the text against
    max_position_embeddings itself."""
    if kind in ("linear", "dynamic"):
        return max_positions
    if phi3:
        value = data.get("original_max_position_embeddings", PHI3_ORIGINAL_MAX)
    else:
        value = block.get("original_max_position_embeddings", max_positions)
    return whole(value, "original_max_position_embeddings", where, lo=1)


def _yarn_fields(block: dict, factor: float, where: Where) -> dict:
    given = block.get("attention_factor")
    mscale, mscale_all_dim = block.get("mscale"), block.get("mscale_all_dim")
    if given is not None:
        attention = number(given, "rope_scaling.attention_factor", where, positive=True)
    elif mscale and mscale_all_dim:
        attention = _mscale(factor, number(mscale, "mscale", where)) / _mscale(
            factor, number(mscale_all_dim, "mscale_all_dim", where)
        )
    else:
        attention = _mscale(factor)
    return dict(
        attention_factor=float(attention),
        beta_fast=number(block.get("beta_fast") or 32, "rope_scaling.beta_fast", where, positive=True),
        beta_slow=number(block.get("beta_slow") or 1, "rope_scaling.beta_slow", where, positive=True),
        truncate=flag(block.get("truncate", True), "rope_scaling.truncate", where),
    )


def _mscale(scale: float, mscale: float = 1.0) -> float:
    """YaRN's 0.1·mscale·ln(scale) + 1 (1 when nothing is stretched)."""
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def _longrope_fields(block: dict, factor: float, original: int, where: Where) -> dict:
    given = block.get("attention_factor")
    if given is not None:
        attention = number(given, "rope_scaling.attention_factor", where, positive=True)
    elif factor <= 1.0:
        attention = 1.0
    else:
        attention = math.sqrt(1 + math.log(factor) / math.log(original))
    factors = {}
    for key in ("short_factor", "long_factor"):
        values = listing(block.get(key), f"rope_scaling.{key}", where, number, 65_536)
        factors[key] = tuple(float(v) for v in values)
    return dict(attention_factor=float(attention), **factors)
