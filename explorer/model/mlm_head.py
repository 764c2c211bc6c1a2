"""The masked-language-model head of an encoder (BERT, RoBERTa, DistilBERT).

An encoder sees the whole sentence at once, so it cannot predict "the next token"; it is trained to fill in
the tokens replaced by [MASK]. Its head turns each position's last vector into a distribution over the
vocabulary for the token that belongs *there*:

    h = norm(act(x · W_t + b_t))      (C, E) → (C, E)
    logits = h · W_u + b_u            (C, E) · (E, V) → (C, V), W_u the embedding table transposed
"""

from __future__ import annotations

import torch
from torch import nn

from explorer.config import ModelConfig
from explorer.model.capture import Captured
from explorer.model.ffn import activation
from explorer.model.linear import affine
from explorer.model.norm import make_norm


class MLMHead(Captured):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.W_t = nn.Parameter(torch.empty(cfg.E, cfg.E))  # (E, E): the head's own transform
        self.b_t = nn.Parameter(torch.zeros(cfg.E))
        self.ln = make_norm(cfg.norm, cfg.E, cfg.norm_eps)
        self.act = activation(cfg.ffn_activation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.capture("hidden", self.act(affine(x, self.W_t, self.b_t)))  # (B, C, E) · (E, E) → (B, C, E)
        return self.capture("out", self.ln(h) if self.ln is not None else h)  # (B, C, E)
