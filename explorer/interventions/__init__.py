"""Change the computation and see: ablate heads, cut attention edges, patch activations from another text;
read the logit lens and each component's direct share of a logit. Pure core (torch and numpy, no Qt).

Interventions are patch functions at the model's capture points (explorer.model.capture), so an intervened
run is an ordinary trace with some tensors replaced.

The spec (plain frozen data) and the comparison helpers import no torch: the window builds its requests from
them on the GUI thread. The runners (run_intervened, patching_sweep) load torch when first asked for.
"""

from explorer.interventions.spec import (
    ABLATE_MODES,
    EdgeCut,
    HeadAblation,
    Interventions,
    PatchSpec,
    parse_ablate,
    parse_cut,
    parse_patch,
)

__all__ = [
    "ABLATE_MODES",
    "EdgeCut",
    "HeadAblation",
    "Interventions",
    "PatchSpec",
    "parse_ablate",
    "parse_cut",
    "parse_patch",
    "run_intervened",
    "SWEEP_KINDS",
    "SweepResult",
    "patching_sweep",
]

_LAZY = {"run_intervened": "intervened_run", "SWEEP_KINDS": "sweep", "SweepResult": "sweep", "patching_sweep": "sweep"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"explorer.interventions.{_LAZY[name]}"), name)
    raise AttributeError(name)
