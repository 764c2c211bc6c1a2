"""What some real models do to the scores between scaling and the mask (kept apart from the note's steps so
that the attention reads like the note): Gemma 2's soft-cap, and the sliding window of a layer that sees
only the last W keys (Gemma 2 and 3, Phi-3).

    capped = c · tanh(scaled / c)          every score squeezed into (−c, c); small ones barely change
    sliding layer: allowed ∧ (i − j < W)   query i sees itself and at most the W − 1 keys before it
"""

from __future__ import annotations

import torch


def soft_cap(S: torch.Tensor, c: float) -> torch.Tensor:
    """c · tanh(S / c), element by element (the same order of operations as Hugging Face's Gemma 2)."""
    return torch.tanh(S / c) * c  # (…, C, C_k)


def sliding(allowed: torch.Tensor, W: int, start: int = 0) -> torch.Tensor:
    """``allowed`` (B, C, C_k) with keys more than W − 1 positions before the query blocked.

    ``start``: the position of the first query (generation: the queries come after ``start`` cached keys)."""
    # query row r sits at position start + r: key j is kept where (start + r) − j < W, i.e. j − r ≥ start − W + 1,
    # the upper triangle from that diagonal (no (C, C_k) of positions: at 16k tokens those were 2 GB of int64)
    return torch.triu(allowed, diagonal=start - W + 1)  # (B, C, C_k)
