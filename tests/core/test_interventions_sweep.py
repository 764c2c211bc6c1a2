"""The patching sweep: its cells against runs patched by hand at the capture points (no sweep or
intervention code), facts that hold for any model (the last layer's output at the measured position restores
everything, at other positions nothing), progress and Cancel."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import torch

from explorer.config import ModelConfig, RunOptions
from explorer.errors import Cancelled, ConfigError, InputError
from explorer.interventions.sweep import Measured, patching_sweep
from explorer.trace.run import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import load_preset

CLEAN = "the cat sat on the dog ."
CORRUPT = "a dog ran to the cat ."


@pytest.fixture(scope="module")
def bundle():
    tok = load_preset("classroom").tokenizer
    cfg = ModelConfig(
        vocab_size=tok.vocab_size, embed_dim=32, key_dim=8, heads=4, layers=2, positions="rope", norm="rmsnorm"
    )
    return random_bundle(cfg, tok, seed=3)


# The sweep's runs derive their maps on demand, so their attention takes PyTorch's fused kernel (equal to the
# reference only to rounding, docs/performance.md); the runs by hand take the same path, so cells agree exactly.
SAME_PATH = RunOptions(lazy_pairwise=True)


def by_hand(bundle, name, fn):
    """The corrupted run's logits with ``fn`` replacing tensor ``name`` (a capture-point patch written here)."""
    return run_trace(bundle, CORRUPT, SAME_PATH, patches={name: fn})["logits"]


def test_residual_sweep_cells(bundle):
    calls = []
    res = patching_sweep(bundle, CLEAN, CORRUPT, "resid", progress=lambda d, t: calls.append((d, t)))
    L, C = 2, 7
    assert res.recovered.shape == (L + 1, C) and res.rows == ("embed.out", "layers.0.out", "layers.1.out")
    assert calls == [(i, (L + 1) * C) for i in range(1, (L + 1) * C + 1)]
    clean, corrupt = run_trace(bundle, CLEAN, SAME_PATH), run_trace(bundle, CORRUPT, SAME_PATH)
    target = int(clean["logits"][0, 6].argmax())
    assert res.target == target and res.position == 6
    assert res.clean_logit == float(clean["logits"][0, 6, target])
    assert res.corrupted_logit == float(corrupt["logits"][0, 6, target])
    # The last layer's output at the measured position is all that position's logits read; elsewhere nothing.
    assert res.recovered[L, 6] == pytest.approx(1.0, abs=1e-6)
    assert np.all(res.recovered[L, :6] == 0.0)
    # One cell by hand.
    src = torch.from_numpy(np.array(clean["embed.out"]))

    def patch_pos2(t):
        t = t.clone()
        t[:, 2] = src[:, 2]
        return t

    logit = float(by_hand(bundle, "embed.out", patch_pos2)[0, 6, target])
    want = (logit - res.corrupted_logit) / (res.clean_logit - res.corrupted_logit)
    assert res.recovered[0, 2] == pytest.approx(want, abs=1e-9)


def test_head_sweep_cell_by_hand(bundle):
    res = patching_sweep(bundle, CLEAN, CORRUPT, "heads", Measured(token=5, position=4))
    assert res.recovered.shape == (2, 4) and res.columns == ("head 0", "head 1", "head 2", "head 3")
    src = torch.from_numpy(np.array(run_trace(bundle, CLEAN, SAME_PATH)["layers.1.attn.heads"]))

    def patch_head(t):
        t = t.clone()
        t[:, 3] = src[:, 3]
        return t

    logit = float(by_hand(bundle, "layers.1.attn.heads", patch_head)[0, 4, 5])
    want = (logit - res.corrupted_logit) / (res.clean_logit - res.corrupted_logit)
    assert res.recovered[1, 3] == pytest.approx(want, abs=1e-9)
    assert np.abs(res.recovered).sum() > 0


def test_cancel_stops_between_cells(bundle):
    cancel = threading.Event()
    seen = []

    def progress(done, total):
        seen.append(done)
        if done == 3:
            cancel.set()

    with pytest.raises(Cancelled):
        patching_sweep(bundle, CLEAN, CORRUPT, "resid", progress=progress, cancel=cancel)
    assert seen == [1, 2, 3]


def test_refusals(bundle):
    with pytest.raises(InputError, match="same length"):
        patching_sweep(bundle, CLEAN, "the cat .")
    with pytest.raises(ConfigError, match="resid or heads"):
        patching_sweep(bundle, CLEAN, CORRUPT, "layers")
    with pytest.raises(ConfigError, match="--position 7 does not exist"):
        patching_sweep(bundle, CLEAN, CORRUPT, measured=Measured(position=7))
