"""Token ids → vectors: a table lookup (row ``id`` of the (V, E) table), plus a positional part."""

from __future__ import annotations

import torch
from torch import nn

from explorer.config import ModelConfig
from explorer.model.capture import Captured
from explorer.model.positions import sinusoidal_table


class Embedding(Captured):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.positions = cfg.positions
        self.tok = nn.Parameter(torch.empty(cfg.V, cfg.E))  # (V, E): one row per token
        self.pos = nn.Parameter(torch.empty(cfg.max_positions, cfg.E)) if cfg.positions == "learned" else None

    def forward(self, ids: torch.Tensor, start: int = 0) -> torch.Tensor:
        """``start``: the position of the first id (generation feeds one new token at position C_total)."""
        B, C = ids.shape  # ids: (B, C)
        # Mathematically one_hot(ids) (B, C, V) · tok (V, E); in practice the rows are just picked out.
        x_tok = self.capture("tok", self.tok[ids])  # (B, C, E)
        if self.positions == "sinusoidal":
            pos = sinusoidal_table(start + C, self.tok.shape[1], ids.device, self.tok.dtype)[start:]  # (C, E)
        elif self.positions == "learned":
            pos = self.pos[start : start + C]  # (C, E)
        else:  # none, or rotary (positions enter q and k inside attention instead)
            pos = torch.zeros(C, self.tok.shape[1], device=ids.device, dtype=self.tok.dtype)  # (C, E)
        pos = self.capture("pos", pos.unsqueeze(0).expand(B, C, -1))  # (B, C, E)
        return self.capture("out", x_tok + pos)  # (B, C, E)
