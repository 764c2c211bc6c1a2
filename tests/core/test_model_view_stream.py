"""A long text's Model view row streamed from q and k (explorer/trace/layer_glance.py,
explorer/present/model_view_stream.py) against the same row computed the old way, from every head's whole
map (model_view.summarise): thumbnails, colour levels and scores, for each stage, on a grouped-query model
with padding (the second sentence is shorter), where both can be computed."""

from __future__ import annotations

import numpy as np
import pytest

from explorer import names
from explorer.config import ModelConfig, RunOptions
from explorer.present import matrices
from explorer.present import model_view as mv
from explorer.present import model_view_stream as stream
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import preset_tokenizer

LUT = np.stack([np.arange(256)] * 4, axis=1).astype(np.uint8)


@pytest.fixture(scope="module")
def long_trace():
    tok = preset_tokenizer("words-en.json")
    cfg = ModelConfig(
        vocab_size=tok.vocab_size, embed_dim=32, key_dim=8, heads=4, kv_heads=2, layers=2, positions="rope"
    )
    bundle = random_bundle(cfg, tok, seed=3)
    words = "the cat sat on the mat and the dog ran to the big red door".split()
    rng = np.random.default_rng(0)
    long = " ".join(rng.choice(words, 330))
    short = " ".join(rng.choice(words, 290))
    trace = run_trace(bundle, long + "\n" + short, RunOptions(lazy_pairwise=True))
    assert trace.rows[1].length >= stream.STREAM_FROM_TOKENS and trace.rows[1].length < trace.C  # padded
    return trace


def _old_way(trace, layer: int, stage: str, row: int) -> mv.LayerHeads:
    n = trace.rows[row].length
    heads = range(trace.config.H)
    weights = np.stack([trace.head_map(layer, "weights", row, h)[:n, :n] for h in heads])
    shown = np.stack([trace.head_map(layer, stage, row, h)[:n, :n] for h in heads])
    signed = names.spec(names.attn(0, stage)).signed
    return mv.summarise(layer, weights, shown, matrices.blocked_cells(trace, row), signed, LUT)


@pytest.mark.parametrize("stage", ["weights", "scores", "scaled", "masked"])
@pytest.mark.parametrize("row", [0, 1])
def test_a_streamed_layer_equals_the_one_from_whole_maps(long_trace, stage, row):
    trace = long_trace
    signed = names.spec(names.attn(0, stage)).signed
    for layer in range(trace.config.layers):
        assert stream.streamed(trace, layer, trace.rows[row].length)
        old = _old_way(trace, layer, stage, row)
        new = mv.glanced(trace, layer, stage, row, LUT, signed)
        assert new.thumbs.shape == old.thumbs.shape and new.tokens == old.tokens
        assert np.array_equal(np.isneginf(new.thumbs), np.isneginf(old.thumbs))
        finite = np.isfinite(old.thumbs)
        np.testing.assert_allclose(new.thumbs[finite], old.thumbs[finite], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(new.levels, old.levels, rtol=1e-5, atol=1e-6)
        assert new.clipped == old.clipped
        for name in old.scores:
            np.testing.assert_allclose(new.scores[name], old.scores[name], rtol=1e-5, atol=1e-6, err_msg=name)
        # the colours differ at most by one step of the table where a cell lies on a step's edge
        assert np.abs(new.images.astype(int) - old.images.astype(int)).max() <= 1
