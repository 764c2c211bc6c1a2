"""A lesson step's state (explorer.lessons.LessonState) against the session's request and selection: read the
session as a step would set it (recording), and the request and selection a step sets (playing).

A step is applied exactly as if the user had made the same choices in the controls. The selection waits for
the step's trace: selecting head 3 before the model with 4 heads has been traced would be clamped to the old
model's heads.
"""

from __future__ import annotations

import dataclasses

from explorer.config import MaskSpec
from explorer.lessons import LessonState
from explorer.lessons.model import SIZE_FIELDS
from explorer.session.request import ModelSource, Selection, TraceRequest
from explorer.weights.catalog import REAL_MODELS

_FIELD_TO_KEY = {v: k for k, v in SIZE_FIELDS.items()}


def read_step(request: TraceRequest, sel: Selection, panel: str | None = None) -> LessonState:
    """The session as a lesson step would set it. A model opened from a folder cannot be named by a lesson
    (docs/lessons.md, Safety): the step keeps the preset last named."""
    source, options = request.source, request.options
    fields: dict = {}
    if source.kind == "preset":
        fields.update(
            preset=source.name, model=None, weights="random" if source.random_weights else "trained", seed=source.seed
        )
        for name, value in source.sizes:
            if name in _FIELD_TO_KEY:
                fields[_FIELD_TO_KEY[name]] = value
            elif name in ("positions", "norm"):
                fields[name] = value
    elif source.name in REAL_MODELS:
        fields["model"] = source.name
    mask = options.mask
    fields.update(
        text=request.text,
        mask=mask.matrix if mask.kind == "explicit" else str(mask),
        scaling=options.scale,
        temperature=float(options.temperature),
        stage=sel.stage,
        layer=sel.layer,
        head=sel.head,
        row=sel.row,
        token=sel.token,
        key=sel.key,
        panel=panel,
    )
    return LessonState().replace(**fields)


def source_of(ls: LessonState) -> ModelSource:
    if ls.model is not None:
        return ModelSource("path", ls.model)
    source = ModelSource("preset", ls.preset, seed=ls.seed, random_weights=ls.weights == "random")
    return source.with_sizes(**ls.size_overrides())


def step_request(request: TraceRequest, ls: LessonState) -> TraceRequest:
    """``request`` as step ``ls`` sets it: its model, text, mask, scaling and temperature."""
    mask = MaskSpec.explicit(ls.mask) if isinstance(ls.mask, tuple) else MaskSpec.parse(ls.mask)
    options = request.options.replace(mask=mask, scale=ls.scaling, temperature=ls.temperature)
    return dataclasses.replace(request, source=source_of(ls), text=ls.text, options=options)


def step_selection(ls: LessonState) -> dict:
    return dict(stage=ls.stage, layer=ls.layer, head=ls.head, row=ls.row, token=ls.token, key=ls.key)
