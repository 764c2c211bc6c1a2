"""Interventions against oracles that do not use the intervention code: a model whose W_o rows are zeroed
(in memory and in an HF GPT-2 folder edited on disk), the source text's own run, the baseline itself, a
painted mask, and numpy means."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.errors import ConfigError, InputError
from explorer.export.snapshot import read_snapshot, write_snapshot
from explorer.interventions import (
    EdgeCut,
    HeadAblation,
    Interventions,
    PatchSpec,
    parse_ablate,
    parse_cut,
    parse_patch,
    run_intervened,
)
from explorer.trace.run import run_trace
from explorer.weights.bundle import random_bundle

TEXT = "the cat sat on the dog ."
TEXT2 = "a dog ran to the cat ."  # the same number of word tokens
TOL = 1e-5

CONFIGS = {
    "explorer": dict(),
    "gpt2-like": dict(
        bias=True, positions="learned", ffn_activation="gelu_tanh", tie_embeddings=True, unembed_bias=True
    ),
    "llama-like": dict(positions="rope", norm="rmsnorm", kv_heads=2, ffn_activation="silu_gated", value_dim=8),
    "bare": dict(norm="none", residual=False),
}


def make(tokenizer, seed=7, **over):
    cfg = ModelConfig(vocab_size=tokenizer.vocab_size, embed_dim=32, key_dim=8, heads=4, layers=3, **over)
    return random_bundle(cfg, tokenizer, seed=seed)


def test_texts_have_equal_lengths(tokenizer):
    assert len(tokenizer.encode(TEXT)) == len(tokenizer.encode(TEXT2)) == 7
    assert not any(tokenizer.encode(TEXT).unknown) and not any(tokenizer.encode(TEXT2).unknown)


@pytest.mark.parametrize("kind", CONFIGS)
@pytest.mark.parametrize("layer,head", [(0, 0), (1, 3), (2, 1)])
def test_zero_ablation_equals_zeroed_W_o_rows(tokenizer, kind, layer, head):
    bundle, edited = make(tokenizer, **CONFIGS[kind]), make(tokenizer, **CONFIGS[kind])
    Dv = bundle.config.D_v
    with torch.no_grad():
        edited.model.layers[layer].attn.W_o[head * Dv : (head + 1) * Dv] = 0.0  # b_o stays
    oracle = run_trace(edited, TEXT)["logits"]
    run = run_intervened(bundle, TEXT, Interventions(ablations=(HeadAblation(layer, head),)))
    assert np.abs(run["logits"] - oracle).max() < TOL
    assert np.abs(run["logits"] - run["baseline.logits"]).max() > 1e-4  # the head mattered: the test can fail
    assert not run[f"layers.{layer}.attn.heads"][:, head].any()  # the recorded Rⁱ is the replaced one


def test_two_ablations_at_once_equal_both_rows_zeroed(tokenizer):
    bundle, edited = make(tokenizer), make(tokenizer)
    with torch.no_grad():
        edited.model.layers[0].attn.W_o[8:16] = 0.0
        edited.model.layers[2].attn.W_o[0:8] = 0.0
    run = run_intervened(bundle, TEXT, Interventions(ablations=parse_ablate("0.1,2.0")))
    assert np.abs(run["logits"] - run_trace(edited, TEXT)["logits"]).max() < TOL


def test_mean_ablation_puts_the_heads_mean_over_positions_everywhere(tokenizer):
    bundle = make(tokenizer)
    base = run_trace(bundle, TEXT)
    run = run_intervened(bundle, TEXT, Interventions(ablations=(HeadAblation(0, 2, "mean"),)), baseline=base)
    want = np.asarray(base["layers.0.attn.heads"][0, 2], dtype=np.float64).mean(axis=0)  # layer 0 reads only the text
    got = run["layers.0.attn.heads"][0, 2]
    assert np.allclose(got, np.broadcast_to(want, got.shape), atol=1e-6)
    assert np.array_equal(run["layers.0.attn.heads"][0, :2], base["layers.0.attn.heads"][0, :2])


@pytest.mark.parametrize("kind", ["explorer", "llama-like"])
@pytest.mark.parametrize("layer", [0, 2])
def test_patching_a_layer_output_everywhere_gives_the_source_logits(tokenizer, kind, layer):
    bundle = make(tokenizer, **CONFIGS[kind])
    source = run_trace(bundle, TEXT2)
    run = run_intervened(bundle, TEXT, Interventions(patches=(PatchSpec(f"layers.{layer}.out"),), patch_from=TEXT2))
    assert np.array_equal(run["logits"], source["logits"])
    assert not np.array_equal(run["baseline.logits"], source["logits"])


def test_patching_nothing_is_the_baseline_bit_for_bit(tokenizer):
    bundle = make(tokenizer, **CONFIGS["llama-like"])
    base = run_trace(bundle, TEXT)
    run = run_intervened(bundle, TEXT, Interventions())
    assert np.array_equal(run["logits"], base["logits"]) and np.array_equal(run["baseline.logits"], base["logits"])
    for name in base.stored_names():
        assert np.array_equal(run[name], base[name]), name
    assert np.array_equal(run["baseline.probs"], base["probs"])


def test_patch_at_chosen_positions_and_heads(tokenizer):
    bundle = make(tokenizer)
    base, source = run_trace(bundle, TEXT), run_trace(bundle, TEXT2)
    run = run_intervened(
        bundle, TEXT, Interventions(patches=parse_patch("layers.0.attn.heads@2,4#1"), patch_from=TEXT2)
    )
    got, b, s = run["layers.0.attn.heads"], base["layers.0.attn.heads"], source["layers.0.attn.heads"]
    taken = np.zeros(got.shape, dtype=bool)
    taken[:, 1, [2, 4]] = True
    assert np.array_equal(got[taken], s[taken]) and np.array_equal(got[~taken], b[~taken])
    # concat: heads side by side; head 3 is columns 24 … 31
    run = run_intervened(bundle, TEXT, Interventions(patches=parse_patch("layers.1.attn.concat#3"), patch_from=TEXT2))
    got, s = run["layers.1.attn.concat"], run_trace(bundle, TEXT2)["layers.1.attn.concat"]
    assert np.array_equal(got[..., 24:], s[..., 24:])
    assert np.array_equal(got[..., :24], run_trace(bundle, TEXT, patches=None)["layers.1.attn.concat"][..., :24])


@pytest.mark.parametrize("kind", ["explorer", "llama-like"])
def test_cutting_every_edge_of_a_row_equals_the_painted_mask_with_that_row_blocked(tokenizer, kind):
    bundle = make(tokenizer, **CONFIGS[kind])
    C, row = 7, 4
    painted = np.tril(np.ones((C, C), dtype=bool))
    painted[row] = False
    oracle = run_trace(
        bundle, TEXT, RunOptions(mask=MaskSpec("explicit", matrix=tuple(tuple(map(bool, r)) for r in painted)))
    )
    cuts = tuple(EdgeCut(l, h, row, j) for l in range(3) for h in range(4) for j in range(C))
    run = run_intervened(bundle, TEXT, Interventions(cuts=cuts))
    assert np.array_equal(run["logits"], oracle["logits"])
    for l in range(3):
        assert np.array_equal(run[f"layers.{l}.attn.weights"], oracle[f"layers.{l}.attn.weights"])


def test_one_cut_zeroes_one_weight_and_renormalises_only_its_row(tokenizer):
    bundle = make(tokenizer)
    base = run_trace(bundle, TEXT)
    run = run_intervened(bundle, TEXT, Interventions(cuts=parse_cut("0.2:5:1")), baseline=base)
    w, w0 = run["layers.0.attn.weights"][0], base["layers.0.attn.weights"][0]
    assert w[2, 5, 1] == 0.0 and w0[2, 5, 1] > 0
    expected = w0[2, 5].astype(np.float64).copy()
    expected[1] = 0.0
    assert np.allclose(w[2, 5], expected / expected.sum(), atol=1e-6)  # softmax without that cell
    others = np.ones(w.shape, dtype=bool)
    others[2, 5] = False
    assert np.array_equal(w[others], w0[others])


def test_snapshot_records_interventions_and_baseline(tokenizer, tmp_path):
    bundle = make(tokenizer)
    iv = Interventions(
        ablations=parse_ablate("1.2", "mean"),
        cuts=parse_cut("0.1:3:2"),
        patches=parse_patch("layers.0.out@1-2"),
        patch_from=TEXT2,
    )
    run = run_intervened(bundle, TEXT, iv)
    path = write_snapshot(run, tmp_path / "iv.npz")
    back = read_snapshot(path)
    assert back.interventions == {
        "ablations": [{"layer": 1, "head": 2, "mode": "mean"}],
        "cuts": [{"layer": 0, "head": 1, "query": 3, "key": 2}],
        "patches": [{"name": "layers.0.out", "positions": [1, 2], "heads": None}],
        "patch_from": TEXT2,
    }
    assert np.array_equal(back["baseline.logits"], run_trace(bundle, TEXT)["logits"])
    assert np.allclose(back["baseline.probs"].sum(-1), 1.0, atol=1e-5)


def test_parsers():
    assert parse_patch("layers.0.out@1,3,layers.1.attn.heads#0-2,5") == (
        PatchSpec("layers.0.out", (1, 3), None),
        PatchSpec("layers.1.attn.heads", None, (0, 1, 2, 5)),
    )
    assert parse_patch("embed.out@0#1") == (PatchSpec("embed.out", (0,), (1,)),)
    assert parse_cut("0.1:3:2,1.0:4:4") == (EdgeCut(0, 1, 3, 2), EdgeCut(1, 0, 4, 4))
    assert parse_ablate("0.1, 2.3", "mean") == (HeadAblation(0, 1, "mean"), HeadAblation(2, 3, "mean"))
    for bad in (
        lambda: parse_ablate("1"),
        lambda: parse_ablate("a.b"),
        lambda: parse_ablate("1.1", "half"),
        lambda: parse_cut("1.1:2"),
        lambda: parse_patch("3,layers.0.out"),
        lambda: parse_patch("x y"),
        lambda: parse_patch("layers.0.out@3-1"),
    ):
        with pytest.raises(ConfigError):
            bad()


@pytest.mark.parametrize(
    "iv,words",
    [
        (Interventions(ablations=(HeadAblation(3, 0),)), "layer 3 does not exist"),
        (Interventions(ablations=(HeadAblation(0, 4),)), "head 4 does not exist"),
        (Interventions(cuts=(EdgeCut(0, 0, 7, 0),)), "positions run 0 … 6"),
        (
            Interventions(patches=(PatchSpec("layers.0.attn.weights"),), patch_from=TEXT2),
            "not an activation that can be patched",
        ),
        (Interventions(patches=(PatchSpec("layers.0.out", None, (0,)),), patch_from=TEXT2), "no head axis"),
        (Interventions(patches=(PatchSpec("layers.0.attn.k", None, (2,)),), patch_from=TEXT2), "head 2 does not exist"),
        (Interventions(patches=(PatchSpec("layers.0.out", (9,)),), patch_from=TEXT2), "position 9 does not exist"),
        (Interventions(patches=(PatchSpec("layers.0.out"),)), "--patch needs --patch-from"),
        (Interventions(patch_from=TEXT2), "--patch-from needs --patch"),
    ],
)
def test_refusals_are_one_line(tokenizer, iv, words):
    bundle = make(tokenizer, kv_heads=2)
    with pytest.raises(ConfigError) as exc:
        run_intervened(bundle, TEXT, iv)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_patch_source_of_another_length_is_refused(tokenizer):
    with pytest.raises(InputError, match="same length in tokens"):
        run_intervened(
            make(tokenizer), TEXT, Interventions(patches=(PatchSpec("layers.0.out"),), patch_from="the cat sat .")
        )


def test_cuts_in_a_lazy_trace_store_the_models_own_maps(tokenizer):
    bundle = make(tokenizer)
    run = run_intervened(bundle, TEXT, Interventions(cuts=parse_cut("1.3:6:0")), RunOptions(lazy_pairwise=True))
    assert "layers.1.attn.weights" in run.stored_names()  # not derived from q, k and the uncut mask
    assert run.head_map(1, "weights", 0, 3)[6, 0] == 0.0 and run.head_map(1, "weights", 0, 2)[6, 0] > 0


def test_plain_forward_takes_a_per_head_mask(tokenizer):
    """The fused path (no trace) reads a (B, H, C, C) mask the same way as the traced path."""
    bundle = make(tokenizer, **CONFIGS["llama-like"])
    ids = torch.tensor([tokenizer.encode(TEXT).ids])
    allowed = torch.ones(7, 7, dtype=torch.bool).tril().expand(1, 4, 7, 7).clone()
    allowed[0, 1, 5, 2] = False
    allowed[0, 2, 3] = False  # a whole row of one head: its weights are all 0
    with torch.inference_mode():
        fused = bundle.model(ids, allowed)
    cuts = [EdgeCut(l, 1, 5, 2) for l in range(3)] + [EdgeCut(l, 2, 3, j) for l in range(3) for j in range(7)]
    traced = run_intervened(bundle, TEXT, Interventions(cuts=tuple(cuts)))
    assert np.abs(fused.numpy() - traced["logits"]).max() < 1e-5
