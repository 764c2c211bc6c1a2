"""The one engine behind ``attention-explorer export`` and ``explorer.trace``: a model source, a text, run
options and interventions become a core Trace, by the same calls in the same order (open the model, fill in
the model's own mask, check the captured layers, run the plain or the intervened trace). Equal inputs give
equal arrays, bit for bit, whichever of the two asked."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from explorer.api.options import check_layers, own_mask
from explorer.config import RunOptions
from explorer.session.request import ModelSource

if TYPE_CHECKING:  # torch loads with the model, when a trace is asked for
    from explorer.trace import Trace
    from explorer.weights.bundle import ModelBundle

Note = Callable[[str], None]


def open_model(source: ModelSource, note: Note | None = None, dtype: str = "float32") -> ModelBundle:
    """The model ``source`` names (explorer.session.open.open_source, the window's too); a run folder stands
    for its latest complete checkpoint, and ``note`` hears which. ``dtype``: the run's (a model stored in that
    half dtype is kept in it)."""
    from explorer.session.open import open_source

    return open_source(source, note=note, dtype=dtype)


def resolved_options(options: RunOptions, config) -> RunOptions:
    """``options`` with the model's own mask where none was chosen (``mask=None``: causal, none for an
    encoder), checked against the model's layers."""
    if options.mask is None:
        options = options.replace(mask=own_mask(config))
    check_layers(config, options)
    return options


def trace_bundle(bundle: ModelBundle, text: str, options: RunOptions, interventions=None) -> Trace:
    """The trace of ``text`` on an open model: plain, or the baseline and the intervened run."""
    options = resolved_options(options, bundle.config)
    from explorer.trace import run_trace  # torch loads here, not when `import explorer` runs

    if interventions is None or interventions.empty:
        return run_trace(bundle, text, options)
    from explorer.interventions import run_intervened

    return run_intervened(bundle, text, interventions, options)


def make_trace(
    source: ModelSource, text: str, options: RunOptions, interventions=None, note: Note | None = None, models=None
) -> Trace:
    """The core Trace of ``text`` on the model ``source`` names. ``options.mask`` None means the model's own
    mask; ``interventions`` None (or empty) a plain run; ``models`` (an explorer.work.model_cache.ModelCache)
    keeps a model built for the next call. What both export and explorer.trace call."""
    bundle = open_model(source, note, options.dtype) if models is None else models.get(source, dtype=options.dtype)
    return trace_bundle(bundle, text, options, interventions)
