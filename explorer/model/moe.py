"""A mixture of experts in place of the FFN (Mixtral, OLMoE, Qwen-MoE): X small FFNs, the experts, of which a
router chooses K for each token; the token's output is their outputs weighted by the router.

    router_logits = x · W_router                       (C, X)   one score per expert
    router_probs  = softmax(router_logits)             (C, X)   over the experts
    chosen        = the K experts of highest probability (C, K)
    weights       = their probabilities, ÷ their sum when norm_topk (Mixtral), else as they are (OLMoE)
    expert_out[j] = FFN_chosen[j](x)                   (K, C, E) each token's j-th expert on that token
    out           = Σ_j weights[j] · expert_out[j]     (C, E)

Qwen-MoE adds a shared expert every token runs, behind its own gate: out += σ(x · w_shared_gate) · FFN_s(x).
The router's load-balancing loss only trains the router: a forward pass never reads it. The router's
softmax runs in float32 at least, as transformers' does, whatever the model's dtype.
"""

from __future__ import annotations

import torch
from torch import nn

from explorer.config import ModelConfig
from explorer.model.capture import Captured
from explorer.model.ffn import activation


class Experts(nn.Module):
    """X gated FFNs of width F_x, stacked: expert e's matrices are W_gate[e], W_in[e], W_out[e]. Qwen-MoE's
    shared expert is one more of them (X = 1, of its own width F_s)."""

    def __init__(self, cfg: ModelConfig, X: int, Fx: int) -> None:
        super().__init__()
        E = cfg.E
        self.act = activation(cfg.ffn_activation)
        self.W_in = nn.Parameter(torch.empty(X, E, Fx))
        self.W_gate = nn.Parameter(torch.empty(X, E, Fx)) if cfg.gated else None
        self.W_out = nn.Parameter(torch.empty(X, Fx, E))

    def expert(self, e: int, x: torch.Tensor) -> torch.Tensor:
        """Expert e on every row of x: (…, E) → (…, E)."""
        up = x @ self.W_in[e]  # (…, E) · (E, F_x) → (…, F_x)
        hidden = self.act(x @ self.W_gate[e]) * up if self.W_gate is not None else self.act(up)  # (…, F_x)
        return hidden @ self.W_out[e]  # (…, F_x) · (F_x, E) → (…, E)

    def forward(self, x: torch.Tensor, chosen: torch.Tensor) -> torch.Tensor:
        """Each token's chosen experts on it: x (B, C, E), chosen (B, C, K) → (B, K, C, E). Each expert runs
        only on the tokens that chose it (what makes a mixture cheaper than one wide FFN)."""
        B, C, E = x.shape
        K = chosen.shape[-1]
        flat = x.reshape(B * C, E)  # (B·C, E)
        picks = chosen.reshape(B * C, K)  # (B·C, K)
        out = flat.new_zeros(B * C, K, E)  # (B·C, K, E)
        for e in torch.unique(picks).tolist():
            tokens, slot = torch.where(picks == e)  # the tokens that chose e, and in which of their K places
            out[tokens, slot] = self.expert(e, flat[tokens])  # (n, E)
        return out.reshape(B, C, K, E).permute(0, 2, 1, 3)  # (B, K, C, E)


class MixtureOfExperts(Captured):
    """The FFN of an MoE layer, captured as ffn.in, ffn.router_logits … ffn.expert_out, ffn.out."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.K = cfg.experts_per_token
        self.norm_topk = cfg.norm_topk
        self.W_router = nn.Parameter(torch.empty(cfg.E, cfg.experts))
        self.experts = Experts(cfg, cfg.experts, cfg.F_x)
        shared = cfg.shared_expert_dim
        self.shared = Experts(cfg, 1, shared) if shared is not None else None
        self.w_shared_gate = nn.Parameter(torch.empty(cfg.E, 1)) if shared is not None else None

    def route(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The router: each token's K experts (B, C, K) and their weights (B, C, K)."""
        logits = self.capture("router_logits", x @ self.W_router)  # (B, C, E) · (E, X) → (B, C, X)
        probs = torch.softmax(logits.to(torch.promote_types(logits.dtype, torch.float32)), dim=-1)  # (B, C, X)
        probs = self.capture("router_probs", probs)
        top, chosen = torch.topk(probs, self.K, dim=-1)  # (B, C, K) each: largest first
        if self.norm_topk:
            top = top / top.sum(dim=-1, keepdim=True)  # (B, C, K): the K weights sum to 1
        self.capture("experts_chosen", chosen)
        return chosen, self.capture("expert_weights", top.to(x.dtype))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.capture("in", x)  # (B, C, E)
        chosen, weights = self.route(x)  # (B, C, K), (B, C, K)
        outs = self.capture("expert_out", self.experts(x, chosen))  # (B, K, C, E)
        out = (weights.permute(0, 2, 1).unsqueeze(-1) * outs).sum(dim=1)  # Σ_j w_j · out_j: (B, C, E)
        if self.shared is not None:
            gate = self.capture("shared_gate", torch.sigmoid(x @ self.w_shared_gate))  # (B, C, E) · (E, 1) → (B, C, 1)
            out = out + gate * self.capture("shared_out", self.shared.expert(0, x))  # (B, C, E)
        return self.capture("out", out)
