"""Change the computation and see: ablate heads, cut attention edges, patch activations from another text;
read the logit lens and each component's direct share of a logit. Pure core (torch and numpy, no Qt).

Interventions are patch functions at the model's capture points (explorer.model.capture), so an intervened
run is an ordinary trace with some tensors replaced.
"""

from explorer.interventions.spec import ABLATE_MODES, EdgeCut, HeadAblation, Interventions, PatchSpec, parse_ablate, parse_cut, parse_patch
from explorer.interventions.run import run_intervened
from explorer.interventions.sweep import SWEEP_KINDS, SweepResult, patching_sweep

__all__ = [
    "ABLATE_MODES", "EdgeCut", "HeadAblation", "Interventions", "PatchSpec",
    "parse_ablate", "parse_cut", "parse_patch", "run_intervened", "SWEEP_KINDS", "SweepResult", "patching_sweep",
]
