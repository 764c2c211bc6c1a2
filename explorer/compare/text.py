"""A Comparison in a few lines of text (``attention-explorer compare`` without ``--json``)."""

from __future__ import annotations

import math

from explorer.analysis.token_text import visible
from explorer.compare.pair import Comparison

HEADS_SHOWN = 8


def summary_lines(comparison: Comparison) -> list[str]:
    pair, alignment = comparison.pair, comparison.alignment
    lines = []
    for side, run in (("A", pair.a), ("B", pair.b)):
        row = run.trace.rows[run.sentence]
        lines.append(f"{side}: {run.made.get('model', run.trace.source)}: {visible(row.text)} ({row.length} tokens)")
    shared = sum(u.shared for u in alignment.units)
    lines.append(f"aligned: {len(alignment.units)} units of characters, {shared} on both sides")
    for side in ("a", "b"):
        for unit in alignment.one_sided(side):
            lines.append(f"  only in {side.upper()}: {visible(unit.text)!s} ({unit.why})")
    lines.append("heads, most different first (Jensen-Shannon divergence of the aligned rows, nats):")
    for h in comparison.ranked()[:HEADS_SHOWN]:
        if math.isnan(h.mean):
            lines.append(f"  {h.layer}.{h.head}  no row both runs have")
            continue
        where = visible(alignment.units[h.row].text)
        lines.append(f"  {h.layer}.{h.head}  mean {h.mean:.4f}  max {h.max:.4f} at {where}")
    out = comparison.output
    if out is not None:
        lines.append(
            f"next token ({out.space}): KL(A||B) {out.kl_a_b:.4f}, KL(B||A) {out.kl_b_a:.4f}, JS {out.js:.4f} nats"
        )
        for m in out.moves[:HEADS_SHOWN]:
            lines.append(f"  {visible(m.token)}: {m.p_a:.3f} -> {m.p_b:.3f} (rank {m.rank_a} -> {m.rank_b})")
    return lines
