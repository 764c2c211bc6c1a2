"""The order Play, the arrow keys and presentation mode walk the pipeline in, layer by layer.

A model with L layers runs the per-layer stages L times
(tokens → embed → [norm → Q K V … block out] × L → norm → logits → softmax), and a class should watch the
data go through every layer. Each step is a (stage key, layer) pair; stages outside the layers keep whatever layer was
selected (their layer is ``None`` here). Given the model's config, the pre-norm stages are left out of a model without
norms (the note's bare toy).
"""

from __future__ import annotations

from collections.abc import Sequence

from explorer.present.stages import STAGE_KEYS, STAGES, stages_for

Step = tuple[str, int | None]


def walk(layers: Sequence[int], config=None) -> tuple[Step, ...]:
    """Every step in pipeline order for a trace holding ``layers`` (e.g. ``trace.layers``)."""
    layers = tuple(layers) or (0,)
    shown = stages_for(config)
    first = _first_layered()
    before = [(s.key, None) for s in shown if not s.per_layer and STAGES.index(s) < first]
    after = [(s.key, None) for s in shown if not s.per_layer and STAGES.index(s) > first]
    inside = [(s.key, l) for l in layers for s in shown if s.per_layer and in_layer(s, l, config)]
    return tuple(before + inside + after)


def in_layer(s, layer: int, config) -> bool:
    """Whether layer ``layer`` runs the stage: a mixture's router and experts only where its FFN is one (a
    Qwen-MoE dense layer has neither)."""
    return not s.layer_needs or config is None or bool(getattr(config, s.layer_needs)(layer))


def _first_layered() -> int:
    return next(i for i, s in enumerate(STAGES) if s.per_layer)


def _present(key: str, layer: int, steps: tuple[Step, ...]) -> int:
    """The step of ``key`` at ``layer``, or for a stage the model (or that layer) lacks (a norm of a bare model,
    the router of a dense layer) the next one it has."""
    for k in (*STAGE_KEYS[STAGE_KEYS.index(key) :], steps[-1][0]):
        for i, (kk, l) in enumerate(steps):
            if kk == k and (l is None or l == layer):
                return i
    raise KeyError(f"unknown stage {key!r}")


def position(key: str, layer: int, layers: Sequence[int], config=None) -> tuple[int, int]:
    """(index, total) of the step showing ``key`` at ``layer``: "stage 7 / 28"."""
    steps = walk(layers, config)
    layers = tuple(layers) or (0,)
    if layer not in layers:
        layer = layers[0]
    if key not in STAGE_KEYS:
        raise KeyError(f"unknown stage {key!r}")
    return _present(key, layer, steps), len(steps)


def step(key: str, layer: int, delta: int, layers: Sequence[int], config=None) -> tuple[str, int]:
    """The (stage, layer) ``delta`` steps later (or earlier), clamped to the first and last stage."""
    steps = walk(layers, config)
    i, n = position(key, layer, layers, config)
    k, l = steps[max(0, min(n - 1, i + delta))]
    return k, (layer if l is None else l)


def is_last(key: str, layer: int, layers: Sequence[int], config=None) -> bool:
    i, n = position(key, layer, layers, config)
    return i == n - 1
