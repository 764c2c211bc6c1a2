"""A long text's maps served as exact tiles (issue 43): a trace past TILED_MAP_BYTES keeps per layer only q, k
and each row's log-sum-exp, and Trace.tile computes any block of its maps from them.

Every number is checked against something the tiles do not compute: the same text traced the usual way
(its stored maps), numpy in float64 from the kept q and k with the mask written out here, and PyTorch's own
attention (scaled_dot_product_attention with V = I returns the weights themselves). The trace is made tiled
at a small C by lowering the threshold (explorer/config/memory.py), so both sides can be computed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import explorer.config.memory as memory
from explorer import names
from explorer.config import MaskSpec, ModelConfig, RunOptions, estimate_memory, maps_tiled
from explorer.errors import InputError
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import preset_tokenizer

TEXT = " ".join(["the cat sat on the mat and a dog ran to it"] * 12)  # about 150 words
TWO = TEXT + "\n" + " ".join(["the dog ran"] * 9)  # a batch: the second sentence padded


@pytest.fixture(scope="module")
def words():
    return preset_tokenizer("words-en.json")


def _config(words, **changes) -> ModelConfig:
    base = dict(
        embed_dim=32, key_dim=8, heads=4, layers=2, positions="rope", norm="rmsnorm", ffn_activation="silu_gated"
    )
    return ModelConfig(words.vocab_size, **{**base, **changes})


# name → (model, run mask, text): causal, a window mask, a sliding layer of its own (Mistral: every layer;
# Gemma 2: every other one, soft-capped, ÷√query_scalar), grouped-query heads, a padded batch
CASES = {
    "causal-gqa": (dict(kv_heads=2), MaskSpec(), TEXT),
    "window": (dict(), MaskSpec("window", 9), TEXT),
    "mistral-sliding": (dict(kv_heads=2, sliding_window=16, sliding_layers=(0, 1)), MaskSpec(), TEXT),
    "gemma2-capped": (
        dict(kv_heads=2, sliding_window=16, sliding_layers=(0,), attn_softcap=5.0, query_scalar=12.0),
        MaskSpec(),
        TEXT,
    ),
    "padded-batch": (dict(kv_heads=2), MaskSpec(), TWO),
}


def _tiled_trace(bundle, text, options, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(memory, "TILED_MAP_BYTES", 1)  # every text is long: maps as tiles from q, k and lse
        return run_trace(bundle, text, options)


@pytest.fixture(scope="module", params=sorted(CASES))
def pair(request, words):
    """(the case's name, its usual trace with stored maps, the same text traced tiled)."""
    changes, mask, text = CASES[request.param]
    bundle = random_bundle(_config(words, **changes), words, seed=5)
    full = run_trace(bundle, text, RunOptions(mask=mask))
    with pytest.MonkeyPatch.context() as m:
        tiled = _tiled_trace(bundle, text, RunOptions(mask=mask), m)
    return request.param, full, tiled


def _close(tile, expected, stage):
    assert tile.shape == expected.shape
    assert np.array_equal(np.isneginf(tile), np.isneginf(expected)), stage
    finite = np.isfinite(expected)
    atol = 1e-6 if stage == "weights" else 1e-5
    np.testing.assert_allclose(tile[finite], expected[finite], rtol=1e-5, atol=atol, err_msg=stage)


def test_a_tiled_trace_keeps_q_k_and_lse_and_no_map(pair):
    name, full, tiled = pair
    for layer in range(tiled.config.layers):
        assert tiled.tiled(layer) and not full.tiled(layer)
        q, k = names.qk(layer, "rope")
        assert {q, k, names.attn(layer, "lse")} <= set(tiled.stored_names())
        assert names.attn(layer, "weights") not in tiled.stored_names()
    kept = {n for n in tiled.stored_names() if not n.startswith("params.")}
    assert not any(tiled[n].shape[-2:] == (tiled.C, tiled.C) for n in kept - {"mask"}), kept
    # the mask reads as the usual trace's; a plain causal one (no padding, no sliding layer, no soft-cap) is a
    # view of 2C − 1 booleans, not C × C of them
    np.testing.assert_array_equal(np.array(tiled["mask"]), np.array(full["mask"]))
    low, high = np.lib.array_utils.byte_bounds(tiled["mask"])
    assert (high - low < 2 * tiled.C) == (name == "causal-gqa"), (name, high - low)


def test_tiles_equal_the_stored_maps(pair):
    """Any block, every stage, every head and layer: the cells of the usual trace's stored maps."""
    _, full, tiled = pair
    C, rng = tiled.C, np.random.default_rng(0)
    for layer in range(tiled.config.layers):
        for h in range(tiled.config.H):
            for b in range(tiled.B):
                for stage in names.PAIRWISE_STAGES:
                    r0, c0 = rng.integers(0, C - 8, size=2)
                    r1, c1 = rng.integers(r0 + 1, C + 1), rng.integers(c0 + 1, C + 1)
                    expected = full.head_map(layer, stage, b, h)
                    _close(tiled.tile(layer, stage, b, h, (r0, r1), (c0, c1)), expected[r0:r1, c0:c1], stage)
                    _close(tiled.tile(layer, stage, b, h, (0, C), (0, C)), expected, stage)


def _numpy_masked(trace, layer, b, h, rows) -> np.ndarray:
    """The masked scores of some rows in float64 from the kept q and k, with the mask written out here."""
    cfg, C = trace.config, trace.C
    q_name, k_name = names.qk(layer, "rope")
    q = trace[q_name][b, h, rows].astype(np.float64)  # (r, D)
    k = trace[k_name][b, h // (cfg.H // cfg.H_kv)].astype(np.float64)  # (C, D)
    s = q @ k.T / math.sqrt(cfg.score_dim)
    if cfg.attn_softcap is not None:
        s = cfg.attn_softcap * np.tanh(s / cfg.attn_softcap)
    i, j = np.asarray(rows)[:, None], np.arange(C)[None, :]
    spec, length = trace.options.mask, trace.rows[b].length
    allowed = (j <= i) & (j < length)
    if spec.kind == "window":
        allowed &= j > i - spec.size
    if cfg.is_sliding(layer):
        allowed &= i - j < cfg.sliding_window
    return np.where(allowed, s, -np.inf)


def test_weights_and_lse_equal_numpy_in_float64(pair):
    _, _, tiled = pair
    rows = [0, 1, 7, tiled.C // 2, tiled.C - 1]
    for layer in range(tiled.config.layers):
        for h in range(tiled.config.H):
            for b in range(tiled.B):
                masked = _numpy_masked(tiled, layer, b, h, rows)
                top = masked.max(axis=1, keepdims=True)
                lse = (top + np.log(np.exp(masked - top).sum(axis=1, keepdims=True)))[:, 0]
                np.testing.assert_allclose(tiled[names.attn(layer, "lse")][b, h, rows], lse, rtol=1e-5, atol=1e-5)
                weights = np.exp(masked - lse[:, None])
                for n, i in enumerate(rows):
                    got = tiled.tile(layer, "weights", b, h, (i, i + 1), (0, tiled.C))[0]
                    assert np.abs(got - weights[n]).max() <= 1e-6


def test_weights_equal_pytorchs_own_attention(words, monkeypatch):
    """scaled_dot_product_attention with V = I gives the attention weights as its output."""
    bundle = random_bundle(_config(words, kv_heads=2), words, seed=9)
    tiled = _tiled_trace(bundle, TEXT, RunOptions(), monkeypatch)
    C, cfg = tiled.C, tiled.config
    for layer in range(cfg.layers):
        q_name, k_name = names.qk(layer, "rope")
        q = torch.from_numpy(np.array(tiled[q_name][0])).double()  # (H, C, D)
        k = torch.from_numpy(np.array(tiled[k_name][0])).double().repeat_interleave(cfg.H // cfg.H_kv, dim=0)
        eye = torch.eye(C, dtype=torch.float64).expand(cfg.H, C, C)
        expected = F.scaled_dot_product_attention(q, k, eye, is_causal=True).numpy()  # (H, C, C)
        for h in range(cfg.H):
            got = tiled.tile(layer, "weights", 0, h, (0, C), (0, C))
            assert np.abs(got - expected[h]).max() <= 1e-6


def test_rows_read_whole_through_tiles_sum_to_one(pair):
    _, _, tiled = pair
    C = tiled.C
    for layer in range(tiled.config.layers):
        for b in range(tiled.B):
            for i in (0, 3, C // 3, C - 1):
                parts = [tiled.tile(layer, "weights", b, 1, (i, i + 1), (c, min(C, c + 37))) for c in range(0, C, 37)]
                assert abs(float(np.concatenate(parts, axis=1).sum(dtype=np.float64)) - 1.0) <= 1e-5


def test_the_overview_holds_the_full_maps_facts(pair):
    _, full, tiled = pair
    C, cells = tiled.C, 16
    for stage in ("weights", "masked"):
        ov = tiled.map_overview(1, stage, 0, 2, cells)
        block = ov.block
        assert block == math.ceil(C / cells) and ov.block_max.shape == (math.ceil(C / block),) * 2
        exact = tiled.tile(1, stage, 0, 2, (0, C), (0, C))  # the tiles the overview streams, whole
        stored = full.head_map(1, stage, 0, 2)  # the usual trace's map: equal to the tiles within 1e-6
        for bi in range(ov.block_max.shape[0]):
            for bj in range(ov.block_max.shape[1]):
                square = np.s_[bi * block : (bi + 1) * block, bj * block : (bj + 1) * block]
                assert ov.block_max[bi, bj] == exact[square].max()
                _close(ov.block_max[bi, bj : bj + 1], stored[square].max(keepdims=True)[0], stage)
                mean = stored[square].astype(np.float64).mean()
                assert ov.block_mean[bi, bj] == mean if np.isinf(mean) else abs(ov.block_mean[bi, bj] - mean) <= 1e-6
    weights = full.head_map(1, "weights", 0, 2).astype(np.float64)
    ov = tiled.map_overview(1, "weights", 0, 2, cells)
    logs = np.log(weights, out=np.zeros_like(weights), where=weights > 0)
    np.testing.assert_allclose(ov.row_entropy, -(weights * logs).sum(axis=1), atol=1e-5)
    np.testing.assert_allclose(ov.sink_mass, weights[:, 0], atol=1e-6)
    heaviest = np.argsort(-weights, axis=1, kind="stable")[:, :3]
    assert ov.top_keys.dtype == np.int32 and ov.top_keys.shape == (C, 3)
    np.testing.assert_allclose(ov.top_weights, np.take_along_axis(weights, heaviest, axis=1), atol=1e-6)
    assert tiled.map_overview(1, "weights", 0, 2, cells) is ov  # computed once: the trace's memo


def test_a_whole_map_of_a_tiled_layer_is_refused_with_the_way_to_a_tile(pair):
    _, _, tiled = pair
    with pytest.raises(InputError, match=r"trace\.tile\(layer, stage, b, h"):
        tiled.head_map(0, "weights", 0, 0)
    with pytest.raises(InputError, match=r"trace\.tile"):
        tiled[names.attn(1, "scores")]


def test_a_cells_anatomy_on_a_tiled_layer_reads_one_row(pair):
    from explorer.anatomy import Cell, anatomy

    _, full, tiled = pair
    i = tiled.C - 2
    for j in (0, i // 2, i):
        steps = anatomy(tiled, Cell("weights", 1, 3, i, key=j))
        assert abs(float(steps[-1].result) - float(full.head_map(1, "weights", 0, 3)[i, j])) <= 1e-6


def test_a_short_text_keeps_todays_trace(words):
    """Below the threshold nothing changes: no lse is kept, and whole maps are served as before."""
    bundle = random_bundle(_config(words, kv_heads=2), words, seed=5)
    for options in (RunOptions(), RunOptions(lazy_pairwise=True)):
        trace = run_trace(bundle, TEXT, options)
        assert not any(n.endswith(".attn.lse") for n in trace.stored_names())
        assert not trace.tiled(0) and trace.head_map(0, "weights", 0, 1).shape == (trace.C, trace.C)
        C = trace.C
        _close(trace.tile(0, "weights", 0, 1, (3, C), (0, C)), trace.head_map(0, "weights", 0, 1)[3:], "weights")


def smollm2_shape() -> ModelConfig:
    """SmolLM2-135M's sizes (its config.json): 30 layers, 9 query and 3 key/value heads of 64, E = 576."""
    return ModelConfig(
        49152,
        embed_dim=576,
        key_dim=64,
        heads=9,
        kv_heads=3,
        layers=30,
        ffn_dim=1536,
        positions="rope",
        norm="rmsnorm",
        ffn_activation="silu_gated",
        tie_embeddings=True,
        max_positions=16384,
    )


def test_16k_tokens_are_tiled_and_the_estimate_holds_no_map():
    cfg, C = smollm2_shape(), 16_384
    assert maps_tiled(C, "float32") and not maps_tiled(8_192, "float32")
    est = estimate_memory(cfg, 1, C, RunOptions())
    one_map = C * C * 4  # one head's (C, C) float32 map: 1 GiB
    assert est.peak_bytes - est.params_bytes < 3 * 1024**3  # under 3 GB beside the weights
    # a head more costs its q, k and lse rows in every layer, never a map (30 layers × 1 GiB): the estimate
    # follows the policy
    wider = estimate_memory(cfg.replace(heads=18, kv_heads=6), 1, C, RunOptions())
    assert 0 < (wider.peak_bytes - est.peak_bytes) / 9 < one_map / 4


def test_a_tiled_trace_exports_q_k_and_lse_and_reopens_tiled(words, monkeypatch, tmp_path):
    """The default export writes what rebuilds the maps; a map asked for by name is refused in one line."""
    from explorer.errors import SnapshotError
    from explorer.export.snapshot import read_snapshot, write_snapshot

    bundle = random_bundle(_config(words, kv_heads=2), words, seed=5)
    full = run_trace(bundle, TEXT, RunOptions())
    tiled = _tiled_trace(bundle, TEXT, RunOptions(), monkeypatch)
    path = write_snapshot(tiled, tmp_path / "long.npz")
    back = read_snapshot(path)
    C = back.C
    assert back.tiled(0) and names.attn(0, "weights") not in back.stored_names()
    _close(back.tile(0, "weights", 0, 3, (5, C), (0, C)), full.head_map(0, "weights", 0, 3)[5:], "weights")
    with pytest.raises(SnapshotError, match=r"layers\.1\.attn\.weights of this long text is 1 × 4 × .* cells") as e:
        write_snapshot(tiled, tmp_path / "maps.npz", select=["layers.1.attn.weights"])
    assert "\n" not in str(e.value) and "trace.tile(" in str(e.value)


def test_a_hover_on_a_tiled_layer_says_what_the_usual_trace_says(pair):
    """The hover reads one row of the map and of the layer's mask: the same words and numbers."""
    from explorer.present.explain import explain_cell

    _, full, tiled = pair
    i = tiled.C - 1
    for stage in ("scores", "masked", "weights"):
        for j in (0, i - 3, i):
            assert explain_cell(tiled, stage, 1, 2, 0, i, j) == explain_cell(full, stage, 1, 2, 0, i, j)
