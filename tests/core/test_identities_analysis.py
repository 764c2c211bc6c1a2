"""explorer.analysis.identities against independent numpy (loops, explicit SVD sums, hand counts)."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.analysis import identities as ident


def _heads_concat_wo(rng, H=3, C=5, Dv=4, E=6, dtype=np.float32):
    heads = rng.standard_normal((H, C, Dv)).astype(dtype)
    concat = np.concatenate([heads[h] for h in range(H)], axis=1)  # (C, H·D_v): heads side by side
    W_o = rng.standard_normal((H * Dv, E)).astype(dtype)
    return heads, concat, W_o


def test_head_terms_are_each_heads_slice_of_W_o():
    rng = np.random.default_rng(0)
    heads, _, W_o = _heads_concat_wo(rng, dtype=np.float64)
    terms = ident.head_terms(heads, W_o)
    for h in range(3):
        expected = np.zeros((5, 6))
        for c in range(5):
            for e in range(6):
                expected[c, e] = sum(heads[h, c, d] * W_o[h * 4 + d, e] for d in range(4))
        np.testing.assert_allclose(terms[h], expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype,bound", [(np.float32, 1e-5), (np.float64, 1e-13)])
def test_sum_of_heads_equals_concat_times_W_o(dtype, bound):
    rng = np.random.default_rng(1)
    heads, concat, W_o = _heads_concat_wo(rng, dtype=dtype)
    result = ident.multihead_identity(heads, concat, W_o)
    reference = concat.astype(np.float64) @ W_o.astype(np.float64)
    np.testing.assert_allclose(result.concat_form, reference, rtol=1e-5 if dtype == np.float32 else 1e-12)
    np.testing.assert_allclose(result.sum_form, reference, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-5)
    assert result.sum_form.dtype == dtype  # computed in the trace's precision: the rounding shown is real
    assert result.max_abs_difference < bound
    assert result.equal


def test_identity_reports_a_real_difference():
    rng = np.random.default_rng(2)
    heads, concat, W_o = _heads_concat_wo(rng, dtype=np.float64)
    concat = concat.copy()
    concat[0, 0] += 0.5  # the two sides no longer describe the same heads
    result = ident.multihead_identity(heads, concat, W_o)
    assert result.max_abs_difference == pytest.approx(np.max(np.abs(0.5 * W_o[0])), rel=1e-9)
    assert not result.equal


def test_head_terms_refuse_a_W_o_of_the_wrong_height():
    with pytest.raises(ValueError):
        ident.head_terms(np.zeros((2, 3, 4)), np.zeros((7, 5)))


def test_value_matrix_is_sum_over_heads_with_grouped_heads_repeated():
    rng = np.random.default_rng(3)
    E, H, Hkv, Dv = 6, 4, 2, 3
    W_v = rng.standard_normal((E, Hkv * Dv))
    W_o = rng.standard_normal((H * Dv, E))
    expected = np.zeros((E, E))
    for h in range(H):
        g = h // (H // Hkv)  # the key/value head that query head h reads
        expected += W_v[:, g * Dv : (g + 1) * Dv] @ W_o[h * Dv : (h + 1) * Dv]
    np.testing.assert_allclose(ident.value_matrix(W_v, W_o, H, Hkv, Dv), expected, rtol=1e-12, atol=1e-12)
    unfactored = rng.standard_normal((E, E))
    assert ident.value_matrix(unfactored, None, 1, 1, E) is not None
    np.testing.assert_array_equal(ident.value_matrix(unfactored, None, 1, 1, E), unfactored)


def test_low_rank_truncation_matches_an_independent_svd():
    rng = np.random.default_rng(4)
    M = rng.standard_normal((8, 8))
    lr = ident.low_rank(M)
    U, s, Vt = np.linalg.svd(M)
    for r in (1, 3, 8):
        best = sum(s[i] * np.outer(U[:, i], Vt[i]) for i in range(r))
        np.testing.assert_allclose(lr.reconstruct(r), best, atol=1e-10)
        W1, W2 = lr.factors(r)
        assert W1.shape == (8, r) and W2.shape == (r, 8)
        direct = np.linalg.norm(M - best) / np.linalg.norm(M)
        assert lr.relative_error(r) == pytest.approx(direct, abs=1e-12)
    assert lr.relative_error(8) == pytest.approx(0.0, abs=1e-12)
    errors = [lr.relative_error(r) for r in range(1, 9)]
    assert all(a >= b for a, b in zip(errors, errors[1:]))  # more rank, never worse


def test_low_rank_is_exact_at_the_matrix_rank():
    rng = np.random.default_rng(5)
    M = rng.standard_normal((10, 3)) @ rng.standard_normal((3, 10))  # rank 3
    lr = ident.low_rank(M)
    assert lr.numerical_rank() == 3
    assert lr.relative_error(3) < 1e-12
    assert lr.relative_error(2) > 0.01
    with pytest.raises(ValueError):
        lr.factors(0)


def test_parameter_counts_match_the_note():
    counts = ident.parameter_counts(100, 100, 10)
    assert (counts.before, counts.after) == (10_000, 2_000)
    assert counts.saving == pytest.approx(0.80)
    big = ident.parameter_counts(100, 100, 60)  # E·r + r·E > E·E: factoring costs more
    assert big.after == 12_000 and big.saving < 0


def test_fingerprint_names_the_weights_not_the_array_object():
    W = np.arange(12, dtype=np.float32).reshape(3, 4)
    view = W.view()  # what each trace hands out: a new object over the same memory
    assert ident.fingerprint(view) == ident.fingerprint(W)
    before = ident.fingerprint(W)
    W[1, 2] += 0.5  # training updates weights in place: the cached SVD is stale
    assert ident.fingerprint(W) != before
    assert ident.fingerprint(W.copy()) != ident.fingerprint(W)  # other memory: other weights
    assert ident.fingerprint(None) is None
