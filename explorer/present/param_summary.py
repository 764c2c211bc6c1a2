"""Parameter count and memory of a configuration, matrix by matrix, grouped as the model is built.

Pure (no Qt, no model): it reads ``ModelConfig.parameter_shapes()``, so a size can be judged before
anything is allocated. The parameters panel shows these rows; its totals equal
``config.parameter_count()``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from explorer import names
from explorer.config import ModelConfig
from explorer.vocab import itemsize  # bytes per number of a trace dtype (defined once); callers read it here too


@dataclass(frozen=True)
class ParamRow:
    name: str  # public name, e.g. "params.layers.0.attn.W_q"
    shape: tuple[int, ...]
    count: int
    nbytes: int

    @property
    def short(self) -> str:
        """The name within its group: "attn.W_q", "embed.tok", "unembed.W_u"."""
        rest = self.name.removeprefix("params.")
        layer = names.layer_of(self.name)
        return rest.removeprefix(f"layers.{layer}.") if layer is not None else rest


@dataclass(frozen=True)
class ParamGroup:
    layer: int | None  # None: outside the layers
    part: str  # "input", "layer" or "output"
    rows: tuple[ParamRow, ...]

    @property
    def count(self) -> int:
        return sum(r.count for r in self.rows)

    @property
    def nbytes(self) -> int:
        return sum(r.nbytes for r in self.rows)


def parameter_rows(config: ModelConfig, dtype: str = "float32") -> tuple[ParamRow, ...]:
    item = itemsize(dtype)
    rows = []
    for name, shape in config.parameter_shapes().items():
        count = math.prod(shape)
        rows.append(ParamRow(name, tuple(shape), count, count * item))
    return tuple(rows)


def parameter_groups(config: ModelConfig, dtype: str = "float32") -> tuple[ParamGroup, ...]:
    """Embedding first, then one group per layer, then the final norm and unembedding."""
    rows = parameter_rows(config, dtype)
    inputs = tuple(r for r in rows if r.name.startswith("params.embed."))
    outputs = tuple(r for r in rows if names.layer_of(r.name) is None and r not in inputs)
    groups = [ParamGroup(None, "input", inputs)] if inputs else []
    for l in range(config.layers):
        # In the order a token meets them (norm, attention, norm, FFN), as names.PARAMS lists them.
        layer_rows = sorted(
            (r for r in rows if names.layer_of(r.name) == l), key=lambda r: names.PARAMS.index(names.spec(r.name))
        )
        groups.append(ParamGroup(l, "layer", tuple(layer_rows)))
    if outputs:
        groups.append(ParamGroup(None, "output", outputs))
    return tuple(groups)


def totals(config: ModelConfig, dtype: str = "float32") -> tuple[int, int]:
    """(parameter count, bytes) of the whole model."""
    rows = parameter_rows(config, dtype)
    return sum(r.count for r in rows), sum(r.nbytes for r in rows)
