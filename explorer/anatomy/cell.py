"""Which number an anatomy explains (``Cell``: a stage, a layer, a head, a query and a key, an output
column or an FFN neuron), and the checks that turn a cell the trace does not hold into one line a user can
act on."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.errors import ConfigError
from explorer.names import PAIRWISE_STAGES
from explorer.present.stages import shown, stage
from explorer.trace import Trace

# The (C, C) stages, addressed by a key, in the note's order; Gemma 2's soft-cap sits between ÷√D and the mask.
PAIRWISE = (*PAIRWISE_STAGES[:2], "capped", *PAIRWISE_STAGES[2:])
WITH_HEAD = PAIRWISE + ("heads", "qkv")
PARTS = ("q", "k", "v")  # the Q K V stage's three tensors


@dataclass(frozen=True)
class Cell:
    stage: str  # a key of explorer.present.stages.STAGES
    layer: int = 0
    head: int = 0
    query: int = 0  # the token position i
    key: int | None = None  # key position j (a (C, C) map's column)
    dim: int | None = None  # an output column
    neuron: int | None = None  # an FFN hidden unit
    sentence: int = 0  # the sentence of the batch (the row of B)
    part: str | None = None  # the Q K V stage: "q", "k" or "v" (None: q)

    def where(self, name: str) -> dict:
        """The cell's address in the trace, for the last step."""
        out = {"tensor": name, "sentence": self.sentence, "query": self.query}
        if self.stage in WITH_HEAD:
            out["head"] = self.head
        for field in ("key", "dim", "neuron", "part"):
            if getattr(self, field) is not None:
                out[field] = getattr(self, field)
        return out


def stored(trace: Trace, name: str) -> np.ndarray | None:
    return trace[name] if name in trace.stored_names() else None


def _in_range(what: str, value: int | None, count: int, flag: str) -> None:
    if value is None:
        raise ConfigError(f"this stage needs {flag}: {what} 0 … {count - 1}")
    if not 0 <= value < count:
        raise ConfigError(f"{what} {value} does not exist: choose 0 … {count - 1}")


def column_count(trace: Trace, c: Cell) -> int:
    cfg = trace.config
    if c.stage == "heads" or (c.stage == "qkv" and c.part == "v"):
        return cfg.D_v
    if c.stage == "qkv":
        return cfg.D
    if c.stage == "concat":
        return cfg.H * cfg.D_v
    if c.stage in ("logits", "logit_cap", "probs"):
        return cfg.V
    return cfg.E


def check(trace: Trace, c: Cell) -> None:
    """One line for a cell this trace cannot explain: a stage the model lacks, a layer not captured, an index
    out of range, or the option the stage needs left out."""
    cfg = trace.config
    if not shown(c.stage, cfg):
        raise ConfigError(f"this model has no stage {c.stage!r}")
    if stage(c.stage).per_layer:
        _in_range("layer", c.layer, cfg.L, "--layer L")
        if c.layer not in trace.layers:
            raise ConfigError(f"layer {c.layer} was not captured: capture it (--layers-to-capture) or pick another")
    _in_range("sentence", c.sentence, trace.B, "--sentence S")
    _in_range("query", c.query, trace.rows[c.sentence].length, "--query I")
    if c.stage in WITH_HEAD:
        _in_range("head", c.head, cfg.H, "--head H")
    if c.stage in PAIRWISE:
        _in_range("key", c.key, trace.rows[c.sentence].length, "--key J")
    elif c.stage == "qkv" and c.part not in (None, *PARTS):
        raise ConfigError(f"the Q K V stage's part is one of q, k, v; got {c.part!r}")
    elif c.stage == "tokens":
        return  # a token's id: the query alone
    elif c.stage == "ffn":
        if cfg.is_moe(c.layer):  # its neurons are the chosen experts': the hover spells out the weighted sum
            raise ConfigError(
                f"layer {c.layer}'s FFN is a mixture of experts: its anatomy is not built yet; hover a cell for "
                "the chosen experts' weighted sum"
            )
        if c.neuron is None and c.dim is None:
            raise ConfigError(f"the FFN needs --neuron N (0 … {cfg.F - 1}) or --dim K (0 … {cfg.E - 1})")
        if c.neuron is not None:
            _in_range("neuron", c.neuron, cfg.F, "--neuron N")
        else:
            _in_range("dim", c.dim, cfg.E, "--dim K")
    else:
        _in_range("dim", c.dim, column_count(trace, c), "--dim K")
