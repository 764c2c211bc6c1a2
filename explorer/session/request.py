"""What the user asks for: where the model comes from, the text and run options to trace, and what is
selected. Frozen and hashable: the worker keys its model cache on a ModelSource."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from explorer.config import MaskSpec, RunOptions
from explorer.interventions.spec import Interventions
from explorer.weights.presets import DEFAULT_PRESET, PRESETS, get_preset

# The text a model that is not a preset starts with (a preset brings its own example).
DEFAULT_TEXT = "This is a pen ."


@dataclass(frozen=True)
class ModelSource:
    """Where the model comes from. Presets take size overrides; a loaded model's sizes are fixed."""

    kind: str = "preset"  # "preset", "path" (checkpoint folder, run folder, Hugging Face folder, GGUF file,
    # named model), or "snapshot" (the model a snapshot shown read-only was made with; never opened)
    name: str = DEFAULT_PRESET  # preset name, or the path / catalog name
    sizes: tuple[tuple[str, Any], ...] = ()  # ModelConfig overrides, as sorted pairs (hashable)
    seed: int | None = None  # None: the preset's seed (and its trained weights, if shipped)
    random_weights: bool = False

    def with_sizes(self, **changes: Any) -> ModelSource:
        sizes = dict(self.sizes)
        sizes.update(changes)
        return dataclasses.replace(self, sizes=tuple(sorted((k, v) for k, v in sizes.items() if v is not None)))

    def size_overrides(self) -> dict[str, Any]:
        return dict(self.sizes)

    def label(self) -> str:
        if self.kind == "path":
            return f"{self.name} (random weights)" if self.random_weights else self.name
        weights = "random" if (self.random_weights or self.seed is not None or self.sizes) else "preset"
        return f"{self.name} ({weights} weights)"


@dataclass(frozen=True)
class TraceRequest:
    source: ModelSource
    text: str
    options: RunOptions
    interventions: Interventions = Interventions()  # empty: a plain trace; else the worker runs run_intervened


@dataclass(frozen=True)
class Selection:
    """What the user is looking at. ``token`` is the selected query position (row of every map)."""

    stage: str = "weights"  # a flow stage key (see explorer.ui.stages)
    layer: int = 0
    head: int = 0
    row: int = 0  # sentence of the batch
    token: int | None = None  # query position
    key: int | None = None  # key position (a column), when a cell is picked


def first_request(
    text: str | None = None, source: ModelSource | None = None, options: RunOptions | None = None
) -> TraceRequest:
    """What the window traces first: the default preset with its example sentence, unless told otherwise."""
    source = source or ModelSource()
    if text is None:
        text = get_preset(source.name).example if source.kind == "preset" else DEFAULT_TEXT
    return TraceRequest(source, text, options or RunOptions())


def preset_request(base: TraceRequest, name: str, keep_text: bool | None = None) -> TraceRequest:
    """Switching to preset ``name``: the run options it starts with, on top of ``base``'s other options, and
    its example sentence, unless ``keep_text``. By default (None) a sentence the teacher typed is kept; only a
    preset's own example (or no text) gives way to the new preset's example (issue 22). A hand-painted mask
    belongs to the old tokens: it goes back to causal."""
    preset = get_preset(name)
    if keep_text is None:
        keep_text = bool(base.text.strip()) and base.text not in {p.example for p in PRESETS.values()}
    text = base.text if keep_text else preset.example
    options = dataclasses.replace(base.options, **preset.options)
    if options.mask.kind == "explicit":
        options = dataclasses.replace(options, mask=MaskSpec())
    return TraceRequest(ModelSource("preset", name), text, options)
