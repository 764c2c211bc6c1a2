"""Token ids → vectors: a table lookup (row ``id`` of the (V, E) table), plus a positional part.

Real families add to it: Gemma multiplies the token vector by √E (its table is shared with the unembedding,
whose rows are small); BERT adds a segment (token type) vector, 0 for sentence A and 1 for sentence B, and
normalises the sum before layer 0.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from explorer.config import ModelConfig
from explorer.model.capture import Captured
from explorer.model.norm import make_norm
from explorer.model.positions import sinusoidal_table


class Embedding(Captured):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.positions = cfg.positions
        self.tok = nn.Parameter(torch.empty(cfg.V, cfg.E))  # (V, E): one row per token
        self.pos = nn.Parameter(torch.empty(cfg.max_positions, cfg.E)) if cfg.positions == "learned" else None
        self.seg = nn.Parameter(torch.empty(cfg.segments, cfg.E)) if cfg.segments else None  # (S, E)
        self.ln = make_norm(cfg.norm, cfg.E, cfg.norm_eps) if cfg.embed_norm else None
        self.scale = math.sqrt(cfg.E) if cfg.embed_scale else None

    def forward(self, ids: torch.Tensor, start: int = 0, segments: torch.Tensor | None = None) -> torch.Tensor:
        """``start``: the position of the first id (generation feeds one new token at position C_total);
        ``segments`` (B, C): each token's sentence, 0 or 1 (None: all 0), for models with a segment table."""
        B, C = ids.shape  # ids: (B, C)
        # Mathematically one_hot(ids) (B, C, V) · tok (V, E); in practice the rows are just picked out.
        x = self.capture("tok", self.tok[ids])  # (B, C, E)
        if self.scale is not None:  # Gemma: × √E
            x = x * self.scale  # (B, C, E)
        if self.seg is not None:
            seg_ids = segments if segments is not None else torch.zeros_like(ids)  # (B, C)
            x = x + self.capture("seg", self.seg[seg_ids])  # (B, C, E): sentence A's or B's vector
        if self.positions == "sinusoidal":
            pos = sinusoidal_table(start + C, self.tok.shape[1], ids.device, self.tok.dtype)[start:]  # (C, E)
        elif self.positions == "learned":
            pos = self.pos[start : start + C]  # (C, E)
        else:  # none, or rotary (positions enter q and k inside attention instead)
            pos = torch.zeros(C, self.tok.shape[1], device=ids.device, dtype=self.tok.dtype)  # (C, E)
        pos = self.capture("pos", pos.unsqueeze(0).expand(B, C, -1))  # (B, C, E)
        if self.ln is None:
            return self.capture("out", x + pos)  # (B, C, E)
        return self.capture("out", self.ln(self.capture("sum", x + pos)))  # BERT: norm(tok + seg + pos)
