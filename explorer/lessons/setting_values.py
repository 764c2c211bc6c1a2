"""The value of each state key a lesson step sets, checked: a preset or real model known by name (never a
path), sizes and positions within the app's limits, a stage, panel or mask the app knows. A wrong value is
refused by ``fail`` (the reader's, which names the file, line and key)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from explorer.config import MAX_HEADS, MAX_LAYERS, NORMS, POSITIONS, MaskSpec
from explorer.errors import ConfigError
from explorer.lessons.model import NONE_KEYS, PANELS, LessonError
from explorer.present.stages import STAGE_KEYS
from explorer.util.printable import quoted
from explorer.weights.catalog import REAL_MODELS
from explorer.weights.presets import PRESETS

MAX_TEXT = 10_000  # characters of a step's text (the window cuts traced text far later; a lesson has no need)
LESSON_MAX_DIM = 4096  # E and D a step may ask for: beyond this a class waits, and nothing new is seen

Fail = Callable[[int | None, str, str], LessonError]  # (step, key, message) -> the error to raise

# key -> (the names it may take, how the refusal says them)
CHOICES: dict[str, tuple[Collection[str], str]] = {
    "preset": (PRESETS, f"one of the presets {', '.join(PRESETS)}"),
    "model": (REAL_MODELS, f"a real model known by name ({', '.join(REAL_MODELS)}); a lesson never names a file"),
    "weights": (("trained", "random"), '"trained" or "random"'),
    "positions": (POSITIONS, f"one of {', '.join(POSITIONS)}"),
    "norm": (NORMS, f"one of {', '.join(NORMS)}"),
    "stage": (STAGE_KEYS, f"one of the stages {', '.join(STAGE_KEYS)}"),
    "panel": (PANELS, f"one of the panels {', '.join(PANELS)}"),
}

# key -> (lowest, highest) whole number; a layer, head or row is checked against its model later
WHOLE_RANGES: dict[str, tuple[int, int]] = {
    "seed": (0, 2**63 - 1),
    "E": (1, LESSON_MAX_DIM),
    "D": (1, LESSON_MAX_DIM),
    "H": (1, MAX_HEADS),
    "L": (1, MAX_LAYERS),
    "layer": (0, MAX_LAYERS * MAX_HEADS),
    "head": (0, MAX_LAYERS * MAX_HEADS),
    "row": (0, MAX_LAYERS * MAX_HEADS),
}


class _Value:
    """One key's value in one step, with the two ways it can be refused."""

    def __init__(self, i: int, key: str, v: Any, fail: Fail) -> None:
        self.i, self.key, self.v, self.fail = i, key, v, fail

    def need(self, ok: bool, what: str) -> None:
        if not ok:
            raise self.fail(self.i, self.key, f"must be {what}, got {quoted(self.v)}")

    def whole(self, lo: int, hi: int) -> int:
        v = self.v
        self.need(isinstance(v, int) and not isinstance(v, bool), "a whole number")
        if not lo <= v <= hi:
            raise self.fail(self.i, self.key, f"must lie between {lo} and {hi}, got {v}")
        return v


def check_setting(i: int, key: str, v: Any, fail: Fail) -> dict[str, Any]:
    """The state fields step ``i`` sets with ``key = v``, or the error of ``fail``."""
    value = _Value(i, key, v, fail)
    if key in CHOICES:
        names, what = CHOICES[key]
        value.need(isinstance(v, str) and v in names, what)
    elif key in WHOLE_RANGES:
        value.whole(*WHOLE_RANGES[key])
    elif key == "text":
        value.need(isinstance(v, str) and v.strip() != "", "non-empty text")
        if len(v) > MAX_TEXT:
            raise fail(i, key, f"at most {MAX_TEXT:,} characters, got {len(v):,}")
    elif key == "mask":
        return {"mask": check_mask(i, v, fail)}
    elif key == "scaling":
        value.need(isinstance(v, bool), "true or false")
    elif key == "temperature":
        value.need(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 100,
            "a number above 0 and at most 100",
        )
        return {key: float(v)}
    elif key in NONE_KEYS:
        if v == "none":
            return {key: None}
        value.whole(0, 1_000_000)
    elif key == "cell":
        value.need(
            isinstance(v, list)
            and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v),
            "[query, key]: two positions, e.g. [3, 1]",
        )
        return {"token": v[0], "key": v[1]}
    return {key: v}


def check_mask(i: int, v: Any, fail: Fail) -> str | tuple[tuple[bool, ...], ...]:
    """A mask by name (causal, window:W, …) in its canonical spelling, or painted cells as rows of booleans."""
    if isinstance(v, str):
        try:
            spec = MaskSpec.parse(v)
        except ConfigError as exc:
            raise fail(i, "mask", str(exc)) from None
        return str(spec)
    rows_ok = isinstance(v, list) and 0 < len(v) <= 1024 and all(isinstance(r, list) and len(r) == len(v) for r in v)
    if not rows_ok or not all(x in (0, 1) and not isinstance(x, float) for r in v for x in r):
        raise fail(
            i,
            "mask",
            "must be causal, none, window:W, prefix:P, or painted cells: a square list of rows of 0 and 1",
        )
    return tuple(tuple(bool(x) for x in r) for r in v)
