"""The public calls: ``trace``, ``open``, ``generate``, ``attribute`` and ``models``, each the Python twin of a
command (export, gui --snapshot / info, generate, attribute, info --models) with the same choices, the same
engine and the same one-line errors (explorer.Error). Notes the command prints on stderr (which checkpoint a
run folder stands for, a text cut to the model's context) come as Python warnings."""

from __future__ import annotations

import warnings
from typing import Any

from explorer.api.choices import (
    INTERVENTION_FIELDS,
    LETTERS,
    MODEL_FIELDS,
    RUN_FIELDS,
    SIZE_FIELDS,
    read_choices,
    sentences,
    with_keywords,
)
from explorer.api.result import TraceResult


def _note(message: str) -> None:
    warnings.warn(message, UserWarning, stacklevel=4)


def _notices(core) -> None:
    for notice in core.notices:
        _note(notice)


_PRESETS = None  # the preset models built so far, kept for the next call (explorer.work.model_cache.ModelCache)


def preset_models(source):
    """The cache a preset's model is kept in between calls (a notebook traces sentence after sentence), or None
    for a model from a file or folder, opened anew each time so that a checkpoint rewritten on disk is read."""
    global _PRESETS
    if source.kind != "preset":
        return None
    if _PRESETS is None:
        from explorer.work.model_cache import ModelCache

        _PRESETS = ModelCache()
    return _PRESETS


def _opened(source, dtype: str = "float32"):
    """The model ``source`` names: a preset's kept one, or one opened now (explorer.api.engine.open_model;
    ``dtype``: the run's, which a model stored in that half dtype is kept in)."""
    from explorer.api.engine import open_model

    models = preset_models(source)
    return open_model(source, note=_note, dtype=dtype) if models is None else models.get(source)


def trace(text: str | list[str], preset: str | None = None, model: str | None = None, **options: Any) -> TraceResult:
    """Trace ``text`` (one sentence per line, or a list of sentences) on a preset (``preset="seed-toy"``) or a
    model (``model=`` a checkpoint or run folder, a Hugging Face folder, a GGUF file or a name from
    ``models()``), exactly as ``attention-explorer export`` does.

    Options, as the command's flags: sizes ``embed_dim``/``E``, ``key_dim``/``D``, ``heads``/``H``,
    ``layers``/``L``, ``value_dim``, ``ffn_dim``, ``positions``, ``max_positions``, ``norm``, ``residual``,
    ``unfactored``, ``bare``; weights ``seed``, ``random_weights``; the run ``mask`` ("causal", "none",
    "window:3", "prefix:2" or a MaskSpec; default the model's own), ``scale``, ``temperature``, ``dtype``,
    ``device``, ``layers_to_capture``, ``lazy_maps``; interventions ``ablate`` ("0.1,1.3" or [(0, 1)]),
    ``ablate_mode``, ``cut`` ("0.1:3:2" or [(0, 1, 3, 2)]), ``patch`` and ``patch_from``."""
    from explorer.api.engine import make_trace

    made = read_choices(preset, model, options, "trace")
    text = sentences(text)
    core = make_trace(made.source, text, made.options, made.interventions, _note, preset_models(made.source))
    _notices(core)
    return TraceResult(core, made.source, text, core.options, made.interventions)


def open(path) -> TraceResult:  # noqa: A001 - ax.open(path) reads a snapshot, as the window's File → Open
    """A snapshot written by ``attention-explorer export`` or ``TraceResult.save`` (.npz, .safetensors, .pt),
    read back without running any model."""
    from explorer.export.snapshot import read_snapshot

    return TraceResult(read_snapshot(path))


# generate()'s own keywords (the command's sampling flags), besides trace()'s model and run options.
SAMPLING = ("greedy", "temperature", "top_k", "top_p", "seed")
GENERATING = (*SAMPLING, "stop", "top", "cache", "weights_seed")


def generate(text: str, n: int = 20, preset: str | None = None, model: str | None = None, **options: Any):
    """Continue ``text`` by at most ``n`` tokens, as ``attention-explorer generate`` does: greedy unless
    ``temperature``, ``top_k``, ``top_p`` or ``seed`` (the sampling's, as the command's flags) is given, or
    ``greedy=True``; ``stop`` (a token or a list), ``top`` (alternatives kept per step, 5), ``cache`` (read
    the KV cache, True) and ``weights_seed`` (seeds random weights). The other options are trace()'s, without
    interventions. Gives a GenerationResult."""
    from explorer.api.engine import resolved_options
    from explorer.api.generating import GenerationResult, sampling, stop_ids

    read_choices(preset, model, options, "generate", GENERATING)  # refuses an unknown keyword by name
    own = {k: options.pop(k) for k in GENERATING if k in options}
    made = read_choices(preset, model, {**options, "seed": own.get("weights_seed")}, "generate", GENERATING)
    chosen = sampling(bool(own.get("greedy")), *(own.get(k) for k in SAMPLING[1:]))
    bundle = _opened(made.source, made.options.dtype)
    run = resolved_options(made.options, bundle.config)
    from explorer.generation.loop import GenerateOptions, generate  # torch loads here

    gen = GenerateOptions(
        max_new_tokens=n,
        sampling=chosen,
        use_cache=bool(own.get("cache", True)),
        stop_ids=stop_ids(own.get("stop"), bundle.tokenizer),
        top=max(1, own.get("top", 5)),
    )
    generation = generate(bundle, sentences(text), run, gen)
    _notices(generation.trace)
    return GenerationResult(generation, made.source)


def attribute(
    text: str,
    target: str | None = None,
    target_id: int | None = None,
    position: int | None = None,
    preset: str | None = None,
    model: str | None = None,
    **options: Any,
):
    """The logit lens and each component's direct share of ``target``'s logit (a token as the vocabulary
    shows it, or ``target_id``) at ``position`` (default the last token), as ``attention-explorer
    attribute`` does. Gives an Attribution: the command's JSON object as a dict, shown as its report."""
    from explorer.api.engine import resolved_options
    from explorer.api.reports import Attribution
    from explorer.errors import ConfigError

    if target is not None and target_id is not None:
        raise ConfigError("give target or target_id, not both")
    made = read_choices(preset, model, options, "attribute", ())
    bundle = _opened(made.source, made.options.dtype)
    every_layer = made.options.replace(layers_to_capture=None, lazy_pairwise=True)  # every layer, no maps
    run = resolved_options(every_layer, bundle.config)
    from explorer.interventions.attribution import attribute as attribution
    from explorer.interventions.attribution import resolve_target
    from explorer.trace import run_trace  # torch loads here

    token = resolve_target(bundle, target, target_id)
    core = run_trace(bundle, sentences(text), run)
    _notices(core)
    return Attribution(attribution(bundle, core, token, position))


def models():
    """The real models known by name: each one's family, size, whether it is installed here and what it
    needs, as ``attention-explorer info --models`` lists them (a list of dicts, shown as its table)."""
    from explorer.api.reports import ModelList, model_rows

    return ModelList(model_rows())


# help(explorer.trace) and a notebook's completion list every option, with the command's defaults.
MODEL_AND_RUN = (*SIZE_FIELDS, *LETTERS, *MODEL_FIELDS, *RUN_FIELDS)
with_keywords(trace, (*MODEL_AND_RUN, *INTERVENTION_FIELDS))
with_keywords(attribute, MODEL_AND_RUN)
with_keywords(
    generate,
    [n for n in MODEL_AND_RUN if n not in SAMPLING],
    {"greedy": False, "temperature": None, "top_k": None, "top_p": None, "seed": None}
    | {"stop": None, "top": 5, "cache": True, "weights_seed": None},
)
