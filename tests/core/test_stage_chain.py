"""Every shown stage follows from the previous shown stage (issue 12): a teacher who takes the numbers of
one stage of an export, and the parameters, gets the next stage's numbers.

For a pre-norm model (LayerNorm and RMSNorm) and a bare one (no norm, no residual), the model is exported
to an .npz file; then each stage of the walk the window shows (explorer.present.stage_walk) is recomputed in numpy
from the *exported* tensors of the stage shown before it, never from the model. For the bare model the QKV
stage must follow from the embedding itself (there is no norm stage between them); for the pre-norm model
the norm stage sits in between and the QKV stage follows from it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from oracle_np import gelu, layernorm, rmsnorm, sinusoid, softmax_rows
from test_numpy_oracle import randomize

from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.export.snapshot import write_snapshot
from explorer.present.stage_walk import walk
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import load_preset, preset_tokenizer

TEXT = "This is a pen .\nThe cat is on the mat ."
MODELS = {
    "layernorm": dict(norm="layernorm", residual=True),
    "rmsnorm": dict(norm="rmsnorm", residual=True),
    "bare": dict(norm="none", residual=False),
}


@pytest.fixture(scope="module", params=list(MODELS))
def exported(request, tmp_path_factory):
    words = preset_tokenizer("words-en.json")
    cfg = ModelConfig(
        words.vocab_size, embed_dim=6, key_dim=3, heads=2, layers=2, positions="sinusoidal", **MODELS[request.param]
    )
    trace = run_trace(
        randomize(random_bundle(cfg, words, 5)), TEXT, RunOptions(dtype="float64", mask=MaskSpec("window", 3))
    )
    path = write_snapshot(trace, tmp_path_factory.mktemp(request.param) / "x.npz")
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    return request.param, cfg, arrays, walk(trace.layers, cfg)


def _heads(x, W, H):
    """(B, C, E) · (E, H·d) → (B, H, C, d): head h is columns h·d … h·d+d−1."""
    y = x @ W
    B, C, HD = y.shape
    return y.reshape(B, C, H, HD // H).transpose(0, 2, 1, 3)


def _norm(kind, x, z, prefix, eps):
    if kind == "layernorm":
        return layernorm(x, z[f"{prefix}.weight"], z[f"{prefix}.bias"], eps)
    return rmsnorm(x, z[f"{prefix}.weight"], eps)


def _previous(steps, index):
    return steps[index - 1] if index > 0 else None


def _recompute(key, layer, cfg, z, shown_keys):
    """The stage's tensors from the exported tensors of the stage shown before it (and parameters)."""
    l = layer
    block_in = "embed.out" if l == 0 else f"layers.{l - 1}.out"
    if key == "embed":
        tok = z["params.embed.tok"][z["tokens"]]
        return {"embed.tok": tok, "embed.out": tok + sinusoid(z["tokens"].shape[1], cfg.E)[None]}
    if key == "norm_attn":
        return {f"layers.{l}.attn.in": _norm(cfg.norm, z[block_in], z, f"params.layers.{l}.ln_attn", cfg.norm_eps)}
    if key == "qkv":
        x = z[f"layers.{l}.attn.in"] if "norm_attn" in shown_keys else z[block_in]
        p = f"params.layers.{l}.attn"
        return {f"layers.{l}.attn.{n}": _heads(x, z[f"{p}.W_{n}"], cfg.H) for n in ("q", "k", "v")}
    if key == "scores":
        return {f"layers.{l}.attn.scores": z[f"layers.{l}.attn.q"] @ z[f"layers.{l}.attn.k"].transpose(0, 1, 3, 2)}
    if key == "scaled":
        return {f"layers.{l}.attn.scaled": z[f"layers.{l}.attn.scores"] / math.sqrt(cfg.D)}
    if key == "masked":
        return {f"layers.{l}.attn.masked": np.where(z["mask"][:, None], z[f"layers.{l}.attn.scaled"], -np.inf)}
    if key == "weights":
        return {f"layers.{l}.attn.weights": softmax_rows(z[f"layers.{l}.attn.masked"])}
    if key == "heads":
        return {f"layers.{l}.attn.heads": z[f"layers.{l}.attn.weights"] @ z[f"layers.{l}.attn.v"]}
    if key == "concat":
        h = z[f"layers.{l}.attn.heads"]
        B, H, C, Dv = h.shape
        return {f"layers.{l}.attn.concat": h.transpose(0, 2, 1, 3).reshape(B, C, H * Dv)}
    if key == "out":
        return {f"layers.{l}.attn.out": z[f"layers.{l}.attn.concat"] @ z[f"params.layers.{l}.attn.W_o"]}
    if key == "residual":
        a = z[f"layers.{l}.attn.out"]
        return {f"layers.{l}.mid": z[block_in] + a if cfg.residual else a}
    if key == "norm_ffn":
        return {
            f"layers.{l}.ffn.in": _norm(cfg.norm, z[f"layers.{l}.mid"], z, f"params.layers.{l}.ln_ffn", cfg.norm_eps)
        }
    if key == "ffn":
        x = z[f"layers.{l}.ffn.in"] if "norm_ffn" in shown_keys else z[f"layers.{l}.mid"]
        hidden = gelu(x @ z[f"params.layers.{l}.ffn.W_in"])
        return {f"layers.{l}.ffn.hidden": hidden, f"layers.{l}.ffn.out": hidden @ z[f"params.layers.{l}.ffn.W_out"]}
    if key == "block":
        f = z[f"layers.{l}.ffn.out"]
        return {f"layers.{l}.out": z[f"layers.{l}.mid"] + f if cfg.residual else f}
    if key == "final_norm":
        return {"final.out": _norm(cfg.norm, z[f"layers.{cfg.L - 1}.out"], z, "params.ln_final", cfg.norm_eps)}
    if key == "logits":
        x = z["final.out"] if "final_norm" in shown_keys else z[f"layers.{cfg.L - 1}.out"]
        return {"logits": x @ z["params.unembed.W_u"]}
    if key == "probs":
        return {"probs": softmax_rows(z["logits"])}
    raise AssertionError(key)


STAGES_CHECKED = [
    "embed",
    "norm_attn",
    "qkv",
    "scores",
    "scaled",
    "masked",
    "weights",
    "heads",
    "concat",
    "out",
    "residual",
    "norm_ffn",
    "ffn",
    "block",
    "final_norm",
    "logits",
    "probs",
]


@pytest.mark.parametrize("key", STAGES_CHECKED)
def test_each_shown_stage_follows_from_the_one_shown_before(exported, key):
    model, cfg, z, steps = exported
    shown_keys = {k for k, _ in steps}
    if key not in shown_keys:
        assert key.endswith("norm") or key.startswith("norm"), key
        assert model == "bare"  # only the bare model leaves stages out: its norms
        return
    for k, layer in steps:
        if k != key:
            continue
        for name, expected in _recompute(k, layer or 0, cfg, z, shown_keys).items():
            got = z[name]
            assert got.shape == expected.shape, name
            finite = np.isfinite(expected)
            assert np.array_equal(finite, np.isfinite(got)), name
            np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-9, atol=1e-9, err_msg=f"{model}: {name}")


def test_the_bare_walk_goes_from_embed_straight_to_qkv(exported):
    model, cfg, z, steps = exported
    keys = [k for k, _ in steps]
    if model == "bare":
        assert keys[keys.index("embed") + 1] == "qkv" and "final_norm" not in keys
        np.testing.assert_array_equal(z["layers.0.attn.in"], z["embed.out"])
    else:
        assert keys[keys.index("embed") + 1] == "norm_attn" and keys[keys.index("block") + 1] in (
            "norm_attn",
            "final_norm",
        )
        # the norm stage is needed: Q does not follow from the embedding itself
        q_from_embed = _heads(z["embed.out"], z["params.layers.0.attn.W_q"], cfg.H)
        assert not np.allclose(q_from_embed, z["layers.0.attn.q"], atol=1e-3)


def test_the_seed_toy_export_has_no_norm(tmp_path):
    """The note's toy has no normalisation: what attention reads is the embedding itself."""
    bundle = load_preset("seed-toy")
    assert bundle.config.norm == "none"
    trace = run_trace(bundle, "This is\na pen")
    path = write_snapshot(trace, tmp_path / "toy.npz")
    with np.load(path, allow_pickle=False) as z:
        np.testing.assert_array_equal(z["layers.0.attn.in"], z["embed.out"])
        assert "params.ln_final.weight" not in z.files
