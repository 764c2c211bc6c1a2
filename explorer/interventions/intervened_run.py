"""An intervened run: the baseline trace, the patch source's trace (when patching), and the run with the
patches in place, returned as one Trace holding the intervened tensors under the usual names plus the
baseline's ``baseline.logits`` / ``baseline.probs``, with the interventions recorded for the manifest."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import torch

from explorer import __version__
from explorer.config import RunOptions
from explorer.errors import ConfigError, InputError
from explorer.interventions.patches import build_patches
from explorer.interventions.spec import Interventions
from explorer.trace.run import AUTO_LAZY_BYTES, _pairwise_bytes, run_trace
from explorer.trace.trace import Trace
from explorer.weights.bundle import ModelBundle


def _lengths(trace: Trace) -> list[int]:
    return [r.length for r in trace.rows]


def source_trace(bundle: ModelBundle, text: str | Sequence[str], baseline: Trace, options: RunOptions,
                 cancel: threading.Event | None = None, names: tuple[str, str] = ("--patch-from", "the text")) -> Trace:
    """The run of the patch source, which must have the baseline's sentences and token counts. ``names``:
    how the message calls the source and the baseline's text (the sweep says clean and corrupted)."""
    # Every layer is kept (the patched name may be in a layer the view does not capture); the (C, C) maps are
    # derived, never stored: they cannot be patched and would only cost memory.
    source = run_trace(bundle, text, options.replace(layers_to_capture=None, lazy_pairwise=True), cancel)
    if _lengths(source) != _lengths(baseline):
        raise InputError(
            f"{names[0]} has {'/'.join(map(str, _lengths(source)))} tokens but {names[1]} has "
            f"{'/'.join(map(str, _lengths(baseline)))}: patching needs texts of the same length in tokens"
        )
    return source


def run_intervened(
    bundle: ModelBundle,
    text: str | Sequence[str],
    interventions: Interventions,
    options: RunOptions | None = None,
    cancel: threading.Event | None = None,
    baseline: Trace | None = None,
) -> Trace:
    """Trace ``text`` with ``interventions`` applied. ``baseline`` (the same text and options without
    interventions) is computed when not given."""
    options = options or RunOptions()
    if baseline is None:
        baseline = run_trace(bundle, text, options, cancel)
    if interventions.patches and interventions.patch_from is None:
        raise ConfigError("--patch needs --patch-from TEXT2: the text whose activations are patched in")
    if interventions.patch_from is not None and not interventions.patches:
        raise ConfigError("--patch-from needs --patch NAME[@POSITIONS][#HEADS]: which activations to take from it")
    source = source_trace(bundle, interventions.patch_from, baseline, options, cancel) if interventions.patches else None
    patches = build_patches(interventions, bundle.config, _lengths(baseline), baseline.C, source)
    run_options = baseline.options
    if interventions.cuts:
        # A lazy trace derives its maps from q, k and the (B, C, C) mask, which knows nothing of the cuts:
        # store the model's own scores and weights instead, where the cut cells are 0.
        run_options = run_options.replace(lazy_pairwise=False)
        if _pairwise_bytes(bundle.config, baseline.B, baseline.C, run_options) > AUTO_LAZY_BYTES:
            raise ConfigError(
                "cutting edges needs every attention map stored, and this text is too long for that: cut edges "
                "on a shorter text, or keep fewer layers (--layers-to-capture)"
            )
    run = run_trace(bundle, text, run_options, cancel, patches=patches)
    return with_baseline(run, baseline, interventions)


def with_baseline(run: Trace, baseline: Trace, interventions: Interventions) -> Trace:
    """``run`` plus the baseline's logits and probabilities, and the interventions for the manifest."""
    arrays = {n: run[n] for n in run.stored_names()}
    logits = baseline["logits"]
    arrays["baseline.logits"] = logits
    with torch.inference_mode():  # the trace's own expression for probs, so both runs' rows compare exactly
        arrays["baseline.probs"] = torch.softmax(torch.from_numpy(np.array(logits)) / baseline.options.temperature, dim=-1).numpy()
    return run.replace(arrays, interventions=interventions.to_dict(), partial=False, labels=None, app_version=__version__)
