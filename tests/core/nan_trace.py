"""A trace that holds NaN on purpose: the seed-toy model with one token's embedding row set to NaN after it is
loaded (a weight past what float32 holds, as a hostile checkpoint would give). The sentence's fourth token
("pen") reads that row, so its q, k and v are NaN from layer 0 on: the weights of queries 3 and 4 are NaN, those
of queries 0–2 stay finite (they never see key 3), and the masked map keeps the mask's −∞ above the diagonal."""

from __future__ import annotations

TEXT = "This is a pen ."
NAN_POSITION = 3


def nan_trace():
    import torch

    from explorer.config import RunOptions
    from explorer.trace import run_trace
    from explorer.weights.presets import load_preset

    bundle = load_preset("seed-toy")  # a fresh bundle: the presets other tests share stay untouched
    healthy = run_trace(bundle, TEXT, RunOptions())
    token = int(healthy["tokens"][0, NAN_POSITION])
    with torch.no_grad():
        dict(bundle.model.named_parameters())["embed.tok"][token] = float("nan")
    return run_trace(bundle, TEXT, RunOptions())
