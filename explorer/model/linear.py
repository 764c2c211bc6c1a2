"""x · W + b with W in the note's (in, out) orientation.

``F.linear`` expects an (out, in) weight; handing it W.T (a view, no copy) makes it compute x · W + b in a
single fused call, as nn.Linear does, instead of a matmul followed by a separate pass for the bias.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def affine(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor | None = None) -> torch.Tensor:
    """(…, in) · (in, out) + (out,) → (…, out)."""
    return F.linear(x, W.t(), b)
