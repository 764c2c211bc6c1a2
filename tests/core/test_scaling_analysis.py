"""explorer.analysis.scaling: the variance of q·k grows like D; ÷√D keeps it at 1 and softmax unsaturated."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.analysis import scaling


def _entropy_loop(row, allowed):
    vals = [v for v, ok in zip(row, allowed) if ok]
    m = max(vals)
    e = [math.exp(v - m) for v in vals]
    z = sum(e)
    return -sum((x / z) * math.log(x / z) for x in e if x > 0)


def test_row_entropy_matches_a_loop_and_ignores_blocked_keys():
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((4, 6)) * 3
    allowed = np.tril(np.ones((4, 6), bool))
    h = scaling.row_entropy(logits, allowed)
    for i in range(4):
        assert h[i] == pytest.approx(_entropy_loop(logits[i], allowed[i]), abs=1e-12)
    assert h[0] == 0.0  # a single allowed key: a certain choice


def test_row_entropy_extremes():
    assert scaling.row_entropy(np.zeros(8)) == pytest.approx(math.log(8))  # equal scores: uniform
    assert scaling.row_entropy(np.array([1000.0, 0, 0, 0])) == pytest.approx(0.0, abs=1e-12)  # one-hot
    assert np.isnan(scaling.row_entropy(np.ones(3), np.zeros(3, bool)))  # nothing allowed: undefined


def test_sweep_variance_grows_like_D_and_scaled_stays_near_1():
    sw = scaling.sweep(seed=0)
    assert sw.dims == (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
    for D, vr, vs in zip(sw.dims, sw.var_raw, sw.var_scaled):
        assert vr == pytest.approx(D, rel=0.3), D
        assert vs == pytest.approx(1.0, rel=0.3), D
        assert vr == pytest.approx(vs * D, rel=1e-9)  # ÷√D divides the variance by D exactly


def test_sweep_entropy_collapses_without_scaling_only():
    sw = scaling.sweep(seed=0)
    for D, hr, hs in zip(sw.dims, sw.entropy_raw, sw.entropy_scaled):
        if D >= 16:
            assert hs > hr, D
    assert sw.entropy_raw[-1] < 0.2 * sw.entropy_uniform  # D=512 unscaled: rows are almost one-hot
    assert sw.entropy_scaled[-1] > 0.6 * sw.entropy_uniform  # scaled: still spread out
    # Flat: the scaled curve moves little from D=16 to D=512, the unscaled one falls a lot.
    assert np.ptp(sw.entropy_scaled[4:]) < 0.2 * sw.entropy_uniform
    assert sw.entropy_raw[4] - sw.entropy_raw[-1] > 0.25 * sw.entropy_uniform
    assert all(a > b for a, b in zip(sw.entropy_raw[2:], sw.entropy_raw[3:]))  # falls at every doubling


def test_sweep_is_deterministic_for_a_seed():
    a, b = scaling.sweep(seed=3), scaling.sweep(seed=3)
    np.testing.assert_array_equal(a.var_raw, b.var_raw)
    np.testing.assert_array_equal(a.entropy_raw, b.entropy_raw)


def test_score_statistics_on_a_masked_map():
    rng = np.random.default_rng(1)
    D, C = 64, 6
    q, k = rng.standard_normal((2, C, D)), rng.standard_normal((2, C, D))
    scores = q @ k.transpose(0, 2, 1)  # (H=2, C, C)
    allowed = np.tril(np.ones((C, C), bool))
    allowed[3] = False  # a query that sees nothing: left out of the entropies
    st = scaling.score_statistics(scores, allowed, D)
    cells = scores[:, allowed]
    assert st.var_raw == pytest.approx(np.var(cells), rel=1e-12)
    assert st.var_scaled == pytest.approx(np.var(cells) / D, rel=1e-12)
    rows = [(h, i) for h in range(2) for i in range(C) if allowed[i].any()]
    raw = np.mean([_entropy_loop(scores[h, i], allowed[i]) for h, i in rows])
    scaled = np.mean([_entropy_loop(scores[h, i] / 8.0, allowed[i]) for h, i in rows])
    assert st.entropy_raw == pytest.approx(raw, abs=1e-12)
    assert st.entropy_scaled == pytest.approx(scaled, abs=1e-12)
    assert st.entropy_uniform == pytest.approx(np.mean([math.log(allowed[i].sum()) for _, i in rows]))
    assert st.entropy_scaled > st.entropy_raw


def test_score_statistics_accepts_a_single_head():
    st = scaling.score_statistics(np.arange(9.0).reshape(3, 3), np.ones((3, 3), bool), 4)
    assert st.var_scaled == pytest.approx(st.var_raw / 4)
