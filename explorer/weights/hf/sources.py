"""How a parameter's tensor in a Hugging Face checkpoint is turned into the note's (in, out) orientation: the
``Source`` each family's module (``explorer/families/``) declares, applied. GPT-2's Conv1D is already
(in, out) and fuses W_q, W_k, W_v; Llama's nn.Linear is (out, in)."""

from __future__ import annotations

import torch

from explorer.families.source import Source

__all__ = ["Source", "source_shape", "transform"]


def source_shape(src: Source, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape the file's tensor must have for our parameter of ``shape``."""
    if src.how == "T":
        return tuple(reversed(shape))
    if src.how == "experts":  # one expert's nn.Linear (out, in) of our stacked (X, in, out)
        return tuple(reversed(shape[1:]))
    if src.how == "cols":
        return (*shape[:-1], shape[-1] * src.parts)
    if src.how == "skip":
        return (shape[0] + src.part, *shape[1:])
    if src.how == "rowsT":
        return (src.total, shape[0]) if len(shape) == 2 else (src.total,)
    if src.how == "heads3":
        return (3 * shape[-1], shape[0]) if len(shape) == 2 else (3 * shape[0],)
    return shape


def transform(src: Source, t: torch.Tensor) -> torch.Tensor:
    if src.how in ("T", "experts"):
        return t.T  # (out, in) → (in, out)
    if src.how == "cols":
        n = t.shape[-1] // src.parts
        return t[..., src.part * n : (src.part + 1) * n]
    if src.how == "plus1":
        return t.float() + 1.0  # Gemma's RMSNorm multiplies by (1 + w), computed in float32 as it does
    if src.how == "skip":
        return t[src.part :]  # RoBERTa: position i is row padding_idx + 1 + i
    if src.how == "rowsT":
        part = t[src.start : src.stop]  # (stop − start, in), or a bias (stop − start,)
        return part.T if part.dim() == 2 else part  # (in, stop − start)
    if src.how == "heads3":  # (H·3·d, …): head h's q, k, v rows side by side
        per_head = t.reshape(src.parts, 3, -1, *t.shape[1:])  # (H, 3, d, …)
        part = per_head[:, src.part].reshape(-1, *t.shape[1:])  # (H·d, E), or a bias (H·d,)
        return part.T if part.dim() == 2 else part  # (E, H·d)
    return t
