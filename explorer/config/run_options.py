"""How one trace runs a model: MaskSpec (which keys each query may see) and RunOptions (mask, scaling,
temperature, dtype, device, captured layers): what changes the numbers but not the parameters."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

from explorer.config.model_config import positive_int
from explorer.errors import ConfigError
from explorer.vocab import DTYPES, MASK_KINDS, SIZED_MASKS


@dataclass(frozen=True)
class MaskSpec:
    """Which keys each query may see. Padding of a batch is always added on top."""

    kind: str = "causal"
    size: int | None = None  # W for window, P for prefix
    matrix: tuple[tuple[bool, ...], ...] | None = None  # explicit (C, C): True = allowed

    def __post_init__(self) -> None:
        if self.kind not in MASK_KINDS:
            raise ConfigError(f"unknown mask {self.kind!r}: use causal, none, window:W, prefix:P or an explicit matrix")
        if self.kind in SIZED_MASKS:
            if self.size is None:
                raise ConfigError(f"mask {self.kind} needs a size, e.g. {self.kind}:3")
            object.__setattr__(self, "size", positive_int(self.size, f"{self.kind} size"))
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
        if kind in SIZED_MASKS:
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
        if self.kind in SIZED_MASKS:
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
            raise ConfigError(f"dtype must be one of {', '.join(DTYPES)}, got {self.dtype!r}")
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
