"""Facts of one sentence of a trace that the stages' labels and the captions both quote: its length, and how
many of its queries may see no key at all. A module of its own below stages.py and stage_facts.py, so that
neither imports the other to read them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # stages.py (and so the CLI's parser) reads this module: no numpy at import
    from explorer.trace import Trace


def row_length(trace: Trace, row: int) -> int:
    """C of one sentence (its real tokens, without the padding of a batch)."""
    return trace.rows[row].length if trace.rows else trace.C


def blocked_rows(trace: Trace, row: int = 0) -> int:
    """How many queries of one sentence may see no key at all: their attention weights are all 0, not a
    distribution (a hand-painted mask with an empty row, a prefix/window that excludes the query itself)."""
    n = row_length(trace, row)
    stored = trace.stored_names()
    if "mask.empty_rows" in stored:  # (B, C), computed once by the trace
        return int(trace["mask.empty_rows"][row, :n].sum())
    if "mask" not in stored:
        return 0
    allowed = trace["mask"][row, :n, :n]  # (C, C) of this sentence's real tokens
    return int((~allowed.any(axis=-1)).sum())
