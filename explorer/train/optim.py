"""AdamW (Loshchilov & Hutter), written out so a student can read it — and so that starting a training run
does not import torch's compiler stack (``torch.optim`` pulls in ``torch._dynamo``, many seconds on a
small machine). Same update as ``torch.optim.AdamW`` with amsgrad off:

    m ← β₁·m + (1−β₁)·g            v ← β₂·v + (1−β₂)·g²
    p ← p − lr·wd·p                 (decoupled weight decay)
    p ← p − lr · (m / (1−β₁ᵗ)) / (√(v / (1−β₂ᵗ)) + ε)
"""

from __future__ import annotations

from collections.abc import Iterable

import torch


class AdamW:
    def __init__(
        self, groups: Iterable[dict], lr: float, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8
    ) -> None:
        self.param_groups = [{"lr": lr, "weight_decay": 0.0, **g, "params": list(g["params"])} for g in groups]
        self.betas = betas
        self.eps = eps
        self.t = 0
        self.state: dict[torch.Tensor, tuple[torch.Tensor, torch.Tensor]] = {}

    def zero_grad(self, set_to_none: bool = True) -> None:
        for g in self.param_groups:
            for p in g["params"]:
                if set_to_none:
                    p.grad = None
                elif p.grad is not None:
                    p.grad.zero_()

    @torch.no_grad()
    def step(self) -> None:
        self.t += 1
        b1, b2 = self.betas
        c1 = 1 - b1**self.t  # bias corrections: m and v start at 0
        c2 = 1 - b2**self.t
        for g in self.param_groups:
            lr, wd = g["lr"], g["weight_decay"]
            for p in g["params"]:
                if p.grad is None:
                    continue
                if p not in self.state:
                    self.state[p] = (torch.zeros_like(p), torch.zeros_like(p))
                m, v = self.state[p]
                m.mul_(b1).add_(p.grad, alpha=1 - b1)
                v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                if wd:
                    p.mul_(1 - lr * wd)
                denom = (v / c2).sqrt_().add_(self.eps)
                p.addcdiv_(m, denom, value=-lr / c1)

    def state_dict(self) -> dict:
        return {"t": self.t, "betas": list(self.betas), "eps": self.eps}
