"""Two runs compared side by side (issue 40): two sentences, two models, a model and its random-weight twin,
two checkpoints, a run and the same run intervened.

``compare(Pair(Run(trace_a, made_a), Run(trace_b, made_b)))`` returns a ``Comparison``: the runs' tokens
aligned by the characters they cover (``align``: units of tokens, one-sided ones listed with why), each
run's attention gathered onto that axis (``gather``: summed over keys, averaged over queries), each
(layer, head)'s Jensen–Shannon divergence (mean, max and its row), B − A of a head on demand, and the
next-token distributions compared (KL both ways, the tokens that moved). Pure core: numpy on the traces'
arrays, no Qt, no torch; the ``compare`` command, and later the window's Compare view, render it.
"""

from explorer.compare.align import Alignment, Unit, align
from explorer.compare.divergence import DifferenceMap, HeadDivergence, js_divergence
from explorer.compare.gather import Gathered, gather
from explorer.compare.output import OutputComparison, compare_output
from explorer.compare.pair import Comparison, Pair, Run, compare
from explorer.compare.spans import token_spans

__all__ = [
    "Alignment",
    "Comparison",
    "DifferenceMap",
    "Gathered",
    "HeadDivergence",
    "OutputComparison",
    "Pair",
    "Run",
    "Unit",
    "align",
    "compare",
    "compare_output",
    "gather",
    "js_divergence",
    "token_spans",
]
