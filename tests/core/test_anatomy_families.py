"""The family steps of a score's anatomy (issue 39) on random-weight models built with ``transformers``
(tests/core/test_hf_families.py's ``build``): Qwen 3's q/k norm, Gemma 2's soft-cap and a sliding layer's
window as the reason a key is hidden, each recomputed here in numpy from the trace's tensors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.anatomy import Cell, anatomy
from explorer.trace.run import run_trace
from explorer.weights.loaders import load_model

pytest.importorskip("transformers")
from test_hf_families import build  # noqa: E402
from tiny_bpe import train_tokenizer  # noqa: E402

TEXT = "The cat sat on the mat because it was tired ."


def _by_op(steps, op):
    return [s for s in steps if s.op == op]


def test_qwen3_normalises_q_and_k_before_rope(tmp_path):
    folder, _ = build(tmp_path, "qwen3", train_tokenizer().to_str())
    trace = run_trace(load_model(folder), TEXT)
    cfg, C = trace.config, trace.C
    h, i, j = 3, C - 1, 2
    g = h // (cfg.H // cfg.H_kv)
    steps = anatomy(trace, Cell("scores", 1, h, i, key=j))
    q_norm, k_norm = _by_op(steps, "qk_norm")
    gamma = trace["params.layers.1.attn.q_norm.weight"].astype(np.float64)
    q = trace["layers.1.attn.q"][0, h, i].astype(np.float64)
    want = q / np.sqrt(np.mean(q**2) + cfg.norm_eps) * gamma  # per head: Qwen 3 normalises each head's D
    np.testing.assert_allclose(q_norm.result, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(k_norm.result, trace["layers.1.attn.k_norm"][0, g, j])
    assert [s.op for s in steps[:4]] == ["qk_norm", "rope", "qk_norm", "rope"]  # q normed then turned; k the same
    np.testing.assert_array_equal(_by_op(steps, "rope")[0].operands["vector"], trace["layers.1.attn.q_norm"][0, h, i])


def test_gemma2_soft_caps_and_its_sliding_layer_says_why_a_key_is_hidden(tmp_path):
    folder, _ = build(tmp_path, "gemma2", train_tokenizer().to_str())
    trace = run_trace(load_model(folder), TEXT)
    cap, C = trace.config.attn_softcap, trace.C
    steps = anatomy(trace, Cell("capped", 1, 0, C - 1, key=C - 3))
    (scaled,) = _by_op(steps, "scale")
    (capped,) = _by_op(steps, "softcap")
    assert capped.result == pytest.approx(cap * math.tanh(scaled.result / cap), rel=1e-12)
    assert steps[-1].result == float(trace["layers.1.attn.capped"][0, 0, C - 1, C - 3])
    assert abs(steps[-1].extra["recomputed"] - steps[-1].result) <= 1e-6 * max(1.0, abs(steps[-1].result))
    # layer 0 slides over 4 keys: key 0 is causally visible to the last query but outside its window
    far = anatomy(trace, Cell("masked", 0, 0, C - 1, key=0))
    (mask,) = _by_op(far, "mask")
    assert mask.operands["reason"] == "sliding window" and mask.result == -math.inf
    near = anatomy(trace, Cell("masked", 1, 0, C - 1, key=0))
    assert _by_op(near, "mask")[0].operands["reason"] == "visible"


def _every_cell(trace):
    """One cell of every stage the model has, at the last token of the first sentence."""
    from explorer.anatomy import ANATOMY_STAGES
    from explorer.anatomy.cell import PAIRWISE
    from explorer.present.stages import shown

    cfg, i = trace.config, trace.rows[0].length - 1
    for stage in ANATOMY_STAGES:
        if not shown(stage, cfg):
            continue
        if stage in PAIRWISE:
            yield Cell(stage, cfg.L - 1, cfg.H - 1, i, key=i - 1)
        elif stage == "ffn":
            yield Cell(stage, cfg.L - 1, 0, i, neuron=cfg.F - 1)
            yield Cell(stage, cfg.L - 1, 0, i, dim=1)
        else:
            yield Cell(stage, cfg.L - 1, cfg.H - 1, i, dim=1)


@pytest.mark.parametrize("family", ["gemma2", "bert"])
def test_every_stage_of_a_sandwich_and_a_post_norm_family_ends_on_the_traces_number(tmp_path, family):
    """Gemma 2 (norms around each sublayer, soft-capped scores and logits, GeGLU) and BERT (norms after the
    sums, an MLM head, no mask): every stage's anatomy ends on the trace's own number, and its steps give
    that number to float32's rounding of the terms' size."""
    from test_hf_families import wordpiece_json

    from explorer.config import MaskSpec, RunOptions

    tokenizer = wordpiece_json() if family == "bert" else train_tokenizer().to_str()
    folder, _ = build(tmp_path, family, tokenizer)
    options = RunOptions(mask=MaskSpec("none")) if family == "bert" else RunOptions()
    trace = run_trace(load_model(folder), TEXT, options)
    seen = set()
    for cell in _every_cell(trace):
        steps = anatomy(trace, cell, whole=True)
        last = steps[-1]
        size = sum(abs(float(s.result)) for s in steps if s.running is not None and np.ndim(s.result) == 0)
        assert last.op == "cell" and last.running == last.result, cell
        if math.isfinite(last.result):
            assert abs(last.extra["recomputed"] - last.result) <= 1e-5 * max(1.0, size, abs(last.result)), cell
        seen.add(cell.stage)
    wanted = {"attn_out_norm", "ffn_out_norm", "capped", "logit_cap"} if family == "gemma2" else {"post_norm_attn"}
    assert wanted <= seen
