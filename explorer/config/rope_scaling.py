"""Rotary scaling: how a model stretches RoPE's frequencies beyond the context it was trained on (config.json's
``rope_scaling`` / ``rope_parameters`` with a ``rope_type``). Plain data, resolved once when the file is read
(every default transformers fills in is filled in here), so the model only computes
(explorer/model/rope_scaling.py) and a manifest stores a few numbers.

    linear    every frequency ÷ factor (positions interpolated)
    dynamic   NTK: the base grows with the text's length once it passes ``original_max``
    yarn      low frequencies ÷ factor, high ones kept, a ramp between (beta_fast, beta_slow);
              cos, sin × attention_factor
    llama3    Llama 3.1+: wavelengths above original_max / low_freq_factor ÷ factor, below / high_freq_factor kept
    longrope  Phi-3.5 / Phi-4: each frequency ÷ its own short_factor, or long_factor once the text is longer
              than original_max; cos, sin × attention_factor
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from explorer.errors import ConfigError

ROPE_SCALINGS = ("linear", "dynamic", "yarn", "llama3", "longrope")


@dataclass(frozen=True)
class RopeScaling:
    kind: str  # one of ROPE_SCALINGS
    factor: float = 1.0
    original_max: int = 2048  # the context the unscaled frequencies were trained for
    attention_factor: float = 1.0  # cos and sin are multiplied by it (yarn, longrope): q·k by its square
    low_freq_factor: float = 1.0  # llama3
    high_freq_factor: float = 4.0  # llama3
    beta_fast: float = 32.0  # yarn: the ramp's ends, in rotations over original_max
    beta_slow: float = 1.0
    truncate: bool = True  # yarn: the ramp's ends rounded outwards to whole dimensions
    short_factor: tuple[float, ...] = ()  # longrope: one divisor per frequency (R/2 of them)
    long_factor: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in ROPE_SCALINGS:
            raise ConfigError(f"rotary scaling must be one of {', '.join(ROPE_SCALINGS)}, got {self.kind!r}")
        for name in ("factor", "attention_factor", "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not (value > 0 and math.isfinite(value))
            ):
                raise ConfigError(f"rotary scaling's {name} must be a positive number, got {value!r}")
        if not isinstance(self.truncate, bool):
            raise ConfigError(f"rotary scaling's truncate must be true or false, got {self.truncate!r}")
        if isinstance(self.original_max, bool) or not isinstance(self.original_max, int) or self.original_max < 1:
            raise ConfigError(f"rotary scaling's original_max must be a whole number ≥ 1, got {self.original_max!r}")
        if self.kind == "llama3" and self.high_freq_factor <= self.low_freq_factor:
            raise ConfigError("rotary scaling llama3 needs high_freq_factor > low_freq_factor")
        for name in ("short_factor", "long_factor"):
            values = getattr(self, name)
            if not isinstance(values, (list, tuple)) or any(
                isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0 for v in values
            ):
                raise ConfigError(f"rotary scaling's {name} must be a list of positive numbers")
            object.__setattr__(self, name, tuple(float(v) for v in values))

    def check_width(self, R: int) -> None:
        """longrope's factors: one per frequency, R/2 of them."""
        if self.kind == "longrope" and not (len(self.short_factor) == len(self.long_factor) == R // 2):
            raise ConfigError(
                f"longrope needs {R // 2} short and long factors (one per pair of the {R} turning dimensions), "
                f"got {len(self.short_factor)} and {len(self.long_factor)}"
            )

    def to_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["short_factor"], out["long_factor"] = list(self.short_factor), list(self.long_factor)
        return out

    @classmethod
    def from_value(cls, value: Any) -> RopeScaling | None:
        """None, a RopeScaling, or its to_dict() (a manifest's config)."""
        if value is None or isinstance(value, RopeScaling):
            return value
        if not isinstance(value, dict):
            raise ConfigError(f"rope_scaling must be an object or unset, got {value!r}"[:200])
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(value) - known)
        if unknown:
            raise ConfigError(f"rope_scaling has unknown keys: {', '.join(map(str, unknown[:5]))}")
        if "kind" not in value:  # {} or a dict of factors only: no scaling named (a TypeError traceback before)
            raise ConfigError(f"rope_scaling has no kind (one of {', '.join(ROPE_SCALINGS)})")
        return cls(**value)
