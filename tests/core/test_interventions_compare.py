"""The comparison helpers against scipy-free numpy recomputation written out term by term."""

from __future__ import annotations

import math

import numpy as np

from explorer.interventions.compare import difference, kl_divergence, ranks, token_moves


def test_kl_matches_the_sum_written_out():
    rng = np.random.default_rng(0)
    p, q = rng.random(50), rng.random(50)
    p, q = p / p.sum(), q / q.sum()
    expected = sum(pi * math.log(pi / qi) for pi, qi in zip(p, q))
    assert abs(kl_divergence(p, q) - expected) < 1e-12
    assert kl_divergence(p, p) == 0.0
    assert kl_divergence(p, q) > 0


def test_kl_ignores_zero_baseline_tokens_and_is_infinite_when_the_run_loses_one():
    p = np.array([0.5, 0.5, 0.0])
    q = np.array([0.25, 0.25, 0.5])
    assert abs(kl_divergence(p, q) - math.log(2)) < 1e-12
    assert kl_divergence(q, p) == math.inf


def test_ranks_and_moves():
    before = np.array([0.1, 0.6, 0.2, 0.05, 0.05])
    after = np.array([0.5, 0.1, 0.2, 0.15, 0.05])
    assert ranks(before).tolist() == [3, 1, 2, 4, 5]
    moves = token_moves(before, after, k=2)
    assert [m.token for m in moves] == [1, 2, 0]  # top 2 of either run, in baseline order
    assert (moves[0].rank_before, moves[0].rank_after) == (1, 4)  # 0.1 is below 0.5, 0.2 and 0.15
    assert (moves[2].before, moves[2].after, moves[2].rank_after) == (0.1, 0.5, 1)


def test_difference_is_after_minus_before_and_zero_where_both_are_masked():
    before = np.array([[0.0, -np.inf], [0.5, 0.5]])
    after = np.array([[1.0, -np.inf], [0.25, 0.75]])
    d = difference(before, after)
    assert d.dtype == np.float32
    np.testing.assert_array_equal(d, [[1.0, 0.0], [-0.25, 0.25]])
