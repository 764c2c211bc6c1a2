"""Where one of our parameters comes from in a Hugging Face checkpoint, and how it is turned into the note's
(in, out) orientation: what a family declares for each tensor. The turning itself (torch) is in
``explorer/weights/hf/sources.py``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """Where one of our parameters comes from in the file.

    ``how``: "copy" (same orientation), "T" (nn.Linear (out, in) → (in, out)), "cols" (columns
    part·n … of a fused matrix or bias, GPT-2's c_attn), "zeros" (the architecture has no such tensor),
    "plus1" (Gemma's norms store γ − 1), "skip" (rows from ``part`` on: RoBERTa's position table),
    "rowsT" (rows start … stop of a fused nn.Linear of ``total`` rows, then transposed: Phi-3's qkv_proj and
    gate_up_proj; a bias takes the same slice), "heads3" (part 0, 1 or 2 of each of ``parts`` heads of a
    per-head fused q/k/v, GPT-NeoX's query_key_value; then transposed), "experts" (``key`` with ``{e}``
    names expert e's nn.Linear, e = 0 … ``parts`` − 1, each transposed into row e of our stacked (X, in,
    out)). ``key`` may name alternatives "a|b" (older checkpoints spell some tensors differently).
    """

    key: str
    how: str = "copy"
    part: int = 0
    parts: int = 1
    start: int = 0
    stop: int = 0
    total: int = 0
