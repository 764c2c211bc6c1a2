"""The keyword arguments of ``explorer.trace`` (and generate, attribute) read into a model source, run options and
interventions through explorer.api.options, as the command line reads its flags. A keyword that is not an
option is refused by name, never ignored."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from explorer import vocab
from explorer.api.options import SHAPE_FIELDS, interventions, model_source, run_options, size_overrides
from explorer.config import RunOptions
from explorer.errors import ConfigError, InputError
from explorer.session.request import ModelSource
from explorer.weights.presets import PRESETS

# The sizes by vocab.SIZE_OPTIONS' field names (embed_dim, key_dim, heads, layers, value_dim, ffn_dim), the
# note's letters for the first four, and the shape choices (positions, max_positions, norm, residual).
SIZE_FIELDS = (*(opt.field for opt in vocab.SIZE_OPTIONS), *SHAPE_FIELDS)
LETTERS = {"E": "embed_dim", "D": "key_dim", "H": "heads", "L": "layers"}
MODEL_FIELDS = ("seed", "random_weights", "unfactored", "bare")
RUN_FIELDS = ("mask", "scale", "temperature", "dtype", "device", "layers_to_capture", "lazy_maps")
INTERVENTION_FIELDS = ("ablate", "ablate_mode", "cut", "patch", "patch_from")


# Each keyword's default, as the command's flag defaults: what help() and a notebook's completion show.
DEFAULTS: dict[str, Any] = {
    **dict.fromkeys(SIZE_FIELDS),
    **dict.fromkeys(LETTERS),
    "unfactored": False,
    "bare": False,
    "seed": None,
    "random_weights": False,
    "mask": None,
    "scale": True,
    "temperature": 1.0,
    "dtype": "float32",
    "device": "cpu",
    "layers_to_capture": None,
    "lazy_maps": False,
    "ablate": None,
    "ablate_mode": "zero",
    "cut": None,
    "patch": None,
    "patch_from": None,
}


def with_keywords(call, names: Iterable[str], own: Mapping[str, Any] | None = None):
    """``call`` with a signature that names its keyword options (``**options`` hides them from help() and
    completion; they are still read, and refused when unknown, by read_choices)."""
    import inspect

    signature = inspect.signature(call)
    fixed = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    keywords = {**{n: DEFAULTS[n] for n in names}, **(own or {})}
    extra = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=v) for n, v in keywords.items()]
    call.__signature__ = signature.replace(parameters=[*fixed, *extra])
    return call


@dataclass(frozen=True)
class Choices:
    """What one call asked for: where the model comes from, how it runs, what is changed."""

    source: ModelSource
    options: RunOptions  # mask None: the model's own (filled in by explorer.api.engine)
    interventions: Any = None  # explorer.interventions.Interventions, or None


def _refuse_unknown(given: Iterable[str], known: Iterable[str], call: str) -> None:
    unknown = [k for k in given if k not in known]
    if unknown:
        raise ConfigError(
            f"{call}() has no option {unknown[0]!r}; its options are: {', '.join(sorted(set(known), key=str.lower))}"
        )


def _sizes(given: Mapping[str, Any]) -> dict[str, Any]:
    """The sizes given, by field name, whether written as a field or as the note's letter."""
    sizes: dict[str, Any] = {}
    for name, value in given.items():
        field = LETTERS.get(name, name)
        if field in SIZE_FIELDS and value is not None:
            if field in sizes:
                letter = next(k for k, v in LETTERS.items() if v == field)
                raise ConfigError(f"{field} and {letter} are the same size: give one of them")
            sizes[field] = value
    return sizes


def read_choices(
    preset: str | None, model: str | None, given: Mapping[str, Any], call: str, own: tuple[str, ...] | None = None
) -> Choices:
    """The Choices a call's keyword arguments make; ``model`` may name a preset too (as compare's --model-a).
    ``own``: the call's own keywords (named in the refusal of an unknown one; the call reads them and leaves
    them out of ``given``), and no interventions; None: trace()'s interventions."""
    also = INTERVENTION_FIELDS if own is None else own
    _refuse_unknown(given, (*SIZE_FIELDS, *LETTERS, *MODEL_FIELDS, *RUN_FIELDS, *also), call)
    if preset is not None and model is not None:
        raise ConfigError("give a preset or a model, not both")
    if model is not None and str(model) in PRESETS:
        preset, model = str(model), None
    sizes = size_overrides(_sizes(given), bool(given.get("unfactored")), bool(given.get("bare")))
    source = model_source(preset, model, sizes, given.get("seed"), bool(given.get("random_weights")))
    options = run_options(None, **{k: given[k] for k in RUN_FIELDS if k in given})
    changes = {k: given[k] for k in INTERVENTION_FIELDS if k in given}
    return Choices(source, options, interventions(**changes) if changes else None)


def sentences(text: Any) -> str:
    """The text to trace: a string whose lines are the batch's sentences, or a list of sentences."""
    if isinstance(text, str):
        return text
    if isinstance(text, (list, tuple)) and text and all(isinstance(s, str) for s in text):
        return "\n".join(text)
    raise InputError(
        f"the text must be a string (one sentence per line) or a list of strings, got {type(text).__name__}"
    )
