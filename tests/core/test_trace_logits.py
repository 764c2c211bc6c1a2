"""A trace's logits derived from final.out when read (explorer/trace/logits.py): the same numbers as the
model's own forward pass, each row the same however it was asked for, and the unembedding left out of the
forward pass only where it can be derived."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import explorer.model.transformer as transformer_module
from explorer.config import ModelConfig
from explorer.interventions import HeadAblation, Interventions, run_intervened
from explorer.model.capture import CaptureSink, capturing
from explorer.trace import run_trace
from explorer.trace.logits import ROWS
from explorer.util.threads import threads_for
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import preset_tokenizer

SHORT = "This is a pen ."
# Two sentences of more than ROWS tokens: the logits span several blocks, one crossing from sentence 0 to 1.
LONG = "\n".join(" ".join(["the big dog runs to the park and the cat sees it ."] * 7) for _ in range(2))


@pytest.fixture(scope="module")
def tok():
    return preset_tokenizer("words-en.json")


def _bundle(tok, **extra):
    cfg = ModelConfig(vocab_size=tok.vocab_size, embed_dim=32, key_dim=8, heads=4, layers=2, **extra)
    return random_bundle(cfg, tok, seed=5)


def _model_logits(bundle, trace) -> np.ndarray:
    """The model's own forward pass, capturing everything as a trace does (so its attention runs the same
    path) but deriving nothing, on the thread count a trace of this size runs with (explorer/util/threads.py):
    (B, C, V), the unembedding as the model computes it."""
    model = bundle.model_for("float32", torch.device("cpu"))
    macs = trace.B * trace.C * trace.config.parameter_count()
    with torch.inference_mode(), capturing(model, CaptureSink()), threads_for(macs):
        return model(torch.from_numpy(np.array(trace["tokens"])), torch.from_numpy(np.array(trace["mask"]))).numpy()


@pytest.mark.parametrize("tied", [True, False])
def test_derived_logits_equal_final_out_times_the_unembedding(tok, tied):
    bundle = _bundle(tok, tie_embeddings=tied, unembed_bias=not tied)
    trace = run_trace(bundle, LONG)
    assert "logits" in trace and "logits" not in trace.stored_names()
    assert trace.C > ROWS and trace.shape("logits") == (2, trace.C, tok.vocab_size)
    final = trace["final.out"].astype(np.float64)  # (B, C, E)
    W_u = trace["params.embed.tok"].T if tied else trace["params.unembed.W_u"]  # (E, V)
    expected = final @ W_u.astype(np.float64)
    if not tied:
        expected = expected + trace["params.unembed.b_u"]
    assert np.allclose(trace["logits"], expected, rtol=1e-5, atol=1e-5)  # numpy, independently
    # Several blocks: equal to the one product of the model's forward pass to rounding (here: bit for bit)
    assert np.allclose(trace["logits"], _model_logits(bundle, trace), rtol=1e-6, atol=1e-6)


def test_a_short_trace_has_one_block_the_models_own_product(tok):
    bundle = _bundle(tok)
    trace = run_trace(bundle, SHORT)
    assert trace.C <= ROWS
    assert np.array_equal(trace["logits"], _model_logits(bundle, trace))


def test_every_row_is_the_same_number_however_it_was_asked_for(tok):
    bundle = _bundle(tok)
    B = 2
    first, second = run_trace(bundle, LONG), run_trace(bundle, LONG)
    C = first.C
    # One trace asked row by row (backwards, crossing blocks and sentences), the other for the whole at once.
    for b in reversed(range(B)):
        for i in (C - 1, ROWS, ROWS - 1, 3, 0):
            assert np.array_equal(first.logits_rows(b, i, i + 1)[0], second["logits"][b, i])
            assert np.array_equal(first.probs_row(b, i), second["probs"][b, i])
    spans = first.logits_rows(0, ROWS - 5, C)  # rows of two blocks at once
    assert np.array_equal(spans, second["logits"][0, ROWS - 5 :])
    assert np.array_equal(first.probs_rows(1, 2, C), second["probs"][1, 2:])
    assert np.array_equal(first["logits"], second["logits"])


def _unembedding_products(monkeypatch) -> list:
    calls = []
    real = transformer_module.affine

    def spy(x, W, b=None):
        calls.append(tuple(W.shape))
        return real(x, W, b)

    monkeypatch.setattr(transformer_module, "affine", spy)
    return calls


def test_the_forward_pass_stops_before_the_unembedding(tok, monkeypatch):
    bundle = _bundle(tok)
    calls = _unembedding_products(monkeypatch)
    trace = run_trace(bundle, SHORT)
    assert (trace.config.E, trace.config.V) not in calls  # the model never multiplied by W_u
    assert trace["logits"].shape[-1] == trace.config.V


@pytest.mark.parametrize("extra", [dict(logit_softcap=30.0), dict(mlm_head=True, mask="none")])
def test_models_whose_head_is_more_than_one_product_store_their_logits(tok, extra, monkeypatch):
    mask = extra.pop("mask", None)
    bundle = _bundle(tok, **extra)
    calls = _unembedding_products(monkeypatch)
    from explorer.config import RunOptions

    trace = run_trace(bundle, SHORT, RunOptions(mask=mask) if mask else None)
    assert "logits" in trace.stored_names()
    assert (trace.config.E, trace.config.V) in calls
    assert np.array_equal(trace["logits"], _model_logits(bundle, trace))


def test_a_run_that_patches_the_logits_computes_and_stores_them(tok):
    bundle = _bundle(tok)
    run = run_trace(bundle, SHORT, patches={"logits": lambda z: z * 0.0})
    assert "logits" in run.stored_names()
    assert not run["logits"].any()


def test_an_intervened_run_keeps_its_baselines_logits(tok):
    bundle = _bundle(tok)
    plain = run_trace(bundle, LONG)
    run = run_intervened(bundle, LONG, Interventions(ablations=(HeadAblation(layer=0, head=1),)))
    assert np.array_equal(run["baseline.logits"], plain["logits"])  # both derived: the same numbers
    assert not np.array_equal(run["logits"], plain["logits"])  # the ablation changed the output


def test_a_large_vocabulary_is_unembedded_a_few_rows_at_a_time(tok, monkeypatch):
    """Past BLOCK_MACS per block (a 128k vocabulary at E = 2,048) the blocks hold fewer rows: the row the window
    shows first costs less, and every row is still the same number alone, in its block or in the whole."""
    from explorer.trace import logits as logits_module

    bundle = _bundle(tok)
    monkeypatch.setattr(logits_module, "BLOCK_MACS", 16 * bundle.config.E * bundle.config.V)
    first, second = run_trace(bundle, LONG), run_trace(bundle, LONG)
    blocks = first._derived.logits
    assert blocks.rows_per_block == 16
    last = first.logits_rows(0, first.C - 1, first.C)
    assert all(block.shape[0] <= 16 for block in blocks._blocks.values())
    whole = second["logits"]
    assert np.array_equal(last[0], whole[0, -1])
    for i in (0, 15, 16, 17, first.C - 2):
        assert np.array_equal(first.logits_rows(1, i, i + 1)[0], whole[1, i])
