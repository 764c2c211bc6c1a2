"""A Comparison as plain JSON values (``compare --json``, the snapshot pair's manifest): numbers that do not
exist (a row not compared, a cell a side has no token in) and an infinite KL are null, never NaN or Infinity."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from explorer.compare.align import Alignment, Unit
from explorer.compare.divergence import DifferenceMap, HeadDivergence
from explorer.compare.output import OutputComparison
from explorer.compare.pair import Comparison, Run


def number(x: float) -> float | None:
    """A number JSON can hold: None for NaN (not compared) and for an infinite KL (a token one run gives 0)."""
    return None if x is None or not math.isfinite(x) else float(x)


def comparison_json(comparison: Comparison, shown: tuple[int, int] | None = None) -> dict[str, Any]:
    """Everything compared; ``shown``: the (layer, head) whose difference map is included (default: the head
    that differs most)."""
    ranked = comparison.ranked()
    if shown is None and ranked and not math.isnan(ranked[0].mean):
        shown = (ranked[0].layer, ranked[0].head)
    out: dict[str, Any] = {
        "a": run_json(comparison.pair.a),
        "b": run_json(comparison.pair.b),
        "method": dict(comparison.method),
        "alignment": alignment_json(comparison.alignment),
        "heads": [head_json(h) for h in ranked],
        "output": output_json(comparison.output) if comparison.output is not None else None,
    }
    if shown is not None:
        out["difference"] = {"layer": shown[0], "head": shown[1], **difference_json(comparison.difference(*shown))}
    return out


def run_json(run: Run) -> dict[str, Any]:
    row = run.trace.rows[run.sentence]
    return {
        **dict(run.made),
        "text": row.text,
        "tokens": list(row.tokens),
        "model_name": run.trace.model_name,
        "weights_source": run.trace.source,
    }


def alignment_json(alignment: Alignment) -> dict[str, Any]:
    return {
        "units": [unit_json(u) for u in alignment.units],
        "matched_text": [{"a_start": a, "b_start": b, "length": n} for a, b, n in alignment.match.blocks],
        "only_a": [unit_json(u) for u in alignment.one_sided("a")],
        "only_b": [unit_json(u) for u in alignment.one_sided("b")],
    }


def unit_json(unit: Unit) -> dict[str, Any]:
    return {
        "text": unit.text,
        "a": list(unit.a),
        "b": list(unit.b),
        "a_chars": list(unit.a_chars) if unit.a_chars else None,
        "b_chars": list(unit.b_chars) if unit.b_chars else None,
        "shared": unit.shared,
        "why": unit.why,
    }


def head_json(h: HeadDivergence) -> dict[str, Any]:
    return {
        "layer": h.layer,
        "head": h.head,
        "js_mean": number(h.mean),
        "js_max": number(h.max),
        "max_row": h.row if h.row >= 0 else None,
        "js_rows": [number(x) for x in h.rows],
    }


def output_json(o: OutputComparison) -> dict[str, Any]:
    return {
        "position_a": o.position_a,
        "position_b": o.position_b,
        "compared_on": o.space,
        "kl_a_b": number(o.kl_a_b),
        "kl_b_a": number(o.kl_b_a),
        "js": number(o.js),
        "coverage_a": o.coverage_a,
        "coverage_b": o.coverage_b,
        "moved": [
            {"token": m.token, "p_a": m.p_a, "p_b": m.p_b, "rank_a": m.rank_a, "rank_b": m.rank_b, "moved": m.moved}
            for m in o.moves
        ],
    }


def difference_json(d: DifferenceMap) -> dict[str, Any]:
    values = np.where(np.isnan(d.values), None, d.values)
    return {
        "b_minus_a": [[number(v) if v is not None else None for v in row] for row in values.tolist()],
        "blocked_a": d.blocked_a.tolist(),
        "blocked_b": d.blocked_b.tolist(),
    }
