"""The mask one layer applied, from the trace's mask: the run's mask itself, or for a sliding layer (Gemma 2
and 3, Phi-3) the run's mask with keys more than W − 1 positions before the query blocked. numpy only, so
that the hover and the derived maps agree with the model (explorer/model/score_transforms.py) without torch."""

from __future__ import annotations

import numpy as np


def layer_allowed(mask: np.ndarray, cfg, layer: int) -> np.ndarray:
    """(…, C, C) True where query i may see key j in ``layer``."""
    if not cfg.is_sliding(layer):
        return mask
    C = mask.shape[-1]
    i = np.arange(C)[:, None]  # (C, 1) query positions
    j = np.arange(C)[None, :]  # (1, C) key positions
    return mask & (i - j < cfg.sliding_window)  # (…, C, C)
