"""Export all stages: which figures, in the order Play walks them (stage_walk), and their file names."""

from __future__ import annotations

import dataclasses

from explorer.errors import ConfigError
from explorer.present.stage_walk import walk
from explorer.session.request import Selection


def parse_layers(text: str, available: tuple[int, ...]) -> tuple[int, ...]:
    """ "all" (or nothing): every layer the trace holds; else a list such as "0,2" or "1-3"."""
    text = (text or "").strip().lower()
    if text in ("", "all"):
        return tuple(available)
    chosen: list[int] = []
    try:
        for part in text.split(","):
            a, _, b = part.strip().partition("-")
            chosen += range(int(a), int(b) + 1) if b else [int(a)]
    except ValueError:
        raise ConfigError(f"layers: all, or numbers such as 0,2 or 1-3; got {text!r}") from None
    missing = [l for l in chosen if l not in available]
    if missing:
        raise ConfigError(f"layer {missing[0]} is not in this trace (it holds layers {', '.join(map(str, available))})")
    return tuple(dict.fromkeys(chosen))


def plan(trace, selection: Selection, layers: tuple[int, ...], extension: str) -> list[tuple[str, Selection]]:
    """(file name, selection) of every figure: the stages before the layers once, each layer's stages for
    each chosen layer, then the stages after; numbered in that order."""
    out = []
    for n, (key, layer) in enumerate(walk(layers, trace.config)):
        sel = dataclasses.replace(selection, stage=key, layer=selection.layer if layer is None else layer)
        name = f"{n + 1:02d}-{key}" if layer is None else f"{n + 1:02d}-layer{layer}-{key}"
        out.append((f"{name}.{extension}", sel))
    return out
