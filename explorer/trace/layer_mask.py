"""The mask one layer applied, from the trace's mask: the run's mask itself, or for a sliding layer (Gemma 2
and 3, Phi-3) the run's mask with keys more than W − 1 positions before the query blocked. numpy only, so
that the hover and the derived maps agree with the model (explorer/model/score_transforms.py) without torch."""

from __future__ import annotations

import numpy as np


def layer_allowed(mask: np.ndarray, cfg, layer: int) -> np.ndarray:
    """(…, C, C) True where query i may see key j in ``layer``."""
    if not cfg.is_sliding(layer):
        return mask
    # keys j with i − j < W: the upper triangle from diagonal 1 − W (no (C, C) of positions to subtract)
    return np.triu(mask, 1 - cfg.sliding_window)  # (…, C, C)


def allowed_block(
    mask: np.ndarray, cfg, layer: int, b: int, rows: tuple[int, int], cols: tuple[int, int]
) -> np.ndarray:
    """(r, c) True where query i may see key j in ``layer``, for rows × cols of sentence b alone: what a
    long text's tiles, hovers and anatomy read instead of the layer's whole (C, C) mask."""
    block = mask[b, rows[0] : rows[1], cols[0] : cols[1]]
    if not cfg.is_sliding(layer):
        return block
    i = np.arange(rows[0], rows[1])[:, None]  # (r, 1) query positions
    j = np.arange(cols[0], cols[1])[None, :]  # (1, c) key positions
    return block & (i - j < cfg.sliding_window)
