"""The bridge between a lesson step's state (explorer.lessons.LessonState) and the window's AppState: read
the window as a step would set it (recording), and set the window to a step (playing).

Only the AppState's public setters are used, so a step is applied exactly as if the user had made the same
choices in the controls. The selection waits for the step's trace: selecting head 3 before the model with
4 heads has been traced would be clamped to the old model's heads.
"""

from __future__ import annotations

from typing import Callable

from explorer.config import MaskSpec
from explorer.lessons import LessonState
from explorer.lessons.model import SIZE_FIELDS
from explorer.ui.state import AppState, ModelSource
from explorer.weights.catalog import REAL_MODELS

_FIELD_TO_KEY = {v: k for k, v in SIZE_FIELDS.items()}


def capture(state: AppState, panel: str | None = None) -> LessonState:
    """The window's state as a lesson step would set it. A model opened from a folder cannot be named by a
    lesson (docs/lessons.md, Safety): the step keeps the preset last named."""
    source, options, sel = state.source, state.options, state.selection
    fields: dict = {}
    if source.kind == "preset":
        fields.update(preset=source.name, model=None, weights="random" if source.random_weights else "trained", seed=source.seed)
        for name, value in source.sizes:
            if name in _FIELD_TO_KEY:
                fields[_FIELD_TO_KEY[name]] = value
            elif name in ("positions", "norm"):
                fields[name] = value
    elif source.name in REAL_MODELS:
        fields["model"] = source.name
    mask = options.mask
    fields.update(
        text=state.text,
        mask=mask.matrix if mask.kind == "explicit" else str(mask),
        scaling=options.scale, temperature=float(options.temperature),
        stage=sel.stage, layer=sel.layer, head=sel.head, row=sel.row, token=sel.token, key=sel.key, panel=panel,
    )
    return LessonState().replace(**fields)


def source_of(ls: LessonState) -> ModelSource:
    if ls.model is not None:
        return ModelSource("path", ls.model)
    source = ModelSource("preset", ls.preset, seed=ls.seed, random_weights=ls.weights == "random")
    return source.with_sizes(**ls.size_overrides())


def apply(state: AppState, ls: LessonState, show_panel: Callable[[str], None] | None = None) -> bool:
    """Set the window to ``ls``. Returns True when a new trace is on its way (the selection follows it)."""
    before = state.request
    state.set_source(source_of(ls))
    state.set_text(ls.text)
    mask = MaskSpec.explicit(ls.mask) if isinstance(ls.mask, tuple) else MaskSpec.parse(ls.mask)
    state.set_options(mask=mask, scale=ls.scaling, temperature=ls.temperature)
    selection = dict(stage=ls.stage, layer=ls.layer, head=ls.head, row=ls.row, token=ls.token, key=ls.key)
    waiting = state.request != before or state.trace is None
    if waiting:
        _select_after_trace(state, selection)
    else:
        state.select(**selection)
    if ls.panel is not None and show_panel is not None:
        show_panel(ls.panel)
    return waiting


_pending: dict[int, Callable[[], None]] = {}  # id(state) → cancels the selection still waiting for its trace


def _select_after_trace(state: AppState, selection: dict) -> None:
    """Select once the next trace is shown. Not cancelled by a further request in between: the mask painter
    grows a painted mask as soon as the step's trace arrives (a new request), and the selection belongs to
    the step all the same. A newer step (another apply) replaces it."""
    key = id(state)
    if key in _pending:
        _pending.pop(key)()

    def done(*_args) -> None:
        _pending.pop(key, None)
        state.traceChanged.disconnect(on_trace)
        state.errorRaised.disconnect(done)

    def on_trace(_trace) -> None:
        done()
        state.select(**selection)

    state.traceChanged.connect(on_trace)
    state.errorRaised.connect(done)
    _pending[key] = done
