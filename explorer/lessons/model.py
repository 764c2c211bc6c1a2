"""What a lesson is once read: steps with words per language and the settings each step sets, and how
steps fold into the complete state a step shows.

A step sets only some keys; everything else stays as the previous step left it, so the state of step N is
the fold of steps 0..N over a starting state (the window as it was when the lesson opened, or
``DEFAULT_START`` for the CLI). Choosing a preset is a fresh start for the model, as it is in the window:
sizes, weights, text and run options go back to the preset's own unless the same step sets them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from explorer import vocab
from explorer.errors import ExplorerError
from explorer.vocab import LANGUAGES
from explorer.weights.presets import DEFAULT_PRESET, get_preset

LANGUAGE_NAMES = {"en": "English", "ja": "Japanese"}

# The window's panels a step can bring to the front: explorer.vocab.PANELS (the object names of
# explorer/ui/views/registry.py; tests/ui/test_lessons_window.py checks the two lists agree).
PANELS = vocab.PANELS

# Size keys as the note writes them → ModelConfig fields.
SIZE_FIELDS = {"E": "embed_dim", "D": "key_dim", "H": "heads", "L": "layers"}
MODEL_KEYS = ("E", "D", "H", "L", "positions", "norm")  # architecture overrides of a preset


class LessonError(ExplorerError):
    """A lesson file that cannot be read: the message names the file, the line and the key."""


@dataclass(frozen=True)
class LessonState:
    """Everything a lesson can set. ``None`` in a size means "the preset's own"; ``mask`` is a mask name
    (causal, none, window:W, prefix:P) or painted cells, rows of booleans (True = the query sees the key)."""

    preset: str = DEFAULT_PRESET
    model: str | None = None  # a real model known by name (e.g. smollm2); replaces the preset while set
    weights: str = "trained"  # "trained" (the preset's shipped weights, when it has them) or "random"
    seed: int | None = None
    text: str = "This is a pen ."
    E: int | None = None
    D: int | None = None
    H: int | None = None
    L: int | None = None
    positions: str | None = None
    norm: str | None = None
    mask: str | tuple[tuple[bool, ...], ...] = "causal"
    scaling: bool = True
    temperature: float = 1.0
    stage: str = "weights"
    layer: int = 0
    head: int = 0
    row: int = 0  # sentence of the batch
    token: int | None = None  # selected query position
    key: int | None = None  # selected key position (with token: one cell)
    panel: str | None = None

    def size_overrides(self) -> dict[str, Any]:
        """ModelConfig overrides of the preset (for ModelSource.with_sizes and preset_config)."""
        out: dict[str, Any] = {SIZE_FIELDS[k]: getattr(self, k) for k in SIZE_FIELDS if getattr(self, k) is not None}
        for k in ("positions", "norm"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        return out

    def replace(self, **changes: Any) -> LessonState:
        return dataclasses.replace(self, **changes)


def _preset_start(name: str) -> dict[str, Any]:
    """What choosing ``name`` resets, as the window's Model → Presets does."""
    preset = get_preset(name)
    options = preset.options
    mask = options.get("mask", "causal")
    return dict(
        preset=name,
        model=None,
        weights="trained",
        seed=None,
        text=preset.example,
        **{k: None for k in MODEL_KEYS},
        mask=str(mask) if not isinstance(mask, str) else mask,
        scaling=bool(options.get("scale", True)),
        temperature=float(options.get("temperature", 1.0)),
    )


DEFAULT_START = LessonState(**_preset_start(DEFAULT_PRESET))


@dataclass(frozen=True)
class Step:
    """One step: words per language (title, caption, question, answer) and the settings it sets."""

    caption: dict[str, str]
    title: dict[str, str] = field(default_factory=dict)
    question: dict[str, str] = field(default_factory=dict)
    answer: dict[str, str] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)  # LessonState field → value, only those set

    def words(self, what: str, language: str) -> tuple[str, str | None]:
        """(text, note) in ``language``; falls back to another language with a note saying so."""
        texts: dict[str, str] = getattr(self, what)
        if language in texts:
            return texts[language], None
        for other in (*LANGUAGES, *texts):
            if other in texts:
                return (
                    texts[other],
                    f"no {LANGUAGE_NAMES.get(language, language)} {what} for this step; showing the "
                    f"{LANGUAGE_NAMES.get(other, other)} one",
                )
        return "", None

    def apply(self, state: LessonState) -> LessonState:
        """The state after this step, starting from ``state``."""
        changes = dict(self.settings)
        if "preset" in changes:
            base = _preset_start(changes["preset"])
            base.update({k: v for k, v in changes.items() if k != "preset"})
            changes = base
        elif "model" in changes:
            changes = {**{k: None for k in MODEL_KEYS}, "seed": None, "weights": "trained", **changes}
        if "token" in changes and "key" not in changes:
            changes["key"] = None  # a new query row: no cell is picked in it yet
        return dataclasses.replace(state, **changes)


@dataclass(frozen=True)
class Lesson:
    title: dict[str, str]
    steps: tuple[Step, ...]
    languages: tuple[str, ...] = ("en",)
    description: dict[str, str] = field(default_factory=dict)
    source: str = ""  # the file it came from ("builtin" for the built-in lesson), for messages

    def title_in(self, language: str) -> str:
        if language in self.title:
            return self.title[language]
        return next(iter(self.title.values()), "")

    def with_steps(self, steps: list[Step] | tuple[Step, ...]) -> Lesson:
        return dataclasses.replace(self, steps=tuple(steps))


def resolve(lesson: Lesson, n: int, start: LessonState = DEFAULT_START) -> LessonState:
    """The complete state of step ``n`` (0-based): steps 0..n folded over ``start``."""
    if not 0 <= n < len(lesson.steps):
        raise LessonError(f"this lesson has steps 1 to {len(lesson.steps)}; there is no step {n + 1}")
    state = start
    for step in lesson.steps[: n + 1]:
        state = step.apply(state)
    return state


def resolve_all(lesson: Lesson, start: LessonState = DEFAULT_START) -> list[LessonState]:
    out, state = [], start
    for step in lesson.steps:
        state = step.apply(state)
        out.append(state)
    return out


def recorded_settings(after: LessonState) -> dict[str, Any]:
    """The settings of a step recorded from the window ("Add this view as a step").

    A recorded step stands on its own wherever the teacher moves it later, and whatever state a lesson is
    opened from: it names its preset (or real model), every model or run setting that differs from what
    that choice resets to, and the whole selection.
    """
    changes: dict[str, Any] = {"preset": after.preset} if after.model is None else {"model": after.model}
    base = Step(caption={}, settings=dict(changes)).apply(DEFAULT_START)
    for f in dataclasses.fields(LessonState):
        if f.name in SELECTION_KEYS or (
            f.name not in ("preset", "model") and getattr(after, f.name) != getattr(base, f.name)
        ):
            changes[f.name] = getattr(after, f.name)
    # Only token and key can be set back to "nothing selected" (written as "none"); every other None is
    # what the preset or model choice above already resets to (a panel left as it is is not written).
    return {k: v for k, v in changes.items() if v is not None or k in NONE_KEYS}


SELECTION_KEYS = ("stage", "layer", "head", "row", "token", "key")
NONE_KEYS = ("token", "key")  # keys a file may set to "none"


def skip_note(state: LessonState) -> str | None:
    """Why a step cannot be shown here (a real model that is not installed), or None."""
    if state.model is None:
        return None
    from explorer.weights.catalog import INSTALL_HINTS, REAL_MODELS

    label, locate = REAL_MODELS[state.model]
    if locate() is not None:  # type: ignore[operator]
        return None
    hint = INSTALL_HINTS.get(state.model)
    return f"{label} is not installed here; this step is skipped" + (f" (install it with `{hint}`)" if hint else "")
