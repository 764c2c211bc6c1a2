"""What the tensor views draw: the right slice of the right tensor, cropped to the sentence, top columns
of a vocabulary, shared levels, and the vectors of one selected token."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer import names
from explorer.config import ModelConfig
from explorer.present import matrices
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import load_preset, preset_tokenizer


@pytest.fixture(scope="module")
def toy():
    return run_trace(load_preset("seed-toy"), "This is\na pen")


@pytest.fixture(scope="module")
def padded():
    """Sentences of different lengths (the short one is padded) and grouped-query heads."""
    words = preset_tokenizer("words-en.json")
    cfg = ModelConfig(words.vocab_size, embed_dim=8, key_dim=4, heads=4, kv_heads=2, layers=1)
    return run_trace(random_bundle(cfg, words, 5), "This is a pen .\nA dog")


def test_for_display_fills_minus_inf_and_copies():
    a = np.array([[1.0, -np.inf], [2.0, 3.0]])
    out = matrices.for_display(a, fill=-7.0)
    assert out.dtype == np.float32 and out.flags.c_contiguous and out.flags.writeable
    assert out[0, 1] == -7.0 and np.isneginf(a[0, 1])  # the source is untouched


def test_levels():
    assert matrices.levels(np.array([[-1.0, 3.0, -np.inf]]), signed=True) == (-3.0, 3.0)
    assert matrices.levels([np.array([0.2]), np.array([0.7])], signed=False) == (0.0, 0.7)
    assert matrices.levels(np.zeros((2, 2)), signed=False) == (0.0, 1.0)
    assert matrices.levels(np.full((2, 2), -np.inf), signed=True) == (-1.0, 1.0)


def test_head_maps_are_cropped_to_the_sentence(padded):
    maps = matrices.head_maps(padded, "weights", 0, 1)
    assert len(maps) == 4 and maps[2].shape == (2, 2)
    assert np.array_equal(maps[2], padded.head_map(0, "weights", 1, 2)[:2, :2])


def test_per_head_tensors_use_the_shared_kv_head(padded):
    m = matrices.stage_matrix(padded, names.attn(0, "k"), 3, 0)
    assert m.per_head and m.data.shape == (5, 4)
    assert np.array_equal(m.data, padded[names.attn(0, "k")][0, 1])  # query head 3 reads kv head 1
    q = matrices.stage_matrix(padded, names.attn(0, "q"), 3, 1)
    assert np.array_equal(q.data, padded[names.attn(0, "q")][1, 3, :2])
    assert q.row_labels == ("0 A", "1 dog")


def test_vocabulary_is_cut_to_the_likeliest_columns(toy):
    m = matrices.stage_matrix(toy, "probs", 0, 0, top=10)
    probs = toy["probs"][0, :2]
    best = np.argsort(-probs.max(axis=0), kind="stable")[:10]
    assert m.subset and m.columns == tuple(best) and m.total_columns == toy.config.V
    assert np.array_equal(m.data, probs[:, best])
    assert m.col_labels[0] == toy.vocab[best[0]]


def test_stage_tensors_and_tokens(toy):
    assert matrices.stage_tensors(toy, "qkv", 0) == ("layers.0.attn.q", "layers.0.attn.k", "layers.0.attn.v")
    m = matrices.stage_matrix(toy, "tokens", 0, 1)
    assert m.data.shape == (2, 1) and list(m.data[:, 0]) == [7, 175]


def test_focus_reads_the_trace(padded):
    f = matrices.focus(padded, 0, 3, 0, 2)
    assert np.array_equal(f.q, padded[names.attn(0, "q")][0, 3, 2])
    assert np.array_equal(f.keys, padded[names.attn(0, "k")][0, 1])
    assert np.array_equal(f.weights, padded.head_map(0, "weights", 0, 3)[2])
    assert np.array_equal(f.received, padded[names.attn(0, "heads")][0, 3, 2])
    # what it receives is the weighted sum of the values (the note's step 3), checked independently
    assert np.allclose(f.weights @ f.values, f.received, atol=1e-5)


def test_map_levels_clip_long_sentences_only():
    rng = np.random.default_rng(0)
    small = [rng.random((5, 5))]
    assert matrices.map_levels(small, signed=False) == (0.0, pytest.approx(small[0].max()), False)
    big = [rng.random((64, 64)) ** 8 for _ in range(2)]  # mostly small, a few large
    lo, hi, clipped = matrices.map_levels(big, signed=False)
    assert clipped and lo == 0.0
    assert hi == pytest.approx(np.quantile(np.stack(big), matrices.ROBUST_QUANTILE), rel=0.02)
    assert matrices.map_levels(big, signed=True)[2] is False  # scores keep their full symmetric range


def test_blocked_cells_are_the_mask_complement(toy):
    blocked = matrices.blocked_cells(toy, 0)
    assert blocked.tolist() == [[False, True], [False, False]]  # causal
    assert (toy.head_map(0, "weights", 0, 1)[blocked] == 0).all()


@pytest.mark.parametrize("n,cells", [(1024, 256), (1000, 256), (300, 256), (100, 256)])
def test_pooled_is_the_largest_value_of_each_block(n, cells):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)).astype(np.float32)
    a[~np.tri(n, dtype=bool)] = -np.inf  # causal: whole blocks above the diagonal stay −∞
    got = matrices.pooled(a, cells)
    f = math.ceil(n / cells)
    if f == 1:
        assert got is a
        return
    R = math.ceil(n / f)
    assert got.shape == (R, R)
    for I in range(0, R, 7):  # loops over the blocks: independent of the strided implementation
        for J in range(0, R, 5):
            assert got[I, J] == a[I * f : (I + 1) * f, J * f : (J + 1) * f].max()
    blocked = ~np.tri(n, dtype=bool)
    mask = matrices.pooled_mask(blocked, cells)
    for I in range(0, R, 7):
        for J in range(0, R, 5):
            assert mask[I, J] == blocked[I * f : (I + 1) * f, J * f : (J + 1) * f].all()
    assert np.array_equal(mask, np.isneginf(got))  # a block is −∞ exactly when all of it is masked


def test_prefetch_leaves_the_map_views_nothing_to_compute(monkeypatch):
    """After the worker's prefetch of a long lazy trace, the shared levels, every head's thumbnail and the
    blocked thumbnail come from the trace: computing any of them again (on the GUI thread) would fail here."""
    words = preset_tokenizer("words-en.json")
    cfg = ModelConfig(words.vocab_size, embed_dim=16, key_dim=4, heads=3, layers=1)
    from explorer.config import RunOptions

    trace = run_trace(random_bundle(cfg, words, 5), " ".join(["This is a pen ."] * 60), RunOptions(lazy_pairwise=True))
    n = trace.rows[0].length
    assert n == 300 and n > matrices.THUMB_CELLS and not matrices.shows_one_head(trace, 0)
    matrices.prefetch_maps(trace, "weights", 0, 0, 0)
    maps = [trace.head_map(0, "weights", 0, h)[:n, :n] for h in range(3)]
    blocked = ~np.tril(np.ones((n, n), dtype=bool))  # causal: key j after query i is blocked
    f = math.ceil(n / matrices.THUMB_CELLS)  # 2: blocks of 2×2 cells, one padded row and column of −∞ / blocked
    expected_levels = matrices.map_levels(maps, False, ~blocked)

    def recomputed(*a, **k):
        raise AssertionError("computed again after the prefetch")

    for name in ("pooled", "pooled_mask", "map_levels", "blocked_cells"):
        monkeypatch.setattr(matrices, name, recomputed)
    assert matrices.head_levels(trace, "weights", 0, 0, range(3)) == expected_levels
    for h, m in enumerate(maps):
        thumb = matrices.head_thumbnail(trace, "weights", 0, 0, h)
        padded = np.full((150 * f, 150 * f), -np.inf, dtype=np.float32)
        padded[:n, :n] = m
        assert thumb.shape == (150, 150)
        np.testing.assert_array_equal(thumb, padded.reshape(150, f, 150, f).max(axis=(1, 3)))
    pb = np.ones((150 * f, 150 * f), dtype=bool)
    pb[:n, :n] = blocked
    np.testing.assert_array_equal(matrices.blocked_thumbnail(trace, 0), pb.reshape(150, f, 150, f).all(axis=(1, 3)))
