"""The feed-forward network applied to every position on its own: E → F → E.

Gated FFNs multiply two projections of x: act(x·W_gate + b_gate) * (x·W_in + b_in), with SiLU (Llama's
SwiGLU) or GELU (Gemma's GeGLU: the tanh approximation, or the exact GELU where the config says "gelu")."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from explorer.config import ModelConfig
from explorer.model.capture import Captured
from explorer.model.linear import affine

_ACTIVATIONS = {
    "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),  # GPT-2's "gelu_new"
    "relu": F.relu,
}
_GATES = {
    "silu_gated": F.silu,  # Llama's SwiGLU
    "gelu_gated": F.gelu,  # GeGLU with the exact GELU (Gemma 2 and 3 with hidden_activation "gelu")
    "gelu_tanh_gated": lambda x: F.gelu(x, approximate="tanh"),  # Gemma's GeGLU
}


def activation(kind: str):
    """The non-linearity of an FFN kind (the gate's for a gated one)."""
    return _GATES.get(kind) or _ACTIVATIONS[kind]


class FeedForward(Captured):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        E, Fw = cfg.E, cfg.F
        self.activation = cfg.ffn_activation
        self.W_in = nn.Parameter(torch.empty(E, Fw))
        self.W_gate = nn.Parameter(torch.empty(E, Fw)) if cfg.gated else None
        self.W_out = nn.Parameter(torch.empty(Fw, E))
        self.b_gate = nn.Parameter(torch.zeros(Fw)) if cfg.bias and cfg.gated else None  # Llama's mlp_bias
        self.b_in = nn.Parameter(torch.zeros(Fw)) if cfg.bias else None
        self.b_out = nn.Parameter(torch.zeros(E)) if cfg.bias else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.capture("in", x)  # (B, C, E)
        up = affine(x, self.W_in, self.b_in)  # (B, C, E) · (E, F) + b_in → (B, C, F)
        if self.W_gate is not None:
            hidden = (
                _GATES[self.activation](affine(x, self.W_gate, self.b_gate)) * up
            )  # (B, C, F): the gate times the up projection
        else:
            hidden = _ACTIVATIONS[self.activation](up)  # (B, C, F)
        hidden = self.capture("hidden", hidden)
        out = affine(hidden, self.W_out, self.b_out)  # (B, C, F) · (F, E) + b_out → (B, C, E)
        return self.capture("out", out)
