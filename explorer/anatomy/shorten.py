"""Real sizes stay readable: a sum of D = 64 terms (or a softmax over 1,024 keys) shows its largest terms
in full, then "+ N others = x"; the terms shown plus the others still equal the whole sum.

A run of consecutive steps of one kind that carry an ``index`` (the terms of one sum, a row's exponentials,
a row's divisions) is shortened when it is longer than ``limit``: the ``keep`` terms largest in size (and
in a softmax row, the entry asked about) stay, in their order, and the rest become one
``others`` step holding their count and their sum. The running totals are recomputed along what is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from explorer.anatomy.steps import Step

LIMIT = 16  # up to this many terms a sum is shown whole
KEEP = 8  # a longer one shows this many of its largest terms
ROW_OPS = ("exp", "divide")  # the runs of a softmax row, where the entry asked about is always shown


def shorten(steps: Sequence[Step], keep: int = KEEP, limit: int = LIMIT, always: Iterable[int] = ()) -> list[Step]:
    forced = frozenset(always)
    out: list[Step] = []
    for run in _runs(steps):
        if len(run) <= limit or run[0].index is None:
            out += run
        else:
            out += _shortened(run, keep, forced)
    return out


def _runs(steps: Sequence[Step]) -> list[list[Step]]:
    """Consecutive steps of the same op, each with an index, grouped; every other step alone."""
    runs: list[list[Step]] = []
    for s in steps:
        if runs and s.index is not None and runs[-1][0].index is not None and runs[-1][0].op == s.op:
            runs[-1].append(s)
        else:
            runs.append([s])
    return runs


def _shortened(run: list[Step], keep: int, forced: frozenset[int]) -> list[Step]:
    values = np.array([float(s.result) for s in run])  # (n,)
    start = float(run[0].running) - values[0] if run[0].running is not None else 0.0
    order = np.argsort(-np.abs(values), kind="stable")  # largest first
    # a softmax row always shows the selected entry (the key or token asked about)
    named = forced if run[0].op in ROW_OPS else frozenset()
    kept = set(order[:keep].tolist()) | {k for k, s in enumerate(run) if s.index in named}
    shown = [k for k in range(len(run)) if k in kept]
    rest = [k for k in range(len(run)) if k not in kept]
    total = start
    out = []
    for k in shown:
        total += values[k]
        s = run[k]
        out.append(Step(s.op, s.operands, s.result, total if s.running is not None else None, s.index, s.extra))
    if rest:
        rest_sum = float(values[rest].sum())
        total += rest_sum
        out.append(
            Step(
                "others",
                {"count": len(rest), "of": run[0].op, "largest": float(np.abs(values[rest]).max())},
                rest_sum,
                total if run[0].running is not None else None,
            )
        )
    return out
