"""A pair of runs and what comparing them gives (issue 40): ``compare(pair) -> Comparison``.

A ``Run`` is a trace and how it was made (a few words and the facts: model, text, weights, interventions); a
``Pair`` is two of them, whatever made them: two sentences on one model, two models, a model and its
random-weight twin, two checkpoints, a run and the same run intervened. The comparison holds the alignment,
every compared head's divergence, the output's comparison and the method of each, in words; the window's
Compare view, a slide, a figure, the notebook and ``attention-explorer compare`` render it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from explorer import names
from explorer.compare.align import Alignment, align
from explorer.compare.divergence import JS_METHOD, DifferenceMap, HeadDivergence, difference, head_divergence
from explorer.compare.gather import GATHER_METHOD, Gathered, gather
from explorer.compare.output import OutputComparison, compare_output
from explorer.trace import Trace
from explorer.trace.layer_mask import layer_allowed


@dataclass(frozen=True)
class Run:
    trace: Trace
    made: Mapping[str, Any] = field(default_factory=dict)  # how it was made: model, weights, interventions …
    sentence: int = 0  # which sentence of the trace's batch

    @property
    def length(self) -> int:
        return self.trace.rows[self.sentence].length


@dataclass(frozen=True)
class Pair:
    a: Run
    b: Run

    def swapped(self) -> Pair:
        return Pair(self.b, self.a)

    def gathered(self, alignment: Alignment, layer: int, head: int) -> tuple[Gathered, Gathered]:
        """Both runs' attention weights of (layer, head) on the aligned axis."""
        return _gathered(self.a, alignment, "a", layer, head), _gathered(self.b, alignment, "b", layer, head)


def _gathered(run: Run, alignment: Alignment, side: str, layer: int, head: int) -> Gathered:
    n, b, trace = run.length, run.sentence, run.trace
    weights = trace.head_map(layer, "weights", b, head)[:n, :n]
    allowed = layer_allowed(np.asarray(trace["mask"][b]), trace.config, layer)[:n, :n]
    return gather(alignment, side, weights, allowed)


@dataclass(frozen=True)
class Comparison:
    pair: Pair
    alignment: Alignment
    heads: tuple[HeadDivergence, ...]  # (layer, head) in order
    output: OutputComparison | None  # None when either trace has no next-token distribution
    method: Mapping[str, str]

    def ranked(self) -> tuple[HeadDivergence, ...]:
        """Heads from the most different (mean JS) to the least; heads with no compared row last."""
        return tuple(sorted(self.heads, key=lambda h: (np.isnan(h.mean), -np.nan_to_num(h.mean), h.layer, h.head)))

    def difference(self, layer: int, head: int) -> DifferenceMap:
        """B − A of one head's gathered weights (computed when asked for: the view's chosen head)."""
        a, b = self.pair.gathered(self.alignment, layer, head)
        return difference(a, b)


def compared_heads(a: Trace, b: Trace) -> tuple[tuple[int, ...], int]:
    """The layers both traces hold and the number of heads both have: head h of layer l is compared with
    head h of layer l (the only correspondence two models' heads have)."""
    layers = tuple(sorted(set(a.layers) & set(b.layers)))
    layers = tuple(l for l in layers if names.attn(l, "weights") in a and names.attn(l, "weights") in b)
    return layers, min(a.config.H, b.config.H)


def compare(pair: Pair, top_k: int = 5) -> Comparison:
    alignment = align(pair.a.trace.rows[pair.a.sentence], pair.b.trace.rows[pair.b.sentence])
    layers, heads = compared_heads(pair.a.trace, pair.b.trace)
    divergences = tuple(head_divergence(l, h, *pair.gathered(alignment, l, h)) for l in layers for h in range(heads))
    method = {
        "alignment": alignment.method,
        "gather": GATHER_METHOD,
        "divergence": JS_METHOD,
        "heads": "head h of layer l against head h of layer l, for the layers and heads both runs have",
    }
    return Comparison(pair, alignment, divergences, _output(pair, top_k), method)


def _output(pair: Pair, k: int) -> OutputComparison | None:
    """The next-token distributions after each sentence's last token."""
    a, b = pair.a, pair.b
    if not (a.trace.config.vocab_size and "probs" in a.trace and "probs" in b.trace):
        return None
    pa, pb = a.trace.probs_row(a.sentence, a.length - 1), b.trace.probs_row(b.sentence, b.length - 1)
    return compare_output(pa, pb, a.trace.vocab, b.trace.vocab, a.length - 1, b.length - 1, k)
