"""Progressive traces: the layers done so far are handed over before the output is computed."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from explorer.config import ModelConfig, RunOptions
from explorer.errors import Cancelled
from explorer.trace import run_trace
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import preset_tokenizer

TEXT = "This is a pen .\nThe big dog runs to the park ."


@pytest.fixture(scope="module")
def bundle():
    tok = preset_tokenizer("words-en.json")
    return random_bundle(
        ModelConfig(vocab_size=tok.vocab_size, embed_dim=32, key_dim=8, heads=4, layers=4), tok, seed=3
    )


@pytest.mark.parametrize("after", [0, 2])
def test_partial_trace_holds_the_layers_done_and_equals_the_full_trace(bundle, after):
    partial = []
    full = run_trace(bundle, TEXT, on_partial=partial.append, partial_after=after)
    assert len(partial) == 1
    p = partial[0]
    assert p.partial and not full.partial
    assert p.layers == tuple(range(after + 1)) and full.layers == (0, 1, 2, 3)
    assert "logits" not in p and "probs" not in p and "logits" in full
    for name in p.stored_names():
        assert np.array_equal(p[name], full[name]), name
    for h in range(4):
        assert np.array_equal(p.head_map(after, "masked", 1, h), full.head_map(after, "masked", 1, h))
    # Views key what they drew by layer serial: the layers the partial trace had are the same data in the
    # full one (not drawn twice); the layers computed after it, and any other trace, are not.
    assert p.serial != full.serial
    for layer in range(after + 1):
        assert full.layer_serial(layer) == p.layer_serial(layer)
    for layer in range(after + 1, 4):
        assert full.layer_serial(layer) != p.layer_serial(layer)
    again = run_trace(bundle, TEXT)
    assert all(again.layer_serial(l) != full.layer_serial(l) for l in range(4))


def test_partial_trace_with_lazy_maps_and_one_captured_layer(bundle):
    partial = []
    opts = RunOptions(lazy_pairwise=True, layers_to_capture=(1,))
    full = run_trace(bundle, TEXT, opts, on_partial=partial.append, partial_after=1)
    assert partial[0].layers == (1,) and full.layers == (1,)
    assert np.array_equal(partial[0].head_map(1, "weights", 0, 2), full.head_map(1, "weights", 0, 2))


def test_the_full_trace_reuses_the_maps_derived_from_the_partial_one(bundle):
    # A long input shows a head's map from the partial trace; the full trace that replaces it must not derive
    # (and hold) the same 4096 × 4096 maps a second time.
    partial = []

    def on_partial(p):
        p.head_map(0, "weights", 1, 2)  # the window shows a map before the remaining layers are done
        partial.append(p)

    full = run_trace(bundle, TEXT, RunOptions(lazy_pairwise=True), on_partial=on_partial, partial_after=0)
    assert full.head_map(0, "weights", 1, 2) is partial[0].head_map(0, "weights", 1, 2)
    eager = run_trace(bundle, TEXT)
    for stage in ("weights", "scores", "scaled", "masked"):  # scaled and masked follow from the kept scores
        assert np.array_equal(full.head_map(0, stage, 1, 2), eager["layers.0.attn." + stage][1, 2]), stage
    kept = {k[1] for k in partial[0]._derived._head_cache}
    assert kept == {"scores", "weights"}  # not four maps per head looked at


def test_no_partial_for_the_last_layer(bundle):
    partial = []
    run_trace(bundle, TEXT, on_partial=partial.append, partial_after=3)
    assert partial == []  # the last layer's partial would be the full trace a moment later


def test_cancel_after_the_partial_trace_stops_the_rest(bundle):
    cancel = threading.Event()
    partial = []

    def got(trace):
        partial.append(trace)
        cancel.set()

    with pytest.raises(Cancelled):
        run_trace(bundle, TEXT, cancel=cancel, on_partial=got, partial_after=0)
    assert len(partial) == 1


def test_probs_rows_equal_the_full_softmax(bundle):
    full = run_trace(bundle, TEXT)
    block = full.probs_rows(1, 2, 6)
    assert block.shape == (4, full.config.V)
    assert np.array_equal(block, full["probs"][1, 2:6])
    assert np.array_equal(block[1], full.probs_row(1, 3))
