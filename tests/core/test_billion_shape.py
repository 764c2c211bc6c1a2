"""A Llama-3.2-1B-shaped model as the window traces a deep model (issue 43, item 3), at a small size of the
same form: grouped-query attention 4:1, llama3 rotary scaling past its original context, tied embeddings, saved
by transformers as a folder (config.json + model.safetensors) and opened by our loader (the app's path).

The trace captures one layer whole and keeps every other layer's q and k (config.keeps_every_map), so every
layer's maps are derived when looked at. Each of them must equal transformers' eager attention weights of the
same weights and ids (≤ 1e-5), and the logits derived from final.out must equal transformers' (≤ 1e-4
relative), while the trace holds no other tensor of the layers it did not capture.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from explorer import names
from explorer.config import RunOptions
from explorer.trace.run import run_trace
from explorer.weights.loaders import load_model

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers = pytest.importorskip("transformers")
transformers.utils.logging.set_verbosity_error()

from test_hf_families import vocab_size  # noqa: E402
from test_hf_oracle import oracle, oracle_ids, save_model, sharpen  # noqa: E402

ATTN_TOL = 1e-5
LOGITS_REL = 1e-4
TEXT = "The cat sat on the mat because it was tired , and the dog saw it and ran away from the cat ."


@pytest.fixture(scope="module")
def billion_form(tmp_path_factory, tokenizer_json):
    """A random Llama of the 1B model's form: H = 8 query heads over H_kv = 2, llama3 scaling whose original
    context (8 positions) the text passes, tied embeddings, 3 layers."""
    cfg = transformers.LlamaConfig(
        vocab_size=vocab_size(tokenizer_json),
        hidden_size=64,
        intermediate_size=256,
        num_hidden_layers=3,
        num_attention_heads=8,
        num_key_value_heads=2,
        head_dim=8,
        max_position_embeddings=256,
        rms_norm_eps=1e-5,
        tie_word_embeddings=True,
        rope_parameters={
            "rope_type": "llama3",
            "factor": 32.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8,
            "rope_theta": 500000.0,
        },
        bos_token_id=0,
        eos_token_id=0,
        pad_token_id=None,
    )
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(cfg).eval()
    sharpen(model, 4)
    folder = tmp_path_factory.mktemp("billion_form")
    save_model(model, folder, tokenizer_json)
    return folder


def test_every_layer_map_of_a_deep_model_trace_equals_transformers(billion_form):
    bundle = load_model(billion_form)
    cfg = bundle.config
    assert (cfg.H, cfg.H_kv, cfg.tie_embeddings, cfg.rope_scaling.kind) == (8, 2, True, "llama3")
    trace = run_trace(bundle, TEXT, RunOptions(lazy_pairwise=True, layers_to_capture=(1,)))
    ids = oracle_ids(billion_form, TEXT)
    assert list(trace.rows[0].ids) == ids and len(ids) > 8  # past the original context: the scaling matters
    with torch.no_grad():
        out = oracle(billion_form)(torch.tensor([ids]), output_attentions=True)
    assert trace.layers == (1,) and trace.map_layers == (0, 1, 2)
    for layer in (0, 2):  # not captured: q and k alone
        held = {n for n in trace.stored_names() if names.layer_of(n) == layer and not n.startswith("params.")}
        assert held == set(names.qk(layer, cfg.positions)), held
    worst = 0.0
    for layer in range(cfg.layers):
        theirs = out.attentions[layer][0].numpy()
        for h in range(cfg.H):
            worst = max(worst, float(np.abs(trace.head_map(layer, "weights", 0, h) - theirs[h]).max()))
    assert worst <= ATTN_TOL, worst
    expected = out.logits[0].numpy()
    last = trace.logits_rows(0, trace.C - 1, trace.C)[0]
    assert np.linalg.norm(last - expected[-1]) <= LOGITS_REL * np.linalg.norm(expected[-1])
    every = trace["logits"][0]
    assert np.linalg.norm(every - expected) <= LOGITS_REL * np.linalg.norm(expected)


def test_the_model_view_reads_every_layer_from_such_a_trace(billion_form):
    """The Model view fills its grid from the trace's own q and k, not from a second forward pass."""
    from explorer.present import model_view as mv

    bundle = load_model(billion_form)
    trace = run_trace(bundle, TEXT, RunOptions(lazy_pairwise=True, layers_to_capture=(0,)))
    assert mv.holds_every_layer(trace)
    got = []
    lut = np.zeros((256, 4), dtype=np.uint8)
    mv.trace_layers(trace, "weights", 0, lut, got.append)
    assert [g.layer for g in got] == [0, 1, 2]
    for g in got:
        assert g.thumbs.shape[0] == bundle.config.H
        np.testing.assert_array_equal(g.thumbs[3], trace.head_map(g.layer, "weights", 0, 3))  # short: not shrunk
