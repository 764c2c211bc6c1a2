"""The rules for the user's preferences: the palette, the text size and the interface language. Each checks
the choice against the vocabulary (explorer/vocab.py), records it in the state and asks the window to apply
it (one effect). An unknown palette or language is refused: the state stays as it was and nothing is
applied. A text size outside the steps' range is held to it, as View → Text size always did."""

from __future__ import annotations

import dataclasses
import math

from explorer import vocab
from explorer.session import actions as a
from explorer.session.effects import ApplyLanguage, ApplyPalette, ApplyTextSize
from explorer.session.turn import Turn


def set_palette(turn: Turn, action: a.SetPalette) -> None:
    if action.palette not in vocab.PALETTES:
        return
    _choose(turn, palette=action.palette)
    turn.say(ApplyPalette(action.palette, action.remember))


def set_text_size(turn: Turn, action: a.SetTextSize) -> None:
    try:
        scale = float(action.scale)
    except (TypeError, ValueError):
        return
    if not math.isfinite(scale):
        return
    scale = min(max(scale, vocab.TEXT_SCALES[0]), vocab.TEXT_SCALES[-1])
    _choose(turn, text_scale=scale)
    turn.say(ApplyTextSize(scale, action.remember))


def set_language(turn: Turn, action: a.SetLanguage) -> None:
    if action.language not in vocab.LANGUAGES:
        return
    _choose(turn, language=action.language)
    turn.say(ApplyLanguage(action.language, action.remember))


def _choose(turn: Turn, **changes) -> None:
    turn.set(preferences=dataclasses.replace(turn.state.preferences, **changes))


def next_text_scale(scale: float, direction: int) -> float:
    """View → Text size: one step larger (+1) or smaller (−1) from the step nearest ``scale``; 0 is 100 %."""
    if direction == 0:
        return vocab.DEFAULT_TEXT_SCALE
    steps = vocab.TEXT_SCALES
    i = steps.index(min(steps, key=lambda s: abs(s - scale)))
    return steps[max(0, min(len(steps) - 1, i + direction))]
