"""Generation token by token with a KV cache (no Qt): sampling rules, the loop, its result and its cost."""

from explorer.generation.cost import StepCost, cache_bytes, step_cost, step_macs
from explorer.generation.result import Generation, Step
from explorer.generation.sampling import Sampling, candidates, choose

__all__ = [
    "Generation",
    "Step",
    "Sampling",
    "candidates",
    "choose",
    "StepCost",
    "cache_bytes",
    "step_cost",
    "step_macs",
    "generate",
    "GenerateOptions",
]


def __getattr__(name: str):
    # The loop imports torch; the window's panel imports this package for Step and the cost only.
    if name in ("generate", "GenerateOptions"):
        from explorer.generation import loop

        return getattr(loop, name)
    raise AttributeError(name)
