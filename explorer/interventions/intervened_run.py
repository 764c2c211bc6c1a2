"""An intervened run: the baseline trace, the patch source's trace (when patching), and the run with the
patches in place, returned as one Trace holding the intervened tensors under the usual names plus the
baseline's ``baseline.logits`` / ``baseline.probs``, with the interventions recorded for the manifest."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import torch

from explorer import __version__
from explorer.config import RunOptions, estimate_memory, memory_budget_bytes
from explorer.errors import ConfigError, InputError, MemoryBudgetError
from explorer.interventions.patches import build_patches
from explorer.interventions.spec import Interventions
from explorer.trace.run import AUTO_LAZY_BYTES, _pairwise_bytes, run_trace
from explorer.trace.trace import Trace
from explorer.weights.bundle import ModelBundle


def _lengths(trace: Trace) -> list[int]:
    return [r.length for r in trace.rows]


def source_trace(
    bundle: ModelBundle,
    text: str | Sequence[str],
    baseline: Trace,
    options: RunOptions,
    cancel: threading.Event | None = None,
    names: tuple[str, str] = ("--patch-from", "the text"),
) -> Trace:
    """The run of the patch source, which must have the baseline's sentences and token counts. ``names``:
    how the message calls the source and the baseline's text (the sweep says clean and corrupted)."""
    # Every layer is kept (the patched name may be in a layer the view does not capture). The source computes
    # its attention the way the baseline does (the reference where the baseline keeps its maps, the fused
    # kernel where it derives them: model.attention), so a patched run continues from the source's numbers
    # with the same arithmetic the source itself used after that point.
    source = run_trace(
        bundle, text, options.replace(layers_to_capture=None, lazy_pairwise=baseline.options.lazy_pairwise), cancel
    )
    if _lengths(source) != _lengths(baseline):
        raise InputError(
            f"{names[0]} has {'/'.join(map(str, _lengths(source)))} tokens but {names[1]} has "
            f"{'/'.join(map(str, _lengths(baseline)))}: patching needs texts of the same length in tokens"
        )
    return source


def check_intervened_memory(bundle: ModelBundle, baseline: Trace, options: RunOptions, patching: bool) -> None:
    """Everything an intervened run holds at once, counted before its second trace: the baseline it keeps, the
    patch source (derived maps only) and the intervened run at its peak. Each trace alone was within the budget
    while the three together were not."""
    B, C, cfg = baseline.B, baseline.C, bundle.config
    run = estimate_memory(cfg, B, C, options)
    source = (
        estimate_memory(cfg, B, C, options.replace(layers_to_capture=None, lazy_pairwise=True)).trace_bytes
        if patching
        else 0
    )
    need = (
        run.peak_bytes + baseline.nbytes + source + B * C * cfg.V * 8
    )  # + the baseline's logits and probs in the result
    budget = memory_budget_bytes()
    if need > budget:
        gib = lambda n: f"{n / 1024**3:.2f} GiB"  # noqa: E731
        raise MemoryBudgetError(
            f"an intervened run keeps the baseline{', the patch source' if patching else ''} and the "
            "intervened trace at once: "
            f"about {gib(need)}, more than the {gib(budget)} budget; use a shorter text or fewer layers "
            "(--layers-to-capture), "
            "or raise the budget"
        )


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
    check_intervened_memory(bundle, baseline, options, bool(interventions.patches))
    source = (
        source_trace(bundle, interventions.patch_from, baseline, options, cancel) if interventions.patches else None
    )
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
        arrays["baseline.probs"] = torch.softmax(
            torch.from_numpy(np.array(logits)) / baseline.options.temperature, dim=-1
        ).numpy()
    return run.replace(
        arrays, interventions=interventions.to_dict(), partial=False, labels=None, app_version=__version__
    )
