"""The order Play, the arrow keys and presentation mode walk the pipeline in, layer by layer.

``explorer.stages.neighbour`` steps through the stage keys once; a model with L layers runs the per-layer
stages L times (tokens → embed → [Q K V … block out] × L → logits → softmax), and a class should watch the
data go through every layer. Each step is a (stage key, layer) pair; stages outside the layers keep
whatever layer was selected (their layer is ``None`` here).
"""

from __future__ import annotations

from collections.abc import Sequence

from explorer.stages import STAGES

Step = tuple[str, int | None]


def walk(layers: Sequence[int]) -> tuple[Step, ...]:
    """Every step in pipeline order for a trace holding ``layers`` (e.g. ``trace.layers``)."""
    layers = tuple(layers) or (0,)
    before = [(s.key, None) for s in STAGES if not s.per_layer and STAGES.index(s) < _first_layered()]
    after = [(s.key, None) for s in STAGES if not s.per_layer and STAGES.index(s) > _first_layered()]
    inside = [(s.key, l) for l in layers for s in STAGES if s.per_layer]
    return tuple(before + inside + after)


def _first_layered() -> int:
    return next(i for i, s in enumerate(STAGES) if s.per_layer)


def position(key: str, layer: int, layers: Sequence[int]) -> tuple[int, int]:
    """(index, total) of the step showing ``key`` at ``layer``: "stage 7 / 28"."""
    steps = walk(layers)
    layers = tuple(layers) or (0,)
    if layer not in layers:
        layer = layers[0]
    for i, (k, l) in enumerate(steps):
        if k == key and (l is None or l == layer):
            return i, len(steps)
    raise KeyError(f"unknown stage {key!r}")


def step(key: str, layer: int, delta: int, layers: Sequence[int]) -> tuple[str, int]:
    """The (stage, layer) ``delta`` steps later (or earlier), clamped to the first and last stage."""
    steps = walk(layers)
    i, n = position(key, layer, layers)
    k, l = steps[max(0, min(n - 1, i + delta))]
    return k, (layer if l is None else l)


def is_last(key: str, layer: int, layers: Sequence[int]) -> bool:
    i, n = position(key, layer, layers)
    return i == n - 1
